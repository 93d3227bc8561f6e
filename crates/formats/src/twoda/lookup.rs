//! Typed lookups into the tables area tooling needs: `placeables.2da`, `genericdoors.2da`,
//! `surfacemat.2da`. Each is tolerant of missing columns and rows (`None`, or "not walkable").
//! The columns are documented in `docs/formats/2da.md`.

use super::model::TwoDa;

/// The model of a placeable: row `appearance` (the UTP/GIT `Appearance` field) of
/// `placeables.2da`, column `modelname`. The placeable's walkmesh is `<modelname>.pwk`.
///
/// `None` when the row or the column does not exist or the cell is empty.
pub fn placeable_model(placeables: &TwoDa, appearance: usize) -> Option<&str> {
    placeables.get(appearance, "modelname")
}

/// The model of a door: row `generic_type` (the UTD `GenericType` field) of
/// `genericdoors.2da`, column `modelname`. The door's walkmeshes are `<modelname>0.dwk`
/// (closed), `1.dwk` and `2.dwk` (open).
///
/// `None` when the row or the column does not exist or the cell is empty.
pub fn door_model(genericdoors: &TwoDa, generic_type: usize) -> Option<&str> {
    genericdoors.get(generic_type, "modelname")
}

/// One row of `surfacemat.2da`: a walkmesh face material (the row index is the material id
/// stored per face in BWM files).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SurfaceMaterial {
    /// `label`: the material's name (`Dirt`, `Nonwalk`, ...).
    pub label: Option<String>,
    /// `walk`: creatures can stand and walk on it. Empty, missing or non-numeric: `false`.
    pub walk: bool,
    /// `walkcheck`: the face takes part in walkmesh tests (0 only for `NotDefined`,
    /// `Obscuring` and the placeholder rows in KotOR).
    pub walkcheck: Option<bool>,
    /// `lineofsight`: the face blocks line of sight.
    pub line_of_sight: Option<bool>,
    /// `grass`: grass is drawn on it (KotOR; NWN has no such column).
    pub grass: Option<bool>,
    /// `sound`: the two-letter footstep sound family (`DT`, `GR`, `ST`, ...).
    pub sound: Option<String>,
    /// `name`: KotOR's `footstepsounds.2da` column group; NWN's name column.
    pub name: Option<String>,
}

/// A row of the stock KotOR `surfacemat.2da` (see [`KOTOR_SURFACEMAT`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StockSurface {
    /// `label`.
    pub label: &'static str,
    /// `walk`.
    pub walk: bool,
    /// `walkcheck`.
    pub walkcheck: bool,
    /// `lineofsight`.
    pub line_of_sight: bool,
    /// `grass`.
    pub grass: bool,
    /// `sound` (empty: no value).
    pub sound: &'static str,
}

const fn s(
    label: &'static str,
    walk: u8,
    walkcheck: u8,
    line_of_sight: u8,
    grass: u8,
    sound: &'static str,
) -> StockSurface {
    StockSurface {
        label,
        walk: walk != 0,
        walkcheck: walkcheck != 0,
        line_of_sight: line_of_sight != 0,
        grass: grass != 0,
        sound,
    }
}

/// The stock KotOR `surfacemat.2da` (K1 `2da.bif`), rows 0 to 30, columns `label walk
/// walkcheck lineofsight grass sound` (its `name` column is left out: see
/// `docs/formats/2da.md`). Walkable: ids 1, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 18, 30.
pub const KOTOR_SURFACEMAT: [StockSurface; 31] = [
    s("NotDefined", 0, 0, 0, 0, ""),
    s("Dirt", 1, 1, 1, 0, "DT"),
    s("Obscuring", 0, 0, 1, 0, ""),
    s("Grass", 1, 1, 1, 1, "GR"),
    s("Stone", 1, 1, 1, 0, "ST"),
    s("Wood", 1, 1, 1, 0, "WD"),
    s("Water", 1, 1, 1, 0, "WT"),
    s("Nonwalk", 0, 1, 1, 0, ""),
    s("Transparent", 0, 1, 0, 0, ""),
    s("Carpet", 1, 1, 1, 0, "CP"),
    s("Metal", 1, 1, 1, 0, "MT"),
    s("Puddles", 1, 1, 1, 0, "WT"),
    s("Swamp", 1, 1, 1, 0, "WT"),
    s("Mud", 1, 1, 1, 0, "WT"),
    s("Leaves", 1, 1, 1, 0, "LV"),
    s("Lava", 0, 1, 1, 0, ""),
    s("BottomlessPit", 0, 1, 1, 0, ""),
    s("DeepWater", 0, 1, 1, 0, ""),
    s("Door", 1, 1, 0, 0, ""),
    s("NonWalkGrass", 0, 1, 1, 1, ""),
    s("CRAP", 0, 0, 0, 0, ""),
    s("CRAP", 0, 0, 0, 0, ""),
    s("CRAP", 0, 0, 0, 0, ""),
    s("CRAP", 0, 0, 0, 0, ""),
    s("CRAP", 0, 0, 0, 0, ""),
    s("CRAP", 0, 0, 0, 0, ""),
    s("CRAP", 0, 0, 0, 0, ""),
    s("CRAP", 0, 0, 0, 0, ""),
    s("CRAP", 0, 0, 0, 0, ""),
    s("CRAP", 0, 0, 0, 0, ""),
    s("Trigger", 1, 1, 0, 0, ""),
];

