//! `areakit minimap`: arguments and printing.

use std::path::PathBuf;

use areakit_app::minimap::{MapBlock, MinimapReport};
use areakit_app::{Error, Session};
use areakit_area::minimap::{Game, MinimapOptions};

use super::Output;

/// `areakit minimap`.
#[derive(Debug, clap::Args)]
pub struct MinimapArgs {
    /// An area: a LYT file, a folder, a module folder, a capsule or a game module.
    pub input: PathBuf,
    /// The minimap image to write (TGA, as the game reads it: lbl_map<module>.tga).
    #[arg(short, long)]
    pub output: PathBuf,
    /// The area's ARE, whose map block is computed to match the image.
    #[arg(long, value_name = "IN.are")]
    pub are: Option<PathBuf>,
    /// Where to write the ARE with the new map block (needs --are, or an area whose ARE is found).
    #[arg(long, value_name = "OUT.are")]
    pub are_out: Option<PathBuf>,
    /// The image size in pixels.
    #[arg(long, value_name = "WxH", default_value = "512x256")]
    pub size: String,
    /// For KotOR 2's map screen: the map spans the image's whole width (KotOR 1 shows the
    /// left 440 of 512 pixels).
    #[arg(long)]
    pub tsl: bool,
    /// Draw with this NorthAxis (0: +Y up, 1: -Y up, 2: +X up, 3: -X up); default: 0, or 3
    /// when a quarter turn shows the area at least 1.2 times larger.
    #[arg(long, value_name = "0-3")]
    pub north_axis: Option<i32>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `WxH` → (W, H).
fn parse_size(s: &str) -> Result<(u32, u32), Error> {
    let bad = || Error::usage(format!("--size {s:?}: expected WIDTHxHEIGHT, e.g. 512x256"));
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    Ok((
        w.trim().parse().map_err(|_| bad())?,
        h.trim().parse().map_err(|_| bad())?,
    ))
}

fn block_text(m: &MapBlock) -> String {
    format!(
        "NorthAxis {}, MapPt1 ({:.4}, {:.4}) = world ({:.2}, {:.2}), MapPt2 ({:.4}, {:.4}) = world ({:.2}, {:.2}), MapZoom {}, MapResX {}",
        m.north_axis,
        m.map_pt1[0],
        m.map_pt1[1],
        m.world_pt1[0],
        m.world_pt1[1],
        m.map_pt2[0],
        m.map_pt2[1],
        m.world_pt2[0],
        m.world_pt2[1],
        m.map_zoom,
        m.map_res_x
    )
}

/// The report as text.
pub fn report_text(r: &MinimapReport) -> Vec<String> {
    let game = match r.game {
        Game::K1 => "KotOR 1: the left 440 of 512 pixels",
        Game::K2 => "KotOR 2: the whole width",
    };
    let mut out = vec![
        format!(
            "wrote {}: {}x{} ({game}), {:.2} pixels per unit",
            r.output, r.width, r.height, r.pixels_per_unit
        ),
        format!(
            "rooms: {} ({} from kit images, {} from walkmeshes)",
            r.rooms, r.rooms_from_images, r.rooms_from_walkmesh
        ),
        format!("map block: {}", block_text(&r.map)),
        format!(
            "coverage: {:.1}% of {} walkable samples land on the map's ground",
            r.coverage * 100.0,
            r.samples
        ),
    ];
    if let Some(prev) = &r.previous_map {
        out.push(format!(
            "{} had: {}",
            r.are.as_deref().unwrap_or("the ARE"),
            block_text(prev)
        ));
    }
    if let Some(out_are) = &r.are_out {
        out.push(format!("wrote {out_are} (the ARE with the new map block)"));
    }
    out
}

/// Runs `areakit minimap`.
pub fn run(a: MinimapArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let (width, height) = parse_size(&a.size)?;
    let opts = MinimapOptions {
        width,
        height,
        game: if a.tsl { Game::K2 } else { Game::K1 },
        north_axis: a.north_axis,
        ..MinimapOptions::default()
    };
    let report = areakit_app::minimap::minimap(
        session,
        &a.input,
        &a.output,
        a.are.as_deref(),
        a.are_out.as_deref(),
        &opts,
    )?;
    if a.json {
        super::print_json(out, &report)?;
    } else {
        for line in report_text(&report) {
            out.line(&line)?;
        }
    }
    Ok(0)
}
