//! Top-down maps of walkmeshes: SVG (hand-written), and PNG (that SVG drawn by resvg with the
//! embedded DejaVu Sans subset, so the PNG shows what the SVG shows, words included).
//!
//! Faces are filled by material (walkable faces in colour, higher faces drawn over lower
//! ones; non-walkable faces in translucent grey), boundary edges of the walkable surface are
//! dark lines, transition edges thick orange lines labelled with the target room, room names
//! label areas, and findings with a position are numbered red rings listed beside the map.
//! Placed objects are dark red footprints and paths blue lines from a green start to a red
//! end. An area's room models are light outlines under the walkmesh. A title runs above the
//! map; a legend of the materials and a scale bar stand beside it.

use std::fmt::Write as _;

use areakit_formats::Finding;
use areakit_formats::bwm::{Bwm, Material};

/// One room of a map: a name (areas), an offset and its walkmesh.
#[derive(Debug, Clone, Copy)]
pub struct MapRoom<'a> {
    /// Room name, drawn at the room's centre when given.
    pub name: Option<&'a str>,
    /// Offset added to the room's vertices.
    pub offset: [f32; 3],
    /// The walkmesh.
    pub bwm: &'a Bwm,
}

/// A placed object's footprint on the map (area space).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MapObject {
    /// A label (the tag or the model), drawn beside the footprint.
    pub label: String,
    /// The placed walkmesh's faces.
    pub triangles: Vec<[[f32; 3]; 3]>,
}

/// An NWN2 walkmesh cutter (from the GIT beside a terrain), drawn as a dashed outline.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MapCutter {
    /// A label (`cutter N` and its tag).
    pub label: String,
    /// Its corners in plan (area space), closed implicitly.
    pub ring: Vec<[f32; 2]>,
}

/// The outline colour of walkmesh cutters.
pub const CUTTER_STROKE: &str = "#d0008a";

/// A room model's top-down outline (area space), drawn lightly under the walkmesh.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MapModel {
    /// The room's name.
    pub room: String,
    /// Closed loops in plan (outer loops counter-clockwise, holes clockwise).
    pub loops: Vec<Vec<[f32; 2]>>,
}

/// The fill and outline colours of room models.
pub const MODEL_FILL: &str = "#5a6e96";
/// See [`MODEL_FILL`].
pub const MODEL_STROKE: &str = "#3c4664";

/// Map options.
#[derive(Debug, Clone)]
pub struct RenderOptions {
    /// Size in pixels of the longer side.
    pub size: u32,
    /// Findings to mark, with the index of their room in the room list.
    pub findings: Vec<(usize, Finding)>,
    /// Placed objects, drawn as dark red footprints over the ground.
    pub objects: Vec<MapObject>,
    /// Paths (area space), drawn as blue lines from a green start to a red end.
    pub paths: Vec<Vec<[f32; 3]>>,
    /// The title above the map (default: none).
    pub title: Option<String>,
    /// The names of an area's rooms in layout order: a transition's value is an index into
    /// it, and its label shows the name.
    pub room_names: Vec<String>,
    /// Room models' outlines, drawn under the walkmesh (they widen the map's frame by at most
    /// 15% of its extent beyond the walkmesh and overlays; parts farther out are cut).
    pub models: Vec<MapModel>,
    /// NWN2 walkmesh cutters, drawn as dashed outlines over the ground.
    pub cutters: Vec<MapCutter>,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            size: 1024,
            findings: Vec::new(),
            objects: Vec::new(),
            paths: Vec::new(),
            title: None,
            room_names: Vec::new(),
            models: Vec::new(),
            cutters: Vec::new(),
        }
    }
}

/// Why a PNG could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RenderError(pub String);

/// RGB of a material: walkable ones in distinct colours, non-walkable in grey.
pub fn material_colour(m: Material) -> [u8; 3] {
    if !m.is_walkable() {
        return [120, 120, 120];
    }
    // Colours that suggest the surface, so a map reads at a glance.
    match m {
        Material::Dirt => [181, 140, 99],
        Material::Grass => [120, 190, 100],
        Material::Stone => [200, 195, 180],
        Material::Wood => [200, 150, 90],
        Material::Water => [110, 170, 230],
        Material::Carpet => [190, 120, 190],
        Material::Metal => [140, 170, 200],
        Material::Puddles => [150, 200, 230],
        Material::Swamp => [120, 150, 90],
        Material::Mud => [140, 110, 70],
        Material::Leaves => [170, 200, 80],
        Material::BottomlessPit => [60, 40, 60],
        Material::Door => [230, 120, 60],
        Material::Sand => [240, 220, 150],
        Material::BareBones => [230, 230, 210],
        Material::StoneBridge => [170, 160, 150],
        Material::Trigger => [250, 240, 110],
        _ => [255, 237, 111],
    }
}

