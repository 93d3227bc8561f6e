//! The mesh and point packets (RIGD, SKIN, COL2, COL3, COLS, HOOK, HAIR, HELM): decoding
//! from a cursor over the payload, encoding to bytes.

use super::model::{CollisionVertex, Material, Mesh, Point, RigidVertex, Skin, SkinVertex, Sphere};
use super::raw;
use crate::cursor::{Cursor, PutLe};
use crate::error::{DecodeError, EncodeError};

/// A vertex record of a fixed size.
pub(crate) trait VertexRecord: Sized {
    /// Bytes per record.
    const SIZE: usize;
    /// Reads one record.
    fn read(c: &mut Cursor<'_>) -> Result<Self, DecodeError>;
    /// Appends one record.
    fn write(&self, out: &mut Vec<u8>);
}

impl VertexRecord for RigidVertex {
    const SIZE: usize = raw::RIGID_VERTEX_SIZE;
    fn read(c: &mut Cursor<'_>) -> Result<Self, DecodeError> {
        Ok(RigidVertex {
            position: c.vec3("RIGD vertex position")?,
            normal: c.vec3("RIGD vertex normal")?,
            tangent: c.vec3("RIGD vertex tangent")?,
            binormal: c.vec3("RIGD vertex binormal")?,
            uvw: c.vec3("RIGD vertex texture coordinates")?,
        })
    }
    fn write(&self, out: &mut Vec<u8>) {
        for v in [
            self.position,
            self.normal,
            self.tangent,
            self.binormal,
            self.uvw,
        ] {
            out.put_vec3(v);
        }
    }
}

impl VertexRecord for CollisionVertex {
    const SIZE: usize = raw::COLLISION_VERTEX_SIZE;
    fn read(c: &mut Cursor<'_>) -> Result<Self, DecodeError> {
        Ok(CollisionVertex {
            position: c.vec3("collision vertex position")?,
            normal: c.vec3("collision vertex normal")?,
            uvw: c.vec3("collision vertex texture coordinates")?,
        })
    }
    fn write(&self, out: &mut Vec<u8>) {
        for v in [self.position, self.normal, self.uvw] {
            out.put_vec3(v);
        }
    }
}

impl VertexRecord for SkinVertex {
    const SIZE: usize = raw::SKIN_VERTEX_SIZE;
    fn read(c: &mut Cursor<'_>) -> Result<Self, DecodeError> {
        let position = c.vec3("SKIN vertex position")?;
        let normal = c.vec3("SKIN vertex normal")?;
        let mut bone_weights = [0.0; 4];
        for w in &mut bone_weights {
            *w = c.f32("SKIN vertex bone weight")?;
        }
        Ok(SkinVertex {
            position,
            normal,
            bone_weights,
            bone_indices: c.array("SKIN vertex bone indices")?,
            tangent: c.vec3("SKIN vertex tangent")?,
            binormal: c.vec3("SKIN vertex binormal")?,
            uvw: c.vec3("SKIN vertex texture coordinates")?,
            bone_count: c.f32("SKIN vertex bone count")?,
        })
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.put_vec3(self.position);
        out.put_vec3(self.normal);
        for w in self.bone_weights {
            out.put_f32(w);
        }
        out.extend_from_slice(&self.bone_indices);
        out.put_vec3(self.tangent);
        out.put_vec3(self.binormal);
        out.put_vec3(self.uvw);
        out.put_f32(self.bone_count);
    }
}

fn read_material(c: &mut Cursor<'_>) -> Result<Material, DecodeError> {
    Ok(Material {
        diffuse_map: c.array("material diffuse map name")?,
        normal_map: c.array("material normal map name")?,
        tint_map: c.array("material tint map name")?,
        glow_map: c.array("material glow map name")?,
        diffuse_color: c.vec3("material diffuse colour")?,
        specular_color: c.vec3("material specular colour")?,
        specular_power: c.f32("material specular power")?,
        specular_value: c.f32("material specular value")?,
        flags: c.u32("material flags")?,
    })
}

fn write_material(m: &Material, out: &mut Vec<u8>) {
    for name in [&m.diffuse_map, &m.normal_map, &m.tint_map, &m.glow_map] {
        out.extend_from_slice(name);
    }
    out.put_vec3(m.diffuse_color);
    out.put_vec3(m.specular_color);
    out.put_f32(m.specular_power);
    out.put_f32(m.specular_value);
    out.put_u32(m.flags);
}

/// Reads a mesh body after its name (and a SKIN's skeleton name): material, counts,
/// vertices, faces. Both counts are checked against the bytes left before allocating.
fn read_mesh_body<V: VertexRecord>(
    c: &mut Cursor<'_>,
    name: [u8; 32],
    what: &str,
) -> Result<Mesh<V>, DecodeError> {
    let material = read_material(c)?;
    let nv = c.u32(&format!("{what} vertex count"))?;
    let nf = c.u32(&format!("{what} face count"))?;
    let need = u64::from(nv) * V::SIZE as u64 + u64::from(nf) * raw::FACE_SIZE as u64;
    if need != c.remaining() as u64 {
        return Err(DecodeError::malformed_at(
            c.pos() as u64,
            format!(
                "{what}: {nv} vertices of {} bytes and {nf} faces of {} bytes need {need} bytes, but the packet has {} left",
                V::SIZE,
                raw::FACE_SIZE,
                c.remaining()
            ),
        ));
    }
    let mut vertices = Vec::with_capacity(nv as usize);
    for _ in 0..nv {
        vertices.push(V::read(c)?);
    }
    let mut faces = Vec::with_capacity(nf as usize);
    for _ in 0..nf {
        faces.push([
            c.u16("face vertex index")?,
            c.u16("face vertex index")?,
            c.u16("face vertex index")?,
        ]);
    }
    Ok(Mesh {
        name,
        material,
        vertices,
        faces,
    })
}

/// Reads a RIGD, COL2 or COL3 payload.
pub(crate) fn read_mesh<V: VertexRecord>(
    c: &mut Cursor<'_>,
    what: &str,
) -> Result<Mesh<V>, DecodeError> {
    let name = c.array(&format!("{what} name"))?;
    read_mesh_body(c, name, what)
}

/// Reads a SKIN payload.
pub(crate) fn read_skin(c: &mut Cursor<'_>) -> Result<Skin, DecodeError> {
    let name = c.array("SKIN name")?;
    let skeleton = c.array("SKIN skeleton name")?;
    Ok(Skin {
        skeleton,
        mesh: read_mesh_body(c, name, "SKIN")?,
    })
}

/// Encodes a mesh payload (`skeleton` for SKIN only).
pub(crate) fn encode_mesh<V: VertexRecord>(
    m: &Mesh<V>,
    skeleton: Option<&[u8; 32]>,
) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(
        raw::SKIN_HEADER_SIZE + m.vertices.len() * V::SIZE + m.faces.len() * raw::FACE_SIZE,
    );
    out.extend_from_slice(&m.name);
    if let Some(s) = skeleton {
        out.extend_from_slice(s);
    }
    write_material(&m.material, &mut out);
    out.put_u32(raw::count(m.vertices.len(), "vertices")?);
    out.put_u32(raw::count(m.faces.len(), "faces")?);
    for v in &m.vertices {
        v.write(&mut out);
    }
    for f in &m.faces {
        for i in f {
            out.extend_from_slice(&i.to_le_bytes());
        }
    }
    Ok(out)
}

