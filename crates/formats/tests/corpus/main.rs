//! The format crate against the real-file corpus (`../shared/corpus` beside the checkout, read
//! through `areakit-testkit`): every file of every format reads, validates and writes back byte
//! for byte. One test binary; each module was a test file of its own.

mod bwm_corpus;
mod capsule_corpus;
mod gff_corpus;
mod mdl_ascii_corpus;
mod mdl_corpus;
mod mdl_nwn_corpus;
mod trx_corpus;
mod twoda_corpus;