/// A filled face: corners xy, material, mean z.
type Tri = ([[f32; 2]; 3], Material, f32);

/// Primitives in world space.
struct Scene {
    tris: Vec<Tri>,
    /// Boundary edges (a, b).
    edges: Vec<([f32; 2], [f32; 2])>,
    /// Transition edges (a, b), and one label per room and transition: (position, text).
    transitions: Vec<([f32; 2], [f32; 2])>,
    transition_labels: Vec<TransitionLabel>,
    /// (position, text)
    names: Vec<([f32; 2], String)>,
    /// (position, error?, number in the findings list)
    marks: Vec<([f32; 2], bool, usize)>,
    /// Object footprints (triangles in plan) and their labels.
    objects: Vec<(Vec<[[f32; 2]; 3]>, String)>,
    /// Cutter rings in plan and their labels.
    cutters: Vec<(Vec<[f32; 2]>, String)>,
    /// Path polylines in plan.
    paths: Vec<Vec<[f32; 2]>>,
    min: [f32; 2],
    max: [f32; 2],
}

/// The text of a transition's label: the target room's name when known.
fn transition_label(t: i32, room_names: &[String]) -> String {
    match usize::try_from(t).ok().and_then(|i| room_names.get(i)) {
        Some(name) => format!("\u{2192} {name}"),
        None => format!("\u{2192} {t}"),
    }
}

/// A transition's label: where it stands (plan), which way the room lies from there (a unit
/// vector in plan, so the label can stand inside its own room), and its text.
#[derive(Debug, Clone, PartialEq)]
pub struct TransitionLabel {
    /// The midpoint of the labelled edge.
    pub at: [f32; 2],
    /// Unit vector from the edge towards its face's centroid.
    pub inward: [f32; 2],
    /// `→ room` (or `→ N` when the room is not known).
    pub text: String,
}

/// One label per transition value of a room's edge table, at the edge midpoint nearest the
/// mean of that transition's edge midpoints (plan coordinates plus `offset`).
pub fn transition_labels(b: &Bwm, offset: [f32; 3], room_names: &[String]) -> Vec<TransitionLabel> {
    // Per transition: each edge's midpoint and inward direction.
    type Mids = Vec<([f32; 2], [f32; 2])>;
    let mut by_transition: std::collections::BTreeMap<i32, Mids> =
        std::collections::BTreeMap::new();
    for e in &b.edges {
        if e.transition < 0 {
            continue;
        }
        let Some(f) = b.faces.get(e.face() as usize) else {
            continue;
        };
        let corner = |k: usize| b.vertices.get(f.vertices[k % 3] as usize);
        let k = e.side() as usize;
        if let (Some(a), Some(c), Some(d)) = (corner(k), corner(k + 1), corner(k + 2)) {
            let mid = [(a[0] + c[0]) / 2.0, (a[1] + c[1]) / 2.0];
            let centroid = [(a[0] + c[0] + d[0]) / 3.0, (a[1] + c[1] + d[1]) / 3.0];
            let v = [centroid[0] - mid[0], centroid[1] - mid[1]];
            let l = (v[0] * v[0] + v[1] * v[1]).sqrt();
            let inward = if l > 0.0 && l.is_finite() {
                [v[0] / l, v[1] / l]
            } else {
                [0.0, 1.0]
            };
            by_transition
                .entry(e.transition)
                .or_default()
                .push(([mid[0] + offset[0], mid[1] + offset[1]], inward));
        }
    }
    let mut out = Vec::new();
    for (t, mids) in by_transition {
        let n = mids.len() as f32;
        let mean = mids
            .iter()
            .fold([0.0f32; 2], |m, q| [m[0] + q.0[0] / n, m[1] + q.0[1] / n]);
        let d2 = |q: &[f32; 2]| (q[0] - mean[0]).powi(2) + (q[1] - mean[1]).powi(2);
        if let Some((at, inward)) = mids.iter().min_by(|x, y| d2(&x.0).total_cmp(&d2(&y.0))) {
            out.push(TransitionLabel {
                at: *at,
                inward: *inward,
                text: transition_label(t, room_names),
            });
        }
    }
    out
}

