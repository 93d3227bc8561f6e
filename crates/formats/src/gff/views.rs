//! Typed views of the GFF resources area tooling needs, read from the generic tree.
//!
//! Every view is tolerant: a field that is missing or has an unexpected type reads as `None`
//! (or is left out of a list), never as an error; numbers are read from whatever integer or
//! float type the file uses. The fields are those the corpus files carry (KotOR 1 and 2; the
//! NWN names the BioWare documentation gives are read too where noted). [`Pth`] is also a
//! builder: [`Pth::to_bytes`] lays a path graph out exactly as the game's own PTH files are.
//! Field lists and what the corpus showed: `docs/formats/gff.md`, "Typed views".

use super::model::{Gff, Label, LocString, Struct, Text, Value};
use super::write::{Flat, Numbering, lay_out};
use crate::error::EncodeError;

fn text(s: &Struct, label: &str) -> Option<Text> {
    s.get(label)?.as_text().cloned()
}

fn locstring(s: &Struct, label: &str) -> Option<LocString> {
    s.get_locstring(label).cloned()
}

fn int<T: TryFrom<i64>>(s: &Struct, label: &str) -> Option<T> {
    T::try_from(s.get_int(label)?).ok()
}

fn flag(s: &Struct, label: &str) -> Option<bool> {
    Some(s.get_int(label)? != 0)
}

fn float(s: &Struct, label: &str) -> Option<f32> {
    s.get_number(label).map(|v| v as f32)
}

fn vec2(s: &Struct, x: &str, y: &str) -> Option<[f32; 2]> {
    Some([float(s, x)?, float(s, y)?])
}

fn vec3(s: &Struct, x: &str, y: &str, z: &str) -> Option<[f32; 3]> {
    Some([float(s, x)?, float(s, y)?, float(s, z)?])
}

fn list<'a>(s: &'a Struct, label: &str) -> &'a [Struct] {
    s.get_list(label).unwrap_or(&[])
}

// ---------------------------------------------------------------------------------------------
// ARE

/// An area's static properties (`ARE`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Are {
    /// `Tag` (CExoString).
    pub tag: Option<Text>,
    /// `Name` (CExoLocString).
    pub name: Option<LocString>,
    /// `Version` (DWORD).
    pub version: Option<u32>,
    /// `Flags` (DWORD).
    pub flags: Option<u32>,
    /// `OnEnter` script (CResRef).
    pub on_enter: Option<Text>,
    /// `OnExit` script (CResRef).
    pub on_exit: Option<Text>,
    /// `Map` (Struct): the mini-map's calibration.
    pub map: Option<AreMap>,
    /// `Rooms` (List, KotOR): one entry per room of the area's layout.
    pub rooms: Vec<AreRoom>,
    /// `Width` in tiles (INT, NWN; no corpus file has it).
    pub width: Option<i32>,
    /// `Height` in tiles (INT, NWN; no corpus file has it).
    pub height: Option<i32>,
    /// `Tileset` (CResRef, NWN; no corpus file has it).
    pub tileset: Option<Text>,
}

/// A room of a KotOR area (`Rooms` list element, struct id 0 in the corpus).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AreRoom {
    /// `RoomName` (CExoString): the room's model, as named in the LYT.
    pub room_name: Option<Text>,
    /// `EnvAudio` (INT).
    pub env_audio: Option<i32>,
    /// `AmbientScale` (FLOAT).
    pub ambient_scale: Option<f32>,
    /// `ForceRating` (INT, KotOR 2 only).
    pub force_rating: Option<i32>,
    /// `DisableWeather` (BYTE, KotOR 2 only).
    pub disable_weather: Option<bool>,
}

/// The mini-map calibration of an area (`Map` struct): two image points and the world points
/// they show.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct AreMap {
    /// `MapPt1X`, `MapPt1Y` (FLOAT, 0..1 of the map image).
    pub map_pt1: Option<[f32; 2]>,
    /// `MapPt2X`, `MapPt2Y`.
    pub map_pt2: Option<[f32; 2]>,
    /// `WorldPt1X`, `WorldPt1Y` (FLOAT, area coordinates).
    pub world_pt1: Option<[f32; 2]>,
    /// `WorldPt2X`, `WorldPt2Y`.
    pub world_pt2: Option<[f32; 2]>,
    /// `NorthAxis` (INT).
    pub north_axis: Option<i32>,
    /// `MapZoom` (INT).
    pub map_zoom: Option<i32>,
    /// `MapResX` (INT).
    pub map_res_x: Option<i32>,
}

