//! The AABB builders against the reference builders they replaced (kept here verbatim from
//! the first implementation): the trees must be bit-identical, tie handling included, on
//! random meshes chosen to provoke ties (integer grids, duplicate and degenerate faces,
//! signed zeros) as well as on generic ones.

use areakit_geometry::aabb::{self, PAD_MAX, PAD_MIN, face_box, plane_code};
use areakit_geometry::{AabbNode, Mesh, NO_CHILD};

// ------------------------------------------------------------------------------------------
// Reference implementation (verbatim)
// ------------------------------------------------------------------------------------------

struct Task {
    lo: usize,
    hi: usize,
    parent: u32,
    right: bool,
}

fn ref_median_split(mesh: &Mesh) -> Vec<AabbNode> {
    let n = mesh.faces.len();
    if n == 0 {
        return Vec::new();
    }
    let centre: Vec<[f64; 3]> = (0..n)
        .map(|i| {
            let t = mesh.tri(i);
            [0, 1, 2].map(|k| (f64::from(t[0][k]) + f64::from(t[1][k]) + f64::from(t[2][k])) / 3.0)
        })
        .collect();
    let fbox: Vec<([f32; 3], [f32; 3])> = (0..n).map(|i| face_box(mesh, i)).collect();
    let mut idx: Vec<u32> = (0..n as u32).collect();
    let mut nodes: Vec<AabbNode> = Vec::with_capacity(2 * n - 1);
    let mut axes: Vec<u8> = Vec::with_capacity(2 * n - 1);
    let mut stack = vec![Task {
        lo: 0,
        hi: n,
        parent: NO_CHILD,
        right: false,
    }];
    while let Some(Task {
        lo,
        hi,
        parent,
        right,
    }) = stack.pop()
    {
        let me = nodes.len() as u32;
        if parent != NO_CHILD {
            let p = &mut nodes[parent as usize];
            if right {
                p.right = me;
            } else {
                p.left = me;
            }
        }
        let faces = &mut idx[lo..hi];
        let mut min = [f32::INFINITY; 3];
        let mut max = [f32::NEG_INFINITY; 3];
        for &f in faces.iter() {
            let (a, b) = fbox[f as usize];
            for k in 0..3 {
                min[k] = min[k].min(a[k]);
                max[k] = max[k].max(b[k]);
            }
        }
        let pmin = min.map(|c| c - PAD_MIN);
        let pmax = max.map(|c| c + PAD_MAX);
        if faces.len() == 1 {
            nodes.push(AabbNode {
                min: pmin,
                max: pmax,
                face: faces[0] as i32,
                plane: 0,
                left: NO_CHILD,
                right: NO_CHILD,
            });
            axes.push(0);
            continue;
        }
        let ext = [0, 1, 2].map(|k| max[k] - min[k]);
        let axis = if ext[0] >= ext[1] && ext[0] >= ext[2] {
            0
        } else if ext[1] >= ext[2] {
            1
        } else {
            2
        };
        let mid = faces.len() / 2;
        faces.select_nth_unstable_by(mid, |&a, &b| {
            centre[a as usize][axis]
                .total_cmp(&centre[b as usize][axis])
                .then(a.cmp(&b))
        });
        nodes.push(AabbNode {
            min: pmin,
            max: pmax,
            face: -1,
            plane: plane_code(axis),
            left: NO_CHILD,
            right: NO_CHILD,
        });
        axes.push(axis as u8);
        stack.push(Task {
            lo: lo + mid,
            hi,
            parent: me,
            right: true,
        });
        stack.push(Task {
            lo,
            hi: lo + mid,
            parent: me,
            right: false,
        });
    }
    // Planes from the children's boxes.
    for i in 0..nodes.len() {
        let nd = nodes[i];
        if nd.face >= 0 {
            continue;
        }
        let (l, r) = (nodes[nd.left as usize], nodes[nd.right as usize]);
        let d = [0, 1, 2].map(|k| {
            (f64::from(r.min[k]) + f64::from(r.max[k])) / 2.0
                - (f64::from(l.min[k]) + f64::from(l.max[k])) / 2.0
        });
        let mut a = 0;
        for k in 1..3 {
            if d[k].abs() > d[a].abs() {
                a = k;
            }
        }
        nodes[i].plane = if d[a] > 0.0 {
            1 << a
        } else if d[a] < 0.0 {
            8 << a
        } else {
            plane_code(axes[i] as usize)
        };
    }
    nodes
}

