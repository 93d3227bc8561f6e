//! Game-style minimaps of the walkable ground and the ARE map block that places them
//! (`areakit minimap`, and the map `areakit build` writes).
//!
//! The engine shows an area's map from the texture `lbl_map<module>` and places the player's
//! marker on it through the ARE's `Map` struct: two world points and the map fractions where
//! they stand ([`mapping::world_to_map`]). This module draws such an image — the walkable
//! faces of the rooms, with the minimap images of kit rooms composed over them at the rooms'
//! placements — and computes the block that matches it, so that the marker lands where the
//! player stands ([`render_minimap`]). [`apply_map`] writes the block into an ARE,
//! [`coverage`] measures how much of the ground a block puts on the image, and
//! [`map_findings`] is what `check` says about a block.
//!
//! The math, its sources (reone, KotOR.js, PyKotor/Holocron) and its check against the ARE
//! files of the corpus are in `docs/minimap.md`.

pub mod mapping;
mod render;
#[cfg(test)]
mod tests;

use areakit_formats::bwm::Bwm;
use areakit_formats::gff::views::AreMap;
use areakit_formats::gff::{Gff, Label, Struct, Value};

pub use mapping::{
    Game, K1_MAP_WIDTH, TEXTURE_HEIGHT, TEXTURE_WIDTH, coverage, coverage_in, is_background,
    map_findings, world_to_image, world_to_image_in, world_to_map,
};
pub use render::render_minimap;

/// Pixels per world unit of the kits' per-room minimap images (Holocron kits: the image's
/// centre is the room's origin, `+y` is up; measured on every kit component, `docs/minimap.md`).
pub const KIT_PIXELS_PER_UNIT: f32 = 10.0;

/// The most bytes a room image may take decoded (64 MiB, image-png's own default).
pub const ROOM_IMAGE_LIMIT: usize = 64 << 20;

/// The smallest and largest minimap side in pixels.
pub const SIZE_RANGE: std::ops::RangeInclusive<u32> = 16..=4096;

/// The struct id the game's ARE files give the `Map` struct (57 of the 79 corpus AREs; the
/// others use 0).
pub const MAP_STRUCT_ID: u32 = 14;

/// Why a minimap could not be made or applied.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MinimapError {
    /// The requested image size is out of [`SIZE_RANGE`].
    #[error("minimap size {0}x{1}: expected 16 to 4096 pixels each way")]
    Size(u32, u32),
    /// An option is out of range.
    #[error("{0}")]
    Option(String),
    /// Nothing to draw: no room has walkable faces or a room image with content.
    #[error("nothing to draw: no room has walkable faces or a minimap image")]
    NoGround,
    /// A room image does not decode (or is larger than [`ROOM_IMAGE_LIMIT`]).
    #[error("room minimap image: {0}")]
    Image(String),
    /// The ARE cannot take the map block.
    #[error("ARE: {0}")]
    Are(String),
}

/// A room's minimap image, decoded to RGBA.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes, top row first.
    pub rgba: Vec<u8>,
}

/// Decodes a kit component's minimap PNG (any colour type and depth, to 8-bit RGBA). The
/// decoder may allocate at most [`ROOM_IMAGE_LIMIT`] bytes.
pub fn decode_room_png(bytes: &[u8]) -> Result<RoomImage, MinimapError> {
    let err = |e: png::DecodingError| MinimapError::Image(e.to_string());
    let mut dec = png::Decoder::new_with_limits(
        std::io::Cursor::new(bytes),
        png::Limits {
            bytes: ROOM_IMAGE_LIMIT,
        },
    );
    dec.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = dec.read_info().map_err(err)?;
    let (w, h) = reader.info().size();
    let rgba_len = u64::from(w) * u64::from(h) * 4;
    let size = reader.output_buffer_size();
    match size {
        Some(n) if rgba_len <= ROOM_IMAGE_LIMIT as u64 && n <= ROOM_IMAGE_LIMIT => {}
        _ => {
            return Err(MinimapError::Image(format!(
                "{w}x{h} pixels: more than the limit of {ROOM_IMAGE_LIMIT} bytes decoded"
            )));
        }
    }
    let mut buf = vec![0u8; size.unwrap_or(0)];
    let info = reader.next_frame(&mut buf).map_err(err)?;
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => {
            return Err(MinimapError::Image(
                "an indexed image was not expanded".into(),
            ));
        }
    };
    let (w, h) = (info.width as usize, info.height as usize);
    let mut rgba = Vec::with_capacity(w * h * 4);
    for row in buf.chunks(info.line_size).take(h) {
        for px in row.chunks_exact(channels).take(w) {
            match *px {
                [g] => rgba.extend_from_slice(&[g, g, g, 255]),
                [g, a] => rgba.extend_from_slice(&[g, g, g, a]),
                [r, g, b] => rgba.extend_from_slice(&[r, g, b, 255]),
                [r, g, b, a] => rgba.extend_from_slice(&[r, g, b, a]),
                _ => {}
            }
        }
    }
    if rgba.len() != w * h * 4 {
        return Err(MinimapError::Image(format!(
            "{w}x{h} pixels: the decoded rows are short"
        )));
    }
    Ok(RoomImage {
        width: w as u32,
        height: h as u32,
        rgba,
    })
}

