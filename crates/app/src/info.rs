//! What `areakit info` reports about a file: a typed report per format ([`InfoReport`]),
//! whose serialisation is `info --json` (the human text is rendered by the binary).

use std::collections::BTreeMap;
use std::path::Path;

use areakit_formats::bwm::Bwm;
use serde::Serialize;

use crate::document::Document;
use crate::format::Format;
use crate::session::Session;

mod area;

pub use area::{
    AreaInfo, AreaObjectInfo, AreaRoomInfo, AreaVisInfo, DoorHookInfo, EntryInfo, area_info,
};

/// The `info` report of one file: its path, then the fields of its format.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InfoReport {
    /// The file as named.
    pub path: String,
    /// The format's fields.
    #[serde(flatten)]
    pub body: InfoBody,
    /// For an input that holds an area (a folder, a LYT, a capsule with a module or one LYT, a
    /// LYT inside a capsule): the area ([`AreaInfo`]); absent for other inputs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub area: Option<AreaInfo>,
    /// Why such an input's area could not be opened (its `area` is then absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub area_error: Option<String>,
}

/// The fields of `info` per format; each starts with `format`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum InfoBody {
    /// A BWM walkmesh.
    Bwm(BwmInfo),
    /// A room layout.
    Lyt(LytInfo),
    /// Room visibility.
    Vis(VisInfo),
    /// An MDL ASCII model.
    MdlAscii(MdlInfo),
    /// A binary model.
    Mdl(ModelInfo),
    /// An NWN2 terrain.
    Trx(TrxInfo),
    /// An NWN2 model.
    Mdb(MdbInfo),
    /// A GFF.
    Gff(GffInfo),
    /// A 2DA table.
    TwoDa(TwoDaInfo),
    /// An ERF-family capsule.
    Erf(ErfInfo),
    /// A RIM capsule.
    Rim(RimInfo),
    /// A KEY index.
    Key(KeyInfo),
    /// A BIF.
    Bif(BifInfo),
    /// A TPC texture.
    Tpc(TpcInfo),
    /// A TGA image.
    Tga(TgaInfo),
    /// A TXI texture description.
    Txi(TxiInfo),
    /// A PNG image.
    Png(PngInfo),
    /// A folder.
    Folder(FolderInfo),
}

/// `info` of a folder: its files by extension (its area, if it holds one, is in
/// [`InfoReport::area`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FolderInfo {
    /// `"folder"`.
    pub format: &'static str,
    /// Files directly in it.
    pub files: usize,
    /// Files per lower-case extension (`""` for none).
    pub types: BTreeMap<String, usize>,
}

/// `info` of a TPC texture.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TpcInfo {
    /// `"tpc"`.
    pub format: &'static str,
    /// Width of a face (a frame) at its first level.
    pub width: u32,
    /// Height of a face (a frame) at its first level.
    pub height: u32,
    /// `dxt1`, `dxt5`, `rgb`, `rgba`, `grey` or `bgra-swizzled`.
    pub encoding: &'static str,
    /// Levels per face as read.
    pub mip_count: usize,
    /// Levels per face as the header says.
    pub header_mip_count: u8,
    /// Layers: 1, 6 for a cube map, the frames of an animated texture.
    pub faces: usize,
    /// `single`, `cube` or `animated`.
    pub layout: &'static str,
    /// An animated texture's frames across and down.
    pub frames: Option<[u32; 2]>,
    /// The header's data size (0: uncompressed).
    pub data_size: u32,
    /// The header's alpha-test value.
    pub alpha_test: f32,
    /// The TXI trailer as text (`null` when there is none).
    pub txi: Option<String>,
    /// The TXI's entries: keyword, arguments.
    pub txi_entries: Vec<[String; 2]>,
    /// Bytes of pixels (every level of every face).
    pub pixel_bytes: usize,
}

