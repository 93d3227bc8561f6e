//! The text side shared by the model decompilers and compilers (KotOR and NWN dialects):
//! properties and lists as [`crate::mdl_ascii`] statements, shortest round-tripping floats,
//! axis-angle and quaternion conversion, reading typed values back, the node tree from
//! `parent` names, AABB rows both ways.

use std::collections::HashMap;

use crate::error::{DecodeError, ErrorKind, Location};
use crate::mdl::common::{Aabb, AabbNode, Face, Light, Name};
use crate::mdl_ascii::lex::{Tokens, line_at, looks_numeric};
use crate::mdl_ascii::{ListProp, Node as ANode, Property, Raw, Rows, Stmt, Value};
use crate::text_lines::line_col;

/// A float as the text holds it: the number the reader's own parser gives for the shortest
/// decimal of `x` as an `f32` (Rust's `Display`), so written and read back it is `x` again.
pub(crate) fn d(x: f32) -> f64 {
    if !x.is_finite() {
        return f64::from(x);
    }
    crate::mdl_ascii::parse_number(format!("{x}").as_bytes()).unwrap_or(f64::from(x))
}

/// A quaternion (x, y, z, w) from axis and angle, as both compilers store orientations.
pub(crate) fn quat_xyzw(a: &[f64]) -> Vec<f32> {
    let q = quat_of([a[0], a[1], a[2], a[3]]);
    vec![q[1] as f32, q[2] as f32, q[3] as f32, q[0] as f32]
}

/// The axis and angle the text writes for a stored orientation `q`, such that compiling the
/// text stores `q` again whenever some text can say it, so the text of the compiled model is
/// this text again. `axis_angle` is the exact conversion (in `f64`), `compile` the compiler's
/// (from the numbers as read, back to the stored form, compared bit for bit).
///
/// The four numbers are written short (see [`exact_text`]). The compiler keeps only unit
/// quaternions, so a `q` that no text gives back (one of length not 1 to within `f32`
/// rounding) is written as what its compile stores, a `q` that does come back.
pub(crate) fn orientation_text<Q: Copy + PartialEq>(
    q: Q,
    axis_angle: impl Fn(Q) -> [f64; 4],
    compile: impl Fn(&[f64]) -> Q,
) -> [f64; 4] {
    let mut q = q;
    for _ in 0..8 {
        let exact = axis_angle(q);
        if let Some(a) = exact_text(exact, |a| compile(a) == q) {
            return a;
        }
        q = compile(&exact);
    }
    axis_angle(q)
}

/// The numbers to write for the exact values `exact` so that `fits` holds of what the reader
/// reads back: their `f32` roundings (shortest text) when those fit, else the first
/// combination of their `f32` neighbours (one step down or up each) that fits, else `exact`
/// itself (the shortest text of the `f64`) when it fits.
pub(crate) fn exact_text<const N: usize>(
    exact: [f64; N],
    fits: impl Fn(&[f64]) -> bool,
) -> Option<[f64; N]> {
    let near = exact.map(|x| x as f32);
    for k in 0..3usize.pow(N as u32) {
        let mut a = [0f64; N];
        let mut c = k;
        for (v, &x) in a.iter_mut().zip(&near) {
            *v = d(f32_step(x, [0, -1, 1][c % 3]));
            c /= 3;
        }
        if fits(&a) {
            return Some(a);
        }
    }
    fits(&exact).then_some(exact)
}

