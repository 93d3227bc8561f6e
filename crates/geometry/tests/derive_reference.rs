//! Adjacency against its definition, checked edge by edge on random meshes with shared,
//! non-manifold, doubled and degenerate edges.

use areakit_geometry::derive::adjacency;
use areakit_geometry::{Mesh, NONE};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// For each edge `a -> b` of the first `walkable` faces: the highest other edge code among
/// those faces with the same two vertices, either direction; [`NONE`] if none.
fn by_definition(mesh: &Mesh, walkable: usize) -> Vec<[i32; 3]> {
    let edge = |c: usize| {
        let f = mesh.faces[c / 3];
        (f[c % 3], f[(c % 3 + 1) % 3])
    };
    (0..walkable)
        .map(|fi| {
            std::array::from_fn(|k| {
                let me = fi * 3 + k;
                let (a, b) = edge(me);
                (0..walkable * 3)
                    .filter(|&c| c != me && (edge(c) == (a, b) || edge(c) == (b, a)))
                    .max()
                    .map_or(NONE, |c| c as i32)
            })
        })
        .collect()
}

#[test]
fn adjacency_matches_definition() {
    let mut rng = Rng(0x0dd_ba11_5eed_f00d);
    for round in 0..300 {
        let nv = 3 + rng.below(if round % 2 == 0 { 6 } else { 40 }) as usize;
        let nf = 1 + rng.below(60) as usize;
        let faces: Vec<[u32; 3]> = (0..nf)
            .map(|_| [0, 1, 2].map(|_| rng.below(nv as u64) as u32))
            .collect();
        let mesh = Mesh {
            vertices: vec![[0.0; 3]; nv],
            walkable: vec![true; nf],
            faces,
        };
        let walkable = rng.below(nf as u64 + 1) as usize;
        assert_eq!(
            adjacency(&mesh, walkable),
            by_definition(&mesh, walkable),
            "round {round}"
        );
    }
}

/// A grid of `n * n` cells (`2 n²` faces), one cell in five not walkable, the west edge of
/// walkable cells in the first column leading into room 3.
fn grid(n: usize) -> (Mesh, Vec<[i32; 3]>) {
    let mut m = Mesh::default();
    for j in 0..=n {
        for i in 0..=n {
            m.vertices
                .push([i as f32, j as f32, ((i * 7 + j * 3) % 5) as f32 * 0.1]);
        }
    }
    let v = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    let mut t = Vec::new();
    for j in 0..n {
        for i in 0..n {
            let w = (i + 2 * j) % 5 != 0;
            m.faces.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
            m.faces.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
            m.walkable.extend([w, w]);
            t.push([NONE; 3]);
            // The second face's edge 2 runs down the west side.
            t.push([NONE, NONE, if i == 0 && w { 3 } else { NONE }]);
        }
    }
    (m, t)
}

/// One builder kept across rebuilds of growing and shrinking meshes (one large enough for the
/// tree to be built on a thread of its own), both tree styles: the same result as rebuilding
/// afresh.
#[test]
fn rebuild_with_a_kept_builder_matches_rebuild() {
    use areakit_geometry::{aabb, derive};
    let mut builder = aabb::TreeBuilder::new();
    for (n, style) in [
        (40, aabb::Style::Compiler),
        (7, aabb::Style::PyKotor),
        (185, aabb::Style::Compiler),
        (3, aabb::Style::Compiler),
        (185, aabb::Style::PyKotor),
        (60, aabb::Style::Compiler),
    ] {
        let (m, t) = grid(n);
        let kept = derive::rebuild_with(&m, &t, style, &mut builder).unwrap();
        assert!(
            kept == derive::rebuild(&m, &t, style).unwrap(),
            "grid {n} {style:?}"
        );
        assert_eq!(kept.derived.aabb.len(), 4 * n * n - 1);
    }
}