/// PyKotor's tree (the writer of most community walkmeshes).
///
/// Each node splits its faces by comparing their centroids with the mean centroid along the
/// longest side of the node's box (`y` if longer than `x`, then `z` if longer than `y`), trying
/// the next axis when all centroids fall on one side; when no axis separates them the faces
/// are split in half in face order, so every face always gets its leaf.
fn ref_mean_split(mesh: &Mesh) -> Vec<AabbNode> {
    let n = mesh.faces.len();
    if n == 0 {
        return Vec::new();
    }
    let centre: Vec<[f64; 3]> = (0..n)
        .map(|i| {
            let t = mesh.tri(i);
            let mut c = [0.0; 3];
            for (k, ck) in c.iter_mut().enumerate() {
                *ck = (f64::from(t[0][k]) + f64::from(t[1][k]) + f64::from(t[2][k])) / 3.0;
            }
            c
        })
        .collect();
    let mut idx: Vec<u32> = (0..n as u32).collect();
    let mut scratch: Vec<u32> = Vec::with_capacity(n);
    let mut nodes: Vec<AabbNode> = Vec::with_capacity(2 * n - 1);
    let mut stack = vec![Task {
        lo: 0,
        hi: n,
        parent: NO_CHILD,
        right: false,
    }];
    while let Some(Task {
        lo,
        hi,
        parent,
        right,
    }) = stack.pop()
    {
        let me = nodes.len() as u32;
        if parent != NO_CHILD {
            let p = &mut nodes[parent as usize];
            if right {
                p.right = me;
            } else {
                p.left = me;
            }
        }
        let faces = &mut idx[lo..hi];
        let mut min = [f32::INFINITY; 3];
        let mut max = [f32::NEG_INFINITY; 3];
        let mut sum = [0.0f64; 3];
        for &f in faces.iter() {
            for v in mesh.tri(f as usize) {
                for k in 0..3 {
                    min[k] = min[k].min(v[k]);
                    max[k] = max[k].max(v[k]);
                }
            }
            let c = &centre[f as usize];
            for k in 0..3 {
                sum[k] += c[k];
            }
        }
        if faces.len() == 1 {
            nodes.push(AabbNode {
                min,
                max,
                face: faces[0] as i32,
                plane: 0,
                left: NO_CHILD,
                right: NO_CHILD,
            });
            continue;
        }
        let count = faces.len() as f64;
        let mean = sum.map(|s| s / count);
        let size = [0, 1, 2].map(|k| f64::from(max[k]) - f64::from(min[k]));
        let mut axis = 0;
        if size[1] > size[0] {
            axis = 1;
        }
        if size[2] > size[1] {
            axis = 2;
        }
        let mut mid = None;
        for _ in 0..3 {
            // Stable partition: centroids below the mean first.
            scratch.clear();
            let mut left = 0;
            for j in 0..faces.len() {
                let f = faces[j];
                if centre[f as usize][axis] < mean[axis] {
                    faces[left] = f;
                    left += 1;
                } else {
                    scratch.push(f);
                }
            }
            faces[left..].copy_from_slice(&scratch);
            if left > 0 && left < faces.len() {
                mid = Some(left);
                break;
            }
            axis = (axis + 1) % 3;
        }
        let mid = mid.unwrap_or(faces.len() / 2);
        nodes.push(AabbNode {
            min,
            max,
            face: -1,
            plane: plane_code(axis),
            left: NO_CHILD,
            right: NO_CHILD,
        });
        stack.push(Task {
            lo: lo + mid,
            hi,
            parent: me,
            right: true,
        });
        stack.push(Task {
            lo,
            hi: lo + mid,
            parent: me,
            right: false,
        });
    }
    nodes
}