/// `info` of a TGA image.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TgaInfo {
    /// `"tga"`.
    pub format: &'static str,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// The image type byte (1/9 colour-mapped, 2/10 true colour, 3/11 grey).
    pub image_type: u8,
    /// Bits per pixel.
    pub bits_per_pixel: u8,
    /// Run-length encoded.
    pub rle: bool,
    /// Pixels are colour-map indices.
    pub colour_mapped: bool,
    /// Where the first stored pixel is: `bottom-left`, `top-left`, `bottom-right`, `top-right`.
    pub origin: &'static str,
    /// Alpha bits per pixel (the descriptor's).
    pub alpha_bits: u8,
    /// Whether some pixel is not opaque.
    pub has_alpha: bool,
    /// Bytes after the pixels.
    pub trailer_bytes: usize,
    /// A TGA 2.0 footer ends the file.
    pub footer: bool,
    /// A TXI appended after the pixels, as text.
    pub txi: Option<String>,
}

/// `info` of a TXI.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TxiInfo {
    /// `"txi"`.
    pub format: &'static str,
    /// The entries: keyword, arguments.
    pub entries: Vec<[String; 2]>,
    /// `default`, `additive` or `punchthrough`.
    pub blending: &'static str,
    /// Lines that do not parse.
    pub unparsed: usize,
}

/// `info` of a PNG image.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PngInfo {
    /// `"png"`.
    pub format: &'static str,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// `grey`, `rgb`, `indexed`, `grey-alpha` or `rgba`.
    pub colour_type: &'static str,
    /// Bits per channel.
    pub bit_depth: u8,
    /// Adam7 interlaced.
    pub interlaced: bool,
    /// Whether some pixel is not opaque.
    pub has_alpha: bool,
}

/// The TXI's text for `info` (up to its first NUL; `None` when blank).
fn txi_text(t: &areakit_formats::txi::Txi) -> Option<String> {
    (!t.is_blank()).then(|| String::from_utf8_lossy(t.body()).into_owned())
}

fn txi_entries(t: &areakit_formats::txi::Txi) -> Vec<[String; 2]> {
    t.entries
        .iter()
        .map(|e| [e.keyword.clone(), e.args.clone()])
        .collect()
}

/// `info` of a TPC.
pub fn tpc_info(t: &areakit_formats::tpc::Tpc) -> TpcInfo {
    use areakit_formats::tpc::Layout;
    let txi = t.txi();
    TpcInfo {
        format: "tpc",
        width: t.width(),
        height: t.height(),
        encoding: t.encoding.name(),
        mip_count: t.mip_count(),
        header_mip_count: t.header.mip_count,
        faces: t.layers.len(),
        layout: match t.layout {
            Layout::Single => "single",
            Layout::Cube => "cube",
            Layout::Animated { .. } => "animated",
        },
        frames: match t.layout {
            Layout::Animated { numx, numy } => Some([numx, numy]),
            _ => None,
        },
        data_size: t.header.data_size,
        alpha_test: t.header.alpha_test,
        txi: txi_text(&txi),
        txi_entries: txi_entries(&txi),
        pixel_bytes: t.layers.iter().flatten().map(|m| m.data.len()).sum(),
    }
}

/// `info` of a TGA.
pub fn tga_info(f: &areakit_formats::tga::TgaFile) -> TgaInfo {
    use areakit_formats::tga::{DESCRIPTOR_RIGHT, DESCRIPTOR_TOP};
    let d = f.header.descriptor;
    TgaInfo {
        format: "tga",
        width: f.image.width,
        height: f.image.height,
        image_type: f.header.image_type,
        bits_per_pixel: f.header.bits_per_pixel,
        rle: f.header.is_rle(),
        colour_mapped: f.header.is_color_mapped(),
        origin: match (d & DESCRIPTOR_TOP != 0, d & DESCRIPTOR_RIGHT != 0) {
            (false, false) => "bottom-left",
            (true, false) => "top-left",
            (false, true) => "bottom-right",
            (true, true) => "top-right",
        },
        alpha_bits: f.header.alpha_bits(),
        has_alpha: !f.image.is_opaque(),
        trailer_bytes: f.trailer.len(),
        footer: f.has_footer(),
        txi: f
            .trailing_text()
            .and_then(|t| txi_text(&areakit_formats::txi::read(t))),
    }
}

