//! ASCII walkmeshes: KotOR WOK ASCII (KOTORMax and KAurora dialects), NWN PWK/DWK ASCII and the
//! `aabb` node of an MDL ASCII model, read into a format-neutral [`AsciiWalkmesh`], converted to
//! BWM geometry ([`to_bwm`]), and a binary BWM decompiled to ASCII WOK text ([`bwm_to_ascii`]).
//!
//! Room links (edge transitions) come from either
//! - a `roomlinks` list (KOTORMax MDL dialect): rows `edge room`, `edge = face * 3 + side` in the
//!   ASCII face order (proven against the compiled `m13aa_04a.wok`, see `docs/formats/wok-ascii.md`);
//! - vertex colours (spec 002, KotorBlender/KOTORMax room-link painting): a vertex whose colour is
//!   red 0, blue 0, green `100 + room` (on a 0..255 scale; `colors` rows in 0..1 are scaled by 255)
//!   belongs to `room`; an edge whose two vertices belong to the same room links to it.
//!
//! [`to_bwm`] fills only vertices, faces and materials: the derived tables (normals, distances,
//! AABB tree, adjacency, edges, perimeters) are left empty and the per-edge transitions are
//! returned beside the BWM in [`BwmGeometry::transitions`], for the geometry crate's rebuild to
//! place on the perimeter edges it computes.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use areakit_formats::bwm::{self, Bwm, Material, WalkmeshType};
use areakit_formats::mdl_ascii::{self, Model, Node, NodeKind, Rows, Stmt};
use areakit_formats::{DecodeError, ErrorKind, Location};

use crate::Error;

/// Which tool's layout an ASCII walkmesh follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// KOTORMax `.wok.ascii`: a bare `node trimesh` with `verts` and `faces`
    /// (`v0 v1 v2 smoothing t0 t1 t2 material`).
    KotorMax,
    /// KAurora-style `.wok.ascii` (as PyKotor's `203tel.wok.ascii`): a bare `node aabb` whose
    /// faces carry adjacency (`v0 v1 v2 adj0 adj1 adj2 -1 material`), plus an `aabb` tree list.
    KAurora,
    /// NWN PWK/DWK ASCII: bare mesh nodes (no `newmodel` header), NWN face rows.
    NwnPlaceable,
    /// The `aabb` (walkmesh) node inside a full MDL ASCII model (NWN tiles, KOTORMax rooms).
    MdlAabb,
}

impl Dialect {
    /// Lower-case name for reports.
    pub const fn name(self) -> &'static str {
        match self {
            Dialect::KotorMax => "kotormax",
            Dialect::KAurora => "kaurora",
            Dialect::NwnPlaceable => "nwn-placeable",
            Dialect::MdlAabb => "mdl-aabb",
        }
    }
}

/// A walkmesh face: three vertex indices (winding kept) and the surface material id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkFace {
    /// Indices into [`AsciiWalkmesh::vertices`]; edge `k` runs from vertex `k` to `(k+1)%3`.
    pub vertices: [u32; 3],
    /// Surface material id (`surfacemat.2da` row).
    pub material: u32,
}

/// A room link: the edge `side` of `face` leads to `room` (an index into the area's LYT rooms).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RoomLink {
    /// Face index (file order).
    pub face: u32,
    /// Edge of the face, 0..3.
    pub side: u8,
    /// The room across the edge.
    pub room: u32,
}

/// A walkmesh read from ASCII, independent of the dialect.
#[derive(Debug, Clone, PartialEq)]
pub struct AsciiWalkmesh {
    /// The dialect it was read from.
    pub dialect: Dialect,
    /// The walkmesh node's name.
    pub name: String,
    /// The node's parent (the room model), if any.
    pub parent: Option<String>,
    /// Node position.
    pub position: [f64; 3],
    /// Node orientation, axis-angle (a zero axis, as PyKotor's `0 0 0 1`, means none).
    pub orientation: [f64; 4],
    /// The model's `layoutposition` (KOTORMax MDL) if any: added to every vertex by the compiler.
    pub layout_position: [f64; 3],
    /// Vertices in node space, as written.
    pub vertices: Vec<[f64; 3]>,
    /// Faces in file order.
    pub faces: Vec<WalkFace>,
    /// Per-face adjacency as written by the KAurora dialect (`face * 3 + side` or `-1`).
    pub adjacency: Option<Vec<[i32; 3]>>,
    /// Room links in face order.
    pub room_links: Vec<RoomLink>,
}

