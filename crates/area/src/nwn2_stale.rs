//! Whether an NWN2 TRX still matches the terrain and GIT it was baked from.
//!
//! The toolset bakes a TRX from the TRN and the GIT's walkmesh cutters; a TRN edited (or a
//! cutter moved) after the bake leaves a TRX the game walks that no longer matches what the
//! builder sees. [`compare`] predicts the TRX's walkable ground (the TRN cut by the GIT's
//! cutters, as [`crate::nwn2_cut`] cuts it) and samples both on a 0.5 m grid. Placed objects
//! merge their own walkmeshes into the TRX (which no file here describes), so points within
//! 3 m of a placeable, door or environment object do not count.
//!
//! On the 8 corpus areas with TRN, GIT and TRX, of the points walkable in either ground away
//! from objects: 0 % differ in 5 areas, 2.1 % in `db_templemaiden_int`, 11.9 % in
//! `fh_freehavenv2` (ground made non-walkable under buildings farther than 3 m from their
//! origin), and 84.5 % in `harper's hill cave`, whose TRN is the TRX's terrain turned 180°
//! (0 % once turned back). [`STALE_SHARE`] lies between.

use std::collections::HashMap;

use areakit_formats::trx::Walkmesh;
use areakit_geometry::cut::{CutError, FillRule, inside};

use crate::nwn2_git::{Nwn2Git, ObjectKind};

/// The grid step of the comparison (metres).
pub const STEP: f64 = 0.5;
/// Points this close (metres, plan) to a placed object do not count.
pub const OBJECT_RADIUS: f64 = 3.0;
/// A TRX is stale when this share of the points walkable in either ground differs, away from
/// objects (and at least [`STALE_POINTS`] points).
pub const STALE_SHARE: f64 = 0.30;
/// The fewest differing points that make a TRX stale.
pub const STALE_POINTS: usize = 50;

/// The comparison of a TRX with the ground its TRN and GIT predict.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Staleness {
    /// Grid points compared (away from objects).
    pub points: usize,
    /// Of those, walkable in the prediction or the TRX.
    pub walkable_in_either: usize,
    /// Of those, walkable in one only.
    pub differ: usize,
    /// The tiles with the most differing points, most first (tile index, points), at most 5.
    pub tiles: Vec<(usize, usize)>,
    /// The plan box of the differing points: `[min x, min y, max x, max y]`.
    pub bbox: Option<[f64; 4]>,
    /// Cutters whose ground is still walkable in the TRX (moved or added since the bake).
    pub cutters_not_baked: Vec<CutterNotBaked>,
}

impl Staleness {
    /// Whether the TRX no longer matches (see [`STALE_SHARE`]).
    pub fn is_stale(&self) -> bool {
        self.differ >= STALE_POINTS
            && self.differ as f64 >= STALE_SHARE * self.walkable_in_either as f64
    }
}

/// A cutter the TRX does not show.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CutterNotBaked {
    /// Index in the GIT's `TriggerList`.
    pub index: usize,
    /// Tag.
    pub tag: String,
    /// Position.
    pub position: [f32; 3],
    /// Points (0.1 m grid) inside it that are walkable in the TRN, away from objects.
    pub covered: usize,
    /// Of those, walkable in the TRX.
    pub walkable: usize,
}

/// Walkable triangles in plan, bucketed by 1 m cells.
struct Ground {
    tris: Vec<[[f64; 2]; 3]>,
    cells: HashMap<(i64, i64), Vec<u32>>,
}

impl Ground {
    fn of(w: &Walkmesh) -> Ground {
        let mut g = Ground {
            tris: Vec::new(),
            cells: HashMap::new(),
        };
        for t in w.triangles.iter().filter(|t| t.is_walkable()) {
            let Some(p) = plan(w, t.vertices) else {
                continue;
            };
            let id = g.tris.len() as u32;
            g.tris.push(p);
            let lo = |a: usize| p.iter().map(|q| q[a]).fold(f64::INFINITY, f64::min).floor() as i64;
            let hi = |a: usize| {
                p.iter()
                    .map(|q| q[a])
                    .fold(f64::NEG_INFINITY, f64::max)
                    .floor() as i64
            };
            // A triangle spanning more than a 4 km square is not ground (and would not fit).
            if hi(0) - lo(0) > 4096 || hi(1) - lo(1) > 4096 {
                continue;
            }
            for x in lo(0)..=hi(0) {
                for y in lo(1)..=hi(1) {
                    g.cells.entry((x, y)).or_default().push(id);
                }
            }
        }
        g
    }

    fn walkable(&self, p: [f64; 2]) -> bool {
        let Some(ids) = self.cells.get(&(p[0].floor() as i64, p[1].floor() as i64)) else {
            return false;
        };
        ids.iter().any(|&i| {
            let [a, b, c] = self.tris[i as usize];
            let s = |u: [f64; 2], v: [f64; 2]| {
                (v[0] - u[0]) * (p[1] - u[1]) - (p[0] - u[0]) * (v[1] - u[1])
            };
            let (x, y, z) = (s(a, b), s(b, c), s(c, a));
            (x >= 0.0 && y >= 0.0 && z >= 0.0) || (x <= 0.0 && y <= 0.0 && z <= 0.0)
        })
    }
}