/// A room of the area to draw.
#[derive(Debug, Clone, Copy, Default)]
pub struct MinimapRoom<'a> {
    /// Its walkmesh in area space (KotOR room walkmeshes are stored in area space).
    pub walkmesh: Option<&'a Bwm>,
    /// Its minimap image and where the room stands, when its kit supplies one.
    pub image: Option<PlacedImage<'a>>,
}

/// A kit component's minimap image placed as its room: the image's centre is the component's
/// origin at [`KIT_PIXELS_PER_UNIT`], `+y` up; the component is flipped (`x` → `-x`,
/// `y` → `-y`), then turned `rotation_deg` counter-clockwise about its origin, then moved to
/// `position` — the placement its walkmesh gets.
#[derive(Debug, Clone, Copy)]
pub struct PlacedImage<'a> {
    /// The image.
    pub image: &'a RoomImage,
    /// Where the component's origin stands (area space; `z` unused).
    pub position: [f32; 3],
    /// Counter-clockwise turn in degrees about `+z`.
    pub rotation_deg: f32,
    /// Mirror `x` before turning.
    pub flip_x: bool,
    /// Mirror `y` before turning.
    pub flip_y: bool,
}

/// How the minimap is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MinimapOptions {
    /// Image width in pixels (512: the game's `lbl_map` textures).
    pub width: u32,
    /// Image height in pixels (256).
    pub height: u32,
    /// The game whose map screen shows it ([`Game::K1`]: the map spans the left 440 of 512
    /// pixels).
    pub game: Game,
    /// The `NorthAxis` to draw with (0: `+y` up, 1: `-y` up, 2: `+x` up, 3: `-x` up); `None`:
    /// 0, or 3 when turning the area a quarter turn shows it at least 1.2 times larger.
    pub north_axis: Option<i32>,
    /// The largest scale in pixels per world unit (10: the kit images' own, never magnified).
    pub max_pixels_per_unit: f32,
    /// Margin in pixels kept free around the ground.
    pub margin: u32,
}

impl Default for MinimapOptions {
    fn default() -> Self {
        MinimapOptions {
            width: TEXTURE_WIDTH,
            height: TEXTURE_HEIGHT,
            game: Game::K1,
            north_axis: None,
            max_pixels_per_unit: KIT_PIXELS_PER_UNIT,
            margin: 4,
        }
    }
}

/// A drawn minimap and the map block that places it.
#[derive(Debug, Clone, PartialEq)]
pub struct Minimap {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes of RGBA, top row first; the background is transparent black.
    pub rgba: Vec<u8>,
    /// The ARE map block: every field `Some`.
    pub map: AreMap,
    /// The game it was drawn for.
    pub game: Game,
    /// Pixels per world unit.
    pub pixels_per_unit: f32,
    /// The area-space bounds drawn (`[min, max]` of `x`, `y`).
    pub bounds: [[f32; 2]; 2],
    /// Rooms drawn from their minimap images.
    pub rooms_from_images: usize,
    /// Rooms drawn from their walkable faces alone (no image).
    pub rooms_from_walkmesh: usize,
}

