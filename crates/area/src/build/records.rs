//! The GFF records a built module needs: ARE, GIT, IFO, and door templates renamed.
//!
//! Each `make_*` returns a whole record: every field the game's own files of that kind carry,
//! in their order and with their GFF types, the values not given taken as the game's files
//! (and the toolsets) have them. KotOR 1 and KotOR 2 records differ only by the fields KotOR 2
//! added (see [`TargetGame`]). Field lists, types, defaults and where each fact comes from:
//! `docs/formats/module-records.md`.
//!
//! Text (names, tags) is stored as Windows-1252, as the games read it; resrefs are written as
//! given: [`resref_problem`] says whether a name can be one.

use areakit_formats::gff::raw::NO_STRREF;
use areakit_formats::gff::views::AreMap;
use areakit_formats::gff::{Gff, Label, LocString, LocSubString, Struct, Text, Value};

/// The game a record is written for (the layout's, re-exported here). KotOR 2's AREs add
/// `Grass_Emissive`, `DisableTransit`, the `Dirty*` fields and, per room, `ForceRating` and
/// `DisableWeather`; its GIT doors add `UseTweakColor` and `TweakColor`; the IFO is the same.
pub use super::layout::TargetGame;

fn is_k2(game: TargetGame) -> bool {
    game == TargetGame::K2
}

/// What [`make_are`] needs to know about the area.
#[derive(Debug, Clone, PartialEq)]
pub struct AreaSpec {
    /// The area's resref (also the module's), at most 16 characters: written as the `Tag`.
    pub resref: String,
    /// The area's name as the game shows it (`Name`, an embedded English string).
    pub name: String,
    /// Light colour, red, green and blue from 0 to 1: `SunAmbientColor`, `SunDiffuseColor` and
    /// `DynAmbientColor` (see [`color_dword`]).
    pub lighting: [f32; 3],
    /// The mini-map calibration (`Map`); `None`, or a field of it `None`, is written as 0
    /// (`MapZoom` as 1).
    pub map: Option<AreMap>,
    /// The layout's room names, in LYT order: one `Rooms` element each.
    pub rooms: Vec<String>,
    /// The game the record is for.
    pub game: TargetGame,
}

/// One door of the GIT.
#[derive(Debug, Clone, PartialEq)]
pub struct DoorSpec {
    /// `TemplateResRef`: the resref of the door's UTD (a kit template copied by
    /// [`rename_utd`]).
    pub template: String,
    /// `Tag`.
    pub tag: String,
    /// `X`, `Y`, `Z` in area coordinates.
    pub position: [f32; 3],
    /// `Bearing`: radians about +Z.
    pub bearing: f32,
    /// Whether the door is paired with a hook of another room (PyKotor's "linked door").
    /// Nothing written depends on it: every built door is written as the game's own doors
    /// inside a module are, with no transition (`LinkedToFlags` 0, `LinkedTo` and
    /// `LinkedToModule` empty). A door whose `LinkedToModule` is set is a module transition —
    /// clicking it loads that module — so linking a door between rooms to its own module, as
    /// PyKotor's indoor builder does, would reload the module.
    pub linked: bool,
}

/// What [`make_ifo`] needs to know about the module.
#[derive(Debug, Clone, PartialEq)]
pub struct ModuleSpec {
    /// The module's resref, which is also its one area's: `Mod_Entry_Area`, the
    /// `Mod_Area_list` entry, `Mod_Tag` and `Mod_VO_ID`.
    pub resref: String,
    /// `Mod_Name` (an embedded English string).
    pub name: String,
    /// Where the player starts: `Mod_Entry_X`, `Mod_Entry_Y`, `Mod_Entry_Z`.
    pub entry: [f32; 3],
    /// The direction the player faces at the start (`Mod_Entry_Dir_X`, `Mod_Entry_Dir_Y`),
    /// written as given (the game's files hold unit vectors).
    pub entry_direction: [f32; 2],
    /// The game the record is for (the IFO's fields are the same in both).
    pub game: TargetGame,
}

