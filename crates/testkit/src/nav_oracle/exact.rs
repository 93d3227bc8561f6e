//! The one geometric predicate of the oracle: the exact orientation of three plan points.
//!
//! The points are `f32` coordinates held in `f64`. A first evaluation in `f64` decides when
//! its magnitude is beyond its rounding error (Shewchuk's bound); otherwise the determinant is
//! computed exactly as a floating-point expansion (error-free sums and products, the products'
//! errors by fused multiply-add), whose most significant non-zero component gives the sign.

use std::cmp::Ordering;

/// `a + b` as an unevaluated sum `hi + lo`, exactly (Knuth's two-sum).
#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let x = a + b;
    let bv = x - a;
    let av = x - bv;
    (x, (a - av) + (b - bv))
}

/// `a × b` as `hi + lo`, exactly.
#[inline]
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let x = a * b;
    (x, a.mul_add(b, -x))
}

/// Adds `b` to the expansion `e` (non-overlapping, increasing magnitude), keeping it so
/// (Shewchuk's grow-expansion).
fn grow(e: &mut Vec<f64>, b: f64) {
    let mut q = b;
    for c in e.iter_mut() {
        let (s, err) = two_sum(q, *c);
        *c = err;
        q = s;
    }
    e.push(q);
}

/// The sign of `(b − a) × (c − a)`: `Greater` when `c` lies left of the directed line from `a`
/// to `b` (counter-clockwise), `Less` right of it, `Equal` on it. Exact for any finite inputs
/// whose products do not overflow (every `f32` coordinate qualifies).
pub fn orient(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> Ordering {
    let l = (b[0] - a[0]) * (c[1] - a[1]);
    let r = (b[1] - a[1]) * (c[0] - a[0]);
    let det = l - r;
    // Shewchuk's ccwerrboundA, (3 + 16ε)ε, doubled for the differences' own rounding here.
    let bound = 7.0 * f64::EPSILON * (l.abs() + r.abs());
    if det > bound || -det > bound {
        return det.partial_cmp(&0.0).unwrap_or(Ordering::Equal);
    }
    exact(a, b, c)
}

fn exact(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> Ordering {
    let d = |p: f64, q: f64| {
        let (hi, lo) = two_sum(p, -q);
        [hi, lo]
    };
    let (bx, by, cx, cy) = (d(b[0], a[0]), d(b[1], a[1]), d(c[0], a[0]), d(c[1], a[1]));
    let mut e = Vec::with_capacity(32);
    for (u, v, sign) in [(bx, cy, 1.0), (by, cx, -1.0)] {
        for x in u {
            for y in v {
                let (hi, lo) = two_product(x, y);
                grow(&mut e, sign * lo);
                grow(&mut e, sign * hi);
            }
        }
    }
    e.iter()
        .rev()
        .find(|&&x| x != 0.0)
        .map_or(Ordering::Equal, |x| {
            x.partial_cmp(&0.0).unwrap_or(Ordering::Equal)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decides_collinear_and_nearly_collinear_points() {
        // Three points on the line y = x through values the plain formula rounds.
        let a = [0.5f64, 0.5];
        let b = [12.0f64, 12.0];
        let c = [24.0f64, 24.0];
        assert_eq!(orient(a, b, c), Ordering::Equal);
        // One f32 ulp off the line.
        let x = f64::from(0.5f32 + f32::EPSILON / 2.0);
        assert_eq!(orient(a, b, [x, 0.5]), Ordering::Less);
        assert_eq!(orient(a, b, [0.5, x]), Ordering::Greater);
        // A large and a tiny coordinate: the differences need more than 53 bits.
        let big = f64::from(126.0f32);
        let tiny = f64::from(1.0e-8f32);
        assert_eq!(
            orient([tiny, 0.0], [big, 0.0], [big, tiny]),
            Ordering::Greater
        );
        assert_eq!(
            orient([tiny, tiny], [big, big], [2.0 * big, 2.0 * big]),
            Ordering::Equal
        );
        assert_eq!(
            orient([0.0, tiny], [big, 0.0], [2.0 * big, -tiny]),
            Ordering::Equal
        );
        assert_eq!(
            orient([0.0, tiny], [big, 0.0], [2.0 * big, -2.0 * tiny]),
            Ordering::Less
        );
        assert_eq!(
            orient([0.0, tiny], [big, 0.0], [2.0 * big, 0.0]),
            Ordering::Greater
        );
    }

    #[test]
    fn agrees_with_integer_arithmetic_on_random_small_grids() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % 2001) as i64 - 1000
        };
        for _ in 0..20_000 {
            let p: Vec<i64> = (0..6).map(|_| next()).collect();
            let want = ((p[2] - p[0]) * (p[5] - p[1]) - (p[3] - p[1]) * (p[4] - p[0])).cmp(&0);
            // Scaled by an f32-exact factor, so the doubles are not integers.
            let f = |i: usize| p[i] as f64 * 0.001_953_125;
            assert_eq!(orient([f(0), f(1)], [f(2), f(3)], [f(4), f(5)]), want);
        }
    }
}
