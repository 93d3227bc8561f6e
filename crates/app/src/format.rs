//! Format detection: [`areakit_formats::any`], the one place files are told apart, seen
//! from the application (`Format`, `is_binary_mdl`, ...).

pub use areakit_formats::any::{Format, GFF_EXTENSIONS, binary_head, is_binary_mdl, resref_of};
