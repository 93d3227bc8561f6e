//! Every corpus TRN/TRX reads, writes back byte for byte, survives modification, and fails
//! cleanly (no panic) when truncated or corrupted.

use std::path::PathBuf;

use areakit_formats::trx;

fn corpus() -> Vec<(PathBuf, Vec<u8>)> {
    let trx_files = areakit_testkit::corpus_files(&["trx"]);
    let trn_files = areakit_testkit::corpus_files(&["trn"]);
    assert_eq!(trx_files.len(), 61, "expected the 61 corpus TRX files");
    assert_eq!(trn_files.len(), 9, "expected the 9 corpus TRN files");
    trx_files
        .into_iter()
        .chain(trn_files)
        .map(|p| {
            let d = std::fs::read(&p).unwrap();
            (p, d)
        })
        .collect()
}

#[test]
fn corpus_reads_and_writes_byte_exact() {
    let files = corpus();
    let trx_set = areakit_testkit::corpus_files(&["trx"]);
    let mut covered = 0;
    for (path, data) in &files {
        let t = trx::read(data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let back = trx::write(&t).unwrap();
        assert!(
            &back == data,
            "{}: write is not byte-identical",
            path.display()
        );
        // Format decided by content agrees with the corpus' format column.
        let s = trx::summary(&t);
        let expected = if trx_set.contains(path) { "trx" } else { "trn" };
        assert_eq!(s.format, expected, "{}", path.display());
        let w = t.walkmesh().expect("every corpus file has an ASWM packet");
        let ws = s.walkmesh.unwrap();
        assert_eq!(ws.triangles, w.triangles.len());
        assert_eq!(
            ws.tiles as u64,
            u64::from(w.grid_width) * u64::from(w.grid_height)
        );
        // Re-encoding the decoded walkmesh gives the original decompressed bytes.
        let a = t.aswm().unwrap();
        assert_eq!(
            trx::encode_walkmesh(w).unwrap().as_slice(),
            a.original_decompressed().unwrap()
        );
        covered += 1;
    }
    assert_eq!(covered, 70);
}

/// Builds a file whose ASWM packet holds `decompressed` (compressed afresh, sizes consistent).
fn with_decompressed(t: &trx::Trx, decompressed: &[u8]) -> Vec<u8> {
    let z = trx::aswm::deflate(decompressed).unwrap();
    let mut payload = b"COMP".to_vec();
    payload.extend_from_slice(&(z.len() as u32).to_le_bytes());
    payload.extend_from_slice(&(decompressed.len() as u32).to_le_bytes());
    payload.extend_from_slice(&z);
    let mut t = t.clone();
    for p in &mut t.packets {
        if matches!(p, trx::Packet::Aswm(_)) {
            *p = trx::Packet::Opaque {
                tag: *b"ASWM",
                data: payload.clone(),
            };
        }
    }
    trx::write(&t).unwrap()
}

#[test]
fn corpus_modified_walkmesh_round_trips() {
    let mut covered = 0;
    for (path, data) in &corpus() {
        let mut t = trx::read(data).unwrap();
        let w = t.walkmesh_mut().unwrap();
        w.vertices[0][2] += 1.5;
        w.triangles[0].flags ^= 0x0008;
        let back = trx::write(&t).unwrap();
        assert_ne!(&back, data, "{}", path.display());
        let again = trx::read(&back).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(again, t, "{}", path.display());
        // Writing the re-read model reuses its (new) compressed bytes.
        assert_eq!(trx::write(&again).unwrap(), back);
        // Forgetting the original bytes re-compresses the unmodified content: same model.
        let mut fresh = trx::read(data).unwrap();
        fresh.aswm_mut().unwrap().forget_original();
        let re = trx::write(&fresh).unwrap();
        assert_eq!(trx::read(&re).unwrap(), fresh, "{}", path.display());
        covered += 1;
    }
    assert_eq!(covered, 70);
}

#[test]
fn corpus_truncated_files_are_errors() {
    let mut cuts = 0u64;
    for (path, data) in &corpus() {
        // Every length for the first 4 KiB, then ~300 lengths spread over the rest.
        let step = (data.len() / 300).max(1);
        let lens = (0..data.len().min(4096)).chain((4096..data.len()).step_by(step));
        for len in lens {
            assert!(
                trx::read(&data[..len]).is_err(),
                "{} cut at {len} read without error",
                path.display()
            );
            cuts += 1;
        }
    }
    assert!(cuts > 250_000, "only {cuts} truncations tried");
}

#[test]
fn corpus_truncated_decompressed_payloads_are_errors_in_context() {
    let mut cuts = 0u64;
    for (path, data) in &corpus() {
        let t = trx::read(data).unwrap();
        let dec = t.aswm().unwrap().original_decompressed().unwrap().to_vec();
        let step = (dec.len() / 12).max(1);
        for len in (0..dec.len()).step_by(step).chain([dec.len() - 1]) {
            let file = with_decompressed(&t, &dec[..len]);
            let e = trx::read(&file).expect_err("truncated walkmesh must not decode");
            assert!(
                e.context()
                    .iter()
                    .any(|c| c == "packet ASWM (decompressed)"),
                "{}: cut at {len}: {e}",
                path.display()
            );
            cuts += 1;
        }
    }
    assert!(cuts > 900, "only {cuts} truncations tried");
}

#[test]
fn truncated_walkmesh_at_every_length_is_an_error() {
    // The smallest corpus walkmesh, cut at every length.
    let (path, data) = corpus().into_iter().min_by_key(|(_, d)| d.len()).unwrap();
    let t = trx::read(&data).unwrap();
    let dec = t.aswm().unwrap().original_decompressed().unwrap().to_vec();
    for len in 0..dec.len() {
        assert!(
            trx::decode_walkmesh(&dec[..len]).is_err(),
            "{} cut at {len}",
            path.display()
        );
    }
    assert!(trx::decode_walkmesh(&dec).is_ok());
}

#[test]
fn corrupted_files_never_panic() {
    // Deterministic pseudo-random corruption (xorshift), in the container and inside the
    // decompressed walkmesh; reading may succeed or fail, validating what reads must not panic.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut rnd = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut files = corpus();
    files.sort_by_key(|(_, d)| d.len());
    let mut tried = 0;
    let mut errors = 0;
    for (_, data) in files.iter().take(12) {
        let t = trx::read(data).unwrap();
        let dec = t.aswm().unwrap().original_decompressed().unwrap().to_vec();
        for _ in 0..60 {
            let mut d = dec.clone();
            for _ in 0..1 + rnd() % 4 {
                let i = (rnd() % d.len() as u64) as usize;
                d[i] = rnd() as u8;
            }
            let file = with_decompressed(&t, &d);
            match trx::read(&file) {
                Ok(m) => {
                    let _ = trx::validate(&m);
                }
                Err(e) => {
                    errors += 1;
                    assert!(!e.message().is_empty());
                }
            }
            let mut f = data.clone();
            let i = (rnd() % f.len() as u64) as usize;
            f[i] ^= 1 << (rnd() % 8);
            if let Ok(m) = trx::read(&f) {
                let _ = trx::validate(&m);
            }
            tried += 2;
        }
    }
    assert_eq!(tried, 12 * 120);
    assert!(errors > 0);
}

#[test]
fn corpus_validates_without_errors() {
    use std::collections::BTreeMap;
    let mut by_code: BTreeMap<&str, usize> = BTreeMap::new();
    let mut covered = 0;
    for (path, data) in &corpus() {
        let t = trx::read(data).unwrap();
        for f in trx::validate(&t) {
            assert_ne!(
                f.severity,
                areakit_formats::Severity::Error,
                "{}: {} {} {}",
                path.display(),
                f.code,
                f.place,
                f.message
            );
            *by_code.entry(f.code).or_default() += 1;
        }
        covered += 1;
    }
    assert_eq!(covered, 70);
    eprintln!("{by_code:?}");
    // Measured on the corpus: only tile vertex/edge counts that differ from the triangles'
    // (618 of 13112 baked tiles).
    assert_eq!(
        by_code.keys().copied().collect::<Vec<_>>(),
        ["trx-stale-tile-counts"]
    );
    assert_eq!(by_code["trx-stale-tile-counts"], 618);
}