fn err(msg: impl Into<String>) -> DecodeError {
    DecodeError::new(ErrorKind::Malformed, Location::Input, msg)
}

/// Finds the walkmesh node of a model: the first `aabb` node, else the first mesh node with
/// faces, and reads it.
pub fn walkmesh_from_model(model: &Model) -> Result<AsciiWalkmesh, DecodeError> {
    let node = model
        .nodes()
        .find(|n| n.kind == NodeKind::Aabb)
        .or_else(|| {
            model
                .nodes()
                .find(|n| n.kind.is_mesh() && n.face_count() > 0)
        })
        .ok_or_else(|| err("no walkmesh node: expected an `aabb` node or a mesh with faces"))?;
    walkmesh_from_node(model, node)
}

/// Reads ASCII walkmesh text (any dialect) straight to an [`AsciiWalkmesh`].
pub fn read_walkmesh(text: &[u8]) -> Result<AsciiWalkmesh, DecodeError> {
    walkmesh_from_model(&mdl_ascii::read(text)?)
}

fn detect(model: &Model, node: &Node) -> Dialect {
    if model.geometry().is_some() {
        return Dialect::MdlAabb;
    }
    if node.kind == NodeKind::Aabb {
        return Dialect::KAurora;
    }
    let kotormax = model.stmts.iter().any(|s| match s {
        Stmt::Trivia(t) => {
            let l = t.text.to_ascii_lowercase();
            l.contains("kotormax") || l.contains("wokmesh")
        }
        _ => false,
    });
    if kotormax {
        Dialect::KotorMax
    } else {
        Dialect::NwnPlaceable
    }
}

/// Reads one node of a model as a walkmesh.
pub fn walkmesh_from_node(model: &Model, node: &Node) -> Result<AsciiWalkmesh, DecodeError> {
    let dialect = detect(model, node);
    let verts = node
        .list("verts")
        .ok_or_else(|| err(format!("walkmesh node `{}` has no `verts`", node.name)))?;
    let faces_l = node
        .list("faces")
        .ok_or_else(|| err(format!("walkmesh node `{}` has no `faces`", node.name)))?;
    let mut vertices = Vec::with_capacity(verts.rows.len());
    for (i, r) in verts.rows.iter().enumerate() {
        if r.len() < 3 {
            return Err(err(format!(
                "{}: verts[{i}] has {} values, expected 3",
                node.name,
                r.len()
            )));
        }
        vertices.push([r[0], r[1], r[2]]);
    }
    let nv = vertices.len();
    let index = |v: f64, what: &str| -> Result<u32, DecodeError> {
        if v >= 0.0 && v.fract() == 0.0 && (v as usize) < nv {
            Ok(v as u32)
        } else {
            Err(err(format!(
                "{}: {what} {v} is not a vertex index below {nv}",
                node.name
            )))
        }
    };
    let mut faces = Vec::with_capacity(faces_l.rows.len());
    let mut adjacency = (dialect == Dialect::KAurora).then(Vec::new);
    for (i, r) in faces_l.rows.iter().enumerate() {
        if r.len() < 3 {
            return Err(err(format!(
                "{}: faces[{i}] has {} values",
                node.name,
                r.len()
            )));
        }
        let what = format!("faces[{i}]");
        let v = [
            index(r[0], &what)?,
            index(r[1], &what)?,
            index(r[2], &what)?,
        ];
        let material = r.get(7).or(r.last()).copied().unwrap_or(0.0);
        let material =
            if material >= 0.0 && material.fract() == 0.0 && material <= f64::from(u32::MAX) {
                material as u32
            } else {
                return Err(err(format!(
                    "{}: faces[{i}] material {material} is not an id",
                    node.name
                )));
            };
        if let Some(adj) = adjacency.as_mut() {
            let a = |k: usize| r.get(k).map_or(-1, |&x| x as i32);
            adj.push([a(3), a(4), a(5)]);
        }
        faces.push(WalkFace {
            vertices: v,
            material,
        });
    }
    let mut room_links = Vec::new();
    let nf = faces.len();
    if let Some(links) = node.list("roomlinks") {
        for (i, r) in links.rows.iter().enumerate() {
            let (Some(&e), Some(&room)) = (r.first(), r.get(1)) else {
                return Err(err(format!(
                    "{}: roomlinks[{i}] needs `edge room`",
                    node.name
                )));
            };
            if !(e >= 0.0
                && e.fract() == 0.0
                && (e as usize) < nf * 3
                && room >= 0.0
                && room.fract() == 0.0)
            {
                return Err(err(format!(
                    "{}: roomlinks[{i}] `{e} {room}`: edge must be below 3 x {nf} faces and room a non-negative integer",
                    node.name
                )));
            }
            let e = e as u32;
            room_links.push(RoomLink {
                face: e / 3,
                side: (e % 3) as u8,
                room: room as u32,
            });
        }
    }
    if let Some(colors) = node.list("colors")
        && let Rows::Numbers { .. } = colors.rows
    {
        let rooms: Vec<Option<u32>> = colors.rows.iter().map(color_room).collect();
        for (fi, f) in faces.iter().enumerate() {
            for side in 0..3 {
                let a = f.vertices[side] as usize;
                let b = f.vertices[(side + 1) % 3] as usize;
                if let (Some(Some(ra)), Some(Some(rb))) = (rooms.get(a), rooms.get(b))
                    && ra == rb
                {
                    room_links.push(RoomLink {
                        face: fi as u32,
                        side: side as u8,
                        room: *ra,
                    });
                }
            }
        }
    }
    room_links.sort();
    room_links.dedup();
    let layout_position = model
        .geometry()
        .and_then(|g| g.prop("layoutposition"))
        .and_then(|p| p.value.as_vec3())
        .unwrap_or([0.0; 3]);
    Ok(AsciiWalkmesh {
        dialect,
        name: node.name.clone(),
        parent: node.parent().map(str::to_string),
        position: node.position().unwrap_or([0.0; 3]),
        orientation: node.orientation().unwrap_or([1.0, 0.0, 0.0, 0.0]),
        layout_position,
        vertices,
        faces,
        adjacency,
        room_links,
    })
}

