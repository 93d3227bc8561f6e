//! Every NWN compiled model of the corpus reads (without error findings) and writes back byte for
//! byte; its canonical
//! layout reads back equal; every cut gives a located error.

use areakit_formats::mdl::{self, nwn};
use areakit_testkit::corpus_files;

use super::{close, cut_read, same_rotation};

fn models() -> Vec<(std::path::PathBuf, Vec<u8>)> {
    corpus_files(&["nwn-mdl-bin"])
        .into_iter()
        .map(|p| {
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect()
}

#[test]
fn every_model_round_trips_byte_for_byte() {
    let models = models();
    assert_eq!(
        models.len(),
        108,
        "the corpus holds 108 NWN compiled models"
    );
    let mut failures = Vec::new();
    let (mut gap_model, mut gap_raw, mut total) = (0usize, 0usize, 0usize);
    for (p, b) in &models {
        assert!(
            mdl::is_nwn_layout(b),
            "{}: not told as NWN by its structure",
            p.display()
        );
        let m = match nwn::read(b) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{}: {e}", p.display()));
                continue;
            }
        };
        let errors: Vec<String> = nwn::validate(&m)
            .into_iter()
            .filter(|f| f.severity == areakit_formats::Severity::Error)
            .map(|f| format!("{}: {} {}", p.display(), f.code, f.message))
            .collect();
        failures.extend(errors);
        let (gm, gr) = m.gap_sizes();
        gap_model += gm;
        gap_raw += gr;
        total += b.len();
        let back = nwn::write(&m).unwrap();
        if &back != b {
            failures.push(format!(
                "{}: written back differs ({} vs {} bytes)",
                p.display(),
                back.len(),
                b.len()
            ));
        }
    }
    eprintln!("gaps: {gap_model} model-data bytes, {gap_raw} raw-data bytes of {total}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every byte of every corpus model is read as a field of some block.
    assert_eq!((gap_model, gap_raw), (0, 0));
}

#[test]
fn every_model_written_in_the_canonical_layout_reads_back_equal() {
    let models = models();
    assert_eq!(models.len(), 108);
    let mut same_bytes = 0;
    for (p, b) in &models {
        let m = nwn::read(b).unwrap();
        let mut fresh = m.clone();
        fresh.clear_source_layout();
        let c = nwn::write(&fresh).unwrap();
        let mut back = nwn::read(&c).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        back.clear_source_layout();
        assert!(
            nwn::write(&back).unwrap() == c,
            "{}: the canonical layout reads back different",
            p.display()
        );
        assert_eq!(back.nodes.len(), m.nodes.len());
        same_bytes += usize::from(&c == b);
    }
    // The canonical layout packs the blocks in walk order, empty arrays at offset 0, as
    // BioWare's compiler does; it puts a node's controllers after its children, so files whose
    // nodes have both differ.
    eprintln!("{same_bytes} of 108 canonical layouts equal their source bytes");
}

/// Three models (the smallest, the smallest with raw data, the tile with its AABB walkmesh),
/// cut at every length (the size words kept consistent, so the walk itself meets the end): each
/// cut gives a located error, never a panic.
#[test]
fn truncation_at_every_length_gives_a_located_error() {
    let mut models = models();
    models.sort_by_key(|(_, b)| b.len());
    let smallest = models.iter().take(1);
    let with_raw = models
        .iter()
        .filter(|(_, b)| u32::from_le_bytes(b[8..12].try_into().unwrap()) > 0)
        .take(1);
    let tile = models
        .iter()
        .filter(|(p, _)| p.to_string_lossy().contains("ttd01"));
    let mut cuts = 0;
    let mut picked = 0;
    for (p, b) in smallest.chain(with_raw).chain(tile) {
        picked += 1;
        let whole = nwn::read(b).unwrap();
        let model_size = u32::from_le_bytes(b[4..8].try_into().unwrap()) as usize;
        for n in 0..b.len() {
            let mut t = b[..n].to_vec();
            if n >= 12 {
                // Keep the sizes consistent with the cut: the model data first, then raw data.
                let m = (n - 12).min(model_size);
                t[4..8].copy_from_slice(&(m as u32).to_le_bytes());
                t[8..12].copy_from_slice(&((n - 12 - m) as u32).to_le_bytes());
            }
            cuts += cut_read(p, n, nwn::read(&t), &whole);
        }
    }
    assert_eq!(picked, 3);
    assert!(cuts > 30_000, "{cuts} cuts gave errors");
}

fn close_rows<const N: usize>(a: &Option<Vec<[f32; N]>>, b: &Option<Vec<[f32; N]>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| x.iter().zip(y).all(|(p, q)| close(*p, *q)))
        }
        _ => false,
    }
}

