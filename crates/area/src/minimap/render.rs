//! Drawing the minimap and computing its map block.

use areakit_formats::gff::views::AreMap;

use super::{
    KIT_PIXELS_PER_UNIT, Minimap, MinimapError, MinimapOptions, MinimapRoom, PlacedImage,
    SIZE_RANGE, is_background, walkable_triangles,
};

/// The ground colour (the kit images' own grey).
pub const GROUND: [u8; 3] = [120, 120, 120];

/// The colour of the ground's outline, one pixel inside its edge.
pub const RIM: [u8; 3] = [176, 176, 176];

/// Subsamples per pixel side.
const SUB: usize = 3;

/// World units per fog-of-war cell the `MapResX` written aims at: Taris' m02aa has 24 cells
/// over the 137 units its map spans, m10aa 32 over 177 (`docs/minimap.md`).
const UNITS_PER_FOG_CELL: f64 = 5.6;

/// A view: world ↔ pixels for one `NorthAxis`.
#[derive(Debug, Clone, Copy)]
struct View {
    axis: i32,
    /// Pixels per world unit.
    scale: f64,
    /// The screen coordinates of the bounds' minimum corner.
    smin: [f64; 2],
    /// The pixel where `smin` lands.
    offset: [f64; 2],
}

/// World `(x, y)` in screen axes (right, down) for a `NorthAxis`.
fn to_screen(axis: i32, x: f64, y: f64) -> [f64; 2] {
    match axis {
        1 => [-x, y],
        2 => [-y, -x],
        3 => [y, x],
        _ => [x, -y],
    }
}

/// The inverse of [`to_screen`].
fn from_screen(axis: i32, s: [f64; 2]) -> [f64; 2] {
    match axis {
        1 => [-s[0], s[1]],
        2 => [-s[1], -s[0]],
        3 => [s[1], s[0]],
        _ => [s[0], -s[1]],
    }
}

impl View {
    fn pixel(&self, x: f64, y: f64) -> [f64; 2] {
        let s = to_screen(self.axis, x, y);
        [
            self.offset[0] + (s[0] - self.smin[0]) * self.scale,
            self.offset[1] + (s[1] - self.smin[1]) * self.scale,
        ]
    }

    fn world(&self, px: f64, py: f64) -> [f64; 2] {
        from_screen(
            self.axis,
            [
                self.smin[0] + (px - self.offset[0]) / self.scale,
                self.smin[1] + (py - self.offset[1]) / self.scale,
            ],
        )
    }
}

/// The view of `bounds` for `axis` in a map `mw` x `h` pixels with `margin`.
fn view_for(axis: i32, bounds: [[f64; 2]; 2], mw: f64, h: f64, margin: f64, max_ppu: f64) -> View {
    let corners = [
        to_screen(axis, bounds[0][0], bounds[0][1]),
        to_screen(axis, bounds[1][0], bounds[1][1]),
    ];
    let smin = [
        corners[0][0].min(corners[1][0]),
        corners[0][1].min(corners[1][1]),
    ];
    let size = [
        (corners[0][0] - corners[1][0]).abs(),
        (corners[0][1] - corners[1][1]).abs(),
    ];
    let scale = ((mw - 2.0 * margin) / size[0])
        .min((h - 2.0 * margin) / size[1])
        .min(max_ppu)
        .max(1e-6);
    View {
        axis,
        scale,
        smin,
        offset: [(mw - size[0] * scale) / 2.0, (h - size[1] * scale) / 2.0],
    }
}

/// A room image's placement: image pixel ↔ area space.
struct Placement<'a> {
    p: &'a PlacedImage<'a>,
    cos: f64,
    sin: f64,
}

impl<'a> Placement<'a> {
    fn new(p: &'a PlacedImage<'a>) -> Self {
        let a = f64::from(p.rotation_deg).to_radians();
        Placement {
            p,
            cos: a.cos(),
            sin: a.sin(),
        }
    }