/// The room encoded by a vertex colour: red 0, blue 0, green `100 + room` (0..255 scale;
/// rows in 0..1 are scaled by 255).
pub fn color_room(rgb: &[f64]) -> Option<u32> {
    let [r, g, b] = [*rgb.first()?, *rgb.get(1)?, *rgb.get(2)?];
    let unit = r <= 1.0 && g <= 1.0 && b <= 1.0;
    let scale = if unit { 255.0 } else { 1.0 };
    let (r, g, b) = (
        (r * scale).round(),
        (g * scale).round(),
        (b * scale).round(),
    );
    (r == 0.0 && b == 0.0 && (100.0..=255.0).contains(&g)).then_some((g - 100.0) as u32)
}

/// One transition for the rebuild: edge `face * 3 + side` (in the BWM's face order) leads to
/// `room`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EdgeTransition {
    /// `face * 3 + side`.
    pub edge: u32,
    /// The room index.
    pub room: i32,
}

/// BWM geometry built from an ASCII walkmesh, awaiting the rebuild of derived data.
#[derive(Debug, Clone, PartialEq)]
pub struct BwmGeometry {
    /// Vertices (world space for WOK), faces and materials filled; `normals`, `distances`,
    /// `aabb_nodes`, `adjacency`, `edges`, `perimeters` empty. **Hook:** the lead calls the
    /// geometry crate's rebuild on it (with [`BwmGeometry::transitions`]) before writing.
    pub bwm: Bwm,
    /// Room transitions per face edge, in `bwm.faces` order, sorted by edge.
    pub transitions: Vec<EdgeTransition>,
}

/// Options of [`to_bwm`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToBwmOptions {
    /// The BWM type: area (WOK, world-space vertices) or placeable/door (object space).
    pub walkmesh_type: WalkmeshType,
    /// Merge vertices with bit-identical (f32) positions, as the compilers do (the ASCII files
    /// repeat a vertex per face corner). Face winding and edge numbering are kept.
    pub weld: bool,
    /// Added to every vertex after the node transform (e.g. the room's LYT position for a
    /// stand-alone WOK ASCII). The model's `layoutposition` is always added.
    pub offset: [f64; 3],
}

impl Default for ToBwmOptions {
    fn default() -> Self {
        ToBwmOptions {
            walkmesh_type: WalkmeshType::Area,
            weld: true,
            offset: [0.0; 3],
        }
    }
}