/// The same controllers (type, key times, values; orientations as rotations), in order.
fn same_keys(a: &nwn::Node, b: &nwn::Node) -> Result<(), String> {
    if a.controllers.len() != b.controllers.len() {
        return Err(format!(
            "{} vs {} controllers",
            a.controllers.len(),
            b.controllers.len()
        ));
    }
    for (c, d) in a.controllers.iter().zip(&b.controllers) {
        if c.kind != d.kind || c.rows != d.rows || c.columns != d.columns {
            return Err(format!("controller {} vs {}", c.kind, d.kind));
        }
        for ((ta, va), (tb, vb)) in a.keys(c).zip(b.keys(d)) {
            let ok = close(ta, tb)
                && va.len() == vb.len()
                && if c.kind == 20 && va.len() == 4 && !c.is_bezier() {
                    same_rotation(&f64s(va), &f64s(vb), 1e-5)
                } else {
                    va.iter().zip(vb).all(|(x, y)| close(*x, *y))
                };
            if !ok {
                return Err(format!("controller {}: {ta} {va:?} vs {tb} {vb:?}", c.kind));
            }
        }
    }
    Ok(())
}

/// An emitter's names, words, sizes and render order.
type EmitterFields = (Vec<String>, Vec<u32>, [f32; 3], u16);

/// An emitter's fields as text carries them: names up to their NUL, no padding.
fn emitter(n: &nwn::Node) -> Option<EmitterFields> {
    n.emitter.as_ref().map(|e| {
        (
            vec![
                e.update.as_string(),
                e.render.as_string(),
                e.blend.as_string(),
                e.texture.as_string(),
                e.chunk.as_string(),
            ],
            vec![
                e.x_grid,
                e.y_grid,
                e.spawn_type,
                e.two_sided_texture,
                e.looping,
                e.flags,
            ],
            [e.dead_space, e.blast_radius, e.blast_length],
            e.render_order,
        )
    })
}

fn reference(n: &nwn::Node) -> Option<(String, u32)> {
    n.reference
        .as_ref()
        .map(|r| (r.model.as_string(), r.reattachable))
}

/// Node name, type, children and controllers; for meshes every vertex stream, face, texture
/// and flag; lights, emitters, references, dangly data and AABB trees equal; skin weights by
/// bone name.
fn same_node(m: &nwn::Model, b: &nwn::Model, p: &nwn::Node, q: &nwn::Node) -> Result<(), String> {
    if p.name() != q.name() || p.flags != q.flags || p.children != q.children {
        return Err("name, type or children differ".into());
    }
    same_keys(p, q)?;
    if p.light != q.light || emitter(p) != emitter(q) || reference(p) != reference(q) {
        return Err(format!(
            "light, emitter or reference data differ: {:?} {:?} vs {:?} {:?}",
            p.light, p.emitter, q.light, q.emitter
        ));
    }
    if p.dangly != q.dangly || p.anim != q.anim {
        return Err("dangly or animated-mesh data differ".into());
    }
    if let (Some(x), Some(y)) = (&p.aabb, &q.aabb)
        && x.tree
            .iter()
            .zip(&y.tree)
            .any(|(s, t)| s.min != t.min || s.max != t.max || s.face != t.face || s.left != t.left)
    {
        return Err("AABB trees differ".into());
    }
    if let (Some(x), Some(y)) = (&p.mesh, &q.mesh) {
        let fields = |m: &nwn::Mesh| {
            (
                m.ambient,
                m.diffuse,
                m.specular,
                m.shininess,
                [
                    m.shadow,
                    m.beaming,
                    m.render,
                    m.transparency_hint,
                    m.render_hint,
                ],
                m.tile_fade,
                [m.rotate_texture, m.lightmapped],
                (0..4).map(|k| m.texture(k)).collect::<Vec<_>>(),
                m.texture_count,
            )
        };
        if fields(x) != fields(y) {
            return Err(format!(
                "mesh header fields differ: {:?} vs {:?}",
                fields(x),
                fields(y)
            ));
        }
        if !close_rows(&x.positions, &y.positions) || !close_rows(&x.normals, &y.normals) {
            return Err("positions or normals differ".into());
        }
        if (0..4).any(|k| !close_rows(&x.uvs[k], &y.uvs[k])) || x.colors != y.colors {
            return Err("UVs or colours differ".into());
        }
        if x.extra[3] != y.extra[3] || x.extra[5] != y.extra[5] {
            return Err("tangents differ".into());
        }
        let faces = |m: &nwn::Mesh| -> Vec<_> {
            m.faces.iter().map(|f| (f.vertices, f.material)).collect()
        };
        if faces(x) != faces(y) {
            return Err("faces differ".into());
        }
    }
    if let (Some(x), Some(y)) = (&p.skin, &q.skin) {
        let named = |model: &nwn::Model, s: &nwn::Skin| -> Vec<Vec<(String, u32)>> {
            let (Some(w), Some(ix)) = (&s.weights, &s.bone_indices) else {
                return Vec::new();
            };
            w.iter()
                .zip(ix)
                .map(|(w, ix)| {
                    let mut row: Vec<(String, u32)> = w
                        .iter()
                        .zip(ix)
                        .filter(|(w, _)| **w > 0.0)
                        .map(|(w, &slot)| {
                            let number = s.bone_nodes[slot as usize];
                            let node = model
                                .nodes
                                .iter()
                                .find(|n| n.node_number == i32::from(number));
                            (node.map(|n| n.name()).unwrap_or_default(), w.to_bits())
                        })
                        .collect();
                    row.sort();
                    row
                })
                .collect()
        };
        if named(m, x) != named(b, y) {
            return Err("skin weights differ".into());
        }
    }
    Ok(())
}