/// The `f32` `by` steps (-1, 0 or 1) from `x` (non-finite values stay).
fn f32_step(x: f32, by: i32) -> f32 {
    if by == 0 || !x.is_finite() {
        return x;
    }
    let up = by > 0;
    if x == 0.0 {
        let tiny = f32::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let away = up == (x > 0.0);
    f32::from_bits(if away {
        x.to_bits() + 1
    } else {
        x.to_bits() - 1
    })
}

/// A stored orientation (x, y, z, w), bit for bit, from axis and angle as read.
pub(crate) fn quat_bits(a: &[f64]) -> [u32; 4] {
    let q = quat_xyzw(a);
    [q[0], q[1], q[2], q[3]].map(f32::to_bits)
}

/// The exact axis and angle of a stored orientation (x, y, z, w) given bit for bit.
pub(crate) fn axis_angle_of_bits(q: [u32; 4]) -> [f64; 4] {
    let [x, y, z, w] = q.map(|b| f64::from(f32::from_bits(b)));
    axis_angle([w, x, y, z])
}

/// How the text names a bone (or node) that has no name: `@` and its number (a skin bone's
/// node number in NWN, its bone index in KotOR; a node's name index beyond the name table).
/// Not `#`, which starts a comment (`docs/formats/mdl-ascii.md`).
pub(crate) fn unnamed(number: impl std::fmt::Display) -> String {
    format!("@{number}")
}

/// The weights row of a vertex without bones: one pair naming no bone (`@-1 0`), since a blank
/// line is no row to the reader.
pub(crate) fn no_bones_row() -> Vec<String> {
    vec![unnamed(-1), "0".to_string()]
}

/// The number of a name written by [`unnamed`].
pub(crate) fn unnamed_number(name: &str) -> Option<i64> {
    let digits = name.strip_prefix('@')?;
    let plain = digits.strip_prefix('-').unwrap_or(digits);
    (!plain.is_empty() && plain.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

pub(crate) fn prop(key: &'static str, value: Value) -> Stmt {
    Stmt::Prop(Property::new(key, value))
}

pub(crate) fn pnum(key: &'static str, v: f32) -> Stmt {
    prop(key, Value::Float(d(v)))
}

pub(crate) fn pint(key: &'static str, v: i64) -> Stmt {
    prop(key, Value::Int(v))
}

pub(crate) fn pnums(key: impl Into<std::borrow::Cow<'static, str>>, v: &[f32]) -> Stmt {
    Stmt::Prop(Property::new(
        key,
        Value::Numbers(v.iter().map(|&x| d(x)).collect()),
    ))
}

pub(crate) fn pname(key: &'static str, s: String) -> Stmt {
    prop(
        key,
        Value::Name(if s.is_empty() { "NULL".into() } else { s }),
    )
}

pub(crate) fn list<const N: usize>(key: &'static str, rows: &[[f32; N]]) -> Stmt {
    let mut r = Rows::default();
    let mut buf = [0f64; N];
    for row in rows {
        for (b, &x) in buf.iter_mut().zip(row) {
            *b = d(x);
        }
        r.push(&buf);
    }
    Stmt::List(ListProp::counted(key, r))
}

pub(crate) fn rows_list(
    key: impl Into<std::borrow::Cow<'static, str>>,
    rows: Vec<Vec<f64>>,
    endlist: bool,
) -> Stmt {
    let mut r = Rows::default();
    for row in &rows {
        r.push(row);
    }
    let mut l = ListProp::counted(key, r);
    if endlist {
        l.count = None;
        l.endlist = true;
    }
    Stmt::List(l)
}

/// Quaternion (w, x, y, z) → axis and angle. The axis has the quaternion's length (a stored
/// quaternion is of length 1 only to within `f32` rounding), so [`quat_of`] gives back the
/// quaternion itself, not a neighbour. No rotation axis (x = y = z = 0) is `0 0 0 0`.
pub(crate) fn axis_angle(q: [f64; 4]) -> [f64; 4] {
    let [w, x, y, z] = q;
    let v = (x * x + y * y + z * z).sqrt();
    if v.is_nan() || v == 0.0 || !w.is_finite() {
        return [0.0, 0.0, 0.0, 0.0];
    }
    let len = (w * w + v * v).sqrt();
    let k = len / v;
    [x * k, y * k, z * k, 2.0 * v.atan2(w)]
}

/// How far from 1 an axis's length may be for it to be the quaternion's length (the text of
/// a stored quaternion, [`axis_angle`]); a longer or shorter axis is only a direction.
const AXIS_LENGTH_KEPT: f64 = 1e-5;

/// Axis and angle → quaternion (w, x, y, z); a zero axis is the identity. An axis of length 1
/// to within [`AXIS_LENGTH_KEPT`] gives a quaternion of its length, any other a unit one.
pub(crate) fn quat_of(a: [f64; 4]) -> [f64; 4] {
    let len = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
    if len.is_nan() || len <= 1e-12 {
        return [1.0, 0.0, 0.0, 0.0];
    }
    let (s, c) = (a[3] / 2.0).sin_cos();
    if (len - 1.0).abs() <= AXIS_LENGTH_KEPT {
        return [c * len, a[0] * s, a[1] * s, a[2] * s];
    }
    [c, a[0] / len * s, a[1] / len * s, a[2] / len * s]
}

pub(crate) fn non_empty(s: String) -> String {
    if s.is_empty() { "NULL".into() } else { s }
}

/// The AABB tree in pre-order, left subtree first (how the dialect lists it).
pub(crate) fn aabb_rows(tree: &[AabbNode], i: usize, out: &mut Vec<Vec<f64>>, depth: usize) {
    let Some(t) = tree.get(i) else { return };
    if depth > 256 || out.len() > tree.len() {
        return;
    }
    let mut row: Vec<f64> = t.min.iter().chain(&t.max).map(|&x| d(x)).collect();
    row.push(f64::from(t.face));
    out.push(row);
    if let Some(l) = t.left {
        aabb_rows(tree, l as usize, out, depth + 1);
    }
    if let Some(r) = t.right {
        aabb_rows(tree, r as usize, out, depth + 1);
    }
}

/// Why an ASCII model cannot be compiled.
pub(crate) fn bad(msg: impl Into<String>) -> DecodeError {
    DecodeError::new(ErrorKind::Malformed, Location::Input, msg)
}

/// Why an ASCII model cannot be compiled, at `at`.
pub(crate) fn bad_at(at: Location, msg: impl Into<String>) -> DecodeError {
    DecodeError::new(ErrorKind::Malformed, at, msg)
}

/// Where a statement read from `src` starts (the line and column of its first token);
/// [`Location::Input`] for a statement made in code.
pub(crate) fn place(src: &[u8], raw: &Raw) -> Location {
    let Some(r) = raw.range().filter(|r| r.start <= src.len()) else {
        return Location::Input;
    };
    let l = line_at(src, r.start);
    let col = Tokens::new(&src[l.start..l.end])
        .next()
        .map_or(0, |(c, _)| c);
    let (line, column) = line_col(src, l.start + col);
    Location::LineCol { line, column }
}

/// Where row `i` of list `l` read from `src` is (its first token); the list's own place when
/// the row is not found, [`Location::Input`] for a list made in code.
pub(crate) fn row_place(src: &[u8], l: &ListProp, i: usize) -> Location {
    let Some(r) = l.raw.range().filter(|r| r.end <= src.len()) else {
        return Location::Input;
    };
    let (mut pos, mut row, mut header) = (r.start, 0usize, true);
    while pos < r.end {
        let line = line_at(src, pos);
        let first = Tokens::new(&src[line.start..line.end]).next();
        let is_row = match (header, first) {
            (true, _) => l.inline_first_row,
            (false, Some((_, t))) => match l.rows {
                Rows::Numbers { .. } => looks_numeric(t),
                Rows::Words(_) => !t.eq_ignore_ascii_case(b"endlist"),
            },
            (false, None) => false,
        };
        if is_row {
            if row == i {
                let (line, column) = line_col(src, line.start + first.map_or(0, |(c, _)| c));
                return Location::LineCol { line, column };
            }
            row += 1;
        }
        header = false;
        if line.next <= pos {
            break;
        }
        pos = line.next;
    }
    place(src, &l.raw)
}

/// `e` placed at `at` when it has no place of its own (context kept).
pub(crate) fn placed(e: DecodeError, at: Location) -> DecodeError {
    if !matches!(e.location(), Location::Input) || matches!(at, Location::Input) {
        return e;
    }
    let mut out = DecodeError::new(e.kind(), at, e.message());
    for c in e.context().iter().rev() {
        out = out.within(c.clone());
    }
    out
}

/// Where a model's text ends (for what it lacks); [`Location::Input`] for a model made in code.
pub(crate) fn end_place(src: &[u8]) -> Location {
    if src.is_empty() {
        return Location::Input;
    }
    let (line, column) = line_col(src, src.len());
    Location::LineCol { line, column }
}

/// Every number a value holds.
pub(crate) fn numbers(v: &Value) -> Vec<f64> {
    match v {
        Value::Flag(b) => vec![f64::from(u8::from(*b))],
        Value::Int(i) => vec![*i as f64],
        Value::Float(f) => vec![*f],
        Value::Vec3(x) | Value::Color(x) => x.to_vec(),
        Value::AxisAngle(x) => x.to_vec(),
        Value::Numbers(x) => x.clone(),
        Value::Words(w) => w.iter().filter_map(|s| s.parse().ok()).collect(),
        Value::Name(s) => s.parse().ok().into_iter().collect(),
        Value::Event(t, _) => vec![*t],
        Value::None => Vec::new(),
    }
}

pub(crate) fn word(v: &Value) -> String {
    match v {
        Value::Name(s) => s.clone(),
        Value::Words(w) => w.first().cloned().unwrap_or_default(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Flag(b) => u8::from(*b).to_string(),
        _ => String::new(),
    }
}

pub(crate) fn num(n: &ANode, key: &str) -> Option<f64> {
    n.prop(key).and_then(|p| numbers(&p.value).first().copied())
}

pub(crate) fn num32(n: &ANode, key: &str, default: f32) -> f32 {
    num(n, key).map_or(default, |x| x as f32)
}

pub(crate) fn int<T: TryFrom<i64> + Default>(n: &ANode, key: &str) -> T {
    num(n, key)
        .and_then(|x| T::try_from(x as i64).ok())
        .unwrap_or_default()
}

pub(crate) fn text_of(n: &ANode, key: &str) -> String {
    n.prop(key).map(|p| word(&p.value)).unwrap_or_default()
}

pub(crate) fn name_field<const N: usize>(n: &ANode, key: &str) -> Name<N> {
    let s = text_of(n, key);
    Name::new(&s)
}

pub(crate) fn vec3_of(n: &ANode, key: &str) -> Option<[f32; 3]> {
    let v = numbers(&n.prop(key)?.value);
    (v.len() >= 3).then(|| [v[0] as f32, v[1] as f32, v[2] as f32])
}

pub(crate) fn rows_of(n: &ANode, key: &str) -> Vec<Vec<f64>> {
    n.list(key)
        .map(|l| l.rows.iter().map(<[f64]>::to_vec).collect())
        .unwrap_or_default()
}

/// The nodes of a geometry block or an animation in pre-order from their one parentless node,
/// and each node's children (indices into `anodes`), from their `parent` names (`index_of`:
/// lower-case name → index). A parent that is no node, a second root, a cycle or a node not
/// under the root is an error: compiling would lose it.
pub(crate) fn tree_order(
    src: &[u8],
    anodes: &[&ANode],
    index_of: &HashMap<String, usize>,
) -> Result<(Vec<usize>, Vec<Vec<usize>>), DecodeError> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); anodes.len()];
    let mut root = None;
    let at_parent = |n: &ANode| {
        n.prop("parent")
            .map_or(Location::Input, |p| place(src, &p.raw))
    };
    for (i, n) in anodes.iter().enumerate() {
        match n.parent() {
            Some(p) => {
                let pi = *index_of.get(&p.to_ascii_lowercase()).ok_or_else(|| {
                    bad_at(
                        at_parent(n),
                        format!("node {}: parent {p} is not a node", n.name),
                    )
                })?;
                if pi == i {
                    return Err(bad_at(
                        at_parent(n),
                        format!("node {}: its own parent", n.name),
                    ));
                }
                children[pi].push(i);
            }
            None if root.is_none() => root = Some(i),
            None => {
                return Err(bad_at(
                    place(src, &n.head),
                    format!("node {}: a second node without a parent", n.name),
                ));
            }
        }
    }
    let root = root.ok_or_else(|| {
        bad_at(
            anodes
                .first()
                .map_or(Location::Input, |n| place(src, &n.head)),
            "no node without a parent (the root)",
        )
    })?;
    let mut order = Vec::with_capacity(anodes.len());
    let mut stack = vec![root];
    let mut seen = vec![false; anodes.len()];
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            return Err(bad_at(
                place(src, &anodes[i].head),
                format!("node {}: the parents form a cycle", anodes[i].name),
            ));
        }
        order.push(i);
        stack.extend(children[i].iter().rev());
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(bad_at(
            place(src, &anodes[i].head),
            format!("node {}: not under the root", anodes[i].name),
        ));
    }
    Ok((order, children))
}

