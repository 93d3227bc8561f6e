use super::*;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("areakit-atomic-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn read(p: &Path) -> Option<Vec<u8>> {
    std::fs::read(p).ok()
}

/// The names in `d` that start with a dot (temporary and backup files).
fn leftovers(d: &Path) -> Vec<String> {
    std::fs::read_dir(d)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect()
}

/// An old state of the pair (`m.mdl`, `m.mdx`): each present with old bytes or absent.
#[derive(Clone, Copy, Debug)]
struct Old {
    first: bool,
    partner: bool,
}

const OLDS: [Old; 4] = [
    Old {
        first: true,
        partner: true,
    },
    Old {
        first: true,
        partner: false,
    },
    Old {
        first: false,
        partner: true,
    },
    Old {
        first: false,
        partner: false,
    },
];

fn lay_out(d: &Path, old: Old) -> (PathBuf, PathBuf) {
    let (a, b) = (d.join("m.mdl"), d.join("m.mdx"));
    for (p, there, bytes) in [(&a, old.first, b"old mdl"), (&b, old.partner, b"old mdx")] {
        let _ = std::fs::remove_file(p);
        if there {
            std::fs::write(p, bytes).unwrap();
        }
    }
    (a, b)
}

/// Runs the write of a new pair (or of a model without MDX, `partner_new` false) with a hook
/// that does `at_call` at its `k`-th call; returns how many calls there were.
fn run(d: &Path, old: Old, partner_new: bool, k: usize, crash: bool) -> (usize, Result<(), Error>) {
    let (a, b) = lay_out(d, old);
    let members = [
        Member::file(&a, b"new mdl"),
        if partner_new {
            Member::file(&b, b"new mdx")
        } else {
            Member::remove(&b)
        },
    ];
    let mut calls = 0;
    let r = write_set_with(&members, &mut |_| {
        calls += 1;
        if calls - 1 == k {
            if crash {
                Err(Fault::Crash)
            } else {
                Err(Fault::Fail(io::Error::other("injected")))
            }
        } else {
            Ok(())
        }
    });
    (calls, r)
}

#[test]
fn a_crash_at_any_step_never_shows_the_first_file_beside_another_writes_partner() {
    let d = dir("crash");
    let mut states = 0;
    for old in OLDS {
        for partner_new in [true, false] {
            let (total, r) = run(&d, old, partner_new, usize::MAX, true);
            assert!(r.is_ok());
            assert!(total >= 2, "{total} steps");
            for k in 0..total {
                let (_, r) = run(&d, old, partner_new, k, true);
                assert!(r.is_err(), "a crash at step {k} is reported");
                let (a, b) = (read(&d.join("m.mdl")), read(&d.join("m.mdx")));
                let partner_now = b.as_deref();
                match a.as_deref() {
                    None => {}
                    Some(b"new mdl") => assert_eq!(
                        partner_now,
                        partner_new.then_some(&b"new mdx"[..]),
                        "{old:?} new partner {partner_new}, crash at {k}"
                    ),
                    Some(b"old mdl") => assert_eq!(
                        partner_now,
                        old.partner.then_some(&b"old mdx"[..]),
                        "{old:?}, crash at {k}"
                    ),
                    other => panic!("unexpected first file {other:?}"),
                }
                states += 1;
                // What the crash left has temporary names only; clear it for the next run.
                for n in leftovers(&d) {
                    std::fs::remove_file(d.join(n)).unwrap();
                }
            }
        }
    }
    eprintln!("{states} crash states judged");
    assert!(states >= 30, "{states} crash states judged");
}

#[test]
fn a_failure_at_any_step_leaves_the_old_set_and_no_temporary_file() {
    let d = dir("fail");
    let mut judged = 0;
    for old in OLDS {
        for partner_new in [true, false] {
            let (total, _) = run(&d, old, partner_new, usize::MAX, false);
            for k in 0..total {
                let (_, r) = run(&d, old, partner_new, k, false);
                let e = r.expect_err("the injected failure is reported").to_string();
                assert!(e.contains("nothing was written"), "{e}");
                assert_eq!(
                    read(&d.join("m.mdl")).as_deref(),
                    old.first.then_some(&b"old mdl"[..]),
                    "{old:?} fail at {k}"
                );
                assert_eq!(
                    read(&d.join("m.mdx")).as_deref(),
                    old.partner.then_some(&b"old mdx"[..]),
                    "{old:?} fail at {k}"
                );
                assert_eq!(leftovers(&d), Vec::<String>::new(), "{old:?} fail at {k}");
                judged += 1;
            }
        }
    }
    eprintln!("{judged} failures judged");
    assert!(judged >= 30, "{judged}");
}

#[test]
fn a_whole_write_replaces_the_set_and_takes_a_stale_partner_away() {
    let d = dir("whole");
    let (a, b) = lay_out(&d, OLDS[0]);
    write_set(&[Member::file(&a, b"A"), Member::file(&b, b"B")]).unwrap();
    assert_eq!(
        (read(&a).unwrap(), read(&b).unwrap()),
        (b"A".to_vec(), b"B".to_vec())
    );
    write_set(&[Member::file(&a, b"A2"), Member::remove(&b)]).unwrap();
    assert_eq!(read(&a).unwrap(), b"A2");
    assert!(!b.exists(), "the stale MDX went with the set");
    assert_eq!(leftovers(&d), Vec::<String>::new());
}

#[test]
fn a_set_is_refused_before_anything_is_written() {
    let d = dir("refuse");
    let a = d.join("o.png");
    // The sidecar is the main output.
    let e = write_set(&[
        Member::file(&a, b"png"),
        Member::file(&d.join("O.PNG"), b"txi"),
    ])
    .unwrap_err()
    .to_string();
    assert!(e.contains("the same file"), "{e}");
    assert!(!a.exists());
    // The sidecar is a folder.
    std::fs::create_dir_all(d.join("o.txi")).unwrap();
    let e = write_set(&[
        Member::file(&a, b"png"),
        Member::file(&d.join("o.txi"), b"txi"),
    ])
    .unwrap_err()
    .to_string();
    assert!(e.contains("a folder"), "{e}");
    assert!(!a.exists(), "nothing was written");
    assert_eq!(leftovers(&d), Vec::<String>::new());
}

#[test]
fn the_next_write_removes_what_a_dead_process_left() {
    let d = dir("stale");
    let a = d.join("m.mdl");
    // No process has id 4194304 + 1 (above Linux's largest pid).
    let dead = d.join(".m.mdl.areakit-4194305-7.tmp");
    let mine = d.join(format!(".m.mdl.areakit-{}-99999.tmp", std::process::id()));
    let other = d.join(".n.mdl.areakit-4194305-7.tmp");
    for p in [&dead, &mine, &other] {
        std::fs::write(p, b"x").unwrap();
    }
    write_atomic(&a, b"new").unwrap();
    if Path::new("/proc/self").exists() {
        assert!(!dead.exists(), "a dead process's temporary file is removed");
    }
    assert!(mine.exists(), "a running process's file is kept");
    assert!(other.exists(), "another output's file is kept");
}
