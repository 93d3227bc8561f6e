//! Every NWN compiled model of the corpus reads (without error findings) and writes back byte for
//! byte; its canonical
//! layout reads back equal; every cut gives a located error.

use areakit_formats::mdl::{self, nwn};
use areakit_testkit::corpus_files;

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
            match nwn::read(&t) {
                Err(e) => {
                    assert!(
                        matches!(e.location(), areakit_formats::Location::Offset(_)),
                        "{} cut at {n}: {e}",
                        p.display()
                    );
                    cuts += 1;
                }
                Ok(m) => assert!(
                    m == whole,
                    "{} cut at {n} reads a different model",
                    p.display()
                ),
            }
        }
    }
    assert_eq!(picked, 3);
    assert!(cuts > 30_000, "{cuts} cuts gave errors");
}