pub(crate) fn latin1(s: &str) -> Vec<u8> {
    s.chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect()
}

pub(crate) fn aabb_from_rows(rows: &[Vec<f64>]) -> Result<Aabb, DecodeError> {
    let mut tree = Vec::with_capacity(rows.len());
    for r in rows {
        if r.len() < 7 {
            return Err(bad("an aabb row needs min, max and a face"));
        }
        tree.push(AabbNode {
            min: [r[0] as f32, r[1] as f32, r[2] as f32],
            max: [r[3] as f32, r[4] as f32, r[5] as f32],
            left: None,
            right: None,
            face: r[6] as i32,
            plane: 0,
        });
    }
    // Pre-order: an inner node's left child follows it, its right child follows the left subtree.
    fn link(tree: &mut Vec<AabbNode>, i: usize, depth: usize) -> Result<usize, DecodeError> {
        if i >= tree.len() || depth > 256 {
            return Err(bad("the aabb rows do not form a tree"));
        }
        if tree[i].face >= 0 {
            return Ok(i + 1);
        }
        let l = i + 1;
        let r = link(tree, l, depth + 1)?;
        let end = link(tree, r, depth + 1)?;
        tree[i].left = Some(l as u32);
        tree[i].right = Some(r as u32);
        tree[i].plane = split_plane(&tree[l], &tree[r]);
        Ok(end)
    }
    let end = link(&mut tree, 0, 0)?;
    if end != tree.len() {
        return Err(bad(format!(
            "{} aabb rows after the tree",
            tree.len() - end
        )));
    }
    Ok(Aabb { tree })
}

