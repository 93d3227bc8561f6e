//! Textures on the command line: `info --json` and byte-identical `convert` of every corpus
//! TPC, TGA and TXI; `check` of a folder of real textures; conversions TPC ↔ TGA ↔ PNG with
//! the TXI carried along, and what check would say of a made TPC; a broken TPC is located.

use crate::common;
use crate::support::run;

use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("areakit-textures-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn json(args: &[&std::ffi::OsStr]) -> serde_json::Value {
    let (code, out, err) = run(args);
    assert!(code == 0 || code == 1, "{args:?}: exit {code}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn os(s: &str) -> &std::ffi::OsStr {
    s.as_ref()
}

#[test]
fn info_and_byte_identical_convert_of_every_corpus_texture() {
    let dir = temp("convert");
    let mut covered = 0;
    for (format, count) in [("tpc", 41), ("tga", 10), ("txi", 2)] {
        let files = common::corpus_files(&[format]);
        assert_eq!(files.len(), count, "{format}");
        for (i, path) in files.iter().enumerate() {
            let v = json(&[os("info"), path.as_os_str(), os("--json")]);
            assert_eq!(v["format"], format, "{}", path.display());
            if format == "tpc" {
                for key in ["width", "height", "encoding", "mip_count", "faces", "txi"] {
                    assert!(v.get(key).is_some(), "{key} in {v}");
                }
                assert_eq!(v["faces"], 1);
            }
            let out = dir.join(format!("{i}.{format}"));
            let (code, _, err) = run(&[os("convert"), path.as_os_str(), out.as_os_str()]);
            assert_eq!(code, 0, "{}: {err}", path.display());
            assert_eq!(
                std::fs::read(&out).unwrap(),
                std::fs::read(path).unwrap(),
                "{}",
                path.display()
            );
            covered += 1;
        }
    }
    assert_eq!(covered, 53);
    let lotrim = common::corpus_files(&["tpc"])
        .into_iter()
        .find(|p| p.ends_with("LTS_lotrim11.tpc"))
        .unwrap();
    let v = json(&[os("info"), lotrim.as_os_str(), os("--json")]);
    assert_eq!(
        (
            &v["width"],
            &v["height"],
            &v["encoding"],
            &v["mip_count"],
            &v["txi"]
        ),
        (
            &512.into(),
            &512.into(),
            &"dxt1".into(),
            &10.into(),
            &serde_json::Value::Null
        )
    );
}

#[test]
fn check_of_a_folder_of_real_textures_checks_each() {
    let dir = temp("folder");
    let mut n = 0;
    for format in ["tpc", "tga", "txi"] {
        for path in common::corpus_files(&[format]) {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
            n += 1;
        }
    }
    assert_eq!(n, 53);
    let v = json(&[os("check"), dir.as_os_str(), os("--json")]);
    assert_eq!(v["files_checked"], 53, "every texture is checked");
    // No error and no warning (docs/checks.md says so of these files).
    let flagged: Vec<&serde_json::Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "error" || f["severity"] == "warning")
        .collect();
    assert!(flagged.is_empty(), "{flagged:#?}");
    // A broken copy: its first level cut short is located at the end of the header.
    let lotrim = dir.join("LTS_lotrim11.tpc");
    let data = std::fs::read(&lotrim).unwrap();
    let cut = dir.join("cut.tpc");
    std::fs::write(&cut, &data[..1000]).unwrap();
    let v = json(&[os("check"), cut.as_os_str(), os("--json")]);
    let f = &v["findings"][0];
    assert_eq!(
        (&f["code"], &f["offset"]),
        (&"invalid-file".into(), &128.into()),
        "{v}"
    );
}

/// The pixels of `a` and `b` (decoded by areakit) differ by at most `tolerance` per channel,
/// and by at most `mean` on average.
fn same_pixels(a: &Path, b: &Path, tolerance: u8, mean: f64) {
    use areakit_app::document::Document;
    let pa = Document::decode(a, &std::fs::read(a).unwrap())
        .unwrap()
        .picture()
        .unwrap();
    let pb = Document::decode(b, &std::fs::read(b).unwrap())
        .unwrap()
        .picture()
        .unwrap();
    assert_eq!((pa.width, pa.height), (pb.width, pb.height));
    let diffs = || pa.rgba.iter().zip(&pb.rgba).map(|(x, y)| x.abs_diff(*y));
    let worst = diffs().max().unwrap();
    let average = diffs().map(f64::from).sum::<f64>() / pa.rgba.len() as f64;
    assert!(
        worst <= tolerance && average <= mean,
        "{} vs {}: at most {worst}, {average:.3} on average",
        a.display(),
        b.display()
    );
}

