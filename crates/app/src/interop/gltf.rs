//! glTF 2.0: [`write`] a [`Scene`] as `.glb` or `.gltf` (buffer embedded as a data URI) through
//! `gltf-json`, and [`read`] a `.glb`/`.gltf` back to a [`Soup`] of triangles.
//!
//! Layout: one scene whose single root node `areakit` turns the game's z-up frame into glTF's
//! y-up frame (a `matrix`); the scene's nodes hang below it with their own transforms. A mesh
//! has one `POSITION` accessor (and `NORMAL`, `TEXCOORD_0`, `JOINTS_0`, `WEIGHTS_0` when the
//! scene's mesh has them) shared by all its primitives, so vertex numbers are the game's; each
//! group is a primitive with its own `indices` and material. Skins and animations (linear
//! samplers) follow the scene's.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use gj::validation::Checked::Valid;
use gj::validation::USize64;
use gltf_json as gj;
use serde_json::{Value, json};

use super::{AlphaMode, Mat4, Scene, Shape, Soup, SoupTriangle, invalid};
use crate::Error;
use crate::session::Session;

const GLB_MAGIC: u32 = 0x4654_6C67;
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;
/// `asset.generator` of areakit's files (import keeps their vertex table and face order).
pub const GENERATOR: &str = concat!("areakit ", env!("CARGO_PKG_VERSION"));

fn extras(v: &Value) -> gj::Extras {
    if v.is_null() {
        return None;
    }
    serde_json::value::to_raw_value(v).ok()
}

struct Buffer {
    data: Vec<u8>,
    views: Vec<gj::buffer::View>,
}

impl Buffer {
    fn view(&mut self, bytes: &[u8], target: gj::buffer::Target) -> gj::Index<gj::buffer::View> {
        self.view_for(bytes, Some(target))
    }

    /// A view of `bytes`; `target` only for vertex attributes and indices.
    fn view_for(
        &mut self,
        bytes: &[u8],
        target: Option<gj::buffer::Target>,
    ) -> gj::Index<gj::buffer::View> {
        while self.data.len() % 4 != 0 {
            self.data.push(0);
        }
        let offset = self.data.len();
        self.data.extend_from_slice(bytes);
        self.views.push(gj::buffer::View {
            buffer: gj::Index::new(0),
            byte_length: USize64(bytes.len() as u64),
            byte_offset: Some(USize64(offset as u64)),
            byte_stride: None,
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: None,
        });
        gj::Index::new(self.views.len() as u32 - 1)
    }
}

fn accessor(
    view: gj::Index<gj::buffer::View>,
    count: usize,
    component: gj::accessor::ComponentType,
    type_: gj::accessor::Type,
    min: Option<Value>,
    max: Option<Value>,
) -> gj::Accessor {
    gj::Accessor {
        buffer_view: Some(view),
        byte_offset: Some(USize64(0)),
        count: USize64(count as u64),
        component_type: Valid(gj::accessor::GenericComponentType(component)),
        extensions: None,
        extras: None,
        type_: Valid(type_),
        min,
        max,
        name: None,
        normalized: false,
        sparse: None,
    }
}

/// The little-endian bytes of `values`.
fn f32_bytes(values: impl IntoIterator<Item = f32>) -> Vec<u8> {
    values.into_iter().flat_map(f32::to_le_bytes).collect()
}

/// Adds an accessor of f32 items (`type_`) over `bytes` in a view of its own; `min_max` adds
/// the per-component bounds of the `width`-wide items.
fn push_floats(
    root: &mut gj::Root,
    buf: &mut Buffer,
    values: &[f32],
    type_: gj::accessor::Type,
    target: Option<gj::buffer::Target>,
    min_max: bool,
) -> gj::Index<gj::Accessor> {
    let width = type_.multiplicity();
    let view = buf.view_for(&f32_bytes(values.iter().copied()), target);
    let (min, max) = if min_max {
        let mut min = vec![f32::INFINITY; width];
        let mut max = vec![f32::NEG_INFINITY; width];
        for item in values.chunks_exact(width) {
            for k in 0..width {
                min[k] = min[k].min(item[k]);
                max[k] = max[k].max(item[k]);
            }
        }
        let f = |v: Vec<f32>| json!(v.into_iter().map(f64::from).collect::<Vec<_>>());
        (Some(f(min)), Some(f(max)))
    } else {
        (None, None)
    };
    root.accessors.push(accessor(
        view,
        values.len() / width,
        gj::accessor::ComponentType::F32,
        type_,
        min,
        max,
    ));
    gj::Index::new(root.accessors.len() as u32 - 1)
}

