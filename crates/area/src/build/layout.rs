//! Layouts: what `areakit build` is asked to make. Two inputs give the same [`Layout`]:
//! Holocron Toolset's `.indoor` JSON and areakit's own layout JSON (`docs/build.md`).

use serde::Deserialize;

use super::BuildError;

/// The game a module is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TargetGame {
    /// KotOR (K1).
    #[default]
    K1,
    /// KotOR II (K2, TSL).
    K2,
}

/// Where a room's model and walkmesh come from.
#[derive(Debug, Clone, PartialEq)]
pub enum RoomSource {
    /// A component of a Holocron kit.
    Kit {
        /// The kit's id (`<kit>.json` in the kits folder).
        kit: String,
        /// The component's id.
        component: String,
    },
    /// A room model and its walkmesh anywhere areakit can open them (a file, a capsule member
    /// path, a game resource), with the door hooks given in the layout.
    Files {
        /// The binary model (its MDX beside it); `None` builds a room without a model.
        model: Option<String>,
        /// The room walkmesh (WOK).
        walkmesh: String,
        /// A minimap image of the room (PNG, Holocron's convention), if any.
        minimap: Option<String>,
        /// The room's door hooks, in the model's space.
        hooks: Vec<HookSpec>,
        /// The door template (UTD) put at this room's connected hooks.
        door: Option<DoorSpec>,
    },
}

/// A door hook given in a layout (model space of its room).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HookSpec {
    /// Position.
    pub position: [f32; 3],
    /// The direction the doorway faces, degrees counter-clockwise from +y (Holocron's).
    #[serde(default)]
    pub rotation: f32,
}

/// A door template named in a layout.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoorSpec {
    /// The UTD (a file, capsule member or game resource).
    pub utd: String,
    /// Doorway width in metres (the wider door of a connection is placed).
    #[serde(default = "default_door_width")]
    pub width: f32,
}

fn default_door_width() -> f32 {
    3.0
}

/// How a room is placed: flipped, then rotated counter-clockwise, then moved (Holocron's order).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// Where the room's origin goes.
    pub position: [f32; 3],
    /// Rotation about z, degrees counter-clockwise.
    pub rotation: f32,
    /// Mirror x (x → −x), before the rotation.
    pub flip_x: bool,
    /// Mirror y (y → −y), before the rotation.
    pub flip_y: bool,
}

impl Placement {
    /// A point of the room's own space in the area.
    pub fn point(&self, p: [f32; 3]) -> [f32; 3] {
        let x = if self.flip_x { -p[0] } else { p[0] };
        let y = if self.flip_y { -p[1] } else { p[1] };
        let (s, c) = (self.rotation as f64).to_radians().sin_cos();
        let (x, y) = (x as f64, y as f64);
        [
            (x * c - y * s) as f32 + self.position[0],
            (x * s + y * c) as f32 + self.position[1],
            p[2] + self.position[2],
        ]
    }

    /// A hook direction of the room's own space (degrees from +y, counter-clockwise) in the
    /// area, normalised to [0, 360).
    pub fn direction(&self, deg: f32) -> f32 {
        let mut d = deg;
        if self.flip_x {
            d = -d;
        }
        if self.flip_y {
            d = 180.0 - d;
        }
        (d + self.rotation).rem_euclid(360.0)
    }
}

/// How a room is placed in a layout: at given coordinates, or by joining one of its hooks to
/// a hook of a room placed before it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Position {
    /// Explicit placement.
    At(Placement),
    /// Joined: this room's `hook` meets hook `to_hook` of room `room` (an earlier room), facing
    /// it; flips as given.
    Attach {
        /// The earlier room's index.
        room: usize,
        /// That room's hook.
        to_hook: usize,
        /// This room's hook.
        hook: usize,
        /// Mirror x first.
        flip_x: bool,
        /// Mirror y first.
        flip_y: bool,
    },
}

/// One room of a layout.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutRoom {
    /// Where its model and walkmesh come from.
    pub source: RoomSource,
    /// Where it goes.
    pub position: Position,
}

/// An explicit connection: hook `hooks[0]` of room `rooms[0]` joins hook `hooks[1]` of room
/// `rooms[1]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Connection {
    /// The two rooms (layout indices).
    pub rooms: [usize; 2],
    /// Their hooks.
    pub hooks: [usize; 2],
}

