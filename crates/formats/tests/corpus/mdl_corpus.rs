//! Every binary MDL + MDX pair of the corpus reads and writes back byte for byte.

use areakit_formats::mdl;
use areakit_testkit::corpus_files;

use super::{close, cut_read, same_rotation};

fn pairs() -> Vec<(std::path::PathBuf, Vec<u8>, Vec<u8>)> {
    corpus_files(&["mdl-bin"])
        .into_iter()
        .map(|p| {
            let mdl = std::fs::read(&p).unwrap();
            let mdx = std::fs::read(p.with_extension("mdx")).unwrap();
            (p, mdl, mdx)
        })
        .collect()
}

#[test]
fn every_pair_round_trips_byte_for_byte() {
    let pairs = pairs();
    assert_eq!(pairs.len(), 136, "the corpus holds 136 binary MDL pairs");
    let mut failures = Vec::new();
    let (mut gap_mdl, mut gap_mdx, mut total) = (0usize, 0usize, 0usize);
    for (p, a, x) in &pairs {
        let m = match mdl::read(a, x) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{}: {e}", p.display()));
                continue;
            }
        };
        let (gm, gx) = m.gap_sizes();
        gap_mdl += gm;
        gap_mdx += gx;
        total += a.len() + x.len();
        let (b, y) = mdl::write(&m).unwrap();
        if &b != a || &y != x {
            failures.push(format!(
                "{}: written back differs (mdl {} vs {}, mdx {} vs {})",
                p.display(),
                b.len(),
                a.len(),
                y.len(),
                x.len()
            ));
        }
    }
    eprintln!("gaps: {gap_mdl} MDL bytes, {gap_mdx} MDX bytes of {total}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_pair_written_in_the_canonical_layout_reads_back_equal() {
    let pairs = pairs();
    assert_eq!(pairs.len(), 136);
    let mut terminated = 0;
    for (p, a, x) in &pairs {
        let m = mdl::read(a, x).unwrap();
        let mut fresh = m.clone();
        fresh.clear_source_layout();
        let (b, y) = mdl::write(&fresh).unwrap();
        let mut back = mdl::read(&b, &y).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        // Compared through the canonical bytes: some files hold NaN floats (animation keys,
        // mesh fields), which `==` never finds equal; the bytes compare them bit for bit.
        back.clear_source_layout();
        assert!(
            mdl::write(&back).unwrap() == (b.clone(), y.clone()),
            "{}: the canonical layout reads back different",
            p.display()
        );
        // Like BioWare's compiler, the canonical MDX ends each mesh's rows with a terminator
        // row (the reader keeps it as a gap).
        let rows: usize = m
            .nodes
            .iter()
            .filter_map(|n| n.mesh.as_ref())
            .filter(|x| !x.positions.is_empty())
            .map(|x| x.mdx_stride as usize)
            .sum();
        let reread = mdl::read(&b, &y).unwrap();
        assert!(
            reread.gap_sizes().1 >= rows,
            "{}: terminator rows",
            p.display()
        );
        terminated += usize::from(rows > 0);
    }
    assert!(terminated > 100, "{terminated} of 136 models have MDX rows");
}

/// Three models picked by size (the smallest without MDX rows, the two smallest with), cut at
/// every length of the MDL (the size word kept consistent, so the walk itself meets the end)
/// and of the MDX: each cut gives a located error, never a panic.
#[test]
fn truncation_at_every_length_gives_a_located_error() {
    let mut pairs = pairs();
    pairs.sort_by_key(|(_, a, x)| a.len() + x.len());
    let without = pairs.iter().filter(|(_, _, x)| x.is_empty()).take(1);
    let with = pairs.iter().filter(|(_, _, x)| !x.is_empty()).take(2);
    let mut cuts = 0;
    for (p, a, x) in without.chain(with) {
        let whole = mdl::read(a, x).unwrap();
        for n in 0..a.len() {
            let mut t = a[..n].to_vec();
            if n >= 12 {
                t[4..8].copy_from_slice(&((n - 12) as u32).to_le_bytes());
            }
            cuts += cut_read(p, n, mdl::read(&t, x), &whole);
        }
        for n in 0..x.len() {
            match mdl::read(a, &x[..n]) {
                Err(e) => {
                    let msg = e.to_string();
                    assert!(
                        msg.contains("MDX") && msg.contains("node "),
                        "{} MDX cut at {n}: {msg}",
                        p.display()
                    );
                    cuts += 1;
                }
                Ok(m) => assert!(
                    m == whole,
                    "{} MDX cut at {n} reads a different model",
                    p.display()
                ),
            }
        }
    }
    assert!(cuts > 20_000, "{cuts} cuts gave errors");
}

