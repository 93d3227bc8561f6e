//! Prints, for every NWN compiled model of the corpus, areakit's and nwnrs-types' counts and
//! every disagreement (`cargo run --release` in this folder).

use areakit_nwnrs_referee::{areakit, differences, nwnrs};

fn main() {
    let files = areakit_testkit::corpus_files(&["nwn-mdl-bin"]);
    let (mut agree, mut total) = (0, 0);
    println!("model\tnodes\tmeshes\tvertices\tfaces\tanimations\tagreement");
    for p in &files {
        total += 1;
        let bytes = std::fs::read(p).expect("corpus file");
        let name = p.file_name().unwrap_or_default().to_string_lossy();
        let ours = areakit(p, &bytes);
        let theirs = nwnrs(&bytes);
        match (ours, theirs) {
            (Ok(a), Ok((b, m))) => {
                let d = differences(&a, &b);
                let diag = m.diagnostics.len();
                let verdict = if d.is_empty() {
                    agree += 1;
                    "agree".to_string()
                } else {
                    d.join("; ")
                };
                println!(
                    "{name}\t{}\t{}\t{}\t{}\t{}\t{verdict}{}",
                    a.nodes,
                    a.meshes,
                    a.vertices,
                    a.faces,
                    a.animations,
                    if diag > 0 {
                        format!(" (nwnrs: {diag} diagnostics: {:?})", m.diagnostics.first())
                    } else {
                        String::new()
                    }
                );
            }
            (a, b) => println!(
                "{name}\t\t\t\t\t\tareakit {:?}; nwnrs {:?}",
                a.err(),
                b.err()
            ),
        }
    }
    println!("{agree} of {total} models agree");
}
