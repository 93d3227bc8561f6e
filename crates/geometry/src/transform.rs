//! Rigid transforms of a walkmesh and transition remapping.
//!
//! Rotations by multiples of 90° about z swap and negate coordinates (no trigonometry), so
//! they are exact and invertible bit for bit; mirrors are exact too and flip the winding of
//! every face (`[a, b, c]` becomes `[a, c, b]`, edge transitions `[t0, t1, t2]` become
//! `[t2, t1, t0]`) so normals keep pointing up. Translations and other angles round to `f32`.
//! Derived tables must be rebuilt afterwards ([`crate::derive::rebuild`]).

use crate::mesh::{Mesh, NONE};

/// An axis to mirror across.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// Negate x (mirror across the y-z plane).
    X,
    /// Negate y (mirror across the x-z plane).
    Y,
}

/// One transform step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Transform {
    /// Add an offset.
    Translate([f32; 3]),
    /// Rotate about the z axis through the origin, counter-clockwise seen from above, in
    /// degrees.
    RotateZ(f64),
    /// Mirror.
    Mirror(Axis),
}

impl Transform {
    /// The transform that undoes this one.
    pub fn inverse(self) -> Transform {
        match self {
            Transform::Translate(t) => Transform::Translate(t.map(|c| -c)),
            Transform::RotateZ(d) => Transform::RotateZ(-d),
            Transform::Mirror(a) => Transform::Mirror(a),
        }
    }

    /// Whether the transform reverses orientation (mirrors).
    pub fn flips_winding(self) -> bool {
        matches!(self, Transform::Mirror(_))
    }

    /// Applies the transform to a point.
    pub fn point(self, p: [f32; 3]) -> [f32; 3] {
        let [x, y, z] = p;
        match self {
            Transform::Translate(t) => [x + t[0], y + t[1], z + t[2]],
            Transform::Mirror(Axis::X) => [-x, y, z],
            Transform::Mirror(Axis::Y) => [x, -y, z],
            Transform::RotateZ(deg) => match quarter_turns(deg) {
                Some(0) => p,
                Some(1) => [-y, x, z],
                Some(2) => [-x, -y, z],
                Some(3) => [y, -x, z],
                _ => {
                    let (s, c) = deg.to_radians().sin_cos();
                    let (xd, yd) = (f64::from(x), f64::from(y));
                    [(c * xd - s * yd) as f32, (s * xd + c * yd) as f32, z]
                }
            },
        }
    }

    /// Applies the transform to a direction (translations leave it unchanged).
    pub fn vector(self, v: [f32; 3]) -> [f32; 3] {
        match self {
            Transform::Translate(_) => v,
            other => other.point(v),
        }
    }
}

/// `Some(k)` (0..4) when `deg` is an exact multiple of 90°.
fn quarter_turns(deg: f64) -> Option<u8> {
    if !deg.is_finite() {
        return None;
    }
    let q = deg / 90.0;
    (q.fract() == 0.0).then(|| q.rem_euclid(4.0) as u8)
}

/// Applies a transform to every vertex, fixing the winding (and the per-face-edge
/// transitions, when given) after a mirror.
pub fn apply(mesh: &mut Mesh, transitions: &mut [[i32; 3]], t: Transform) {
    for v in &mut mesh.vertices {
        *v = t.point(*v);
    }
    if t.flips_winding() {
        for f in &mut mesh.faces {
            f.swap(1, 2);
        }
        for tr in transitions.iter_mut() {
            tr.swap(0, 2);
        }
    }
}

/// Rewrites transitions: each `(from, to)` pair maps transition `from` to `to` (`None`: no
/// transition). Pairs apply simultaneously (`1=2,2=1` swaps). Returns how many edge
/// transitions changed.
pub fn remap_transitions(transitions: &mut [[i32; 3]], map: &[(i32, Option<i32>)]) -> usize {
    let mut changed = 0;
    for t in transitions.iter_mut().flat_map(|t| t.iter_mut()) {
        if *t == NONE {
            continue;
        }
        if let Some((_, to)) = map.iter().find(|(from, _)| *from == *t) {
            let new = to.unwrap_or(NONE);
            if new != *t {
                *t = new;
                changed += 1;
            }
        }
    }
    changed
}
