//! Bytes to [`Model`]: every header, array and MDX row, with the source layout recorded.

use super::layout::Layout;
use super::le::*;
use super::model::*;
use super::parts::{read_aabb, read_events, read_faces, read_geometry, read_light};
use super::raw::*;
use super::space::{Array, Space, array_at};
use super::tree::{Reserve, Sharing, TreeNode, TreeReader, read_tree};
use crate::error::{DecodeError, ErrorKind, Location};

/// Reads a binary model from its MDL and MDX bytes.
///
/// Errors name the byte offset (of the MDL, or of the MDX for vertex rows) and, inside the node
/// tree, the node path (`node root/room01/mesh04`).
pub fn read(mdl: &[u8], mdx: &[u8]) -> Result<Model, DecodeError> {
    crate::census::decoded("mdl");
    if mdl.len() < FILE_HEADER + MODEL_HEADER {
        return Err(DecodeError::malformed_at(
            mdl.len() as u64,
            format!(
                "a binary MDL needs its {} header bytes, but the input has {} bytes",
                FILE_HEADER + MODEL_HEADER,
                mdl.len()
            ),
        ));
    }
    if mdl.len() > u32::MAX as usize || mdx.len() > u32::MAX as usize {
        return Err(DecodeError::limit_at(0, "a model file over 4 GiB"));
    }
    let file_word = le_u32(mdl, 0);
    if file_word != 0 {
        return Err(DecodeError::malformed_at(
            0,
            format!(
                "expected a binary MDL (first word 0), found {file_word:#x}; an MDL ASCII file \
                 starts with text"
            ),
        ));
    }
    if super::nwn::is_nwn_layout(mdl) {
        return Err(DecodeError::new(
            ErrorKind::Unsupported,
            Location::Offset(FILE_HEADER as u64),
            "an NWN compiled model (a 64-byte model name, the root node at header offset 72 and \
             the raw-data block after the model data): read it with mdl::nwn::read",
        ));
    }
    let mdl_size = le_u32(mdl, 4);
    let mdx_size = le_u32(mdl, 8);
    let body = mdl.len() - FILE_HEADER;
    if mdl_size as usize > body {
        return Err(DecodeError::malformed_at(
            4,
            format!(
                "the header gives {mdl_size} bytes of MDL data, but the file has {body} after its \
                 12-byte header"
            ),
        ));
    }
    if (mdl_size as usize) < MODEL_HEADER {
        return Err(DecodeError::malformed_at(
            4,
            format!(
                "the header gives {mdl_size} bytes of MDL data, less than the {MODEL_HEADER}-byte \
                 model header"
            ),
        ));
    }
    // A size word smaller than the file leaves bytes after the declared end: a model a popular
    // mod ships, which the game loads, does this. They are kept (`Model::trailing`) and
    // reported (`mdl-trailing-bytes`). The MDX size word disagrees with the MDX's length in
    // some real files (PyKotor's test models): it is kept as data, and the MDX is read as it
    // is.
    let end = FILE_HEADER + mdl_size as usize;
    let data = &mdl[FILE_HEADER..end];
    let game = detect_game(data)?;
    let mut r = Reader {
        mdl: Space::new(data, FILE_HEADER as u64, "the MDL data"),
        mdx: Space::new(mdx, 0, "the MDX"),
        game,
        words: Vec::new(),
        names: Vec::new(),
        path: Vec::new(),
        anim: false,
        node_at: Vec::new(),
        shared: false,
        reserve: Reserve::new(data.len(), NODE_HEADER),
    };
    let mut model = r.model()?;
    model.file_word = file_word;
    model.trailing = mdl[end..].to_vec();
    let mut bytes = Vec::new();
    let (blocks, gaps, o1) = r.mdl.gaps(&mut bytes);
    let (mdx_blocks, mdx_gaps, o2) = r.mdx.gaps(&mut bytes);
    let layout = Layout {
        mdl_size,
        mdx_size: mdx.len() as u32,
        mdx_size_word: mdx_size,
        blocks,
        mdx_blocks,
        words: r.words,
        mdl_gaps: gaps,
        mdx_gaps,
        gap_bytes: bytes,
        overlapping: o1 || o2 || r.shared,
    };
    model.layout = Some(Box::new(layout));
    Ok(model)
}

