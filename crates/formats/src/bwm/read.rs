//! Decoding `BWM V1.0` bytes into a [`Bwm`].

use super::material::Material;
use super::model::{AabbNode, Bwm, Edge, Face, SourceLayout, WalkmeshType};
use super::raw::{self, Directory, HEADER_SIZE, NONE_U32, Table};
use super::write::plan_offsets;
use crate::cursor::Cursor;
use crate::error::DecodeError;

/// Decodes a BWM file.
///
/// Every table is bounds-checked against the input before it is allocated, so the memory used
/// is bounded by the input's size. Indices that would make the engine read out of bounds
/// (vertex indices, AABB children and leaf faces) and non-finite coordinates are errors;
/// inconsistencies that the engine survives (adjacency, edges, perimeters) are left to
/// validation.
///
/// ```
/// use areakit_formats::bwm::{self, Bwm};
/// let bytes = bwm::write(&Bwm::default()).unwrap();
/// let back = bwm::read(&bytes).unwrap();
/// assert_eq!(back.faces.len(), 0);
/// ```
pub fn read(data: &[u8]) -> Result<Bwm, DecodeError> {
    let dir = read_directory(data)?;
    let mut c = Cursor::new(data);
    c.bytes(raw::OFF_TYPE, "signature")?;
    let walkmesh_type = WalkmeshType::from_raw(c.u32("walkmesh type")?);
    let relative_use = [
        finite_vec3(&mut c, "relative use hook 1")?,
        finite_vec3(&mut c, "relative use hook 2")?,
    ];
    let absolute_use = [
        finite_vec3(&mut c, "absolute use hook 1")?,
        finite_vec3(&mut c, "absolute use hook 2")?,
    ];
    let position = finite_vec3(&mut c, "position")?;

    let [nv, nf, _, _, _, na, nadj, ne, np] = dir.counts.map(|c| c as usize);
    let table = |t: Table| -> Result<Cursor<'_>, DecodeError> {
        let i = t as usize;
        let c = Cursor::at(data, dir.offsets[i] as usize, t.name())?;
        c.check_table(u64::from(dir.counts[i]), t.record_size() as u64, t.name())?;
        Ok(c)
    };

    let mut vertices = Vec::with_capacity(nv);
    if nv > 0 {
        let mut c = table(Table::Vertices)?;
        for _ in 0..nv {
            vertices.push(finite_vec3(&mut c, "vertex coordinate")?);
        }
    }

    let mut faces = Vec::with_capacity(nf);
    let mut normals = Vec::with_capacity(nf);
    let mut distances = Vec::with_capacity(nf);
    if nf > 0 {
        let mut fc = table(Table::Faces)?;
        let mut mc = table(Table::Materials)?;
        let mut ncur = table(Table::Normals)?;
        let mut dc = table(Table::Distances)?;
        for i in 0..nf {
            let mut v = [0u32; 3];
            for slot in &mut v {
                let at = fc.pos();
                *slot = fc.u32("vertex index")?;
                if *slot as usize >= nv {
                    return Err(DecodeError::malformed_at(
                        at as u64,
                        format!("(face {i}): vertex index {} >= vertex count {nv}", *slot),
                    ));
                }
            }
            let material = Material::from_id(mc.u32("material")?);
            faces.push(Face {
                vertices: v,
                material,
            });
            normals.push(ncur.vec3("normal")?);
            distances.push(dc.f32("planar distance")?);
        }
    }

    let mut aabb_nodes = Vec::with_capacity(na);
    if na > 0 {
        let mut c = table(Table::Aabb)?;
        for i in 0..na {
            let min = finite_vec3(&mut c, "AABB minimum")?;
            let max = finite_vec3(&mut c, "AABB maximum")?;
            let at = c.pos();
            let face = c.i32("AABB face index")?;
            if face != -1 && (face < 0 || face as usize >= nf) {
                return Err(DecodeError::malformed_at(
                    at as u64,
                    format!(
                        "(AABB node {i}): face index {face} is neither -1 nor < face count {nf}"
                    ),
                ));
            }
            let unknown = c.u32("AABB unknown word")?;
            let plane = c.u32("AABB plane")?;
            let mut child = [0u32; 2];
            for slot in &mut child {
                let at = c.pos();
                *slot = c.u32("AABB child index")?;
                if *slot != NONE_U32 && *slot as usize >= na {
                    return Err(DecodeError::malformed_at(
                        at as u64,
                        format!("(AABB node {i}): child index {} >= node count {na}", *slot),
                    ));
                }
            }
            aabb_nodes.push(AabbNode {
                min,
                max,
                face,
                unknown,
                plane,
                left: child[0],
                right: child[1],
            });
        }
    }

    let mut adjacency = Vec::with_capacity(nadj);
    if nadj > 0 {
        let mut c = table(Table::Adjacency)?;
        for _ in 0..nadj {
            adjacency.push([
                c.i32("adjacency")?,
                c.i32("adjacency")?,
                c.i32("adjacency")?,
            ]);
        }
    }

    let mut edges = Vec::with_capacity(ne);
    if ne > 0 {
        let mut c = table(Table::Edges)?;
        for _ in 0..ne {
            edges.push(Edge {
                edge: c.u32("edge index")?,
                transition: c.i32("edge transition")?,
            });
        }
    }

    let mut perimeters = Vec::with_capacity(np);
    if np > 0 {
        let mut c = table(Table::Perimeters)?;
        for _ in 0..np {
            perimeters.push(c.u32("perimeter end")?);
        }
    }

    let source_layout = source_layout(data, &dir, walkmesh_type);
    Ok(Bwm {
        walkmesh_type,
        relative_use,
        absolute_use,
        position,
        vertices,
        faces,
        normals,
        distances,
        aabb_nodes,
        aabb_root: dir.aabb_root,
        adjacency,
        edges,
        perimeters,
        source_layout,
    })
}

