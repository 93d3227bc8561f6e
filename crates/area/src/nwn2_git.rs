//! What an NWN2 area's GIT says about its walkmesh: the walkmesh cutters (triggers of type 3)
//! and the placed objects whose models may carry walkmeshes (placeables, doors, environment
//! objects, trees).
//!
//! From the 8 real GITs of the corpus (`docs/formats/nwn2-trx.md`, "Baking from a GIT"): a
//! cutter's corners are `f32(XPosition) + f32(PointX)`, `f32(YPosition) + f32(PointY)` (every
//! first point is `(0, 0)`); all 478 cutters have zero orientation and none has a scale field,
//! so an orientation is reported, never guessed at; a cutter of fewer than 3 points cuts
//! nothing.

use areakit_formats::gff::{Gff, Struct};

/// The trigger type of a walkmesh cutter.
pub const CUTTER_TYPE: i64 = 3;

/// A walkmesh cutter: a polygon in plan whose inside the bake removes from the walkmesh.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cutter {
    /// Index in the GIT's `TriggerList`.
    pub index: usize,
    /// `Tag`.
    pub tag: String,
    /// `XPosition`, `YPosition`, `ZPosition`.
    pub position: [f32; 3],
    /// `XOrientation`, `YOrientation`, `ZOrientation` (0 in every real file; not applied).
    pub orientation: [f32; 3],
    /// The corners in area space: position + point, in `f32` as the toolset adds them.
    pub corners: Vec<[f32; 2]>,
}

impl Cutter {
    /// Whether the cutter has a polygon at all (3 or more corners).
    pub fn cuts(&self) -> bool {
        self.corners.len() >= 3
    }
}

/// The kind of a placed object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectKind {
    /// `Placeable List`.
    Placeable,
    /// `Door List`.
    Door,
    /// `EnvironmentList`.
    Environment,
    /// `TreeList`.
    Tree,
}

impl ObjectKind {
    /// The GIT list holding this kind.
    pub const fn list(self) -> &'static str {
        match self {
            ObjectKind::Placeable => "Placeable List",
            ObjectKind::Door => "Door List",
            ObjectKind::Environment => "EnvironmentList",
            ObjectKind::Tree => "TreeList",
        }
    }

    /// Every kind, in the order the bake applies them.
    pub const ALL: [ObjectKind; 4] = [
        ObjectKind::Placeable,
        ObjectKind::Door,
        ObjectKind::Environment,
        ObjectKind::Tree,
    ];
}

/// A placed object.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PlacedObject {
    /// Its list.
    pub kind: ObjectKind,
    /// Index in that list.
    pub index: usize,
    /// `Tag`.
    pub tag: String,
    /// `TemplateResRef`.
    pub template: String,
    /// `Appearance` (a row of the kind's appearance table).
    pub appearance: Option<u32>,
    /// Position (`X`/`Y`/`Z`, or `Position`).
    pub position: [f32; 3],
    /// Rotation about the vertical axis, radians (`Bearing`, or the yaw of `Orientation`).
    pub bearing: f32,
    /// `ModelScale`, times the tree's `Scale`.
    pub scale: [f32; 3],
}

/// The walkmesh-relevant content of an NWN2 GIT.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Nwn2Git {
    /// The walkmesh cutters, in `TriggerList` order.
    pub cutters: Vec<Cutter>,
    /// The placed objects, by kind then list order.
    pub objects: Vec<PlacedObject>,
}

/// Why a GFF is not an NWN2 GIT.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GitError {
    /// The file type is not `GIT `.
    #[error("the file type is {0:?}, not \"GIT \"")]
    NotGit(String),
    /// A list entry lacks a field the bake needs, or has it with another type.
    #[error("{list}[{index}]: field {field} is missing or not a number")]
    Field {
        /// The list.
        list: &'static str,
        /// The entry.
        index: usize,
        /// The field.
        field: &'static str,
    },
}

