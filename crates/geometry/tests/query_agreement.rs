//! The tree-accelerated queries give exactly the answers of the tree traversals they replaced
//! (kept below as the reference) on random meshes, with the built tree and with trees of the
//! other style, including integer grids (points and rays through vertices, along edges,
//! parallel to axes and on box sides) and meshes with overlapping, vertical and degenerate
//! faces. Point queries and rays also agree with brute force (a ray's hit must lie on its
//! face's box, so no traversal order or pruning can miss one).

use areakit_geometry::query::{FaceFilter, Locator, brute};
use areakit_geometry::{Mesh, aabb};

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
    fn coord(&mut self, grid: bool) -> f32 {
        if grid {
            self.below(9) as f32 * 0.5 - 2.0
        } else {
            (self.unit() - 0.5) * 8.0
        }
    }
}

fn random_mesh(rng: &mut Rng, faces: usize, grid: bool) -> Mesh {
    let nv = faces.max(3);
    let vertices = (0..nv)
        .map(|_| [rng.coord(grid), rng.coord(grid), rng.coord(grid) * 0.5])
        .collect();
    let faces: Vec<[u32; 3]> = (0..faces)
        .map(|_| [0, 1, 2].map(|_| rng.below(nv as u64) as u32))
        .collect();
    let walkable = (0..faces.len()).map(|_| rng.below(3) != 0).collect();
    Mesh {
        vertices,
        faces,
        walkable,
    }
}

#[test]
fn locator_matches_reference() {
    let mut rng = Rng(0x5151_7e57_0bad_cafe);
    let mut hits = 0u64;
    for round in 0..100 {
        let grid = round % 2 == 0;
        let faces = 1 + rng.below(300) as usize;
        let m = random_mesh(&mut rng, faces, grid);
        m.validate().unwrap();
        let nodes = if round % 3 == 0 {
            aabb::build_mean_split(&m)
        } else {
            aabb::build(&m)
        };
        let loc = Locator::new(&m, &nodes);
        assert!(loc.uses_stored_tree());
        for _ in 0..300 {
            let (x, y, z) = (rng.coord(grid), rng.coord(grid), rng.coord(grid));
            for filter in [FaceFilter::All, FaceFilter::Walkable] {
                for hint in [None, Some(z), Some(f32::NAN)] {
                    let a = loc.face_at(x, y, hint, filter);
                    assert_eq!(a, reference::face_at(&m, &nodes, x, y, hint, filter));
                    assert_eq!(a, brute::face_at(&m, x, y, hint, filter));
                    hits += u64::from(a.is_some());
                }
                let a = loc.faces_at(x, y, filter);
                assert_eq!(a, reference::faces_at(&m, &nodes, x, y, filter));
                assert_eq!(a, brute::faces_at(&m, x, y, filter));
            }
            let o = if rng.below(50) == 0 {
                [x, f32::NAN, z]
            } else {
                [x, y, z]
            };
            let dirs = [
                [0.0, 0.0, -1.0],
                [0.0, 0.0, 1.0],
                [1.0, 0.0, 0.0],
                [0.0, -1.0, 0.0],
                [-0.0, 0.0, -2.0],
                [rng.coord(grid), rng.coord(grid), rng.coord(grid)],
                [rng.unit() - 0.5, rng.unit() - 0.5, 0.0],
            ];
            for d in dirs {
                for filter in [FaceFilter::All, FaceFilter::Walkable] {
                    let a = loc.ray(o, d, filter);
                    let r = reference::ray(&m, &nodes, o, d, filter);
                    assert_eq!(a, r, "ray {o:?} {d:?}");
                    // Hits off the face are rejected, so the tree misses none: brute force.
                    assert_eq!(a, brute::ray(&m, o, d, filter), "ray {o:?} {d:?}");
                    hits += u64::from(a.is_some());
                }
            }
        }
    }
    assert!(hits > 10_000, "{hits}");
}