fn plan(w: &Walkmesh, t: [u32; 3]) -> Option<[[f64; 2]; 3]> {
    let mut out = [[0.0; 2]; 3];
    for (o, &v) in out.iter_mut().zip(&t) {
        let v = w.vertices.get(v as usize)?;
        *o = [f64::from(v[0]), f64::from(v[1])];
    }
    Some(out)
}

/// Compares the TRX `trx` with the ground `trn` and `git` predict (the TRN as it is without
/// a GIT).
pub fn compare(
    trn: &Walkmesh,
    trx: &Walkmesh,
    git: Option<&Nwn2Git>,
) -> Result<Staleness, CutError> {
    let predicted = match git {
        Some(g) => crate::nwn2_cut::cut_walkmesh(trn, g)?.0,
        None => trn.clone(),
    };
    let objects: Vec<[f64; 2]> = git
        .map(|g| {
            g.objects
                .iter()
                .filter(|o| o.kind != ObjectKind::Tree)
                .map(|o| [f64::from(o.position[0]), f64::from(o.position[1])])
                .collect()
        })
        .unwrap_or_default();
    let near_object = |p: [f64; 2]| {
        objects
            .iter()
            .any(|o| (o[0] - p[0]).hypot(o[1] - p[1]) <= OBJECT_RADIUS)
    };
    let (ours, theirs) = (Ground::of(&predicted), Ground::of(trx));
    let mut s = Staleness::default();
    let mut per_tile: HashMap<usize, usize> = HashMap::new();
    let extent = [
        f64::from(trx.grid_width) * f64::from(trx.tile_width),
        f64::from(trx.grid_height) * f64::from(trx.tile_width),
    ];
    let tile = f64::from(trx.tile_width).max(f64::MIN_POSITIVE);
    // At most 4096 × 4096 points (a 2 km square); a larger grid is compared on its corner.
    let (nx, ny) = (
        (extent[0] / STEP).clamp(0.0, 4096.0) as usize,
        (extent[1] / STEP).clamp(0.0, 4096.0) as usize,
    );
    for i in 0..nx {
        for j in 0..ny {
            let p = [STEP / 2.0 + STEP * i as f64, STEP / 2.0 + STEP * j as f64];
            if near_object(p) {
                continue;
            }
            s.points += 1;
            let (a, b) = (ours.walkable(p), theirs.walkable(p));
            if !(a || b) {
                continue;
            }
            s.walkable_in_either += 1;
            if a != b {
                s.differ += 1;
                let t = (p[1] / tile) as usize * trx.grid_width as usize + (p[0] / tile) as usize;
                *per_tile.entry(t).or_default() += 1;
                let bb = s.bbox.get_or_insert([p[0], p[1], p[0], p[1]]);
                *bb = [
                    bb[0].min(p[0]),
                    bb[1].min(p[1]),
                    bb[2].max(p[0]),
                    bb[3].max(p[1]),
                ];
            }
        }
    }
    let mut tiles: Vec<(usize, usize)> = per_tile.into_iter().collect();
    tiles.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    tiles.truncate(5);
    s.tiles = tiles;
    if let Some(g) = git {
        s.cutters_not_baked = cutters_not_baked(g, &Ground::of(trn), &theirs, &near_object);
    }
    Ok(s)
}

/// The share of a cutter's TRN ground that may still be walkable in the TRX.
const CUTTER_WALKABLE_SHARE: f64 = 0.5;
/// The fewest covered points (0.1 m grid) for a cutter to be judged.
const CUTTER_POINTS: usize = 20;

fn cutters_not_baked(
    git: &Nwn2Git,
    trn: &Ground,
    trx: &Ground,
    near_object: &dyn Fn([f64; 2]) -> bool,
) -> Vec<CutterNotBaked> {
    let mut out = Vec::new();
    for c in git.cutters.iter().filter(|c| c.cuts()) {
        let ring: Vec<[f64; 2]> = c.corners.iter().map(|p| p.map(f64::from)).collect();
        let lo = ring
            .iter()
            .fold([f64::INFINITY; 2], |a, p| [a[0].min(p[0]), a[1].min(p[1])]);
        let hi = ring.iter().fold([f64::NEG_INFINITY; 2], |a, p| {
            [a[0].max(p[0]), a[1].max(p[1])]
        });
        let (nx, ny) = (
            ((hi[0] - lo[0]) / 0.1).clamp(0.0, 2000.0) as usize,
            ((hi[1] - lo[1]) / 0.1).clamp(0.0, 2000.0) as usize,
        );
        let (mut covered, mut walkable) = (0, 0);
        for i in 0..nx {
            for j in 0..ny {
                let p = [lo[0] + 0.05 + 0.1 * i as f64, lo[1] + 0.05 + 0.1 * j as f64];
                if !inside(&ring, p, FillRule::NonZero) || near_object(p) || !trn.walkable(p) {
                    continue;
                }
                covered += 1;
                walkable += usize::from(trx.walkable(p));
            }
        }
        if covered >= CUTTER_POINTS && walkable as f64 > CUTTER_WALKABLE_SHARE * covered as f64 {
            out.push(CutterNotBaked {
                index: c.index,
                tag: c.tag.clone(),
                position: c.position,
                covered,
                walkable,
            });
        }
    }
    out
}