impl Are {
    /// Reads the view from a decoded ARE.
    pub fn from_gff(gff: &Gff) -> Are {
        let r = gff.root();
        Are {
            tag: text(r, "Tag"),
            name: locstring(r, "Name"),
            version: int(r, "Version"),
            flags: int(r, "Flags"),
            on_enter: text(r, "OnEnter"),
            on_exit: text(r, "OnExit"),
            map: r.get_struct("Map").map(|m| AreMap {
                map_pt1: vec2(m, "MapPt1X", "MapPt1Y"),
                map_pt2: vec2(m, "MapPt2X", "MapPt2Y"),
                world_pt1: vec2(m, "WorldPt1X", "WorldPt1Y"),
                world_pt2: vec2(m, "WorldPt2X", "WorldPt2Y"),
                north_axis: int(m, "NorthAxis"),
                map_zoom: int(m, "MapZoom"),
                map_res_x: int(m, "MapResX"),
            }),
            rooms: list(r, "Rooms")
                .iter()
                .map(|s| AreRoom {
                    room_name: text(s, "RoomName"),
                    env_audio: int(s, "EnvAudio"),
                    ambient_scale: float(s, "AmbientScale"),
                    force_rating: int(s, "ForceRating"),
                    disable_weather: flag(s, "DisableWeather"),
                })
                .collect(),
            width: int(r, "Width"),
            height: int(r, "Height"),
            tileset: text(r, "Tileset"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// GIT

/// The position of an instance: `X`, `Y`, `Z` (placeables and doors) or `XPosition`,
/// `YPosition`, `ZPosition` (the other lists); `None` unless all three are present.
fn position(s: &Struct) -> Option<[f32; 3]> {
    vec3(s, "X", "Y", "Z").or_else(|| vec3(s, "XPosition", "YPosition", "ZPosition"))
}

/// An area's placed objects (`GIT`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Git {
    /// `Placeable List` elements (struct id 9 in the corpus).
    pub placeables: Vec<GitPlaceable>,
    /// `Door List` elements (struct id 8 in the corpus).
    pub doors: Vec<GitDoor>,
    /// `Creature List` elements (struct id 4).
    pub creatures: Vec<GitInstance>,
    /// `WaypointList` elements (struct id 5).
    pub waypoints: Vec<GitInstance>,
}

/// A placeable instance.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GitPlaceable {
    /// `TemplateResRef` (CResRef): the UTP it is made from.
    pub template: Option<Text>,
    /// `Tag` (CExoString; NWN instances carry it, KotOR's take the template's).
    pub tag: Option<Text>,
    /// `X`, `Y`, `Z` (FLOAT).
    pub position: Option<[f32; 3]>,
    /// `Bearing` (FLOAT, radians about +Z).
    pub bearing: Option<f32>,
    /// `TweakColor` (DWORD, KotOR 2).
    pub tweak_color: Option<u32>,
    /// `UseTweakColor` (BYTE, KotOR 2).
    pub use_tweak_color: Option<bool>,
}

/// A door instance.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GitDoor {
    /// `TemplateResRef` (CResRef): the UTD it is made from.
    pub template: Option<Text>,
    /// `Tag` (CExoString).
    pub tag: Option<Text>,
    /// `X`, `Y`, `Z` (FLOAT).
    pub position: Option<[f32; 3]>,
    /// `Bearing` (FLOAT, radians about +Z).
    pub bearing: Option<f32>,
    /// `LinkedTo` (CExoString): tag of the waypoint or door the transition leads to.
    pub linked_to: Option<Text>,
    /// `LinkedToFlags` (BYTE): 0 no transition, 1 to a door, 2 to a waypoint.
    pub linked_to_flags: Option<u8>,
    /// `LinkedToModule` (CResRef, KotOR): the module the transition leads to.
    pub linked_to_module: Option<Text>,
    /// `TransitionDestin` (CExoLocString, KotOR): the text shown on the transition.
    pub transition_destination: Option<LocString>,
    /// `OpenState` (BYTE): 0 closed, 1 open one way, 2 open the other way. No corpus GIT
    /// door has it (KotOR keeps it in the UTD, and only KotOR 2's).
    pub open_state: Option<u8>,
    /// `TweakColor` (DWORD, KotOR 2).
    pub tweak_color: Option<u32>,
    /// `UseTweakColor` (BYTE, KotOR 2).
    pub use_tweak_color: Option<bool>,
}

/// A creature or waypoint instance.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GitInstance {
    /// `TemplateResRef` (CResRef).
    pub template: Option<Text>,
    /// `Tag` (CExoString; waypoints carry it).
    pub tag: Option<Text>,
    /// `XPosition`, `YPosition`, `ZPosition` (FLOAT).
    pub position: Option<[f32; 3]>,
    /// `XOrientation`, `YOrientation` (FLOAT): the facing direction in the ground plane.
    pub orientation: Option<[f32; 2]>,
}

