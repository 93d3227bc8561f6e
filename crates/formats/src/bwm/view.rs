//! A zero-copy, validated view of `BWM V1.0` bytes.
//!
//! [`BwmView::parse`] checks everything [`super::read`] checks (signature, table bounds, vertex
//! indices, AABB children and leaf faces, finite coordinates) in tight passes over the tables
//! without allocating; the accessors then decode records on demand. [`super::read`] is
//! `BwmView::parse(data)?.to_bwm()`.

use super::material::Material;
use super::model::{AabbNode, Bwm, Edge, Face, SourceLayout, WalkmeshType};
use super::raw::{self, Directory, HEADER_SIZE, NONE_U32, Table};
use super::write::plan_offsets;
use crate::error::{DecodeError, ErrorKind, Location};

/// A validated view of a BWM file's bytes.
#[derive(Debug, Clone, Copy)]
pub struct BwmView<'a> {
    data: &'a [u8],
    dir: Directory,
    tables: [&'a [u8]; 9],
}

#[inline]
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

#[inline]
fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_bits(u32_at(b, at))
}

#[inline]
fn vec3_at(b: &[u8], at: usize) -> [f32; 3] {
    [f32_at(b, at), f32_at(b, at + 4), f32_at(b, at + 8)]
}

/// The `u32` words of a byte slice whose length is a multiple of 4.
#[inline]
fn words(b: &[u8]) -> impl Iterator<Item = u32> + '_ {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// Whether an `f32` bit pattern is NaN or infinite.
#[inline]
fn non_finite_bits(w: u32) -> bool {
    w & 0x7f80_0000 == 0x7f80_0000
}

/// Index of the first non-finite `f32` word in `b`, if any (fast path: one branch-free pass).
fn first_non_finite(b: &[u8]) -> Option<usize> {
    let bad = b
        .chunks(256)
        .position(|chunk| words(chunk).fold(false, |acc, w| acc | non_finite_bits(w)))?;
    let base = bad * 64;
    words(&b[bad * 256..])
        .position(non_finite_bits)
        .map(|k| base + k)
}

impl<'a> BwmView<'a> {
    /// Validates `data` and returns a view of it.
    pub fn parse(data: &'a [u8]) -> Result<Self, DecodeError> {
        crate::census::decoded("bwm");
        let dir = read_directory(data)?;
        let mut tables: [&'a [u8]; 9] = [&[]; 9];
        for t in Table::ALL {
            let i = t as usize;
            if dir.counts[i] > 0 {
                let start = dir.offsets[i] as usize;
                // read_directory checked that the table lies inside the input.
                tables[i] = &data[start..start + dir.counts[i] as usize * t.record_size()];
            }
        }
        let view = BwmView { data, dir, tables };
        view.validate()?;
        Ok(view)
    }

    fn validate(&self) -> Result<(), DecodeError> {
        // Header vectors: 15 floats at 0x0C.
        if let Some(k) = first_non_finite(&self.data[0x0C..0x48]) {
            let names = [
                "relative use hook 1",
                "relative use hook 2",
                "absolute use hook 1",
                "absolute use hook 2",
                "position",
            ];
            return Err(DecodeError::malformed_at(
                (0x0C + 4 * k) as u64,
                format!(
                    "expected a finite {}, found {}",
                    names[k / 3],
                    f32_at(self.data, 0x0C + 4 * k)
                ),
            ));
        }
        let vt = self.tables[Table::Vertices as usize];
        if let Some(k) = first_non_finite(vt) {
            return Err(DecodeError::malformed_at(
                (self.dir.offsets[0] as usize + 4 * k) as u64,
                format!(
                    "(vertex {}): expected a finite vertex coordinate, found {}",
                    k / 3,
                    f32_at(vt, 4 * k)
                ),
            ));
        }
        let nv = self.dir.counts[0];
        let ft = self.tables[Table::Faces as usize];
        if words(ft).fold(0, u32::max) >= nv && !ft.is_empty() {
            let k = words(ft).position(|w| w >= nv).unwrap_or(0);
            return Err(DecodeError::malformed_at(
                (self.dir.offsets[1] as usize + 4 * k) as u64,
                format!(
                    "(face {}): vertex index {} >= vertex count {nv}",
                    k / 3,
                    u32_at(ft, 4 * k)
                ),
            ));
        }
        let nf = self.dir.counts[1];
        let na = self.dir.counts[5];
        let at = self.tables[Table::Aabb as usize];
        let bad_node = at.chunks_exact(raw::AABB_NODE_SIZE).position(|n| {
            let bounds_bad = words(&n[..24]).fold(false, |acc, w| acc | non_finite_bits(w));
            let face = u32_at(n, 24);
            let (l, r) = (u32_at(n, 36), u32_at(n, 40));
            bounds_bad
                | (face != NONE_U32 && face >= nf)
                | (l != NONE_U32 && l >= na)
                | (r != NONE_U32 && r >= na)
        });
        if let Some(i) = bad_node {
            return Err(self.node_error(i));
        }
        Ok(())
    }

    /// The precise error for AABB node `i`, which failed the fast check.
    fn node_error(&self, i: usize) -> DecodeError {
        let base = self.dir.offsets[5] as usize + i * raw::AABB_NODE_SIZE;
        let n = &self.tables[5][i * raw::AABB_NODE_SIZE..(i + 1) * raw::AABB_NODE_SIZE];
        if let Some(k) = words(&n[..24]).position(non_finite_bits) {
            let what = if k < 3 { "minimum" } else { "maximum" };
            return DecodeError::malformed_at(
                (base + 4 * k) as u64,
                format!(
                    "(AABB node {i}): expected a finite AABB {what}, found {}",
                    f32_at(n, 4 * k)
                ),
            );
        }
        let face = u32_at(n, 24) as i32;
        let (nf, na) = (self.dir.counts[1], self.dir.counts[5]);
        if face != -1 && (face < 0 || face as u32 >= nf) {
            return DecodeError::malformed_at(
                (base + 24) as u64,
                format!("(AABB node {i}): face index {face} is neither -1 nor < face count {nf}"),
            );
        }
        let side = if u32_at(n, 36) != NONE_U32 && u32_at(n, 36) >= na {
            36
        } else {
            40
        };
        DecodeError::malformed_at(
            (base + side) as u64,
            format!(
                "(AABB node {i}): child index {} >= node count {na}",
                u32_at(n, side)
            ),
        )
    }

    /// The bytes viewed.
    pub fn bytes(&self) -> &'a [u8] {
        self.data
    }