/// A room's faces, boundary edges (from the edge table when present, else from the
/// adjacency), transitions and their labels, and its name at its centre, into the scene.
fn add_room(s: &mut Scene, room: &MapRoom<'_>, opts: &RenderOptions) {
    let b = room.bwm;
    let o = room.offset;
    let p = |v: u32| -> Option<[f32; 3]> {
        b.vertices
            .get(v as usize)
            .map(|q| [q[0] + o[0], q[1] + o[1], q[2] + o[2]])
    };
    let mut rmin = [f32::INFINITY; 2];
    let mut rmax = [f32::NEG_INFINITY; 2];
    for f in &b.faces {
        let (Some(a), Some(c), Some(d)) = (p(f.vertices[0]), p(f.vertices[1]), p(f.vertices[2]))
        else {
            continue;
        };
        for q in [a, c, d] {
            for k in 0..2 {
                rmin[k] = rmin[k].min(q[k]);
                rmax[k] = rmax[k].max(q[k]);
            }
        }
        s.tris.push((
            [[a[0], a[1]], [c[0], c[1]], [d[0], d[1]]],
            f.material,
            (a[2] + c[2] + d[2]) / 3.0,
        ));
    }
    // Boundary edges: from the edge table when present, else from the adjacency.
    let mut listed = std::collections::HashSet::new();
    for e in &b.edges {
        listed.insert(e.edge);
        if let Some(f) = b.faces.get(e.face() as usize) {
            let k = e.side() as usize;
            if let (Some(a), Some(c)) = (p(f.vertices[k]), p(f.vertices[(k + 1) % 3])) {
                let (a, c) = ([a[0], a[1]], [c[0], c[1]]);
                if e.transition >= 0 {
                    s.transitions.push((a, c));
                } else {
                    s.edges.push((a, c));
                }
            }
        }
    }
    s.transition_labels
        .extend(transition_labels(b, o, &opts.room_names));
    for (fi, adj) in b.adjacency.iter().enumerate() {
        for (k, &a) in adj.iter().enumerate() {
            let code = (fi * 3 + k) as u32;
            if a == -1
                && !listed.contains(&code)
                && let Some(f) = b.faces.get(fi)
                && let (Some(x), Some(y)) = (p(f.vertices[k]), p(f.vertices[(k + 1) % 3]))
            {
                s.edges.push(([x[0], x[1]], [y[0], y[1]]));
            }
        }
    }
    if let Some(name) = room.name
        && rmin[0].is_finite()
    {
        s.names.push((
            [(rmin[0] + rmax[0]) / 2.0, (rmin[1] + rmax[1]) / 2.0],
            name.to_string(),
        ));
    }
    for k in 0..2 {
        s.min[k] = s.min[k].min(rmin[k]);
        s.max[k] = s.max[k].max(rmax[k]);
    }
}

