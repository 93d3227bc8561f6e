//! Consistency checks of a decoded terrain file.

use super::model::Trx;
use crate::finding::Finding;

/// Checks a decoded file and returns every finding.
pub fn validate(_trx: &Trx) -> Vec<Finding> {
    Vec::new()
}
