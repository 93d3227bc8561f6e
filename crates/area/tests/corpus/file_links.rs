//! The file's own adjacency for the oracle (`Links::File`): a TRX's `linked_triangles` and a
//! BWM's walkable adjacency, renumbered as the walkable surface `NavSource` builds (its
//! `faces` name each surface triangle's face in the file). Links to faces left out of the
//! surface (not walkable) are dropped; nothing of the engine's neighbour rule is used.

use areakit_formats::{bwm::Bwm, trx};

const NONE: u32 = u32::MAX;

fn renumber(faces: &[u32], count: usize) -> Vec<u32> {
    let mut to = vec![NONE; count];
    for (s, &f) in faces.iter().enumerate() {
        if let Some(x) = to.get_mut(f as usize) {
            *x = s as u32;
        }
    }
    to
}

/// Per surface triangle: the surface triangles its TRX triangle names as linked.
pub fn trx_links(w: &trx::Walkmesh, faces: &[u32]) -> Vec<[u32; 3]> {
    let to = renumber(faces, w.triangles.len());
    faces
        .iter()
        .map(|&f| {
            w.triangles[f as usize]
                .linked_triangles
                .map(|l| to.get(l as usize).copied().unwrap_or(NONE))
        })
        .collect()
}

/// Per surface triangle: the surface triangles its BWM face's adjacency names
/// (`face * 3 + edge`, or -1).
pub fn bwm_links(b: &Bwm, faces: &[u32]) -> Vec<[u32; 3]> {
    let to = renumber(faces, b.faces.len());
    faces
        .iter()
        .map(|&f| {
            b.adjacency.get(f as usize).map_or([NONE; 3], |a| {
                a.map(|x| {
                    if x < 0 {
                        NONE
                    } else {
                        to.get(x as usize / 3).copied().unwrap_or(NONE)
                    }
                })
            })
        })
        .collect()
}