/// Reads a HOOK, HAIR or HELM payload.
pub(crate) fn read_point(c: &mut Cursor<'_>, what: &str) -> Result<Point, DecodeError> {
    let name = c.array(&format!("{what} name"))?;
    let word = c.u32(&format!("{what} type word"))?;
    let position = c.vec3(&format!("{what} position"))?;
    let mut orientation = [[0.0; 3]; 3];
    for row in &mut orientation {
        *row = c.vec3(&format!("{what} orientation"))?;
    }
    Ok(Point {
        name,
        word,
        position,
        orientation,
    })
}

/// Encodes a HOOK, HAIR or HELM payload.
pub(crate) fn encode_point(p: &Point) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw::POINT_SIZE);
    out.extend_from_slice(&p.name);
    out.put_u32(p.word);
    out.put_vec3(p.position);
    for row in p.orientation {
        out.put_vec3(row);
    }
    out
}

/// Reads a COLS payload: a count, then the spheres.
pub(crate) fn read_spheres(c: &mut Cursor<'_>) -> Result<Vec<Sphere>, DecodeError> {
    let n = c.u32("COLS sphere count")?;
    c.check_table(u64::from(n), raw::SPHERE_SIZE as u64, "COLS spheres")?;
    let mut out = Vec::with_capacity(n as usize);
    for _ in 0..n {
        out.push(Sphere {
            bone: c.u32("COLS sphere bone index")?,
            radius: c.f32("COLS sphere radius")?,
        });
    }
    Ok(out)
}

/// Encodes a COLS payload.
pub(crate) fn encode_spheres(s: &[Sphere]) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(4 + s.len() * raw::SPHERE_SIZE);
    out.put_u32(raw::count(s.len(), "COLS spheres")?);
    for sp in s {
        out.put_u32(sp.bone);
        out.put_f32(sp.radius);
    }
    Ok(out)
}