fn scene(rooms: &[MapRoom<'_>], opts: &RenderOptions) -> Scene {
    let mut s = Scene {
        tris: Vec::new(),
        edges: Vec::new(),
        transitions: Vec::new(),
        transition_labels: Vec::new(),
        names: Vec::new(),
        marks: Vec::new(),
        objects: Vec::new(),
        cutters: Vec::new(),
        paths: Vec::new(),
        min: [f32::INFINITY; 2],
        max: [f32::NEG_INFINITY; 2],
    };
    let plan = |p: [f32; 3]| [p[0], p[1]];
    for room in rooms {
        add_room(&mut s, room, opts);
    }
    for (n, (ri, f)) in opts.findings.iter().enumerate() {
        if let (Some(p), Some(room)) = (f.place.position, rooms.get(*ri)) {
            s.marks.push((
                [p[0] + room.offset[0], p[1] + room.offset[1]],
                f.severity == areakit_formats::Severity::Error,
                n + 1,
            ));
        }
    }
    // Overlays widen the map only when they are finite (a hostile position must not blow the
    // view up).
    let widen = |s: &mut Scene, p: [f32; 2]| {
        if p.iter().all(|c| c.is_finite()) {
            s.min = [s.min[0].min(p[0]), s.min[1].min(p[1])];
            s.max = [s.max[0].max(p[0]), s.max[1].max(p[1])];
        }
    };
    for o in &opts.objects {
        let tris: Vec<[[f32; 2]; 3]> = o.triangles.iter().map(|t| t.map(plan)).collect();
        for p in tris.iter().flatten() {
            widen(&mut s, *p);
        }
        s.objects.push((tris, o.label.clone()));
    }
    for c in &opts.cutters {
        for p in &c.ring {
            widen(&mut s, *p);
        }
        s.cutters.push((c.ring.clone(), c.label.clone()));
    }
    for path in &opts.paths {
        let pts: Vec<[f32; 2]> = path.iter().copied().map(plan).collect();
        for p in &pts {
            widen(&mut s, *p);
        }
        s.paths.push(pts);
    }
    // Non-walkable first, then walkable from low to high in half-metre bands; within a band
    // by material, so that runs of one colour become one SVG path.
    let band = |z: f32| (z * 2.0).floor() as i64;
    s.tris.sort_by(|a, b| {
        (a.1.is_walkable(), band(a.2), a.1.id())
            .cmp(&(b.1.is_walkable(), band(b.2), b.1.id()))
            .then(a.2.total_cmp(&b.2))
    });
    // Room models widen the map a little (walls beyond the walkmesh), not to far-away
    // backdrops: at most 15% of the map's extent (2 m at least) on each side; beyond that
    // they are cut. Without a walkmesh or overlay the models frame the map.
    let model_points = opts.models.iter().flat_map(|m| m.loops.iter().flatten());
    if s.min[0].is_finite() {
        let pad = ((s.max[0] - s.min[0]).max(s.max[1] - s.min[1]) * 0.15).max(2.0);
        let (lo, hi) = (s.min.map(|c| c - pad), s.max.map(|c| c + pad));
        for p in model_points {
            widen(&mut s, [p[0].clamp(lo[0], hi[0]), p[1].clamp(lo[1], hi[1])]);
        }
    } else {
        for p in model_points {
            widen(&mut s, *p);
        }
    }
    if !s.min[0].is_finite() {
        s.min = [0.0; 2];
        s.max = [1.0; 2];
    }
    s
}

/// Height of the title band above the map, in pixels.
const TITLE_HEIGHT: f32 = 30.0;
/// Width of the legend panel beside the map, in pixels.
pub const PANEL_WIDTH: f32 = 250.0;
/// The font family the SVG names (the PNG's embedded font).
const FONT: &str = "DejaVu Sans, sans-serif";

/// Where the map's world coordinates land in the picture's pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapTransform {
    scale: f32,
    min: [f32; 2],
    /// Map area size in pixels (margins included).
    width: f32,
    height: f32,
    margin: f32,
}

impl MapTransform {
    fn new(s: &Scene, size: u32) -> Self {
        let margin = 16.0;
        let ext = [
            (s.max[0] - s.min[0]).max(1e-3),
            (s.max[1] - s.min[1]).max(1e-3),
        ];
        let inner = (size.max(64) as f32) - 2.0 * margin;
        let scale = inner / ext[0].max(ext[1]);
        MapTransform {
            scale,
            min: s.min,
            width: ext[0] * scale + 2.0 * margin,
            height: ext[1] * scale + 2.0 * margin,
            margin,
        }
    }

    /// The pixel (x right, y down) of the world point (x, y) in the written picture.
    pub fn px(&self, p: [f32; 2]) -> (f32, f32) {
        (
            self.margin + (p[0] - self.min[0]) * self.scale,
            TITLE_HEIGHT + self.height - self.margin - (p[1] - self.min[1]) * self.scale,
        )
    }

    /// Pixels per metre.
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// The left edge of the legend panel, in pixels.
    pub fn panel_x(&self) -> f32 {
        self.width
    }
}

/// How [`render_svg`] maps world points to pixels for these rooms and options.
pub fn map_transform(rooms: &[MapRoom<'_>], opts: &RenderOptions) -> MapTransform {
    MapTransform::new(&scene(rooms, opts), opts.size)
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A "nice" scale bar length (1, 2 or 5 times a power of ten) of at most `max` metres.
pub fn nice_length(max: f32) -> f32 {
    if !(max.is_finite() && max > 0.0) {
        return 1.0;
    }
    let p = 10f32.powf(max.log10().floor());
    [5.0, 2.0, 1.0]
        .into_iter()
        .map(|k| k * p)
        .find(|&l| l <= max)
        .unwrap_or(p)
}

/// Shortens `s` to `n` characters (an ellipsis marks the cut).
fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(n.saturating_sub(1)).collect();
        out.push('\u{2026}');
        out
    }
}