/// An animation's events as text carries them (names up to their NUL).
fn events(a: &nwn::Animation) -> Vec<(f32, String)> {
    a.events
        .iter()
        .map(|e| (e.time, e.name.as_string()))
        .collect()
}

/// Equal as content: every node, vertex, face, controller key and animation (header, events,
/// nodes, keys).
fn same_content(a: &nwn::Model, b: &nwn::Model) -> Result<(), String> {
    if a.nodes.len() != b.nodes.len() || a.animations.len() != b.animations.len() {
        return Err("node or animation counts differ".into());
    }
    let head = |m: &nwn::Model| {
        (
            m.name(),
            m.header.supermodel.as_string(),
            m.header.classification,
            m.header.fog,
            m.header.animation_scale,
        )
    };
    if head(a) != head(b) {
        return Err(format!(
            "model header differs: {:?} vs {:?}",
            head(a),
            head(b)
        ));
    }
    for (i, (p, q)) in a.nodes.iter().zip(&b.nodes).enumerate() {
        same_node(a, b, p, q).map_err(|e| format!("{}: {e}", a.node_path(i)))?;
    }
    for (x, y) in a.animations.iter().zip(&b.animations) {
        let name = x.geometry.name.as_string();
        if name != y.geometry.name.as_string()
            || x.length != y.length
            || x.transition != y.transition
            || x.root.as_string() != y.root.as_string()
            || events(x) != events(y)
            || x.nodes.len() != y.nodes.len()
        {
            return Err(format!(
                "animation {name}: header, events or node count differ"
            ));
        }
        for (p, q) in x.nodes.iter().zip(&y.nodes) {
            if p.name() != q.name() || p.flags != q.flags || p.children != q.children {
                return Err(format!("animation {name}: node {} differs", p.name()));
            }
            same_keys(p, q).map_err(|e| format!("animation {name}: node {}: {e}", p.name()))?;
        }
    }
    Ok(())
}

