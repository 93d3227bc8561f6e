//! `areakit minimap`: a minimap image of an area and its ARE map block
//! ([`areakit_area::minimap`]; the math and its evidence in `docs/minimap.md`), and what
//! `check` says about a module's minimap and map block ([`minimap_findings`]).

use std::path::Path;

use areakit_area::minimap::{self, Minimap, MinimapRoom, map_findings, walkable_samples};
pub use areakit_area::minimap::{Game, MinimapOptions};
use areakit_area::module::Module;
use areakit_area::resources::Resources;
use areakit_formats::bwm::Bwm;
use areakit_formats::finding::{Finding, Place};
use areakit_formats::gff::{self, views::AreMap};
use areakit_formats::{DecodeError, tga, tpc};
use serde::Serialize;

use crate::Error;
use crate::atomic::{Member, write_set};
use crate::input::{Opened, decode_bwm};
use crate::session::{Session, refuse_overwrite, same_file};

/// Grid spacing (world units) of the walkable samples the coverage is measured on.
pub const SAMPLE_SPACING: f32 = 0.25;

/// The most walkable samples taken (the grid widens beyond).
pub const MAX_SAMPLES: usize = 200_000;

/// A resource's origin and bytes.
type NamedBytes = (String, Vec<u8>);

/// The ARE map block, every field present (the `--json` keys are the ARE's labels).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct MapBlock {
    /// `MapPt1X`, `MapPt1Y`: where world point 1 is on the map (fractions).
    #[serde(rename = "MapPt1")]
    pub map_pt1: [f32; 2],
    /// `MapPt2X`, `MapPt2Y`.
    #[serde(rename = "MapPt2")]
    pub map_pt2: [f32; 2],
    /// `WorldPt1X`, `WorldPt1Y`.
    #[serde(rename = "WorldPt1")]
    pub world_pt1: [f32; 2],
    /// `WorldPt2X`, `WorldPt2Y`.
    #[serde(rename = "WorldPt2")]
    pub world_pt2: [f32; 2],
    /// `NorthAxis`: 0 +Y up, 1 -Y up, 2 +X up, 3 -X up.
    pub north_axis: i32,
    /// `MapZoom`.
    pub map_zoom: i32,
    /// `MapResX`: the fog-of-war grid's columns.
    pub map_res_x: i32,
}

impl MapBlock {
    /// The block of a complete [`AreMap`] (missing fields read as 0).
    pub fn of(m: &AreMap) -> MapBlock {
        MapBlock {
            map_pt1: m.map_pt1.unwrap_or_default(),
            map_pt2: m.map_pt2.unwrap_or_default(),
            world_pt1: m.world_pt1.unwrap_or_default(),
            world_pt2: m.world_pt2.unwrap_or_default(),
            north_axis: m.north_axis.unwrap_or_default(),
            map_zoom: m.map_zoom.unwrap_or_default(),
            map_res_x: m.map_res_x.unwrap_or_default(),
        }
    }
}

/// What `areakit minimap` did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MinimapReport {
    /// The input, as given.
    pub input: String,
    /// The image written (TGA).
    pub output: String,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// The game whose map screen the block is computed for.
    pub game: Game,
    /// The map block that places the image.
    pub map: MapBlock,
    /// Pixels per world unit.
    pub pixels_per_unit: f32,
    /// The area-space bounds drawn: `[[min x, min y], [max x, max y]]`.
    pub bounds: [[f32; 2]; 2],
    /// Rooms of the area.
    pub rooms: usize,
    /// Rooms drawn from a kit's minimap image.
    pub rooms_from_images: usize,
    /// Rooms drawn from their walkable faces.
    pub rooms_from_walkmesh: usize,
    /// Walkable sample points the coverage is measured on.
    pub samples: usize,
    /// The share of those samples the map block puts on drawn (non-background) pixels.
    pub coverage: f32,
    /// The ARE read (`--are`, or the module's own), if any.
    pub are: Option<String>,
    /// The ARE written with the new map block (`--are-out`), if any.
    pub are_out: Option<String>,
    /// The ARE's map block before, when one was read.
    pub previous_map: Option<MapBlock>,
}

