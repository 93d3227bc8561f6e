//! `areakit path`: arguments and printing; the work is in the library.

use std::path::PathBuf;

use areakit_app::Error;
use areakit_app::choice::value_parser;
use areakit_app::navigate::{self, CornerGraphChoice};
use areakit_app::navigation::PathMode;
use areakit_app::request::Distance;
use areakit_app::session::Session;

use super::{Output, print_json, text};

/// `areakit path`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("query").required(true).args(["from", "pairs"])))]
pub struct PathArgs {
    /// A BWM walkmesh, an area (LYT file or folder), an NWN2 TRX/TRN, or a binary model (KotOR or NWN: its aabb walkmesh).
    pub input: PathBuf,
    /// Start: X,Y or X,Y,Z (Z picks the floor where floors overlap).
    #[arg(
        long,
        value_name = "X,Y[,Z]",
        allow_hyphen_values = true,
        requires = "to"
    )]
    pub from: Option<String>,
    /// Goal: X,Y or X,Y,Z.
    #[arg(
        long,
        value_name = "X,Y[,Z]",
        allow_hyphen_values = true,
        requires = "from"
    )]
    pub to: Option<String>,
    /// Many queries: a file with one `X,Y X,Y` pair per line; prints one JSON object per line.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["from", "to"])]
    pub pairs: Option<PathBuf>,
    /// Measure distances from N landmarks first (0: none): the optimal search then skips ground that leads away from the goal, and answers stay exact. Costs N+1 searches over the whole ground; pays off on many queries (--pairs) over mazes and long corridors (docs/navigation.md).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub landmarks: u8,
    /// Build the corner graph first (the turns a shortest path can take from each wall corner, and per polygon the corners that see it): both modes then search it between the corners that see the start and those that see the goal, without sweeping; optimal answers stay exact, fast ones at most 2 % longer than the shortest. auto: for optimal --pairs files of 128 pairs or more where it pays, by an estimate counted in search nodes on a sample of the pairs and of the corners (the same choice on every machine; fast mode: only with yes, so that a single query and a batch give the same paths; docs/navigation.md).
    #[arg(long, value_name = "WHEN", ignore_case = true, value_parser = value_parser::<CornerGraphChoice>(), default_value = choice_name(CornerGraphChoice::default()))]
    pub corner_graph: CornerGraphChoice,
    /// Worker threads answering --pairs (default: one per core). The output is the same for any number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Which search answers (its possible values below, each with what it does).
    #[arg(long, ignore_case = true, value_parser = value_parser::<PathMode>(), default_value = choice_name(PathMode::default()))]
    pub mode: PathMode,
    /// The agent radius: the path keeps this far from walls and objects and squeezes through no narrower gap.
    #[arg(long, value_name = "R", default_value_t = Distance::ZERO)]
    pub radius: Distance,
    /// Placed objects (placeables and doors) that block the ground, from a JSON file (schema: docs/navigation.md).
    #[arg(long, value_name = "FILE")]
    pub objects: Option<PathBuf>,
    /// How far a start or goal off the walkable ground may be moved onto it.
    #[arg(long, value_name = "D", default_value_t = Distance::DEFAULT_SNAP)]
    pub snap: Distance,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// The name of a choice's default, for `default_value`.
fn choice_name<T: areakit_app::choice::Choice>(v: T) -> &'static str {
    v.name()
}

/// The pairs of `path --pairs` answered together before their lines are printed.
const PAIRS_BLOCK: usize = 8192;

pub fn run(a: PathArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let req = navigate::PathRequest {
        input: &a.input,
        objects: a.objects.as_deref(),
        radius: a.radius,
        snap: a.snap,
        mode: a.mode,
    };
    // Options and points first: a typo should not wait for the navigation data.
    let pre = navigate::Precompute::new(usize::from(a.landmarks), a.corner_graph)?;
    let single = match (&a.from, &a.to) {
        (Some(f), Some(t)) => {
            let pt = |flag: &str, v: &str| {
                navigate::parse_point(v).map_err(|m| Error::usage(format!("--{flag} {m}")))
            };
            Some((pt("from", f)?, pt("to", t)?))
        }
        _ => None,
    };
    let pairs = match &a.pairs {
        Some(f) => navigate::parse_pairs(session, f)?,
        None => Vec::new(),
    };
    // (clap's `requires` gives way to the conflict of --pairs with --from.)
    let pool = match (&a.pairs, a.threads) {
        (Some(_), threads) => Some(navigate::thread_pool(threads.map(usize::from))?),
        (None, Some(n)) => {
            return Err(Error::usage(format!(
                "--threads {n}: only with --pairs (a single query runs on one thread)"
            )));
        }
        (None, None) => None,
    };
    let mut ctx = navigate::PathContext::open(session, &req)?;
    let batch = single
        .as_ref()
        .map_or(pairs.as_slice(), std::slice::from_ref);
    ctx.precompute(pre, batch);
    if let Some((s, g)) = single {
        let r = ctx.find(s, g);
        if a.json {
            print_json(out, &r)?;
        } else {
            out.line(text::path_text(&r).trim_end())?;
        }
        // As grep does for no match: a single query that finds no path exits 1.
        if !r.found() {
            return Ok(1);
        }
    } else if let Some(pool) = pool {
        // On all the pool's threads, a block of pairs at a time: each block's answers are
        // printed in order, and a long file's answers are never all held at once.
        for block in pairs.chunks(PAIRS_BLOCK) {
            let lines: Vec<String> = pool.install(|| {
                ctx.find_many(block)
                    .iter()
                    .map(serde_json::to_string)
                    .collect::<Result<_, _>>()
            })?;
            for l in &lines {
                out.json(l)?;
            }
        }
    }
    Ok(0)
}