/// What to build.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// The module's resref (rooms are `<module>_<nn>`, the minimap `lbl_map<module>`).
    pub module: String,
    /// The area's display name.
    pub name: String,
    /// The target game; `None` lets the kit door templates' game decide K1.
    pub game: Option<TargetGame>,
    /// Ambient and diffuse light, 0..1 RGB.
    pub lighting: [f32; 3],
    /// A kit skybox model to add as a room, if any.
    pub skybox: Option<String>,
    /// A kits folder named by the layout (relative to the layout file).
    pub kits: Option<String>,
    /// The rooms, in LYT order.
    pub rooms: Vec<LayoutRoom>,
    /// Connections given explicitly (besides the hooks that meet).
    pub connections: Vec<Connection>,
    /// The entry point; `None` puts it on walkable ground in the first room.
    pub entry: Option<[f32; 3]>,
    /// How far apart (plan, metres) two hooks may be and still meet.
    pub hook_tolerance: f32,
    /// Which input this was.
    pub kind: LayoutKind,
}

/// The two layout formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LayoutKind {
    /// Holocron Toolset's `.indoor`.
    Indoor,
    /// areakit's layout JSON.
    Areakit,
}

/// The default hook tolerance: Holocron snaps hooks together, so hooks that meet agree to
/// float precision; 5 cm leaves room for hand-typed coordinates.
pub const DEFAULT_HOOK_TOLERANCE: f32 = 0.05;

/// Reads a layout: `.indoor` when the JSON has Holocron's keys (`warp`/`module_id` and
/// `lighting`), areakit's layout otherwise. Errors give line:column.
pub fn parse(text: &str) -> Result<Layout, BuildError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(json_error)?;
    let obj = value
        .as_object()
        .ok_or_else(|| BuildError::Layout("expected a JSON object at 1:1".into()))?;
    let holocron = (obj.contains_key("warp") || obj.contains_key("module_id"))
        && !obj.contains_key("module")
        && obj.get("format").is_none();
    if holocron {
        parse_indoor(text)
    } else {
        parse_areakit(text)
    }
}

fn json_error(e: serde_json::Error) -> BuildError {
    BuildError::Layout(format!("{}:{}: {e}", e.line(), e.column()))
}

