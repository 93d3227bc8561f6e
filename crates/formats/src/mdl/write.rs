//! [`Model`] to MDL and MDX bytes: the source layout while every block keeps its length, the
//! canonical layout otherwise.

use super::layout::Layout;
use super::le::*;
use super::model::*;
use super::parts::{geometry_bytes, write_aabb, write_events, write_faces, write_light};
use super::raw::*;
use super::space::{Fail, Out, Sink, Words, bad, count32, write_keeping_layout};
use super::tree::{Sharing, TreeWriter, write_tree};
use crate::error::EncodeError;

/// Writes a model as its MDL and MDX bytes.
///
/// A model read from bytes and not changed in size is written in its source layout (so an
/// unmodified model gives its source bytes back). Otherwise, and when the source layout cannot
/// hold the model, every block is laid out afresh in walk order: header, names, animations, then
/// the node tree depth-first with each node's arrays after its header.
pub fn write(model: &Model) -> Result<(Vec<u8>, Vec<u8>), EncodeError> {
    write_keeping_layout(
        model.layout.as_deref(),
        |layout| Writer::new(model, layout).run(),
        // Compared through the canonical bytes, so that NaN values compare by their bits.
        |out| {
            let fresh = Writer::new(model, None).run().ok();
            let back = super::read(&out.0, &out.1).ok();
            fresh.is_some() && back.and_then(|b| Writer::new(&b, None).run().ok()) == fresh
        },
    )
}

struct Writer<'m> {
    model: &'m Model,
    mesh_size: usize,
    layout: Option<&'m Layout>,
    out: Out<'m>,
    mdx: Vec<u8>,
    next_mdx: usize,
    /// Node offsets of the geometry tree, by arena index.
    node_at: Vec<u32>,
    /// Whether the tree being written is an animation's.
    anim: bool,
    /// The terminator row owed after the last mesh's MDX rows (canonical layout).
    terminator: Option<Vec<u8>>,
}

impl<'m> Writer<'m> {
    fn new(model: &'m Model, layout: Option<&'m Layout>) -> Self {
        let (sink, mdx) = match layout {
            Some(l) => {
                let sink =
                    Sink::source("MDL data", l.mdl_size, &l.blocks, &l.mdl_gaps, &l.gap_bytes);
                let mut mdx = vec![0; l.mdx_size as usize];
                for &(at, s, e) in &l.mdx_gaps {
                    mdx[at as usize..(at + e - s) as usize]
                        .copy_from_slice(&l.gap_bytes[s as usize..e as usize]);
                }
                (sink, mdx)
            }
            None => (Sink::canonical("bytes of MDL data"), Vec::new()),
        };
        Writer {
            model,
            mesh_size: match model.game {
                Game::K1 => MESH_HEADER_K1,
                Game::K2 => MESH_HEADER_K2,
            },
            layout,
            out: Out {
                sink,
                words: Words::new(layout.map(|l| &l.words[..])),
            },
            mdx,
            next_mdx: 0,
            node_at: vec![0; model.nodes.len()],
            anim: false,
            terminator: None,
        }
    }

    /// Where the next block of `len` bytes goes.
    fn place(&mut self, len: usize, align: bool) -> Result<u32, Fail> {
        self.out.sink.place(len, align)
    }

    fn place_mdx(&mut self, len: usize) -> Result<u32, Fail> {
        match self.layout {
            Some(l) => {
                let &(off, n) = l.mdx_blocks.get(self.next_mdx).ok_or(Fail::Layout)?;
                self.next_mdx += 1;
                if n as usize != len {
                    return Err(Fail::Layout);
                }
                Ok(off)
            }
            None => {
                // BioWare's compiler ends each mesh's rows with a terminator row, then pads by
                // (end mod 16) bytes before the next mesh; nothing follows the last mesh's
                // terminator.
                if let Some(row) = self.terminator.take() {
                    self.mdx.extend_from_slice(&row);
                    let pad = self.mdx.len() % 16;
                    self.mdx.resize(self.mdx.len() + pad, 0);
                }
                let off = count32(self.mdx.len(), "bytes of MDX data")?;
                self.mdx.resize(self.mdx.len() + len, 0);
                Ok(off)
            }
        }
    }