// ------------------------------------------------------------------------------------------
// Random meshes
// ------------------------------------------------------------------------------------------

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// A random mesh of `faces` faces; `kind` picks how ties are provoked.
fn random_mesh(rng: &mut Rng, faces: usize, kind: u64) -> Mesh {
    let nv = (faces / 2).max(3) + rng.below(8) as usize;
    let vertices: Vec<[f32; 3]> = (0..nv)
        .map(|_| match kind {
            // Small integer grid: many equal centroids and equal box extents.
            0 => [0, 1, 2].map(|_| rng.below(4) as f32),
            // Flat (z = ±0) with coarse x / y.
            1 => [
                rng.below(16) as f32 * 0.5,
                rng.below(16) as f32 * 0.5,
                if rng.below(2) == 0 { 0.0 } else { -0.0 },
            ],
            // Generic floats over a large range.
            2 => [0, 1, 2].map(|_| (rng.unit() - 0.5) * 2000.0),
            // Non-finite corners now and then (the builders do not validate).
            4 => [0, 1, 2].map(|_| match rng.below(20) {
                0 => f32::NAN,
                1 => f32::INFINITY,
                2 => f32::NEG_INFINITY,
                _ => rng.below(8) as f32 - 4.0,
            }),
            // Thin slab, extents tied in x and y.
            _ => [
                rng.below(100) as f32 * 0.25 - 12.0,
                rng.below(100) as f32 * 0.25 - 12.0,
                rng.unit() * 0.01,
            ],
        })
        .collect();
    let mut fs: Vec<[u32; 3]> = Vec::with_capacity(faces);
    while fs.len() < faces {
        let r = rng.below(10);
        if r == 0 && !fs.is_empty() {
            // Duplicate an earlier face (same centroid, same box).
            let f = fs[rng.below(fs.len() as u64) as usize];
            fs.push(f);
        } else if r == 1 {
            // Degenerate: a repeated vertex.
            let a = rng.below(nv as u64) as u32;
            let b = rng.below(nv as u64) as u32;
            fs.push([a, b, a]);
        } else {
            fs.push([0, 1, 2].map(|_| rng.below(nv as u64) as u32));
        }
    }
    let walkable = (0..faces).map(|_| rng.below(3) != 0).collect();
    Mesh {
        vertices,
        faces: fs,
        walkable,
    }
}

/// A wavy grid like the benchmark's (coherent face order, distinct centroids).
fn grid(n: usize) -> Mesh {
    let mut m = Mesh::default();
    for j in 0..=n {
        for i in 0..=n {
            let z = ((i as f32) * 0.37).sin() + ((j as f32) * 0.23).cos();
            m.vertices.push([i as f32 * 0.5, j as f32 * 0.5, z]);
        }
    }
    let v = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    for j in 0..n {
        for i in 0..n {
            m.faces.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
            m.faces.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
            m.walkable.push(true);
            m.walkable.push(true);
        }
    }
    m
}

fn bits(nodes: &[AabbNode]) -> Vec<[u32; 10]> {
    nodes
        .iter()
        .map(|n| {
            [
                n.min[0].to_bits(),
                n.min[1].to_bits(),
                n.min[2].to_bits(),
                n.max[0].to_bits(),
                n.max[1].to_bits(),
                n.max[2].to_bits(),
                n.face as u32,
                n.plane,
                n.left,
                n.right,
            ]
        })
        .collect()
}