/// Struct id of the ARE `Map` struct and of each `Rooms` element (the id the original
/// toolset's files carry; files re-saved by other editors have 14 for `Map`).
const ARE_MAP_ID: u32 = 0;
const ARE_ROOM_ID: u32 = 0;
/// Struct id of the GIT `AreaProperties` struct.
const GIT_AREA_PROPERTIES_ID: u32 = 100;
/// Struct id of a GIT `Door List` element.
pub const GIT_DOOR_ID: u32 = 8;
/// Struct id of an IFO `Mod_Area_list` element.
const IFO_AREA_ID: u32 = 6;

/// Fields pushed in order onto a struct (labels are literals of at most 16 bytes).
struct Fields(Struct);

impl Fields {
    fn new(id: u32) -> Fields {
        Fields(Struct::new(id))
    }

    fn put(&mut self, label: &'static str, value: Value) -> &mut Fields {
        self.0.push(Label::lit(label), value);
        self
    }

    fn byte(&mut self, label: &'static str, v: u8) -> &mut Fields {
        self.put(label, Value::Byte(v))
    }

    fn word(&mut self, label: &'static str, v: u16) -> &mut Fields {
        self.put(label, Value::Word(v))
    }

    fn dword(&mut self, label: &'static str, v: u32) -> &mut Fields {
        self.put(label, Value::Dword(v))
    }

    fn int(&mut self, label: &'static str, v: i32) -> &mut Fields {
        self.put(label, Value::Int(v))
    }

    fn float(&mut self, label: &'static str, v: f32) -> &mut Fields {
        self.put(label, Value::Float(v))
    }

    fn string(&mut self, label: &'static str, v: &str) -> &mut Fields {
        self.put(label, Value::String(Text::windows_1252_lossy(v)))
    }

    fn resref(&mut self, label: &'static str, v: &str) -> &mut Fields {
        self.put(label, Value::ResRef(Text::from(v)))
    }

    fn locstring(&mut self, label: &'static str, v: LocString) -> &mut Fields {
        self.put(label, Value::LocString(v))
    }

    fn list(&mut self, label: &'static str, v: Vec<Struct>) -> &mut Fields {
        self.put(label, Value::List(v))
    }

    fn done(&mut self) -> Struct {
        std::mem::take(&mut self.0)
    }
}

/// A loc string with no string reference and `text` as its English (language 0) string; no
/// string at all when `text` is empty.
pub fn english(text: &str) -> LocString {
    LocString {
        strref: NO_STRREF,
        strings: if text.is_empty() {
            Vec::new()
        } else {
            vec![LocSubString {
                id: 0,
                text: Text::windows_1252_lossy(text),
            }]
        },
    }
}

/// A colour as the ARE's colour fields hold it: a DWORD `0x00BBGGRR` (red in the low byte),
/// each channel `round(clamp(c, 0, 1) * 255)`; NaN is 0.
pub fn color_dword(rgb: [f32; 3]) -> u32 {
    rgb.iter().enumerate().fold(0u32, |acc, (i, &c)| {
        let c = if c.is_nan() { 0.0 } else { c.clamp(0.0, 1.0) };
        acc | (((c * 255.0).round() as u32) << (8 * i))
    })
}

/// Why `name` cannot be a KotOR resref, or `None` when it can: 1 to 16 characters, each an
/// ASCII letter, digit or `_` (the engine compares resrefs without regard to case).
pub fn resref_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("a resref cannot be empty".to_string());
    }
    if name.len() > 16 {
        return Some(format!(
            "`{name}` has {} characters; a KotOR resref has at most 16",
            name.len()
        ));
    }
    name.chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
        .map(|c| format!("`{name}` holds {c:?}; a resref holds ASCII letters, digits and `_`"))
}

