//! Objects standing in an area: placeables and doors, each with its walkmesh (PWK or DWK, in
//! the object's local space) placed at a position and an orientation.
//!
//! How a placed walkmesh counts, from the real files and the engine's behaviour
//! (`docs/navigation.md` has the evidence):
//!
//! - **Every face blocks**, whatever its material. The three KotOR PWKs of the corpus hold only
//!   non-walkable faces (85 faces), but three of the five NWN PWKs give their footprint a
//!   walkable material (`dirt`: a table, a raft, a door frame), and the xoreos engine tests a
//!   point against every face of an object walkmesh without looking at materials. A placed
//!   walkmesh is a footprint, never ground to stand on.
//! - Vertices are in the object's local space: area position = translate(position) ·
//!   rotate(orientation) · vertex. The file's own `position` field (0x3C) is **not** added:
//!   it is where the model stood when it was compiled (xoreos ignores it too).
//! - A door's walkmesh depends on its state: `<model>0.dwk` closed, `<model>1.dwk` and
//!   `<model>2.dwk` open (one per swing direction). A closed door blocks its doorway; an open
//!   one blocks where its leaf stands.
//! - The use hooks (`relative_use`) are points in the same local space: where a creature
//!   stands to use the object.
//!
//! The `--objects FILE` JSON schema is [`parse_objects_json`]'s.

use std::path::{Path, PathBuf};

use areakit_formats::bwm::Bwm;
use glam::{Quat, Vec3};
use serde_json::Value;

/// A placeable or a door.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    /// A placeable (PWK walkmesh).
    Placeable,
    /// A door (DWK walkmesh, one per state).
    Door,
}

impl ObjectKind {
    /// `"placeable"` or `"door"`.
    pub const fn name(self) -> &'static str {
        match self {
            ObjectKind::Placeable => "placeable",
            ObjectKind::Door => "door",
        }
    }

    /// The walkmesh extension: `pwk` or `dwk`.
    pub const fn walkmesh_extension(self) -> &'static str {
        match self {
            ObjectKind::Placeable => "pwk",
            ObjectKind::Door => "dwk",
        }
    }
}

/// A door's state, as the DWK files number them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DoorState {
    /// `0`: closed (blocks the doorway).
    #[default]
    Closed,
    /// `1`: open one way.
    Open1,
    /// `2`: open the other way.
    Open2,
}

impl DoorState {
    /// The digit the DWK resref ends with.
    pub const fn digit(self) -> u8 {
        match self {
            DoorState::Closed => 0,
            DoorState::Open1 => 1,
            DoorState::Open2 => 2,
        }
    }

    /// The state of a digit 0, 1 or 2.
    pub const fn from_digit(d: u64) -> Option<Self> {
        match d {
            0 => Some(DoorState::Closed),
            1 => Some(DoorState::Open1),
            2 => Some(DoorState::Open2),
            _ => None,
        }
    }
}

/// How an object is turned about its position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Orientation {
    /// A rotation about the vertical axis, in radians, counter-clockwise seen from above
    /// (KotOR GIT `Bearing`).
    Yaw(f32),
    /// A full rotation as a unit quaternion `[x, y, z, w]` (normalised when used).
    Quaternion([f32; 4]),
}

impl Default for Orientation {
    fn default() -> Self {
        Orientation::Yaw(0.0)
    }
}

impl Orientation {
    /// The rotation. A quaternion of zero length is the identity.
    pub fn rotation(self) -> Quat {
        match self {
            Orientation::Yaw(a) => Quat::from_rotation_z(a),
            Orientation::Quaternion([x, y, z, w]) => {
                let q = Quat::from_xyzw(x, y, z, w);
                if q.length_squared() > 0.0 && q.is_finite() {
                    q.normalize()
                } else {
                    Quat::IDENTITY
                }
            }
        }
    }
}

/// An object placed in an area.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedObject {
    /// Placeable or door.
    pub kind: ObjectKind,
    /// Its walkmesh: a file path (relative to the file that placed it) or a model resref.
    /// A resref gets the kind's extension, and a door's resref its state digit first
    /// ([`PlacedObject::walkmesh_name`]).
    pub model: String,
    /// Position in area space.
    pub position: [f32; 3],
    /// Orientation about the position.
    pub orientation: Orientation,
    /// A door's state (ignored for placeables).
    pub door_state: DoorState,
    /// The object's tag, when known.
    pub tag: Option<String>,
    /// Where the object was declared (`objects.json: objects[3]`, `m01aa.git: Door List[2]`).
    pub source: String,
}