// ------------------------------------------------------------------------------------------
// Reference: the tree traversals the flat ones replaced (verbatim but for the node type).
// ------------------------------------------------------------------------------------------

mod reference {
    #![allow(clippy::all)]
    use areakit_geometry::query::{FaceFilter, PointHit, RayHit, tri_height_at};
    use areakit_geometry::{AabbNode, Mesh};

    /// Preference of a candidate for `face_at`: smaller is better.
    #[inline]
    fn point_key(walkable: bool, z: f32, hint: Option<f32>, face: u32) -> (u8, f32, u32) {
        let score = match hint {
            Some(h) => (z - h).abs(),
            None => -z,
        };
        // A NaN hint scores every face alike: the lowest index wins, whatever the visit order.
        let score = if score.is_nan() { f32::INFINITY } else { score };
        (u8::from(!walkable), score, face)
    }

    #[inline]
    fn better(a: (u8, f32, u32), b: (u8, f32, u32)) -> bool {
        // `a` strictly better than `b`.
        a.0 < b.0 || (a.0 == b.0 && (a.1 < b.1 || (a.1 == b.1 && a.2 < b.2)))
    }

    #[inline]
    fn ray_tri(t: &[[f32; 3]; 3], o: [f64; 3], d: [f64; 3]) -> Option<f64> {
        let v0 = t[0].map(f64::from);
        let e1 = sub(t[1].map(f64::from), v0);
        let e2 = sub(t[2].map(f64::from), v0);
        let p = cross(d, e2);
        let det = dot(e1, p);
        if det == 0.0 {
            return None;
        }
        let inv = 1.0 / det;
        let s = sub(o, v0);
        let u = dot(s, p) * inv;
        if !(0.0..=1.0).contains(&u) {
            return None;
        }
        let q = cross(s, e1);
        let v = dot(d, q) * inv;
        if v < 0.0 || u + v > 1.0 {
            return None;
        }
        let tt = dot(e2, q) * inv;
        // The hit must lie in the corners' box, each side moved out by
        // `5e-6 * (1 + max(|min|, |max|))` (a ray parallel to the face can "hit" it far away).
        let inside = (0..3).all(|k| {
            let min = t[0][k].min(t[1][k]).min(t[2][k]);
            let max = t[0][k].max(t[1][k]).max(t[2][k]);
            let pad = 5e-6 * (1.0 + f64::from(min.abs().max(max.abs())));
            let p = o[k] + d[k] * tt;
            p >= f64::from(min) - pad && p <= f64::from(max) + pad
        });
        (tt >= 0.0 && inside).then_some(tt)
    }