/// The area record (`ARE`): the fields of the game's own AREs, the given name, tag, lighting,
/// mini-map calibration and rooms, and the defaults of `docs/formats/module-records.md`.
pub fn make_are(spec: &AreaSpec) -> Gff {
    let k2 = is_k2(spec.game);
    let light = color_dword(spec.lighting);
    let map = spec.map.unwrap_or_default();
    let pt = |p: Option<[f32; 2]>| p.unwrap_or([0.0, 0.0]);
    let (map_pt1, map_pt2) = (pt(map.map_pt1), pt(map.map_pt2));
    let (world_pt1, world_pt2) = (pt(map.world_pt1), pt(map.world_pt2));
    let map_struct = Fields::new(ARE_MAP_ID)
        .int("MapResX", map.map_res_x.unwrap_or(0))
        .int("NorthAxis", map.north_axis.unwrap_or(0))
        .float("WorldPt1X", world_pt1[0])
        .float("WorldPt1Y", world_pt1[1])
        .float("WorldPt2X", world_pt2[0])
        .float("WorldPt2Y", world_pt2[1])
        .float("MapPt1X", map_pt1[0])
        .float("MapPt1Y", map_pt1[1])
        .float("MapPt2X", map_pt2[0])
        .float("MapPt2Y", map_pt2[1])
        .int("MapZoom", map.map_zoom.unwrap_or(1))
        .done();
    let rooms = spec
        .rooms
        .iter()
        .map(|name| {
            let mut room = Fields::new(ARE_ROOM_ID);
            room.string("RoomName", name)
                .int("EnvAudio", 0)
                .float("AmbientScale", 1.0);
            if k2 {
                room.int("ForceRating", 0).byte("DisableWeather", 0);
            }
            room.done()
        })
        .collect();

    let mut r = Fields::new(areakit_formats::gff::raw::ROOT_STRUCT_ID);
    r.int("ID", 0)
        .int("Creator_ID", 0)
        .dword("Version", 1)
        .string("Tag", &spec.resref)
        .locstring("Name", english(&spec.name))
        .string("Comments", "")
        .put("Map", Value::Struct(Box::new(map_struct)))
        .list("Expansion_List", Vec::new())
        .dword("Flags", 0)
        .int("ModSpotCheck", 0)
        .int("ModListenCheck", 0)
        .float("AlphaTest", 0.2)
        .int("CameraStyle", 0)
        .resref("DefaultEnvMap", "")
        .resref("Grass_TexName", "")
        .float("Grass_Density", 0.0)
        .float("Grass_QuadSize", 0.0)
        .dword("Grass_Ambient", 0)
        .dword("Grass_Diffuse", 0);
    if k2 {
        r.dword("Grass_Emissive", 0);
    }
    r.float("Grass_Prob_LL", 0.25)
        .float("Grass_Prob_LR", 0.25)
        .float("Grass_Prob_UL", 0.25)
        .float("Grass_Prob_UR", 0.25)
        .dword("MoonAmbientColor", 0)
        .dword("MoonDiffuseColor", 0)
        .byte("MoonFogOn", 0)
        .float("MoonFogNear", 99.0)
        .float("MoonFogFar", 100.0)
        .dword("MoonFogColor", 0)
        .byte("MoonShadows", 0)
        .dword("SunAmbientColor", light)
        .dword("SunDiffuseColor", light)
        .byte("SunFogOn", 0)
        .float("SunFogNear", 99.0)
        .float("SunFogFar", 100.0)
        .dword("SunFogColor", 0)
        .byte("SunShadows", 0)
        .dword("DynAmbientColor", light)
        .byte("IsNight", 0)
        .byte("LightingScheme", 0)
        .byte("ShadowOpacity", 205)
        .byte("DayNightCycle", 0)
        .int("ChanceRain", 0)
        .int("ChanceSnow", 0)
        .int("ChanceLightning", 0)
        .int("WindPower", 0)
        .word("LoadScreenID", 0)
        .byte("PlayerVsPlayer", 3)
        .byte("NoRest", 0)
        .byte("NoHangBack", 0)
        .byte("PlayerOnly", 0)
        .byte("Unescapable", 0);
    if k2 {
        r.byte("DisableTransit", 0);
    }
    r.byte("StealthXPEnabled", 0)
        .dword("StealthXPLoss", 0)
        .dword("StealthXPMax", 0);
    if k2 {
        for label in [
            [
                "DirtyARGBOne",
                "DirtySizeOne",
                "DirtyFormulaOne",
                "DirtyFuncOne",
            ],
            [
                "DirtyARGBTwo",
                "DirtySizeTwo",
                "DirtyFormulaTwo",
                "DirtyFuncTwo",
            ],
            [
                "DirtyARGBThree",
                "DirtySizeThree",
                "DirtyFormulaThre",
                "DirtyFuncThree",
            ],
        ]
        .into_iter()
        .flatten()
        {
            r.int(label, 0);
        }
    }
    r.list("Rooms", rooms)
        .resref("OnEnter", "")
        .resref("OnExit", "")
        .resref("OnHeartbeat", "")
        .resref("OnUserDefined", "");
    let mut gff = Gff::new(*b"ARE ");
    gff.root = r.done();
    gff
}