/// Every corpus model decompiles to NWN MDL ASCII that reads and compiles back to the same
/// content (through the text's bytes), and the compiled model writes and reads back.
#[test]
fn binary_to_ascii_to_binary_keeps_every_node_vertex_face_key_and_animation() {
    let models = models();
    assert_eq!(models.len(), 108);
    let mut failures = Vec::new();
    let (mut nodes, mut faces, mut keys) = (0, 0, 0);
    for (p, b) in &models {
        let m = nwn::read(b).unwrap();
        let text = areakit_formats::mdl_ascii::write_canonical_bytes(&nwn::to_ascii(&m));
        let parsed = match areakit_formats::mdl_ascii::read(&text) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: the ASCII does not read: {e}", p.display()));
                continue;
            }
        };
        let back = match nwn::from_ascii(&parsed) {
            Ok(c) => c.model,
            Err(e) => {
                failures.push(format!("{}: does not compile: {e}", p.display()));
                continue;
            }
        };
        let bytes = nwn::write(&back).unwrap();
        let back = nwn::read(&bytes).unwrap();
        match same_content(&m, &back) {
            Ok(()) => {
                nodes += m.nodes.len() + m.animations.iter().map(|a| a.nodes.len()).sum::<usize>();
                faces += m
                    .nodes
                    .iter()
                    .filter_map(|n| n.mesh.as_ref())
                    .map(|x| x.faces.len())
                    .sum::<usize>();
                keys += m
                    .nodes
                    .iter()
                    .chain(m.animations.iter().flat_map(|a| &a.nodes))
                    .flat_map(|n| &n.controllers)
                    .map(|c| usize::from(c.rows))
                    .sum::<usize>();
            }
            Err(e) => failures.push(format!("{}: {e}", p.display())),
        }
    }
    eprintln!("compared {nodes} nodes, {faces} faces, {keys} controller keys");
    assert!(
        failures.is_empty(),
        "{} of 108:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(faces > 4_000 && keys > 30_000, "{faces} faces, {keys} keys");
}

/// The dialect of every corpus MDL ASCII model is told right: KotOR's files as KotOR, NWN's
/// as NWN or undecided (a bare `.mdl`, NWN's convention, then decides).
#[test]
fn the_ascii_dialect_of_every_corpus_text_model_is_told() {
    let files = corpus_files(&["mdl-ascii"]);
    assert_eq!(files.len(), 370);
    let (mut nwn_said, mut undecided) = (0, 0);
    for p in &files {
        let t = areakit_formats::mdl_ascii::read(&std::fs::read(p).unwrap()).unwrap();
        let said = nwn::is_nwn_ascii(&t);
        let kotor = p.to_string_lossy().contains("/kotor/");
        if kotor {
            assert_eq!(said, Some(false), "{}", p.display());
        } else {
            assert_ne!(said, Some(false), "{}", p.display());
            nwn_said += usize::from(said == Some(true));
            undecided += usize::from(said.is_none());
        }
    }
    eprintln!("NWN text: {nwn_said} told, {undecided} undecided");
}

fn f64s(v: &[f32]) -> Vec<f64> {
    v.iter().map(|&x| f64::from(x)).collect()
}

/// A fuzz finding (stop of issue 35): a model whose blocks share bytes and whose mesh has a
/// legacy array (its elements are not known, so it has no canonical layout) was refused by
/// `write`, which checked the shared blocks against the canonical layout. Built here from a
/// corpus model: a mesh node's controller data laid over its controllers, and a count in its
/// first legacy array. It writes back byte for byte; only its canonical layout is refused.
#[test]
fn shared_blocks_with_a_legacy_array_write_back_byte_for_byte() {
    let le = |b: &[u8], o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
    let mut edited = None;
    'models: for (_, b) in models() {
        let m = nwn::read(&b).unwrap();
        for n in m.nodes.iter().filter(|n| n.mesh.is_some()) {
            // The node's header: its name at +32 (offsets after the 12-byte file header).
            let body = &b[12..];
            let found = body
                .windows(32)
                .enumerate()
                .filter(|(at, w)| *w == n.name.0 && *at >= 32)
                .map(|(at, _)| at - 32)
                .find(|&at| {
                    at + 112 + 512 <= body.len()
                        && le(body, at + 108) == n.flags
                        && le(body, at + 88) > 0
                        && le(body, at + 100) >= 3 * le(body, at + 88)
                });
            let Some(at) = found else { continue };
            let mut e = b.clone();
            let node = 12 + at;
            let (controllers, count) = (le(&e, node + 84), le(&e, node + 88));
            e[node + 96..node + 100].copy_from_slice(&controllers.to_le_bytes());
            e[node + 100..node + 104].copy_from_slice(&(3 * count).to_le_bytes());
            e[node + 112 + 384..node + 112 + 388].copy_from_slice(&1u32.to_le_bytes());
            edited = Some(e);
            break 'models;
        }
    }
    let e = edited.expect("a corpus mesh node with controllers");
    let m = nwn::read(&e).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(nwn::write(&m).unwrap_or_else(|err| panic!("{err}")), e);
    let mut fresh = m.clone();
    fresh.clear_source_layout();
    assert!(
        nwn::write(&fresh).is_err(),
        "no canonical layout for legacy arrays"
    );
}
