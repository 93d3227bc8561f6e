//! Bytes to [`Model`]: every header, array and raw-data stream, with the source layout
//! recorded.

use super::model::*;
use super::raw::*;
use crate::error::{DecodeError, ErrorKind, Location};
use crate::mdl::layout::Layout;
use crate::mdl::le::*;
use crate::mdl::parts::{read_aabb, read_events, read_faces, read_geometry, read_light};
use crate::mdl::space::{Array, Space, array_at};
use crate::mdl::tree::{Reserve, Sharing, TreeNode, TreeReader, read_tree};

/// Reads an NWN compiled model.
///
/// Errors name the file offset and, inside a node tree, the node path
/// (`node c_bodak/rootdummy/torso_g`); raw-data errors say `raw data`.
pub fn read(file: &[u8]) -> Result<Model, DecodeError> {
    crate::census::decoded("mdl");
    if file.len() < FILE_HEADER + MODEL_HEADER {
        return Err(DecodeError::malformed_at(
            file.len() as u64,
            format!(
                "an NWN compiled model needs its {} header bytes, but the input has {} bytes",
                FILE_HEADER + MODEL_HEADER,
                file.len()
            ),
        ));
    }
    if file.len() > u32::MAX as usize {
        return Err(DecodeError::limit_at(0, "a model file over 4 GiB"));
    }
    let file_word = le_u32(file, 0);
    if file_word != 0 {
        return Err(DecodeError::malformed_at(
            0,
            format!(
                "expected a compiled model (first word 0), found {file_word:#x}; an MDL ASCII \
                 file starts with text"
            ),
        ));
    }
    let model_size = le_u32(file, 4);
    let raw_size = le_u32(file, 8);
    let body = (file.len() - FILE_HEADER) as u64;
    if u64::from(model_size) + u64::from(raw_size) > body {
        return Err(DecodeError::malformed_at(
            4,
            format!(
                "the header gives {model_size} bytes of model data and {raw_size} of raw data, \
                 but the file has {body} after its 12-byte header"
            ),
        ));
    }
    if (model_size as usize) < MODEL_HEADER {
        return Err(DecodeError::malformed_at(
            4,
            format!(
                "the header gives {model_size} bytes of model data, less than the \
                 {MODEL_HEADER}-byte model header"
            ),
        ));
    }
    let model_end = FILE_HEADER + model_size as usize;
    let raw_end = model_end + raw_size as usize;
    let mut r = Reader {
        model: Space::new(
            &file[FILE_HEADER..model_end],
            FILE_HEADER as u64,
            "the model data",
        ),
        raw: Space::new(&file[model_end..raw_end], model_end as u64, "the raw data"),
        words: Vec::new(),
        path: Vec::new(),
        shared: false,
        reserve: Reserve::new(model_end - FILE_HEADER, NODE_HEADER),
    };
    let mut model = r.model()?;
    model.file_word = file_word;
    model.trailing = file[raw_end..].to_vec();
    let mut bytes = Vec::new();
    let (blocks, gaps, o1) = r.model.gaps(&mut bytes);
    let (raw_blocks, raw_gaps, o2) = r.raw.gaps(&mut bytes);
    model.layout = Some(Box::new(Layout {
        mdl_size: model_size,
        mdx_size: raw_size,
        mdx_size_word: raw_size,
        blocks,
        mdx_blocks: raw_blocks,
        words: r.words,
        mdl_gaps: gaps,
        mdx_gaps: raw_gaps,
        gap_bytes: bytes,
        overlapping: o1 || o2 || r.shared,
    }));
    Ok(model)
}

struct Reader<'a> {
    /// The model data after the file header; pointers are offsets into it.
    model: Space<'a>,
    /// The raw data after the model data (vertex streams and index lists).
    raw: Space<'a>,
    /// Derived words as read (allocated counts), in walk order.
    words: Vec<u32>,
    /// The names of the nodes from the root to the one being read.
    path: Vec<Name<32>>,
    /// Whether an animation reached a node block from two parents.
    shared: bool,
    /// What is left to reserve for node arenas.
    reserve: Reserve,
}

impl<'a> Reader<'a> {
    fn located(&self, e: DecodeError) -> DecodeError {
        if self.path.is_empty() {
            e
        } else {
            let path: Vec<String> = self.path.iter().map(Name::as_string).collect();
            e.within(format!("node {}", path.join("/")))
        }
    }

