//! Every binary MDL + MDX pair of the corpus reads and writes back byte for byte.

use areakit_formats::mdl;
use areakit_testkit::corpus_files;

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
            match mdl::read(&t, x) {
                Err(e) => {
                    assert!(
                        matches!(e.location(), areakit_formats::Location::Offset(_)),
                        "{} cut at {n}: {e}",
                        p.display()
                    );
                    cuts += 1;
                }
                // Only trailing padding was cut: the model is whole.
                Ok(m) => assert!(
                    m == whole,
                    "{} cut at {n} reads a different model",
                    p.display()
                ),
            }
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
