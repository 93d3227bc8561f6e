//! A uniform grid over the faces seen from above, for point queries: each cell lists the faces
//! whose box (`[min x, max x, min y, max y]` of the corners, in `f32`) overlaps it.
//!
//! A point is looked up in one cell and only that cell's faces are tested, with the same
//! per-face test the tree uses ([`super::flat::face_height`], which starts with the face's
//! box). The grid answers exactly as the tree does: a usable tree has one leaf per face and
//! boxes that contain their faces, so the tree's box tests only ever skip faces whose own box
//! misses the point, and the cell of a point inside a face's box is always one of the cells
//! the face was listed in (the cell of a coordinate, `floor((c - origin) * scale)`, only grows
//! with `c`: each `f32` step rounds monotonically).
//!
//! The resolution aims at about two cells per face. A grid is not made when the faces are so
//! large or so many overlap that the lists would exceed [`MAX_ENTRIES_PER_FACE`] entries per
//! face (hostile or degenerate meshes): the tree answers then.

/// The most list entries per face a grid may hold (it is not made otherwise).
pub(super) const MAX_ENTRIES_PER_FACE: u64 = 16;

/// Cells per face the resolution aims at.
const CELLS_PER_FACE: f64 = 2.0;

/// The most cells along one side.
const MAX_SIDE: u32 = 4096;

/// See the [module docs](self).
#[derive(Debug, Clone, Default)]
pub(super) struct PointGrid {
    /// `[min x, max x, min y, max y]` of all faces.
    bounds: [f32; 4],
    /// Cells per unit along x and y.
    scale: [f32; 2],
    nx: u32,
    ny: u32,
    /// Per cell (row-major, `y * nx + x`), where its entries start in `entries`; one more at
    /// the end.
    start: Vec<u32>,
    entries: Vec<Entry>,
}

/// A face listed in a cell, with its box (so that the box test reads the cell's list only).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Entry {
    /// `[min x, max x, min y, max y]`.
    pub(super) bb: [f32; 4],
    pub(super) face: u32,
}

impl Entry {
    /// Whether the face's box contains `(x, y)`: the first test of
    /// [`super::flat::face_height`], without branches (for a NaN coordinate, which the grid
    /// never looks up, it would differ).
    #[inline(always)]
    pub(super) fn holds(&self, x: f32, y: f32) -> bool {
        (x >= self.bb[0]) & (x <= self.bb[1]) & (y >= self.bb[2]) & (y <= self.bb[3])
    }
}