/// Why a scene could not be written as glTF.
#[derive(Debug, thiserror::Error)]
pub enum GltfWriteError {
    /// The JSON could not be made (it always can for finite data).
    #[error("the glTF JSON cannot be written: {0}")]
    Json(#[from] serde_json::Error),
    /// A `.glb` holds at most 4 GiB.
    #[error("the glTF is larger than 4 GiB ({0} bytes)")]
    TooLarge(usize),
}

/// Writes a scene as glTF: a `.glb` container when `binary`, else JSON with the buffer as a
/// base64 data URI.
pub fn write(scene: &Scene, binary: bool) -> Result<Vec<u8>, GltfWriteError> {
    let mut root = gj::Root {
        asset: gj::Asset {
            generator: Some(GENERATOR.to_string()),
            ..Default::default()
        },
        ..Default::default()
    };
    let mut buf = Buffer {
        data: Vec::new(),
        views: Vec::new(),
    };
    let mut materials: HashMap<MaterialKey, u32> = HashMap::new();
    let textures = write_images(scene, &mut root, &mut buf);
    let top = gj::Node {
        name: Some("areakit".into()),
        matrix: Some(Mat4::Z_UP_TO_Y_UP.0.map(|v| v as f32)),
        extras: extras(&json!({"kind": "root", "up": "z", "units": "metres",
            "note": "the game's z-up coordinates; this node turns them to glTF's y-up"})),
        ..Default::default()
    };
    root.nodes.push(top);
    let mut top_children = Vec::new();
    let mut children: Vec<Vec<gj::Index<gj::Node>>> = vec![Vec::new(); scene.nodes.len()];
    for (i, n) in scene.nodes.iter().enumerate() {
        let mut skin = None;
        let mesh = match &n.mesh {
            Some(m) if !m.groups.is_empty() && !m.positions.is_empty() => {
                let (shared, has_uv, skinned) = mesh_attributes(&mut root, &mut buf, scene, n, m);
                if skinned {
                    skin = n.skin;
                }
                let mut primitives = Vec::new();
                for g in &m.groups {
                    let material = group_material(&mut root, &mut materials, &textures, g, has_uv);
                    primitives.push(primitive(&mut root, &mut buf, g, &shared, material));
                }
                root.meshes.push(gj::Mesh {
                    extensions: None,
                    extras: None,
                    name: Some(n.name.clone()),
                    primitives,
                    weights: None,
                });
                Some(gj::Index::new(root.meshes.len() as u32 - 1))
            }
            _ => None,
        };
        let translation = n.translation.map(|v| v as f32);
        let rotation = n.rotation.map(|v| v as f32);
        root.nodes.push(gj::Node {
            name: Some(n.name.clone()),
            mesh,
            translation: (translation != [0.0; 3]).then_some(translation),
            rotation: (rotation != [0.0, 0.0, 0.0, 1.0])
                .then_some(gj::scene::UnitQuaternion(rotation)),
            extras: extras(&n.extras),
            skin: skin.map(|s| gj::Index::new(s as u32)),
            ..Default::default()
        });
        let index = gj::Index::new(i as u32 + 1);
        match n.parent {
            Some(p) if p < i => children[p].push(index),
            _ => top_children.push(index),
        }
    }
    for (i, c) in children.into_iter().enumerate() {
        if !c.is_empty() {
            root.nodes[i + 1].children = Some(c);
        }
    }
    if !top_children.is_empty() {
        root.nodes[0].children = Some(top_children);
    }
    write_skins(scene, &mut root, &mut buf);
    write_animations(scene, &mut root, &mut buf);
    root.scenes.push(gj::Scene {
        extensions: None,
        extras: None,
        name: Some("areakit".into()),
        nodes: vec![gj::Index::new(0)],
    });
    root.scene = Some(gj::Index::new(0));
    container(root, buf, binary)
}

/// A mesh's shared vertex attributes (positions with their bounds, normals, the UV sets,
/// joints and weights of a skinned node) as accessors; which UV sets it has, and whether it
/// is skinned.
fn mesh_attributes(
    root: &mut gj::Root,
    buf: &mut Buffer,
    scene: &Scene,
    n: &super::Node,
    m: &super::Mesh,
) -> (Attributes, [bool; 2], bool) {
    let mut min = [f32::INFINITY; 3];
    let mut max = [f32::NEG_INFINITY; 3];
    let mut bytes = Vec::with_capacity(m.positions.len() * 12);
    for p in &m.positions {
        for k in 0..3 {
            min[k] = min[k].min(p[k]);
            max[k] = max[k].max(p[k]);
            bytes.extend_from_slice(&p[k].to_le_bytes());
        }
    }
    let view = buf.view(&bytes, gj::buffer::Target::ArrayBuffer);
    root.accessors.push(accessor(
        view,
        m.positions.len(),
        gj::accessor::ComponentType::F32,
        gj::accessor::Type::Vec3,
        Some(json!(min.map(f64::from))),
        Some(json!(max.map(f64::from))),
    ));
    let positions = gj::Index::new(root.accessors.len() as u32 - 1);
    let nv = m.positions.len();
    let array = Some(gj::buffer::Target::ArrayBuffer);
    let mut shared = BTreeMap::new();
    shared.insert(Valid(gj::mesh::Semantic::Positions), positions);
    if m.normals.len() == nv {
        let values: Vec<f32> = m.normals.iter().flatten().copied().collect();
        let a = push_floats(root, buf, &values, gj::accessor::Type::Vec3, array, false);
        shared.insert(Valid(gj::mesh::Semantic::Normals), a);
    }
    for (set, uvs) in [(0, &m.uvs), (1, &m.uvs2)] {
        if uvs.len() == nv && (set == 0 || m.uvs.len() == nv) {
            let values: Vec<f32> = uvs.iter().flatten().copied().collect();
            let a = push_floats(root, buf, &values, gj::accessor::Type::Vec2, array, false);
            shared.insert(Valid(gj::mesh::Semantic::TexCoords(set)), a);
        }
    }
    let has_uv = [m.uvs.len() == nv, m.uvs.len() == nv && m.uvs2.len() == nv];
    let skinned = n.skin.is_some_and(|s| s < scene.skins.len())
        && m.joints.len() == nv
        && m.weights.len() == nv;
    if skinned {
        let bytes: Vec<u8> = m
            .joints
            .iter()
            .flatten()
            .flat_map(|j| j.to_le_bytes())
            .collect();
        let view = buf.view(&bytes, gj::buffer::Target::ArrayBuffer);
        root.accessors.push(accessor(
            view,
            nv,
            gj::accessor::ComponentType::U16,
            gj::accessor::Type::Vec4,
            None,
            None,
        ));
        shared.insert(
            Valid(gj::mesh::Semantic::Joints(0)),
            gj::Index::new(root.accessors.len() as u32 - 1),
        );
        let values: Vec<f32> = m.weights.iter().flatten().copied().collect();
        let a = push_floats(root, buf, &values, gj::accessor::Type::Vec4, array, false);
        shared.insert(Valid(gj::mesh::Semantic::Weights(0)), a);
    }
    (shared, has_uv, skinned)
}

/// The vertex attributes a mesh's primitives share.
type Attributes = BTreeMap<gj::validation::Checked<gj::mesh::Semantic>, gj::Index<gj::Accessor>>;

/// The material of a group (one per name, colour and textures), added on first use.
fn group_material(
    root: &mut gj::Root,
    materials: &mut HashMap<MaterialKey, u32>,
    textures: &HashMap<String, (u32, AlphaMode)>,
    g: &super::Group,
    has_uv: [bool; 2],
) -> u32 {
    let lookup = |name: &Option<String>, set: usize| {
        let key = name.as_ref()?.to_ascii_lowercase();
        let &(index, alpha) = textures.get(&key)?;
        has_uv[set].then_some((index, alpha))
    };
    let diffuse = lookup(&g.maps.diffuse, 0);
    let lightmap = lookup(&g.maps.lightmap, 1).map(|(i, _)| i);
    let key = (
        g.material.clone(),
        g.colour.map(f32::to_bits),
        diffuse.map(|(i, _)| i),
        lightmap,
    );
    *materials.entry(key).or_insert_with(|| {
        root.materials.push(material(g, diffuse, lightmap));
        root.materials.len() as u32 - 1
    })
}

/// A group as a primitive: its indices (triangles with their source face numbers in the
/// extras, or a line strip) over the mesh's shared attributes.
fn primitive(
    root: &mut gj::Root,
    buf: &mut Buffer,
    g: &super::Group,
    shared: &Attributes,
    material: u32,
) -> gj::mesh::Primitive {
    let (indices, mode, extra): (Vec<u32>, _, Value) = match &g.shape {
        Shape::Triangles { triangles, faces } => {
            let mut e = g.extras.clone();
            if let Value::Object(map) = &mut e {
                map.insert("faces".into(), json!(faces));
            } else if e.is_null() {
                e = json!({"faces": faces});
            }
            (
                triangles.iter().flatten().copied().collect(),
                gj::mesh::Mode::Triangles,
                e,
            )
        }
        Shape::LineStrip(l) => (l.clone(), gj::mesh::Mode::LineStrip, g.extras.clone()),
    };
    let bytes: Vec<u8> = indices.iter().flat_map(|v| v.to_le_bytes()).collect();
    let view = buf.view(&bytes, gj::buffer::Target::ElementArrayBuffer);
    root.accessors.push(accessor(
        view,
        indices.len(),
        gj::accessor::ComponentType::U32,
        gj::accessor::Type::Scalar,
        None,
        None,
    ));
    let attributes = shared.clone();
    gj::mesh::Primitive {
        attributes,
        extensions: None,
        extras: extras(&extra),
        indices: Some(gj::Index::new(root.accessors.len() as u32 - 1)),
        material: Some(gj::Index::new(material)),
        mode: Valid(mode),
        targets: None,
    }
}

/// The buffer and the JSON as a file: JSON with the buffer as a base64 data URI, or a `.glb`
/// container (the JSON chunk, then the binary chunk).
fn container(mut root: gj::Root, mut buf: Buffer, binary: bool) -> Result<Vec<u8>, GltfWriteError> {
    while buf.data.len() % 4 != 0 {
        buf.data.push(0);
    }
    root.buffer_views = buf.views;
    if !buf.data.is_empty() {
        root.buffers.push(gj::Buffer {
            byte_length: USize64(buf.data.len() as u64),
            name: None,
            uri: (!binary).then(|| {
                format!(
                    "data:application/octet-stream;base64,{}",
                    base64_encode(&buf.data)
                )
            }),
            extensions: None,
            extras: None,
        });
    }
    if !binary {
        return Ok(root.to_vec_pretty()?);
    }
    let mut json = root.to_vec()?;
    while json.len() % 4 != 0 {
        json.push(b' ');
    }
    let bin_len = if buf.data.is_empty() {
        0
    } else {
        8 + buf.data.len()
    };
    let total = 12 + 8 + json.len() + bin_len;
    let total32 = u32::try_from(total).map_err(|_| GltfWriteError::TooLarge(total))?;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&GLB_MAGIC.to_le_bytes());
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&total32.to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&CHUNK_JSON.to_le_bytes());
    out.extend_from_slice(&json);
    if !buf.data.is_empty() {
        out.extend_from_slice(&(buf.data.len() as u32).to_le_bytes());
        out.extend_from_slice(&CHUNK_BIN.to_le_bytes());
        out.extend_from_slice(&buf.data);
    }
    Ok(out)
}