/// `info` of a BWM walkmesh.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BwmInfo {
    /// `"bwm"`.
    pub format: &'static str,
    /// `wok`, `pwk` or `dwk`.
    pub kind: String,
    /// The raw type word.
    #[serde(rename = "type")]
    pub walkmesh_type: u32,
    /// Vertices.
    pub vertices: usize,
    /// Faces.
    pub faces: usize,
    /// Walkable faces (the adjacency count).
    pub walkable_faces: usize,
    /// Faces whose material is walkable.
    pub walkable_by_material: usize,
    /// AABB tree nodes.
    pub aabb_nodes: usize,
    /// Perimeter edges.
    pub edges: usize,
    /// Perimeter loops.
    pub perimeters: usize,
    /// Edges with a transition.
    pub transitions: usize,
    /// Material name → face count.
    pub materials: BTreeMap<String, usize>,
    /// The vertices' bounds, when there are vertices.
    pub bounds: Option<Bounds>,
    /// Header position.
    pub position: [f32; 3],
    /// Header use points.
    pub relative_use: [[f32; 3]; 2],
    /// Header use points.
    pub absolute_use: [[f32; 3]; 2],
}

/// An axis-aligned box.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bounds {
    /// Lowest corner.
    pub min: [f32; 3],
    /// Highest corner.
    pub max: [f32; 3],
}

/// `info` of a room layout.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LytInfo {
    /// `"lyt"`.
    pub format: &'static str,
    /// Rooms.
    pub rooms: usize,
    /// Tracks.
    pub tracks: usize,
    /// Obstacles.
    pub obstacles: usize,
    /// Door hooks.
    pub doorhooks: usize,
}

/// `info` of room visibility.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VisInfo {
    /// `"vis"`.
    pub format: &'static str,
    /// Parent entries.
    pub rooms: usize,
    /// Child entries.
    pub links: usize,
}

/// `info` of an MDL ASCII model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MdlInfo {
    /// `"mdl-ascii"`.
    pub format: &'static str,
    /// The model's name.
    pub name: Option<String>,
    /// Its supermodel.
    pub supermodel: Option<String>,
    /// Its classification.
    pub classification: Option<String>,
    /// Nodes in all.
    pub nodes: usize,
    /// Node type → count, in the model's order.
    #[serde(serialize_with = "pairs_as_map")]
    pub nodes_by_type: Vec<(String, usize)>,
    /// Animations.
    pub animations: usize,
    /// Vertices over the geometry nodes.
    pub vertices: usize,
    /// Faces over the geometry nodes.
    pub faces: usize,
}

/// A list of pairs as a JSON object, in list order.
fn pairs_as_map<S: serde::Serializer>(v: &[(String, usize)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(v.iter().map(|(k, n)| (k, n)))
}

/// `info` of an NWN2 terrain.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrxInfo {
    /// `"trx"` when baked, else `"trn"`.
    pub format: &'static str,
    /// `major.minor`.
    pub version: String,
    /// The packets, in file order.
    pub packets: Vec<PacketInfo>,
    /// The walkmesh's counts, with an ASWM packet.
    #[serde(flatten)]
    pub walkmesh: Option<TrxWalkmeshInfo>,
}

/// One packet of a terrain file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PacketInfo {
    /// Its tag.
    pub tag: String,
    /// Its size in bytes.
    pub size: u64,
}

/// The counts of a terrain's ASWM walkmesh.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrxWalkmeshInfo {
    /// Vertices.
    pub vertices: usize,
    /// Edges.
    pub edges: usize,
    /// Triangles.
    pub triangles: usize,
    /// Walkable triangles.
    pub walkable_triangles: usize,
    /// Path tiles.
    pub tiles: usize,
    /// Islands.
    pub islands: usize,
}

/// `info` of a GFF.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GffInfo {
    /// `"gff"`.
    pub format: &'static str,
    /// The four-character file type, trimmed (`"GIT"`).
    #[serde(rename = "type")]
    pub file_type: String,
    /// The version (`"V3.2"`).
    pub version: String,
    /// Structs.
    pub structs: usize,
    /// Fields.
    pub fields: usize,
    /// Lists.
    pub lists: usize,
    /// Elements over every list.
    pub list_elements: usize,
    /// Distinct labels.
    pub labels: usize,
    /// Deepest struct nesting.
    pub depth: usize,
}

/// `info` of a 2DA.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TwoDaInfo {
    /// `"2da"`.
    pub format: &'static str,
    /// `binary` or `text`.
    pub variant: Option<&'static str>,
    /// Columns.
    pub columns: usize,
    /// Rows.
    pub rows: usize,
    /// Cells with a value.
    pub filled_cells: usize,
}

