//! The overlays `render` and `view` draw (`--path`, `--objects`, `--radius`): one set of
//! arguments, flattened into both commands.

use std::path::PathBuf;

use areakit_app::request::Distance;
use areakit_app::{Error, navigate};

/// `--path`, `--objects` and `--radius` of `render` and `view`.
#[derive(Debug, clap::Args)]
pub struct OverlayArgs {
    /// The shortest path between two points, X,Y:X,Y (or X,Y,Z:X,Y,Z), drawn on the map; repeatable.
    #[arg(long, value_name = "X,Y:X,Y", allow_hyphen_values = true)]
    pub path: Vec<String>,
    /// Placed objects (placeables and doors) from a JSON file, drawn; paths go around them.
    #[arg(long, value_name = "FILE")]
    pub objects: Option<PathBuf>,
    /// The agent radius the drawn paths keep from walls and objects.
    #[arg(long, value_name = "R", default_value_t = Distance::ZERO)]
    pub radius: Distance,
}

impl OverlayArgs {
    /// The library's overlays.
    pub fn overlays(&self) -> Result<areakit_app::picture::Overlays, Error> {
        Ok(areakit_app::picture::Overlays {
            objects: self.objects.clone(),
            radius: self.radius,
            paths: parse_paths(&self.path)?,
            ..Default::default()
        })
    }
}

/// Parses `--path X,Y:X,Y` values.
pub fn parse_paths(
    values: &[String],
) -> Result<
    Vec<(
        areakit_app::geometry::nav::Endpoint,
        areakit_app::geometry::nav::Endpoint,
    )>,
    Error,
> {
    let mut out = Vec::new();
    for p in values {
        let (s, g) = p
            .split_once(':')
            .ok_or_else(|| Error::usage(format!("--path {p}: expected X,Y:X,Y")))?;
        let pt = |x: &str| {
            navigate::parse_point(x).map_err(|m| Error::usage(format!("--path {p}: {m}")))
        };
        out.push((pt(s)?, pt(g)?));
    }
    Ok(out)
}