/// The plane word of an inner node: the axis along which the right child's box centre lies
/// furthest from the left's, with its direction.
pub(crate) fn split_plane(l: &AabbNode, r: &AabbNode) -> u32 {
    let c = |n: &AabbNode, k: usize| (n.min[k] + n.max[k]) / 2.0;
    let (k, dd) = (0..3)
        .map(|k| (k, c(r, k) - c(l, k)))
        .fold(
            (0, 0.0f32),
            |best, x| if x.1.abs() > best.1.abs() { x } else { best },
        );
    if dd >= 0.0 { 1 << k } else { 8 << k }
}

/// The faces of an ASCII mesh split at their corners: each (vertex, UV index) pair is one
/// compiled vertex (the dialect indexes UVs per face corner).
pub(crate) struct Corners {
    /// Per face, its compiled vertex indices.
    pub faces: Vec<[u16; 3]>,
    /// Per face, its smoothing-group column.
    pub smoothing: Vec<u32>,
    /// Per face, its material column.
    pub materials: Vec<u32>,
    /// Per compiled vertex, its text vertex and UV index.
    pub source: Vec<(u32, u32)>,
}

/// Splits the `faces` rows (`v1 v2 v3 [group [t1 t2 t3 [material]]]`) of a mesh of
/// `vertex_count` text vertices at their corners. When every corner's UV index equals its vertex
/// index (a decompiled model), the text vertices keep their numbers, unused ones included.
pub(crate) fn split_corners(
    vertex_count: usize,
    face_rows: &[Vec<f64>],
    row_at: impl Fn(usize) -> Location,
) -> Result<Corners, DecodeError> {
    let mut corner: HashMap<(u32, u32), u16> = HashMap::new();
    let mut out = Corners {
        faces: Vec::with_capacity(face_rows.len()),
        smoothing: Vec::with_capacity(face_rows.len()),
        materials: Vec::with_capacity(face_rows.len()),
        source: Vec::new(),
    };
    let mut same = true;
    for (i, r) in face_rows.iter().enumerate() {
        if r.len() < 3 {
            return Err(bad_at(
                row_at(i),
                format!("face {i}: fewer than three vertices"),
            ));
        }
        let v = [r[0], r[1], r[2]].map(|x| x as i64);
        let t = if r.len() >= 7 {
            [r[4], r[5], r[6]].map(|x| x as i64)
        } else {
            v
        };
        same &= v == t;
        let mut idx = [0u16; 3];
        for k in 0..3 {
            if v[k] < 0 || v[k] as usize >= vertex_count {
                return Err(bad_at(
                    row_at(i),
                    format!("face {i} names vertex {}, of {vertex_count}", v[k]),
                ));
            }
            let key = (v[k] as u32, t[k].max(0) as u32);
            let next = out.source.len();
            let e = *corner.entry(key).or_insert_with(|| {
                out.source.push(key);
                next as u16
            });
            if out.source.len() > 65_535 {
                return Err(bad_at(row_at(i), "more than 65535 vertices"));
            }
            idx[k] = e;
        }
        out.faces.push(idx);
        out.smoothing
            .push(r.get(3).copied().unwrap_or(0.0).max(0.0) as u32);
        out.materials
            .push(r.get(7).copied().unwrap_or(0.0).max(0.0) as u32);
    }
    if same && vertex_count <= 65_535 {
        out.source = (0..vertex_count as u32).map(|v| (v, v)).collect();
        for (f, r) in out.faces.iter_mut().zip(face_rows) {
            *f = [r[0], r[1], r[2]].map(|x| x as u16);
        }
    }
    Ok(out)
}