    /// Owes the terminator row of a mesh whose rows were just placed (canonical layout): 1e7 in
    /// the position column, weight 1 on bone 0 for skins, zeros elsewhere.
    fn owe_terminator(&mut self, m: &Mesh, skin: Option<&Skin>) {
        let stride = m.mdx_stride as usize;
        if self.layout.is_some() || stride == 0 || m.positions.is_empty() {
            return;
        }
        let mut row = vec![0u8; stride];
        let mut put = |off: i32, values: &[f32]| {
            if off >= 0 && off as usize + 4 * values.len() <= stride {
                for (k, v) in values.iter().enumerate() {
                    let at = off as usize + 4 * k;
                    row[at..at + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
        };
        put(m.mdx_offsets[0], &[1e7, 1e7, 1e7]);
        if let Some(s) = skin {
            put(s.weights_offset, &[1.0, 0.0, 0.0, 0.0]);
        }
        self.terminator = Some(row);
    }

    /// A derived word: as the source had it, or `canonical`.
    fn word(&mut self, canonical: u32) -> Result<u32, Fail> {
        self.out.words.word(canonical)
    }

    fn put(&mut self, off: u32, bytes: &[u8]) {
        self.out.sink.put(off, bytes);
    }

    /// Places an array of `count` records of `size` bytes (with its allocated-count word) and
    /// returns its header (offset, count, allocated count).
    fn array(&mut self, count: usize, size: usize, what: &str) -> Result<[u32; 3], Fail> {
        self.out.array(count, size, what)
    }

    fn run(mut self) -> Result<(Vec<u8>, Vec<u8>), Fail> {
        let m = self.model;
        if m.nodes.is_empty() {
            return Err(bad("a model needs a root node"));
        }
        let header = self.place(MODEL_HEADER, true)?;
        let mdx_word = self.word(0)?;

        let names = self.array(m.names.len(), 4, "names")?;
        let mut table = Vec::with_capacity(m.names.len() * 4);
        for name in &m.names {
            table.extend_from_slice(&self.out.string(name, "the node name")?.to_le_bytes());
        }
        self.put(names[0], &table);

        let anims = self.array(m.animations.len(), 4, "animations")?;
        let mut table = Vec::with_capacity(m.animations.len() * 4);
        for a in &m.animations {
            table.extend_from_slice(&self.animation(a)?.to_le_bytes());
        }
        self.put(anims[0], &table);

        self.anim = false;
        let root = write_tree(&mut self, &m.nodes, Sharing::Refused)?;
        let animation_root = match m.header.animation_root {
            Some(i) => *self.node_at.get(i).ok_or_else(|| {
                bad(format!(
                    "the animation root names node {i}, which is not there"
                ))
            })?,
            None => self.word(root)?,
        };
        if let Some(l) = self.layout
            && (!self.out.sink.all_placed()
                || self.next_mdx != l.mdx_blocks.len()
                || !self.out.words.all_used())
        {
            return Err(Fail::Layout);
        }

        if let Some(row) = self.terminator.take() {
            self.mdx.extend_from_slice(&row);
        }
        let mdx_size = count32(self.mdx.len(), "bytes of MDX")?;
        let mdx_word = if self.layout.is_some() {
            mdx_word
        } else {
            mdx_size
        };
        let h = &m.header;
        let mut b = geometry_bytes(&m.geometry, root);
        b.extend_from_slice(&[
            h.classification,
            h.subclassification,
            h.unknown,
            h.affected_by_fog,
        ]);
        push_u32(&mut b, h.child_model_count);
        push_u32s(&mut b, &anims);
        push_u32(&mut b, h.supermodel_ref);
        push_f32s(&mut b, &h.bounds_min);
        push_f32s(&mut b, &h.bounds_max);
        push_f32s(&mut b, &[h.radius, h.animation_scale]);
        b.extend_from_slice(&h.supermodel.0);
        push_u32(&mut b, animation_root);
        push_u32(&mut b, h.padding);
        push_u32(&mut b, mdx_word);
        push_u32(&mut b, h.mdx_offset);
        push_u32s(&mut b, &names);
        debug_assert_eq!(b.len(), MODEL_HEADER);
        self.put(header, &b);

        let mdl = &self.out.sink.buf;
        let mdl_size = count32(mdl.len(), "bytes of MDL data")?;
        let mut out = Vec::with_capacity(FILE_HEADER + mdl.len() + m.trailing.len());
        push_u32(&mut out, m.file_word);
        push_u32(&mut out, mdl_size);
        push_u32(&mut out, self.layout.map_or(mdx_size, |l| l.mdx_size_word));
        out.extend_from_slice(mdl);
        out.extend_from_slice(&m.trailing);
        Ok((out, self.mdx))
    }

    fn animation(&mut self, a: &Animation) -> Result<u32, Fail> {
        let off = self.place(ANIMATION_HEADER, true)?;
        let events = write_events(&mut self.out, &a.events)?;
        if a.nodes.is_empty() {
            return Err(bad(format!(
                "animation {} has no root node",
                a.geometry.name.as_string()
            )));
        }
        self.anim = true;
        let root = write_tree(self, &a.nodes, Sharing::Allowed)?;
        let mut h = geometry_bytes(&a.geometry, root);
        push_f32s(&mut h, &[a.length, a.transition]);
        h.extend_from_slice(&a.root.0);
        push_u32s(&mut h, &events);
        push_u32(&mut h, a.padding);
        debug_assert_eq!(h.len(), ANIMATION_HEADER);
        self.put(off, &h);
        Ok(off)
    }

    /// One node's header, arrays and parts; returns its offset and its child table's.
    fn node(&mut self, nodes: &[Node], i: usize, parent: u32) -> Result<(u32, u32), Fail> {
        let anim = self.anim;
        let n = &nodes[i];
        let f = if anim { 0 } else { n.flags };
        check_parts(n, f, i)?;
        let size = header_size(f, self.mesh_size);
        let off = self.place(size, true)?;
        if !anim {
            self.node_at[i] = off;
        }
        let parent_word = self.word(parent)?;
        let children = self.array(n.children.len(), 4, "children")?;
        let controllers = self.array(n.controllers.len(), 16, "controllers")?;
        let mut b = Vec::with_capacity(n.controllers.len() * 16);
        for c in &n.controllers {
            push_u32(&mut b, c.kind);
            push_u16s(&mut b, &[c.unknown, c.rows, c.time_index, c.data_index]);
            b.push(c.columns);
            b.extend_from_slice(&c.padding);
        }
        self.put(controllers[0], &b);
        let data = self.array(n.controller_data.len(), 4, "controller values")?;
        let b = f32_bytes(&n.controller_data);
        self.put(data[0], &b);

        let mut h = Vec::with_capacity(size);
        push_u16s(&mut h, &[n.flags, n.node_number, n.name_index, n.padding]);
        push_u32(&mut h, n.root_word);
        push_u32(&mut h, parent_word);
        push_f32s(&mut h, &n.position);
        push_f32s(&mut h, &n.orientation);
        push_u32s(&mut h, &children);
        push_u32s(&mut h, &controllers);
        push_u32s(&mut h, &data);
        if let Some(light) = n.light.as_ref().filter(|_| f & flags::LIGHT != 0) {
            write_light(&mut self.out, light, &mut h)?;
        }
        if let Some(e) = n.emitter.as_ref().filter(|_| f & flags::EMITTER != 0) {
            emitter_bytes(e, &mut h);
        }
        if let Some(r) = n.reference.as_ref().filter(|_| f & flags::REFERENCE != 0) {
            h.extend_from_slice(&r.model.0);
            push_u32(&mut h, r.reattachable);
        }
        let mut vertex_count = 0;
        if let Some(mesh) = n.mesh.as_ref().filter(|_| f & flags::MESH != 0) {
            vertex_count = mesh.positions.len();
            let skin = n.skin.as_ref().filter(|_| f & flags::SKIN != 0);
            self.mesh(mesh, skin, &mut h)?;
        }
        if let Some(d) = n.dangly.as_ref().filter(|_| f & flags::DANGLY != 0) {
            let c = self.array(d.constraints.len(), 4, "dangly constraints")?;
            let b = f32_bytes(&d.constraints);
            self.put(c[0], &b);
            if d.vertices.len() != vertex_count {
                return Err(bad(format!(
                    "node {i}: {} dangly vertices for {vertex_count} mesh vertices",
                    d.vertices.len()
                )));
            }
            let v = self.place(vertex_count * 12, true)?;
            let b = f32_rows_bytes(&d.vertices);
            self.put(v, &b);
            push_u32s(&mut h, &c);
            push_f32s(&mut h, &[d.displacement, d.tightness, d.period]);
            push_u32(&mut h, v);
        }
        if let Some(a) = n.aabb.as_ref().filter(|_| f & flags::AABB != 0) {
            let root = write_aabb(&mut self.out, a, &i.to_string())?;
            push_u32(&mut h, root);
        }
        if let Some(s) = n.saber.as_ref().filter(|_| f & flags::SABER != 0) {
            if s.positions.len() != vertex_count
                || s.uvs.len() != vertex_count
                || s.normals.len() != vertex_count
            {
                return Err(bad(format!(
                    "node {i}: the saber arrays need {vertex_count} rows each"
                )));
            }
            let v = self.place(vertex_count * 12, true)?;
            let b = f32_rows_bytes(&s.positions);
            self.put(v, &b);
            let t = self.place(vertex_count * 8, true)?;
            let mut b = Vec::with_capacity(vertex_count * 8);
            for uv in &s.uvs {
                push_f32s(&mut b, uv);
            }
            self.put(t, &b);
            let nr = self.place(vertex_count * 12, true)?;
            let b = f32_rows_bytes(&s.normals);
            self.put(nr, &b);
            push_u32s(&mut h, &[v, t, nr, s.unknown[0], s.unknown[1]]);
        }
        debug_assert_eq!(h.len(), size);

        self.put(off, &h);
        Ok((off, children[0]))
    }

    fn mesh(&mut self, m: &Mesh, skin: Option<&Skin>, h: &mut Vec<u8>) -> Result<(), Fail> {
        let n = m.positions.len();
        let vertex_count = u16::try_from(n)
            .map_err(|_| bad(format!("{n} vertices: a mesh holds at most 65535")))?;
        let faces = write_faces(&mut self.out, &m.faces)?;
        let counts = self.array(m.index_lists.len(), 4, "index lists")?;
        let offsets = self.array(m.index_lists.len(), 4, "index lists")?;
        let mut count_table = Vec::new();
        let mut offset_table = Vec::new();
        for list in &m.index_lists {
            let at = self.place(list.len() * 2, true)?;
            push_u32(&mut count_table, count32(list.len(), "indices")?);
            push_u32(&mut offset_table, at);
            let mut b = Vec::with_capacity(list.len() * 2);
            push_u16s(&mut b, list);
            self.put(at, &b);
        }
        self.put(counts[0], &count_table);
        self.put(offsets[0], &offset_table);
        let inverted = self.array(m.inverted_counters.len(), 4, "inverted counters")?;
        let b = u32_bytes(&m.inverted_counters);
        self.put(inverted[0], &b);
        let positions = self.place(n * 12, true)?;
        let b = f32_rows_bytes(&m.positions);
        self.put(positions, &b);

        let mut skin_bytes = Vec::new();
        if let Some(s) = skin {
            let unknown = self.array(s.unknown.len(), 4, "skin words")?;
            let b = u32_bytes(&s.unknown);
            self.put(unknown[0], &b);
            let map = self.place(s.bone_map.len() * 4, true)?;
            let b = f32_bytes(&s.bone_map);
            self.put(map, &b);
            let q = self.array(s.qbones.len(), 16, "qbones")?;
            let mut b = Vec::with_capacity(s.qbones.len() * 16);
            for v in &s.qbones {
                push_f32s(&mut b, v);
            }
            self.put(q[0], &b);
            let t = self.array(s.tbones.len(), 12, "tbones")?;
            let b = f32_rows_bytes(&s.tbones);
            self.put(t[0], &b);
            let u2 = self.array(s.unknown2.len(), 4, "skin words")?;
            let b = u32_bytes(&s.unknown2);
            self.put(u2[0], &b);
            push_u32s(&mut skin_bytes, &unknown);
            push_u32s(
                &mut skin_bytes,
                &[
                    s.weights_offset as u32,
                    s.indices_offset as u32,
                    map,
                    count32(s.bone_map.len(), "bone map entries")?,
                ],
            );
            push_u32s(&mut skin_bytes, &q);
            push_u32s(&mut skin_bytes, &t);
            push_u32s(&mut skin_bytes, &u2);
            push_u16s(&mut skin_bytes, &s.bone_nodes);
            push_u32(&mut skin_bytes, s.padding);
        }

        let stride = m.mdx_stride as usize;
        let mdx = self.place_mdx(n * stride)?;
        self.mdx_rows(m, skin, mdx as usize)?;
        self.owe_terminator(m, skin);

        push_u32s(h, &m.function_pointers);
        push_u32s(h, &faces);
        push_f32s(h, &m.bounds_min);
        push_f32s(h, &m.bounds_max);
        push_f32s(h, &[m.radius]);
        push_f32s(h, &m.average);
        push_f32s(h, &m.diffuse);
        push_f32s(h, &m.ambient);
        push_u32(h, m.transparency_hint);
        h.extend_from_slice(&m.texture0.0);
        h.extend_from_slice(&m.texture1.0);
        h.extend_from_slice(&m.texture2.0);
        h.extend_from_slice(&m.texture3.0);
        push_u32s(h, &counts);
        push_u32s(h, &offsets);
        push_u32s(h, &inverted);
        for v in m.unknown {
            push_u32(h, v as u32);
        }
        h.extend_from_slice(&m.saber_unknown);
        push_u32(h, m.animate_uv);
        push_f32s(h, &m.uv_direction);
        push_f32s(h, &[m.uv_jitter, m.uv_jitter_speed]);
        push_u32(h, m.mdx_stride);
        push_u32(h, m.mdx_flags);
        for v in m.mdx_offsets {
            push_u32(h, v as u32);
        }
        push_u16s(h, &[vertex_count, m.texture_count]);
        h.extend_from_slice(&[
            m.lightmapped,
            m.rotate_texture,
            m.background,
            m.shadow,
            m.beaming,
            m.render,
        ]);
        if self.model.game == Game::K2 {
            h.extend_from_slice(&m.k2);
        }
        push_u16s(h, &[m.padding]);
        push_f32s(h, &[m.total_area]);
        push_u32(h, m.padding2);
        push_u32(h, mdx);
        push_u32(h, positions);
        h.extend_from_slice(&skin_bytes);
        Ok(())
    }

    fn mdx_rows(&mut self, m: &Mesh, skin: Option<&Skin>, base: usize) -> Result<(), Fail> {
        let n = m.positions.len();
        let stride = m.mdx_stride as usize;
        let v = &m.vertices;
        let o = &m.mdx_offsets;
        let (wo, io) = skin.map_or((-1, -1), |s| (s.weights_offset, s.indices_offset));
        let mut columns: Vec<(i32, usize, &str, Vec<&[f32]>)> = Vec::new();
        columns.push((
            o[0],
            12,
            "positions",
            v.positions.iter().map(|x| &x[..]).collect(),
        ));
        columns.push((
            o[1],
            12,
            "normals",
            v.normals.iter().map(|x| &x[..]).collect(),
        ));
        columns.push((
            o[2],
            12,
            "colours",
            v.colors.iter().map(|x| &x[..]).collect(),
        ));
        for k in 0..4 {
            columns.push((
                o[3 + k],
                8,
                "UVs",
                v.uvs[k].iter().map(|x| &x[..]).collect(),
            ));
        }
        for k in 0..4 {
            columns.push((
                o[7 + k],
                36,
                "tangents",
                v.tangents[k].iter().map(|x| &x[..]).collect(),
            ));
        }
        columns.push((
            wo,
            16,
            "bone weights",
            v.bone_weights.iter().map(|x| &x[..]).collect(),
        ));
        columns.push((
            io,
            16,
            "bone indices",
            v.bone_indices.iter().map(|x| &x[..]).collect(),
        ));
        for (off, size, what, rows) in columns {
            if off < 0 {
                if !rows.is_empty() {
                    return Err(bad(format!(
                        "{} MDX {what} but no {what} column in the mesh's MDX offsets",
                        rows.len()
                    )));
                }
                continue;
            }
            let off = off as usize;
            if rows.len() != n {
                return Err(bad(format!("{} MDX {what} for {n} vertices", rows.len())));
            }
            // A mesh without vertices has no rows: its column offsets are kept as data (the
            // reader takes them so too).
            if n > 0 && off + size > stride {
                return Err(bad(format!(
                    "the MDX {what} column at {off} ({size} bytes) does not fit the stride {stride}"
                )));
            }
            for (r, row) in rows.iter().enumerate() {
                let at = base + r * stride + off;
                for (k, x) in row.iter().enumerate() {
                    self.mdx[at + 4 * k..at + 4 * k + 4].copy_from_slice(&x.to_le_bytes());
                }
            }
        }
        Ok(())
    }
}

/// Refuses a node whose parts disagree with its type flags (the writer would drop them).
fn check_parts(n: &Node, f: u16, i: usize) -> Result<(), Fail> {
    use flags::*;
    let parts: [(bool, u16, &str); 8] = [
        (n.light.is_some(), LIGHT, "light"),
        (n.emitter.is_some(), EMITTER, "emitter"),
        (n.reference.is_some(), REFERENCE, "reference"),
        (n.mesh.is_some(), MESH, "mesh"),
        (n.skin.is_some(), SKIN | MESH, "skin"),
        (n.dangly.is_some(), DANGLY, "dangly"),
        (n.aabb.is_some(), AABB, "aabb"),
        (n.saber.is_some(), SABER, "saber"),
    ];
    for (has, bits, what) in parts {
        if has != (f & bits == bits) {
            return Err(bad(format!(
                "node {i}: type flags {:#x} and its {what} data disagree",
                n.flags
            )));
        }
    }
    if f & ANIM != 0 {
        return Err(bad(format!(
            "node {i}: animmesh nodes (flag 0x80) are not supported"
        )));
    }
    Ok(())
}

fn emitter_bytes(e: &Emitter, h: &mut Vec<u8>) {
    push_f32s(h, &[e.dead_space, e.blast_radius, e.blast_length]);
    push_u32(h, e.branch_count);
    push_f32s(h, &[e.control_point_smoothing]);
    push_u32s(h, &[e.x_grid, e.y_grid, e.spawn_type]);
    for n in [&e.update, &e.render, &e.blend, &e.texture] {
        h.extend_from_slice(&n.0);
    }
    h.extend_from_slice(&e.chunk.0);
    push_u32s(h, &[e.two_sided_texture, e.looping]);
    push_u16s(h, &[e.render_order]);
    h.push(e.frame_blending);
    h.extend_from_slice(&e.depth_texture.0);
    h.push(e.padding);
    push_u32(h, e.flags);
}

impl TreeWriter for Writer<'_> {
    type Node = Node;

    fn write_node(&mut self, nodes: &[Node], i: usize, parent: u32) -> Result<(u32, u32), Fail> {
        self.node(nodes, i, parent)
    }

    fn put_word(&mut self, at: u32, v: u32) {
        self.put(at, &v.to_le_bytes());
    }
}