/// The walkable faces of `bwm` (materials walkable in the stock `surfacemat.2da`) in plan,
/// faces naming vertices that do not exist skipped.
pub fn walkable_triangles(bwm: &Bwm) -> Vec<[[f32; 2]; 3]> {
    (0..bwm.faces.len())
        .filter(|&i| bwm.faces[i].material.is_walkable())
        .filter_map(|i| bwm.face_positions(i))
        .filter(|t| t.iter().all(|v| v[0].is_finite() && v[1].is_finite()))
        .map(|t| t.map(|v| [v[0], v[1]]))
        .collect()
}

/// Sample points of the walkable ground of `walkmeshes` (area space, `x`, `y`): the points of a
/// grid `spacing` apart that fall on a walkable face, and every walkable face's centroid (so
/// that faces narrower than the grid count too). The grid widens so that it has at most `max`
/// points.
pub fn walkable_samples(walkmeshes: &[&Bwm], spacing: f32, max: usize) -> Vec<[f32; 2]> {
    let tris: Vec<[[f32; 2]; 3]> = walkmeshes
        .iter()
        .flat_map(|b| walkable_triangles(b))
        .collect();
    samples_of(&tris, spacing, max)
}

/// [`walkable_samples`] over triangles.
pub(crate) fn samples_of(tris: &[[[f32; 2]; 3]], spacing: f32, max: usize) -> Vec<[f32; 2]> {
    let mut out: Vec<[f32; 2]> = tris
        .iter()
        .map(|t| {
            [
                (t[0][0] + t[1][0] + t[2][0]) / 3.0,
                (t[0][1] + t[1][1] + t[2][1]) / 3.0,
            ]
        })
        .collect();
    let area: f64 = tris.iter().map(|t| f64::from(tri_area(t))).sum();
    let mut step = f64::from(spacing.max(1e-3));
    let max = max.max(1) as f64;
    if area / (step * step) > max {
        step = (area / max).sqrt();
    }
    let mut seen = std::collections::HashSet::new();
    for t in tris {
        let (lo, hi) = tri_bounds(t);
        let (i0, i1) = (
            (f64::from(lo[0]) / step).ceil(),
            (f64::from(hi[0]) / step).floor(),
        );
        let (j0, j1) = (
            (f64::from(lo[1]) / step).ceil(),
            (f64::from(hi[1]) / step).floor(),
        );
        if !(i1 - i0 < 1e6 && j1 - j0 < 1e6) {
            continue;
        }
        let mut i = i0;
        while i <= i1 {
            let mut j = j0;
            while j <= j1 {
                let p = [(i * step) as f32, (j * step) as f32];
                if in_triangle(t, p) && seen.insert((i as i64, j as i64)) {
                    out.push(p);
                }
                j += 1.0;
            }
            i += 1.0;
        }
    }
    out
}

fn tri_area(t: &[[f32; 2]; 3]) -> f32 {
    ((t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[2][0] - t[0][0]) * (t[1][1] - t[0][1])).abs()
        / 2.0
}

fn tri_bounds(t: &[[f32; 2]; 3]) -> ([f32; 2], [f32; 2]) {
    let mut lo = t[0];
    let mut hi = t[0];
    for v in &t[1..] {
        for k in 0..2 {
            lo[k] = lo[k].min(v[k]);
            hi[k] = hi[k].max(v[k]);
        }
    }
    (lo, hi)
}