/// `info` of an ERF-family capsule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErfInfo {
    /// `"erf"`.
    pub format: &'static str,
    /// `ERF`, `MOD`, `SAV` or `HAK`.
    pub kind: String,
    /// Members.
    pub resources: usize,
    /// Extension → member count.
    pub types: BTreeMap<String, usize>,
    /// Build year (since 1900).
    pub build_year: u32,
    /// Build day.
    pub build_day: u32,
    /// The description's string reference.
    pub description_strref: u32,
    /// Localized descriptions.
    pub languages: usize,
    /// Bytes of member data.
    pub data_bytes: u64,
}

/// `info` of a RIM capsule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RimInfo {
    /// `"rim"`.
    pub format: &'static str,
    /// Members.
    pub resources: usize,
    /// Extension → member count.
    pub types: BTreeMap<String, usize>,
    /// Bytes of member data.
    pub data_bytes: u64,
}

/// `info` of a KEY.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyInfo {
    /// `"key"`.
    pub format: &'static str,
    /// Key entries.
    pub resources: usize,
    /// The BIFs it indexes.
    pub bifs: Vec<KeyBifInfo>,
    /// Extension → entry count.
    pub types: BTreeMap<String, usize>,
}

/// One BIF of a KEY.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyBifInfo {
    /// Its path as the KEY names it.
    pub name: String,
    /// Its size as the KEY records it.
    pub size: u32,
    /// Entries in it.
    pub resources: usize,
}

/// `info` of a BIF.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BifInfo {
    /// `"bif"`.
    pub format: &'static str,
    /// Variable resources.
    pub resources: usize,
    /// Fixed resources.
    pub fixed_resources: usize,
    /// Extension → resource count.
    pub types: BTreeMap<String, usize>,
}

/// `info` of a binary model (MDL + MDX). The counts are those of PyKotor's reading: `nodes` of
/// the geometry tree, `meshes` the nodes with mesh data, `vertices` and `faces` summed over them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelInfo {
    /// `"mdl"`.
    pub format: &'static str,
    /// `"k1"` or `"k2"` (KotOR), `"nwn"` (an NWN compiled model), from the data.
    pub game: &'static str,
    /// The model's name.
    pub name: String,
    /// The supermodel's name (`NULL` for none).
    pub supermodel: String,
    /// The classification byte.
    pub classification: u8,
    /// Geometry nodes: the total and the count per type.
    pub nodes: NodeCounts,
    /// Nodes with mesh data.
    pub meshes: usize,
    /// Vertices of the meshes.
    pub vertices: usize,
    /// Faces of the meshes.
    pub faces: usize,
    /// Animations.
    pub animations: usize,
    /// The model header's bounding box.
    pub bounds: Bounds,
    /// The model header's radius.
    pub radius: f32,
    /// Animation scale.
    pub animation_scale: f32,
}

/// Node counts: the total and per type name.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeCounts {
    /// All nodes.
    pub total: usize,
    /// Type name (`dummy`, `trimesh`, `skin`, `danglymesh`, `aabb`, `light`, ...) → count.
    pub by_type: BTreeMap<String, usize>,
}

/// The `info` of a binary model.
pub fn model_info(m: &areakit_formats::mdl::Model) -> ModelInfo {
    let h = &m.header;
    compiled_info(
        [m.game.name(), "mdl"],
        [m.geometry.name.as_string(), h.supermodel.as_string()],
        (h.classification, h.radius, h.animation_scale),
        [h.bounds_min, h.bounds_max],
        m.nodes.iter().map(|n| {
            let mesh = n.mesh.as_ref().map(|x| (x.vertex_count(), x.faces.len()));
            (n.kind_name(), mesh)
        }),
        m.animations.len(),
    )
}

/// The `info` of an NWN compiled model: the keys of [`ModelInfo`], `game` `"nwn"`, the
/// counts taken as for KotOR (geometry nodes, nodes with mesh data, their vertices and faces).
pub fn nwn_model_info(m: &areakit_formats::mdl::nwn::Model) -> ModelInfo {
    let h = &m.header;
    compiled_info(
        ["nwn", "mdl"],
        [m.name(), h.supermodel.as_string()],
        (h.classification, h.radius, h.animation_scale),
        [h.bounds_min, h.bounds_max],
        m.nodes.iter().map(|n| {
            let mesh = n.mesh.as_ref().map(|x| (x.vertex_count(), x.faces.len()));
            (n.kind_name(), mesh)
        }),
        m.animations.len(),
    )
}