#[test]
fn conversions_carry_pixels_and_txi() {
    let dir = temp("chain");
    let leaf = common::corpus_files(&["tpc"])
        .into_iter()
        .find(|p| p.ends_with("LKA_leaf02.tpc"))
        .unwrap();
    // TPC -> PNG writes the TXI beside; PNG -> TPC takes it back in.
    let png = dir.join("leaf.png");
    let (code, _, err) = run(&[os("convert"), leaf.as_os_str(), png.as_os_str()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read(dir.join("leaf.txi")).unwrap(),
        b"blending punchthrough\r\n"
    );
    same_pixels(&leaf, &png, 0, 0.0);
    let tpc = dir.join("leaf.tpc");
    let (code, _, err) = run(&[os("convert"), png.as_os_str(), tpc.as_os_str()]);
    assert_eq!(code, 0, "{err}");
    let v = json(&[os("info"), tpc.as_os_str(), os("--json")]);
    assert_eq!(
        (&v["encoding"], &v["mip_count"], &v["txi"]),
        (
            &"dxt5".into(),
            &10.into(),
            &"blending punchthrough\r\n".into()
        )
    );
    // Re-encoding decoded DXT pixels loses little.
    same_pixels(&leaf, &tpc, 64, 0.5);
    // TGA: 32-bit (the leaf has alpha), back to an uncompressed TPC without mipmaps.
    let tga = dir.join("leaf.tga");
    let (code, _, err) = run(&[os("convert"), leaf.as_os_str(), tga.as_os_str()]);
    assert_eq!(code, 0, "{err}");
    let v = json(&[os("info"), tga.as_os_str(), os("--json")]);
    assert_eq!(
        (&v["bits_per_pixel"], &v["has_alpha"]),
        (&32.into(), &true.into())
    );
    let raw = dir.join("raw.tpc");
    let (code, _, err) = run(&[
        os("convert"),
        tga.as_os_str(),
        raw.as_os_str(),
        os("--encoding"),
        os("rgba"),
        os("--no-mipmaps"),
    ]);
    assert_eq!(code, 0, "{err}");
    same_pixels(&leaf, &raw, 0, 0.0);
    let v = json(&[os("info"), raw.as_os_str(), os("--json")]);
    assert_eq!(
        (&v["encoding"], &v["mip_count"], &v["data_size"]),
        (&"rgba".into(), &1.into(), &0.into())
    );
    // A TPC re-encoded as another encoding; an unknown encoding is a usage error.
    let dxt1 = dir.join("dxt1.tpc");
    let (code, _, err) = run(&[
        os("convert"),
        raw.as_os_str(),
        dxt1.as_os_str(),
        os("--encoding"),
        os("dxt1"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "nothing to say of a good texture: {err}");
    assert_eq!(
        json(&[os("info"), dxt1.as_os_str(), os("--json")])["encoding"],
        "dxt1"
    );
    // A picture whose sides are no powers of two makes a TPC all the same, and convert says
    // what check would say of it; without mipmaps there is nothing to say.
    let odd = dir.join("odd.png");
    let picture = areakit_app::formats::image::Image {
        width: 12,
        height: 10,
        rgba: vec![200; 12 * 10 * 4],
    };
    std::fs::write(&odd, areakit_app::formats::png::write(&picture).unwrap()).unwrap();
    let (code, _, err) = run(&[
        os("convert"),
        odd.as_os_str(),
        dir.join("odd.tpc").as_os_str(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning[texture-not-power-of-two]: 12x10 with 4 levels"),
        "{err}"
    );
    let (code, _, err) = run(&[
        os("convert"),
        odd.as_os_str(),
        dir.join("odd1.tpc").as_os_str(),
        os("--no-mipmaps"),
    ]);
    assert_eq!((code, err.as_str()), (0, ""));
    let (code, _, err) = run(&[
        os("convert"),
        raw.as_os_str(),
        dir.join("x.tpc").as_os_str(),
        os("--encoding"),
        os("bc7"),
    ]);
    assert_eq!(code, 2, "{err}");
}