    fn block(&mut self, ptr: u32, len: u64, what: &str) -> Result<&'a [u8], DecodeError> {
        self.model
            .block(ptr, len, what)
            .map_err(|e| self.located(e))
    }

    fn array(&mut self, a: Array, size: u64, what: &str) -> Result<&'a [u8], DecodeError> {
        self.model
            .array(&mut self.words, a, size, what)
            .map_err(|e| self.located(e))
    }

    /// The `n` records of `size` bytes at raw offset `ptr` (`-1`: none).
    fn stream(
        &mut self,
        ptr: u32,
        n: usize,
        size: usize,
        what: &str,
    ) -> Result<Option<&'a [u8]>, DecodeError> {
        if ptr == u32::MAX {
            return Ok(None);
        }
        let len = n as u64 * size as u64;
        match self.raw.block(ptr, len, what) {
            Ok(s) => Ok(Some(s)),
            Err(e) => Err(self.located(e.within("raw data"))),
        }
    }

    fn model(&mut self) -> Result<Model, DecodeError> {
        let h = self.block(0, MODEL_HEADER as u64, "the model header")?;
        let (geometry, root) = read_geometry::<64>(h);
        let animations = array_at(h, 120);
        let header = ModelHeader {
            unknown: [h[112], h[113]],
            classification: h[114],
            fog: h[115],
            child_model_count: le_u32(h, 116),
            supermodel_ref: le_u32(h, 132),
            bounds_min: vec3(h, 136),
            bounds_max: vec3(h, 148),
            radius: le_f32(h, 160),
            animation_scale: le_f32(h, 164),
            supermodel: Name(bytes_n(h, 168)),
        };
        let table = self.array(animations, 4, "the animation offsets")?;
        let mut anims = Vec::with_capacity(animations.count as usize);
        for c in table.chunks_exact(4) {
            anims.push(self.animation(le_u32(c, 0))?);
        }
        let mut nodes = self.reserve.arena(geometry.node_count);
        read_tree(self, root, Sharing::Refused, &mut nodes)?;
        self.path.clear();
        Ok(Model {
            file_word: 0,
            geometry,
            header,
            nodes,
            animations: anims,
            trailing: Vec::new(),
            layout: None,
        })
    }

    fn animation(&mut self, ptr: u32) -> Result<Animation, DecodeError> {
        let h = self.block(ptr, ANIMATION_HEADER as u64, "an animation header")?;
        let (geometry, root) = read_geometry::<64>(h);
        let name = geometry.name.as_string();
        let events = read_events(&mut self.model, &mut self.words, array_at(h, 184))
            .map_err(|e| e.within(format!("animation {name}")))?;
        let mut nodes = self.reserve.arena(geometry.node_count);
        self.shared |= read_tree(self, root, Sharing::Allowed, &mut nodes)
            .map_err(|e| e.within(format!("animation {name}")))?;
        self.path.clear();
        Ok(Animation {
            geometry,
            length: le_f32(h, 112),
            transition: le_f32(h, 116),
            root: Name(bytes_n(h, 120)),
            events,
            nodes,
        })
    }

    /// One node's header, parts, arrays and raw streams; returns it and its children's
    /// pointers.
    fn node(&mut self, ptr: u32, f: u32) -> Result<(Node, Vec<u32>), DecodeError> {
        use flags::*;
        if f & !KNOWN_FLAGS != 0 {
            return Err(self.located(DecodeError::new(
                ErrorKind::Unsupported,
                Location::Offset(u64::from(ptr) + FILE_HEADER as u64 + 108),
                format!("node content flags {f:#x}: bits above 0x400 are not known"),
            )));
        }
        let h = self.block(ptr, header_size(f) as u64, "a node header")?;
        let mut function_pointers = [0u32; 6];
        for (i, slot) in function_pointers.iter_mut().enumerate() {
            *slot = le_u32(h, 4 * i);
        }
        let mut node = Node {
            flags: f,
            function_pointers,
            inherit_color: le_u32(h, 24),
            node_number: le_i32(h, 28),
            name: Name(bytes_n(h, 32)),
            runtime: [le_u32(h, 64), le_u32(h, 68)],
            ..Node::default()
        };
        let kids = words(self.array(array_at(h, 72), 4, "the child offsets")?);
        let bits = f as u16;
        let mut o = NODE_HEADER;
        let mut part = |size: usize, bit: u16| {
            (bits & bit != 0).then(|| {
                let at = o;
                o += size;
                &h[at..at + size]
            })
        };
        let light = part(LIGHT_HEADER, LIGHT);
        let emitter = part(EMITTER_HEADER, EMITTER);
        let reference = part(REFERENCE_HEADER, REFERENCE);
        let mesh = part(MESH_HEADER, MESH);
        let skin = part(SKIN_HEADER, SKIN);
        let anim = part(ANIM_HEADER, ANIM);
        let dangly = part(DANGLY_HEADER, DANGLY);
        let aabb = part(AABB_HEADER, AABB);
        if let Some(l) = light {
            let light =
                read_light(&mut self.model, &mut self.words, l).map_err(|e| self.located(e))?;
            node.light = Some(Box::new(light));
        }
        node.emitter = emitter.map(|e| Box::new(read_emitter(e)));
        node.reference = reference.map(|r| {
            Box::new(Reference {
                model: Name(bytes_n(r, 0)),
                reattachable: le_u32(r, 64),
            })
        });
        if let Some(a) = aabb {
            let root = le_u32(a, 0);
            node.aabb = Some(if root == 0 {
                Aabb::default()
            } else {
                read_aabb(&mut self.model, root).map_err(|e| self.located(e))?
            });
        }
        let vertex_count = mesh.map_or(0, |m| usize::from(le_u16(m, 448)));
        if let Some(s) = skin {
            node.skin = Some(Box::new(self.skin(s)?));
        }
        if let Some(a) = anim {
            node.anim = Some(Box::new(self.anim_mesh(a, vertex_count)?));
        }
        if let Some(d) = dangly {
            node.dangly = Some(Dangly {
                constraints: floats(self.array(array_at(d, 0), 4, "the dangly constraints")?),
                displacement: le_f32(d, 12),
                tightness: le_f32(d, 16),
                period: le_f32(d, 20),
            });
        }
        if let Some(m) = mesh {
            // The mesh header follows the node header and the parts before it.
            let before: usize = [
                (LIGHT, LIGHT_HEADER),
                (EMITTER, EMITTER_HEADER),
                (REFERENCE, REFERENCE_HEADER),
            ]
            .iter()
            .filter(|(bit, _)| bits & bit != 0)
            .map(|(_, size)| size)
            .sum();
            let at = ptr + (NODE_HEADER + before) as u32;
            node.mesh = Some(Box::new(self.mesh(m, at)?));
        }
        let ctl = self.array(array_at(h, 84), CONTROLLER as u64, "the controllers")?;
        node.controllers = ctl
            .chunks_exact(CONTROLLER)
            .map(|c| Controller {
                kind: le_u32(c, 0),
                rows: le_u16(c, 4),
                time_index: le_u16(c, 6),
                data_index: le_u16(c, 8),
                columns: c[10],
                padding: c[11],
            })
            .collect();
        node.controller_data = floats(self.array(array_at(h, 96), 4, "the controller data")?);
        if let Some(s) = skin {
            let n = node.mesh.as_deref().map_or(0, Mesh::vertex_count);
            self.skin_streams(s, n, node.skin.as_deref_mut())?;
        }
        node.children = Vec::with_capacity(kids.len());
        Ok((node, kids))
    }

    /// The mesh header `h`, its faces and index arrays (model data) and its vertex streams and
    /// index lists (raw data).
    fn mesh(&mut self, h: &[u8], at: u32) -> Result<Mesh, DecodeError> {
        let n = usize::from(le_u16(h, 448));
        let mut legacy = [0u32; 6];
        for (i, slot) in legacy.iter_mut().enumerate() {
            *slot = le_u32(h, 380 + 4 * i);
        }
        let mut mesh = Mesh {
            function_pointers: [le_u32(h, 0), le_u32(h, 4)],
            bounds_min: vec3(h, 20),
            bounds_max: vec3(h, 32),
            radius: le_f32(h, 44),
            average: vec3(h, 48),
            diffuse: vec3(h, 60),
            ambient: vec3(h, 72),
            specular: vec3(h, 84),
            shininess: le_f32(h, 96),
            shadow: le_u32(h, 100),
            beaming: le_u32(h, 104),
            render: le_u32(h, 108),
            transparency_hint: le_u32(h, 112),
            render_hint: le_u32(h, 116),
            textures: [
                Name(bytes_n(h, 120)),
                Name(bytes_n(h, 184)),
                Name(bytes_n(h, 248)),
                Name(bytes_n(h, 312)),
            ],
            tile_fade: le_u32(h, 376),
            legacy_arrays: legacy,
            unknown1: le_i32(h, 428),
            unknown2: le_u32(h, 432),
            triangle_mode: h[436],
            triangle_mode_padding: [h[437], h[438], h[439]],
            unknown3: le_u32(h, 440),
            texture_count: le_u16(h, 450),
            lightmapped: h[500],
            rotate_texture: h[501],
            padding: le_u16(h, 502),
            normal_sum: le_f32(h, 504),
            unknown4: le_u32(h, 508),
            ..Mesh::default()
        };
        mesh.faces = read_faces(&mut self.model, &mut self.words, array_at(h, 8))
            .map_err(|e| self.located(e))?;
        let counts_arr = array_at(h, 404);
        let offsets_arr = array_at(h, 416);
        let counts = self.array(counts_arr, 4, "the index counts")?;
        let offsets = self.array(offsets_arr, 4, "the index offsets")?;
        if counts_arr.count != offsets_arr.count {
            return Err(self.located(self.model.err(
                u64::from(offsets_arr.offset),
                format!(
                    "{} index counts but {} index offsets",
                    counts_arr.count, offsets_arr.count
                ),
            )));
        }
        let positions = self.stream(le_u32(h, 444), n, 12, "the vertex positions")?;
        if positions.is_none() && n > 0 {
            return Err(self.located(self.model.err(
                u64::from(at) + 444,
                format!("a mesh of {n} vertices without vertex positions (offset -1)"),
            )));
        }
        mesh.positions = positions.map(f32_rows);
        for k in 0..4 {
            let s = self.stream(le_u32(h, 452 + 4 * k), n, 8, "the texture coordinates")?;
            mesh.uvs[k] = s.map(f32_rows);
        }
        mesh.normals = self
            .stream(le_u32(h, 468), n, 12, "the vertex normals")?
            .map(f32_rows);
        mesh.colors = self
            .stream(le_u32(h, 472), n, 4, "the vertex colours")?
            .map(|s| s.chunks_exact(4).map(|c| bytes_n(c, 0)).collect());
        for (k, size) in EXTRA_SIZES.iter().enumerate() {
            let s = self.stream(le_u32(h, 476 + 4 * k), n, *size, "a vertex stream")?;
            mesh.extra[k] = s.map(<[u8]>::to_vec);
        }
        for (c, p) in counts.chunks_exact(4).zip(offsets.chunks_exact(4)) {
            let len = u64::from(le_u32(c, 0)) * 2;
            let list = self
                .raw
                .block(le_u32(p, 0), len, "an index list")
                .map_err(|e| self.located(e.within("raw data")))?;
            mesh.index_lists.push(halves(list));
        }
        Ok(mesh)
    }

    /// The skin header `h` and its model-data arrays (the raw streams follow the mesh's).
    fn skin(&mut self, h: &[u8]) -> Result<Skin, DecodeError> {
        let unknown = words(self.array(array_at(h, 0), 4, "the skin's weights array")?);
        let map = self.block(le_u32(h, 20), u64::from(le_u32(h, 24)) * 2, "the bone map")?;
        let q = self.array(array_at(h, 28), 16, "the bone rotations (qbones)")?;
        let t = self.array(array_at(h, 40), 12, "the bone translations (tbones)")?;
        let c = self.array(array_at(h, 52), 4, "the bone constants")?;
        let mut bone_nodes = [0i16; 17];
        for (i, slot) in bone_nodes.iter_mut().enumerate() {
            *slot = le_u16(h, 64 + 2 * i) as i16;
        }
        Ok(Skin {
            unknown,
            weights: None,
            bone_indices: None,
            bone_map: halves(map).into_iter().map(|v| v as i16).collect(),
            qbones: f32_rows(q),
            tbones: f32_rows(t),
            constants: halves(c).chunks_exact(2).map(|p| [p[0], p[1]]).collect(),
            bone_nodes,
            spare: le_u16(h, 98),
        })
    }

    /// The skin's per-vertex weights and bone indices in the raw data.
    fn skin_streams(
        &mut self,
        h: &[u8],
        n: usize,
        skin: Option<&mut Skin>,
    ) -> Result<(), DecodeError> {
        let w = self.stream(le_u32(h, 12), n, 16, "the bone weights")?;
        let ix = self.stream(le_u32(h, 16), n, 8, "the bone indices")?;
        if let Some(s) = skin {
            s.weights = w.map(f32_rows);
            s.bone_indices = ix.map(|b| {
                b.chunks_exact(8)
                    .map(|c| {
                        let v = |k: usize| le_u16(c, k) as i16;
                        [v(0), v(2), v(4), v(6)]
                    })
                    .collect()
            });
        }
        Ok(())
    }

    /// The animated-mesh header `h` and its vertex and texture-coordinate sets.
    fn anim_mesh(&mut self, h: &[u8], n: usize) -> Result<AnimMesh, DecodeError> {
        let mut legacy = [0u32; 9];
        for (i, slot) in legacy.iter_mut().enumerate() {
            *slot = le_u32(h, 4 + 4 * i);
        }
        let vertex_sets = le_u32(h, 48);
        let tvert_sets = le_u32(h, 52);
        let mut set = |ptr: u32, sets: u32, size: u64, what: &str| {
            if ptr == 0 {
                return Ok(None);
            }
            let len = u64::from(sets) * n as u64 * size;
            self.block(ptr, len, what).map(Some)
        };
        let vertices = set(le_u32(h, 40), vertex_sets, 12, "the animated vertices")?;
        let tverts = set(
            le_u32(h, 44),
            tvert_sets,
            8,
            "the animated texture coordinates",
        )?;
        Ok(AnimMesh {
            sample_period: le_f32(h, 0),
            legacy_arrays: legacy,
            vertices: vertices.map(f32_rows),
            tverts: tverts.map(f32_rows),
            vertex_sets,
            tvert_sets,
        })
    }
}