impl PlacedObject {
    /// The walkmesh file name: `model` itself when it has an extension, else
    /// `<model>.pwk` for a placeable and `<model><state>.dwk` for a door.
    pub fn walkmesh_name(&self) -> String {
        if Path::new(&self.model).extension().is_some() {
            return self.model.clone();
        }
        match self.kind {
            ObjectKind::Placeable => format!("{}.pwk", self.model),
            ObjectKind::Door => format!("{}{}.dwk", self.model, self.door_state.digit()),
        }
    }

    /// Local → area space.
    pub fn to_area(&self, p: [f32; 3]) -> [f32; 3] {
        let q = self.orientation.rotation();
        (q * Vec3::from(p) + Vec3::from(self.position)).to_array()
    }
}

/// An object's walkmesh in area space.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedWalkmesh {
    /// Every face of the walkmesh in area space (all of them block: see the module docs).
    /// Faces naming missing vertices are left out.
    pub triangles: Vec<[[f32; 3]; 3]>,
    /// The two use hooks in area space.
    pub use_points: [[f32; 3]; 2],
    /// Which use hooks are set: a hook at the local origin `(0, 0, 0)` is not (the compiler
    /// writes both so when the model has none: two of the three corpus KotOR PWKs, whose
    /// footprints cover the origin).
    pub use_set: [bool; 2],
}

/// Places `walkmesh` (in `object`'s local space) in area space.
pub fn place(object: &PlacedObject, walkmesh: &Bwm) -> PlacedWalkmesh {
    let triangles = (0..walkmesh.faces.len())
        .filter_map(|f| walkmesh.face_positions(f))
        .map(|t| t.map(|p| object.to_area(p)))
        .collect();
    PlacedWalkmesh {
        triangles,
        use_points: walkmesh.relative_use.map(|p| object.to_area(p)),
        use_set: walkmesh.relative_use.map(|p| p != [0.0; 3]),
    }
}

/// Why an objects file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", if *line > 0 { format!("{line}:{column}: ") } else { String::new() })]
pub struct ObjectsError {
    /// 1-based line of the problem (0 when it is about the whole file).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

/// Reads an `--objects` file:
///
/// ```json
/// { "objects": [
///   { "kind": "placeable", "model": "plc_chair01", "position": [12.5, 3.0, 0.0], "yaw": 90 },
///   { "kind": "door", "model": "door_lhd", "state": 0, "position": [20, 4, 0],
///     "bearing": 1.5708, "tag": "door_to_hall" },
///   { "kind": "placeable", "model": "walkmeshes/crate.pwk", "position": [1, 2, 0],
///     "quaternion": [0, 0, 0.7071068, 0.7071068] }
/// ] }
/// ```
///
/// - `kind`: `"placeable"` or `"door"` (required);
/// - `model`: a walkmesh file (relative to the objects file) or a model resref (required);
/// - `position`: `[x, y, z]` in area space (required);
/// - orientation, at most one of: `yaw` (degrees, counter-clockwise seen from above),
///   `bearing` (radians, as KotOR's GIT stores it), `quaternion` (`[x, y, z, w]`),
///   `direction` (`[x, y]`: the facing vector, as NWN's GIT stores it); none means yaw 0;
/// - `state`: a door's state, 0 (closed, the default), 1 or 2 (open);
/// - `tag`: a name for messages (optional).
///
/// A bare array of objects is accepted too. Unknown keys are an error (a misspelt `yaw` must
/// not silently leave an object unturned).
pub fn parse_objects_json(text: &str) -> Result<Vec<PlacedObject>, ObjectsError> {
    let value: Value = serde_json::from_str(text).map_err(|e| ObjectsError {
        line: e.line(),
        column: e.column(),
        message: format!("not valid JSON: {e}"),
    })?;
    let items = match &value {
        Value::Array(a) => a,
        Value::Object(o) => match o.get("objects") {
            Some(Value::Array(a)) if o.len() == 1 => a,
            _ => {
                return Err(whole(
                    r#"expected {"objects": [...]} or an array of objects"#,
                ));
            }
        },
        _ => {
            return Err(whole(
                r#"expected {"objects": [...]} or an array of objects"#,
            ));
        }
    };
    items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let source = format!("objects[{i}]");
            let json: ObjectJson = serde_path_to_error::deserialize(v).map_err(|e| {
                let at = e.path().to_string();
                let at = if at == "." {
                    String::new()
                } else {
                    format!(".{at}")
                };
                whole(format!("objects[{i}]{at}: {}", e.inner()))
            })?;
            json.placed(source)
                .map_err(|e| whole(format!("objects[{i}]: {e}")))
        })
        .collect()
}