/// The area's instances (`GIT`): the doors given, every other list empty, no ambient sound or
/// music.
pub fn make_git(doors: &[DoorSpec], game: TargetGame) -> Gff {
    let properties = Fields::new(GIT_AREA_PROPERTIES_ID)
        .int("AmbientSndDay", 0)
        .int("AmbientSndNight", 0)
        .int("AmbientSndDayVol", 0)
        .int("AmbientSndNitVol", 0)
        .int("EnvAudio", 0)
        .int("MusicBattle", 0)
        .int("MusicDay", 0)
        .int("MusicNight", 0)
        .int("MusicDelay", 0)
        .done();
    let doors = doors
        .iter()
        .map(|d| {
            let mut s = Fields::new(GIT_DOOR_ID);
            s.resref("TemplateResRef", &d.template)
                .string("Tag", &d.tag)
                .resref("LinkedToModule", "")
                .string("LinkedTo", "")
                .byte("LinkedToFlags", 0)
                .locstring("TransitionDestin", LocString::default())
                .float("X", d.position[0])
                .float("Y", d.position[1])
                .float("Z", d.position[2])
                .float("Bearing", d.bearing);
            if is_k2(game) {
                s.byte("UseTweakColor", 0).dword("TweakColor", 0);
            }
            s.done()
        })
        .collect();
    let mut r = Fields::new(areakit_formats::gff::raw::ROOT_STRUCT_ID);
    r.byte("UseTemplates", 1)
        .put("AreaProperties", Value::Struct(Box::new(properties)))
        .list("Creature List", Vec::new())
        .list("Door List", doors)
        .list("Encounter List", Vec::new())
        .list("List", Vec::new())
        .list("SoundList", Vec::new())
        .list("StoreList", Vec::new())
        .list("TriggerList", Vec::new())
        .list("WaypointList", Vec::new())
        .list("Placeable List", Vec::new())
        .list("CameraList", Vec::new());
    let mut gff = Gff::new(*b"GIT ");
    gff.root = r.done();
    gff
}

/// 16 bytes for `Mod_ID`, the same for the same resref: two FNV-1a hashes of it. The game's
/// files hold what looks like a creation GUID (some hold sixteen `0x31` or sixteen zeros);
/// the engine does not need it to be unique.
fn module_id(resref: &str) -> [u8; 16] {
    let fnv = |seed: &[u8]| {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in seed.iter().chain(resref.to_ascii_lowercase().as_bytes()) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h.to_le_bytes()
    };
    let mut id = [0u8; 16];
    id[..8].copy_from_slice(&fnv(b"areakit module "));
    id[8..].copy_from_slice(&fnv(b"areakit mod_id "));
    id
}