/// Rotates `v` by an axis-angle `[x, y, z, angle]` (Rodrigues). A zero axis or angle is no
/// rotation.
fn rotate(v: [f64; 3], aa: [f64; 4]) -> [f64; 3] {
    let [x, y, z, angle] = aa;
    let len = (x * x + y * y + z * z).sqrt();
    if len == 0.0 || angle == 0.0 || !len.is_finite() {
        return v;
    }
    let k = [x / len, y / len, z / len];
    let (s, c) = angle.sin_cos();
    let dot = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
    let cross = [
        k[1] * v[2] - k[2] * v[1],
        k[2] * v[0] - k[0] * v[2],
        k[0] * v[1] - k[1] * v[0],
    ];
    [
        v[0] * c + cross[0] * s + k[0] * dot * (1.0 - c),
        v[1] * c + cross[1] * s + k[1] * dot * (1.0 - c),
        v[2] * c + cross[2] * s + k[2] * dot * (1.0 - c),
    ]
}

/// Converts an ASCII walkmesh to BWM geometry: vertex `world = rotate(local) + position +
/// layout_position + offset` (area type; placeables/doors keep node space plus `offset`),
/// faces and materials in file order, room links as per-edge transitions.
pub fn to_bwm(w: &AsciiWalkmesh, opts: &ToBwmOptions) -> BwmGeometry {
    let area = opts.walkmesh_type == WalkmeshType::Area;
    let mut map: HashMap<[u32; 3], u32> = HashMap::new();
    let mut vertices: Vec<[f32; 3]> = Vec::with_capacity(w.vertices.len());
    let mut remap = Vec::with_capacity(w.vertices.len());
    for &v in &w.vertices {
        let p = if area {
            let r = rotate(v, w.orientation);
            [
                r[0] + w.position[0] + w.layout_position[0] + opts.offset[0],
                r[1] + w.position[1] + w.layout_position[1] + opts.offset[1],
                r[2] + w.position[2] + w.layout_position[2] + opts.offset[2],
            ]
        } else {
            [
                v[0] + opts.offset[0],
                v[1] + opts.offset[1],
                v[2] + opts.offset[2],
            ]
        };
        let p = [p[0] as f32, p[1] as f32, p[2] as f32];
        // +0.0 and -0.0 weld together.
        let key = p.map(|c| if c == 0.0 { 0 } else { c.to_bits() });
        let idx = if opts.weld {
            *map.entry(key).or_insert_with(|| {
                vertices.push(p);
                (vertices.len() - 1) as u32
            })
        } else {
            vertices.push(p);
            (vertices.len() - 1) as u32
        };
        remap.push(idx);
    }
    let faces = w
        .faces
        .iter()
        .map(|f| bwm::Face {
            vertices: f.vertices.map(|i| remap[i as usize]),
            material: Material::from_id(f.material),
        })
        .collect();
    let mut transitions: Vec<EdgeTransition> = w
        .room_links
        .iter()
        .map(|l| EdgeTransition {
            edge: l.face * 3 + u32::from(l.side),
            room: l.room as i32,
        })
        .collect();
    transitions.sort();
    transitions.dedup();
    let position = if area {
        w.position.map(|c| c as f32)
    } else {
        [0.0; 3]
    };
    BwmGeometry {
        bwm: Bwm {
            walkmesh_type: opts.walkmesh_type,
            position,
            vertices,
            faces,
            ..Bwm::default()
        },
        transitions,
    }
}

/// Decompiles a binary BWM to ASCII WOK text in the KOTORMax layout: a bare `node trimesh`
/// named `name` with `parent`, `position` (the BWM's), vertices relative to it, NWN-style face
/// rows (`v0 v1 v2 1 0 0 0 material`), and the edge transitions as a `roomlinks` list
/// (`face * 3 + side` and room). [`read_walkmesh`] + [`to_bwm`] give back the same vertices,
/// faces, materials and transitions.
pub fn bwm_to_ascii(b: &Bwm, name: &str, parent: &str) -> String {
    let mut s = String::with_capacity(64 + b.vertices.len() * 40 + b.faces.len() * 24);
    let _ = writeln!(s, "# Decompiled by areakit from a binary BWM walkmesh");
    let _ = writeln!(s, "# WOKMESH  ASCII");
    let _ = writeln!(s, "node trimesh {name}");
    let _ = writeln!(s, "  parent {parent}");
    let [px, py, pz] = b.position;
    let _ = writeln!(s, "  position {} {} {}", num(px), num(py), num(pz));
    let _ = writeln!(s, "  orientation 1.0 0.0 0.0 0.0");
    let _ = writeln!(s, "  verts {}", b.vertices.len());
    for &[x, y, z] in &b.vertices {
        let (rx, ry, rz) = (relative(x, px), relative(y, py), relative(z, pz));
        let _ = writeln!(s, "    {rx} {ry} {rz}");
    }
    let _ = writeln!(s, "  faces {}", b.faces.len());
    for f in &b.faces {
        let [a, c, d] = f.vertices;
        let _ = writeln!(s, "    {a} {c} {d}  1  0 0 0  {}", f.material.id());
    }
    let links: Vec<_> = b.edges.iter().filter(|e| e.transition >= 0).collect();
    if !links.is_empty() {
        let _ = writeln!(s, "  roomlinks {}", links.len());
        for e in links {
            let _ = writeln!(s, "    {} {}", e.edge, e.transition);
        }
    }
    s.push_str("endnode\n");
    s
}

