//! How many times each format's decoder has run in this process, counted where the bytes are
//! first parsed (the table reader or index that every `read` and view of the format goes
//! through), under the format's name (`Format::name`: `bwm`, `gff`, `mdl`, ...). A test reads
//! the counts to show what an operation decodes again of what it encoded
//! (`crates/app/tests/build_decodes.rs`). One uncontended lock per decode. The module imports
//! no codec, so that every codec can count itself.

use std::collections::BTreeMap;
use std::sync::Mutex;

static COUNTS: Mutex<BTreeMap<&'static str, u64>> = Mutex::new(BTreeMap::new());

/// Counts one decode of the format named `format`.
pub(crate) fn decoded(format: &'static str) {
    let mut counts = COUNTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    *counts.entry(format).or_default() += 1;
}

/// The decodes so far, per format name (formats never decoded are absent).
pub fn decodes() -> BTreeMap<&'static str, u64> {
    COUNTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}
