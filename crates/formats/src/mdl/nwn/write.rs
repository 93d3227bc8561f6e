//! [`Model`] to bytes: the source layout while every block keeps its length, the canonical
//! layout (blocks packed in walk order, as BioWare's compiler packs them) otherwise.

use super::model::*;
use super::raw::*;
use crate::error::EncodeError;
use crate::mdl::layout::Layout;
use crate::mdl::le::*;
use crate::mdl::parts::{geometry_bytes, write_aabb, write_events, write_faces, write_light};
use crate::mdl::space::{Fail, Out, Sink, Words, bad, count32, write_keeping_layout};
use crate::mdl::tree::{Sharing, TreeWriter, write_tree};

/// Writes an NWN compiled model.
///
/// A model read from bytes and not changed in size is written in its source layout (an
/// unmodified model gives its bytes back). Otherwise every block is laid out afresh: the
/// header, the animations, then the geometry tree depth-first, each node's arrays after its
/// header; the vertex streams and index lists in the raw data in the same order.
pub fn write(model: &Model) -> Result<Vec<u8>, EncodeError> {
    write_keeping_layout(
        model.layout.as_deref(),
        |layout| Writer::new(model, layout).run(),
        // Compared through the canonical bytes (NaN values by their bits), legacy arrays' words
        // kept as they are: the canonical layout refuses those arrays, but the comparison
        // needs no layout of their elements.
        |out| {
            let fresh = Writer::comparing(model).run().ok();
            let back = super::read(out).ok();
            fresh.is_some() && back.and_then(|b| Writer::comparing(&b).run().ok()) == fresh
        },
    )
}

struct Writer<'m> {
    model: &'m Model,
    out: Out<'m>,
    raw: Sink<'m>,
    /// Canonical bytes for a comparison only: legacy arrays' words written as they are.
    comparing: bool,
}

impl<'m> Writer<'m> {
    fn new(model: &'m Model, layout: Option<&'m Layout>) -> Self {
        let (sink, raw) = match layout {
            Some(l) => (
                Sink::source(
                    "bytes of model data",
                    l.mdl_size,
                    &l.blocks,
                    &l.mdl_gaps,
                    &l.gap_bytes,
                ),
                Sink::source(
                    "bytes of raw data",
                    l.mdx_size,
                    &l.mdx_blocks,
                    &l.mdx_gaps,
                    &l.gap_bytes,
                ),
            ),
            None => (
                Sink::packed("bytes of model data"),
                Sink::packed("bytes of raw data"),
            ),
        };
        Writer {
            model,
            out: Out {
                sink,
                words: Words::new(layout.map(|l| &l.words[..])),
            },
            raw,
            comparing: false,
        }
    }

    /// A canonical writer whose bytes serve a comparison only (legacy arrays not refused).
    fn comparing(model: &'m Model) -> Self {
        Writer {
            comparing: true,
            ..Writer::new(model, None)
        }
    }

    fn place(&mut self, len: usize) -> Result<u32, Fail> {
        self.out.sink.place(len, false)
    }

    fn run(mut self) -> Result<Vec<u8>, Fail> {
        let m = self.model;
        let header = self.place(MODEL_HEADER)?;
        let anims = self.out.array(m.animations.len(), 4, "animations")?;
        let mut table = Vec::with_capacity(m.animations.len() * 4);
        for a in &m.animations {
            push_u32(&mut table, self.animation(a)?);
        }
        self.out.sink.put(anims[0], &table);
        let root = write_tree(&mut self, &m.nodes, Sharing::Refused)?;
        if !self.out.sink.all_placed() || !self.raw.all_placed() || !self.out.words.all_used() {
            return Err(Fail::Layout);
        }
        let h = &m.header;
        let mut b = geometry_bytes(&m.geometry, root);
        b.extend_from_slice(&h.unknown);
        b.extend_from_slice(&[h.classification, h.fog]);
        push_u32(&mut b, h.child_model_count);
        push_u32s(&mut b, &anims);
        push_u32(&mut b, h.supermodel_ref);
        push_f32s(&mut b, &h.bounds_min);
        push_f32s(&mut b, &h.bounds_max);
        push_f32s(&mut b, &[h.radius, h.animation_scale]);
        b.extend_from_slice(&h.supermodel.0);
        debug_assert_eq!(b.len(), MODEL_HEADER);
        self.out.sink.put(header, &b);

        let data = &self.out.sink.buf;
        let raw = &self.raw.buf;
        let mut file = Vec::with_capacity(FILE_HEADER + data.len() + raw.len() + m.trailing.len());
        push_u32(&mut file, m.file_word);
        push_u32(&mut file, count32(data.len(), "bytes of model data")?);
        push_u32(&mut file, count32(raw.len(), "bytes of raw data")?);
        file.extend_from_slice(data);
        file.extend_from_slice(raw);
        file.extend_from_slice(&m.trailing);
        count32(file.len(), "bytes in the file")?;
        Ok(file)
    }