/// Whether `p` is inside the triangle or on its boundary (either winding).
pub(crate) fn in_triangle(t: &[[f32; 2]; 3], p: [f32; 2]) -> bool {
    let edge =
        |a: [f32; 2], b: [f32; 2]| (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    let d = [edge(t[0], t[1]), edge(t[1], t[2]), edge(t[2], t[0])];
    let neg = d.iter().any(|&x| x < 0.0);
    let pos = d.iter().any(|&x| x > 0.0);
    !(neg && pos)
}

/// The labels of the `Map` struct in the game's order, and whether each is an `INT`.
const MAP_FIELDS: [(&str, bool); 11] = [
    ("MapResX", true),
    ("NorthAxis", true),
    ("WorldPt1X", false),
    ("WorldPt1Y", false),
    ("WorldPt2X", false),
    ("WorldPt2Y", false),
    ("MapPt1X", false),
    ("MapPt1Y", false),
    ("MapPt2X", false),
    ("MapPt2Y", false),
    ("MapZoom", true),
];

/// Writes `map` into the `Map` struct of an ARE: each field keeps the type the file gives it
/// (a number of another type is converted; a field of a non-number type is replaced); a
/// missing field is added as the game's files have it (`INT` or `FLOAT`), and a missing `Map`
/// struct is created (struct id [`MAP_STRUCT_ID`], the game's field order). Every field of
/// `map` must be `Some`.
pub fn apply_map(are: &mut Gff, map: &AreMap) -> Result<(), MinimapError> {
    let incomplete = || MinimapError::Are("the map block to write is incomplete".into());
    let (m1, m2) = (
        map.map_pt1.ok_or_else(incomplete)?,
        map.map_pt2.ok_or_else(incomplete)?,
    );
    let (w1, w2) = (
        map.world_pt1.ok_or_else(incomplete)?,
        map.world_pt2.ok_or_else(incomplete)?,
    );
    let values: [f64; 11] = [
        f64::from(map.map_res_x.ok_or_else(incomplete)?),
        f64::from(map.north_axis.ok_or_else(incomplete)?),
        f64::from(w1[0]),
        f64::from(w1[1]),
        f64::from(w2[0]),
        f64::from(w2[1]),
        f64::from(m1[0]),
        f64::from(m1[1]),
        f64::from(m2[0]),
        f64::from(m2[1]),
        f64::from(map.map_zoom.ok_or_else(incomplete)?),
    ];
    let root = are.root_mut();
    match root.get("Map") {
        Some(Value::Struct(_)) => {}
        Some(other) => {
            return Err(MinimapError::Are(format!(
                "its Map field is a {}, not a struct",
                other.type_name()
            )));
        }
        None => {
            let label = Label::new("Map").ok_or_else(|| MinimapError::Are("label Map".into()))?;
            root.push(label, Value::Struct(Box::new(Struct::new(MAP_STRUCT_ID))));
        }
    }
    let Some(s) = root.get_struct_mut("Map") else {
        return Err(MinimapError::Are("its Map struct cannot be edited".into()));
    };
    for ((label, int), v) in MAP_FIELDS.iter().zip(values) {
        put_number(s, label, v, *int)?;
    }
    Ok(())
}

/// Sets a number field keeping its type (see [`apply_map`]).
fn put_number(s: &mut Struct, label: &str, v: f64, int: bool) -> Result<(), MinimapError> {
    let r = v.round();
    let fits = |lo: f64, hi: f64| r >= lo && r <= hi;
    let slot = s.get_mut(label);
    let kept = match slot {
        Some(Value::Float(x)) => {
            *x = v as f32;
            true
        }
        Some(Value::Double(x)) => {
            *x = v;
            true
        }
        Some(Value::Int(x)) if fits(f64::from(i32::MIN), f64::from(i32::MAX)) => {
            *x = r as i32;
            true
        }
        Some(Value::Dword(x)) if fits(0.0, f64::from(u32::MAX)) => {
            *x = r as u32;
            true
        }
        Some(Value::Short(x)) if fits(f64::from(i16::MIN), f64::from(i16::MAX)) => {
            *x = r as i16;
            true
        }
        Some(Value::Word(x)) if fits(0.0, f64::from(u16::MAX)) => {
            *x = r as u16;
            true
        }
        Some(Value::Byte(x)) if fits(0.0, 255.0) => {
            *x = r as u8;
            true
        }
        Some(Value::Char(x)) if fits(-128.0, 127.0) => {
            *x = r as i8;
            true
        }
        Some(Value::Int64(x)) => {
            *x = r as i64;
            true
        }
        Some(Value::Dword64(x)) if r >= 0.0 => {
            *x = r as u64;
            true
        }
        _ => false,
    };
    if !kept {
        let value = if int {
            Value::Int(r as i32)
        } else {
            Value::Float(v as f32)
        };
        let l = Label::new(label).ok_or_else(|| MinimapError::Are(format!("label {label}")))?;
        s.set(l, value);
    }
    Ok(())
}
