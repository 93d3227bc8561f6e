//! The ARE map block as the engine reads it: a world point to map fractions (`u`, `v`), map
//! fractions to the pixels of the `lbl_map` texture, and the checks of a block against the
//! walkable ground (`docs/minimap.md` gives the sources and the corpus evidence).

use areakit_formats::finding::{Finding, Place};
use areakit_formats::gff::views::AreMap;
use serde::Serialize;

/// The game whose map screen reads the image: it decides how many pixels of the texture's
/// width the map fractions span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Game {
    /// KotOR 1: `u` = 0..1 spans the left 440 pixels of a 512-pixel-wide texture
    /// ([`K1_MAP_WIDTH`]); the rest is never shown.
    #[default]
    K1,
    /// KotOR 2: `u` spans the whole width.
    K2,
}

/// The pixels of a 512-pixel-wide `lbl_map` texture that KotOR 1's map fractions span.
pub const K1_MAP_WIDTH: u32 = 440;

/// The texture width [`K1_MAP_WIDTH`] is measured against.
pub const TEXTURE_WIDTH: u32 = 512;

/// The texture height the map screens are made for.
pub const TEXTURE_HEIGHT: u32 = 256;

impl Game {
    /// The width in pixels that `u` = 0..1 spans in an image `width` pixels wide
    /// (KotOR 1: 440/512 of it).
    pub fn map_width(self, width: u32) -> f64 {
        match self {
            Game::K1 => f64::from(width) * f64::from(K1_MAP_WIDTH) / f64::from(TEXTURE_WIDTH),
            Game::K2 => f64::from(width),
        }
    }
}

/// The complete, non-degenerate map block: every field present, `NorthAxis` 0..3 and the
/// two world points apart along both axes. `None` otherwise.
struct Block {
    axis: i32,
    m1: [f64; 2],
    m2: [f64; 2],
    w1: [f64; 2],
    w2: [f64; 2],
}

fn block(map: &AreMap) -> Option<Block> {
    let f = |p: [f32; 2]| [f64::from(p[0]), f64::from(p[1])];
    let b = Block {
        axis: map.north_axis?,
        m1: f(map.map_pt1?),
        m2: f(map.map_pt2?),
        w1: f(map.world_pt1?),
        w2: f(map.world_pt2?),
    };
    let finite = [b.m1, b.m2, b.w1, b.w2]
        .iter()
        .all(|p| p[0].is_finite() && p[1].is_finite());
    let apart = b.w1[0] != b.w2[0] && b.w1[1] != b.w2[1];
    (finite && apart && (0..=3).contains(&b.axis)).then_some(b)
}

/// Where the engine puts world point `p` on the map, as fractions (`u` of the map width,
/// `v` of the height from the top row): the linear map through the block's two point pairs,
/// `x` → `u` and `y` → `v` for `NorthAxis` 0 and 1, `y` → `u` and `x` → `v` for 2 and 3 (the
/// reone and KotOR.js reimplementations; `docs/minimap.md`). `None` when the block is
/// incomplete, its `NorthAxis` is not 0..3 or its world points share an `x` or a `y`.
pub fn world_to_map(map: &AreMap, p: [f32; 2]) -> Option<[f32; 2]> {
    let b = block(map)?;
    let (x, y) = (f64::from(p[0]), f64::from(p[1]));
    let lerp = |t: f64, t1: f64, t2: f64, m1: f64, m2: f64| m1 + (t - t1) * (m2 - m1) / (t2 - t1);
    let (u, v) = if b.axis <= 1 {
        (
            lerp(x, b.w1[0], b.w2[0], b.m1[0], b.m2[0]),
            lerp(y, b.w1[1], b.w2[1], b.m1[1], b.m2[1]),
        )
    } else {
        (
            lerp(y, b.w1[1], b.w2[1], b.m1[0], b.m2[0]),
            lerp(x, b.w1[0], b.w2[0], b.m1[1], b.m2[1]),
        )
    };
    Some([u as f32, v as f32])
}

/// Where KotOR 1 puts world point `p` in a `width` x `height` image: pixel coordinates from
/// the top-left corner ([`world_to_image_in`] with [`Game::K1`]).
pub fn world_to_image(map: &AreMap, width: u32, height: u32, p: [f32; 2]) -> Option<[f32; 2]> {
    world_to_image_in(Game::K1, map, width, height, p)
}