    fn animation(&mut self, a: &Animation) -> Result<u32, Fail> {
        let off = self.place(ANIMATION_HEADER)?;
        let events = write_events(&mut self.out, &a.events)?;
        let root = write_tree(self, &a.nodes, Sharing::Allowed).map_err(|e| match e {
            Fail::Encode(EncodeError(m)) => {
                bad(format!("animation {}: {m}", a.geometry.name.as_string()))
            }
            other => other,
        })?;
        let mut h = geometry_bytes(&a.geometry, root);
        push_f32s(&mut h, &[a.length, a.transition]);
        h.extend_from_slice(&a.root.0);
        push_u32s(&mut h, &events);
        debug_assert_eq!(h.len(), ANIMATION_HEADER);
        self.out.sink.put(off, &h);
        Ok(off)
    }

    /// A raw-data stream of `rows` (`None`: the offset -1); returns its offset word.
    fn stream(&mut self, rows: Option<&[u8]>) -> Result<u32, Fail> {
        match rows {
            None => Ok(u32::MAX),
            Some(b) => {
                let off = self.raw.place(b.len(), false)?;
                self.raw.put(off, b);
                Ok(off)
            }
        }
    }

    /// One node's header, parts, arrays and raw streams; returns its offset and its child
    /// table's.
    fn node(&mut self, nodes: &[Node], i: usize) -> Result<(u32, u32), Fail> {
        let n = &nodes[i];
        let name = n.name.as_string();
        check_parts(n, &name)?;
        if !self.out.sink.follows_source() && !self.comparing && has_legacy_data(n) {
            return Err(bad(format!(
                "node {name}: the legacy arrays of its mesh or animated mesh are not empty; \
                 their elements are not known, so it can be written in its source layout only"
            )));
        }
        let size = header_size(n.flags);
        let off = self.place(size)?;
        let children = self.out.array(n.children.len(), 4, "children")?;
        let mut light = Vec::new();
        if let Some(l) = &n.light {
            write_light(&mut self.out, l, &mut light)?;
        }
        let aabb = match &n.aabb {
            Some(a) if a.tree.is_empty() => Some(0),
            Some(a) => Some(write_aabb(&mut self.out, a, &name)?),
            None => None,
        };
        let vertex_count = n.mesh.as_deref().map_or(0, Mesh::vertex_count);
        let skin = match &n.skin {
            Some(s) => Some(self.skin(s, &name)?),
            None => None,
        };
        let anim = match &n.anim {
            Some(a) => Some(self.anim_mesh(a, vertex_count, &name)?),
            None => None,
        };
        let dangly = match &n.dangly {
            Some(d) => {
                let c = self.out.array_of(
                    d.constraints.len(),
                    &f32_bytes(&d.constraints),
                    "constraints",
                )?;
                let mut b = Vec::with_capacity(DANGLY_HEADER);
                push_u32s(&mut b, &c);
                push_f32s(&mut b, &[d.displacement, d.tightness, d.period]);
                Some(b)
            }
            None => None,
        };
        let mesh = match &n.mesh {
            Some(m) => Some(self.mesh(m, &name)?),
            None => None,
        };
        let mut ctl = Vec::with_capacity(n.controllers.len() * CONTROLLER);
        for c in &n.controllers {
            push_u32(&mut ctl, c.kind);
            push_u16s(&mut ctl, &[c.rows, c.time_index, c.data_index]);
            ctl.extend_from_slice(&[c.columns, c.padding]);
        }
        let ctl = self
            .out
            .array_of(n.controllers.len(), &ctl, "controllers")?;
        let data = self.out.array_of(
            n.controller_data.len(),
            &f32_bytes(&n.controller_data),
            "controller values",
        )?;
        let skin = match (&n.skin, skin) {
            (Some(s), Some(head)) => Some(self.skin_streams(s, head, vertex_count, &name)?),
            _ => None,
        };

        let mut h = Vec::with_capacity(size);
        push_u32s(&mut h, &n.function_pointers);
        push_u32s(&mut h, &[n.inherit_color, n.node_number as u32]);
        h.extend_from_slice(&n.name.0);
        push_u32s(&mut h, &n.runtime);
        push_u32s(&mut h, &children);
        push_u32s(&mut h, &ctl);
        push_u32s(&mut h, &data);
        push_u32(&mut h, n.flags);
        h.extend_from_slice(&light);
        if let Some(e) = &n.emitter {
            emitter_bytes(e, &mut h);
        }
        if let Some(r) = &n.reference {
            h.extend_from_slice(&r.model.0);
            push_u32(&mut h, r.reattachable);
        }
        for part in [mesh, skin, anim, dangly].into_iter().flatten() {
            h.extend_from_slice(&part);
        }
        if let Some(root) = aabb {
            push_u32(&mut h, root);
        }
        debug_assert_eq!(h.len(), size);
        self.out.sink.put(off, &h);
        Ok((off, children[0]))
    }