    /// The table directory (counts and offsets).
    pub fn directory(&self) -> &Directory {
        &self.dir
    }

    /// The walkmesh type word.
    pub fn walkmesh_type(&self) -> WalkmeshType {
        WalkmeshType::from_raw(u32_at(self.data, raw::OFF_TYPE))
    }

    /// Relative use hook `k` (0 or 1).
    pub fn relative_use(&self, k: usize) -> [f32; 3] {
        vec3_at(self.data, 0x0C + 12 * k.min(1))
    }

    /// Absolute use hook `k` (0 or 1).
    pub fn absolute_use(&self, k: usize) -> [f32; 3] {
        vec3_at(self.data, 0x24 + 12 * k.min(1))
    }

    /// The world position.
    pub fn position(&self) -> [f32; 3] {
        vec3_at(self.data, 0x3C)
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.dir.counts[0] as usize
    }

    /// Number of faces.
    pub fn face_count(&self) -> usize {
        self.dir.counts[1] as usize
    }

    /// Number of AABB nodes.
    pub fn aabb_count(&self) -> usize {
        self.dir.counts[5] as usize
    }

    /// Number of walkable faces (adjacency records).
    pub fn walkable_face_count(&self) -> usize {
        self.dir.counts[6] as usize
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.dir.counts[7] as usize
    }

    /// Number of perimeter loops.
    pub fn perimeter_count(&self) -> usize {
        self.dir.counts[8] as usize
    }

    /// Vertex `i`. Panics if `i >= vertex_count()`.
    pub fn vertex(&self, i: usize) -> [f32; 3] {
        vec3_at(self.tables[0], i * raw::VERTEX_SIZE)
    }

    /// Face `i` (indices already checked against the vertex count). Panics if out of range.
    pub fn face(&self, i: usize) -> Face {
        let b = self.tables[1];
        let at = i * raw::FACE_SIZE;
        Face {
            vertices: [u32_at(b, at), u32_at(b, at + 4), u32_at(b, at + 8)],
            material: Material::from_id(u32_at(self.tables[2], i * 4)),
        }
    }

    /// Normal of face `i`. Panics if out of range.
    pub fn normal(&self, i: usize) -> [f32; 3] {
        vec3_at(self.tables[3], i * raw::NORMAL_SIZE)
    }

    /// Planar distance of face `i`. Panics if out of range.
    pub fn distance(&self, i: usize) -> f32 {
        f32_at(self.tables[4], i * 4)
    }

    /// AABB node `i`. Panics if out of range.
    pub fn aabb_node(&self, i: usize) -> AabbNode {
        let b = &self.tables[5][i * raw::AABB_NODE_SIZE..];
        AabbNode {
            min: vec3_at(b, 0),
            max: vec3_at(b, 12),
            face: u32_at(b, 24) as i32,
            unknown: u32_at(b, 28),
            plane: u32_at(b, 32),
            left: u32_at(b, 36),
            right: u32_at(b, 40),
        }
    }

    /// Adjacency of walkable face `i`. Panics if out of range.
    pub fn adjacency(&self, i: usize) -> [i32; 3] {
        let b = self.tables[6];
        let at = i * raw::ADJACENCY_SIZE;
        [
            u32_at(b, at) as i32,
            u32_at(b, at + 4) as i32,
            u32_at(b, at + 8) as i32,
        ]
    }