/// Where `game` puts world point `p` in a `width` x `height` image: `u` times the map width
/// ([`Game::map_width`]), `v` times the height, from the top-left corner.
pub fn world_to_image_in(
    game: Game,
    map: &AreMap,
    width: u32,
    height: u32,
    p: [f32; 2],
) -> Option<[f32; 2]> {
    let [u, v] = world_to_map(map, p)?;
    Some([
        (f64::from(u) * game.map_width(width)) as f32,
        (f64::from(v) * f64::from(height)) as f32,
    ])
}

/// Whether an RGBA pixel is background: transparent, or black (every channel at most 8), so
/// that both the transparent background areakit draws and an opaque black one count.
pub fn is_background(px: &[u8]) -> bool {
    match px {
        [r, g, b, a] => *a == 0 || (*r <= 8 && *g <= 8 && *b <= 8),
        _ => true,
    }
}

/// The fraction of `points` (area space `x`, `y`) that KotOR 1's reading of `map` puts on
/// non-background pixels ([`is_background`]) of the `width` x `height` RGBA image
/// ([`coverage_in`] with [`Game::K1`]).
pub fn coverage(map: &AreMap, width: u32, height: u32, rgba: &[u8], points: &[[f32; 2]]) -> f32 {
    coverage_in(Game::K1, map, width, height, rgba, points)
}

/// The fraction of `points` that `game`'s reading of `map` puts on non-background pixels of the
/// image; a point off the image, or a block the engine cannot read, counts as background. 0
/// without points.
pub fn coverage_in(
    game: Game,
    map: &AreMap,
    width: u32,
    height: u32,
    rgba: &[u8],
    points: &[[f32; 2]],
) -> f32 {
    if points.is_empty() {
        return 0.0;
    }
    let (w, h) = (width as usize, height as usize);
    let hits = points
        .iter()
        .filter(|&&p| {
            let Some([x, y]) = world_to_image_in(game, map, width, height, p) else {
                return false;
            };
            if !(x >= 0.0 && y >= 0.0) {
                return false;
            }
            let (ix, iy) = (x as usize, y as usize);
            if ix >= w || iy >= h {
                return false;
            }
            let o = (iy * w + ix) * 4;
            rgba.get(o..o + 4).is_some_and(|px| !is_background(px))
        })
        .count();
    hits as f32 / points.len() as f32
}

/// How many ground samples may fall outside the image before `minimap-ground-outside` is
/// reported: 1% (the world points of the game's own blocks are rounded to 0.1 m).
pub const OUTSIDE_TOLERANCE: f32 = 0.01;

/// The orientation the two point pairs give, as a `NorthAxis`: 0 when `+y` is up (`v` falls
/// as `y` grows) and `+x` right, 1 when turned half a turn, 2 when `+x` is up and `+y` left,
/// 3 when `-x` is up and `+y` right; `None` when the pairs mirror the map (no turn gives them).
fn orientation(b: &Block) -> Option<i32> {
    let du = (b.m2[0] - b.m1[0]).signum();
    let dv = (b.m2[1] - b.m1[1]).signum();
    let dx = (b.w2[0] - b.w1[0]).signum();
    let dy = (b.w2[1] - b.w1[1]).signum();
    // Signs of du/d(world) and dv/d(world) along the axes the block pairs.
    let (su, sv) = if b.axis <= 1 {
        (du * dx, dv * dy)
    } else {
        (du * dy, dv * dx)
    };
    match (b.axis <= 1, su > 0.0, sv > 0.0) {
        (true, true, false) => Some(0),
        (true, false, true) => Some(1),
        (false, false, false) => Some(2),
        (false, true, true) => Some(3),
        _ => None,
    }
}

