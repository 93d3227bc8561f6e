//! Command-line arguments (clap derive). Every command's help ends with an example.

use std::path::PathBuf;

use areakit_app::choice::value_parser;
use areakit_app::formats::tpc::Encoding;
use areakit_app::geometry::transform::Axis;
use areakit_app::navigate::{CornerGraphChoice, PthRequest};
use areakit_app::navigation::PathMode;
use areakit_app::request::Distance;
use clap::{Parser, Subcommand};

/// Read, write, check, repair, convert and query BioWare Aurora-family area data.
#[derive(Debug, Parser)]
#[command(name = "areakit", version, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 success, 1 invalid input (or check found an error), 2 usage or I/O error.\n\nExample:\n  areakit demo && areakit info areakit-demo/demo_a.wok"
)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
    /// A KotOR game folder (chitin.key, data/*.bif, modules/, override/; any letter case): bare
    /// RESREF.EXT inputs that are not files are found in it (override, module capsules, KEY/BIF).
    /// Default: the AREAKIT_GAME environment variable.
    #[arg(long, global = true, value_name = "DIR")]
    pub game: Option<PathBuf>,
    /// A module of the game (with --game): NAME.mod, or NAME.rim and NAME_s.rim, then
    /// NAME_dlg.erf are searched after override/ and before the KEY.
    #[arg(long, global = true, value_name = "NAME")]
    pub module: Option<String>,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Describe a file: its format, counts and bounds.
    #[command(
        after_help = "An area (a folder holding a LYT, a LYT, a module capsule, or x.mod/NAME.lyt) is also listed under `area`: its rooms, door hooks, GIT doors and placeables, VIS pairs, walkable bounds and entry point.\n\nExamples:\n  areakit info m13aa_01a.wok --json\n  areakit info mymodule.mod"
    )]
    Info(InfoArgs),
    /// Check files and folders (recursively) for everything wrong with them.
    #[command(
        after_help = "Prints one line per finding (path:location: severity[code]: message) and a summary; codes are documented in docs/checks.md.\nA capsule is checked member by member, and each area in it as a module (with --game, a capsule without a LYT: the entry area of its module.ifo).\nExit 0 when there is no error finding, 1 when there is, 2 for usage or I/O errors.\n\nExamples:\n  areakit check ../modules/m13aa --json\n  areakit --game ~/kotor check ~/kotor/modules/danm13.rim"
    )]
    Check(CheckArgs),
    /// Bake an NWN2 TRN/TRX walkmesh: with the area's GIT, its walkmesh cutters cut out; then tile ownership, path tables, islands, island paths.
    #[command(
        after_help = "Without --git the geometry is kept and only the tables are baked. With a GIT (or a folder holding the TRN and its GIT), every triangle is clipped against every walkmesh cutter (exact predicates), the parts inside removed, and the result laid out as the toolset lays out a TRX (docs/formats/nwn2-trx.md).\n\nExamples:\n  areakit bake area01.trn -o area01.trx\n  areakit bake area01.trn --git area01.git -o area01.trx --json\n  areakit bake area01/ -o area01.trx"
    )]
    Bake(super::bake::BakeArgs),
    /// Rebuild every derived table of a BWM walkmesh (normals, planes, adjacency, edges, perimeters, AABB tree).
    #[command(after_help = "Example:\n  areakit rebuild broken.wok -o fixed.wok")]
    Rebuild(RebuildArgs),
    /// Ask a walkmesh (or an area) what is at a point or along a ray.
    #[command(
        after_help = "Examples:\n  areakit query m13aa_01a.wok --at 12.5,-3 --z 0.5 --json\n  areakit query m13aa_01a.wok --ray 12.5,-3,10:0,0,-1\n  areakit query areakit-demo/demo.lyt --at 15,5\n  areakit query ttd01_a04_03.mdl --at 4,4 --json   (an NWN tile's walkmesh)"
    )]
    Query(QueryArgs),
    /// Move, rotate, mirror a BWM walkmesh (or remap its transitions) or a binary model; derived
    /// data stays valid.
    #[command(
        after_help = "A binary model (MDL) is written as OUT and its .mdx; the same steps on a room's model and its WOK keep the two in agreement.\n\nExamples:\n  areakit transform room.wok -o turned.wok --rotate 90 --translate 10,0,0 --remap 3=5,4=none\n  areakit transform room.mdl -o turned.mdl --rotate 90 --translate 10,0,0"
    )]
    Transform(TransformArgs),
    /// Draw a top-down map of a walkmesh, an area (LYT or folder) or an NWN2 TRX as SVG or PNG.
    #[command(
        after_help = "An area's room models (each room's MDL at its LYT position) are drawn as light top-down outlines under the walkmesh; --no-models leaves them out.\n\nExample:\n  areakit render areakit-demo/demo.lyt -o demo.png --findings\n  areakit render ttd01_a04_03.mdl -o tile.svg   (an NWN tile's walkmesh under its model's outline)"
    )]
    Render(RenderArgs),
    /// Write an interactive HTML viewer of an area (LYT, folder, capsule), a model, a walkmesh or an NWN2 TRX: one self-contained page, in 3-D when there are room models.
    #[command(
        after_help = "The page holds its data and script inline (no network; opens from file://). An area whose rooms have models, or a model, opens in 3-D (three.js inside the page): the room models with their textures and lightmaps (found as export finds them), GIT doors and placeables (their models, else boxes), the walkmesh overlay coloured by material with the findings of check, paths, orbit and walk cameras (walking keeps to the walkmesh), a VIS inspector, and the 2-D map as a second tab. Otherwise (or with --2d) the 2-D map: pan and zoom, layers, legend, scale bar, a face inspector and the findings of check (docs/viewer.md).\n\nExamples:\n  areakit view areakit-demo/demo.lyt -o demo.html --open\n  areakit view m13aa_01a.wok -o room.html --path 10,2:14,9\n  areakit view bek01 -o bek01.html --textures ~/kotor-textures\n  areakit view bek01 -o bek01-map.html --2d"
    )]
    View(ViewArgs),
    /// Generate a sample KotOR-style area (LYT, VIS, room WOKs, a map), write it, read it back, check and query it.
    #[command(
        after_help = "Example:\n  areakit demo --out /tmp/areakit-demo && areakit check /tmp/areakit-demo"
    )]
    Demo(DemoArgs),
    /// Read a file and write it in the same or another format (atomically).
    #[command(
        after_help = "The output keeps the input's format unless --to or an unambiguous extension of OUT names another. A KotOR binary model (MDL) is read with the MDX beside it and written as OUT and OUT's .mdx; an NWN compiled model is one file. MDL ASCII to .mdl compiles KotOR's dialect; NWN's text stays text unless --to mdl-bin (the dialect is told from the text). Textures convert between TPC, TGA and PNG: a TPC's TXI is written beside the picture (OUT.txi), and a picture's TXI (NAME.txi beside it, or text a TGA carries after its pixels) goes into the TPC made from it; a TPC is DXT1 when opaque, else DXT5, with a full mip chain, unless --encoding or --no-mipmaps say otherwise; what check would say of the TPC written (sides that are no powers of two, ...) goes to stderr.\n\nExamples:\n  areakit convert m13aa_01a.wok copy.wok\n  areakit convert m13aa_01a.mdl copy.mdl   (also writes copy.mdx)\n  areakit convert c_bodak.mdl c_bodak.mdl.ascii   (an NWN compiled model decompiled)\n  areakit convert c_bodak.mdl.ascii c_bodak.mdl --to mdl-bin   (compiled again)\n  areakit convert lts_lotrim11.tpc lts_lotrim11.png\n  areakit convert my_wall.png my_wall.tpc --encoding dxt5"
    )]
    Convert(ConvertArgs),
    /// Find the shortest walk between two points of a walkmesh, an area or an NWN2 terrain.
    #[command(
        after_help = "Exit code 0 when a path is found; 1 when a single query (--from/--to) finds none (as grep does for no match; the answer says why), or on invalid input; with --pairs 0 whatever each answer is (each line says found true or false); 2 usage or I/O error. An end off the ground is moved to the nearest walkable point within --snap, and the answer says so.\n\nExamples:\n  areakit path areakit-demo/demo.lyt --from 2,5 --to 28,5 --json\n  areakit path m13aa_01a.wok --from 10,2 --to 14,9 --radius 0.35 --objects objects.json\n  areakit path module.trx --from 20,30 --to 80,95 --mode baked\n  areakit path areakit-demo --pairs pairs.txt > paths.jsonl\n  areakit path maze.lyt --pairs pairs.txt --landmarks 8 > paths.jsonl\n  areakit path module.trx --pairs pairs.txt --landmarks 8 --corner-graph yes > paths.jsonl\n  areakit path m13aa_01a.wok --pairs pairs.txt --threads 2 --mode fast\n  areakit path ttd01_a04_03.mdl --from -4,-4 --to 4,4   (an NWN tile's walkmesh)"
    )]
    Path(PathArgs),
    /// List the resources of capsules (ERF/MOD/SAV/HAK, RIM, KEY) or of a game: size, type, where each comes from and which copies it shadows.
    #[command(
        after_help = "Capsules named are searched first, in the order given, then the game (--game): override/, the module's capsules (--module), chitin.key.\n\nExamples:\n  areakit ls m13aa.mod --type wok\n  areakit ls --game ~/kotor --module m13aa --json"
    )]
    Ls(LsArgs),
    /// Write resources of capsules or of a game into a folder.
    #[command(
        after_help = "Without RESREF.EXT, a single capsule is written whole, with areakit-capsule.json (its header and layout: `pack` rebuilds the same bytes from it); otherwise every resource found is written.\n\nExamples:\n  areakit extract m13aa.mod m13aa_01a.wok m13aa.git -o out\n  areakit extract --game ~/kotor --module m13aa m13aa.lyt -o out\n  areakit extract m13aa.mod -o m13aa"
    )]
    Extract(ExtractArgs),
    /// Build a capsule (.mod, .erf, .sav, .hak or .rim, by the output's extension) from a folder of RESREF.EXT files, atomically.
    #[command(
        after_help = "With the folder's areakit-capsule.json (written by `extract`), members keep the capsule's order, names, header and layout while their sizes are unchanged; otherwise they are sorted by name and laid out anew.\n\nExample:\n  areakit extract m13aa.mod -o m13aa && areakit pack m13aa -o m13aa-new.mod"
    )]
    Pack(PackArgs),
    /// Export a walkmesh, an area (LYT or folder), an NWN2 TRX or an MDL ASCII model to glTF 2.0 (.glb, .gltf) or OBJ (+ .mtl).
    #[command(
        after_help = "The format follows OUT's extension. Walkmesh faces are grouped by surface material (named as the game names them, coloured as areakit's maps); an area has one node per room at its LYT position, and a `models` layer with each room's model (MDL) at its LYT position (--no-models leaves it out). Models bring their textures, found as the game finds them (the input's folder and its textures/ and lightmaps/ folders, --textures folders, then --game: override, the module's capsules, KEY/BIF; TPC before TGA), embedded as PNG (an OBJ gets them beside it): diffuse textures as base colour, lightmaps on the second UV set; a texture not found leaves its material flat and is listed. Layout and extras keys: docs/interop.md.\n\nExamples:\n  areakit export m13aa_01a.wok -o m13aa_01a.glb\n  areakit export areakit-demo/demo.lyt -o demo.obj --walkable-only\n  areakit export areakit-demo -o demo.gltf --path 1.5,1.5:18.5,16.5 --objects objects.json\n  areakit export kits/blackvulkar/room_1.mdl -o room_1.glb --textures ~/kotor-textures"
    )]
    Export(ExportArgs),
    /// Import an OBJ or glTF (.glb, .gltf) mesh as a BWM walkmesh (.wok, .pwk, .dwk): materials from names, vertices welded, everything derived rebuilt, the result checked.
    #[command(
        after_help = "Each face's surface material comes from its OBJ `usemtl` name or glTF material name: a game name (stone, grass, non-walk, ...; any case; a Blender `.001` suffix is ignored), an id, or a name mapped by --materials (a JSON object {\"Floor\": \"stone\", \"Wall\": 7}). The findings of `check` on the result are printed; exit 1 when one is an error (the file is written).\n\nExamples:\n  areakit import room.obj -o room.wok --materials materials.json\n  areakit import demo.glb -o demo_b.wok --room-index 1\n  areakit import ground.obj -o area01.trx --terrain area01.trn   (NWN2: walkable, non-walkable, stone, grass, ... or names joined by +)"
    )]
    Import(ImportArgs),
    /// KotOR path graphs (PTH): generate one from an area's walkmeshes, or check one against them.
    #[command(
        subcommand,
        after_help = "Examples:\n  areakit pth generate areakit-demo/demo.lyt -o demo.pth\n  areakit pth check areakit-demo/demo.lyt demo.pth --json"
    )]
    Pth(PthCommand),
    /// Build a module from a layout of kit rooms: LYT, VIS, rooms (MDL/MDX/WOK) placed and linked, ARE with its map block, GIT doors, IFO, minimap.
    #[command(
        after_help = "OUTPUT is a folder (a name without an extension) or a .mod, .erf or .sav capsule; any other extension is refused unless it names an existing folder, and an existing output is replaced only with --force (both refused before any work). The module is checked in memory and written only when the check finds no error; nothing half-built is ever left (docs/build.md).\n\nExamples:\n  areakit build my.indoor --kits Tools/HolocronToolset/src/toolset/kits -o mymod.mod\n  areakit build layout.json -o modules/mymod"
    )]
    Build(super::build::BuildArgs),
    /// Set every room link (WOK transition) of an area from geometry: where two rooms' walkable boundary edges coincide.
    #[command(
        after_help = "Prints each change (room, face edge, from -> to); stale and one-way links are cleared. An area whose links are right is written unchanged (docs/relink.md).\n\nExample:\n  areakit relink modules/m13aa -o fixed/ --json"
    )]
    Relink(super::relink::RelinkArgs),
    /// Room visibility (VIS) from geometry.
    #[command(
        subcommand,
        after_help = "Example:\n  areakit vis generate modules/m13aa -o m13aa.vis"
    )]
    Vis(super::vis::VisCommand),
    /// Draw a game-style minimap of an area's walkable ground (TGA) and compute the ARE map block that places it.
    #[command(
        after_help = "Kit rooms with minimap images are composed at their positions; otherwise the walkable ground is drawn (docs/minimap.md).\n\nExample:\n  areakit minimap modules/mymod -o lbl_mapmymod.tga --are mymod.are --are-out mymod.are"
    )]
    Minimap(super::minimap::MinimapArgs),
}