    /// The mesh's faces and index tables (model data), streams and index lists (raw data);
    /// returns the mesh header.
    fn mesh(&mut self, m: &Mesh, node: &str) -> Result<Vec<u8>, Fail> {
        let n = m.vertex_count();
        let vertex_count = u16::try_from(n).map_err(|_| {
            bad(format!(
                "node {node}: {n} vertices: a mesh holds at most 65535"
            ))
        })?;
        let faces = write_faces(&mut self.out, &m.faces)?;
        let counts = self.out.array(m.index_lists.len(), 4, "index lists")?;
        let offsets = self.out.array(m.index_lists.len(), 4, "index lists")?;
        let rows = |len: Option<usize>, what: &str| match len {
            Some(l) if l != n => Err(bad(format!("node {node}: {l} {what} for {n} vertices"))),
            _ => Ok(()),
        };
        let positions = m.positions.as_deref().map(f32_rows_bytes);
        let positions = self.stream(positions.as_deref())?;
        let mut uvs = [0u32; 4];
        for (k, slot) in uvs.iter_mut().enumerate() {
            rows(m.uvs[k].as_ref().map(Vec::len), "texture coordinates")?;
            let b = m.uvs[k].as_deref().map(f32_rows_bytes);
            *slot = self.stream(b.as_deref())?;
        }
        rows(m.normals.as_ref().map(Vec::len), "normals")?;
        let b = m.normals.as_deref().map(f32_rows_bytes);
        let normals = self.stream(b.as_deref())?;
        rows(m.colors.as_ref().map(Vec::len), "colours")?;
        let b = m.colors.as_ref().map(|c| c.concat());
        let colors = self.stream(b.as_deref())?;
        let mut extra = [0u32; 6];
        for (k, slot) in extra.iter_mut().enumerate() {
            let b = m.extra[k].as_deref();
            if let Some(b) = b
                && b.len() != n * EXTRA_SIZES[k]
            {
                return Err(bad(format!(
                    "node {node}: vertex stream {k} holds {} bytes, {n} vertices need {}",
                    b.len(),
                    n * EXTRA_SIZES[k]
                )));
            }
            *slot = self.stream(b)?;
        }
        let mut count_table = Vec::new();
        let mut offset_table = Vec::new();
        for list in &m.index_lists {
            let b = u16_bytes(list);
            let at = self.raw.place(b.len(), false)?;
            self.raw.put(at, &b);
            push_u32(&mut count_table, count32(list.len(), "indices")?);
            push_u32(&mut offset_table, at);
        }
        self.out.sink.put(counts[0], &count_table);
        self.out.sink.put(offsets[0], &offset_table);

        let mut h = Vec::with_capacity(MESH_HEADER);
        push_u32s(&mut h, &m.function_pointers);
        push_u32s(&mut h, &faces);
        for v in [m.bounds_min, m.bounds_max] {
            push_f32s(&mut h, &v);
        }
        push_f32s(&mut h, &[m.radius]);
        for v in [m.average, m.diffuse, m.ambient, m.specular] {
            push_f32s(&mut h, &v);
        }
        push_f32s(&mut h, &[m.shininess]);
        push_u32s(
            &mut h,
            &[
                m.shadow,
                m.beaming,
                m.render,
                m.transparency_hint,
                m.render_hint,
            ],
        );
        for t in &m.textures {
            h.extend_from_slice(&t.0);
        }
        push_u32(&mut h, m.tile_fade);
        push_u32s(&mut h, &m.legacy_arrays);
        push_u32s(&mut h, &counts);
        push_u32s(&mut h, &offsets);
        push_u32s(&mut h, &[m.unknown1 as u32, m.unknown2]);
        h.push(m.triangle_mode);
        h.extend_from_slice(&m.triangle_mode_padding);
        push_u32s(&mut h, &[m.unknown3, positions]);
        push_u16s(&mut h, &[vertex_count, m.texture_count]);
        push_u32s(&mut h, &uvs);
        push_u32s(&mut h, &[normals, colors]);
        push_u32s(&mut h, &extra);
        h.extend_from_slice(&[m.lightmapped, m.rotate_texture]);
        push_u16s(&mut h, &[m.padding]);
        push_f32s(&mut h, &[m.normal_sum]);
        push_u32(&mut h, m.unknown4);
        debug_assert_eq!(h.len(), MESH_HEADER);
        Ok(h)
    }