fn assert_same(mesh: &Mesh, what: &str) {
    let old = ref_median_split(mesh);
    let new = aabb::build_median_split(mesh);
    assert!(
        bits(&old) == bits(&new),
        "{what}: median split differs ({} faces)",
        mesh.faces.len()
    );
    assert!(bits(&old) == bits(&aabb::build(mesh)));
    assert!(bits(&old) == bits(&aabb::build_with(mesh, aabb::Style::Compiler)));
    let old = ref_mean_split(mesh);
    let new = aabb::build_mean_split(mesh);
    assert!(
        bits(&old) == bits(&new),
        "{what}: mean split differs ({} faces)",
        mesh.faces.len()
    );
    assert!(bits(&old) == bits(&aabb::build_with(mesh, aabb::Style::PyKotor)));
}

#[test]
fn empty_and_tiny_meshes() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    assert_same(&Mesh::default(), "empty");
    for faces in 1..=12 {
        for kind in 0..6 {
            for _ in 0..20 {
                let m = random_mesh(&mut rng, faces, kind);
                assert_same(&m, &format!("kind {kind}"));
            }
        }
    }
}

#[test]
fn random_meshes_match_reference() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for round in 0..200 {
        let faces = 1 + rng.below(if round % 10 == 0 { 5000 } else { 400 }) as usize;
        let kind = round % 6;
        let m = random_mesh(&mut rng, faces, kind);
        assert_same(&m, &format!("round {round} kind {kind}"));
    }
}

#[test]
fn large_meshes_match_reference() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    for kind in 0..4 {
        let m = random_mesh(&mut rng, 30_000, kind);
        assert_same(&m, &format!("large kind {kind}"));
    }
    assert_same(&grid(120), "grid 120");
    // Large enough for the builders' multi-threaded path.
    assert_same(&grid(190), "grid 190");
    let m = random_mesh(&mut rng, 80_000, 2);
    assert_same(&m, "large generic");
    assert_same(&grid(33), "grid 33");
}

/// One builder (and one output vector) reused across meshes of growing and shrinking sizes,
/// both styles interleaved, gives the trees of fresh builds: nothing left over from an earlier
/// build is read.
#[test]
fn reused_builder_matches_fresh_builds() {
    let mut rng = Rng(0x5151_7a7a_0303_c0c0);
    let mut builder = aabb::TreeBuilder::new();
    let mut out = Vec::new();
    let sizes = [5_000, 40, 1, 70_000, 3, 12_000, 0, 2, 70_000, 600];
    for (i, &faces) in sizes.iter().enumerate() {
        let m = if faces == 70_000 && i > 5 {
            grid(187)
        } else {
            random_mesh(&mut rng, faces, i as u64 % 6)
        };
        for style in [aabb::Style::Compiler, aabb::Style::PyKotor] {
            builder.build_into(&m, style, &mut out);
            assert!(
                bits(&out) == bits(&aabb::build_with(&m, style)),
                "{style:?} after reuse, mesh {i} ({} faces)",
                m.faces.len()
            );
        }
    }
    assert!(out.len() == 2 * 600 - 1);
}

/// Centroids that differ only below the top 32 bits of their keys (what the radix sort looks
/// at): the runs it leaves are put in full order.
#[test]
fn near_equal_centroids_match_reference() {
    let mut rng = Rng(0x0bad_cafe_1234_5678);
    for faces in [3_000usize, 9_000] {
        let nv = faces / 2;
        let vertices = (0..nv)
            .map(|_| {
                [
                    1000.0 + rng.below(64) as f32 * 6.1e-5,
                    1000.0 + rng.below(64) as f32 * 6.1e-5,
                    rng.below(3) as f32,
                ]
            })
            .collect();
        let fs = (0..faces)
            .map(|_| [0, 1, 2].map(|_| rng.below(nv as u64) as u32))
            .collect();
        let m = Mesh {
            vertices,
            faces: fs,
            walkable: vec![true; faces],
        };
        assert_same(&m, &format!("near-equal {faces}"));
    }
}