    /// Image pixel coordinates (from its top-left corner) to area space.
    fn to_world(&self, ix: f64, iy: f64) -> [f64; 2] {
        let ppu = f64::from(KIT_PIXELS_PER_UNIT);
        let mut c = [
            (ix - f64::from(self.p.image.width) / 2.0) / ppu,
            (f64::from(self.p.image.height) / 2.0 - iy) / ppu,
        ];
        if self.p.flip_x {
            c[0] = -c[0];
        }
        if self.p.flip_y {
            c[1] = -c[1];
        }
        [
            f64::from(self.p.position[0]) + c[0] * self.cos - c[1] * self.sin,
            f64::from(self.p.position[1]) + c[0] * self.sin + c[1] * self.cos,
        ]
    }

    /// The image pixel under area-space point `w`, if it is on the image.
    fn pixel(&self, w: [f64; 2]) -> Option<&'a [u8]> {
        let d = [
            w[0] - f64::from(self.p.position[0]),
            w[1] - f64::from(self.p.position[1]),
        ];
        let mut c = [
            d[0] * self.cos + d[1] * self.sin,
            -d[0] * self.sin + d[1] * self.cos,
        ];
        if self.p.flip_x {
            c[0] = -c[0];
        }
        if self.p.flip_y {
            c[1] = -c[1];
        }
        let ppu = f64::from(KIT_PIXELS_PER_UNIT);
        let ix = f64::from(self.p.image.width) / 2.0 + c[0] * ppu;
        let iy = f64::from(self.p.image.height) / 2.0 - c[1] * ppu;
        if !(ix >= 0.0 && iy >= 0.0) {
            return None;
        }
        let (ix, iy) = (ix as usize, iy as usize);
        let (w, h) = (self.p.image.width as usize, self.p.image.height as usize);
        if ix >= w || iy >= h {
            return None;
        }
        let o = (iy * w + ix) * 4;
        self.p.image.rgba.get(o..o + 4)
    }
}

/// A box in image pixels: its minimum and maximum corners.
type PixelBox = ([f64; 2], [f64; 2]);

/// The bounds (in image pixels) of an image's non-background pixels, if any.
fn content_bounds(img: &super::RoomImage) -> Option<PixelBox> {
    let w = img.width as usize;
    let mut lo = [usize::MAX; 2];
    let mut hi = [0usize; 2];
    for (i, px) in img.rgba.chunks_exact(4).enumerate() {
        if !is_background(px) {
            let (x, y) = (i % w.max(1), i / w.max(1));
            lo = [lo[0].min(x), lo[1].min(y)];
            hi = [hi[0].max(x + 1), hi[1].max(y + 1)];
        }
    }
    (lo[0] != usize::MAX).then(|| ([lo[0] as f64, lo[1] as f64], [hi[0] as f64, hi[1] as f64]))
}