fn read_emitter(h: &[u8]) -> Emitter {
    Emitter {
        dead_space: le_f32(h, 0),
        blast_radius: le_f32(h, 4),
        blast_length: le_f32(h, 8),
        x_grid: le_u32(h, 12),
        y_grid: le_u32(h, 16),
        spawn_type: le_u32(h, 20),
        update: Name(bytes_n(h, 24)),
        render: Name(bytes_n(h, 56)),
        blend: Name(bytes_n(h, 88)),
        texture: Name(bytes_n(h, 120)),
        chunk: Name(bytes_n(h, 184)),
        two_sided_texture: le_u32(h, 200),
        looping: le_u32(h, 204),
        render_order: le_u16(h, 208),
        padding: le_u16(h, 210),
        flags: le_u32(h, 212),
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
            .model
            .slice(ptr, NODE_HEADER as u64, "a node header")
            .map_err(|e| self.located(e))?;
        self.path.push(Name(bytes_n(head, 32)));
        self.node(ptr, le_u32(head, 108))
    }

    fn locate(&mut self, depth: usize, e: DecodeError) -> DecodeError {
        self.path.truncate(depth);
        self.located(e)
    }
}

/// Whether a compiled model has NWN's layout rather than KotOR's, by structure alone: the
/// header's two sizes fit the file after its 12 bytes (model data, then raw data), the KotOR
/// root-node word (inside NWN's 64-byte name) names no KotOR node, and NWN's root-node word at
/// geometry offset 72 points inside the model data at a node header whose name is text.
pub fn is_nwn_layout(file: &[u8]) -> bool {
    let Some(data) = file.get(FILE_HEADER..) else {
        return false;
    };
    let (Some(model_size), Some(raw_size)) = (get_u32(file, 4), get_u32(file, 8)) else {
        return false;
    };
    if u64::from(model_size) + u64::from(raw_size) > data.len() as u64 {
        return false;
    }
    let model_size = model_size as usize;
    // KotOR: the root-node word at 40 names a node header (flags with the header bit) inside
    // the data after KotOR's 196-byte model header.
    let kotor_root = get_u32(data, 40).unwrap_or(0) as usize;
    let kotor_like = kotor_root >= 196
        && kotor_root + 80 <= model_size
        && get_u16(data, kotor_root).is_some_and(|f| f & flags::HEADER != 0);
    if kotor_like {
        return false;
    }
    let Some(root) = get_u32(data, 72).map(|r| r as usize) else {
        return false;
    };
    if root < MODEL_HEADER || root + NODE_HEADER > model_size {
        return false;
    }
    let name = &data[root + 32..root + 64];
    let len = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    len > 0
        && name[..len].iter().all(|b| b.is_ascii_graphic())
        && get_u32(data, root + 108).is_some_and(|f| f & u32::from(flags::HEADER) != 0)
}