/// Reads and checks the signature and the table directory (counts and offsets), without
/// decoding any table. Cheap: use it to report header counts or to validate sizes.
pub fn read_directory(data: &[u8]) -> Result<Directory, DecodeError> {
    let mut c = Cursor::new(data);
    let magic: [u8; 4] = c.array("magic \"BWM \"")?;
    if magic != raw::MAGIC {
        return Err(DecodeError::malformed_at(
            0,
            format!("expected magic \"BWM \", found {}", show_bytes(&magic)),
        ));
    }
    let version: [u8; 4] = c.array("version \"V1.0\"")?;
    if version != raw::VERSION {
        return Err(DecodeError::new(
            crate::ErrorKind::Unsupported,
            crate::Location::Offset(4),
            format!("expected version \"V1.0\", found {}", show_bytes(&version)),
        ));
    }
    if data.len() < HEADER_SIZE {
        return Err(DecodeError::malformed_at(
            data.len() as u64,
            format!(
                "expected a {HEADER_SIZE}-byte header, but the input is {} bytes",
                data.len()
            ),
        ));
    }
    let mut c = Cursor::at(data, raw::OFF_DIRECTORY, "table directory")?;
    let vertex_count = c.u32("vertex count")?;
    let vertex_off = c.u32("vertex offset")?;
    let face_count = c.u32("face count")?;
    let face_off = c.u32("face offset")?;
    let material_off = c.u32("material offset")?;
    let normal_off = c.u32("normal offset")?;
    let distance_off = c.u32("distance offset")?;
    let aabb_count = c.u32("AABB count")?;
    let aabb_off = c.u32("AABB offset")?;
    let aabb_root = c.u32("AABB root")?;
    let adjacency_count = c.u32("adjacency count")?;
    let adjacency_off = c.u32("adjacency offset")?;
    let edge_count = c.u32("edge count")?;
    let edge_off = c.u32("edge offset")?;
    let perimeter_count = c.u32("perimeter count")?;
    let perimeter_off = c.u32("perimeter offset")?;
    if adjacency_count > face_count {
        return Err(DecodeError::malformed_at(
            0x70,
            format!(
                "adjacency count {adjacency_count} exceeds face count {face_count} (one adjacency record per walkable face)"
            ),
        ));
    }
    let dir = Directory {
        counts: [
            vertex_count,
            face_count,
            face_count,
            face_count,
            face_count,
            aabb_count,
            adjacency_count,
            edge_count,
            perimeter_count,
        ],
        offsets: [
            vertex_off,
            face_off,
            material_off,
            normal_off,
            distance_off,
            aabb_off,
            adjacency_off,
            edge_off,
            perimeter_off,
        ],
        aabb_root,
    };
    for t in Table::ALL {
        let i = t as usize;
        let (count, off) = (u64::from(dir.counts[i]), u64::from(dir.offsets[i]));
        if count == 0 {
            continue;
        }
        let field = raw::OFF_DIRECTORY as u64 + 4 * directory_field(i);
        let len = count.checked_mul(t.record_size() as u64).ok_or_else(|| {
            DecodeError::limit_at(field, format!("{}: count {count} overflows", t.name()))
        })?;
        let end = off + len;
        if off < HEADER_SIZE as u64 || end > data.len() as u64 {
            return Err(DecodeError::malformed_at(
                field,
                format!(
                    "{} at {off:#x} with {count} records of {} bytes ends at {end:#x}, outside the data area {HEADER_SIZE:#x}..{:#x}",
                    t.name(),
                    t.record_size(),
                    data.len()
                ),
            ));
        }
    }
    Ok(dir)
}

