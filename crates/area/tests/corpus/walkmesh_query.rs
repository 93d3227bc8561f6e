//! Tree-accelerated walkmesh queries agree with brute force on every corpus BWM
//! (10 000 random points, 10 000 random rays and 1 000 nearest-point queries per file).

use areakit_area::walkmesh::QueryMesh;
use areakit_formats::bwm;
use areakit_geometry::query::{FaceFilter, brute};

/// xorshift64*: deterministic test randomness without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as f32) / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
}

#[test]
fn corpus_queries_match_brute_force() {
    let files = areakit_testkit::corpus_files(&["wok", "bwm", "pwk"]);
    assert_eq!(files.len(), 112);
    let mut rejected = Vec::new();
    let (mut covered, mut stored_trees, mut hits, mut ray_hits) = (0, 0, 0u64, 0u64);
    for path in &files {
        let m = bwm::read(&std::fs::read(path).unwrap()).unwrap();
        let q = QueryMesh::new(&m).unwrap();
        let loc = q.locator();
        stored_trees += loc.uses_stored_tree() as usize;
        if !loc.uses_stored_tree() && !m.aabb_nodes.is_empty() {
            let problem = areakit_geometry::aabb::check_usable(&q.mesh, &q.nodes).unwrap_err();
            println!("rebuilt tree for {}: {problem:?}", path.display());
            rejected.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
        let mesh = &q.mesh;
        let (lo, hi) = m.bounds().unwrap();
        let pad = 1.0;
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ covered as u64);
        for i in 0..10_000 {
            // Mix uniform points with points at face centroids and vertices (edge cases).
            let (x, y) = match i % 4 {
                0 => {
                    let f = (rng.next() * mesh.faces.len() as f32) as usize % mesh.faces.len();
                    let t = mesh.tri(f);
                    (
                        (t[0][0] + t[1][0] + t[2][0]) / 3.0,
                        (t[0][1] + t[1][1] + t[2][1]) / 3.0,
                    )
                }
                1 => {
                    let v =
                        (rng.next() * mesh.vertices.len() as f32) as usize % mesh.vertices.len();
                    (mesh.vertices[v][0], mesh.vertices[v][1])
                }
                _ => (
                    rng.range(lo[0] - pad, hi[0] + pad),
                    rng.range(lo[1] - pad, hi[1] + pad),
                ),
            };
            let z = rng.range(lo[2] - pad, hi[2] + pad);
            for filter in [FaceFilter::All, FaceFilter::Walkable] {
                for hint in [None, Some(z)] {
                    let a = loc.face_at(x, y, hint, filter);
                    let b = brute::face_at(mesh, x, y, hint, filter);
                    assert_eq!(
                        a,
                        b,
                        "{}: face_at({x}, {y}, {hint:?}, {filter:?})",
                        path.display()
                    );
                    hits += a.is_some() as u64;
                }
            }
            assert_eq!(
                loc.faces_at(x, y, FaceFilter::All),
                brute::faces_at(mesh, x, y, FaceFilter::All)
            );
            // Rays: half straight down from above, half random.
            let o = [
                rng.range(lo[0] - pad, hi[0] + pad),
                rng.range(lo[1] - pad, hi[1] + pad),
                rng.range(lo[2] - pad, hi[2] + 5.0),
            ];
            let d = if i % 2 == 0 {
                [0.0, 0.0, -1.0]
            } else {
                [
                    rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                ]
            };
            let a = loc.ray(o, d, FaceFilter::All);
            let b = brute::ray(mesh, o, d, FaceFilter::All);
            assert_eq!(a, b, "{}: ray({o:?}, {d:?})", path.display());
            ray_hits += a.is_some() as u64;
            if i % 10 == 0 {
                let p = [o[0], o[1], z];
                assert_eq!(
                    loc.nearest_walkable(p),
                    brute::nearest_walkable(mesh, p),
                    "{}: nearest({p:?})",
                    path.display()
                );
            }
        }
        covered += 1;
    }
    println!(
        "files {covered}, stored trees used {stored_trees}, point hits {hits}, ray hits {ray_hits}"
    );
    assert_eq!(covered, 112);
    // Every file with a stored tree answers through it, except the damaged out.wok (faces
    // without leaves) and floor_plain.wok (a root box with min z 10 > max z -10).
    assert_eq!(stored_trees, 107);
    assert_eq!(rejected, ["floor_plain.wok", "out.wok"]);
    assert!(hits > 1_000_000 && ray_hits > 100_000);
}