/// A material: its name, colour, diffuse texture and lightmap.
type MaterialKey = (String, [u32; 4], Option<u32>, Option<u32>);

/// The scene's images as PNG buffer views, one sampler (repeat, trilinear) and one texture
/// each: lower-case name → (texture index, alpha mode).
fn write_images(
    scene: &Scene,
    root: &mut gj::Root,
    buf: &mut Buffer,
) -> HashMap<String, (u32, AlphaMode)> {
    let mut out = HashMap::new();
    if scene.images.is_empty() {
        return out;
    }
    root.samplers.push(gj::texture::Sampler {
        mag_filter: Some(Valid(gj::texture::MagFilter::Linear)),
        min_filter: Some(Valid(gj::texture::MinFilter::LinearMipmapLinear)),
        wrap_s: Valid(gj::texture::WrappingMode::Repeat),
        wrap_t: Valid(gj::texture::WrappingMode::Repeat),
        ..Default::default()
    });
    for (key, img) in &scene.images {
        let view = buf.view_for(&img.png, None);
        root.images.push(gj::Image {
            buffer_view: Some(view),
            mime_type: Some(gj::image::MimeType("image/png".into())),
            name: Some(img.name.clone()),
            uri: None,
            extensions: None,
            extras: None,
        });
        root.textures.push(gj::Texture {
            name: Some(img.name.clone()),
            sampler: Some(gj::Index::new(0)),
            source: gj::Index::new(root.images.len() as u32 - 1),
            extensions: None,
            extras: extras(&img.extras),
        });
        out.insert(key.clone(), (root.textures.len() as u32 - 1, img.alpha));
    }
    out
}