/// Tells K1 from K2 by the geometry header's function pointers, then by the first mesh's.
fn detect_game(data: &[u8]) -> Result<Game, DecodeError> {
    let p = le_u32(data, 0);
    match p {
        MODEL_FN_K1_PC => Ok(Game::K1),
        MODEL_FN_K2_PC => Ok(Game::K2),
        MODEL_FN_K1_XBOX | MODEL_FN_K2_XBOX => Err(DecodeError::new(
            ErrorKind::Unsupported,
            Location::Offset(FILE_HEADER as u64),
            format!(
                "an Xbox model (geometry function pointer {p:#x}): only the PC layout is \
                 supported"
            ),
        )),
        // Models from other compilers: the first mesh header's pointers decide, K1 otherwise.
        _ => Ok(first_mesh_game(data).unwrap_or(Game::K1)),
    }
}

/// The game the first mesh node's function pointers name (a shallow walk, no errors).
fn first_mesh_game(data: &[u8]) -> Option<Game> {
    let mut stack = vec![get_u32(data, 40)?];
    let mut steps = 0;
    while let Some(off) = stack.pop() {
        steps += 1;
        if steps > 4096 {
            return None;
        }
        let o = off as usize;
        let flags = get_u16(data, o)?;
        if flags & flags::MESH != 0 {
            let mut m = o + NODE_HEADER;
            if flags & flags::LIGHT != 0 {
                m += LIGHT_HEADER;
            }
            if flags & flags::EMITTER != 0 {
                m += EMITTER_HEADER;
            }
            if flags & flags::REFERENCE != 0 {
                m += REFERENCE_HEADER;
            }
            let p = get_u32(data, m)?;
            return if K2_MESH_FNS.contains(&p) {
                Some(Game::K2)
            } else if K1_MESH_FNS.contains(&p) {
                Some(Game::K1)
            } else {
                None
            };
        }
        let children = get_u32(data, o + 44)?;
        let count = get_u32(data, o + 48)?.min(256);
        if stack.len() > 4096 {
            return None;
        }
        for i in (0..count).rev() {
            stack.push(get_u32(data, children as usize + 4 * i as usize)?);
        }
    }
    None
}

struct Reader<'a> {
    /// The MDL data after the file header; pointers are offsets into it.
    mdl: Space<'a>,
    mdx: Space<'a>,
    game: Game,
    /// Derived words as read, in walk order.
    words: Vec<u32>,
    names: Vec<Vec<u8>>,
    /// Name indices of the nodes from the root to the one being read.
    path: Vec<u16>,
    /// Whether the tree being read is an animation's.
    anim: bool,
    /// Offsets of the geometry nodes, by arena index.
    node_at: Vec<u32>,
    /// Whether an animation reached a node block from two parents.
    shared: bool,
    /// What is left to reserve for node arenas.
    reserve: Reserve,
}

impl<'a> Reader<'a> {
    fn err(&self, ptr: u64, msg: impl Into<String>) -> DecodeError {
        self.located(self.mdl.err(ptr, msg))
    }

    fn located(&self, e: DecodeError) -> DecodeError {
        if self.path.is_empty() {
            e
        } else {
            let path: Vec<String> = self.path.iter().map(|&i| name_of(&self.names, i)).collect();
            e.within(format!("node {}", path.join("/")))
        }
    }

