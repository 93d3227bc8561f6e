//! Command-line arguments (clap derive): the command list; each command's arguments live in
//! its own module. Every command's help ends with an example.

use std::path::PathBuf;

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
    Info(super::info::InfoArgs),
    /// Check files and folders (recursively) for everything wrong with them.
    #[command(
        after_help = "Prints one line per finding (path:location: severity[code]: message) and a summary; codes are documented in docs/checks.md.\nA capsule is checked member by member, and each area in it as a module (with --game, a capsule without a LYT: the entry area of its module.ifo).\nExit 0 when there is no error finding, 1 when there is, 2 for usage or I/O errors.\n\nExamples:\n  areakit check ../modules/m13aa --json\n  areakit --game ~/kotor check ~/kotor/modules/danm13.rim"
    )]
    Check(super::check::CheckArgs),
    /// Bake an NWN2 TRN/TRX walkmesh: with the area's GIT, its walkmesh cutters cut out; then tile ownership, path tables, islands, island paths.
    #[command(
        after_help = "Without --git the geometry is kept and only the tables are baked. With a GIT (or a folder holding the TRN and its GIT), every triangle is clipped against every walkmesh cutter (exact predicates), the parts inside removed, and the result laid out as the toolset lays out a TRX (docs/formats/nwn2-trx.md).\n\nExamples:\n  areakit bake area01.trn -o area01.trx\n  areakit bake area01.trn --git area01.git -o area01.trx --json\n  areakit bake area01/ -o area01.trx"
    )]
    Bake(super::bake::BakeArgs),
    /// Rebuild every derived table of a BWM walkmesh (normals, planes, adjacency, edges, perimeters, AABB tree).
    #[command(after_help = "Example:\n  areakit rebuild broken.wok -o fixed.wok")]
    Rebuild(super::rebuild::RebuildArgs),
    /// Ask a walkmesh (or an area) what is at a point or along a ray.
    #[command(
        after_help = "Examples:\n  areakit query m13aa_01a.wok --at 12.5,-3 --z 0.5 --json\n  areakit query m13aa_01a.wok --ray 12.5,-3,10:0,0,-1\n  areakit query areakit-demo/demo.lyt --at 15,5\n  areakit query ttd01_a04_03.mdl --at 4,4 --json   (an NWN tile's walkmesh)"
    )]
    Query(super::query::QueryArgs),
    /// Move, rotate, mirror a BWM walkmesh (or remap its transitions) or a binary model; derived
    /// data stays valid.
    #[command(
        after_help = "A binary model (MDL) is written as OUT and its .mdx; the same steps on a room's model and its WOK keep the two in agreement.\n\nExamples:\n  areakit transform room.wok -o turned.wok --rotate 90 --translate 10,0,0 --remap 3=5,4=none\n  areakit transform room.mdl -o turned.mdl --rotate 90 --translate 10,0,0"
    )]
    Transform(super::transform::TransformArgs),
    /// Draw a top-down map of a walkmesh, an area (LYT or folder) or an NWN2 TRX as SVG or PNG.
    #[command(
        after_help = "An area's room models (each room's MDL at its LYT position) are drawn as light top-down outlines under the walkmesh; --no-models leaves them out.\n\nExample:\n  areakit render areakit-demo/demo.lyt -o demo.png --findings\n  areakit render ttd01_a04_03.mdl -o tile.svg   (an NWN tile's walkmesh under its model's outline)"
    )]
    Render(super::render::RenderArgs),
    /// Write an interactive HTML viewer of an area (LYT, folder, capsule), a model, a walkmesh or an NWN2 TRX: one self-contained page, in 3-D when there are room models.
    #[command(
        after_help = "The page holds its data and script inline (no network; opens from file://). An area whose rooms have models, or a model, opens in 3-D (three.js inside the page): the room models with their textures and lightmaps (found as export finds them), GIT doors and placeables (their models, else boxes), the walkmesh overlay coloured by material with the findings of check, paths, orbit and walk cameras (walking keeps to the walkmesh), a VIS inspector, and the 2-D map as a second tab. Otherwise (or with --2d) the 2-D map: pan and zoom, layers, legend, scale bar, a face inspector and the findings of check (docs/viewer.md).\n\nExamples:\n  areakit view areakit-demo/demo.lyt -o demo.html --open\n  areakit view m13aa_01a.wok -o room.html --path 10,2:14,9\n  areakit view bek01 -o bek01.html --textures ~/kotor-textures\n  areakit view bek01 -o bek01-map.html --2d"
    )]
    View(super::view::ViewArgs),
    /// Generate a sample KotOR-style area (LYT, VIS, room WOKs, a map), write it, read it back, check and query it.
    #[command(
        after_help = "Example:\n  areakit demo --out /tmp/areakit-demo && areakit check /tmp/areakit-demo"
    )]
    Demo(super::demo::DemoArgs),
    /// Read a file and write it in the same or another format (atomically).
    #[command(
        after_help = "The output keeps the input's format unless --to or an unambiguous extension of OUT names another. A KotOR binary model (MDL) is read with the MDX beside it and written as OUT and OUT's .mdx; an NWN compiled model is one file. MDL ASCII to .mdl compiles KotOR's dialect; NWN's text stays text unless --to mdl-bin (the dialect is told from the text). Textures convert between TPC, TGA and PNG: a TPC's TXI is written beside the picture (OUT.txi), and a picture's TXI (NAME.txi beside it, or text a TGA carries after its pixels) goes into the TPC made from it; a TPC is DXT1 when opaque, else DXT5, with a full mip chain, unless --encoding or --no-mipmaps say otherwise; what check would say of the TPC written (sides that are no powers of two, ...) goes to stderr.\n\nExamples:\n  areakit convert m13aa_01a.wok copy.wok\n  areakit convert m13aa_01a.mdl copy.mdl   (also writes copy.mdx)\n  areakit convert c_bodak.mdl c_bodak.mdl.ascii   (an NWN compiled model decompiled)\n  areakit convert c_bodak.mdl.ascii c_bodak.mdl --to mdl-bin   (compiled again)\n  areakit convert lts_lotrim11.tpc lts_lotrim11.png\n  areakit convert my_wall.png my_wall.tpc --encoding dxt5"
    )]
    Convert(super::convert::ConvertArgs),
    /// Find the shortest walk between two points of a walkmesh, an area or an NWN2 terrain.
    #[command(
        after_help = "Exit code 0 when a path is found; 1 when a single query (--from/--to) finds none (as grep does for no match; the answer says why), or on invalid input; with --pairs 0 whatever each answer is (each line says found true or false); 2 usage or I/O error. An end off the ground is moved to the nearest walkable point within --snap, and the answer says so.\n\nExamples:\n  areakit path areakit-demo/demo.lyt --from 2,5 --to 28,5 --json\n  areakit path m13aa_01a.wok --from 10,2 --to 14,9 --radius 0.35 --objects objects.json\n  areakit path module.trx --from 20,30 --to 80,95 --mode baked\n  areakit path areakit-demo --pairs pairs.txt > paths.jsonl\n  areakit path maze.lyt --pairs pairs.txt --landmarks 8 > paths.jsonl\n  areakit path module.trx --pairs pairs.txt --landmarks 8 --corner-graph yes > paths.jsonl\n  areakit path m13aa_01a.wok --pairs pairs.txt --threads 2 --mode fast\n  areakit path ttd01_a04_03.mdl --from -4,-4 --to 4,4   (an NWN tile's walkmesh)"
    )]
    Path(super::path::PathArgs),
    /// List the resources of capsules (ERF/MOD/SAV/HAK, RIM, KEY) or of a game: size, type, where each comes from and which copies it shadows.
    #[command(
        after_help = "Capsules named are searched first, in the order given, then the game (--game): override/, the module's capsules (--module), chitin.key.\n\nExamples:\n  areakit ls m13aa.mod --type wok\n  areakit ls --game ~/kotor --module m13aa --json"
    )]
    Ls(super::ls::LsArgs),
    /// Write resources of capsules or of a game into a folder.
    #[command(
        after_help = "Without RESREF.EXT, a single capsule is written whole, with areakit-capsule.json (its header and layout: `pack` rebuilds the same bytes from it); otherwise every resource found is written.\n\nExamples:\n  areakit extract m13aa.mod m13aa_01a.wok m13aa.git -o out\n  areakit extract --game ~/kotor --module m13aa m13aa.lyt -o out\n  areakit extract m13aa.mod -o m13aa"
    )]
    Extract(super::extract::ExtractArgs),
    /// Build a capsule (.mod, .erf, .sav, .hak or .rim, by the output's extension) from a folder of RESREF.EXT files, atomically.
    #[command(
        after_help = "With the folder's areakit-capsule.json (written by `extract`), members keep the capsule's order, names, header and layout while their sizes are unchanged; otherwise they are sorted by name and laid out anew.\n\nExample:\n  areakit extract m13aa.mod -o m13aa && areakit pack m13aa -o m13aa-new.mod"
    )]
    Pack(super::pack::PackArgs),
    /// Export a walkmesh, an area (LYT or folder), an NWN2 TRX or an MDL ASCII model to glTF 2.0 (.glb, .gltf) or OBJ (+ .mtl).
    #[command(
        after_help = "The format follows OUT's extension. Walkmesh faces are grouped by surface material (named as the game names them, coloured as areakit's maps); an area has one node per room at its LYT position, and a `models` layer with each room's model (MDL) at its LYT position (--no-models leaves it out). Models bring their textures, found as the game finds them (the input's folder and its textures/ and lightmaps/ folders, --textures folders, then --game: override, the module's capsules, KEY/BIF; TPC before TGA), embedded as PNG (an OBJ gets them beside it): diffuse textures as base colour, lightmaps on the second UV set; a texture not found leaves its material flat and is listed. Layout and extras keys: docs/interop.md.\n\nExamples:\n  areakit export m13aa_01a.wok -o m13aa_01a.glb\n  areakit export areakit-demo/demo.lyt -o demo.obj --walkable-only\n  areakit export areakit-demo -o demo.gltf --path 1.5,1.5:18.5,16.5 --objects objects.json\n  areakit export kits/blackvulkar/room_1.mdl -o room_1.glb --textures ~/kotor-textures"
    )]
    Export(super::export::ExportArgs),
    /// Import an OBJ or glTF (.glb, .gltf) mesh as a BWM walkmesh (.wok, .pwk, .dwk): materials from names, vertices welded, everything derived rebuilt, the result checked.
    #[command(
        after_help = "Each face's surface material comes from its OBJ `usemtl` name or glTF material name: a game name (stone, grass, non-walk, ...; any case; a Blender `.001` suffix is ignored), an id, or a name mapped by --materials (a JSON object {\"Floor\": \"stone\", \"Wall\": 7}). The findings of `check` on the result are printed; exit 1 when one is an error (the file is written).\n\nExamples:\n  areakit import room.obj -o room.wok --materials materials.json\n  areakit import demo.glb -o demo_b.wok --room-index 1\n  areakit import ground.obj -o area01.trx --terrain area01.trn   (NWN2: walkable, non-walkable, stone, grass, ... or names joined by +)"
    )]
    Import(super::import::ImportArgs),
    /// KotOR path graphs (PTH): generate one from an area's walkmeshes, or check one against them.
    #[command(
        subcommand,
        after_help = "Examples:\n  areakit pth generate areakit-demo/demo.lyt -o demo.pth\n  areakit pth check areakit-demo/demo.lyt demo.pth --json"
    )]
    Pth(super::pth::PthCommand),
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