/// The material of a group: its colour, or white under its diffuse texture (on the first UV
/// set, with the texture's alpha mode), and its lightmap as the occlusion texture on the second
/// UV set (`docs/interop.md`).
fn material(
    g: &super::Group,
    diffuse: Option<(u32, AlphaMode)>,
    lightmap: Option<u32>,
) -> gj::Material {
    let mut e = g.material_extras.clone();
    let mut m = gj::Material {
        name: Some(g.material.clone()),
        double_sided: true,
        pbr_metallic_roughness: gj::material::PbrMetallicRoughness {
            base_color_factor: gj::material::PbrBaseColorFactor(g.colour),
            metallic_factor: gj::material::StrengthFactor(0.0),
            roughness_factor: gj::material::StrengthFactor(1.0),
            ..Default::default()
        },
        ..Default::default()
    };
    if let Some((index, alpha)) = diffuse {
        m.pbr_metallic_roughness.base_color_factor =
            gj::material::PbrBaseColorFactor([1.0, 1.0, 1.0, 1.0]);
        m.pbr_metallic_roughness.base_color_texture = Some(gj::texture::Info {
            index: gj::Index::new(index),
            tex_coord: 0,
            extensions: None,
            extras: None,
        });
        match alpha {
            AlphaMode::Opaque => {}
            AlphaMode::Mask => {
                m.alpha_mode = Valid(gj::material::AlphaMode::Mask);
                m.alpha_cutoff = Some(gj::material::AlphaCutoff(0.5));
            }
            AlphaMode::Blend | AlphaMode::Additive => {
                m.alpha_mode = Valid(gj::material::AlphaMode::Blend);
            }
        }
        if let Value::Object(map) = &mut e {
            map.insert("blending".into(), json!(alpha.name()));
        }
    }
    if let Some(index) = lightmap {
        m.occlusion_texture = Some(gj::material::OcclusionTexture {
            index: gj::Index::new(index),
            strength: gj::material::StrengthFactor(1.0),
            tex_coord: 1,
            extensions: None,
            extras: None,
        });
        if let Value::Object(map) = &mut e {
            map.insert("lightmap_texcoord".into(), json!(1));
        }
    }
    m.extras = extras(&e);
    m
}

