//! The format crate against the real-file corpus (`../shared/corpus` beside the checkout, read
//! through `areakit-testkit`): every file of every format reads, validates and writes back byte
//! for byte. One test binary; each module was a test file of its own.

mod bwm_corpus;
mod capsule_corpus;
mod gff_corpus;
mod mdb_corpus;
mod mdl_ascii_corpus;
mod mdl_corpus;
mod mdl_nwn_corpus;
mod mdl_text_cycle;
mod texture_corpus;
mod trx_corpus;
mod twoda_corpus;

/// Two floats equal within the printed precision of the ASCII dialects (NaN equals NaN).
fn close(a: f32, b: f32) -> bool {
    (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-4 * (1.0 + a.abs().max(b.abs()))
}

/// Two quaternions (the same component order) equal up to sign within `tolerance` of their
/// dot product once normalised.
fn same_rotation(a: &[f64], b: &[f64], tolerance: f64) -> bool {
    let n = |q: &[f64]| {
        let l = q.iter().map(|c| c * c).sum::<f64>().sqrt();
        if l > 1e-9 {
            q.iter().map(|c| c / l).collect()
        } else {
            vec![1.0, 0.0, 0.0, 0.0]
        }
    };
    let (a, b) = (n(a), n(b));
    let dot: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    dot.abs() > 1.0 - tolerance || a.iter().any(|c| c.is_nan())
}

/// One read of a cut file: an error must carry a file offset (counted: 1), a model read must
/// be the whole one (only padding was cut: 0).
fn cut_read<M: PartialEq>(
    path: &std::path::Path,
    n: usize,
    read: Result<M, areakit_formats::DecodeError>,
    whole: &M,
) -> usize {
    match read {
        Err(e) => {
            assert!(
                matches!(e.location(), areakit_formats::Location::Offset(_)),
                "{} cut at {n}: {e}",
                path.display()
            );
            1
        }
        Ok(m) => {
            assert!(
                m == *whole,
                "{} cut at {n} reads a different model",
                path.display()
            );
            0
        }
    }
}
