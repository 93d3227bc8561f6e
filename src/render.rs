//! Top-down maps of walkmeshes: SVG (hand-written) and PNG (tiny-skia).
//!
//! Faces are filled by material (walkable faces in colour, higher faces drawn over lower
//! ones; non-walkable faces in translucent grey), boundary edges of the walkable surface are
//! dark lines, transition edges thick orange lines labelled with the target room, room names
//! label areas, and findings with a position are red rings. Placed objects are dark red
//! footprints and paths blue lines from a green start to a red end. The PNG has no font:
//! transition labels are drawn with a built-in digit font and room names are left out.

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
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            size: 1024,
            findings: Vec::new(),
            objects: Vec::new(),
            paths: Vec::new(),
        }
    }
}

/// Why a PNG could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderError(pub String);

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RenderError {}

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

/// A filled face: corners xy, colour, walkable, mean z.
type Tri = ([[f32; 2]; 3], [u8; 3], bool, f32);

/// Primitives in world space.
struct Scene {
    tris: Vec<Tri>,
    /// (a, b, transition)
    edges: Vec<([f32; 2], [f32; 2], i32)>,
    /// (position, text)
    names: Vec<([f32; 2], String)>,
    /// (position, error?, code)
    marks: Vec<([f32; 2], bool, &'static str)>,
    /// Object footprints (triangles in plan) and their labels.
    objects: Vec<(Vec<[[f32; 2]; 3]>, String)>,
    /// Path polylines in plan.
    paths: Vec<Vec<[f32; 2]>>,
    min: [f32; 2],
    max: [f32; 2],
}

fn scene(rooms: &[MapRoom<'_>], opts: &RenderOptions) -> Scene {
    let mut s = Scene {
        tris: Vec::new(),
        edges: Vec::new(),
        names: Vec::new(),
        marks: Vec::new(),
        objects: Vec::new(),
        paths: Vec::new(),
        min: [f32::INFINITY; 2],
        max: [f32::NEG_INFINITY; 2],
    };
    let plan = |p: [f32; 3]| [p[0], p[1]];
    for room in rooms {
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
            let (Some(a), Some(c), Some(d)) =
                (p(f.vertices[0]), p(f.vertices[1]), p(f.vertices[2]))
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
                material_colour(f.material),
                f.material.is_walkable(),
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
                    s.edges.push(([a[0], a[1]], [c[0], c[1]], e.transition));
                }
            }
        }
        for (fi, adj) in b.adjacency.iter().enumerate() {
            for (k, &a) in adj.iter().enumerate() {
                let code = (fi * 3 + k) as u32;
                if a == -1
                    && !listed.contains(&code)
                    && let Some(f) = b.faces.get(fi)
                    && let (Some(x), Some(y)) = (p(f.vertices[k]), p(f.vertices[(k + 1) % 3]))
                {
                    s.edges.push(([x[0], x[1]], [y[0], y[1]], -1));
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
    for (ri, f) in &opts.findings {
        if let (Some(p), Some(room)) = (f.place.position, rooms.get(*ri)) {
            s.marks.push((
                [p[0] + room.offset[0], p[1] + room.offset[1]],
                f.severity == areakit_formats::Severity::Error,
                f.code,
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
    for path in &opts.paths {
        let pts: Vec<[f32; 2]> = path.iter().copied().map(plan).collect();
        for p in &pts {
            widen(&mut s, *p);
        }
        s.paths.push(pts);
    }
    // Non-walkable first, then walkable from low to high.
    s.tris
        .sort_by(|a, b| a.2.cmp(&b.2).then(a.3.total_cmp(&b.3)));
    if !s.min[0].is_finite() {
        s.min = [0.0; 2];
        s.max = [1.0; 2];
    }
    s
}

/// World to pixel mapping.
struct View {
    scale: f32,
    min: [f32; 2],
    height: f32,
    margin: f32,
    width: f32,
}

impl View {
    fn new(s: &Scene, size: u32) -> Self {
        let margin = 16.0;
        let ext = [
            (s.max[0] - s.min[0]).max(1e-3),
            (s.max[1] - s.min[1]).max(1e-3),
        ];
        let inner = (size.max(64) as f32) - 2.0 * margin;
        let scale = inner / ext[0].max(ext[1]);
        View {
            scale,
            min: s.min,
            width: ext[0] * scale + 2.0 * margin,
            height: ext[1] * scale + 2.0 * margin,
            margin,
        }
    }

    fn px(&self, p: [f32; 2]) -> (f32, f32) {
        (
            self.margin + (p[0] - self.min[0]) * self.scale,
            self.height - self.margin - (p[1] - self.min[1]) * self.scale,
        )
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An SVG map of one or more rooms.
pub fn render_svg(rooms: &[MapRoom<'_>], opts: &RenderOptions) -> String {
    let s = scene(rooms, opts);
    let v = View::new(&s, opts.size);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" viewBox="0 0 {:.1} {:.1}">"#,
        v.width, v.height, v.width, v.height
    );
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#ffffff"/>"##
    );
    let _ = writeln!(out, r#"<g stroke-linejoin="round">"#);
    for (t, c, walk, _) in &s.tris {
        let pts: Vec<String> = t
            .iter()
            .map(|p| {
                let (x, y) = v.px(*p);
                format!("{x:.2},{y:.2}")
            })
            .collect();
        let (fill, op) = if *walk {
            (format!("rgb({},{},{})", c[0], c[1], c[2]), 1.0)
        } else {
            ("rgb(120,120,120)".to_string(), 0.45)
        };
        let _ = writeln!(
            out,
            r#"<polygon points="{}" fill="{fill}" fill-opacity="{op}" stroke="{fill}" stroke-width="0.3"/>"#,
            pts.join(" ")
        );
    }
    let _ = writeln!(out, "</g>");
    let _ = writeln!(out, r#"<g stroke-linecap="round">"#);
    for (a, b, t) in &s.edges {
        let (x1, y1) = v.px(*a);
        let (x2, y2) = v.px(*b);
        if *t >= 0 {
            let _ = writeln!(
                out,
                r##"<line x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="#ff7f00" stroke-width="3"/>"##
            );
        } else {
            let _ = writeln!(
                out,
                r##"<line x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="#202020" stroke-width="1.2"/>"##
            );
        }
    }
    let _ = writeln!(out, "</g>");
    let _ = writeln!(
        out,
        r#"<g font-family="sans-serif" font-size="11" text-anchor="middle">"#
    );
    for (a, b, t) in &s.edges {
        if *t >= 0 {
            let (x1, y1) = v.px(*a);
            let (x2, y2) = v.px(*b);
            let _ = writeln!(
                out,
                r##"<text x="{:.2}" y="{:.2}" fill="#a04000" stroke="#ffffff" stroke-width="2.5" paint-order="stroke">{t}</text>"##,
                (x1 + x2) / 2.0,
                (y1 + y2) / 2.0 - 3.0
            );
        }
    }
    for (p, name) in &s.names {
        let (x, y) = v.px(*p);
        let _ = writeln!(
            out,
            r##"<text x="{x:.2}" y="{y:.2}" font-size="14" font-weight="bold" fill="#000000" stroke="#ffffff" stroke-width="3" paint-order="stroke">{}</text>"##,
            escape(name)
        );
    }
    let _ = writeln!(out, "</g>");
    svg_overlays(&mut out, &s, &v);
    for (p, err, code) in &s.marks {
        let (x, y) = v.px(*p);
        let colour = if *err { "#e00000" } else { "#e000e0" };
        let _ = writeln!(
            out,
            r#"<circle cx="{x:.2}" cy="{y:.2}" r="6" fill="none" stroke="{colour}" stroke-width="2"><title>{}</title></circle>"#,
            escape(code)
        );
    }
    let _ = writeln!(out, "</svg>");
    out
}

/// Placed objects (dark red footprints with their labels) and paths (blue lines from a green
/// start to a red end).
fn svg_overlays(out: &mut String, s: &Scene, v: &View) {
    let pts = |ps: &[[f32; 2]]| -> String {
        ps.iter()
            .map(|p| {
                let (x, y) = v.px(*p);
                format!("{x:.2},{y:.2}")
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
                r##"<circle cx="{x:.2}" cy="{y:.2}" r="5" fill="{colour}" stroke="#ffffff" stroke-width="1.5"/>"##
            );
        }
    }
}

/// 3x5 digit glyphs (rows top to bottom, 3 bits each), plus '-'.
const DIGITS: [[u8; 5]; 11] = [
    [7, 5, 5, 5, 7],
    [2, 6, 2, 2, 7],
    [7, 1, 7, 4, 7],
    [7, 1, 7, 1, 7],
    [5, 5, 7, 1, 1],
    [7, 4, 7, 1, 7],
    [7, 4, 7, 5, 7],
    [7, 1, 1, 1, 1],
    [7, 5, 7, 5, 7],
    [7, 5, 7, 1, 7],
    [0, 0, 7, 0, 0],
];

/// A PNG map of one or more rooms.
pub fn render_png(rooms: &[MapRoom<'_>], opts: &RenderOptions) -> Result<Vec<u8>, RenderError> {
    use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform as Tf};
    let s = scene(rooms, opts);
    let v = View::new(&s, opts.size);
    let (w, h) = (v.width.ceil() as u32, v.height.ceil() as u32);
    let mut pm = Pixmap::new(w.max(1), h.max(1))
        .ok_or_else(|| RenderError(format!("cannot make a {w}x{h} image")))?;
    pm.fill(Color::WHITE);
    let mut paint = Paint {
        anti_alias: true,
        ..Paint::default()
    };
    for (t, c, walk, _) in &s.tris {
        let mut pb = PathBuilder::new();
        let (x, y) = v.px(t[0]);
        pb.move_to(x, y);
        for p in &t[1..] {
            let (x, y) = v.px(*p);
            pb.line_to(x, y);
        }
        pb.close();
        if let Some(path) = pb.finish() {
            let alpha = if *walk { 255 } else { 115 };
            paint.set_color_rgba8(c[0], c[1], c[2], alpha);
            pm.fill_path(&path, &paint, FillRule::Winding, Tf::identity(), None);
            if *walk {
                let stroke = Stroke {
                    width: 0.4,
                    ..Stroke::default()
                };
                pm.stroke_path(&path, &paint, &stroke, Tf::identity(), None);
            }
        }
    }
    for (a, b, t) in &s.edges {
        let mut pb = PathBuilder::new();
        let (x1, y1) = v.px(*a);
        let (x2, y2) = v.px(*b);
        pb.move_to(x1, y1);
        pb.line_to(x2, y2);
        if let Some(path) = pb.finish() {
            let stroke = Stroke {
                width: if *t >= 0 { 3.0 } else { 1.2 },
                ..Stroke::default()
            };
            if *t >= 0 {
                paint.set_color_rgba8(255, 127, 0, 255);
            } else {
                paint.set_color_rgba8(32, 32, 32, 255);
            }
            pm.stroke_path(&path, &paint, &stroke, Tf::identity(), None);
        }
    }
    // Transition labels with the digit font (2 px per glyph cell).
    paint.anti_alias = false;
    for (a, b, t) in &s.edges {
        if *t < 0 {
            continue;
        }
        let (x1, y1) = v.px(*a);
        let (x2, y2) = v.px(*b);
        let text = t.to_string();
        let cell = 2.0;
        let tw = text.len() as f32 * 4.0 * cell;
        let (mut x, y) = ((x1 + x2) / 2.0 - tw / 2.0, (y1 + y2) / 2.0 - 7.0 * cell);
        if let Some(r) = Rect::from_xywh(x - 1.0, y - 1.0, tw + 2.0, 5.0 * cell + 2.0) {
            paint.set_color_rgba8(255, 255, 255, 220);
            pm.fill_rect(r, &paint, Tf::identity(), None);
        }
        paint.set_color_rgba8(160, 64, 0, 255);
        for ch in text.chars() {
            let g = match ch {
                '0'..='9' => DIGITS[(ch as u8 - b'0') as usize],
                _ => DIGITS[10],
            };
            for (row, bits) in g.iter().enumerate() {
                for col in 0..3 {
                    if bits & (4 >> col) != 0
                        && let Some(r) = Rect::from_xywh(
                            x + col as f32 * cell,
                            y + row as f32 * cell,
                            cell,
                            cell,
                        )
                    {
                        pm.fill_rect(r, &paint, Tf::identity(), None);
                    }
                }
            }
            x += 4.0 * cell;
        }
    }
    paint.anti_alias = true;
    for (tris, _) in &s.objects {
        for t in tris {
            let mut pb = PathBuilder::new();
            let (x, y) = v.px(t[0]);
            pb.move_to(x, y);
            for p in &t[1..] {
                let (x, y) = v.px(*p);
                pb.line_to(x, y);
            }
            pb.close();
            if let Some(path) = pb.finish() {
                paint.set_color_rgba8(139, 26, 26, 140);
                pm.fill_path(&path, &paint, FillRule::Winding, Tf::identity(), None);
            }
        }
    }
    for path in &s.paths {
        let mut pb = PathBuilder::new();
        for (i, p) in path.iter().enumerate() {
            let (x, y) = v.px(*p);
            if i == 0 {
                pb.move_to(x, y);
            } else {
                pb.line_to(x, y);
            }
        }
        if let Some(line) = pb.finish() {
            paint.set_color_rgba8(16, 96, 224, 255);
            let stroke = Stroke {
                width: 3.0,
                line_join: tiny_skia::LineJoin::Round,
                line_cap: tiny_skia::LineCap::Round,
                ..Stroke::default()
            };
            pm.stroke_path(&line, &paint, &stroke, Tf::identity(), None);
        }
        for (p, rgb) in [(path.first(), [16, 160, 16]), (path.last(), [224, 16, 16])] {
            if let Some(p) = p {
                let (x, y) = v.px(*p);
                if let Some(dot) = PathBuilder::from_circle(x, y, 5.0) {
                    paint.set_color_rgba8(rgb[0], rgb[1], rgb[2], 255);
                    pm.fill_path(&dot, &paint, FillRule::Winding, Tf::identity(), None);
                }
            }
        }
    }
    for (p, err, _) in &s.marks {
        let (x, y) = v.px(*p);
        if let Some(path) = PathBuilder::from_circle(x, y, 6.0) {
            if *err {
                paint.set_color_rgba8(224, 0, 0, 255);
            } else {
                paint.set_color_rgba8(224, 0, 224, 255);
            }
            let stroke = Stroke {
                width: 2.0,
                ..Stroke::default()
            };
            pm.stroke_path(&path, &paint, &stroke, Tf::identity(), None);
        }
    }
    pm.encode_png()
        .map_err(|e| RenderError(format!("PNG encoding failed: {e}")))
}

/// `areakit render FILE -o OUT.svg [--findings]` for one walkmesh.
pub fn render_bwm_svg(bwm: &Bwm, findings: &[Finding]) -> String {
    let opts = RenderOptions {
        findings: findings.iter().cloned().map(|f| (0, f)).collect(),
        ..RenderOptions::default()
    };
    render_svg(
        &[MapRoom {
            name: None,
            offset: [0.0; 3],
            bwm,
        }],
        &opts,
    )
}

/// `areakit render FILE -o OUT.png [--findings]` for one walkmesh.
pub fn render_bwm_png(bwm: &Bwm, findings: &[Finding]) -> Result<Vec<u8>, RenderError> {
    let opts = RenderOptions {
        findings: findings.iter().cloned().map(|f| (0, f)).collect(),
        ..RenderOptions::default()
    };
    render_png(
        &[MapRoom {
            name: None,
            offset: [0.0; 3],
            bwm,
        }],
        &opts,
    )
}