/// A compiled model's [`ModelInfo`] from its game and format, name and supermodel,
/// classification, radius and animation scale, box, per node its type name and (with mesh
/// data) vertex and face counts, and animation count.
fn compiled_info(
    [game, format]: [&'static str; 2],
    [name, supermodel]: [String; 2],
    (classification, radius, animation_scale): (u8, f32, f32),
    [min, max]: [[f32; 3]; 2],
    nodes: impl Iterator<Item = (&'static str, Option<(usize, usize)>)>,
    animations: usize,
) -> ModelInfo {
    let mut by_type = BTreeMap::new();
    let (mut total, mut count, mut vertices, mut faces) = (0, 0, 0, 0);
    for (kind, mesh) in nodes {
        *by_type.entry(kind.to_string()).or_insert(0) += 1;
        total += 1;
        if let Some((v, f)) = mesh {
            count += 1;
            vertices += v;
            faces += f;
        }
    }
    ModelInfo {
        format,
        game,
        name,
        supermodel,
        classification,
        nodes: NodeCounts { total, by_type },
        meshes: count,
        vertices,
        faces,
        animations,
        bounds: Bounds { min, max },
        radius,
        animation_scale,
    }
}

/// The `info` report of a decoded document.
pub fn info(path: &Path, doc: &Document) -> InfoReport {
    let body = match doc {
        Document::Bwm(m) => InfoBody::Bwm(bwm_info(path, m)),
        Document::Lyt(l) => {
            let s = l.summary();
            InfoBody::Lyt(LytInfo {
                format: "lyt",
                rooms: s.rooms,
                tracks: s.tracks,
                obstacles: s.obstacles,
                doorhooks: s.doorhooks,
            })
        }
        Document::Vis(v) => {
            let s = v.summary();
            InfoBody::Vis(VisInfo {
                format: "vis",
                rooms: s.rooms,
                links: s.links,
            })
        }
        Document::MdlAscii(m) => {
            let s = m.summary();
            InfoBody::MdlAscii(MdlInfo {
                format: "mdl-ascii",
                name: s.name,
                supermodel: s.supermodel,
                classification: s.classification,
                nodes: s.node_count,
                nodes_by_type: s.nodes_by_type,
                animations: s.animation_count,
                vertices: s.vertex_count,
                faces: s.face_count,
            })
        }
        Document::Mdl(m) => InfoBody::Mdl(model_info(m)),
        Document::NwnMdl(m) => InfoBody::Mdl(nwn_model_info(m)),
        Document::Trx(t) => InfoBody::Trx(trx_info(t)),
        Document::Mdb(m) => InfoBody::Mdb(mdb_info(m)),
        Document::Gff(g) => {
            let s = g.summary();
            InfoBody::Gff(GffInfo {
                format: "gff",
                file_type: s.file_type.trim_end().to_string(),
                version: s.version,
                structs: s.structs,
                fields: s.fields,
                lists: s.lists,
                list_elements: s.list_elements,
                labels: s.labels,
                depth: s.depth,
            })
        }
        Document::TwoDa(t) => {
            let s = t.summary();
            InfoBody::TwoDa(TwoDaInfo {
                format: "2da",
                variant: s.variant.map(|v| v.name()),
                columns: s.columns,
                rows: s.rows,
                filled_cells: s.filled_cells,
            })
        }
        Document::Erf(e) => InfoBody::Erf(ErfInfo {
            format: "erf",
            kind: String::from_utf8_lossy(&e.header.kind.magic())
                .trim_end()
                .to_string(),
            resources: e.resources.len(),
            types: type_counts(e.resources.iter().map(|r| r.restype)),
            build_year: e.header.build_year,
            build_day: e.header.build_day,
            description_strref: e.header.description_strref,
            languages: e.strings.len(),
            data_bytes: e.resources.iter().map(|r| r.data.len() as u64).sum(),
        }),
        Document::Rim(r) => InfoBody::Rim(RimInfo {
            format: "rim",
            resources: r.resources.len(),
            types: type_counts(r.resources.iter().map(|m| m.restype)),
            data_bytes: r.resources.iter().map(|m| m.data.len() as u64).sum(),
        }),
        Document::Key(k) => InfoBody::Key(KeyInfo {
            format: "key",
            resources: k.keys.len(),
            bifs: k
                .bifs
                .iter()
                .enumerate()
                .map(|(i, b)| KeyBifInfo {
                    name: b.name(),
                    size: b.file_size,
                    resources: k.entries_of_bif(i as u32).count(),
                })
                .collect(),
            types: type_counts(k.keys.iter().map(|e| e.restype)),
        }),
        Document::Bif(b) => InfoBody::Bif(BifInfo {
            format: "bif",
            resources: b.resources.len(),
            fixed_resources: b.fixed.len(),
            types: type_counts(b.resources.iter().map(|r| r.restype)),
        }),
        Document::Tpc(t) => InfoBody::Tpc(tpc_info(t)),
        Document::Tga(t) => InfoBody::Tga(tga_info(t)),
        Document::Txi(t) => InfoBody::Txi(TxiInfo {
            format: "txi",
            entries: txi_entries(t),
            blending: t.blending().name(),
            unparsed: t.findings.len(),
        }),
        Document::Png(p) => InfoBody::Png(PngInfo {
            format: "png",
            width: p.image.width,
            height: p.image.height,
            colour_type: p.colour_type,
            bit_depth: p.bit_depth,
            interlaced: p.interlaced,
            has_alpha: !p.image.is_opaque(),
        }),
    };
    InfoReport::new(path, body)
}

/// `info` of an NWN2 model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MdbInfo {
    /// `"mdb"`.
    pub format: &'static str,
    /// `major.minor`.
    pub version: String,
    /// The packets, in table order.
    pub packets: Vec<MdbPacketInfo>,
    /// Triangles of the WALK packets.
    pub walk_triangles: usize,
    /// Of those, walkable.
    pub walkable_triangles: usize,
}

/// One packet of a model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MdbPacketInfo {
    /// Its tag.
    pub tag: String,
    /// Its name field (every packet but COLS and unknown ones has one).
    pub name: Option<String>,
}