/// Draws the minimap of `rooms` and computes its map block (see the module documentation):
/// the ground of every room's walkmesh (walkable faces, [`GROUND`], outlined in [`RIM`]), the
/// rooms' images composed over it, fitted with a margin into the part of the image the game
/// shows, at most `max_pixels_per_unit`.
pub fn render_minimap(
    rooms: &[MinimapRoom<'_>],
    opts: &MinimapOptions,
) -> Result<Minimap, MinimapError> {
    if !SIZE_RANGE.contains(&opts.width) || !SIZE_RANGE.contains(&opts.height) {
        return Err(MinimapError::Size(opts.width, opts.height));
    }
    if let Some(a) = opts.north_axis.filter(|a| !(0..=3).contains(a)) {
        return Err(MinimapError::Option(format!(
            "NorthAxis {a}: expected 0 (+Y up), 1 (-Y up), 2 (+X up) or 3 (-X up)"
        )));
    }
    if !(opts.max_pixels_per_unit.is_finite() && opts.max_pixels_per_unit > 0.0) {
        return Err(MinimapError::Option(format!(
            "{} pixels per unit: expected a positive number",
            opts.max_pixels_per_unit
        )));
    }
    let (w, h) = (opts.width as usize, opts.height as usize);
    let mw = opts.game.map_width(opts.width);
    let margin = f64::from(opts.margin).min(mw / 4.0).min(h as f64 / 4.0);

    // What there is to draw, and its bounds.
    let mut tris: Vec<[[f32; 2]; 3]> = Vec::new();
    let mut placed: Vec<(Placement<'_>, PixelBox)> = Vec::new();
    let (mut from_images, mut from_walkmesh) = (0, 0);
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    let mut grow = |p: [f64; 2]| {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    };
    for room in rooms {
        let own = room.walkmesh.map(walkable_triangles).unwrap_or_default();
        for t in &own {
            t.iter()
                .for_each(|v| grow([f64::from(v[0]), f64::from(v[1])]));
        }
        let image = room.image.as_ref().and_then(|p| {
            let ok = p.position.iter().all(|c| c.is_finite()) && p.rotation_deg.is_finite();
            let bounds = content_bounds(p.image).filter(|_| ok)?;
            Some((Placement::new(p), bounds))
        });
        match image {
            Some((pl, b)) => {
                for (ix, iy) in [
                    (b.0[0], b.0[1]),
                    (b.1[0], b.0[1]),
                    (b.0[0], b.1[1]),
                    (b.1[0], b.1[1]),
                ] {
                    grow(pl.to_world(ix, iy));
                }
                from_images += 1;
                placed.push((pl, b));
            }
            None if !own.is_empty() => from_walkmesh += 1,
            None => {}
        }
        tris.extend(own);
    }
    if tris.is_empty() && placed.is_empty() {
        return Err(MinimapError::NoGround);
    }
    // The world points must differ along both axes: a flat strip gets a unit of depth.
    for k in 0..2 {
        if hi[k] - lo[k] < 1.0 {
            let mid = (hi[k] + lo[k]) / 2.0;
            lo[k] = mid - 0.5;
            hi[k] = mid + 0.5;
        }
    }
    let bounds = [lo, hi];
    let max_ppu = f64::from(opts.max_pixels_per_unit);
    let view = match opts.north_axis {
        Some(a) => view_for(a, bounds, mw, h as f64, margin, max_ppu),
        None => {
            let upright = view_for(0, bounds, mw, h as f64, margin, max_ppu);
            let turned = view_for(3, bounds, mw, h as f64, margin, max_ppu);
            if turned.scale > upright.scale * 1.2 {
                turned
            } else {
                upright
            }
        }
    };

    let ground = rasterize_ground(&tris, &view, w, h);
    let (image_rgb, image_hits) = sample_images(&placed, &view, w, h);
    let rgba = compose(&ground, &image_rgb, &image_hits, (w, h), mw);

    let map = block_of(&view, bounds, mw, h as f64);
    Ok(Minimap {
        width: opts.width,
        height: opts.height,
        rgba,
        map,
        game: opts.game,
        pixels_per_unit: view.scale as f32,
        bounds: [
            [bounds[0][0] as f32, bounds[0][1] as f32],
            [bounds[1][0] as f32, bounds[1][1] as f32],
        ],
        rooms_from_images: from_images,
        rooms_from_walkmesh: from_walkmesh,
    })
}

/// Ground: every pixel a walkable face touches (conservative, so that every point of the
/// ground lands on a ground pixel).
fn rasterize_ground(tris: &[[[f32; 2]; 3]], view: &View, w: usize, h: usize) -> Vec<bool> {
    let mut ground = vec![false; w * h];
    for t in tris {
        let p = t.map(|v| view.pixel(f64::from(v[0]), f64::from(v[1])));
        let x0 = p
            .iter()
            .map(|q| q[0])
            .fold(f64::INFINITY, f64::min)
            .floor()
            .max(0.0);
        let x1 = p
            .iter()
            .map(|q| q[0])
            .fold(f64::NEG_INFINITY, f64::max)
            .floor()
            .min(w as f64 - 1.0);
        let y0 = p
            .iter()
            .map(|q| q[1])
            .fold(f64::INFINITY, f64::min)
            .floor()
            .max(0.0);
        let y1 = p
            .iter()
            .map(|q| q[1])
            .fold(f64::NEG_INFINITY, f64::max)
            .floor()
            .min(h as f64 - 1.0);
        if !(x0 <= x1 && y0 <= y1) {
            continue;
        }
        for py in y0 as usize..=y1 as usize {
            for px in x0 as usize..=x1 as usize {
                if !ground[py * w + px] && touches(&p, px as f64, py as f64) {
                    ground[py * w + px] = true;
                }
            }
        }
    }
    ground
}

/// Images: per pixel, the summed colour of the subsamples on image content, and how many
/// there were (empty without images). Subsamples sit on the closed pixel square, corners
/// included, so that content touching a pixel shows in it (the kit images leave out their
/// ground's edge pixels).
fn sample_images(
    placed: &[(Placement<'_>, PixelBox)],
    view: &View,
    w: usize,
    h: usize,
) -> (Vec<[f32; 3]>, Vec<u8>) {
    let step = 1.0 / (SUB - 1) as f64;

    // Images: the average colour of the subsamples on content, and their share.
    let mut image_rgb = vec![[0f32; 3]; 0];
    let mut image_hits = vec![0u8; 0];
    if !placed.is_empty() {
        image_rgb = vec![[0f32; 3]; w * h];
        image_hits = vec![0u8; w * h];
    }
    for (pl, b) in placed {
        let corners = [
            (b.0[0], b.0[1]),
            (b.1[0], b.0[1]),
            (b.0[0], b.1[1]),
            (b.1[0], b.1[1]),
        ]
        .map(|(ix, iy)| {
            let wpt = pl.to_world(ix, iy);
            view.pixel(wpt[0], wpt[1])
        });
        let x0 = corners
            .iter()
            .map(|q| q[0])
            .fold(f64::INFINITY, f64::min)
            .floor()
            .max(0.0);
        let x1 = corners
            .iter()
            .map(|q| q[0])
            .fold(f64::NEG_INFINITY, f64::max)
            .ceil()
            .min(w as f64);
        let y0 = corners
            .iter()
            .map(|q| q[1])
            .fold(f64::INFINITY, f64::min)
            .floor()
            .max(0.0);
        let y1 = corners
            .iter()
            .map(|q| q[1])
            .fold(f64::NEG_INFINITY, f64::max)
            .ceil()
            .min(h as f64);
        if !(x0 < x1 && y0 < y1) {
            continue;
        }
        for py in y0 as usize..y1 as usize {
            for px in x0 as usize..x1 as usize {
                let i = py * w + px;
                for sy in 0..SUB {
                    for sx in 0..SUB {
                        let wpt =
                            view.world(px as f64 + sx as f64 * step, py as f64 + sy as f64 * step);
                        if let Some(src) = pl.pixel(wpt).filter(|s| !is_background(s)) {
                            for k in 0..3 {
                                image_rgb[i][k] += f32::from(src[k]);
                            }
                            image_hits[i] = image_hits[i].saturating_add(1);
                        }
                    }
                }
            }
        }
    }
    (image_rgb, image_hits)
}

/// Compose: ground (opaque wherever a subsample is on it), then the images over it, then the
/// rim on ground pixels next to background; nothing beyond the map's width `mw`.
fn compose(
    ground: &[bool],
    image_rgb: &[[f32; 3]],
    image_hits: &[u8],
    (w, h): (usize, usize),
    mw: f64,
) -> Vec<u8> {
    let mut rgba = vec![0u8; w * h * 4];
    let mut rim_ok = vec![false; w * h];
    let full = (SUB * SUB) as f32;
    let in_map = |px: usize| (px as f64) < mw;
    for i in 0..w * h {
        let px = &mut rgba[i * 4..i * 4 + 4];
        if ground[i] && in_map(i % w) {
            px.copy_from_slice(&[GROUND[0], GROUND[1], GROUND[2], 255]);
            rim_ok[i] = true;
        }
        let n = image_hits.get(i).copied().unwrap_or(0);
        if n > 0 && in_map(i % w) {
            let a = (f32::from(n) / full).min(1.0);
            let c = image_rgb[i].map(|s| s / f32::from(n));
            let base_a = f32::from(px[3]) / 255.0;
            for k in 0..3 {
                let under = f32::from(px[k]) * base_a;
                px[k] = (c[k] * a + under * (1.0 - a)).round().clamp(0.0, 255.0) as u8;
            }
            px[3] = ((a + base_a * (1.0 - a)) * 255.0).round().clamp(1.0, 255.0) as u8;
            rim_ok[i] = false;
        }
    }
    // The rim: ground pixels (no image over them) next to background.
    let mut rim = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if !rim_ok[i] {
                continue;
            }
            let bg = |xx: usize, yy: usize| rgba[(yy * w + xx) * 4 + 3] == 0;
            let edge = x == 0
                || y == 0
                || x + 1 == w
                || y + 1 == h
                || bg(x - 1, y)
                || bg(x + 1, y)
                || bg(x, y - 1)
                || bg(x, y + 1);
            if edge {
                rim.push(i);
            }
        }
    }
    for i in rim {
        rgba[i * 4..i * 4 + 3].copy_from_slice(&RIM);
    }
    rgba
}

/// Whether the triangle `t` (pixel coordinates) meets the closed pixel square at `(px, py)`:
/// no separating axis among the square's two and the triangle's three edge normals.
fn touches(t: &[[f64; 2]; 3], px: f64, py: f64) -> bool {
    const EPS: f64 = 1e-9;
    let sq = [
        [px, py],
        [px + 1.0, py],
        [px, py + 1.0],
        [px + 1.0, py + 1.0],
    ];
    let (tx0, tx1) = (
        t.iter().map(|q| q[0]).fold(f64::INFINITY, f64::min),
        t.iter().map(|q| q[0]).fold(f64::NEG_INFINITY, f64::max),
    );
    let (ty0, ty1) = (
        t.iter().map(|q| q[1]).fold(f64::INFINITY, f64::min),
        t.iter().map(|q| q[1]).fold(f64::NEG_INFINITY, f64::max),
    );
    if tx1 < px - EPS || tx0 > px + 1.0 + EPS || ty1 < py - EPS || ty0 > py + 1.0 + EPS {
        return false;
    }
    for k in 0..3 {
        let (a, b) = (t[k], t[(k + 1) % 3]);
        let n = [b[1] - a[1], a[0] - b[0]];
        let proj = |q: [f64; 2]| n[0] * q[0] + n[1] * q[1];
        let (s0, s1) = sq
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &q| {
                (lo.min(proj(q)), hi.max(proj(q)))
            });
        let (t0, t1) = t
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &q| {
                (lo.min(proj(q)), hi.max(proj(q)))
            });
        let tol = EPS * (n[0].abs() + n[1].abs()).max(1.0);
        if s1 < t0 - tol || t1 < s0 - tol {
            return false;
        }
    }
    true
}

/// The map block of a view: the bounds' corners as the world points, where they land as the
/// map points.
fn block_of(view: &View, bounds: [[f64; 2]; 2], mw: f64, h: f64) -> AreMap {
    let frac = |x: f64, y: f64| {
        let p = view.pixel(x, y);
        [(p[0] / mw) as f32, (p[1] / h) as f32]
    };
    let (w1, w2) = (bounds[0], bounds[1]);
    let across = mw / view.scale;
    let res_x = (across / UNITS_PER_FOG_CELL).round().clamp(1.0, 64.0) as i32;
    AreMap {
        map_pt1: Some(frac(w1[0], w1[1])),
        map_pt2: Some(frac(w2[0], w2[1])),
        world_pt1: Some([w1[0] as f32, w1[1] as f32]),
        world_pt2: Some([w2[0] as f32, w2[1] as f32]),
        north_axis: Some(view.axis),
        map_zoom: Some(1),
        map_res_x: Some(res_x),
    }
}