#[derive(Deserialize)]
struct IndoorFile {
    #[serde(default)]
    module_id: Option<String>,
    #[serde(default)]
    warp: Option<String>,
    #[serde(default)]
    name: Option<serde_json::Value>,
    #[serde(default)]
    lighting: Option<[f32; 3]>,
    #[serde(default)]
    skybox: Option<String>,
    #[serde(default)]
    target_game_type: Option<bool>,
    rooms: Vec<IndoorRoom>,
    #[serde(default)]
    embedded_components: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct IndoorRoom {
    position: [f32; 3],
    #[serde(default)]
    rotation: f32,
    #[serde(default)]
    flip_x: bool,
    #[serde(default)]
    flip_y: bool,
    kit: String,
    component: String,
    #[serde(default)]
    walkmesh_override: Option<String>,
}

fn parse_indoor(text: &str) -> Result<Layout, BuildError> {
    let f: IndoorFile = serde_json::from_str(text).map_err(json_error)?;
    if f.embedded_components.as_ref().is_some_and(|v| !v.is_null()) {
        return Err(BuildError::Layout(
            "embedded_components (rooms merged in the Toolset, stored inside the .indoor) are not supported: export them as a kit".into(),
        ));
    }
    let module = f
        .warp
        .or(f.module_id)
        .unwrap_or_else(|| "test01".to_string());
    // `name`: {"stringref": n, "<substring id>": text, ...}; English male is "0".
    let name = match &f.name {
        Some(serde_json::Value::Object(m)) => m
            .get("0")
            .or_else(|| {
                m.iter()
                    .find(|(k, _)| k.parse::<u32>().is_ok())
                    .map(|(_, v)| v)
            })
            .and_then(|v| v.as_str())
            .unwrap_or(&module)
            .to_string(),
        Some(serde_json::Value::String(s)) => s.clone(),
        _ => module.clone(),
    };
    let mut rooms = Vec::with_capacity(f.rooms.len());
    for (i, r) in f.rooms.into_iter().enumerate() {
        if r.walkmesh_override.is_some() {
            return Err(BuildError::Layout(format!(
                "room {i} ({}/{}): walkmesh_override is not supported",
                r.kit, r.component
            )));
        }
        rooms.push(LayoutRoom {
            source: RoomSource::Kit {
                kit: r.kit,
                component: r.component,
            },
            position: Position::At(Placement {
                position: r.position,
                rotation: r.rotation,
                flip_x: r.flip_x,
                flip_y: r.flip_y,
            }),
        });
    }
    Ok(Layout {
        module,
        name,
        game: f
            .target_game_type
            .map(|k2| if k2 { TargetGame::K2 } else { TargetGame::K1 }),
        lighting: f.lighting.unwrap_or([0.5; 3]),
        skybox: f.skybox.filter(|s| !s.is_empty()),
        kits: None,
        rooms,
        connections: Vec::new(),
        entry: None,
        hook_tolerance: DEFAULT_HOOK_TOLERANCE,
        kind: LayoutKind::Indoor,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AreakitFile {
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    version: Option<u32>,
    module: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    game: Option<TargetGameJson>,
    #[serde(default)]
    kits: Option<String>,
    #[serde(default)]
    lighting: Option<[f32; 3]>,
    #[serde(default)]
    skybox: Option<String>,
    #[serde(default)]
    entry: Option<[f32; 3]>,
    #[serde(default)]
    hook_tolerance: Option<f32>,
    rooms: Vec<AreakitRoom>,
    #[serde(default)]
    connections: Vec<Connection>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum TargetGameJson {
    K1,
    K2,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AreakitRoom {
    #[serde(default)]
    kit: Option<String>,
    #[serde(default)]
    component: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    walkmesh: Option<String>,
    #[serde(default)]
    minimap: Option<String>,
    #[serde(default)]
    hooks: Option<Vec<HookSpec>>,
    #[serde(default)]
    door: Option<DoorSpec>,
    #[serde(default)]
    position: Option<[f32; 3]>,
    #[serde(default)]
    rotation: Option<f32>,
    #[serde(default)]
    flip_x: bool,
    #[serde(default)]
    flip_y: bool,
    #[serde(default)]
    attach: Option<AttachJson>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AttachJson {
    room: usize,
    #[serde(default)]
    to_hook: usize,
    #[serde(default)]
    hook: usize,
}

/// The layout format's version this build reads.
pub const AREAKIT_LAYOUT_VERSION: u32 = 1;

fn parse_areakit(text: &str) -> Result<Layout, BuildError> {
    let f: AreakitFile = serde_json::from_str(text).map_err(json_error)?;
    if let Some(fmt) = &f.format
        && fmt != "areakit-layout"
    {
        return Err(BuildError::Layout(format!(
            "format {fmt:?}: expected \"areakit-layout\""
        )));
    }
    if let Some(v) = f.version
        && v != AREAKIT_LAYOUT_VERSION
    {
        return Err(BuildError::Layout(format!(
            "version {v}: this areakit reads layout version {AREAKIT_LAYOUT_VERSION}"
        )));
    }
    let mut rooms = Vec::with_capacity(f.rooms.len());
    for (i, r) in f.rooms.into_iter().enumerate() {
        let what = |msg: &str| BuildError::Layout(format!("room {i}: {msg}"));
        let source = match (&r.kit, &r.component, &r.walkmesh) {
            (Some(kit), Some(component), None) => {
                if r.model.is_some() || r.hooks.is_some() || r.minimap.is_some() || r.door.is_some()
                {
                    return Err(what(
                        "a kit component takes its model, hooks, minimap and door from the kit",
                    ));
                }
                RoomSource::Kit {
                    kit: kit.clone(),
                    component: component.clone(),
                }
            }
            (None, None, Some(wok)) => RoomSource::Files {
                model: r.model.clone(),
                walkmesh: wok.clone(),
                minimap: r.minimap.clone(),
                hooks: r.hooks.clone().unwrap_or_default(),
                door: r.door.clone(),
            },
            _ => {
                return Err(what(
                    "expected \"kit\" and \"component\", or \"walkmesh\" (with \"model\", \"hooks\")",
                ));
            }
        };
        let position = match (&r.attach, r.position) {
            (Some(a), None) if r.rotation.is_none() => {
                if a.room >= i {
                    return Err(what(&format!(
                        "attach.room {} must be an earlier room",
                        a.room
                    )));
                }
                Position::Attach {
                    room: a.room,
                    to_hook: a.to_hook,
                    hook: a.hook,
                    flip_x: r.flip_x,
                    flip_y: r.flip_y,
                }
            }
            (Some(_), _) => {
                return Err(what(
                    "\"attach\" places the room: leave out \"position\" and \"rotation\"",
                ));
            }
            (None, p) => Position::At(Placement {
                position: p.unwrap_or([0.0; 3]),
                rotation: r.rotation.unwrap_or(0.0),
                flip_x: r.flip_x,
                flip_y: r.flip_y,
            }),
        };
        rooms.push(LayoutRoom { source, position });
    }
    let tol = f.hook_tolerance.unwrap_or(DEFAULT_HOOK_TOLERANCE);
    if !(tol.is_finite() && tol > 0.0) {
        return Err(BuildError::Layout(format!(
            "hook_tolerance {tol}: expected a positive distance"
        )));
    }
    Ok(Layout {
        name: f.name.unwrap_or_else(|| f.module.clone()),
        module: f.module,
        game: f.game.map(|g| match g {
            TargetGameJson::K1 => TargetGame::K1,
            TargetGameJson::K2 => TargetGame::K2,
        }),
        lighting: f.lighting.unwrap_or([0.5; 3]),
        skybox: f.skybox.filter(|s| !s.is_empty()),
        kits: f.kits,
        rooms,
        connections: f.connections,
        entry: f.entry,
        hook_tolerance: tol,
        kind: LayoutKind::Areakit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_flips_then_rotates_then_moves() {
        let p = Placement {
            position: [10.0, 0.0, 1.0],
            rotation: 90.0,
            flip_x: true,
            flip_y: false,
        };
        // (1, 2) → flip x → (−1, 2) → rotate 90° → (−2, −1) → move → (8, −1).
        let q = p.point([1.0, 2.0, 0.5]);
        assert!((q[0] - 8.0).abs() < 1e-5 && (q[1] + 1.0).abs() < 1e-5 && q[2] == 1.5);
        // A hook facing +x (270) mirrored in x faces −x (90), then turned 90° faces −y (180).
        assert_eq!(p.direction(270.0), 180.0);
    }

    #[test]
    fn reads_holocron_indoor() {
        let text = r#"{"module_id":"x","name":{"stringref":-1,"0":"Test Area"},"lighting":[0.1,0.2,0.3],
            "skybox":"","warp":"tst01","rooms":[{"position":[1,2,3],"rotation":90.0,"flip_x":true,"flip_y":false,"kit":"hiddenbek","component":"room_1"}]}"#;
        let l = parse(text).unwrap();
        assert_eq!(l.kind, LayoutKind::Indoor);
        assert_eq!(l.module, "tst01");
        assert_eq!(l.name, "Test Area");
        assert_eq!(l.lighting, [0.1, 0.2, 0.3]);
        assert_eq!(l.rooms.len(), 1);
        assert_eq!(
            l.rooms[0].source,
            RoomSource::Kit {
                kit: "hiddenbek".into(),
                component: "room_1".into()
            }
        );
        match l.rooms[0].position {
            Position::At(p) => {
                assert!(p.flip_x && p.rotation == 90.0 && p.position == [1.0, 2.0, 3.0])
            }
            _ => panic!("placed"),
        }
    }

    #[test]
    fn reads_areakit_layout_with_attachments_and_reports_line_column() {
        let text = r#"{"format":"areakit-layout","version":1,"module":"bek01","game":"k2",
            "rooms":[{"kit":"hiddenbek","component":"room_1"},
                     {"kit":"hiddenbek","component":"hallway_1","attach":{"room":0,"to_hook":1,"hook":0}},
                     {"walkmesh":"a.wok","model":"a.mdl","hooks":[{"position":[0,1,0],"rotation":180}],"position":[5,5,0]}]}"#;
        let l = parse(text).unwrap();
        assert_eq!(l.kind, LayoutKind::Areakit);
        assert_eq!(l.game, Some(TargetGame::K2));
        assert!(matches!(
            l.rooms[1].position,
            Position::Attach {
                room: 0,
                to_hook: 1,
                hook: 0,
                ..
            }
        ));
        assert!(matches!(&l.rooms[2].source, RoomSource::Files { hooks, .. } if hooks.len() == 1));

        let bad =
            "{\"module\":\"x\",\n \"rooms\":[{\"kit\":\"a\",\"component\":\"b\",\"rotaton\":3}]}";
        let e = parse(bad).unwrap_err().to_string();
        assert!(e.contains("2:") && e.contains("rotaton"), "{e}");
        let forward = r#"{"module":"x","rooms":[{"kit":"a","component":"b","attach":{"room":0}}]}"#;
        assert!(
            parse(forward)
                .unwrap_err()
                .to_string()
                .contains("earlier room")
        );
    }
}
