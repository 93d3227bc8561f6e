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