/// `areakit ls`.
#[derive(Debug, clap::Args)]
pub struct LsArgs {
    /// Capsules (ERF/MOD/SAV/HAK, RIM) or KEY files.
    pub capsules: Vec<PathBuf>,
    /// Only resources of this type (an extension such as wok, or a decimal type id).
    #[arg(long = "type", value_name = "EXT")]
    pub restype: Option<String>,
    /// Print one JSON object `{"count": N, "resources": [{"name", "resref", "type", "type_id", "size", "origin", "shadows"}]}`.
    #[arg(long)]
    pub json: bool,
}

/// `areakit extract`.
#[derive(Debug, clap::Args)]
pub struct ExtractArgs {
    /// Capsules (existing ERF/MOD/SAV/HAK, RIM or KEY files), then the resources to write (RESREF.EXT).
    #[arg(value_name = "CAPSULE|RESREF.EXT")]
    pub items: Vec<String>,
    /// The folder to write into (made if needed).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
}

/// `areakit pack`.
#[derive(Debug, clap::Args)]
pub struct PackArgs {
    /// The folder of RESREF.EXT files.
    pub dir: PathBuf,
    /// The capsule to write: NAME.mod, .erf, .sav, .hak or .rim.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
}

/// `areakit pth ...`.
#[derive(Debug, clap::Subcommand)]
pub enum PthCommand {
    /// Build a path graph from the walkable ground: points at the corners where shortest paths turn, connections where the straight walk is clear.
    #[command(
        after_help = "Example:\n  areakit pth generate areakit-demo/demo.lyt -o demo.pth --radius 0.35"
    )]
    Generate(PthGenerateArgs),
    /// Check a path graph against the walkable ground: points on walkable faces, connections walkable in a straight line.
    #[command(
        after_help = "Exit code 1 when an error is found.\n\nExample:\n  areakit pth check areakit-demo/demo.lyt demo.pth --json"
    )]
    Check(PthCheckArgs),
}