/// The scene's skins (joints are scene nodes, one past their index for the axis node), each
/// with its inverse bind matrices. Every skin is written, used or not, so indices stay the
/// scene's.
fn write_skins(scene: &Scene, root: &mut gj::Root, buf: &mut Buffer) {
    for s in &scene.skins {
        let values: Vec<f32> = s
            .inverse_bind
            .iter()
            .flat_map(|m| {
                let mut m = m.0.map(|v| v as f32);
                // Affine exactly, as the validator checks.
                m[3] = 0.0;
                m[7] = 0.0;
                m[11] = 0.0;
                m[15] = 1.0;
                m
            })
            .collect();
        let ibm = (!values.is_empty())
            .then(|| push_floats(root, buf, &values, gj::accessor::Type::Mat4, None, false));
        root.skins.push(gj::Skin {
            extensions: None,
            extras: None,
            inverse_bind_matrices: ibm,
            joints: s
                .joints
                .iter()
                .map(|&j| gj::Index::new(j as u32 + 1))
                .collect(),
            name: Some(s.name.clone()),
            skeleton: None,
        });
    }
}

/// The scene's animations: one linear sampler per channel, its times and values in accessors
/// of their own.
fn write_animations(scene: &Scene, root: &mut gj::Root, buf: &mut Buffer) {
    use gj::animation::{Channel, Interpolation, Property as P, Sampler, Target};
    for a in &scene.animations {
        let mut channels = Vec::new();
        let mut samplers = Vec::new();
        for c in &a.channels {
            let width = c.property.width();
            if c.times.is_empty() || c.values.len() != c.times.len() * width {
                continue;
            }
            let input = push_floats(root, buf, &c.times, gj::accessor::Type::Scalar, None, true);
            let type_ = if width == 4 {
                gj::accessor::Type::Vec4
            } else {
                gj::accessor::Type::Vec3
            };
            let output = push_floats(root, buf, &c.values, type_, None, false);
            samplers.push(Sampler {
                extensions: None,
                extras: None,
                input,
                interpolation: Valid(Interpolation::Linear),
                output,
            });
            channels.push(Channel {
                sampler: gj::Index::new(samplers.len() as u32 - 1),
                target: Target {
                    extensions: None,
                    extras: None,
                    node: gj::Index::new(c.node as u32 + 1),
                    path: Valid(match c.property {
                        super::Property::Translation => P::Translation,
                        super::Property::Rotation => P::Rotation,
                        super::Property::Scale => P::Scale,
                    }),
                },
                extensions: None,
                extras: None,
            });
        }
        if channels.is_empty() {
            continue;
        }
        root.animations.push(gj::Animation {
            extensions: None,
            extras: extras(&a.extras),
            channels,
            name: Some(a.name.clone()),
            samplers,
        });
    }
}

/// Standard base64, padding optional when decoding (the `base64` crate, as `view` uses it).
const BASE64: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    base64::engine::GeneralPurposeConfig::new()
        .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
);

/// Standard base64 with padding.
pub fn base64_encode(data: &[u8]) -> String {
    use base64::Engine as _;
    BASE64.encode(data)
}

/// Decodes standard base64 (padding optional); `None` on a character outside the alphabet.
pub fn base64_decode(s: &str) -> Option<Vec<u8>> {
    use base64::Engine as _;
    BASE64.decode(s).ok()
}

// -------------------------------------------------------------------------------------------
// Reading
// -------------------------------------------------------------------------------------------

fn at(path: &Path, offset: usize, msg: impl Into<String>) -> Error {
    invalid(path, areakit_formats::Location::Offset(offset as u64), msg)
}

fn whole(path: &Path, msg: impl Into<String>) -> Error {
    invalid(path, areakit_formats::Location::Input, msg)
}

