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

use std::fmt;
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectsError {
    /// 1-based line of the problem (0 when it is about the whole file).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

impl fmt::Display for ObjectsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}: {}", self.line, self.column, self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for ObjectsError {}

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
            parse_object(v, source).map_err(|m| whole(format!("objects[{i}]: {m}")))
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

const KEYS: &[&str] = &[
    "kind",
    "model",
    "position",
    "yaw",
    "bearing",
    "quaternion",
    "direction",
    "state",
    "tag",
];

fn parse_object(v: &Value, source: String) -> Result<PlacedObject, String> {
    let o = v.as_object().ok_or("expected an object")?;
    if let Some(k) = o.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!(
            "unknown key {k:?} (expected one of {})",
            KEYS.join(", ")
        ));
    }
    let kind = match o.get("kind").and_then(Value::as_str) {
        Some("placeable") => ObjectKind::Placeable,
        Some("door") => ObjectKind::Door,
        _ => return Err(r#""kind" must be "placeable" or "door""#.into()),
    };
    let model = o
        .get("model")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or(r#""model" must be a non-empty string"#)?
        .to_string();
    let position = floats::<3>(o.get("position"), "position")?
        .ok_or(r#""position" is required: [x, y, z]"#)?;
    let given: Vec<&str> = ["yaw", "bearing", "quaternion", "direction"]
        .into_iter()
        .filter(|k| o.contains_key(*k))
        .collect();
    if given.len() > 1 {
        return Err(format!(
            "give one orientation, not {} and {}",
            given[0], given[1]
        ));
    }
    let orientation = match given.first().copied() {
        None => Orientation::Yaw(0.0),
        Some("yaw") => Orientation::Yaw(float(o.get("yaw"), "yaw")?.to_radians()),
        Some("bearing") => Orientation::Yaw(float(o.get("bearing"), "bearing")?),
        Some("quaternion") => Orientation::Quaternion(
            floats::<4>(o.get("quaternion"), "quaternion")?.unwrap_or_default(),
        ),
        Some(_) => {
            let [x, y] = floats::<2>(o.get("direction"), "direction")?.unwrap_or_default();
            if x == 0.0 && y == 0.0 {
                return Err(r#""direction" must not be [0, 0]"#.into());
            }
            // NWN's facing vector: yaw measured from +x.
            Orientation::Yaw(y.atan2(x))
        }
    };
    let door_state = match o.get("state") {
        None => DoorState::Closed,
        Some(s) => s
            .as_u64()
            .and_then(DoorState::from_digit)
            .ok_or(r#""state" must be 0 (closed), 1 or 2 (open)"#)?,
    };
    if kind == ObjectKind::Placeable && o.contains_key("state") {
        return Err(r#""state" applies to doors only"#.into());
    }
    let tag = match o.get("tag") {
        None => None,
        Some(t) => Some(t.as_str().ok_or(r#""tag" must be a string"#)?.to_string()),
    };
    Ok(PlacedObject {
        kind,
        model,
        position,
        orientation,
        door_state,
        tag,
        source,
    })
}

fn float(v: Option<&Value>, what: &str) -> Result<f32, String> {
    v.and_then(Value::as_f64)
        .map(|f| f as f32)
        .filter(|f| f.is_finite())
        .ok_or_else(|| format!("{what:?} must be a finite number"))
}

fn floats<const N: usize>(v: Option<&Value>, what: &str) -> Result<Option<[f32; N]>, String> {
    let Some(v) = v else { return Ok(None) };
    let a = v
        .as_array()
        .filter(|a| a.len() == N)
        .ok_or_else(|| format!("{what:?} must be an array of {N} numbers"))?;
    let mut out = [0.0f32; N];
    for (o, x) in out.iter_mut().zip(a) {
        *o = float(Some(x), what)?;
    }
    Ok(Some(out))
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
        assert!(e(r#"{"kind":"chair","model":"x","position":[0,0,0]}"#).contains("\"kind\""));
        assert!(e(r#"{"kind":"door","model":"x","position":[0,0]}"#).contains("3 numbers"));
        assert!(
            e(r#"{"kind":"door","model":"x","position":[0,0,0],"yaw":1,"bearing":2}"#)
                .contains("one orientation")
        );
        assert!(e(r#"{"kind":"door","model":"x","position":[0,0,0],"yw":1}"#).contains("\"yw\""));
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
