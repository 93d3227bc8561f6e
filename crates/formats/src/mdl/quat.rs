//! Quaternion arithmetic for node orientations and keys: (w, x, y, z) in `f64`, and the
//! compressed orientation word of animation keys.

/// A quaternion: w, x, y, z.
pub type Quat = [f64; 4];

/// The identity rotation.
pub const IDENTITY: Quat = [1.0, 0.0, 0.0, 0.0];

/// `a · b` (`b` first, then `a`).
pub fn mul(a: Quat, b: Quat) -> Quat {
    [
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
    ]
}

/// The conjugate (the inverse of a unit quaternion).
pub fn conj(q: Quat) -> Quat {
    [q[0], -q[1], -q[2], -q[3]]
}

/// `v` rotated by the unit quaternion `q`.
pub fn rotate(q: Quat, v: [f64; 3]) -> [f64; 3] {
    let p = mul(mul(q, [0.0, v[0], v[1], v[2]]), conj(q));
    [p[1], p[2], p[3]]
}

/// `q` scaled to unit length; the identity when it has none (zero, NaN).
pub fn normalize(q: Quat) -> Quat {
    let len = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    if len > 1e-12 && len.is_finite() {
        q.map(|c| c / len)
    } else {
        IDENTITY
    }
}

/// A compressed orientation word (x, y, z in 11, 11 and 10 bits; w the square root of the rest)
/// as a quaternion.
pub fn decompress(v: u32) -> Quat {
    let x = f64::from(v & 0x7FF) / 1023.0 - 1.0;
    let y = f64::from((v >> 11) & 0x7FF) / 1023.0 - 1.0;
    let z = f64::from(v >> 22) / 511.0 - 1.0;
    let s = x * x + y * y + z * z;
    [if s < 1.0 { (1.0 - s).sqrt() } else { 0.0 }, x, y, z]
}

/// A quaternion as a compressed orientation word (negated first when w < 0).
pub fn compress(q: Quat) -> u32 {
    let q = if q[0] < 0.0 { q.map(|c| -c) } else { q };
    let enc = |c: f64, scale: f64, max: u32| (((c + 1.0) * scale).round().max(0.0) as u32).min(max);
    enc(q[1], 1023.0, 0x7FF) | enc(q[2], 1023.0, 0x7FF) << 11 | enc(q[3], 511.0, 0x3FF) << 22
}

impl super::Model {
    /// Where each geometry node stands in model space: its rotation and translation, the
    /// chain of its ancestors' positions and orientations (normalised) applied.
    pub fn world_transforms(&self) -> Vec<(Quat, [f64; 3])> {
        let mut out = vec![(IDENTITY, [0.0; 3]); self.nodes.len()];
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![(0usize, IDENTITY, [0.0f64; 3])];
        while let Some((i, pq, pt)) = stack.pop() {
            let Some(n) = self.nodes.get(i) else { continue };
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            let p = rotate(pq, n.position.map(f64::from));
            let t = [pt[0] + p[0], pt[1] + p[1], pt[2] + p[2]];
            let q = mul(pq, normalize(n.orientation.map(f64::from)));
            out[i] = (q, t);
            for &c in &n.children {
                stack.push((c as usize, q, t));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compressed_words_decode_as_kotorblender_does_and_encode_back() {
        // x = y = 1023, z = 511: all zero, so w = 1.
        let identity = 1023 | (1023 << 11) | (511 << 22);
        assert_eq!(decompress(identity), IDENTITY);
        assert_eq!(compress(IDENTITY), identity);
        // x = 2046 (1.0), y and z zero: a half turn about x, w = 0.
        let half = 2046 | (1023 << 11) | (511 << 22);
        assert_eq!(decompress(half), [0.0, 1.0, 0.0, 0.0]);
        assert_eq!(compress(decompress(half)), half);
    }

    #[test]
    fn rotations_compose() {
        let quarter = [0.5f64.sqrt(), 0.0, 0.0, 0.5f64.sqrt()];
        let p = rotate(mul(quarter, quarter), [1.0, 0.0, 0.0]);
        assert!((p[0] + 1.0).abs() < 1e-12 && p[1].abs() < 1e-12);
        assert_eq!(normalize([0.0; 4]), IDENTITY);
    }
}