impl Nwn2Git {
    /// Reads the cutters and objects of a GIT.
    pub fn from_gff(gff: &Gff) -> Result<Nwn2Git, GitError> {
        if !gff.is_type("git") {
            return Err(GitError::NotGit(
                String::from_utf8_lossy(&gff.file_type).into_owned(),
            ));
        }
        let root = &gff.root;
        let mut git = Nwn2Git::default();
        for (index, t) in list(root, "TriggerList").iter().enumerate() {
            if t.get_int("Type") == Some(CUTTER_TYPE) {
                git.cutters.push(cutter(index, t)?);
            }
        }
        for kind in ObjectKind::ALL {
            for (index, s) in list(root, kind.list()).iter().enumerate() {
                git.objects.push(object(kind, index, s)?);
            }
        }
        Ok(git)
    }
}

fn list<'a>(root: &'a Struct, label: &str) -> &'a [Struct] {
    root.get(label).and_then(|v| v.as_list()).unwrap_or(&[])
}

fn text(s: &Struct, label: &str) -> String {
    s.get_string(label)
        .or_else(|| s.get_resref(label))
        .map(|t| t.to_str().into_owned())
        .unwrap_or_default()
}

fn number(
    s: &Struct,
    list: &'static str,
    index: usize,
    field: &'static str,
) -> Result<f32, GitError> {
    s.get_number(field)
        .map(|v| v as f32)
        .ok_or(GitError::Field { list, index, field })
}

fn cutter(index: usize, t: &Struct) -> Result<Cutter, GitError> {
    const L: &str = "TriggerList";
    let n = |f| number(t, L, index, f);
    let position = [
        n("XPosition")?,
        n("YPosition")?,
        n("ZPosition").unwrap_or(0.0),
    ];
    let orientation = ["XOrientation", "YOrientation", "ZOrientation"]
        .map(|f| t.get_number(f).unwrap_or(0.0) as f32);
    let mut corners = Vec::new();
    for (i, p) in list(t, "Geometry").iter().enumerate() {
        let x = number(p, "TriggerList.Geometry", i, "PointX")?;
        let y = number(p, "TriggerList.Geometry", i, "PointY")?;
        corners.push([position[0] + x, position[1] + y]);
    }
    Ok(Cutter {
        index,
        tag: text(t, "Tag"),
        position,
        orientation,
        corners,
    })
}

fn object(kind: ObjectKind, index: usize, s: &Struct) -> Result<PlacedObject, GitError> {
    let l = kind.list();
    let (position, bearing) = match vec3(s, "Position") {
        Some(p) => (p, quat(s, "Orientation").map_or(0.0, yaw)),
        None => (
            [
                number(s, l, index, "X")?,
                number(s, l, index, "Y")?,
                number(s, l, index, "Z").unwrap_or(0.0),
            ],
            s.get_number("Bearing").unwrap_or(0.0) as f32,
        ),
    };
    let mut scale = vec3(s, "ModelScale").unwrap_or([1.0; 3]);
    if let Some(k) = s.get_number("Scale") {
        scale = scale.map(|c| c * k as f32);
    }
    Ok(PlacedObject {
        kind,
        index,
        tag: text(s, "Tag"),
        template: text(s, "TemplateResRef"),
        appearance: s.get_int("Appearance").and_then(|a| u32::try_from(a).ok()),
        position,
        bearing,
        scale,
    })
}

/// A vector field: the GFF `Vector` type, or (as NWN2 writes `Position` and `ModelScale`) a
/// struct of `x`, `y`, `z` floats.
fn vec3(s: &Struct, label: &str) -> Option<[f32; 3]> {
    s.get_vector(label).or_else(|| {
        let v = s.get(label)?.as_struct()?;
        let c = |f| v.get_number(f).map(|x| x as f32);
        Some([c("x")?, c("y")?, c("z")?])
    })
}

/// A quaternion field `[x, y, z, w]`: the GFF `Orientation` type, or a struct of `x`, `y`,
/// `z`, `w` floats.
fn quat(s: &Struct, label: &str) -> Option<[f32; 4]> {
    s.get_orientation(label).or_else(|| {
        let v = s.get(label)?.as_struct()?;
        let c = |f| v.get_number(f).map(|x| x as f32);
        Some([c("x")?, c("y")?, c("z")?, c("w")?])
    })
}

/// The rotation about +z of a quaternion `[x, y, z, w]`.
fn yaw(q: [f32; 4]) -> f32 {
    let [x, y, z, w] = q;
    (2.0 * (w * z + x * y)).atan2(1.0 - 2.0 * (y * y + z * z))
}