impl Git {
    /// Reads the view from a decoded GIT.
    pub fn from_gff(gff: &Gff) -> Git {
        let r = gff.root();
        let instance = |s: &Struct| GitInstance {
            template: text(s, "TemplateResRef"),
            tag: text(s, "Tag"),
            position: position(s),
            orientation: vec2(s, "XOrientation", "YOrientation"),
        };
        Git {
            placeables: list(r, "Placeable List")
                .iter()
                .map(|s| GitPlaceable {
                    template: text(s, "TemplateResRef"),
                    tag: text(s, "Tag"),
                    position: position(s),
                    bearing: float(s, "Bearing"),
                    tweak_color: int(s, "TweakColor"),
                    use_tweak_color: flag(s, "UseTweakColor"),
                })
                .collect(),
            doors: list(r, "Door List")
                .iter()
                .map(|s| GitDoor {
                    template: text(s, "TemplateResRef"),
                    tag: text(s, "Tag"),
                    position: position(s),
                    bearing: float(s, "Bearing"),
                    linked_to: text(s, "LinkedTo"),
                    linked_to_flags: int(s, "LinkedToFlags"),
                    linked_to_module: text(s, "LinkedToModule"),
                    transition_destination: locstring(s, "TransitionDestin"),
                    open_state: int(s, "OpenState"),
                    tweak_color: int(s, "TweakColor"),
                    use_tweak_color: flag(s, "UseTweakColor"),
                })
                .collect(),
            creatures: list(r, "Creature List").iter().map(instance).collect(),
            waypoints: list(r, "WaypointList").iter().map(instance).collect(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// IFO

/// A module's information (`IFO`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ifo {
    /// `Mod_Tag` (CExoString).
    pub tag: Option<Text>,
    /// `Mod_Name` (CExoLocString).
    pub name: Option<LocString>,
    /// `Mod_Entry_Area` (CResRef): the area the player starts in.
    pub entry_area: Option<Text>,
    /// `Mod_Entry_X`, `Mod_Entry_Y`, `Mod_Entry_Z` (FLOAT).
    pub entry_position: Option<[f32; 3]>,
    /// `Mod_Entry_Dir_X`, `Mod_Entry_Dir_Y` (FLOAT): the facing direction at the start.
    pub entry_direction: Option<[f32; 2]>,
    /// `Area_Name` (CResRef) of each `Mod_Area_list` element (struct id 6 in the corpus).
    pub areas: Vec<Text>,
    /// `Mod_Hak` (CExoString).
    pub hak: Option<Text>,
}

impl Ifo {
    /// Reads the view from a decoded IFO.
    pub fn from_gff(gff: &Gff) -> Ifo {
        let r = gff.root();
        Ifo {
            tag: text(r, "Mod_Tag"),
            name: locstring(r, "Mod_Name"),
            entry_area: text(r, "Mod_Entry_Area"),
            entry_position: vec3(r, "Mod_Entry_X", "Mod_Entry_Y", "Mod_Entry_Z"),
            entry_direction: vec2(r, "Mod_Entry_Dir_X", "Mod_Entry_Dir_Y"),
            areas: list(r, "Mod_Area_list")
                .iter()
                .filter_map(|s| text(s, "Area_Name"))
                .collect(),
            hak: text(r, "Mod_Hak"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// UTP, UTD

/// A placeable template (`UTP`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Utp {
    /// `Tag` (CExoString).
    pub tag: Option<Text>,
    /// `TemplateResRef` (CResRef).
    pub template: Option<Text>,
    /// `LocName` (CExoLocString).
    pub name: Option<LocString>,
    /// `Appearance` (DWORD): row of `placeables.2da`.
    pub appearance: Option<u32>,
    /// `Static` (BYTE): part of the area's geometry, not an object.
    pub is_static: Option<bool>,
    /// `Useable` (BYTE).
    pub useable: Option<bool>,
    /// `HasInventory` (BYTE).
    pub has_inventory: Option<bool>,
    /// `Plot` (BYTE).
    pub plot: Option<bool>,
    /// `Locked` (BYTE).
    pub locked: Option<bool>,
    /// `KeyRequired` (BYTE).
    pub key_required: Option<bool>,
    /// `KeyName` (CExoString).
    pub key_name: Option<Text>,
    /// `Conversation` (CResRef).
    pub conversation: Option<Text>,
    /// `HP` (SHORT).
    pub hp: Option<i16>,
    /// `CurrentHP` (SHORT).
    pub current_hp: Option<i16>,
    /// `AnimationState` (BYTE).
    pub animation_state: Option<u8>,
    /// `PartyInteract` (BYTE, KotOR).
    pub party_interact: Option<bool>,
    /// Number of `ItemList` elements, when the list exists.
    pub items: Option<usize>,
}

impl Utp {
    /// Reads the view from a decoded UTP.
    pub fn from_gff(gff: &Gff) -> Utp {
        let r = gff.root();
        Utp {
            tag: text(r, "Tag"),
            template: text(r, "TemplateResRef"),
            name: locstring(r, "LocName"),
            appearance: int(r, "Appearance"),
            is_static: flag(r, "Static"),
            useable: flag(r, "Useable"),
            has_inventory: flag(r, "HasInventory"),
            plot: flag(r, "Plot"),
            locked: flag(r, "Locked"),
            key_required: flag(r, "KeyRequired"),
            key_name: text(r, "KeyName"),
            conversation: text(r, "Conversation"),
            hp: int(r, "HP"),
            current_hp: int(r, "CurrentHP"),
            animation_state: int(r, "AnimationState"),
            party_interact: flag(r, "PartyInteract"),
            items: r.get_list("ItemList").map(<[Struct]>::len),
        }
    }
}

/// A door template (`UTD`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Utd {
    /// `Tag` (CExoString).
    pub tag: Option<Text>,
    /// `TemplateResRef` (CResRef).
    pub template: Option<Text>,
    /// `LocName` (CExoLocString).
    pub name: Option<LocString>,
    /// `Appearance` (DWORD): row of `doortypes.2da` (NWN); 0 in KotOR, which uses
    /// `GenericType`.
    pub appearance: Option<u32>,
    /// `GenericType` (BYTE): row of `genericdoors.2da`.
    pub generic_type: Option<u8>,
    /// `OpenState` (BYTE, KotOR 2 and NWN): 0 closed, 1 and 2 open.
    pub open_state: Option<u8>,
    /// `Static` (BYTE).
    pub is_static: Option<bool>,
    /// `Plot` (BYTE).
    pub plot: Option<bool>,
    /// `Locked` (BYTE).
    pub locked: Option<bool>,
    /// `Lockable` (BYTE).
    pub lockable: Option<bool>,
    /// `KeyRequired` (BYTE).
    pub key_required: Option<bool>,
    /// `KeyName` (CExoString).
    pub key_name: Option<Text>,
    /// `Conversation` (CResRef).
    pub conversation: Option<Text>,
    /// `HP` (SHORT).
    pub hp: Option<i16>,
    /// `CurrentHP` (SHORT).
    pub current_hp: Option<i16>,
    /// `AnimationState` (BYTE).
    pub animation_state: Option<u8>,
    /// `LoadScreenID` (WORD).
    pub load_screen: Option<u16>,
}

impl Utd {
    /// Reads the view from a decoded UTD.
    pub fn from_gff(gff: &Gff) -> Utd {
        let r = gff.root();
        Utd {
            tag: text(r, "Tag"),
            template: text(r, "TemplateResRef"),
            name: locstring(r, "LocName"),
            appearance: int(r, "Appearance"),
            generic_type: int(r, "GenericType"),
            open_state: int(r, "OpenState"),
            is_static: flag(r, "Static"),
            plot: flag(r, "Plot"),
            locked: flag(r, "Locked"),
            lockable: flag(r, "Lockable"),
            key_required: flag(r, "KeyRequired"),
            key_name: text(r, "KeyName"),
            conversation: text(r, "Conversation"),
            hp: int(r, "HP"),
            current_hp: int(r, "CurrentHP"),
            animation_state: int(r, "AnimationState"),
            load_screen: int(r, "LoadScreenID"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// PTH

/// Why a GFF is not a path graph.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{item}: {message}")]
pub struct ViewError {
    /// Where, e.g. `Path_Points[3].X`.
    pub item: String,
    /// What was expected.
    pub message: String,
}

/// One point of a path graph.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PathPoint {
    /// `X` (FLOAT).
    pub x: f32,
    /// `Y` (FLOAT).
    pub y: f32,
    /// `First_Conection` (DWORD, the game's spelling): index of the point's first entry in
    /// [`Pth::connections`].
    pub first_connection: u32,
    /// `Conections` (DWORD): how many entries it has there.
    pub connection_count: u32,
}

/// A path graph (`PTH`): the points creatures path between when the walkmesh alone is not
/// enough, and the connections between them.
///
/// On disk: the root (id `0xffffffff`) holds the lists `Path_Points` (structs of id 2 with
/// `Conections`, `First_Conection` (DWORD), `X`, `Y` (FLOAT), in that order) and
/// `Path_Conections` (structs of id 3 with one DWORD, `Destination`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pth {
    /// The points in file order.
    pub points: Vec<PathPoint>,
    /// The `Destination` of each `Path_Conections` element: a point index.
    pub connections: Vec<u32>,
}

const PATH_POINTS: Label = Label::lit("Path_Points");
const PATH_CONECTIONS: Label = Label::lit("Path_Conections");
const CONECTIONS: Label = Label::lit("Conections");
const FIRST_CONECTION: Label = Label::lit("First_Conection");
const X: Label = Label::lit("X");
const Y: Label = Label::lit("Y");
const DESTINATION: Label = Label::lit("Destination");
/// Struct id of a `Path_Points` element in every corpus PTH.
pub const PTH_POINT_ID: u32 = 2;
/// Struct id of a `Path_Conections` element in every corpus PTH.
pub const PTH_CONNECTION_ID: u32 = 3;

impl Pth {
    /// Reads a path graph; a missing list, or a point or connection without its fields of the
    /// game's types, is an error naming it (`Path_Points[3].X`).
    pub fn from_gff(gff: &Gff) -> Result<Pth, ViewError> {
        let r = gff.root();
        let get_list = |name: &str| {
            r.get_list(name).ok_or_else(|| ViewError {
                item: name.into(),
                message: "missing, or not a List".into(),
            })
        };
        let missing = |item: String, what: &str| ViewError {
            item,
            message: format!("missing, or not a {what}"),
        };
        let mut points = Vec::new();
        for (i, s) in get_list("Path_Points")?.iter().enumerate() {
            let field = |l: &str| format!("Path_Points[{i}].{l}");
            points.push(PathPoint {
                x: s.get_f32("X").ok_or_else(|| missing(field("X"), "FLOAT"))?,
                y: s.get_f32("Y").ok_or_else(|| missing(field("Y"), "FLOAT"))?,
                first_connection: s
                    .get_u32("First_Conection")
                    .ok_or_else(|| missing(field("First_Conection"), "DWORD"))?,
                connection_count: s
                    .get_u32("Conections")
                    .ok_or_else(|| missing(field("Conections"), "DWORD"))?,
            });
        }
        let mut connections = Vec::new();
        for (i, s) in get_list("Path_Conections")?.iter().enumerate() {
            connections
                .push(s.get_u32("Destination").ok_or_else(|| {
                    missing(format!("Path_Conections[{i}].Destination"), "DWORD")
                })?);
        }
        Ok(Pth {
            points,
            connections,
        })
    }

    /// A path graph from point positions and each point's neighbours (the connections are
    /// stored point by point, in the order given).
    pub fn from_adjacency(positions: &[[f32; 2]], neighbours: &[Vec<u32>]) -> Pth {
        let mut pth = Pth::default();
        for (i, &[x, y]) in positions.iter().enumerate() {
            let n = neighbours.get(i).map_or(&[][..], Vec::as_slice);
            pth.points.push(PathPoint {
                x,
                y,
                first_connection: pth.connections.len() as u32,
                connection_count: n.len() as u32,
            });
            pth.connections.extend_from_slice(n);
        }
        pth
    }

    /// The destinations of point `i`'s connections (empty when its range is out of bounds).
    pub fn neighbours(&self, i: usize) -> &[u32] {
        self.points
            .get(i)
            .and_then(|p| {
                let start = p.first_connection as usize;
                self.connections
                    .get(start..start.checked_add(p.connection_count as usize)?)
            })
            .unwrap_or(&[])
    }

    /// Whether the points' connection ranges follow one another from 0 and cover every
    /// connection (as in every corpus PTH): then [`Pth::to_bytes`] uses the game's layout.
    pub fn ranges_in_order(&self) -> bool {
        let mut next = 0u64;
        for p in &self.points {
            if u64::from(p.first_connection) != next {
                return false;
            }
            next += u64::from(p.connection_count);
        }
        next == self.connections.len() as u64
    }

    /// The generic tree (no layout kept: see [`Pth::to_gff`]).
    pub fn to_tree(&self) -> Gff {
        let mut gff = Gff::new(*b"PTH ");
        let points = self
            .points
            .iter()
            .map(|p| {
                Struct::new(PTH_POINT_ID)
                    .with(CONECTIONS, Value::Dword(p.connection_count))
                    .with(FIRST_CONECTION, Value::Dword(p.first_connection))
                    .with(X, Value::Float(p.x))
                    .with(Y, Value::Float(p.y))
            })
            .collect();
        let connections = self
            .connections
            .iter()
            .map(|&d| Struct::new(PTH_CONNECTION_ID).with(DESTINATION, Value::Dword(d)))
            .collect();
        gff.root.push(PATH_POINTS, Value::List(points));
        gff.root.push(PATH_CONECTIONS, Value::List(connections));
        gff
    }

    /// The bytes of a PTH file laid out as the game writes them (when
    /// [`Pth::ranges_in_order`]; otherwise in the canonical layout): structs numbered root,
    /// then each point followed by its connections; fields numbered the root's two lists, then
    /// for each point the `Destination` fields of its connections followed by its own four
    /// fields; labels in order of first use; list indices `Path_Points` then
    /// `Path_Conections`.
    pub fn to_bytes(&self) -> Result<Vec<u8>, EncodeError> {
        let tree = self.to_tree();
        let flat = Flat::new(&tree.root)?;
        let numbering = if self.ranges_in_order() {
            game_numbering(&flat, self)
        } else {
            flat.canonical()
        };
        lay_out(&tree, &flat, &numbering)
    }

    /// The tree of [`Pth::to_bytes`] read back, so that it keeps the game's layout: writing it
    /// unmodified gives those bytes.
    pub fn to_gff(&self) -> Result<Gff, EncodeError> {
        let bytes = self.to_bytes()?;
        super::read(&bytes).map_err(|e| EncodeError(format!("PTH written unreadable: {e}")))
    }
}

/// The game's numbering of a tree built by [`Pth::to_tree`] whose ranges are in order.
fn game_numbering(flat: &Flat<'_>, pth: &Pth) -> Numbering {
    // Walk numbers: the root's two fields are 0 and 1.
    let points = flat.list_of(0);
    let conns = flat.list_of(1);
    let mut structs = vec![0u32];
    let mut fields = vec![0u32, 1];
    for (i, p) in pth.points.iter().enumerate() {
        structs.push(points[i]);
        let range = p.first_connection as usize..(p.first_connection + p.connection_count) as usize;
        for &c in &conns[range.clone()] {
            structs.push(c);
        }
        for &c in &conns[range] {
            let (st, first) = flat.structs[c as usize];
            fields.extend(first..first + st.fields.len() as u32);
        }
        let (st, first) = flat.structs[points[i] as usize];
        fields.extend(first..first + st.fields.len() as u32);
    }
    Numbering { structs, fields }
}