/// The module record (`module.ifo`): one area, named after the module, and where the player
/// starts.
pub fn make_ifo(spec: &ModuleSpec) -> Gff {
    let area = Fields::new(IFO_AREA_ID)
        .resref("Area_Name", &spec.resref)
        .done();
    let mut r = Fields::new(areakit_formats::gff::raw::ROOT_STRUCT_ID);
    r.put("Mod_ID", Value::Void(module_id(&spec.resref).to_vec()))
        .int("Mod_Creator_ID", 2)
        .dword("Mod_Version", 3)
        .string("Mod_VO_ID", &spec.resref)
        .word("Expansion_Pack", 0)
        .locstring("Mod_Name", english(&spec.name))
        .string("Mod_Tag", &spec.resref)
        .string("Mod_Hak", "")
        .locstring("Mod_Description", LocString::default())
        .byte("Mod_IsSaveGame", 0)
        .resref("Mod_Entry_Area", &spec.resref)
        .float("Mod_Entry_X", spec.entry[0])
        .float("Mod_Entry_Y", spec.entry[1])
        .float("Mod_Entry_Z", spec.entry[2])
        .float("Mod_Entry_Dir_X", spec.entry_direction[0])
        .float("Mod_Entry_Dir_Y", spec.entry_direction[1])
        .list("Mod_Expan_List", Vec::new())
        .byte("Mod_DawnHour", 6)
        .byte("Mod_DuskHour", 18)
        .byte("Mod_MinPerHour", 2)
        .byte("Mod_StartMonth", 6)
        .byte("Mod_StartDay", 1)
        .byte("Mod_StartHour", 13)
        .dword("Mod_StartYear", 1372)
        .byte("Mod_XPScale", 10);
    for script in [
        "Mod_OnHeartbeat",
        "Mod_OnModLoad",
        "Mod_OnModStart",
        "Mod_OnClientEntr",
        "Mod_OnClientLeav",
        "Mod_OnActvtItem",
        "Mod_OnAcquirItem",
        "Mod_OnUsrDefined",
        "Mod_OnUnAqreItem",
        "Mod_OnPlrDeath",
        "Mod_OnPlrDying",
        "Mod_OnPlrLvlUp",
        "Mod_OnSpawnBtnDn",
        "Mod_OnPlrRest",
        "Mod_StartMovie",
    ] {
        r.resref(script, "");
    }
    r.list("Mod_CutSceneList", Vec::new())
        .list("Mod_GVar_List", Vec::new())
        .list("Mod_Area_list", vec![area]);
    let mut gff = Gff::new(*b"IFO ");
    gff.root = r.done();
    gff
}