/// At most this many findings are listed beside the map (all are numbered on it).
const LISTED_FINDINGS: usize = 60;

/// An SVG map of one or more rooms: a title above, the map, and beside it a legend of the
/// materials and marks, a scale bar and the numbered findings.
pub fn render_svg(rooms: &[MapRoom<'_>], opts: &RenderOptions) -> String {
    let s = scene(rooms, opts);
    let v = MapTransform::new(&s, opts.size);
    // The legend panel: one row per material and mark shown.
    let mut materials: Vec<Material> = s.tris.iter().map(|t| t.1).collect();
    materials.sort_by_key(|m| (!m.is_walkable(), m.id()));
    materials.dedup();
    let listed = opts.findings.len().min(LISTED_FINDINGS);
    let rows = materials.len()
        + 2
        + usize::from(!s.objects.is_empty())
        + usize::from(!s.cutters.is_empty())
        + usize::from(!s.paths.is_empty())
        + usize::from(!opts.models.is_empty());
    let panel_height = 40.0
        + rows as f32 * 18.0
        + 70.0
        + if opts.findings.is_empty() {
            0.0
        } else {
            30.0 + (listed + 1) as f32 * 15.0
        };
    let width = v.width + PANEL_WIDTH;
    let height = (v.height + TITLE_HEIGHT).max(panel_height + TITLE_HEIGHT);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}" font-family="{FONT}">"#,
    );
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#ffffff"/>"##
    );
    svg_models(&mut out, &opts.models, &v);
    svg_faces(&mut out, &s, &v);
    svg_edges(&mut out, &s, &v);
    let _ = writeln!(out, r#"<g font-size="11" text-anchor="middle">"#);
    for l in &s.transition_labels {
        // Inside the label's own room: beside the edge, on the room's side.
        let (x, y) = v.px(l.at);
        let anchor = if l.inward[0] < -0.5 {
            "end"
        } else if l.inward[0] > 0.5 {
            "start"
        } else {
            "middle"
        };
        let _ = writeln!(
            out,
            r##"<text class="transition" x="{:.1}" y="{:.1}" text-anchor="{anchor}" fill="#a04000" stroke="#ffffff" stroke-width="2.5" paint-order="stroke">{}</text>"##,
            x + l.inward[0] * 6.0,
            y - l.inward[1] * 12.0 + 4.0,
            escape(&l.text)
        );
    }
    for (p, name) in &s.names {
        let (x, y) = v.px(*p);
        let _ = writeln!(
            out,
            r##"<text class="room" x="{x:.1}" y="{:.1}" font-size="14" font-weight="bold" fill="#000000" stroke="#ffffff" stroke-width="3" paint-order="stroke">{}</text>"##,
            y + 5.0,
            escape(name)
        );
    }
    let _ = writeln!(out, "</g>");
    svg_overlays(&mut out, &s, &v);
    for (p, err, n) in &s.marks {
        let (x, y) = v.px(*p);
        let colour = if *err { "#e00000" } else { "#c000c0" };
        let _ = writeln!(
            out,
            r##"<g class="finding"><circle cx="{x:.1}" cy="{y:.1}" r="6" fill="none" stroke="{colour}" stroke-width="2"/><text x="{:.1}" y="{:.1}" font-size="10" font-weight="bold" fill="{colour}" stroke="#ffffff" stroke-width="2" paint-order="stroke">{n}</text></g>"##,
            x + 7.0,
            y - 5.0
        );
    }
    // Title band.
    let title = opts.title.clone().unwrap_or_else(|| "walkmesh".to_string());
    let faces = s.tris.len();
    let walkable = s.tris.iter().filter(|t| t.1.is_walkable()).count();
    let _ = writeln!(
        out,
        r##"<text class="title" x="12" y="21" font-size="16" font-weight="bold" fill="#000000">{} <tspan font-size="12" font-weight="normal" fill="#444444">{faces} faces ({walkable} walkable){}</tspan></text>"##,
        escape(&clip(&title, 60)),
        if s.names.is_empty() {
            String::new()
        } else {
            format!(", {} rooms", s.names.len())
        }
    );
    svg_panel(&mut out, &s, &v, opts, &materials, listed);
    let _ = writeln!(out, "</svg>");
    out
}

