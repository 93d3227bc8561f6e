//! 2DA reader (both layouts): never panics; whatever reads writes back to the same bytes;
//! validation does not panic; the canonical layout of the same variant reads back to an equal
//! table, and so does the other layout (binary ↔ text), wherever the target layout can hold the
//! values.
#![no_main]

use areakit_formats::twoda::{self, TwoDa, Variant};
use libfuzzer_sys::fuzz_target;

/// Writes with `write`, and when that succeeds, asserts the bytes read back to `expected`.
/// `allowed` lists the only reasons the write may fail.
fn relayout(
    expected: &TwoDa,
    write: fn(&TwoDa) -> Result<Vec<u8>, areakit_formats::EncodeError>,
    from: &TwoDa,
    allowed: &[&str],
) {
    match write(from) {
        Ok(bytes) => {
            let back = twoda::read(&bytes).expect("a written table reads");
            assert!(
                back == *expected,
                "the re-laid-out table reads back different"
            );
        }
        Err(e) => assert!(
            allowed.iter().any(|a| e.0.contains(a)),
            "unexpected encode error: {e}"
        ),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(t) = twoda::read(data) else { return };
    let _ = twoda::validate(&t);
    let bytes = twoda::write(&t).expect("a decoded table encodes");
    assert!(bytes == data, "unmodified 2DA round trip changed the bytes");
    let mut canonical = t.clone();
    canonical.clear_source();
    // Text cannot hold a quote or a line break in a value, nor rows without columns.
    let text_limits = ["quote or a line break", "needs at least one column"];
    match t.variant() {
        Some(Variant::Binary) => {
            // Cells sharing string suffixes can grow past the u16 limit when laid out apart;
            // strings shared more widely than before can make a smaller file whose cells
            // decode past the reader's bound for its size.
            relayout(
                &t,
                twoda::write_binary,
                &canonical,
                &["at most 65535", "may decode to"],
            );
            relayout(&t, twoda::write_text, &canonical, &text_limits);
        }
        Some(Variant::Text) => {
            // A UTF-8 file's characters may have no Windows-1252 byte.
            relayout(&t, twoda::write_text, &canonical, &["Windows-1252"]);
            // Binary pads short rows with empty cells (compare with the padded table); a text
            // of many short rows under a long labels line pads to rows x columns cells, which
            // can be quadratic in the input: such inputs skip the conversion.
            let padded_cells = t.rows.len().saturating_mul(t.columns.len());
            if t.default.is_none()
                && padded_cells <= 4 * data.len()
                && t.rows.iter().all(|r| r.cells.len() <= t.columns.len())
            {
                let mut padded = canonical.clone();
                for r in &mut padded.rows {
                    r.cells.resize(t.columns.len(), String::new());
                }
                relayout(
                    &padded,
                    twoda::write_binary,
                    &canonical,
                    &[
                        "Windows-1252",
                        "tab or NUL",
                        "contain a NUL",
                        "at most 65535",
                        "may decode to",
                    ],
                );
            }
        }
        None => unreachable!("a read table has a variant"),
    }
});