/// Per compiled vertex, `width` values from `rows` (indexed by its text vertex, or by its UV
/// index when `by_uv`); `None` without rows. Missing values are 0.
pub(crate) fn per_vertex(
    rows: &[Vec<f64>],
    source: &[(u32, u32)],
    width: usize,
    by_uv: bool,
) -> Option<Vec<Vec<f32>>> {
    if rows.is_empty() {
        return None;
    }
    Some(
        source
            .iter()
            .map(|&(v, t)| {
                let row = rows.get(if by_uv { t } else { v } as usize);
                (0..width)
                    .map(|c| row.and_then(|r| r.get(c)).copied().unwrap_or(0.0) as f32)
                    .collect()
            })
            .collect(),
    )
}

/// A light node's fields. The two dialects name the dynamic-type and flare properties
/// differently: the first of `dynamic` (and of `flare`) the node has is read.
pub(crate) fn light_of(n: &ANode, dynamic: &[&str], flare: &[&str]) -> Light {
    let first = |keys: &[&str]| {
        keys.iter()
            .find(|k| n.prop(k).is_some())
            .map_or(0, |k| int(n, k))
    };
    let first_column = |key: &str| {
        rows_of(n, key)
            .iter()
            .filter_map(|r| r.first().map(|&x| x as f32))
            .collect()
    };
    Light {
        flare_radius: num32(n, "flareradius", 0.0),
        unknown: Vec::new(),
        flare_sizes: first_column("flaresizes"),
        flare_positions: first_column("flarepositions"),
        flare_color_shifts: rows_of(n, "flarecolorshifts")
            .iter()
            .filter(|r| r.len() >= 3)
            .map(|r| [r[0] as f32, r[1] as f32, r[2] as f32])
            .collect(),
        flare_textures: match n.list("texturenames").map(|l| &l.rows) {
            Some(Rows::Words(w)) => w
                .iter()
                .filter_map(|r| r.first())
                .map(|s| latin1(s))
                .collect(),
            _ => Vec::new(),
        },
        priority: int(n, "lightpriority"),
        ambient_only: int(n, "ambientonly"),
        dynamic_type: first(dynamic),
        affect_dynamic: int(n, "affectdynamic"),
        shadow: int(n, "shadow"),
        flare: first(flare),
        fading: int(n, "fadinglight"),
    }
}