fn close_all(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| close(*x, *y))
}

/// Quaternions (w, x, y, z) equal up to sign, within the precision of printed axis/angle and of
/// compressed words: a compressed word stores x, y, z in 11, 11 and 10 bits and w as the square
/// root of the rest, so near w = 0 one step of x moves w by up to 0.045 (2.6°).
fn same_quaternion(a: &[f64], b: &[f64], compressed: bool) -> bool {
    same_rotation(a, b, if compressed { 1e-3 } else { 1e-5 })
}

/// The keys of a controller as (time, values) with orientations as quaternions (w, x, y, z).
fn keys(n: &mdl::Node, c: &mdl::Controller) -> Vec<(f32, Vec<f64>)> {
    n.keys(c)
        .map(|(t, v)| {
            let vals = match (c.kind, c.columns & 0x0F, c.is_bezier()) {
                (20, 2, false) => mdl::quat::decompress(v[0].to_bits()).to_vec(),
                (20, 4, false) => vec![v[3].into(), v[0].into(), v[1].into(), v[2].into()],
                _ => v.iter().map(|&x| f64::from(x)).collect(),
            };
            (t, vals)
        })
        .collect()
}

fn same_controllers(a: &mdl::Node, b: &mdl::Node) -> Result<(), String> {
    if a.controllers.len() != b.controllers.len() {
        return Err(format!(
            "{} vs {} controllers",
            a.controllers.len(),
            b.controllers.len()
        ));
    }
    for c in &a.controllers {
        let d = b
            .controllers
            .iter()
            .find(|d| d.kind == c.kind)
            .ok_or(format!("controller {} missing", c.kind))?;
        let (ka, kb) = (keys(a, c), keys(b, d));
        if ka.len() != kb.len() {
            return Err(format!(
                "controller {}: {} vs {} keys",
                c.kind,
                ka.len(),
                kb.len()
            ));
        }
        for ((ta, va), (tb, vb)) in ka.iter().zip(&kb) {
            let ok = close(*ta, *tb)
                && if c.kind == 20 && va.len() == 4 && vb.len() == 4 {
                    let compressed = c.width() == 1 || d.width() == 1;
                    same_quaternion(va, vb, compressed)
                } else {
                    va.len() == vb.len()
                        && va.iter().zip(vb).all(|(x, y)| close(*x as f32, *y as f32))
                };
            if !ok {
                return Err(format!(
                    "controller {}: key {ta} {va:?} vs {tb} {vb:?}",
                    c.kind
                ));
            }
        }
    }
    Ok(())
}

