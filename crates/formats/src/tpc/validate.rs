//! File-level findings of a TPC (`docs/checks.md`, "Texture checks").

use super::read::animated_levels;
use super::{HEADER_SIZE, Layout, Tpc, level_side};
use crate::finding::{Finding, Place};
use crate::image::is_power_of_two;

/// The findings of a TPC:
/// - `tpc-no-levels` (error): the header says 0 levels;
/// - `tpc-mip-chain-short` (error): fewer levels stored than the header (or, animated, the
///   frame size) says;
/// - `tpc-data-size` (error): a compressed texture's data size is not its first level's size;
/// - `texture-not-power-of-two` (warning): a side that is no power of two on a texture with
///   more than one level;
/// - `tpc-animation-frames` (warning): the TXI asks for frames that do not divide the image;
/// - the trailer's `txi-unparsed` warnings (item `txi`, line and column in the text).
pub fn validate(tpc: &Tpc) -> Vec<Finding> {
    let mut out = Vec::new();
    let h = &tpc.header;
    if h.mip_count == 0 && !matches!(tpc.layout, Layout::Animated { .. }) {
        out.push(Finding::error(
            "tpc-no-levels",
            Place::offset(13),
            "the header says 0 levels: the engine reads no pixels (areakit read one)",
        ));
    }
    let (layers, w, hh) = (tpc.layers.len(), tpc.width(), tpc.height());
    let wanted = match tpc.layout {
        Layout::Animated { .. } => animated_levels(w, hh),
        _ => usize::from(h.mip_count.max(1)),
    };
    let got = tpc.mip_count();
    if got < wanted {
        let end = HEADER_SIZE
            + tpc
                .layers
                .iter()
                .flatten()
                .map(|m| m.data.len())
                .sum::<usize>();
        let next = tpc.encoding.size(level_side(w, got), level_side(hh, got));
        out.push(Finding::error(
            "tpc-mip-chain-short",
            Place::offset(end as u64),
            format!(
                "{} levels {} stored of the {wanted} the {}: level {got} ({}x{}) needs {} more bytes for {layers} layer(s), {} remain",
                got,
                if got == 1 { "is" } else { "are" },
                if matches!(tpc.layout, Layout::Animated { .. }) { "frame size gives" } else { "header says" },
                level_side(w, got),
                level_side(hh, got),
                next * layers,
                tpc.trailer.len()
            ),
        ));
    }
    if tpc.encoding.is_compressed() {
        let frames = match tpc.layout {
            Layout::Animated { numx, numy } => (numx as usize).saturating_mul(numy as usize),
            _ => 1,
        };
        let expected = tpc.encoding.size(w, hh).saturating_mul(frames);
        if h.data_size as usize != expected {
            out.push(Finding::error(
                "tpc-data-size",
                Place::offset(0),
                format!(
                    "data size {} for {}{w}x{hh} {}: expected {expected} (the engine takes the first level to be {} bytes)",
                    h.data_size,
                    if frames > 1 { format!("{frames} frames of ") } else { String::new() },
                    tpc.encoding.name(),
                    h.data_size
                ),
            ));
        }
    }
    if got > 1 && !(is_power_of_two(w) && is_power_of_two(hh)) {
        out.push(Finding::warning(
            "texture-not-power-of-two",
            Place::offset(8),
            format!(
                "{w}x{hh} with {got} levels: mipmapped textures of the game are powers of two each way (the hardware it was made for needs them)"
            ),
        ));
    }
    let txi = tpc.txi();
    if tpc.layout == Layout::Single
        && let Some((nx, ny, _)) = txi.animation()
        && u64::from(nx) * u64::from(ny) > 1
    {
        out.push(Finding::warning(
            "tpc-animation-frames",
            Place::offset(8),
            format!(
                "the TXI asks for {nx}x{ny} frames of a {}x{} image: they do not divide it, so the texture is not animated",
                h.width, h.height
            ),
        ));
    }
    for mut f in txi.findings {
        f.place = f.place.item("txi");
        out.push(f);
    }
    out
}
