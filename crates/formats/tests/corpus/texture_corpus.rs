//! Every corpus TPC, TGA and TXI reads and writes back byte for byte; every level of every TPC
//! decodes, and its pixels agree with texpresso's decoder (an independent DXT decoder, a port
//! of libsquish) within one level per channel; no TPC or TGA gets an error finding.

use std::collections::BTreeMap;

use areakit_formats::{Severity, dxt, tga, tpc, txi};

fn name(path: &std::path::Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

#[test]
fn every_tpc_round_trips_and_decodes_as_an_independent_decoder_does() {
    let files = areakit_testkit::corpus_files(&["tpc"]);
    assert_eq!(files.len(), 41, "the 41 corpus TPCs");
    let mut by_encoding: BTreeMap<&str, usize> = BTreeMap::new();
    let mut with_txi = 0;
    let mut levels = 0;
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let t = tpc::read(&data).unwrap_or_else(|e| panic!("{}: {e}", name(path)));
        assert_eq!(tpc::write(&t).unwrap(), data, "{}", name(path));
        *by_encoding.entry(t.encoding.name()).or_default() += 1;
        with_txi += usize::from(t.has_txi());
        assert_eq!(
            t.mip_count(),
            usize::from(t.header.mip_count),
            "{}",
            name(path)
        );
        let errors: Vec<_> = tpc::validate(&t)
            .into_iter()
            .filter(|f| f.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", name(path));
        for (l, layer) in t.layers.iter().enumerate() {
            for (i, m) in layer.iter().enumerate() {
                let ours = t.rgba(l, i).unwrap();
                assert_eq!((ours.width, ours.height), (m.width, m.height));
                levels += 1;
                let Some(block) = t.encoding.block() else {
                    continue;
                };
                let format = match block {
                    dxt::Block::Dxt1 => texpresso::Format::Bc1,
                    dxt::Block::Dxt3 => texpresso::Format::Bc2,
                    dxt::Block::Dxt5 => texpresso::Format::Bc3,
                };
                let (w, h) = (m.width as usize, m.height as usize);
                let mut theirs = vec![0u8; w * h * 4];
                format.decompress(&m.data, w, h, &mut theirs);
                let worst = ours
                    .rgba
                    .iter()
                    .zip(&theirs)
                    .map(|(a, b)| a.abs_diff(*b))
                    .max()
                    .unwrap_or(0);
                assert!(worst <= 1, "{} level {i}: differs by {worst}", name(path));
            }
        }
    }
    assert_eq!(
        by_encoding,
        BTreeMap::from([("dxt1", 32), ("dxt5", 8), ("rgba", 1)]),
        "encodings of the corpus TPCs"
    );
    assert_eq!(with_txi, 26, "TPCs with TXI text");
    println!("41 TPCs, {levels} levels decoded, {with_txi} with TXI text");
}

#[test]
fn every_tga_and_txi_round_trips() {
    let tgas = areakit_testkit::corpus_files(&["tga"]);
    assert_eq!(tgas.len(), 10, "the 10 corpus TGAs");
    let mut trailers = 0;
    for path in &tgas {
        let data = std::fs::read(path).unwrap();
        let f = tga::read_file(&data).unwrap_or_else(|e| panic!("{}: {e}", name(path)));
        assert_eq!(tga::write_file(&f).unwrap(), data, "{}", name(path));
        trailers += usize::from(!f.trailer.is_empty());
    }
    assert_eq!(trailers, 10, "every corpus TGA has bytes after its pixels");
    let txis = areakit_testkit::corpus_files(&["txi"]);
    assert_eq!(txis.len(), 2, "the 2 corpus TXIs");
    for path in &txis {
        let data = std::fs::read(path).unwrap();
        let t = txi::read(&data);
        assert_eq!(txi::write(&t), data);
        assert!(t.findings.is_empty(), "{}: {:?}", name(path), t.findings);
        assert!(t.flag("islightmap"), "{}", name(path));
    }
}