/// Equal as content: every node (name, type, place in the tree, position, orientation), vertex
/// (position, normal, UVs), face (vertices, material), controller key and animation.
fn same_content(a: &mdl::Model, b: &mdl::Model) -> Result<(), String> {
    if a.nodes.len() != b.nodes.len() {
        return Err(format!("{} vs {} nodes", a.nodes.len(), b.nodes.len()));
    }
    for (i, (p, q)) in a.nodes.iter().zip(&b.nodes).enumerate() {
        let at = a.node_path(i);
        let err = |m: String| format!("{at}: {m}");
        if a.node_name(p) != b.node_name(q)
            || p.kind_name() != q.kind_name()
            || p.children != q.children
        {
            return Err(err(format!(
                "name, type or children differ ({} {})",
                p.kind_name(),
                q.kind_name()
            )));
        }
        if !close_all(&p.position, &q.position) {
            return Err(err(format!(
                "position {:?} vs {:?}",
                p.position, q.position
            )));
        }
        same_controllers(p, q).map_err(err)?;
        match (&p.mesh, &q.mesh) {
            (Some(x), Some(y)) => {
                let pos = |a: &[[f32; 3]]| {
                    a.iter()
                        .flatten()
                        .map(|x| if x.is_nan() { u32::MAX } else { x.to_bits() })
                        .collect::<Vec<_>>()
                };
                if pos(&x.positions) != pos(&y.positions) {
                    return Err(err("vertex positions differ".into()));
                }
                let fa: Vec<_> = x.faces.iter().map(|f| (f.vertices, f.material)).collect();
                let fb: Vec<_> = y.faces.iter().map(|f| (f.vertices, f.material)).collect();
                if fa != fb {
                    return Err(err("faces differ".into()));
                }
                let (u, v) = (&x.vertices, &y.vertices);
                // Bit for bit, but any NaN equals any NaN: text keeps "NaN", not its payload
                // (the damaged MDX files of PyKotor's tests hold some).
                let key = |x: &f32| if x.is_nan() { u32::MAX } else { x.to_bits() };
                let bits = |a: &[[f32; 2]]| a.iter().flatten().map(key).collect::<Vec<_>>();
                let bits3 = |a: &[[f32; 3]]| a.iter().flatten().map(key).collect::<Vec<_>>();
                for k in 0..2 {
                    if bits(&u.uvs[k]) != bits(&v.uvs[k]) {
                        let i = u.uvs[k].iter().zip(&v.uvs[k]).position(|(p, q)| p != q);
                        return Err(err(format!(
                            "UV set {k} differs ({} vs {}) at {i:?}: {:?} vs {:?}",
                            u.uvs[k].len(),
                            v.uvs[k].len(),
                            i.map(|i| u.uvs[k][i]),
                            i.map(|i| v.uvs[k][i])
                        )));
                    }
                }
                if bits3(&u.normals) != bits3(&v.normals) {
                    let i = u.normals.iter().zip(&v.normals).position(|(p, q)| p != q);
                    return Err(err(format!(
                        "normals differ ({} vs {}) at {i:?}: {:?} vs {:?}",
                        u.normals.len(),
                        v.normals.len(),
                        i.map(|i| u.normals[i]),
                        i.map(|i| v.normals[i])
                    )));
                }
                if u.bone_weights.len() != v.bone_weights.len() {
                    return Err(err("bone weights differ".into()));
                }
            }
            (None, None) => {}
            _ => return Err(err("mesh on one side only".into())),
        }
        if p.aabb.as_ref().map(|t| t.tree.len()) != q.aabb.as_ref().map(|t| t.tree.len()) {
            return Err(err("AABB trees differ".into()));
        }
    }
    if a.animations.len() != b.animations.len() {
        return Err("animation count".into());
    }
    for (x, y) in a.animations.iter().zip(&b.animations) {
        let name = x.geometry.name.as_string();
        if name != y.geometry.name.as_string()
            || !close(x.length, y.length)
            || !close(x.transition, y.transition)
            || x.events.len() != y.events.len()
            || x.nodes.len() != y.nodes.len()
        {
            return Err(format!("animation {name}: header, events or nodes differ"));
        }
        for (p, q) in x.nodes.iter().zip(&y.nodes) {
            if a.node_name(p) != b.node_name(q) {
                return Err(format!("animation {name}: node names differ"));
            }
            same_controllers(p, q)
                .map_err(|e| format!("animation {name} node {}: {e}", a.node_name(p)))?;
        }
    }
    Ok(())
}