    /// The skin's model-data arrays; returns its header with the raw offsets left to
    /// [`Writer::skin_streams`].
    fn skin(&mut self, s: &Skin, node: &str) -> Result<Vec<u8>, Fail> {
        let unknown = self
            .out
            .array_of(s.unknown.len(), &u32_bytes(&s.unknown), "skin words")?;
        let map: Vec<u16> = s.bone_map.iter().map(|&v| v as u16).collect();
        let map_bytes = u16_bytes(&map);
        let map_at = self.place(map_bytes.len())?;
        self.out.sink.put(map_at, &map_bytes);
        let q = self
            .out
            .array_of(s.qbones.len(), &f32_rows_bytes(&s.qbones), "qbones")?;
        let t = self
            .out
            .array_of(s.tbones.len(), &f32_rows_bytes(&s.tbones), "tbones")?;
        let c: Vec<u16> = s.constants.concat();
        let c = self
            .out
            .array_of(s.constants.len(), &u16_bytes(&c), "bone constants")?;
        let mut h = Vec::with_capacity(SKIN_HEADER);
        push_u32s(&mut h, &unknown);
        push_u32s(&mut h, &[u32::MAX, u32::MAX, map_at]);
        push_u32(&mut h, count32(s.bone_map.len(), "bone map entries")?);
        for a in [q, t, c] {
            push_u32s(&mut h, &a);
        }
        let bones: Vec<u16> = s.bone_nodes.iter().map(|&v| v as u16).collect();
        push_u16s(&mut h, &bones);
        push_u16s(&mut h, &[s.spare]);
        debug_assert_eq!(h.len(), SKIN_HEADER, "node {node}");
        Ok(h)
    }

    /// The skin's weight and bone-index streams, their offsets patched into `h`.
    fn skin_streams(
        &mut self,
        s: &Skin,
        mut h: Vec<u8>,
        n: usize,
        node: &str,
    ) -> Result<Vec<u8>, Fail> {
        for (len, what) in [
            (s.weights.as_ref().map(Vec::len), "bone weights"),
            (s.bone_indices.as_ref().map(Vec::len), "bone indices"),
        ] {
            if let Some(l) = len.filter(|&l| l != n) {
                return Err(bad(format!("node {node}: {l} {what} for {n} vertices")));
            }
        }
        let b = s.weights.as_deref().map(f32_rows_bytes);
        let w = self.stream(b.as_deref())?;
        let b = s.bone_indices.as_ref().map(|ix| {
            let flat: Vec<u16> = ix.iter().flatten().map(|&v| v as u16).collect();
            u16_bytes(&flat)
        });
        let ix = self.stream(b.as_deref())?;
        h[12..16].copy_from_slice(&w.to_le_bytes());
        h[16..20].copy_from_slice(&ix.to_le_bytes());
        Ok(h)
    }