    /// The `len` bytes at MDL pointer `ptr`, recorded as a block.
    fn block(&mut self, ptr: u32, len: u64, what: &str) -> Result<&'a [u8], DecodeError> {
        self.mdl.block(ptr, len, what).map_err(|e| self.located(e))
    }

    /// The `count` records of `size` bytes an array header names, recorded as a block, with its
    /// allocated count as a derived word.
    fn array(&mut self, a: Array, size: u64, what: &str) -> Result<&'a [u8], DecodeError> {
        self.mdl
            .array(&mut self.words, a, size, what)
            .map_err(|e| self.located(e))
    }

    /// A NUL-terminated string at `ptr`, recorded as a block (terminator included).
    fn string(&mut self, ptr: u32, what: &str) -> Result<Vec<u8>, DecodeError> {
        self.mdl.string(ptr, what).map_err(|e| self.located(e))
    }

    fn model(&mut self) -> Result<Model, DecodeError> {
        let h = self.block(0, MODEL_HEADER as u64, "the model header")?;
        let (geometry, root) = read_geometry::<32>(h);
        let animations = array_at(h, 88);
        let header = ModelHeader {
            classification: h[80],
            subclassification: h[81],
            unknown: h[82],
            affected_by_fog: h[83],
            child_model_count: le_u32(h, 84),
            supermodel_ref: le_u32(h, 100),
            bounds_min: vec3(h, 104),
            bounds_max: vec3(h, 116),
            radius: le_f32(h, 128),
            animation_scale: le_f32(h, 132),
            supermodel: Name(bytes_n(h, 136)),
            animation_root: None,
            padding: le_u32(h, 172),
            mdx_offset: le_u32(h, 180),
        };
        let animation_root = le_u32(h, 168);
        let mdx_size_word = le_u32(h, 176);
        let names = array_at(h, 184);
        self.words.push(mdx_size_word);

        // Names.
        let table = self.array(names, 4, "the name offsets")?;
        let mut out = Vec::with_capacity(names.count as usize);
        for i in 0..names.count as usize {
            let p = le_u32(table, 4 * i);
            out.push(self.string(p, "a node name")?);
        }
        self.names = out;

        // Animations.
        let table = self.array(animations, 4, "the animation offsets")?;
        let mut anims = Vec::with_capacity(animations.count as usize);
        for i in 0..animations.count as usize {
            let p = le_u32(table, 4 * i);
            anims.push(self.animation(p)?);
        }

        // Geometry.
        let mut nodes = self.reserve.arena(geometry.node_count);
        self.node_at.clear();
        self.anim = false;
        read_tree(self, root, Sharing::Refused, &mut nodes)?;
        let mut header = header;
        header.animation_root = self.node_at.iter().position(|&o| o == animation_root);
        if header.animation_root.is_none() {
            self.words.push(animation_root);
        }
        Ok(Model {
            game: self.game,
            file_word: 0,
            geometry,
            header,
            names: std::mem::take(&mut self.names),
            nodes,
            animations: anims,
            trailing: Vec::new(),
            layout: None,
        })
    }

    fn animation(&mut self, ptr: u32) -> Result<Animation, DecodeError> {
        let h = self.block(ptr, ANIMATION_HEADER as u64, "an animation header")?;
        let (geometry, root) = read_geometry::<32>(h);
        let events = array_at(h, 120);
        let mut anim = Animation {
            geometry,
            length: le_f32(h, 80),
            transition: le_f32(h, 84),
            root: Name(bytes_n(h, 88)),
            events: Vec::new(),
            padding: le_u32(h, 132),
            nodes: Vec::new(),
        };
        anim.events = read_events(&mut self.mdl, &mut self.words, events)?;
        let mut nodes = self.reserve.arena(anim.geometry.node_count);
        self.anim = true;
        let name = anim.geometry.name.as_string();
        self.shared |= read_tree(self, root, Sharing::Allowed, &mut nodes)
            .map_err(|e| e.within(format!("animation {name}")))?;
        self.path.clear();
        anim.nodes = nodes;
        Ok(anim)
    }

    /// One node's header, arrays and parts; returns its index and its children's pointers.
    fn node_body(&mut self, ptr: u32, node_flags: u16) -> Result<(Node, Vec<u32>), DecodeError> {
        use flags::*;
        let anim = self.anim;
        if !anim && node_flags & ANIM != 0 {
            return Err(self.located(DecodeError::new(
                ErrorKind::Unsupported,
                Location::Offset(u64::from(ptr) + FILE_HEADER as u64),
                "an animmesh node (flag 0x80): not supported",
            )));
        }
        let f = if anim { 0 } else { node_flags };
        let mesh_size = match self.game {
            Game::K1 => MESH_HEADER_K1,
            Game::K2 => MESH_HEADER_K2,
        };
        let size = header_size(f, mesh_size);
        let h = self.block(ptr, size as u64, "a node header")?;
        if !anim {
            self.node_at.push(ptr);
        }
        self.words.push(le_u32(h, 12));
        let children = array_at(h, 44);
        let controllers = array_at(h, 56);
        let data = array_at(h, 68);
        let mut node = Node {
            flags: node_flags,
            node_number: le_u16(h, 2),
            name_index: le_u16(h, 4),
            padding: le_u16(h, 6),
            root_word: le_u32(h, 8),
            position: vec3(h, 16),
            orientation: [le_f32(h, 28), le_f32(h, 32), le_f32(h, 36), le_f32(h, 40)],
            ..Node::default()
        };

        let child_table = self.array(children, 4, "the child offsets")?;
        let ctl = self.array(controllers, 16, "the controllers")?;
        node.controllers = ctl
            .chunks_exact(16)
            .map(|c| Controller {
                kind: le_u32(c, 0),
                unknown: le_u16(c, 4),
                rows: le_u16(c, 6),
                time_index: le_u16(c, 8),
                data_index: le_u16(c, 10),
                columns: c[12],
                padding: [c[13], c[14], c[15]],
            })
            .collect();
        let d = self.array(data, 4, "the controller data")?;
        node.controller_data = floats(d);

        let mut o = NODE_HEADER;
        if f & LIGHT != 0 {
            node.light = Some(
                read_light(&mut self.mdl, &mut self.words, &h[o..o + LIGHT_HEADER])
                    .map_err(|e| self.located(e))?,
            );
            o += LIGHT_HEADER;
        }
        if f & EMITTER != 0 {
            node.emitter = Some(emitter(&h[o..o + EMITTER_HEADER]));
            o += EMITTER_HEADER;
        }
        if f & REFERENCE != 0 {
            node.reference = Some(Reference {
                model: Name(bytes_n(h, o)),
                reattachable: le_u32(h, o + 32),
            });
            o += REFERENCE_HEADER;
        }
        let mut vertex_count = 0;
        if f & MESH != 0 {
            let (mesh, skin_at) = self.mesh(&h[o..o + mesh_size], &h[o + mesh_size..], f)?;
            vertex_count = mesh.positions.len();
            o += mesh_size;
            if let Some(skin) = skin_at {
                node.skin = Some(skin);
                o += SKIN_HEADER;
            }
            node.mesh = Some(mesh);
        }
        if f & DANGLY != 0 {
            node.dangly = Some(self.dangly(&h[o..o + DANGLY_HEADER], vertex_count)?);
            o += DANGLY_HEADER;
        }
        if f & AABB != 0 {
            let root = le_u32(h, o);
            node.aabb = Some(read_aabb(&mut self.mdl, root).map_err(|e| self.located(e))?);
            o += AABB_HEADER;
        }
        if f & SABER != 0 {
            node.saber = Some(self.saber(&h[o..o + SABER_HEADER], vertex_count)?);
            o += SABER_HEADER;
        }
        debug_assert_eq!(o, size);

        let kids = words(child_table);
        node.children = Vec::with_capacity(kids.len());
        Ok((node, kids))
    }

    /// The mesh header `h`, its arrays and MDX rows; `after` is what follows the header (the
    /// skin header when `f` has the skin flag).
    fn mesh(
        &mut self,
        h: &[u8],
        after: &[u8],
        f: u16,
    ) -> Result<(Mesh, Option<Skin>), DecodeError> {
        let k2 = self.game == Game::K2;
        let faces_arr = array_at(h, 8);
        let counts_arr = array_at(h, 176);
        let offsets_arr = array_at(h, 188);
        let inverted_arr = array_at(h, 200);
        let tail = if k2 { 8 } else { 0 };
        let mut mdx_offsets = [0i32; 11];
        for (i, slot) in mdx_offsets.iter_mut().enumerate() {
            *slot = le_i32(h, 260 + 4 * i);
        }
        let vertex_count = le_u16(h, 304);
        let mut k2_bytes = [0u8; 8];
        if k2 {
            k2_bytes.copy_from_slice(&h[314..322]);
        }
        let mut mesh = Mesh {
            function_pointers: [le_u32(h, 0), le_u32(h, 4)],
            faces: Vec::new(),
            bounds_min: vec3(h, 20),
            bounds_max: vec3(h, 32),
            radius: le_f32(h, 44),
            average: vec3(h, 48),
            diffuse: vec3(h, 60),
            ambient: vec3(h, 72),
            transparency_hint: le_u32(h, 84),
            texture0: Name(bytes_n(h, 88)),
            texture1: Name(bytes_n(h, 120)),
            texture2: Name(bytes_n(h, 152)),
            texture3: Name(bytes_n(h, 164)),
            index_lists: Vec::new(),
            inverted_counters: Vec::new(),
            unknown: [le_i32(h, 212), le_i32(h, 216), le_i32(h, 220)],
            saber_unknown: bytes_n(h, 224),
            animate_uv: le_u32(h, 232),
            uv_direction: [le_f32(h, 236), le_f32(h, 240)],
            uv_jitter: le_f32(h, 244),
            uv_jitter_speed: le_f32(h, 248),
            mdx_stride: le_u32(h, 252),
            mdx_flags: le_u32(h, 256),
            mdx_offsets,
            texture_count: le_u16(h, 306),
            lightmapped: h[308],
            rotate_texture: h[309],
            background: h[310],
            shadow: h[311],
            beaming: h[312],
            render: h[313],
            k2: k2_bytes,
            padding: le_u16(h, 314 + tail),
            total_area: le_f32(h, 316 + tail),
            padding2: le_u32(h, 320 + tail),
            positions: Vec::new(),
            vertices: VertexData::default(),
        };
        let mdx_data = le_u32(h, 324 + tail);
        let positions_ptr = le_u32(h, 328 + tail);

        mesh.faces =
            read_faces(&mut self.mdl, &mut self.words, faces_arr).map_err(|e| self.located(e))?;
        let counts = self.array(counts_arr, 4, "the index counts")?;
        let offsets = self.array(offsets_arr, 4, "the index offsets")?;
        if counts_arr.count != offsets_arr.count {
            return Err(self.err(
                u64::from(offsets_arr.offset),
                format!(
                    "{} index counts but {} index offsets",
                    counts_arr.count, offsets_arr.count
                ),
            ));
        }
        for i in 0..counts_arr.count as usize {
            let n = le_u32(counts, 4 * i);
            let p = le_u32(offsets, 4 * i);
            let list = self.block(p, u64::from(n) * 2, "a vertex index list")?;
            mesh.index_lists.push(halves(list));
        }
        let inverted = self.array(inverted_arr, 4, "the inverted counters")?;
        mesh.inverted_counters = words(inverted);
        let pos = self.block(
            positions_ptr,
            u64::from(vertex_count) * 12,
            "the vertex positions",
        )?;
        mesh.positions = f32_rows(pos);

        let skin = if f & flags::SKIN != 0 {
            Some(self.skin(&after[..SKIN_HEADER])?)
        } else {
            None
        };
        let (wo, io) = skin
            .as_ref()
            .map_or((-1, -1), |s| (s.weights_offset, s.indices_offset));
        mesh.vertices = self.mdx_rows(&mesh, mdx_data, usize::from(vertex_count), wo, io)?;
        Ok((mesh, skin))
    }

    /// The MDX rows of a mesh at `base`.
    fn mdx_rows(
        &mut self,
        mesh: &Mesh,
        base: u32,
        n: usize,
        weights: i32,
        indices: i32,
    ) -> Result<VertexData, DecodeError> {
        let stride = mesh.mdx_stride as usize;
        let len = (n as u64) * stride as u64;
        let start = u64::from(base);
        if n > 0 && start + len > self.mdx.data.len() as u64 {
            return Err(self.located(DecodeError::malformed_at(
                start,
                format!(
                    "the MDX rows of this mesh ({n} rows of {stride} bytes) run past the end of \
                     the MDX ({} bytes)",
                    self.mdx.data.len()
                ),
            ))
            .within("MDX"));
        }
        self.mdx.blocks.push((base, len as u32));
        let mut out = VertexData::default();
        if n == 0 {
            return Ok(out);
        }
        let rows = &self.mdx.data[base as usize..(start + len) as usize];
        let mut spans: Vec<(usize, usize)> = Vec::new();
        let mut column =
            |off: i32, size: usize, what: &str| -> Result<Option<usize>, DecodeError> {
                if off < 0 {
                    return Ok(None);
                }
                let o = off as usize;
                if o + size > stride {
                    return Err(self.located(DecodeError::malformed_at(
                    start,
                    format!(
                        "the MDX {what} at row offset {o} ({size} bytes) does not fit the row \
                         stride {stride}"
                    ),
                ))
                .within("MDX"));
                }
                spans.push((o, o + size));
                Ok(Some(o))
            };
        let o = &mesh.mdx_offsets;
        let pos = column(o[0], 12, "positions")?;
        let nor = column(o[1], 12, "normals")?;
        let col = column(o[2], 12, "colours")?;
        let mut uv = [None; 4];
        for (k, slot) in uv.iter_mut().enumerate() {
            *slot = column(o[3 + k], 8, "UVs")?;
        }
        let mut tan = [None; 4];
        for (k, slot) in tan.iter_mut().enumerate() {
            *slot = column(o[7 + k], 36, "tangent space")?;
        }
        let w = column(weights, 16, "bone weights")?;
        let ix = column(indices, 16, "bone indices")?;
        if let Some(o) = pos {
            out.positions = strided(rows, stride, o);
        }
        if let Some(o) = nor {
            out.normals = strided(rows, stride, o);
        }
        if let Some(o) = col {
            out.colors = strided(rows, stride, o);
        }
        for k in 0..4 {
            if let Some(o) = uv[k] {
                out.uvs[k] = strided(rows, stride, o);
            }
            if let Some(o) = tan[k] {
                out.tangents[k] = strided(rows, stride, o);
            }
        }
        if let Some(o) = w {
            out.bone_weights = strided(rows, stride, o);
        }
        if let Some(o) = ix {
            out.bone_indices = strided(rows, stride, o);
        }
        // Cover what the columns read: the whole rows, or row by row when they leave holes.
        spans.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::new();
        for (s, e) in spans {
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        if merged == [(0, stride)] {
            self.mdx.cover.add(base, len as u32);
        } else {
            for r in 0..n {
                for &(s, e) in &merged {
                    self.mdx
                        .cover
                        .add((base as usize + r * stride + s) as u32, (e - s) as u32);
                }
            }
        }
        Ok(out)
    }

    fn skin(&mut self, h: &[u8]) -> Result<Skin, DecodeError> {
        let unknown = self.array(array_at(h, 0), 4, "the skin's unknown array")?;
        let map_ptr = le_u32(h, 20);
        let map_count = le_u32(h, 24);
        let map = self.block(map_ptr, u64::from(map_count) * 4, "the bone map")?;
        let q = self.array(array_at(h, 28), 16, "the bone rotations (qbones)")?;
        let t = self.array(array_at(h, 40), 12, "the bone translations (tbones)")?;
        let u2 = self.array(array_at(h, 52), 4, "the skin's second unknown array")?;
        let mut bone_nodes = [0u16; 16];
        for (i, slot) in bone_nodes.iter_mut().enumerate() {
            *slot = le_u16(h, 64 + 2 * i);
        }
        Ok(Skin {
            unknown: words(unknown),
            weights_offset: le_i32(h, 12),
            indices_offset: le_i32(h, 16),
            bone_map: floats(map),
            qbones: q
                .chunks_exact(16)
                .map(|c| [le_f32(c, 0), le_f32(c, 4), le_f32(c, 8), le_f32(c, 12)])
                .collect(),
            tbones: f32_rows(t),
            unknown2: words(u2),
            bone_nodes,
            padding: le_u32(h, 96),
        })
    }

    fn dangly(&mut self, h: &[u8], vertex_count: usize) -> Result<Dangly, DecodeError> {
        let c = self.array(array_at(h, 0), 4, "the dangly constraints")?;
        let v = self.block(
            le_u32(h, 24),
            vertex_count as u64 * 12,
            "the dangly vertex positions",
        )?;
        Ok(Dangly {
            constraints: floats(c),
            displacement: le_f32(h, 12),
            tightness: le_f32(h, 16),
            period: le_f32(h, 20),
            vertices: f32_rows(v),
        })
    }

    fn saber(&mut self, h: &[u8], n: usize) -> Result<Saber, DecodeError> {
        let v = self.block(le_u32(h, 0), n as u64 * 12, "the saber vertex positions")?;
        let positions = f32_rows(v);
        let t = self.block(le_u32(h, 4), n as u64 * 8, "the saber UVs")?;
        let uvs = t
            .chunks_exact(8)
            .map(|c| [le_f32(c, 0), le_f32(c, 4)])
            .collect();
        let nr = self.block(le_u32(h, 8), n as u64 * 12, "the saber normals")?;
        Ok(Saber {
            positions,
            uvs,
            normals: f32_rows(nr),
            unknown: [le_u32(h, 12), le_u32(h, 16)],
        })
    }
}