/// Index (in `u32` words from 0x48) of the offset field of table `i`.
fn directory_field(i: usize) -> u64 {
    [1, 3, 4, 5, 6, 8, 11, 13, 15][i]
}

fn finite_vec3(c: &mut Cursor<'_>, what: &str) -> Result<[f32; 3], DecodeError> {
    let at = c.pos();
    let v = c.vec3(what)?;
    if let Some(k) = v.iter().position(|x| !x.is_finite()) {
        return Err(DecodeError::malformed_at(
            (at + 4 * k) as u64,
            format!("expected a finite {what}, found {}", v[k]),
        ));
    }
    Ok(v)
}

fn show_bytes(b: &[u8]) -> String {
    if b.iter().all(|c| c.is_ascii_graphic() || *c == b' ') {
        format!("\"{}\"", String::from_utf8_lossy(b))
    } else {
        b.iter()
            .map(|c| format!("{c:02x}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Records the source layout when a fresh write would not reproduce it.
fn source_layout(data: &[u8], dir: &Directory, ty: WalkmeshType) -> Option<SourceLayout> {
    let planned = plan_offsets(&dir.counts, ty);
    if planned.offsets == dir.offsets && planned.len == data.len() {
        return None;
    }
    let mut covered = vec![false; data.len()];
    covered[..HEADER_SIZE].iter_mut().for_each(|c| *c = true);
    for t in Table::ALL {
        let i = t as usize;
        let start = dir.offsets[i] as usize;
        let end = start + dir.counts[i] as usize * t.record_size();
        if dir.counts[i] > 0 {
            covered[start..end].iter_mut().for_each(|c| *c = true);
        }
    }
    let mut filler = Vec::new();
    let mut i = 0;
    while i < data.len() {
        if covered[i] {
            i += 1;
            continue;
        }
        let start = i;
        while i < data.len() && !covered[i] {
            i += 1;
        }
        filler.push((start as u32, data[start..i].to_vec()));
    }
    Some(SourceLayout {
        counts: dir.counts,
        offsets: dir.offsets,
        len: data.len(),
        filler,
    })
}