    /// Edge `i`. Panics if out of range.
    pub fn edge(&self, i: usize) -> Edge {
        let b = self.tables[7];
        Edge {
            edge: u32_at(b, i * 8),
            transition: u32_at(b, i * 8 + 4) as i32,
        }
    }

    /// Perimeter loop end `i`. Panics if out of range.
    pub fn perimeter(&self, i: usize) -> u32 {
        u32_at(self.tables[8], i * 4)
    }

    /// Decodes the owned model.
    pub fn to_bwm(&self) -> Bwm {
        let t = &self.tables;
        let vec3s = |b: &[u8], size: usize| -> Vec<[f32; 3]> {
            b.chunks_exact(size).map(|c| vec3_at(c, 0)).collect()
        };
        let faces = t[1]
            .chunks_exact(raw::FACE_SIZE)
            .zip(words(t[2]))
            .map(|(c, m)| Face {
                vertices: [u32_at(c, 0), u32_at(c, 4), u32_at(c, 8)],
                material: Material::from_id(m),
            })
            .collect();
        Bwm {
            walkmesh_type: self.walkmesh_type(),
            relative_use: [self.relative_use(0), self.relative_use(1)],
            absolute_use: [self.absolute_use(0), self.absolute_use(1)],
            position: self.position(),
            vertices: vec3s(t[0], raw::VERTEX_SIZE),
            faces,
            normals: vec3s(t[3], raw::NORMAL_SIZE),
            distances: words(t[4]).map(f32::from_bits).collect(),
            aabb_nodes: (0..self.aabb_count()).map(|i| self.aabb_node(i)).collect(),
            aabb_root: self.dir.aabb_root,
            adjacency: (0..self.walkable_face_count())
                .map(|i| self.adjacency(i))
                .collect(),
            edges: (0..self.edge_count()).map(|i| self.edge(i)).collect(),
            perimeters: words(t[8]).collect(),
            source_layout: source_layout(self.data, &self.dir, self.walkmesh_type()),
        }
    }
}

/// Decodes a BWM file into the owned model.
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
    Ok(BwmView::parse(data)?.to_bwm())
}

/// Reads and checks the signature and the table directory (counts and offsets, each table
/// inside the input), without decoding any table.
pub fn read_directory(data: &[u8]) -> Result<Directory, DecodeError> {
    let got = |n: usize| data.get(..n);
    let magic = got(4).ok_or_else(|| truncated(data.len(), "magic \"BWM \""))?;
    if magic != raw::MAGIC {
        return Err(DecodeError::malformed_at(
            0,
            format!("expected magic \"BWM \", found {}", show_bytes(magic)),
        ));
    }
    let version = data
        .get(4..8)
        .ok_or_else(|| truncated(data.len(), "version \"V1.0\""))?;
    if version != raw::VERSION {
        return Err(DecodeError::new(
            ErrorKind::Unsupported,
            Location::Offset(4),
            format!("expected version \"V1.0\", found {}", show_bytes(version)),
        ));
    }
    if data.len() < HEADER_SIZE {
        return Err(truncated(data.len(), "the 136-byte header"));
    }
    let w: Vec<u32> = words(&data[raw::OFF_DIRECTORY..HEADER_SIZE]).collect();
    let (face_count, adjacency_count) = (w[2], w[10]);
    if adjacency_count > face_count {
        return Err(DecodeError::malformed_at(
            0x70,
            format!(
                "adjacency count {adjacency_count} exceeds face count {face_count} (one adjacency record per walkable face)"
            ),
        ));
    }
    let dir = Directory {
        counts: [w[0], w[2], w[2], w[2], w[2], w[7], w[10], w[12], w[14]],
        offsets: [w[1], w[3], w[4], w[5], w[6], w[8], w[11], w[13], w[15]],
        aabb_root: w[9],
    };
    const OFFSET_FIELD: [u64; 9] = [1, 3, 4, 5, 6, 8, 11, 13, 15];
    for t in Table::ALL {
        let i = t as usize;
        let (count, off) = (u64::from(dir.counts[i]), u64::from(dir.offsets[i]));
        if count == 0 {
            continue;
        }
        let field = raw::OFF_DIRECTORY as u64 + 4 * OFFSET_FIELD[i];
        // Both factors are below 2^32 and the record size below 2^6: no overflow in u64.
        let end = off + count * t.record_size() as u64;
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

fn truncated(len: usize, what: &str) -> DecodeError {
    DecodeError::malformed_at(
        len as u64,
        format!("expected {what}, but the input ends after {len} bytes"),
    )
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
    covered[..HEADER_SIZE].fill(true);
    for t in Table::ALL {
        let i = t as usize;
        if dir.counts[i] > 0 {
            let start = dir.offsets[i] as usize;
            covered[start..start + dir.counts[i] as usize * t.record_size()].fill(true);
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