#[test]
fn binary_to_ascii_to_binary_keeps_every_node_vertex_face_key_and_animation() {
    let pairs = pairs();
    assert_eq!(pairs.len(), 136);
    let mut failures = Vec::new();
    for (p, a, x) in &pairs {
        let m = mdl::read(a, x).unwrap();
        let text = areakit_formats::mdl_ascii::write_canonical_bytes(&mdl::to_ascii(&m));
        let parsed = match areakit_formats::mdl_ascii::read(&text) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: the ASCII does not read: {e}", p.display()));
                continue;
            }
        };
        let back = match mdl::from_ascii(&parsed, m.game) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{}: does not compile: {e}", p.display()));
                continue;
            }
        };
        // It writes and reads back as binary too.
        let (b2, y2) = mdl::write(&back).unwrap();
        let back = mdl::read(&b2, &y2).unwrap();
        if let Err(e) = same_content(&m, &back) {
            failures.push(format!("{}: {e}", p.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of 136:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn word(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(b[o..o + 4].try_into().unwrap())
}

/// The (offset, child pointers) of every node of the tree at `root` (offsets in the MDL data),
/// read from the bytes alone.
fn tree_of(data: &[u8], root: u32) -> Vec<(u32, Vec<u32>)> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(at) = stack.pop() {
        let o = at as usize;
        let (table, count) = (word(data, o + 44) as usize, word(data, o + 48) as usize);
        let kids: Vec<u32> = (0..count).map(|k| word(data, table + 4 * k)).collect();
        stack.extend(kids.iter().rev());
        out.push((at, kids));
    }
    out
}

/// The first corpus model with an animation holding two nodes that both have children: the
/// second one's first child pointer is turned to the first one's first child (the class a
/// popular mod ships: one node block reached from two parents). Returns the edited MDL, its
/// MDX, and the animation's name.
fn shared_node_model() -> (Vec<u8>, Vec<u8>, String) {
    for (_, a, x) in pairs() {
        let data = &a[12..];
        let (anims, count) = (word(data, 88) as usize, word(data, 92) as usize);
        for k in 0..count {
            let anim = word(data, anims + 4 * k) as usize;
            let nodes = tree_of(data, word(data, anim + 40));
            let parents: Vec<&(u32, Vec<u32>)> =
                nodes.iter().filter(|(_, kids)| !kids.is_empty()).collect();
            // Two parents whose subtrees are disjoint: the second is not below the first.
            for (i, p1) in parents.iter().enumerate() {
                let below: Vec<u32> = tree_of(data, p1.0).iter().map(|n| n.0).collect();
                if let Some(p2) = parents[i + 1..].iter().find(|p| !below.contains(&p.0)) {
                    let mut b = a.clone();
                    let table = word(data, p2.0 as usize + 44) as usize;
                    b[12 + table..12 + table + 4].copy_from_slice(&p1.1[0].to_le_bytes());
                    let name = String::from_utf8_lossy(&data[anim + 8..anim + 40])
                        .trim_end_matches('\0')
                        .to_string();
                    return (b, x, name);
                }
            }
        }
    }
    panic!("no corpus model has an animation with two parent nodes");
}

/// A node block reached from two parents in an animation reads (it was "a node reached
/// twice"), writes back byte for byte, is reported as `mdl-shared-node` (a warning, no error),
/// and in the canonical layout is written once with both parents pointing at it.
#[test]
fn an_animation_node_reached_from_two_parents_reads_and_is_kept() {
    let (a, x, anim) = shared_node_model();
    let m = mdl::read(&a, &x).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(mdl::write(&m).unwrap(), (a.clone(), x.clone()));
    let findings = mdl::validate(&m);
    assert!(
        findings
            .iter()
            .any(|f| f.code == "mdl-shared-node" && f.message.contains(&anim)),
        "{findings:?}"
    );
    assert!(
        findings
            .iter()
            .all(|f| f.severity != areakit_formats::Severity::Error || f.code != "mdl-shared-node")
    );
    let a_nodes = &m
        .animations
        .iter()
        .find(|n| n.geometry.name.as_string() == anim)
        .unwrap()
        .nodes;
    let mut parents = vec![0; a_nodes.len()];
    for n in a_nodes {
        for &c in &n.children {
            parents[c as usize] += 1;
        }
    }
    assert_eq!(parents.iter().filter(|&&p| p == 2).count(), 1);
    let mut fresh = m.clone();
    fresh.clear_source_layout();
    let (b, y) = mdl::write(&fresh).unwrap();
    let mut back = mdl::read(&b, &y).unwrap();
    back.clear_source_layout();
    assert!(
        back == fresh,
        "the canonical layout reads back the same shared node"
    );
    // Written once: in the canonical bytes two parents' child tables hold the same offset.
    let data = &b[12..];
    let anims = word(data, 88) as usize;
    let k = m
        .animations
        .iter()
        .position(|n| n.geometry.name.as_string() == anim)
        .unwrap();
    let mut nodes = tree_of(data, word(data, word(data, anims + 4 * k) as usize + 40));
    nodes.sort_unstable();
    nodes.dedup();
    let mut listed: Vec<u32> = nodes.iter().flat_map(|(_, kids)| kids.clone()).collect();
    let all = listed.len();
    listed.sort_unstable();
    listed.dedup();
    assert_eq!(
        all - listed.len(),
        1,
        "one child offset listed by two parents"
    );
}

/// Bytes after the MDL size the header declares (a size word smaller than the file) are kept,
/// written back, and reported as `mdl-trailing-bytes` (a warning).
#[test]
fn bytes_after_the_declared_size_are_kept_and_reported() {
    let (_, a, x) = pairs().into_iter().next().unwrap();
    let mut b = a.clone();
    b.extend_from_slice(b"\0\0\0\0tail garbage\x01\x02");
    let m = mdl::read(&b, &x).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.trailing, &b[a.len()..]);
    assert_eq!(mdl::write(&m).unwrap(), (b.clone(), x.clone()));
    let findings = mdl::validate(&m);
    let f = findings
        .iter()
        .find(|f| f.code == "mdl-trailing-bytes")
        .unwrap_or_else(|| panic!("{findings:?}"));
    assert_eq!(f.severity, areakit_formats::Severity::Warning);
    assert_eq!(f.place.offset, Some(a.len() as u64));
    let mut fresh = m.clone();
    fresh.clear_source_layout();
    let (c, _) = mdl::write(&fresh).unwrap();
    assert!(c.ends_with(&m.trailing));
    // A size word larger than the file is still an error.
    let mut short = a.clone();
    short.truncate(a.len() - 4);
    assert!(mdl::read(&short, &x).is_err());
}