/// An `f32` as its shortest text (`Display`), which reads back to the same `f32`.
fn num(v: f32) -> String {
    if v == 0.0 {
        "0.0".to_string()
    } else {
        format!("{v}")
    }
}

/// `x - origin` as the text [`to_bwm`] adds the `position` text back to (in `f64`, then rounded
/// to `f32`) to get `x` again: the shortest text of the difference as an `f32` when that does
/// it, else the difference in full (`f64`).
fn relative(x: f32, origin: f32) -> String {
    let o = num(origin).parse::<f64>().unwrap_or(f64::from(origin));
    let fits = |t: &str| {
        t.parse::<f64>()
            .is_ok_and(|r| ((r + o) as f32).to_bits() == x.to_bits() || (r + o == 0.0 && x == 0.0))
    };
    let exact = f64::from(x) - o;
    let short = num(exact as f32);
    if fits(&short) {
        short
    } else {
        format!("{exact}")
    }
}

/// Compiles an ASCII walkmesh (KotOR ASCII WOK, NWN PWK/DWK, or the `aabb` node of an MDL
/// ASCII model) to a BWM with every derived table rebuilt. `output` decides the type: a
/// `.pwk`/`.dwk` name gives a placeable/door walkmesh, anything else an area walkmesh.
pub fn compile_walkmesh(
    model: &areakit_formats::mdl_ascii::Model,
    output: &Path,
) -> Result<Bwm, Error> {
    let name = output
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let placeable = name.ends_with(".pwk") || name.ends_with(".dwk");
    let w = walkmesh_from_model(model).map_err(|e| Error::invalid(output, e))?;
    let opts = ToBwmOptions {
        walkmesh_type: if placeable {
            WalkmeshType::PlaceableOrDoor
        } else {
            WalkmeshType::Area
        },
        ..ToBwmOptions::default()
    };
    let geometry = to_bwm(&w, &opts);
    let mut transitions = vec![[-1i32; 3]; geometry.bwm.faces.len()];
    for t in &geometry.transitions {
        if let Some(face) = transitions.get_mut((t.edge / 3) as usize) {
            face[(t.edge % 3) as usize] = t.room;
        }
    }
    let mut template = geometry.bwm;
    let n = template.faces.len();
    template.normals = vec![[0.0; 3]; n];
    template.distances = vec![0.0; n];
    let mut compiled = areakit_area::walkmesh::rebuild_with_transitions(&template, &transitions)
        .map_err(|e| Error::geometry(output, e))?;
    number_vertices_by_first_use(&mut compiled);
    Ok(compiled)
}

/// Renumbers vertices in order of first use by the faces (in their final, walkable-first
/// order), unused ones last — the numbering of the game compiler's output: the compiled
/// `m13aa_04a.wok` in the corpus numbers its 265 vertices this way, so compiling its ASCII
/// source gives the same vertex and face tables.
pub fn number_vertices_by_first_use(bwm: &mut Bwm) {
    const UNSET: u32 = u32::MAX;
    let mut new_index = vec![UNSET; bwm.vertices.len()];
    let mut order = Vec::with_capacity(bwm.vertices.len());
    for f in &bwm.faces {
        for &v in &f.vertices {
            if let Some(slot) = new_index.get_mut(v as usize) {
                if *slot == UNSET {
                    *slot = order.len() as u32;
                    order.push(v);
                }
            }
        }
    }
    for (v, slot) in new_index.iter_mut().enumerate() {
        if *slot == UNSET {
            *slot = order.len() as u32;
            order.push(v as u32);
        }
    }
    bwm.vertices = order.iter().map(|&v| bwm.vertices[v as usize]).collect();
    for f in &mut bwm.faces {
        for v in &mut f.vertices {
            if let Some(&n) = new_index.get(*v as usize) {
                *v = n;
            }
        }
    }
}