impl TreeNode for Node {
    fn children(&self) -> &[u32] {
        &self.children
    }

    fn children_mut(&mut self) -> &mut Vec<u32> {
        &mut self.children
    }
}

impl TreeReader for Reader<'_> {
    type Node = Node;

    fn read_node(&mut self, ptr: u32, depth: usize) -> Result<(Node, Vec<u32>), DecodeError> {
        self.path.truncate(depth);
        let head = self
            .mdl
            .slice(ptr, NODE_HEADER as u64, "a node header")
            .map_err(|e| self.located(e))?;
        let node_flags = le_u16(head, 0);
        self.path.push(le_u16(head, 4));
        self.node_body(ptr, node_flags)
    }

    fn locate(&mut self, depth: usize, e: DecodeError) -> DecodeError {
        self.path.truncate(depth);
        self.located(e)
    }
}

fn emitter(h: &[u8]) -> Emitter {
    Emitter {
        dead_space: le_f32(h, 0),
        blast_radius: le_f32(h, 4),
        blast_length: le_f32(h, 8),
        branch_count: le_u32(h, 12),
        control_point_smoothing: le_f32(h, 16),
        x_grid: le_u32(h, 20),
        y_grid: le_u32(h, 24),
        spawn_type: le_u32(h, 28),
        update: Name(bytes_n(h, 32)),
        render: Name(bytes_n(h, 64)),
        blend: Name(bytes_n(h, 96)),
        texture: Name(bytes_n(h, 128)),
        chunk: Name(bytes_n(h, 160)),
        two_sided_texture: le_u32(h, 176),
        looping: le_u32(h, 180),
        render_order: le_u16(h, 184),
        frame_blending: h[186],
        depth_texture: Name(bytes_n(h, 187)),
        padding: h[219],
        flags: le_u32(h, 220),
    }
}

/// Column `o` of every row of `rows` (stride `stride`), `N` floats each (the caller has checked
/// that `o + 4 N` fits the stride).
fn strided<const N: usize>(rows: &[u8], stride: usize, o: usize) -> Vec<[f32; N]> {
    rows.chunks_exact(stride)
        .map(|r| {
            let mut v = [0f32; N];
            for (slot, b) in v.iter_mut().zip(r[o..o + 4 * N].chunks_exact(4)) {
                *slot = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
            v
        })
        .collect()
}