fn whole(message: impl Into<String>) -> ObjectsError {
    ObjectsError {
        line: 0,
        column: 0,
        message: message.into(),
    }
}

/// One object of an `--objects` file as written (see [`parse_objects_json`]).
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ObjectJson {
    kind: KindJson,
    model: String,
    position: [f32; 3],
    yaw: Option<f32>,
    bearing: Option<f32>,
    quaternion: Option<[f32; 4]>,
    direction: Option<[f32; 2]>,
    state: Option<u64>,
    tag: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
enum KindJson {
    Placeable,
    Door,
}

/// An object that reads but makes no sense.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ObjectError {
    /// An empty model name.
    #[error(r#""model" must be a non-empty string"#)]
    NoModel,
    /// A number that is not finite.
    #[error("{0:?} must be finite numbers")]
    NotFinite(&'static str),
    /// Two orientations.
    #[error("give one orientation, not {0} and {1}")]
    TwoOrientations(&'static str, &'static str),
    /// A facing vector of length 0.
    #[error(r#""direction" must not be [0, 0]"#)]
    ZeroDirection,
    /// A door state other than 0, 1, 2.
    #[error(r#""state" must be 0 (closed), 1 or 2 (open), not {0}"#)]
    State(u64),
    /// A placeable with a door state.
    #[error(r#""state" applies to doors only"#)]
    StateOfPlaceable,
}

impl ObjectJson {
    fn placed(self, source: String) -> Result<PlacedObject, ObjectError> {
        if self.model.is_empty() {
            return Err(ObjectError::NoModel);
        }
        let finite = |what, v: &[f32]| {
            if v.iter().all(|x| x.is_finite()) {
                Ok(())
            } else {
                Err(ObjectError::NotFinite(what))
            }
        };
        finite("position", &self.position)?;
        let given: Vec<&'static str> = [
            ("yaw", self.yaw.is_some()),
            ("bearing", self.bearing.is_some()),
            ("quaternion", self.quaternion.is_some()),
            ("direction", self.direction.is_some()),
        ]
        .into_iter()
        .filter_map(|(k, on)| on.then_some(k))
        .collect();
        if let [a, b, ..] = given[..] {
            return Err(ObjectError::TwoOrientations(a, b));
        }
        let orientation = if let Some(y) = self.yaw {
            finite("yaw", &[y])?;
            Orientation::Yaw(y.to_radians())
        } else if let Some(b) = self.bearing {
            finite("bearing", &[b])?;
            Orientation::Yaw(b)
        } else if let Some(q) = self.quaternion {
            finite("quaternion", &q)?;
            Orientation::Quaternion(q)
        } else if let Some([x, y]) = self.direction {
            finite("direction", &[x, y])?;
            if x == 0.0 && y == 0.0 {
                return Err(ObjectError::ZeroDirection);
            }
            // NWN's facing vector: yaw measured from +x.
            Orientation::Yaw(y.atan2(x))
        } else {
            Orientation::Yaw(0.0)
        };
        let kind = match self.kind {
            KindJson::Placeable => ObjectKind::Placeable,
            KindJson::Door => ObjectKind::Door,
        };
        let door_state = match self.state {
            None => DoorState::Closed,
            Some(_) if kind == ObjectKind::Placeable => return Err(ObjectError::StateOfPlaceable),
            Some(d) => DoorState::from_digit(d).ok_or(ObjectError::State(d))?,
        };
        Ok(PlacedObject {
            kind,
            model: self.model,
            position: self.position,
            orientation,
            door_state,
            tag: self.tag,
            source,
        })
    }
}