/// Room models: one path per room (its outline loops, holes by the even-odd rule), light and
/// under everything else, in a group `id="models"` cut to the map's frame.
fn svg_models(out: &mut String, models: &[MapModel], v: &MapTransform) {
    if models.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        r#"<clipPath id="map-frame"><rect x="0" y="{TITLE_HEIGHT:.1}" width="{:.1}" height="{:.1}"/></clipPath>"#,
        v.width, v.height
    );
    let _ = writeln!(
        out,
        r#"<g id="models" class="models" clip-path="url(#map-frame)" fill="{MODEL_FILL}" fill-opacity="0.16" fill-rule="evenodd" stroke="{MODEL_STROKE}" stroke-opacity="0.55" stroke-width="0.8" stroke-linejoin="round">"#
    );
    for m in models {
        let mut d = String::new();
        for l in &m.loops {
            for (k, p) in l.iter().enumerate() {
                let (x, y) = v.px(*p);
                let _ = write!(d, "{}{x:.1} {y:.1}", if k == 0 { "M" } else { "L" });
            }
            d.push('Z');
        }
        let _ = writeln!(
            out,
            r#"<path class="model" data-room="{}" d="{d}"/>"#,
            escape(&m.room)
        );
    }
    let _ = writeln!(out, "</g>");
}

