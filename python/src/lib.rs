//! `import areakit`: Python bindings of the areakit crates (PyO3, abi3).
//!
//! Every class wraps a model of `areakit-formats` and calls the library crates for what it
//! does: nothing is computed here that the CLI computes elsewhere. The modules:
//!
//! - [`errors`]: `FormatError`/`EncodeError` and the mapping of the library's errors;
//! - [`input`]: `read(path_or_bytes)`, atomic writes, NumPy argument helpers, JSON → Python;
//! - [`bwm`]: `Bwm` (arrays, derived tables, rebuild, transform, queries, batch queries);
//! - [`text`]: `Lyt`, `Vis`, `MdlAscii`; [`trx`]: `Trx`; [`capsules`]: GFF, 2DA, ERF, RIM,
//!   KEY, BIF (read, write, round trip, info);
//! - [`mdl`]: `Mdl` (binary models with their MDX: nodes, mesh arrays, transform, ASCII);
//! - [`area`]: `Area` (a LYT and its rooms), `PathResult`, `areakit.path`, `areakit.paths`;
//! - [`check`]: `areakit.check` and `Finding`;
//! - [`texture`]: `Tpc` (KotOR textures: pixels as NumPy arrays, made from them) and
//!   `areakit.export` (glTF/OBJ with textures).
#![deny(unsafe_code)]

use pyo3::prelude::*;

mod area;
mod bwm;
mod capsules;
mod check;
mod errors;
mod input;
mod mdl;
mod text;
mod texture;
mod trx;

/// The native module `areakit._areakit`; the package `areakit` re-exports it.
#[pymodule]
fn _areakit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("FormatError", py.get_type::<errors::FormatError>())?;
    m.add("EncodeError", py.get_type::<errors::EncodeError>())?;
    let choices = pyo3::types::PyDict::new(py);
    for (what, names) in areakit_app::choice::table() {
        choices.set_item(what, names)?;
    }
    m.add("CHOICES", choices)?;
    bwm::register(m)?;
    text::register(m)?;
    mdl::register(m)?;
    trx::register(m)?;
    capsules::register(m)?;
    area::register(m)?;
    check::register(m)?;
    texture::register(m)?;
    Ok(())
}