/// Finds an object's walkmesh file next to `dir` (the folder of the file that placed it),
/// ignoring letter case in the file name: `dir/<walkmesh_name>`.
pub fn find_walkmesh_file(dir: &Path, object: &PlacedObject) -> Option<PathBuf> {
    let name = object.walkmesh_name();
    let direct = dir.join(&name);
    if direct.is_file() {
        return Some(direct);
    }
    let path = Path::new(&name);
    let folder = dir.join(path.parent().unwrap_or(Path::new("")));
    let want = path.file_name()?.to_str()?.to_ascii_lowercase();
    std::fs::read_dir(folder)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.is_file()
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.to_ascii_lowercase() == want)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use areakit_formats::bwm::{Face, Material, WalkmeshType};

    fn object(json: &str) -> Result<PlacedObject, ObjectsError> {
        parse_objects_json(&format!(r#"{{"objects": [{json}]}}"#)).map(|mut v| v.remove(0))
    }

    #[test]
    fn every_orientation_form_reads() {
        let o =
            object(r#"{"kind":"placeable","model":"chair","position":[1,2,3],"yaw":90}"#).unwrap();
        assert_eq!(o.orientation, Orientation::Yaw(90f32.to_radians()));
        assert_eq!(o.walkmesh_name(), "chair.pwk");
        assert_eq!(o.source, "objects[0]");
        let o =
            object(r#"{"kind":"door","model":"dr","position":[0,0,0],"bearing":1.5,"state":2}"#)
                .unwrap();
        assert_eq!(o.orientation, Orientation::Yaw(1.5));
        assert_eq!(o.walkmesh_name(), "dr2.dwk");
        let o =
            object(r#"{"kind":"door","model":"dr","position":[0,0,0],"direction":[0,1]}"#).unwrap();
        assert_eq!(o.orientation, Orientation::Yaw(std::f32::consts::FRAC_PI_2));
        assert_eq!(o.walkmesh_name(), "dr0.dwk");
        let o = object(
            r#"{"kind":"placeable","model":"a/b.PWK","position":[0,0,0],"quaternion":[0,0,1,0]}"#,
        )
        .unwrap();
        assert_eq!(o.walkmesh_name(), "a/b.PWK");
        let p = o.to_area([1.0, 0.0, 0.0]);
        assert!((p[0] + 1.0).abs() < 1e-6 && p[1].abs() < 1e-6, "{p:?}");
    }

    #[test]
    fn mistakes_are_named() {
        let e = |j: &str| object(j).unwrap_err().to_string();
        assert_eq!(
            e(r#"{"kind":"chair","model":"x","position":[0,0,0]}"#),
            "objects[0].kind: unknown variant `chair`, expected `placeable` or `door`"
        );
        assert_eq!(
            e(r#"{"kind":"door","model":"x","position":[0,0]}"#),
            "objects[0].position: invalid length 2, expected an array of length 3"
        );
        assert!(e(r#"{"kind":"door","model":"x"}"#).contains("missing field `position`"));
        assert!(
            e(r#"{"kind":"door","model":"x","position":[0,0,0],"yaw":1,"bearing":2}"#)
                .contains("one orientation")
        );
        assert!(e(r#"{"kind":"door","model":"x","position":[0,0,0],"yw":1}"#).contains("`yw`"));
        assert!(e(r#"{"kind":"door","model":"x","position":[0,0,0],"state":3}"#).contains("state"));
        assert!(
            e(r#"{"kind":"placeable","model":"x","position":[0,0,0],"state":1}"#)
                .contains("doors only")
        );
        assert!(e(r#"{"kind":"door","model":"","position":[0,0,0]}"#).contains("model"));
        let bad = parse_objects_json("{\n  \"objects\": [1,]\n}").unwrap_err();
        assert_eq!((bad.line, bad.column > 0), (2, true), "{bad}");
        assert!(parse_objects_json(r#"{"things": []}"#).is_err());
        assert_eq!(parse_objects_json("[]").unwrap(), vec![]);
    }

    #[test]
    fn placing_turns_then_moves_and_keeps_every_face() {
        let mut w = Bwm {
            walkmesh_type: WalkmeshType::PlaceableOrDoor,
            vertices: vec![[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.5]],
            faces: vec![
                Face {
                    vertices: [0, 1, 2],
                    material: Material::NonWalk,
                },
                Face {
                    vertices: [0, 2, 1],
                    material: Material::Dirt,
                },
                Face {
                    vertices: [0, 1, 9],
                    material: Material::NonWalk,
                },
            ],
            ..Bwm::default()
        };
        w.relative_use = [[2.0, 0.0, 0.0], [0.0, 0.0, 0.0]];
        w.position = [100.0, 100.0, 100.0];
        let o = PlacedObject {
            kind: ObjectKind::Placeable,
            model: "x".into(),
            position: [10.0, 20.0, 1.0],
            orientation: Orientation::Yaw(std::f32::consts::FRAC_PI_2),
            door_state: DoorState::Closed,
            tag: None,
            source: String::new(),
        };
        let p = place(&o, &w);
        // Both faces (the walkable one too); the one naming a missing vertex is left out.
        assert_eq!(p.triangles.len(), 2);
        let close = |a: [f32; 3], b: [f32; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5);
        // (1, 0, 0) turned a quarter left is (0, 1, 0); then moved; the file position is not added.
        assert!(
            close(p.triangles[0][0], [10.0, 21.0, 1.0]),
            "{:?}",
            p.triangles[0]
        );
        assert!(close(p.triangles[0][2], [10.0, 20.0, 1.5]));
        assert!(close(p.use_points[0], [10.0, 22.0, 1.0]));
    }
}
