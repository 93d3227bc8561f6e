//! The WALK packet: decoding, encoding, and the walkmesh as placement reads it.

use super::model::{Walk, WalkTriangle};
use super::raw;
use crate::cursor::{Cursor, PutLe};
use crate::error::{DecodeError, EncodeError};

/// Reads a WALK payload: name, flags, vertex and triangle counts, vertices, triangles. The
/// counts must account for exactly the payload's bytes (checked before allocating).
pub(crate) fn read_walk(c: &mut Cursor<'_>) -> Result<Walk, DecodeError> {
    let name = c.array("WALK name")?;
    let flags = c.u32("WALK flags")?;
    let nv = c.u32("WALK vertex count")?;
    let nt = c.u32("WALK triangle count")?;
    let need = u64::from(nv) * raw::WALK_VERTEX_SIZE as u64
        + u64::from(nt) * raw::WALK_TRIANGLE_SIZE as u64;
    if need != c.remaining() as u64 {
        return Err(DecodeError::malformed_at(
            c.pos() as u64,
            format!(
                "WALK: {nv} vertices of {} bytes and {nt} triangles of {} bytes need {need} bytes, but the packet has {} left",
                raw::WALK_VERTEX_SIZE,
                raw::WALK_TRIANGLE_SIZE,
                c.remaining()
            ),
        ));
    }
    let mut vertices = Vec::with_capacity(nv as usize);
    for _ in 0..nv {
        vertices.push(c.vec3("WALK vertex")?);
    }
    let mut triangles = Vec::with_capacity(nt as usize);
    for _ in 0..nt {
        let vertices = [
            c.u16("WALK triangle vertex index")?,
            c.u16("WALK triangle vertex index")?,
            c.u16("WALK triangle vertex index")?,
        ];
        let flags = c.u32("WALK triangle flags")?;
        triangles.push(WalkTriangle { vertices, flags });
    }
    Ok(Walk {
        name,
        flags,
        vertices,
        triangles,
    })
}

/// Encodes a WALK payload.
pub(crate) fn encode_walk(w: &Walk) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(
        raw::WALK_HEADER_SIZE
            + w.vertices.len() * raw::WALK_VERTEX_SIZE
            + w.triangles.len() * raw::WALK_TRIANGLE_SIZE,
    );
    out.extend_from_slice(&w.name);
    out.put_u32(w.flags);
    out.put_u32(raw::count(w.vertices.len(), "WALK vertices")?);
    out.put_u32(raw::count(w.triangles.len(), "WALK triangles")?);
    for v in &w.vertices {
        out.put_vec3(*v);
    }
    for t in &w.triangles {
        for i in t.vertices {
            out.extend_from_slice(&i.to_le_bytes());
        }
        out.put_u32(t.flags);
    }
    Ok(out)
}

/// A WALK walkmesh as placement uses it: model-space positions, triangles as vertex
/// indices into them, and per triangle its walkable flag and its whole flags word.
///
/// The coordinates are the model's own (before the placeable's or door's position and
/// bearing); the bake moves them into the area. Triangles keep the file's order and
/// winding; link vertices (z = [`raw::LINK_VERTEX_Z`]) are kept as stored, and
/// [`WalkSurface::is_link_vertex`] names them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WalkSurface {
    /// Vertex positions (model space).
    pub vertices: Vec<[f32; 3]>,
    /// Triangles: three indices into `vertices` each.
    pub triangles: Vec<[u32; 3]>,
    /// Per triangle: whether it is walkable ([`raw::FLAG_WALKABLE`]).
    pub walkable: Vec<bool>,
    /// Per triangle: the flags word as stored (walkable and surface-material bits).
    pub flags: Vec<u32>,
}

impl WalkSurface {
    /// Whether vertex `i` is a link vertex (its z is [`raw::LINK_VERTEX_Z`]).
    pub fn is_link_vertex(&self, i: usize) -> bool {
        self.vertices
            .get(i)
            .is_some_and(|v| v[2] == raw::LINK_VERTEX_Z)
    }

    /// The walkable triangles' corners, in model space.
    pub fn walkable_triangles(&self) -> impl Iterator<Item = [[f32; 3]; 3]> + '_ {
        self.triangles
            .iter()
            .zip(&self.walkable)
            .filter(|(_, w)| **w)
            .map(|(t, _)| t.map(|i| self.vertices[i as usize]))
    }
}

/// A WALK triangle that names a vertex the packet does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "WALK triangle {triangle} names vertex {vertex}, but the walkmesh has {vertex_count} vertices"
)]
pub struct WalkIndexError {
    /// The triangle's index.
    pub triangle: usize,
    /// The vertex index it names.
    pub vertex: u16,
    /// How many vertices there are.
    pub vertex_count: usize,
}

impl Walk {
    /// The walkmesh for placement: every triangle with its walkable flag. Fails when a
    /// triangle names a vertex past the end (the reader keeps such indices as stored).
    pub fn surface(&self) -> Result<WalkSurface, WalkIndexError> {
        let n = self.vertices.len();
        let mut triangles = Vec::with_capacity(self.triangles.len());
        for (ti, t) in self.triangles.iter().enumerate() {
            if let Some(&v) = t.vertices.iter().find(|&&v| usize::from(v) >= n) {
                return Err(WalkIndexError {
                    triangle: ti,
                    vertex: v,
                    vertex_count: n,
                });
            }
            triangles.push(t.vertices.map(u32::from));
        }
        Ok(WalkSurface {
            vertices: self.vertices.clone(),
            triangles,
            walkable: self.triangles.iter().map(|t| t.is_walkable()).collect(),
            flags: self.triangles.iter().map(|t| t.flags).collect(),
        })
    }

    /// How many triangles are walkable.
    pub fn walkable_count(&self) -> usize {
        self.triangles.iter().filter(|t| t.is_walkable()).count()
    }
}