/// `areakit pth generate`.
#[derive(Debug, clap::Args)]
pub struct PthGenerateArgs {
    /// A BWM walkmesh, an area (LYT file or folder), or an NWN2 TRX/TRN.
    pub input: PathBuf,
    /// The PTH file to write.
    #[arg(short, long)]
    pub output: PathBuf,
    /// The radius points and connections keep from walls.
    #[arg(long, value_name = "R", default_value_t = PthRequest::default().radius)]
    pub radius: Distance,
    /// Corners closer than this are merged into one point.
    #[arg(long, value_name = "D", default_value_t = PthRequest::default().spacing)]
    pub spacing: Distance,
    /// Longest connection.
    #[arg(long, value_name = "D", default_value_t = PthRequest::default().max_link)]
    pub max_link: Distance,
}

/// `areakit pth check`.
#[derive(Debug, clap::Args)]
pub struct PthCheckArgs {
    /// A BWM walkmesh, an area (LYT file or folder), or an NWN2 TRX/TRN.
    pub input: PathBuf,
    /// The PTH file.
    pub pth: PathBuf,
    /// Print one JSON object `{"findings": [...]}`.
    #[arg(long)]
    pub json: bool,
}

/// `areakit info`.
#[derive(Debug, clap::Args)]
pub struct InfoArgs {
    /// The file (or area folder) to describe.
    pub file: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `areakit check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Files and folders to check (none with `--game DIR --module NAME`: that module, assembled).
    pub paths: Vec<PathBuf>,
    /// Print one JSON object `{"files_checked": N, "findings": [...]}`.
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: one per core). The output is the same for any number.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

/// `areakit convert`.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// The input file.
    pub input: PathBuf,
    /// The output file (never the input).
    pub output: PathBuf,
    /// The output format (default: the input's, or what OUT's extension names):
    /// bwm, lyt, vis, mdl (binary model: writes OUT and its .mdx beside it),
    /// mdl-ascii (alias wok-ascii), trx, tpc, tga, png, txi.
    #[arg(long, value_name = "FORMAT")]
    pub to: Option<String>,
    /// Write normalised text (MDL ASCII) instead of preserving the input's lines.
    #[arg(long)]
    pub canonical: bool,
    /// Node name for a walkmesh decompiled to ASCII (default: the output file's stem).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// A TPC's encoding (default: dxt1 when every pixel is opaque, else dxt5). Given for a TPC
    /// input, re-encodes it.
    #[arg(long, value_name = "ENCODING", ignore_case = true, value_parser = value_parser::<Encoding>())]
    pub encoding: Option<Encoding>,
    /// A TPC with its first level only (default: a full mip chain).
    #[arg(long)]
    pub no_mipmaps: bool,
}

/// `areakit demo`.
#[derive(Debug, clap::Args)]
pub struct DemoArgs {
    /// Folder to write the sample area into.
    #[arg(long, default_value = "areakit-demo")]
    pub out: PathBuf,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `areakit rebuild`.
#[derive(Debug, clap::Args)]
pub struct RebuildArgs {
    /// The BWM file (WOK, PWK, DWK).
    pub input: PathBuf,
    /// The file to write (never the input).
    #[arg(short, long)]
    pub output: PathBuf,
}

/// `areakit query`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["at", "ray"])))]
pub struct QueryArgs {
    /// A BWM walkmesh, a binary model (KotOR or NWN: its aabb walkmesh), or an area: a LYT file or a folder holding one.
    pub file: PathBuf,
    /// The point X,Y to look at (the face under it and its height).
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub at: Option<String>,
    /// A height hint: where walkable faces overlap, pick the one nearest this height.
    #[arg(long, value_name = "Z", allow_hyphen_values = true, requires = "at")]
    pub z: Option<f32>,
    /// A ray: origin and direction, X,Y,Z:DX,DY,DZ.
    #[arg(long, value_name = "X,Y,Z:DX,DY,DZ", allow_hyphen_values = true)]
    pub ray: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `areakit transform`.
#[derive(Debug, clap::Args)]
pub struct TransformArgs {
    /// The BWM walkmesh or binary model (MDL, with its .mdx beside it).
    pub input: PathBuf,
    /// The file to write (never the input).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Move by X,Y,Z (applied after rotate and mirror).
    #[arg(long, value_name = "X,Y,Z", allow_hyphen_values = true)]
    pub translate: Option<String>,
    /// Rotate about the z axis by DEG degrees, counter-clockwise seen from above (90-degree steps are exact).
    #[arg(long, value_name = "DEG", allow_hyphen_values = true)]
    pub rotate: Option<f64>,
    /// Mirror in x (x -> -x) or y (y -> -y); face winding is fixed.
    #[arg(long, value_name = "x|y", ignore_case = true, value_parser = value_parser::<Axis>())]
    pub mirror: Option<Axis>,
    /// Remap transitions: FROM=TO pairs, TO may be `none`.
    #[arg(long, value_name = "A=B,...")]
    pub remap: Option<String>,
}

/// `areakit render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// A BWM walkmesh, an area (LYT file or folder), an NWN2 TRX/TRN, or a binary model (KotOR or NWN: its aabb walkmesh).
    pub input: PathBuf,
    /// The picture to write: `.svg` or `.png`.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Mark every finding of `check` at its position.
    #[arg(long)]
    pub findings: bool,
    /// Size in pixels of the longer side.
    #[arg(long, default_value_t = 1024)]
    pub size: u32,
    /// Draw the shortest path between two points, X,Y:X,Y (or X,Y,Z:X,Y,Z); repeatable.
    #[arg(long, value_name = "X,Y:X,Y", allow_hyphen_values = true)]
    pub path: Vec<String>,
    /// Draw placed objects (placeables and doors) from a JSON file; paths go around them.
    #[arg(long, value_name = "FILE")]
    pub objects: Option<PathBuf>,
    /// The agent radius the drawn paths keep from walls and objects.
    #[arg(long, value_name = "R", default_value_t = Distance::ZERO)]
    pub radius: Distance,
    /// Do not draw the room models (an area's rooms' MDL top-down outlines, under the walkmesh).
    #[arg(long)]
    pub no_models: bool,
}