/// The surface materials of a `surfacemat.2da`, indexed by material id (row index).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SurfaceMaterials {
    materials: Vec<SurfaceMaterial>,
    missing: Vec<&'static str>,
}

/// The columns [`SurfaceMaterials::from_table`] reads.
const COLUMNS: [&str; 7] = [
    "label",
    "walk",
    "walkcheck",
    "lineofsight",
    "grass",
    "sound",
    "name",
];

/// A boolean cell as the engine reads it: an integer, non-zero is true; empty is `None`; text
/// that is not an integer is false.
fn flag(t: &TwoDa, row: usize, column: &str) -> Option<bool> {
    t.get(row, column)
        .map(|v| v.trim().parse::<i64>().is_ok_and(|n| n != 0))
}

impl SurfaceMaterials {
    /// Reads the materials of a `surfacemat.2da` (KotOR's or NWN's columns). Missing columns
    /// give `None` fields (and `walk == false`); [`SurfaceMaterials::missing_columns`] lists
    /// them.
    pub fn from_table(t: &TwoDa) -> Self {
        let missing = COLUMNS
            .iter()
            .copied()
            .filter(|c| t.column_index(c).is_none())
            .collect();
        let materials = (0..t.rows.len())
            .map(|i| SurfaceMaterial {
                label: t.get(i, "label").map(str::to_string),
                walk: flag(t, i, "walk").unwrap_or(false),
                walkcheck: flag(t, i, "walkcheck"),
                line_of_sight: flag(t, i, "lineofsight"),
                grass: flag(t, i, "grass"),
                sound: t.get(i, "sound").map(str::to_string),
                name: t.get(i, "name").map(str::to_string),
            })
            .collect();
        SurfaceMaterials { materials, missing }
    }

    /// The stock KotOR table ([`KOTOR_SURFACEMAT`]).
    pub fn kotor() -> Self {
        let materials = KOTOR_SURFACEMAT
            .iter()
            .map(|m| SurfaceMaterial {
                label: Some(m.label.to_string()),
                walk: m.walk,
                walkcheck: Some(m.walkcheck),
                line_of_sight: Some(m.line_of_sight),
                grass: Some(m.grass),
                sound: (!m.sound.is_empty()).then(|| m.sound.to_string()),
                name: None,
            })
            .collect();
        SurfaceMaterials {
            materials,
            missing: vec!["name"],
        }
    }

    /// Number of materials (rows).
    pub fn len(&self) -> usize {
        self.materials.len()
    }

    /// Whether there is no material.
    pub fn is_empty(&self) -> bool {
        self.materials.is_empty()
    }

    /// The material of id `id`.
    pub fn get(&self, id: u32) -> Option<&SurfaceMaterial> {
        self.materials.get(usize::try_from(id).ok()?)
    }

    /// Whether material `id` is walkable (`false` for an id the table does not have).
    pub fn is_walkable(&self, id: u32) -> bool {
        self.get(id).is_some_and(|m| m.walk)
    }

    /// The `label` of material `id`.
    pub fn label(&self, id: u32) -> Option<&str> {
        self.get(id)?.label.as_deref()
    }

    /// The ids of the walkable materials, ascending.
    pub fn walkable_ids(&self) -> impl Iterator<Item = u32> + '_ {
        (0u32..)
            .zip(&self.materials)
            .filter(|(_, m)| m.walk)
            .map(|(i, _)| i)
    }

    /// The known columns the table did not have.
    pub fn missing_columns(&self) -> &[&'static str] {
        &self.missing
    }
}
