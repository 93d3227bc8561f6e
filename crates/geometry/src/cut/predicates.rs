//! Exact side tests on `f64` points (Shewchuk's adaptive `orient2d`).

/// Which points a self-intersecting or overlapping ring covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FillRule {
    /// Inside where the ring winds round the point a non-zero number of times (a loop of a
    /// figure eight is inside whichever way it turns).
    #[default]
    NonZero,
    /// Inside where a ray from the point crosses the ring an odd number of times (where a
    /// ring overlaps itself, the overlap is outside).
    EvenOdd,
}

/// The sign of the turn `a → b → c`: positive counter-clockwise, negative clockwise, zero
/// when the three points are collinear. Exact.
pub fn orient(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    let p = |v: [f64; 2]| robust::Coord { x: v[0], y: v[1] };
    robust::orient2d(p(a), p(b), p(c))
}

/// The winding number of `ring` round `p` (0 when `p` is outside); `p` on the ring counts as
/// inside (returns 1).
pub fn winding(ring: &[[f64; 2]], p: [f64; 2]) -> i32 {
    let n = ring.len();
    let mut w = 0;
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        let o = orient(a, b, p);
        if o == 0.0 && between(a, b, p) {
            return 1;
        }
        if a[1] <= p[1] {
            if b[1] > p[1] && o > 0.0 {
                w += 1;
            }
        } else if b[1] <= p[1] && o < 0.0 {
            w -= 1;
        }
    }
    w
}

/// Whether `p` is inside `ring` under `fill` (on the ring counts as inside).
pub fn inside(ring: &[[f64; 2]], p: [f64; 2], fill: FillRule) -> bool {
    if ring.len() < 3 {
        return false;
    }
    match fill {
        FillRule::NonZero => winding(ring, p) != 0,
        FillRule::EvenOdd => crossings(ring, p) % 2 == 1,
    }
}

fn crossings(ring: &[[f64; 2]], p: [f64; 2]) -> u32 {
    let n = ring.len();
    let mut c = 0;
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        let o = orient(a, b, p);
        if o == 0.0 && between(a, b, p) {
            return 1;
        }
        let up = a[1] <= p[1] && b[1] > p[1] && o > 0.0;
        let down = b[1] <= p[1] && a[1] > p[1] && o < 0.0;
        if up || down {
            c += 1;
        }
    }
    c
}

/// Whether `p`, known to be collinear with `a` and `b`, lies on the closed segment `a b`.
pub fn between(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> bool {
    p[0] >= a[0].min(b[0])
        && p[0] <= a[0].max(b[0])
        && p[1] >= a[1].min(b[1])
        && p[1] <= a[1].max(b[1])
}

/// Whether `p`, known to be collinear with `a` and `b`, lies strictly between them.
pub fn strictly_between(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> bool {
    between(a, b, p) && p != a && p != b
}