/// `areakit view`.
#[derive(Debug, clap::Args)]
pub struct ViewArgs {
    /// A BWM walkmesh, an area (LYT file or folder), an NWN2 TRX/TRN, or a binary model (KotOR or NWN: its aabb walkmesh).
    pub input: PathBuf,
    /// The HTML page to write.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Open the page in the system's browser once written.
    #[arg(long)]
    pub open: bool,
    /// Show the shortest path between two points, X,Y:X,Y (or X,Y,Z:X,Y,Z); repeatable.
    #[arg(long, value_name = "X,Y:X,Y", allow_hyphen_values = true)]
    pub path: Vec<String>,
    /// Show placed objects (placeables and doors) from a JSON file; paths go around them.
    #[arg(long, value_name = "FILE")]
    pub objects: Option<PathBuf>,
    /// The agent radius the shown paths keep from walls and objects.
    #[arg(long, value_name = "R", default_value_t = Distance::ZERO)]
    pub radius: Distance,
    /// The 2-D map even when the input has room models (or is a model).
    #[arg(long = "2d")]
    pub two_d: bool,
    /// A folder of textures (and object models) searched after the input's own places, before the game (--game); repeatable.
    #[arg(long, value_name = "DIR")]
    pub textures: Vec<PathBuf>,
    /// Leave the textures out (flat materials named after them).
    #[arg(long)]
    pub no_textures: bool,
    /// Halve each texture until no side exceeds this many pixels (smaller pages).
    #[arg(long, value_name = "PIXELS", default_value_t = 512)]
    pub texture_size: u32,
}

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
    /// optimal: the exact shortest path; fast: A* and funnel; baked: an NWN2 TRX's own path tables.
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

