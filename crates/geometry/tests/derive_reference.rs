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