/// A light node's statements; `names` spells the dynamic-type, affect-dynamic, flare and
/// fading properties in the dialect's way.
pub(crate) fn light_stmts(l: &Light, names: [&'static str; 4], b: &mut Vec<Stmt>) {
    let [dynamic, affect, flare, fading] = names;
    b.push(pnum("flareradius", l.flare_radius));
    b.push(pint("lightpriority", i64::from(l.priority)));
    b.push(pint("ambientonly", i64::from(l.ambient_only)));
    b.push(pint(dynamic, i64::from(l.dynamic_type)));
    b.push(pint(affect, i64::from(l.affect_dynamic)));
    b.push(pint("shadow", i64::from(l.shadow)));
    b.push(pint(flare, i64::from(l.flare)));
    b.push(pint(fading, i64::from(l.fading)));
    if !l.flare_textures.is_empty() {
        let names: Vec<Vec<String>> = l
            .flare_textures
            .iter()
            .map(|t| vec![t.iter().map(|&c| char::from(c)).collect()])
            .collect();
        b.push(Stmt::List(ListProp::counted(
            "texturenames",
            Rows::Words(names),
        )));
    }
    for (key, values) in [
        ("flarepositions", &l.flare_positions),
        ("flaresizes", &l.flare_sizes),
    ] {
        if !values.is_empty() {
            b.push(rows_list(
                key,
                values.iter().map(|&x| vec![d(x)]).collect(),
                false,
            ));
        }
    }
    if !l.flare_color_shifts.is_empty() {
        b.push(list("flarecolorshifts", &l.flare_color_shifts));
    }
}

/// The controller a key list names (`positionkey`, `alphabezierkey`, `controller132key`) and
/// whether its keys are bezier; `kind_of` gives a controller name's type number.
pub(crate) fn key_controller(
    key: &str,
    kind_of: impl Fn(&str) -> Option<u32>,
) -> Result<(u32, bool), DecodeError> {
    let lower = key.to_ascii_lowercase();
    let (base, bezier) = match lower.strip_suffix("bezierkey") {
        Some(b) => (b, true),
        None => (lower.strip_suffix("key").unwrap_or(&lower), false),
    };
    let kind = kind_of(base).ok_or_else(|| bad(format!("{key}: no such controller")))?;
    Ok((kind, bezier))
}

/// The `faces` list: per face its vertices, smoothing group 1, its vertices again as UV indices
/// (a compiled vertex carries its own UVs) and its material.
pub(crate) fn faces_list(faces: &[Face]) -> Stmt {
    rows_list(
        "faces",
        faces
            .iter()
            .map(|f| {
                let [a, b, c] = f.vertices.map(f64::from);
                vec![a, b, c, 1.0, a, b, c, f64::from(f.material)]
            })
            .collect(),
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mdl_ascii::{self, Geometry, NodeKind};

    /// A model of one node holding `v` as a property and as a list row, as the decompilers
    /// write numbers.
    fn model_with(v: f64) -> mdl_ascii::Model {
        let mut n = ANode::new(NodeKind::Dummy, "n");
        n.body.push(prop("scale", Value::Float(v)));
        n.body.push(list("verts", &[[v as f32, 1.0, -(v as f32)]]));
        let geometry = Geometry {
            name: "m".into(),
            body: vec![Stmt::Node(n)],
            head: Default::default(),
            end: Default::default(),
        };
        mdl_ascii::Model {
            stmts: vec![
                prop("newmodel", Value::Name("m".into())),
                Stmt::Geometry(geometry),
            ],
            ..mdl_ascii::Model::default()
        }
    }

    proptest::proptest! {
        /// Any finite `f32` written by the decompilers' formatter (`d`, then the canonical
        /// writer) reads back, by the reader's own parser, to the same bits.
        #[test]
        fn every_finite_float_reads_back_to_its_bits(x in proptest::num::f32::ANY) {
            proptest::prop_assume!(x.is_finite());
            let text = mdl_ascii::write_canonical_bytes(&model_with(d(x)));
            let back = mdl_ascii::read(&text).unwrap();
            let n = back.nodes().next().unwrap();
            let Some(Value::Float(s)) = n.prop("scale").map(|p| &p.value) else {
                panic!("no scale in {}", String::from_utf8_lossy(&text));
            };
            proptest::prop_assert_eq!((*s as f32).to_bits(), x.to_bits());
            let row = n.list("verts").and_then(|l| l.rows.row(0)).unwrap().to_vec();
            proptest::prop_assert_eq!((row[0] as f32).to_bits(), x.to_bits());
            proptest::prop_assert_eq!((row[2] as f32).to_bits(), (-x).to_bits());
            // And the text is the shortest decimal of the f32.
            let s = String::from_utf8_lossy(&text).into_owned();
            proptest::prop_assert!(s.contains(&format!("{x}")), "{} not in {}", x, s);
        }

        /// A stored orientation's text compiles back to it, bit for bit, when its length is 1
        /// to within `f32` rounding (every corpus quaternion: `mdl_text_cycle`).
        #[test]
        fn an_orientation_text_compiles_back_to_its_bits(
            w in -1.0f32..1.0, x in -1.0f32..1.0, y in -1.0f32..1.0, z in -1.0f32..1.0,
        ) {
            let len = (w * w + x * x + y * y + z * z).sqrt();
            proptest::prop_assume!(len > 0.1);
            let q = [x / len, y / len, z / len, w / len].map(f32::to_bits);
            let a = orientation_text(q, axis_angle_of_bits, quat_bits);
            proptest::prop_assert_eq!(quat_bits(&a), q);
        }
    }

    /// Compiles `text` in both dialects; both must fail at `line:column` saying `what`.
    fn fails_at(text: &str, line: u32, column: u32, what: &str) {
        let t = mdl_ascii::read(text.as_bytes()).unwrap();
        let kotor = crate::mdl::from_ascii(&t, crate::mdl::Game::K1).map(|_| ());
        let nwn = crate::mdl::nwn::from_ascii(&t).map(|_| ());
        for (dialect, r) in [("KotOR", kotor), ("NWN", nwn)] {
            let e = r.expect_err(dialect);
            assert_eq!(
                e.location(),
                Location::LineCol { line, column },
                "{dialect}: {e}"
            );
            assert!(e.to_string().contains(what), "{dialect}: {e}");
        }
    }

    #[test]
    fn compile_errors_name_the_line_and_column() {
        // No geometry: where the text ends.
        fails_at(
            "newmodel a\nsetsupermodel a NULL\ndonemodel a\n",
            4,
            1,
            "no beginmodelgeom",
        );
        // A node its own parent: its `parent` line.
        fails_at(
            "newmodel a\nbeginmodelgeom a\nnode dummy a\n  parent a\nendnode\nendmodelgeom a\ndonemodel a\n",
            4,
            3,
            "its own parent",
        );
        // A parent that is no node, and a second root.
        let tree = |second: &str| {
            format!(
                "newmodel a\nbeginmodelgeom a\nnode dummy a\n  parent NULL\nendnode\nnode dummy b\n  parent {second}\nendnode\nendmodelgeom a\ndonemodel a\n"
            )
        };
        fails_at(&tree("zz"), 7, 3, "parent zz is not a node");
        fails_at(&tree("NULL"), 6, 1, "a second node without a parent");
        // A face naming a vertex beyond the list: its row.
        fails_at(
            "newmodel a\nbeginmodelgeom a\nnode trimesh a\n  parent NULL\n  verts 3\n    0 0 0\n    1 0 0\n    0 1 0\n  faces 2\n    0 1 2 1 0 1 2 0\n\n    # a comment\n      0 1 3 1 0 1 2 0\nendnode\nendmodelgeom a\ndonemodel a\n",
            13,
            7,
            "face 1 names vertex 3, of 3",
        );
    }
}