/// A kit door template copied for the module: `TemplateResRef` and `Tag` set to `resref`
/// (added when missing, replaced with the right type when of another); every other field
/// kept, in its place.
pub fn rename_utd(utd: &Gff, resref: &str) -> Gff {
    let mut out = utd.clone();
    let root = out.root_mut();
    root.set(
        Label::lit("Tag"),
        Value::String(Text::windows_1252_lossy(resref)),
    );
    root.set(
        Label::lit("TemplateResRef"),
        Value::ResRef(Text::from(resref)),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use areakit_formats::gff::views::{Are, AreRoom, Git, GitDoor, Ifo};
    use areakit_formats::gff::{self, Value};

    /// Written, read back, and checked: no validation finding of any severity.
    fn round_trip(g: &Gff) -> Gff {
        let bytes = gff::write(g).expect("writes");
        let back = gff::read(&bytes).expect("reads back");
        assert_eq!(&back, g, "the tree reads back as written");
        let findings = gff::validate(&back);
        assert!(findings.is_empty(), "{findings:#?}");
        back
    }

    fn labels(s: &Struct) -> Vec<String> {
        s.fields.iter().map(|f| f.label.to_string()).collect()
    }

    fn map() -> AreMap {
        AreMap {
            map_pt1: Some([0.125, 0.875]),
            map_pt2: Some([0.75, 0.25]),
            world_pt1: Some([-12.5, 40.25]),
            world_pt2: Some([30.0, -2.0]),
            north_axis: Some(3),
            map_zoom: Some(1),
            map_res_x: Some(24),
        }
    }

    fn area(game: TargetGame) -> AreaSpec {
        AreaSpec {
            resref: "akbuild".into(),
            name: "Black Vulkar Base — Café".into(),
            lighting: [1.0, 0.5, 0.25],
            map: Some(map()),
            rooms: vec!["akbuild_room0".into(), "akbuild_room1".into()],
            game,
        }
    }

    const K2_ARE_ONLY: [&str; 14] = [
        "Grass_Emissive",
        "DisableTransit",
        "DirtyARGBOne",
        "DirtySizeOne",
        "DirtyFormulaOne",
        "DirtyFuncOne",
        "DirtyARGBTwo",
        "DirtySizeTwo",
        "DirtyFormulaTwo",
        "DirtyFuncTwo",
        "DirtyARGBThree",
        "DirtySizeThree",
        "DirtyFormulaThre",
        "DirtyFuncThree",
    ];

    #[test]
    fn are_reads_back_with_the_values_put_in() {
        for game in [TargetGame::K1, TargetGame::K2] {
            let spec = area(game);
            let back = round_trip(&make_are(&spec));
            assert_eq!(back.file_type, *b"ARE ");
            let view = Are::from_gff(&back);
            assert_eq!(
                view.tag.as_ref().map(|t| t.to_str()),
                Some("akbuild".into())
            );
            let name = view.name.expect("Name");
            assert_eq!(name.strref(), None);
            assert_eq!(
                name.get(0, false).map(|t| t.to_str().into_owned()),
                Some(spec.name.clone())
            );
            assert_eq!(view.map, Some(map()));
            let k2 = game == TargetGame::K2;
            let rooms: Vec<AreRoom> = spec
                .rooms
                .iter()
                .map(|n| AreRoom {
                    room_name: Some(Text::from(n.as_str())),
                    env_audio: Some(0),
                    ambient_scale: Some(1.0),
                    force_rating: k2.then_some(0),
                    disable_weather: k2.then_some(false),
                })
                .collect();
            assert_eq!(view.rooms, rooms);
            let root = back.root();
            // 0x00BBGGRR: red 255, green 128, blue 64.
            for l in ["SunAmbientColor", "SunDiffuseColor", "DynAmbientColor"] {
                assert_eq!(root.get_u32(l), Some(0x0040_80ff), "{l}");
            }
            let have = labels(root);
            for l in K2_ARE_ONLY {
                assert_eq!(have.iter().any(|h| h == l), k2, "{l} in a {game:?} ARE");
            }
            assert_eq!(have.len(), if k2 { 74 } else { 60 });
            assert_eq!(have.last().map(String::as_str), Some("OnUserDefined"));
        }
    }

    #[test]
    fn are_without_a_map_writes_the_empty_calibration() {
        let spec = AreaSpec {
            map: None,
            rooms: Vec::new(),
            name: String::new(),
            ..area(TargetGame::K1)
        };
        let view = Are::from_gff(&round_trip(&make_are(&spec)));
        assert_eq!(
            view.map,
            Some(AreMap {
                map_pt1: Some([0.0, 0.0]),
                map_pt2: Some([0.0, 0.0]),
                world_pt1: Some([0.0, 0.0]),
                world_pt2: Some([0.0, 0.0]),
                north_axis: Some(0),
                map_zoom: Some(1),
                map_res_x: Some(0),
            })
        );
        assert!(view.rooms.is_empty());
        assert_eq!(view.name, Some(LocString::default()));
        // A map with some fields unknown keeps the others.
        let partial = AreMap {
            map_zoom: None,
            world_pt2: None,
            ..map()
        };
        let spec = AreaSpec {
            map: Some(partial),
            ..area(TargetGame::K1)
        };
        let got = Are::from_gff(&round_trip(&make_are(&spec))).map.unwrap();
        assert_eq!(got.map_zoom, Some(1));
        assert_eq!(got.world_pt2, Some([0.0, 0.0]));
        assert_eq!(got.world_pt1, partial.world_pt1);
        assert_eq!(got.north_axis, Some(3));
    }

    #[test]
    fn colours_are_bgr_dwords() {
        assert_eq!(color_dword([1.0, 0.0, 0.0]), 0x0000_00ff);
        assert_eq!(color_dword([0.0, 1.0, 0.0]), 0x0000_ff00);
        assert_eq!(color_dword([0.0, 0.0, 1.0]), 0x00ff_0000);
        assert_eq!(color_dword([0.2, 0.2, 0.2]), 0x0033_3333);
        // Out of range clamps; NaN is dark.
        assert_eq!(color_dword([2.0, -1.0, f32::NAN]), 0x0000_00ff);
        assert_eq!(color_dword([f32::INFINITY, 0.0, 0.0]), 0x0000_00ff);
    }

    fn doors() -> Vec<DoorSpec> {
        vec![
            DoorSpec {
                template: "akbuild_dor0".into(),
                tag: "akbuild_dor0".into(),
                position: [1.5, -2.25, 0.043],
                bearing: std::f32::consts::PI,
                linked: true,
            },
            DoorSpec {
                template: "akbuild_dor1".into(),
                tag: "Door One".into(),
                position: [-0.0, 1e-7, 3.0],
                bearing: -std::f32::consts::FRAC_PI_2,
                linked: false,
            },
        ]
    }

    #[test]
    fn git_reads_back_with_the_doors_put_in() {
        for game in [TargetGame::K1, TargetGame::K2] {
            let k2 = game == TargetGame::K2;
            let back = round_trip(&make_git(&doors(), game));
            assert_eq!(back.file_type, *b"GIT ");
            let view = Git::from_gff(&back);
            let want: Vec<GitDoor> = doors()
                .iter()
                .map(|d| GitDoor {
                    template: Some(Text::from(d.template.as_str())),
                    tag: Some(Text::from(d.tag.as_str())),
                    position: Some(d.position),
                    bearing: Some(d.bearing),
                    linked_to: Some(Text::default()),
                    linked_to_flags: Some(0),
                    linked_to_module: Some(Text::default()),
                    transition_destination: Some(LocString::default()),
                    open_state: None,
                    tweak_color: k2.then_some(0),
                    use_tweak_color: k2.then_some(false),
                })
                .collect();
            assert_eq!(view.doors, want);
            // Positions bit for bit (-0.0 stays -0.0).
            let first = &back.root().get_list("Door List").unwrap()[1];
            assert_eq!(
                first.get_f32("X").map(f32::to_bits),
                Some((-0.0f32).to_bits())
            );
            assert_eq!(first.id, GIT_DOOR_ID);
            assert!(view.placeables.is_empty() && view.creatures.is_empty());
            assert_eq!(
                labels(back.root()),
                [
                    "UseTemplates",
                    "AreaProperties",
                    "Creature List",
                    "Door List",
                    "Encounter List",
                    "List",
                    "SoundList",
                    "StoreList",
                    "TriggerList",
                    "WaypointList",
                    "Placeable List",
                    "CameraList"
                ]
            );
        }
        // Paired with another room's hook or not, a door is written alike: no transition.
        let mut flipped = doors();
        for d in &mut flipped {
            d.linked = !d.linked;
        }
        assert_eq!(
            make_git(&flipped, TargetGame::K1),
            make_git(&doors(), TargetGame::K1)
        );
        // No doors: the list is still there, empty.
        let empty = round_trip(&make_git(&[], TargetGame::K1));
        assert_eq!(
            empty.root().get_list("Door List").map(<[Struct]>::len),
            Some(0)
        );
    }

    fn module(game: TargetGame) -> ModuleSpec {
        ModuleSpec {
            resref: "akbuild".into(),
            name: "Built with areakit".into(),
            entry: [3.25, -7.5, 0.04],
            entry_direction: [0.0, -1.0],
            game,
        }
    }

    #[test]
    fn ifo_reads_back_with_the_values_put_in() {
        for game in [TargetGame::K1, TargetGame::K2] {
            let spec = module(game);
            let back = round_trip(&make_ifo(&spec));
            assert_eq!(back.file_type, *b"IFO ");
            let view = Ifo::from_gff(&back);
            assert_eq!(view.entry_area, Some(Text::from("akbuild")));
            assert_eq!(view.areas, vec![Text::from("akbuild")]);
            assert_eq!(view.tag, Some(Text::from("akbuild")));
            assert_eq!(view.entry_position, Some(spec.entry));
            assert_eq!(view.entry_direction, Some(spec.entry_direction));
            assert_eq!(view.name, Some(english("Built with areakit")));
            assert_eq!(view.hak, Some(Text::default()));
            let id = back.root().get_void("Mod_ID").expect("Mod_ID").to_vec();
            assert_eq!(id.len(), 16);
            assert_eq!(labels(back.root()).len(), 43);
        }
        // Mod_ID: the same for the same module, another for another.
        let id = |r: &str| {
            make_ifo(&ModuleSpec {
                resref: r.into(),
                ..module(TargetGame::K1)
            })
            .root()
            .get_void("Mod_ID")
            .map(<[u8]>::to_vec)
        };
        assert_eq!(id("akbuild"), id("AKBUILD"));
        assert_ne!(id("akbuild"), id("akbuild2"));
    }

    fn utd() -> Gff {
        let mut g = Gff::new(*b"UTD ");
        let mut r = Fields::new(areakit_formats::gff::raw::ROOT_STRUCT_ID);
        r.string("Tag", "Taris Door 6")
            .locstring("LocName", LocString::from_strref(32063))
            .resref("TemplateResRef", "sw_door_taris6")
            .byte("GenericType", 45)
            .put("HP", Value::Short(20))
            .string("Comment", "Taris Door 6");
        g.root = r.done();
        // Read from bytes, as a kit's template is (it keeps its layout).
        gff::read(&gff::write(&g).unwrap()).unwrap()
    }

    #[test]
    fn rename_utd_sets_tag_and_template_and_keeps_the_rest() {
        let kit = utd();
        let renamed = round_trip(&rename_utd(&kit, "akbuild_dor0"));
        let root = renamed.root();
        assert_eq!(root.get_string("Tag"), Some(&Text::from("akbuild_dor0")));
        assert_eq!(
            root.get_resref("TemplateResRef"),
            Some(&Text::from("akbuild_dor0"))
        );
        assert_eq!(labels(root), labels(kit.root()), "same fields, same order");
        for (a, b) in root.fields.iter().zip(&kit.root().fields) {
            if !a.label.is("Tag") && !a.label.is("TemplateResRef") {
                assert_eq!(a, b);
            }
        }
        assert_eq!(renamed.file_type, *b"UTD ");
        // A template without the two fields, or with them of another type, gets them right.
        let mut odd = kit.clone();
        odd.root_mut().remove("Tag");
        odd.root_mut()
            .set(Label::lit("TemplateResRef"), Value::String(Text::from("x")));
        let fixed = round_trip(&rename_utd(&odd, "akbuild_dor1"));
        assert_eq!(
            fixed.root().get_string("Tag"),
            Some(&Text::from("akbuild_dor1"))
        );
        assert_eq!(
            fixed.root().get_resref("TemplateResRef"),
            Some(&Text::from("akbuild_dor1"))
        );
        // The input is not touched.
        assert_eq!(kit, utd());
    }

    #[test]
    fn text_is_written_as_windows_1252() {
        let back = round_trip(&make_are(&area(TargetGame::K1)));
        let name = back.root().get_locstring("Name").unwrap().first().unwrap();
        assert!(name.as_bytes().contains(&0xe9), "é is one byte");
        assert!(name.as_bytes().contains(&0x97), "— is one byte");
        assert_eq!(name.to_str(), "Black Vulkar Base — Café");
    }

    #[test]
    fn resref_problems_are_named() {
        assert_eq!(resref_problem("akbuild_dor0"), None);
        assert_eq!(resref_problem("ABCDEFGHIJKLMNOP"), None);
        assert!(resref_problem("").is_some());
        assert!(resref_problem("abcdefghijklmnopq").unwrap().contains("17"));
        assert!(resref_problem("a b").unwrap().contains("' '"));
        assert!(resref_problem("café").is_some());
        assert!(resref_problem("x.utd").is_some());
    }
}