fn u32_at(data: &[u8], o: usize) -> Option<u32> {
    data.get(o..o + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Splits a GLB container into its JSON and BIN chunks.
fn split_glb<'a>(path: &Path, data: &'a [u8]) -> Result<(&'a [u8], Option<&'a [u8]>), Error> {
    let version = u32_at(data, 4).ok_or_else(|| at(path, 4, "truncated GLB header"))?;
    if version != 2 {
        return Err(at(path, 4, format!("GLB version {version}, expected 2")));
    }
    let mut o = 12;
    let mut json = None;
    let mut bin = None;
    while o < data.len() {
        let (Some(len), Some(kind)) = (u32_at(data, o), u32_at(data, o + 4)) else {
            return Err(at(path, o, "truncated GLB chunk header"));
        };
        let start = o + 8;
        let end = start
            .checked_add(len as usize)
            .filter(|&e| e <= data.len())
            .ok_or_else(|| {
                at(
                    path,
                    o,
                    format!("GLB chunk of {len} bytes runs past the end"),
                )
            })?;
        match kind {
            CHUNK_JSON if json.is_none() => json = Some(&data[start..end]),
            CHUNK_BIN if bin.is_none() => bin = Some(&data[start..end]),
            _ => {}
        }
        o = end;
    }
    let json = json.ok_or_else(|| at(path, 12, "expected a JSON chunk first"))?;
    Ok((json, bin))
}

struct Doc<'a> {
    path: &'a Path,
    root: gj::Root,
    buffers: Vec<Vec<u8>>,
}

impl Doc<'_> {
    fn accessor_bytes(
        &self,
        index: usize,
        what: &str,
    ) -> Result<(&gj::Accessor, &[u8], usize, usize), Error> {
        let p = self.path;
        let a = self
            .root
            .accessors
            .get(index)
            .ok_or_else(|| whole(p, format!("{what}: accessor {index} does not exist")))?;
        if a.sparse.is_some() {
            return Err(whole(
                p,
                format!("{what}: accessor {index} is sparse (not supported)"),
            ));
        }
        let view_index = a
            .buffer_view
            .ok_or_else(|| whole(p, format!("{what}: accessor {index} has no buffer view")))?;
        let view = self
            .root
            .buffer_views
            .get(view_index.value())
            .ok_or_else(|| {
                whole(
                    p,
                    format!("{what}: buffer view {view_index} does not exist"),
                )
            })?;
        let buffer = self
            .buffers
            .get(view.buffer.value())
            .ok_or_else(|| whole(p, format!("{what}: buffer {} does not exist", view.buffer)))?;
        let start = view.byte_offset.map_or(0, |o| o.0) as usize;
        let len = view.byte_length.0 as usize;
        let bytes = start
            .checked_add(len)
            .and_then(|end| buffer.get(start..end))
            .ok_or_else(|| {
                whole(
                    p,
                    format!("{what}: buffer view {view_index} lies outside its buffer"),
                )
            })?;
        let offset = a.byte_offset.map_or(0, |o| o.0) as usize;
        let stride = view.byte_stride.map(|s| s.0);
        Ok((a, bytes, offset, stride.unwrap_or(0)))
    }

    fn read_items(
        &self,
        index: usize,
        what: &str,
        allowed: &[(gj::accessor::ComponentType, gj::accessor::Type)],
    ) -> Result<Items<'_>, Error> {
        let (a, bytes, offset, stride) = self.accessor_bytes(index, what)?;
        let (Valid(ct), Valid(ty)) = (&a.component_type, &a.type_) else {
            return Err(whole(
                self.path,
                format!("{what}: accessor {index} has an invalid type"),
            ));
        };
        let ct = ct.0;
        if !allowed.iter().any(|(c, t)| *c == ct && t == ty) {
            return Err(whole(
                self.path,
                format!("{what}: accessor {index} is {ty:?} of {ct:?}, not a supported kind"),
            ));
        }
        let item = ct.size() * ty.multiplicity();
        let stride = if stride == 0 { item } else { stride };
        let count = a.count.0 as usize;
        // Every item must lie inside the view: this also bounds what is allocated by the input.
        let needed = if count == 0 {
            0
        } else {
            (count - 1)
                .checked_mul(stride)
                .and_then(|n| n.checked_add(offset + item))
                .unwrap_or(usize::MAX)
        };
        if needed > bytes.len() {
            return Err(whole(
                self.path,
                format!(
                    "{what}: accessor {index} needs {needed} bytes, its view holds {}",
                    bytes.len()
                ),
            ));
        }
        Ok(Items {
            bytes,
            offset,
            stride,
            item,
            count,
            ct,
        })
    }

    fn positions(&self, index: usize, what: &str) -> Result<Vec<[f32; 3]>, Error> {
        use gj::accessor::{ComponentType as C, Type as T};
        let items = self.read_items(index, what, &[(C::F32, T::Vec3)])?;
        Ok((0..items.count)
            .map(|i| {
                let b = items.get(i);
                let f = |k: usize| f32::from_le_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]);
                [f(0), f(4), f(8)]
            })
            .collect())
    }

    fn indices(&self, index: usize, what: &str) -> Result<Vec<u32>, Error> {
        use gj::accessor::{ComponentType as C, Type as T};
        let items = self.read_items(
            index,
            what,
            &[(C::U8, T::Scalar), (C::U16, T::Scalar), (C::U32, T::Scalar)],
        )?;
        Ok((0..items.count)
            .map(|i| {
                let b = items.get(i);
                match items.ct {
                    C::U8 => u32::from(b[0]),
                    C::U16 => u32::from(u16::from_le_bytes([b[0], b[1]])),
                    _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                }
            })
            .collect())
    }
}