/// Faces: one path per run of one fill in drawing order (adjacent triangles of one path show
/// no seams, and the file stays small).
fn svg_faces(out: &mut String, s: &Scene, v: &MapTransform) {
    let _ = writeln!(out, r#"<g stroke-linejoin="round">"#);
    let mut i = 0;
    while i < s.tris.len() {
        let m = s.tris[i].1;
        let mut d = String::new();
        while i < s.tris.len() && s.tris[i].1 == m {
            let t = &s.tris[i].0;
            for (k, p) in t.iter().enumerate() {
                let (x, y) = v.px(*p);
                let _ = write!(d, "{}{x:.1} {y:.1}", if k == 0 { "M" } else { "L" });
            }
            d.push('Z');
            i += 1;
        }
        let c = material_colour(m);
        let (fill, op) = if m.is_walkable() {
            (format!("rgb({},{},{})", c[0], c[1], c[2]), 1.0)
        } else {
            ("rgb(120,120,120)".to_string(), 0.45)
        };
        let _ = writeln!(
            out,
            r#"<path class="faces" data-material="{}" d="{d}" fill="{fill}" fill-opacity="{op}" stroke="{fill}" stroke-opacity="{op}" stroke-width="0.3"/>"#,
            m.name()
        );
    }
    let _ = writeln!(out, "</g>");
}

fn segments(v: &MapTransform, segs: &[([f32; 2], [f32; 2])]) -> String {
    let mut d = String::new();
    for (a, b) in segs {
        let (x1, y1) = v.px(*a);
        let (x2, y2) = v.px(*b);
        let _ = write!(d, "M{x1:.1} {y1:.1}L{x2:.1} {y2:.1}");
    }
    d
}

fn svg_edges(out: &mut String, s: &Scene, v: &MapTransform) {
    if !s.edges.is_empty() {
        let _ = writeln!(
            out,
            r##"<path class="edges" d="{}" fill="none" stroke="#202020" stroke-width="1.2" stroke-linecap="round"/>"##,
            segments(v, &s.edges)
        );
    }
    if !s.transitions.is_empty() {
        let _ = writeln!(
            out,
            r##"<path class="transitions" d="{}" fill="none" stroke="#ff7f00" stroke-width="3" stroke-linecap="round"/>"##,
            segments(v, &s.transitions)
        );
    }
}

/// The legend, the scale bar and the findings list, right of the map.
fn svg_panel(
    out: &mut String,
    s: &Scene,
    v: &MapTransform,
    opts: &RenderOptions,
    materials: &[Material],
    listed: usize,
) {
    let x0 = v.panel_x() + 8.0;
    let mut y = TITLE_HEIGHT + 20.0;
    let _ = writeln!(out, r##"<g class="legend" font-size="12" fill="#000000">"##);
    let _ = writeln!(
        out,
        r#"<text x="{x0:.1}" y="{y:.1}" font-weight="bold">Legend</text>"#
    );
    y += 8.0;
    let row = |out: &mut String, y: f32, swatch: String, label: &str| {
        let _ = writeln!(
            out,
            r#"{swatch}<text x="{:.1}" y="{:.1}">{}</text>"#,
            x0 + 26.0,
            y + 11.0,
            escape(label)
        );
    };
    for m in materials {
        let c = material_colour(*m);
        let (fill, op) = if m.is_walkable() {
            (format!("rgb({},{},{})", c[0], c[1], c[2]), 1.0)
        } else {
            ("rgb(120,120,120)".to_string(), 0.45)
        };
        let swatch = format!(
            r##"<rect x="{x0:.1}" y="{y:.1}" width="18" height="13" fill="{fill}" fill-opacity="{op}" stroke="#606060" stroke-width="0.5"/>"##
        );
        let label = format!(
            "{} ({})",
            m.name(),
            if m.is_walkable() {
                "walkable"
            } else {
                "not walkable"
            }
        );
        row(out, y, swatch, &label);
        y += 18.0;
    }
    let line = |y: f32, colour: &str, w: f32| {
        format!(
            r#"<line x1="{x0:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="{w}"/>"#,
            y + 7.0,
            x0 + 18.0,
            y + 7.0
        )
    };
    row(out, y, line(y, "#202020", 1.2), "boundary edge");
    y += 18.0;
    row(
        out,
        y,
        line(y, "#ff7f00", 3.0),
        "transition \u{2192} target room",
    );
    y += 18.0;
    if !s.objects.is_empty() {
        let sw = format!(
            r##"<rect x="{x0:.1}" y="{y:.1}" width="18" height="13" fill="#8b1a1a" fill-opacity="0.55" stroke="#5a0000" stroke-width="0.8"/>"##
        );
        row(out, y, sw, "placed object");
        y += 18.0;
    }
    if !s.cutters.is_empty() {
        let sw = format!(
            r##"<rect x="{x0:.1}" y="{y:.1}" width="18" height="13" fill="none" stroke="{CUTTER_STROKE}" stroke-width="1.5" stroke-dasharray="4 3"/>"##
        );
        row(out, y, sw, "walkmesh cutter (GIT)");
        y += 18.0;
    }
    if !s.paths.is_empty() {
        row(
            out,
            y,
            line(y, "#1060e0", 3.0),
            "path (green start, red end)",
        );
        y += 18.0;
    }
    if !opts.models.is_empty() {
        let sw = format!(
            r##"<rect x="{x0:.1}" y="{y:.1}" width="18" height="13" fill="{MODEL_FILL}" fill-opacity="0.16" stroke="{MODEL_STROKE}" stroke-opacity="0.55" stroke-width="0.8"/>"##
        );
        row(out, y, sw, "room model (top-down outline)");
        y += 18.0;
    }
    // Scale bar: a nice length of at most the panel's width.
    y += 16.0;
    let metres = nice_length((PANEL_WIDTH - 40.0) / v.scale.max(1e-6));
    let len = metres * v.scale;
    let _ = writeln!(
        out,
        r##"<g class="scale"><text x="{x0:.1}" y="{y:.1}" font-weight="bold">Scale</text><path d="M{x0:.1} {:.1}v6h{len:.1}v-6" fill="none" stroke="#000000" stroke-width="1.5"/><text x="{:.1}" y="{:.1}">{} m</text></g>"##,
        y + 10.0,
        x0 + len + 6.0,
        y + 18.0,
        metres
    );
    y += 44.0;
    if !opts.findings.is_empty() {
        let _ = writeln!(
            out,
            r#"<text x="{x0:.1}" y="{y:.1}" font-weight="bold">Findings ({})</text>"#,
            opts.findings.len()
        );
        y += 16.0;
        for (n, (_, f)) in opts.findings.iter().enumerate().take(listed) {
            let colour = if f.severity == areakit_formats::Severity::Error {
                "#c00000"
            } else {
                "#800080"
            };
            let _ = writeln!(
                out,
                r#"<text class="finding-item" x="{x0:.1}" y="{y:.1}" font-size="10" fill="{colour}">{}. {}</text>"#,
                n + 1,
                escape(&clip(&format!("{}: {}", f.code, f.message), 38))
            );
            y += 15.0;
        }
        if opts.findings.len() > listed {
            let _ = writeln!(
                out,
                r#"<text x="{x0:.1}" y="{y:.1}" font-size="10">… and {} more</text>"#,
                opts.findings.len() - listed
            );
        }
    }
    let _ = writeln!(out, "</g>");
}

/// Placed objects (dark red footprints with their labels), walkmesh cutters (dashed outlines)
/// and paths (blue lines from a green start to a red end).
fn svg_overlays(out: &mut String, s: &Scene, v: &MapTransform) {
    let pts = |ps: &[[f32; 2]]| -> String {
        ps.iter()
            .map(|p| {
                let (x, y) = v.px(*p);
                format!("{x:.1},{y:.1}")
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    for (tris, label) in &s.objects {
        let _ = writeln!(out, r#"<g class="object"><title>{}</title>"#, escape(label));
        for t in tris {
            let _ = writeln!(
                out,
                r##"<polygon points="{}" fill="#8b1a1a" fill-opacity="0.55" stroke="#5a0000" stroke-width="0.8"/>"##,
                pts(t)
            );
        }
        let _ = writeln!(out, "</g>");
    }
    for (ring, label) in &s.cutters {
        let _ = writeln!(
            out,
            r##"<g class="cutter"><title>{}</title><polygon points="{}" fill="{CUTTER_STROKE}" fill-opacity="0.08" stroke="{CUTTER_STROKE}" stroke-width="1.5" stroke-dasharray="4 3"/></g>"##,
            escape(label),
            pts(ring)
        );
    }
    for path in &s.paths {
        let (Some(first), Some(last)) = (path.first(), path.last()) else {
            continue;
        };
        let _ = writeln!(
            out,
            r##"<polyline class="path" points="{}" fill="none" stroke="#1060e0" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"/>"##,
            pts(path)
        );
        for (p, colour) in [(first, "#10a010"), (last, "#e01010")] {
            let (x, y) = v.px(*p);
            let _ = writeln!(
                out,
                r##"<circle cx="{x:.1}" cy="{y:.1}" r="5" fill="{colour}" stroke="#ffffff" stroke-width="1.5"/>"##
            );
        }
    }
}

/// The fonts the PNG draws text with: the embedded DejaVu Sans subset (no system fonts, so a
/// picture looks the same on every machine).
fn font_database() -> std::sync::Arc<resvg::usvg::fontdb::Database> {
    static DB: std::sync::OnceLock<std::sync::Arc<resvg::usvg::fontdb::Database>> =
        std::sync::OnceLock::new();
    DB.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_font_data(include_bytes!("../assets/fonts/DejaVuSans-subset.ttf").to_vec());
        db.load_font_data(include_bytes!("../assets/fonts/DejaVuSans-Bold-subset.ttf").to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        std::sync::Arc::new(db)
    })
    .clone()
}

/// Draws an SVG (as [`render_svg`] writes them) to a PNG with the embedded font.
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, RenderError> {
    use resvg::{tiny_skia, usvg};
    let opts = usvg::Options {
        font_family: "DejaVu Sans".to_string(),
        fontdb: font_database(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opts)
        .map_err(|e| RenderError(format!("cannot read the drawn SVG: {e}")))?;
    let size = tree.size().to_int_size();
    let (w, h) = (size.width(), size.height());
    let mut pm = tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| RenderError(format!("cannot make a {w}x{h} image")))?;
    resvg::render(&tree, tiny_skia::Transform::identity(), &mut pm.as_mut());
    pm.encode_png()
        .map_err(|e| RenderError(format!("PNG encoding failed: {e}")))
}

/// A PNG map of one or more rooms: [`render_svg`]'s picture, drawn.
pub fn render_png(rooms: &[MapRoom<'_>], opts: &RenderOptions) -> Result<Vec<u8>, RenderError> {
    svg_to_png(&render_svg(rooms, opts))
}

/// `areakit render FILE -o OUT.svg [--findings]` for one walkmesh.
pub fn render_bwm_svg(bwm: &Bwm, findings: &[Finding]) -> String {
    render_svg(&single(bwm), &single_opts(findings))
}

/// `areakit render FILE -o OUT.png [--findings]` for one walkmesh.
pub fn render_bwm_png(bwm: &Bwm, findings: &[Finding]) -> Result<Vec<u8>, RenderError> {
    render_png(&single(bwm), &single_opts(findings))
}

fn single(bwm: &Bwm) -> [MapRoom<'_>; 1] {
    [MapRoom {
        name: None,
        offset: [0.0; 3],
        bwm,
    }]
}

fn single_opts(findings: &[Finding]) -> RenderOptions {
    RenderOptions {
        findings: findings.iter().cloned().map(|f| (0, f)).collect(),
        ..RenderOptions::default()
    }
}