/// What `check` says about an ARE map block against the area's walkable ground (`walkable`:
/// sample points in area space, e.g. [`super::walkable_samples`]), for a module that has a
/// minimap image (`image_size`, when known, only names pixels in the messages; KotOR 1's
/// reading of a 512x256 texture is assumed otherwise):
///
/// - `minimap-map-incomplete` (warning): a field of the block is missing (the engine reads 0);
/// - `minimap-north-axis-invalid` (warning): `NorthAxis` is not 0..3;
/// - `minimap-map-degenerate` (warning): the world points share an `x` or a `y`: the map
///   position divides by zero;
/// - `minimap-ground-outside` (warning): more than [`OUTSIDE_TOLERANCE`] of the ground maps
///   outside the image (`u` or `v` outside 0..1);
/// - `minimap-north-axis-mismatch` (info): the point pairs turn the map another way than
///   `NorthAxis` says: the marker stands right but its arrow points the wrong way.
///
/// Places carry the item `Map`; the caller adds the ARE's file.
pub fn map_findings(
    map: &AreMap,
    image_size: Option<(u32, u32)>,
    walkable: &[[f32; 2]],
) -> Vec<Finding> {
    let place = || Place::default().item("Map");
    let mut out = Vec::new();
    let missing: Vec<&str> = [
        ("MapPt1X/Y", map.map_pt1.is_none()),
        ("MapPt2X/Y", map.map_pt2.is_none()),
        ("WorldPt1X/Y", map.world_pt1.is_none()),
        ("WorldPt2X/Y", map.world_pt2.is_none()),
        ("NorthAxis", map.north_axis.is_none()),
    ]
    .iter()
    .filter(|(_, m)| *m)
    .map(|(n, _)| *n)
    .collect();
    if !missing.is_empty() {
        out.push(Finding::warning(
            "minimap-map-incomplete",
            place(),
            format!(
                "the ARE's map block lacks {}: the engine reads 0 and cannot place the map marker",
                missing.join(", ")
            ),
        ));
        return out;
    }
    if let Some(axis) = map.north_axis.filter(|a| !(0..=3).contains(a)) {
        out.push(Finding::warning(
            "minimap-north-axis-invalid",
            place(),
            format!("NorthAxis {axis}: expected 0 (+Y up), 1 (-Y up), 2 (+X up) or 3 (-X up)"),
        ));
        return out;
    }
    let Some(b) = block(map) else {
        let (w1, w2) = (
            map.world_pt1.unwrap_or_default(),
            map.world_pt2.unwrap_or_default(),
        );
        out.push(Finding::warning(
            "minimap-map-degenerate",
            place(),
            format!(
                "the map block's world points ({}, {}) and ({}, {}) share an x or a y (or are not numbers): the engine divides by zero placing the map marker",
                w1[0], w1[1], w2[0], w2[1]
            ),
        ));
        return out;
    };
    if !walkable.is_empty() {
        let mut outside = 0usize;
        let mut lo = [f32::INFINITY; 2];
        let mut hi = [f32::NEG_INFINITY; 2];
        let (mut umin, mut umax, mut vmin, mut vmax) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
        for &p in walkable {
            let Some([u, v]) = world_to_map(map, p) else {
                continue;
            };
            umin = umin.min(u);
            umax = umax.max(u);
            vmin = vmin.min(v);
            vmax = vmax.max(v);
            if !((0.0..=1.0).contains(&u) && (0.0..=1.0).contains(&v)) {
                outside += 1;
                for k in 0..2 {
                    lo[k] = lo[k].min(p[k]);
                    hi[k] = hi[k].max(p[k]);
                }
            }
        }
        let share = outside as f32 / walkable.len() as f32;
        if share > OUTSIDE_TOLERANCE {
            let pixels = match image_size {
                Some((w, h)) => format!(" of the {w}x{h} image"),
                None => String::new(),
            };
            out.push(Finding::warning(
                "minimap-ground-outside",
                place().position([(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0, 0.0]),
                format!(
                    "the ARE's map block puts {:.1}% of the walkable ground ({outside} of {} samples, x {:.1}..{:.1}, y {:.1}..{:.1}) outside the map{pixels}: the ground spans u {umin:.3}..{umax:.3}, v {vmin:.3}..{vmax:.3} (the map is 0..1); the marker leaves the map there",
                    share * 100.0,
                    walkable.len(),
                    lo[0],
                    hi[0],
                    lo[1],
                    hi[1]
                ),
            ));
        }
    }
    if orientation(&b) != Some(b.axis) {
        let turned = match orientation(&b) {
            Some(0) => "+Y up",
            Some(1) => "-Y up",
            Some(2) => "+X up",
            Some(3) => "-X up",
            _ => "a mirror image",
        };
        out.push(Finding::info(
            "minimap-north-axis-mismatch",
            place(),
            format!(
                "NorthAxis {} but the map points draw the area {turned}: the marker stands right, its arrow turns as NorthAxis says",
                b.axis
            ),
        ));
    }
    out
}