/// The items of an accessor, checked to lie inside their view.
struct Items<'a> {
    bytes: &'a [u8],
    offset: usize,
    stride: usize,
    item: usize,
    count: usize,
    ct: gj::accessor::ComponentType,
}

impl Items<'_> {
    fn get(&self, i: usize) -> &[u8] {
        let start = self.offset + i * self.stride;
        &self.bytes[start..start + self.item]
    }
}

fn raw_extras(e: &gj::Extras) -> Value {
    e.as_ref()
        .and_then(|r| serde_json::from_str(r.get()).ok())
        .unwrap_or(Value::Null)
}

fn node_matrix(n: &gj::Node) -> Mat4 {
    if let Some(m) = n.matrix {
        return Mat4(m.map(f64::from));
    }
    Mat4::from_trs_scale(
        n.translation.unwrap_or([0.0; 3]).map(f64::from),
        n.rotation
            .map_or([0.0, 0.0, 0.0, 1.0], |q| q.0.map(f64::from)),
        n.scale.unwrap_or([1.0; 3]).map(f64::from),
    )
}

/// Reads a `.glb` or `.gltf` file to a triangle soup in the game's coordinates (node transforms
/// applied, y up turned back to z up). `room` picks one room: the node whose `extras.room_index`
/// is `room` (areakit's area exports), else the `room`-th node with a mesh.
pub fn read(session: &Session, path: &Path, room: Option<usize>) -> Result<Soup, Error> {
    let data = session.read(path)?;
    let (json, bin) = if data.starts_with(b"glTF") {
        split_glb(path, &data)?
    } else {
        (&data[..], None)
    };
    let root = gj::Root::from_slice(json).map_err(|e| super::json_error(path, "glTF JSON", &e))?;
    let mut buffers = Vec::with_capacity(root.buffers.len());
    for (i, b) in root.buffers.iter().enumerate() {
        let bytes = match &b.uri {
            None => bin
                .ok_or_else(|| {
                    whole(
                        path,
                        format!("buffer {i} has no uri and there is no BIN chunk"),
                    )
                })?
                .to_vec(),
            Some(uri) if uri.starts_with("data:") => {
                let payload = uri
                    .split_once(";base64,")
                    .map(|(_, p)| p)
                    .ok_or_else(|| whole(path, format!("buffer {i}: a data URI must be base64")))?;
                base64_decode(payload)
                    .ok_or_else(|| whole(path, format!("buffer {i}: invalid base64")))?
            }
            Some(uri) => {
                if uri.contains(':') || uri.starts_with('/') {
                    return Err(whole(
                        path,
                        format!(
                            "buffer {i}: only data URIs and relative files are read, not {uri}"
                        ),
                    ));
                }
                let file = path.parent().unwrap_or(Path::new(".")).join(uri);
                session.read(&file)?
            }
        };
        if (bytes.len() as u64) < b.byte_length.0 {
            return Err(whole(
                path,
                format!(
                    "buffer {i}: {} bytes, byteLength says {}",
                    bytes.len(),
                    b.byte_length.0
                ),
            ));
        }
        buffers.push(bytes);
    }
    let doc = Doc {
        path,
        root,
        buffers,
    };
    let root = &doc.root;
    let areakit = root
        .asset
        .generator
        .as_deref()
        .is_some_and(|g| g.starts_with("areakit"));
    // Depth-first over the default scene, world matrices on the way; each node once.
    let scene_nodes: Vec<usize> = match root
        .scene
        .map(|s| s.value())
        .or((!root.scenes.is_empty()).then_some(0))
    {
        Some(s) => root
            .scenes
            .get(s)
            .map(|s| s.nodes.iter().map(|n| n.value()).collect())
            .unwrap_or_default(),
        None => (0..root.nodes.len()).collect(),
    };
    let mut seen = vec![false; root.nodes.len()];
    let mut stack: Vec<(usize, Mat4, bool)> = scene_nodes
        .into_iter()
        .rev()
        .map(|n| (n, Mat4::Y_UP_TO_Z_UP, false))
        .collect();
    let has_room_index = root
        .nodes
        .iter()
        .any(|n| raw_extras(&n.extras).get("room_index").is_some());
    let mut mesh_nodes = 0usize;
    let mut soup = Soup {
        areakit,
        ..Soup::default()
    };
    let mut found_room = room.is_none();
    while let Some((ni, parent, inside)) = stack.pop() {
        let Some(node) = root.nodes.get(ni) else {
            return Err(whole(path, format!("node {ni} does not exist")));
        };
        if std::mem::replace(&mut seen[ni], true) {
            continue;
        }
        let world = parent.mul(&node_matrix(node));
        let ex = raw_extras(&node.extras);
        let kind = ex.get("kind").and_then(Value::as_str).unwrap_or("");
        let mut selected = inside;
        if let Some(r) = room {
            if has_room_index
                && ex.get("room_index").and_then(Value::as_u64) == Some(r as u64)
                && kind == "room"
            {
                selected = true;
                found_room = true;
            }
        } else {
            // Everything but areakit's overlays and the room models of an area's models layer.
            selected = !matches!(kind, "object" | "path")
                && ex.get("layer").and_then(Value::as_str) != Some("models");
        }
        if let Some(mi) = node.mesh {
            if room.is_some() && !has_room_index {
                selected = mesh_nodes == room.unwrap_or(usize::MAX);
                found_room |= selected;
            }
            mesh_nodes += 1;
            if selected {
                let face_base = soup.triangles.len();
                read_mesh(&doc, mi.value(), &world, &mut soup)?;
                if kind == "walkmesh" {
                    soup.rooms.push((face_base, ex.clone()));
                }
            }
        }
        for c in node.children.iter().flatten().rev() {
            stack.push((c.value(), world, selected && (room.is_some())));
        }
    }
    if !found_room {
        let n = if has_room_index { "room" } else { "mesh node" };
        return Err(Error::usage(format!(
            "{}: room index {}: no such {n} (the file has {mesh_nodes} mesh nodes)",
            path.display(),
            room.unwrap_or(0)
        )));
    }
    Ok(soup)
}