    #[inline]
    fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
        [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
    }
    #[inline]
    fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
        [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
    }
    #[inline]
    fn scale(a: [f64; 3], s: f64) -> [f64; 3] {
        [a[0] * s, a[1] * s, a[2] * s]
    }
    #[inline]
    fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }
    #[inline]
    fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    }

    fn normalise(d: [f32; 3]) -> Option<[f64; 3]> {
        let d = d.map(f64::from);
        let len = dot(d, d).sqrt();
        (len > 0.0 && len.is_finite()).then(|| scale(d, 1.0 / len))
    }

    /// Entry parameter of a ray into a box (slightly enlarged so that hits on the box faces are
    /// never lost to rounding), if it enters at `t >= 0` or starts inside.
    #[inline]
    fn slab(o: [f64; 3], inv: [f64; 3], min: [f32; 3], max: [f32; 3]) -> Option<f64> {
        let mut t0 = 0.0f64;
        let mut t1 = f64::INFINITY;
        for k in 0..3 {
            let pad = 1e-5 * (1.0 + f64::from(min[k].abs().max(max[k].abs())));
            let lo = f64::from(min[k]) - pad;
            let hi = f64::from(max[k]) + pad;
            if inv[k].is_infinite() {
                if o[k] < lo || o[k] > hi {
                    return None;
                }
                continue;
            }
            let a = (lo - o[k]) * inv[k];
            let b = (hi - o[k]) * inv[k];
            let (a, b) = if a < b { (a, b) } else { (b, a) };
            t0 = t0.max(a);
            t1 = t1.min(b);
            if t0 > t1 {
                return None;
            }
        }
        Some(t0)
    }

    fn ray_hit(o: [f64; 3], d: [f64; 3], t: f64, f: u32) -> RayHit {
        RayHit {
            face: f,
            distance: t as f32,
            point: add(o, scale(d, t)).map(|c| c as f32),
        }
    }

    fn accepts(filter: FaceFilter, mesh: &Mesh, f: usize) -> bool {
        match filter {
            FaceFilter::All => true,
            FaceFilter::Walkable => mesh.walkable[f],
        }
    }

    pub fn for_each_at(nodes: &[AabbNode], x: f32, y: f32, mut visit: impl FnMut(usize)) {
        if nodes.is_empty() {
            return;
        }
        let mut stack = vec![0u32];
        while let Some(i) = stack.pop() {
            let n = &nodes[i as usize];
            if x < n.min[0] || x > n.max[0] || y < n.min[1] || y > n.max[1] {
                continue;
            }
            if n.face >= 0 {
                visit(n.face as usize);
            } else {
                stack.push(n.right);
                stack.push(n.left);
            }
        }
    }

    pub fn face_at(
        mesh: &Mesh,
        nodes: &[AabbNode],
        x: f32,
        y: f32,
        hint: Option<f32>,
        filter: FaceFilter,
    ) -> Option<PointHit> {
        let mut best: Option<((u8, f32, u32), PointHit)> = None;
        for_each_at(nodes, x, y, |f| {
            if !accepts(filter, mesh, f) {
                return;
            }
            if let Some(z) = tri_height_at(&mesh.tri(f), x, y) {
                let w = mesh.walkable[f];
                let k = point_key(w, z, hint, f as u32);
                if best.as_ref().is_none_or(|(bk, _)| better(k, *bk)) {
                    best = Some((
                        k,
                        PointHit {
                            face: f as u32,
                            z,
                            walkable: w,
                        },
                    ));
                }
            }
        });
        best.map(|b| b.1)
    }

    pub fn faces_at(
        mesh: &Mesh,
        nodes: &[AabbNode],
        x: f32,
        y: f32,
        filter: FaceFilter,
    ) -> Vec<(u32, f32)> {
        let mut out = Vec::new();
        for_each_at(nodes, x, y, |f| {
            if accepts(filter, mesh, f)
                && let Some(z) = tri_height_at(&mesh.tri(f), x, y)
            {
                out.push((f as u32, z));
            }
        });
        out.sort_by_key(|a| a.0);
        out
    }

    pub fn ray(
        mesh: &Mesh,
        nodes: &[AabbNode],
        origin: [f32; 3],
        dir: [f32; 3],
        filter: FaceFilter,
    ) -> Option<RayHit> {
        let d = normalise(dir)?;
        if nodes.is_empty() {
            return None;
        }
        let o = origin.map(f64::from);
        let inv = d.map(|c| 1.0 / c);
        let mut best: Option<(f64, u32)> = None;
        let mut stack: Vec<u32> = Vec::with_capacity(64);
        stack.push(0);
        while let Some(i) = stack.pop() {
            let n = &nodes[i as usize];
            let Some(tnear) = slab(o, inv, n.min, n.max) else {
                continue;
            };
            if let Some((bt, _)) = best
                && tnear > bt
            {
                continue;
            }
            if n.face >= 0 {
                let f = n.face as usize;
                if accepts(filter, mesh, f)
                    && let Some(t) = ray_tri(&mesh.tri(f), o, d)
                    && best.is_none_or(|(bt, bf)| t < bt || (t == bt && (f as u32) < bf))
                {
                    best = Some((t, f as u32));
                }
            } else {
                stack.push(n.right);
                stack.push(n.left);
            }
        }
        best.map(|(t, f)| ray_hit(o, d, t, f))
    }
}