/// `areakit export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// A BWM walkmesh, an area (LYT file or folder), an NWN2 TRX/TRN, or an MDL ASCII model.
    pub input: PathBuf,
    /// The file to write: `.glb`, `.gltf` or `.obj` (an `.mtl` is written beside an OBJ).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Leave out the faces that are not walkable, and an area's room models (the walkable ground alone).
    #[arg(long)]
    pub walkable_only: bool,
    /// Export the shortest path between two points, X,Y:X,Y (or X,Y,Z:X,Y,Z); repeatable.
    #[arg(long, value_name = "X,Y:X,Y", allow_hyphen_values = true)]
    pub path: Vec<String>,
    /// Export placed objects (placeables and doors) from a JSON file (schema: docs/navigation.md); paths go around them.
    #[arg(long, value_name = "FILE")]
    pub objects: Option<PathBuf>,
    /// Leave out the room models of an area (the `models` layer: each room's MDL at its LYT position); the walkmeshes stay.
    #[arg(long)]
    pub no_models: bool,
    /// A folder of textures (TPC, TGA, TXI) searched after the input's own folder and its `textures/` and `lightmaps/` folders, before the game (--game); repeatable.
    #[arg(long, value_name = "DIR")]
    pub textures: Vec<PathBuf>,
    /// Leave the textures out: materials stay flat, named after their textures.
    #[arg(long)]
    pub no_textures: bool,
    /// Print the report as one JSON object (files written, counts, notes, textures embedded and missing).
    #[arg(long)]
    pub json: bool,
}

/// `areakit import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The mesh: `.obj`, `.glb` or `.gltf`.
    pub input: PathBuf,
    /// The walkmesh to write: `.wok` (area room), `.pwk` (placeable) or `.dwk` (door); or
    /// `.trx`, an NWN2 terrain (with --terrain).
    #[arg(short, long)]
    pub output: PathBuf,
    /// For a `.trx` output: the NWN2 terrain (TRN or TRX) whose walkmesh the mesh replaces
    /// (its grid, tiles and other packets are kept); the result is baked.
    #[arg(long, value_name = "TRN")]
    pub terrain: Option<PathBuf>,
    /// A JSON object mapping material names to surface materials (names or ids).
    #[arg(long, value_name = "MAP.json")]
    pub materials: Option<PathBuf>,
    /// Import one room only: the N-th OBJ object (`o`, from 0) or glTF room node (areakit's area exports: the LYT index) or mesh node.
    #[arg(long, value_name = "N")]
    pub room_index: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}