    fn anim_mesh(&mut self, a: &AnimMesh, n: usize, node: &str) -> Result<Vec<u8>, Fail> {
        let mut set = |rows: Option<Vec<u8>>, len: Option<usize>, sets: u32, what: &str| {
            let (Some(b), Some(len)) = (rows, len) else {
                return Ok(0);
            };
            if len as u64 != u64::from(sets) * n as u64 {
                return Err(bad(format!(
                    "node {node}: {len} {what} for {sets} sets of {n} vertices"
                )));
            }
            let off = self.place(b.len())?;
            self.out.sink.put(off, &b);
            Ok(off)
        };
        let v = set(
            a.vertices.as_deref().map(f32_rows_bytes),
            a.vertices.as_ref().map(Vec::len),
            a.vertex_sets,
            "animated vertices",
        )?;
        let t = set(
            a.tverts.as_deref().map(f32_rows_bytes),
            a.tverts.as_ref().map(Vec::len),
            a.tvert_sets,
            "animated texture coordinates",
        )?;
        let mut h = Vec::with_capacity(ANIM_HEADER);
        push_f32s(&mut h, &[a.sample_period]);
        push_u32s(&mut h, &a.legacy_arrays);
        push_u32s(&mut h, &[v, t, a.vertex_sets, a.tvert_sets]);
        Ok(h)
    }
}

/// Refuses a node whose parts disagree with its content flags (the writer would drop them or
/// write headers it has no data for).
fn check_parts(n: &Node, name: &str) -> Result<(), Fail> {
    use flags::*;
    let f = n.flags as u16;
    if n.flags & !KNOWN_FLAGS != 0 {
        return Err(bad(format!(
            "node {name}: content flags {:#x} have bits above 0x400",
            n.flags
        )));
    }
    let parts: [(bool, u16, &str); 8] = [
        (n.light.is_some(), LIGHT, "light"),
        (n.emitter.is_some(), EMITTER, "emitter"),
        (n.reference.is_some(), REFERENCE, "reference"),
        (n.mesh.is_some(), MESH, "mesh"),
        (n.skin.is_some(), SKIN, "skin"),
        (n.anim.is_some(), ANIM, "animated mesh"),
        (n.dangly.is_some(), DANGLY, "dangly"),
        (n.aabb.is_some(), AABB, "aabb"),
    ];
    for (has, bit, what) in parts {
        if has != (f & bit != 0) {
            return Err(bad(format!(
                "node {name}: content flags {:#x} and its {what} data disagree",
                n.flags
            )));
        }
    }
    Ok(())
}

/// Whether a node's legacy arrays (mesh: vertex indices, left-over faces; animated mesh: three
/// more) hold anything: their element layouts are not known, so only the source layout keeps
/// them.
fn has_legacy_data(n: &Node) -> bool {
    let mesh = n.mesh.as_ref().map(|m| &m.legacy_arrays[..]);
    let anim = n.anim.as_ref().map(|a| &a.legacy_arrays[..]);
    [mesh, anim]
        .into_iter()
        .flatten()
        .any(|words| words.iter().skip(1).step_by(3).any(|&count| count != 0))
}

fn emitter_bytes(e: &Emitter, h: &mut Vec<u8>) {
    push_f32s(h, &[e.dead_space, e.blast_radius, e.blast_length]);
    push_u32s(h, &[e.x_grid, e.y_grid, e.spawn_type]);
    for n in [&e.update, &e.render, &e.blend] {
        h.extend_from_slice(&n.0);
    }
    h.extend_from_slice(&e.texture.0);
    h.extend_from_slice(&e.chunk.0);
    push_u32s(h, &[e.two_sided_texture, e.looping]);
    push_u16s(h, &[e.render_order, e.padding]);
    push_u32(h, e.flags);
}

impl TreeWriter for Writer<'_> {
    type Node = Node;

    fn write_node(&mut self, nodes: &[Node], i: usize, _parent: u32) -> Result<(u32, u32), Fail> {
        self.node(nodes, i)
    }

    fn put_word(&mut self, at: u32, v: u32) {
        self.out.sink.put(at, &v.to_le_bytes());
    }
}