/// `info` of an NWN2 model.
pub fn mdb_info(m: &areakit_formats::mdb::Mdb) -> MdbInfo {
    use areakit_formats::mdb::name_text;
    MdbInfo {
        format: "mdb",
        version: format!("{}.{}", m.version_major, m.version_minor),
        packets: m
            .packets
            .iter()
            .map(|p| MdbPacketInfo {
                tag: String::from_utf8_lossy(&p.tag()).into_owned(),
                name: p.name().map(name_text),
            })
            .collect(),
        walk_triangles: m.walks().map(|w| w.triangles.len()).sum(),
        walkable_triangles: m.walks().map(|w| w.walkable_count()).sum(),
    }
}

/// `info` of an NWN2 terrain (also the report of `bake`).
pub fn trx_info(t: &areakit_formats::trx::Trx) -> TrxInfo {
    let s = areakit_formats::trx::summary(t);
    TrxInfo {
        format: s.format,
        version: format!("{}.{}", s.version.0, s.version.1),
        packets: s
            .packets
            .iter()
            .map(|p| PacketInfo {
                tag: p.tag.clone(),
                size: p.size,
            })
            .collect(),
        walkmesh: s.walkmesh.map(|w| TrxWalkmeshInfo {
            vertices: w.vertices,
            edges: w.edges,
            triangles: w.triangles,
            walkable_triangles: w.walkable_triangles,
            tiles: w.tiles,
            islands: w.islands,
        }),
    }
}

/// `info` of a BWM walkmesh (`path`'s extension tells a PWK from a DWK where the type word
/// does not).
pub fn bwm_info(path: &Path, m: &Bwm) -> BwmInfo {
    let ext = path.extension().and_then(|e| e.to_str());
    let mut materials: BTreeMap<String, usize> = BTreeMap::new();
    for f in &m.faces {
        *materials.entry(f.material.name().into_owned()).or_default() += 1;
    }
    BwmInfo {
        format: "bwm",
        kind: m.kind(ext).name().to_string(),
        walkmesh_type: m.walkmesh_type.raw(),
        vertices: m.vertices.len(),
        faces: m.faces.len(),
        walkable_faces: m.walkable_face_count(),
        walkable_by_material: m.faces.iter().filter(|f| f.material.is_walkable()).count(),
        aabb_nodes: m.aabb_nodes.len(),
        edges: m.edges.len(),
        perimeters: m.perimeter_loops(),
        transitions: m.edges.iter().filter(|e| e.transition >= 0).count(),
        materials,
        bounds: m.bounds().map(|(min, max)| Bounds { min, max }),
        position: m.position,
        relative_use: m.relative_use,
        absolute_use: m.absolute_use,
    }
}