/// Draws the minimap of the area `input` (anything [`crate::input::open`] opens as an area,
/// or one walkmesh) into `output` (TGA, 32 bits, bottom row first), and writes the ARE with
/// the matching map block to `are_out` when given: the ARE is `are_in`, else the module's own.
/// The image never replaces the input, nor the ARE written the input; `are_out` may be
/// `are_in` (asked for by name).
pub fn minimap(
    session: &Session,
    input: &Path,
    output: &Path,
    are_in: Option<&Path>,
    are_out: Option<&Path>,
    opts: &MinimapOptions,
) -> Result<MinimapReport, Error> {
    refuse_overwrite(input, output, false)?;
    if let Some(out) = are_out {
        refuse_overwrite(input, out, false)?;
        if same_file(output, out) {
            return Err(Error::usage(format!(
                "{}: the image and the ARE cannot be the same file",
                out.display()
            )));
        }
    }
    // The ground, and the module's own ARE (its bytes) when the input is a module.
    let (walkmeshes, rooms, module_are): (Vec<Bwm>, usize, Option<NamedBytes>) =
        match crate::input::open(session, Some(input))? {
            Opened::Area {
                module, resources, ..
            } => {
                let woks: Vec<Bwm> = module
                    .area
                    .rooms
                    .iter()
                    .filter_map(|r| r.wok.clone())
                    .collect();
                let are = match &module.are {
                    Some(loaded) => resources
                        .get(&module.area.resref, "are")
                        .map_err(|e| Error::io(&module.area.lyt_path, e))?
                        .map(|r| (loaded.origin.clone(), r.data)),
                    None => None,
                };
                (woks, module.area.rooms.len(), are)
            }
            Opened::File { path, data } => (
                vec![decode_bwm(&path, &data, "an area or a walkmesh")?],
                1,
                None,
            ),
        };
    let room_list: Vec<MinimapRoom<'_>> = walkmeshes
        .iter()
        .map(|w| MinimapRoom {
            walkmesh: Some(w),
            image: None,
        })
        .collect();
    let mm = minimap::render_minimap(&room_list, opts).map_err(|e| match e {
        minimap::MinimapError::NoGround => Error::usage(format!(
            "{}: no room has walkable faces: nothing to draw",
            input.display()
        )),
        other => Error::usage(other.to_string()),
    })?;
    let refs: Vec<&Bwm> = walkmeshes.iter().collect();
    let samples = walkable_samples(&refs, SAMPLE_SPACING, MAX_SAMPLES);
    let coverage = minimap::coverage_in(mm.game, &mm.map, mm.width, mm.height, &mm.rgba, &samples);

    // The ARE: read (and checked) before anything is written.
    let are = match (are_in, module_are) {
        (Some(p), _) => Some((p.display().to_string(), session.read(p)?, p.to_path_buf())),
        (None, Some((origin, data))) => Some((origin.clone(), data, Path::new(&origin).into())),
        (None, None) => None,
    };
    let mut previous_map = None;
    let mut are_bytes = None;
    if let Some((name, data, path)) = &are {
        let mut g = gff::read(data).map_err(|e| Error::invalid(path, e))?;
        previous_map = gff::views::Are::from_gff(&g).map.map(|m| MapBlock::of(&m));
        if are_out.is_some() {
            minimap::apply_map(&mut g, &mm.map)
                .map_err(|e| Error::usage(format!("{name}: {e}")))?;
            are_bytes = Some(gff::write(&g).map_err(|e| Error::encode(path, e))?);
        }
    }
    if let (Some(out), None) = (are_out, &are) {
        return Err(Error::usage(format!(
            "{}: no ARE to write the map block into: name one with --are (the input has none)",
            out.display()
        )));
    }

    // The map and the ARE whose map block describes it: one set, both or neither.
    let tga = tga_bytes(&mm, output)?;
    let mut set = vec![Member::file(output, &tga)];
    if let (Some(out), Some(bytes)) = (are_out, &are_bytes) {
        set.push(Member::file(out, bytes));
    }
    write_set(&set)?;
    Ok(MinimapReport {
        input: input.display().to_string(),
        output: output.display().to_string(),
        width: mm.width,
        height: mm.height,
        game: mm.game,
        map: MapBlock::of(&mm.map),
        pixels_per_unit: mm.pixels_per_unit,
        bounds: mm.bounds,
        rooms,
        rooms_from_images: mm.rooms_from_images,
        rooms_from_walkmesh: mm.rooms_from_walkmesh,
        samples: samples.len(),
        coverage,
        are: are.map(|(name, _, _)| name),
        are_out: are_out.map(|p| p.display().to_string()),
        previous_map,
    })
}

/// The minimap as the game reads it: TGA, 32 bits, bottom row first.
pub fn tga_bytes(mm: &Minimap, output: &Path) -> Result<Vec<u8>, Error> {
    let img = tga::Tga {
        width: mm.width,
        height: mm.height,
        rgba: mm.rgba.clone(),
    };
    tga::write(&img, tga::WriteOptions::default()).map_err(|e| Error::encode(output, e))
}

/// The size of a minimap texture from its bytes: a TGA's header, or a TPC's (the stored
/// fields of its 128-byte header, nothing checked).
fn texture_size(data: &[u8], ext: &str) -> Result<(u32, u32), DecodeError> {
    if ext == "tga" {
        let h = tga::read_header(data)?;
        return Ok((u32::from(h.width), u32::from(h.height)));
    }
    let h = tpc::read_header(data)?;
    Ok((u32::from(h.width), u32::from(h.height)))
}

/// What `check` says about the minimap of a module that has one (`lbl_map<area>.tga` or
/// `.tpc` among `res`) and an ARE: [`map_findings`] of the ARE's map block against the
/// walkable ground of the area's rooms (`minimap-ground-outside`, ...), under the ARE's
/// file; `minimap-image-unreadable` (warning) when the image's header does not read. Nothing
/// without a minimap or an ARE.
pub fn minimap_findings(module: &Module, res: &dyn Resources) -> Vec<Finding> {
    let Some(are) = &module.are else {
        return Vec::new();
    };
    let name = format!("lbl_map{}", module.area.resref);
    let found = ["tga", "tpc"]
        .iter()
        .find_map(|ext| res.get(&name, ext).ok().flatten().map(|r| (*ext, r)));
    let Some((ext, image)) = found else {
        return Vec::new();
    };
    let image_file = image.origin.clone();
    let size = match texture_size(&image.data, ext) {
        Ok(s) => Some(s),
        Err(why) => {
            return vec![Finding::warning(
                "minimap-image-unreadable",
                Place::default().file(image_file),
                format!("the area's minimap {name}.{ext} does not read: {why}"),
            )];
        }
    };
    let refs: Vec<&Bwm> = module
        .area
        .rooms
        .iter()
        .filter_map(|r| r.wok.as_ref())
        .collect();
    let samples = walkable_samples(&refs, SAMPLE_SPACING, MAX_SAMPLES);
    let map = are.value.map.unwrap_or_default();
    map_findings(&map, size, &samples)
        .into_iter()
        .map(|mut f| {
            f.place.file = Some(are.origin.clone());
            f
        })
        .collect()
}