impl PointGrid {
    /// A grid over faces with the given boxes (`[min x, max x, min y, max y]`), or `None` when
    /// there are no faces, a box is not finite, or the lists would grow too long.
    pub(super) fn new(boxes: &[[f32; 4]]) -> Option<PointGrid> {
        let n = boxes.len();
        if n == 0 || n >= u32::MAX as usize / 2 {
            return None;
        }
        let mut b = [
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        for bb in boxes {
            if !bb.iter().all(|c| c.is_finite()) {
                return None;
            }
            b[0] = b[0].min(bb[0]);
            b[1] = b[1].max(bb[1]);
            b[2] = b[2].min(bb[2]);
            b[3] = b[3].max(bb[3]);
        }
        let (w, h) = (
            f64::from(b[1]) - f64::from(b[0]),
            f64::from(b[3]) - f64::from(b[2]),
        );
        // About CELLS_PER_FACE cells per face, square cells; a flat extent gets one cell across.
        let (nx, ny) = if w > 0.0 && h > 0.0 {
            let side = (w * h / (n as f64 * CELLS_PER_FACE)).sqrt();
            (cells_along(w / side), cells_along(h / side))
        } else {
            let c = cells_along(n as f64);
            (if w > 0.0 { c } else { 1 }, if h > 0.0 { c } else { 1 })
        };
        let mut g = PointGrid {
            bounds: b,
            scale: [
                if w > 0.0 {
                    (f64::from(nx) / w) as f32
                } else {
                    0.0
                },
                if h > 0.0 {
                    (f64::from(ny) / h) as f32
                } else {
                    0.0
                },
            ],
            nx,
            ny,
            start: Vec::new(),
            entries: Vec::new(),
        };
        if !g.scale.iter().all(|s| s.is_finite()) {
            return None;
        }
        // Count first: give up before allocating long lists.
        let ranges: Vec<[u32; 4]> = boxes.iter().map(|bb| g.range(bb)).collect();
        let entries: u64 = ranges
            .iter()
            .map(|r| u64::from(r[1] - r[0] + 1) * u64::from(r[3] - r[2] + 1))
            .sum();
        if entries > MAX_ENTRIES_PER_FACE * n as u64 {
            return None;
        }
        let cells = (nx * ny) as usize;
        let mut count = vec![0u32; cells + 1];
        for r in &ranges {
            for cy in r[2]..=r[3] {
                for cx in r[0]..=r[1] {
                    count[(cy * nx + cx) as usize + 1] += 1;
                }
            }
        }
        for i in 0..cells {
            count[i + 1] += count[i];
        }
        let mut next = count.clone();
        let mut list = vec![Entry::default(); entries as usize];
        for (f, (r, bb)) in ranges.iter().zip(boxes).enumerate() {
            for cy in r[2]..=r[3] {
                for cx in r[0]..=r[1] {
                    let c = (cy * nx + cx) as usize;
                    list[next[c] as usize] = Entry {
                        bb: *bb,
                        face: f as u32,
                    };
                    next[c] += 1;
                }
            }
        }
        g.start = count;
        g.entries = list;
        Some(g)
    }

    /// The cells a box covers: `[x0, x1, y0, y1]`, inclusive.
    fn range(&self, bb: &[f32; 4]) -> [u32; 4] {
        [
            self.cell(bb[0], 0),
            self.cell(bb[1], 0),
            self.cell(bb[2], 1),
            self.cell(bb[3], 1),
        ]
    }

    /// The cell index of coordinate `c` along `axis` (0: x, 1: y), clamped to the grid.
    #[inline(always)]
    fn cell(&self, c: f32, axis: usize) -> u32 {
        let (lo, side) = if axis == 0 {
            (self.bounds[0], self.nx)
        } else {
            (self.bounds[2], self.ny)
        };
        // Non-negative for points in the bounds; `as` saturates (and maps NaN to 0).
        let i = ((c - lo) * self.scale[axis]) as u32;
        i.min(side - 1)
    }

    /// The entries of the cell of `(x, y)`: every face whose box contains the point is among
    /// them. Empty outside the bounds (and for NaN).
    #[inline(always)]
    pub(super) fn candidates(&self, x: f32, y: f32) -> &[Entry] {
        let b = &self.bounds;
        if !(x >= b[0] && x <= b[1] && y >= b[2] && y <= b[3]) {
            return &[];
        }
        let c = (self.cell(y, 1) * self.nx + self.cell(x, 0)) as usize;
        &self.entries[self.start[c] as usize..self.start[c + 1] as usize]
    }

    /// Heap bytes held.
    #[cfg(test)]
    pub(super) fn heap_bytes(&self) -> usize {
        self.start.len() * 4 + self.entries.len() * std::mem::size_of::<Entry>()
    }
}

/// Cells along a side `extent` cells long, at least one, at most [`MAX_SIDE`].
fn cells_along(extent: f64) -> u32 {
    if extent.is_finite() {
        (extent.ceil() as u32).clamp(1, MAX_SIDE)
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_in_a_box_finds_its_face() {
        // Boxes of different sizes on a grid of their own, some overlapping.
        let boxes: Vec<[f32; 4]> = (0..200)
            .map(|i| {
                let (x, y) = ((i % 20) as f32 * 0.7, (i / 20) as f32 * 1.3);
                let s = 0.1 + (i % 7) as f32 * 0.3;
                [x, x + s, y, y + s * 0.5]
            })
            .collect();
        let g = PointGrid::new(&boxes).expect("a grid");
        assert!(g.nx > 1 && g.ny > 1);
        let mut checked = 0;
        for (f, bb) in boxes.iter().enumerate() {
            for u in 0..=8 {
                for v in 0..=8 {
                    let x = bb[0] + (bb[1] - bb[0]) * u as f32 / 8.0;
                    let y = bb[2] + (bb[3] - bb[2]) * v as f32 / 8.0;
                    assert!(
                        g.candidates(x, y)
                            .iter()
                            .any(|e| e.face == f as u32 && e.holds(x, y)),
                        "face {f} at {x},{y}"
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 200 * 81);
        assert!(g.candidates(-1.0, 0.0).is_empty());
        assert!(g.candidates(f32::NAN, 0.0).is_empty());
        assert!(g.heap_bytes() > 0);
    }

    fn faces(e: &[Entry]) -> Vec<u32> {
        e.iter().map(|e| e.face).collect()
    }

    #[test]
    fn a_line_of_faces_and_a_point_extent_get_grids() {
        let line: Vec<[f32; 4]> = (0..50)
            .map(|i| [i as f32, i as f32 + 1.0, 2.0, 2.0])
            .collect();
        let g = PointGrid::new(&line).expect("a grid along x");
        assert_eq!(g.ny, 1);
        // Boxes are closed: face 9 ends on the cell's left side.
        assert_eq!(faces(g.candidates(10.5, 2.0)), [9, 10]);
        let point = [[1.0f32, 1.0, 1.0, 1.0]; 3];
        let g = PointGrid::new(&point).expect("a one-cell grid");
        assert_eq!(faces(g.candidates(1.0, 1.0)), [0, 1, 2]);
        assert!(g.candidates(1.0, 1.5).is_empty());
    }

    #[test]
    fn overlapping_giants_and_bad_boxes_get_no_grid() {
        // Every face covers the whole area: the lists would hold faces × cells entries.
        let mut boxes: Vec<[f32; 4]> = (0..1000)
            .map(|i| [i as f32, i as f32 + 1.0, 0.0, 1.0])
            .collect();
        boxes.extend((0..1000).map(|_| [0.0, 1000.0, 0.0, 1.0]));
        assert!(PointGrid::new(&boxes).is_none());
        assert!(PointGrid::new(&[]).is_none());
        assert!(PointGrid::new(&[[0.0, f32::INFINITY, 0.0, 1.0]]).is_none());
        assert!(PointGrid::new(&[[f32::NAN, 1.0, 0.0, 1.0]]).is_none());
    }
}