fn read_mesh(doc: &Doc<'_>, mi: usize, world: &Mat4, soup: &mut Soup) -> Result<(), Error> {
    use gj::mesh::Mode;
    let path = doc.path;
    let mesh = doc
        .root
        .meshes
        .get(mi)
        .ok_or_else(|| whole(path, format!("mesh {mi} does not exist")))?;
    let mesh_name = mesh.name.clone().unwrap_or_default();
    let mut bases: HashMap<usize, u32> = HashMap::new();
    for (pi, p) in mesh.primitives.iter().enumerate() {
        let what = format!("mesh {mi} ({mesh_name}) primitive {pi}");
        let mode = match &p.mode {
            Valid(m) => *m,
            _ => return Err(whole(path, format!("{what}: invalid mode"))),
        };
        if !matches!(
            mode,
            Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
        ) {
            continue;
        }
        let Some(&pos) = p.attributes.get(&Valid(gj::mesh::Semantic::Positions)) else {
            return Err(whole(path, format!("{what}: no POSITION attribute")));
        };
        let base = match bases.get(&pos.value()) {
            Some(&b) => b,
            None => {
                let b = u32::try_from(soup.positions.len())
                    .map_err(|_| whole(path, "more than 2^32 vertices"))?;
                let positions = doc.positions(pos.value(), &what)?;
                soup.positions
                    .extend(positions.iter().map(|&v| world.point(v)));
                bases.insert(pos.value(), b);
                b
            }
        };
        let count = doc.root.accessors[pos.value()].count.0 as usize;
        let list: Vec<u32> = match p.indices {
            Some(ix) => doc.indices(ix.value(), &what)?,
            None => (0..count as u32).collect(),
        };
        if let Some(bad) = list.iter().find(|&&v| v as usize >= count) {
            return Err(whole(
                path,
                format!("{what}: index {bad} >= {count} vertices"),
            ));
        }
        let tris: Vec<[u32; 3]> = match mode {
            Mode::Triangles => list.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
            Mode::TriangleStrip => (2..list.len())
                .map(|i| {
                    if i % 2 == 0 {
                        [list[i - 2], list[i - 1], list[i]]
                    } else {
                        [list[i - 1], list[i - 2], list[i]]
                    }
                })
                .collect(),
            _ => (2..list.len())
                .map(|i| [list[0], list[i - 1], list[i]])
                .collect(),
        };
        let material = p
            .material
            .and_then(|m| doc.root.materials.get(m.value()))
            .and_then(|m| m.name.clone())
            .unwrap_or_else(|| mesh_name.clone());
        let ex = raw_extras(&p.extras);
        let keys: Option<Vec<u32>> = ex
            .get("faces")
            .and_then(|f| serde_json::from_value::<Vec<u32>>(f.clone()).ok())
            .filter(|k| k.len() == tris.len());
        for (ti, t) in tris.into_iter().enumerate() {
            soup.triangles.push(SoupTriangle {
                vertices: t.map(|v| v + base),
                material: material.clone(),
                origin: what.clone(),
                key: keys.as_ref().map(|k| k[ti]),
            });
        }
    }
    Ok(())
}