/// The `info` report of a BWM walkmesh, its path first.
pub fn bwm_report(path: &Path, m: &Bwm) -> InfoReport {
    InfoReport::new(path, InfoBody::Bwm(bwm_info(path, m)))
}

/// Resource counts by type (extension, or the decimal id when unknown).
fn type_counts(
    types: impl Iterator<Item = areakit_formats::restype::ResType>,
) -> BTreeMap<String, usize> {
    let mut out: BTreeMap<String, usize> = BTreeMap::new();
    for t in types {
        *out.entry(t.to_string()).or_default() += 1;
    }
    out
}

/// The `info` report of the file at `path` (a file, a capsule member path or, with a game in
/// the session, a resource of the game). A BIF on disk is described from its header and
/// tables alone (a multi-gigabyte BIF is not read whole).
pub fn info_path(session: &Session, path: &Path) -> Result<InfoReport, crate::Error> {
    if path.is_file() && crate::session::file_format(path) == Some(Format::Bif) {
        let mut file = std::fs::File::open(path).map_err(|e| crate::Error::io(path, e))?;
        let index = areakit_formats::bif::BifIndex::read(&mut file).map_err(|e| match e {
            areakit_formats::cursor::StreamError::Io(e) => crate::Error::io(path, e),
            areakit_formats::cursor::StreamError::Decode(e) => crate::Error::invalid(path, e),
        })?;
        return Ok(InfoReport::new(
            path,
            InfoBody::Bif(BifInfo {
                format: "bif",
                resources: index.resources.len(),
                fixed_resources: index.fixed.len(),
                types: type_counts(index.resources.iter().map(|r| r.restype)),
            }),
        ));
    }
    let mut report = if path.is_dir() {
        InfoReport::new(path, InfoBody::Folder(folder_info(path)?))
    } else {
        info(path, &Document::open(session, path)?)
    };
    let holds_area = match &report.body {
        InfoBody::Lyt(_) => true,
        InfoBody::Erf(ErfInfo { types, .. })
        | InfoBody::Rim(RimInfo { types, .. })
        | InfoBody::Folder(FolderInfo { types, .. }) => {
            types.contains_key("lyt") || types.contains_key("ifo")
        }
        _ => false,
    };
    if holds_area {
        report.add_area(session, path);
    }
    Ok(report)
}

impl InfoReport {
    /// The report of `path` with the fields `body`, and no area.
    pub fn new(path: &Path, body: InfoBody) -> InfoReport {
        InfoReport {
            path: path.display().to_string(),
            body,
            area: None,
            area_error: None,
        }
    }

    /// Opens the area `path` holds, as the commands that draw and walk areas open it, into
    /// [`InfoReport::area`] (or why not into [`InfoReport::area_error`]).
    fn add_area(&mut self, session: &Session, path: &Path) {
        match crate::input::open_module(session, Some(path)) {
            Ok(Some(module)) => self.area = Some(area_info(&module)),
            Ok(None) => {}
            Err(e) => self.area_error = Some(e.to_string()),
        }
    }
}

/// The files directly in the folder `path`, by extension.
fn folder_info(path: &Path) -> Result<FolderInfo, crate::Error> {
    let mut types: BTreeMap<String, usize> = BTreeMap::new();
    let mut files = 0;
    for entry in std::fs::read_dir(path).map_err(|e| crate::Error::io(path, e))? {
        let entry = entry.map_err(|e| crate::Error::io(path, e))?;
        if !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        files += 1;
        let p = entry.path();
        let ext = p
            .extension()
            .map_or(String::new(), |e| e.to_string_lossy().to_lowercase());
        *types.entry(ext).or_default() += 1;
    }
    Ok(FolderInfo {
        format: "folder",
        files,
        types,
    })
}
