//! Every corpus BWM (wok, bwm, pwk) reads, agrees with its header, and writes back byte for byte.

use areakit_formats::bwm;

#[test]
fn corpus_bwm_round_trips_byte_exact() {
    let files = areakit_testkit::corpus_files(&["wok", "bwm", "pwk"]);
    assert_eq!(files.len(), 112, "expected the 112 corpus BWM files");
    let mut covered = 0;
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let mesh = bwm::read(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let dir = bwm::read_directory(&data).unwrap();
        assert_eq!(mesh.vertices.len() as u32, dir.counts[0]);
        assert_eq!(mesh.faces.len() as u32, dir.counts[1]);
        assert_eq!(mesh.aabb_nodes.len() as u32, dir.counts[5]);
        assert_eq!(mesh.walkable_face_count() as u32, dir.counts[6]);
        assert_eq!(mesh.edges.len() as u32, dir.counts[7]);
        assert_eq!(mesh.perimeters.len() as u32, dir.counts[8]);
        let back = bwm::write(&mesh).unwrap();
        assert!(
            back == data,
            "{}: write is not byte-identical",
            path.display()
        );
        assert!(
            mesh.source_layout.is_none(),
            "{}: unusual layout",
            path.display()
        );
        covered += 1;
    }
    assert_eq!(covered, 112);
}

#[test]
fn corpus_bwm_truncated_at_every_length_is_an_error() {
    let files = areakit_testkit::corpus_files(&["wok", "bwm", "pwk"]);
    assert_eq!(files.len(), 112);
    let mut cuts = 0u64;
    for path in &files {
        let data = std::fs::read(path).unwrap();
        for len in 0..data.len() {
            let r = bwm::read(&data[..len]);
            assert!(
                r.is_err(),
                "{} cut at {len} read without error",
                path.display()
            );
            cuts += 1;
        }
    }
    assert!(cuts > 1_000_000, "only {cuts} truncations tried");
}
