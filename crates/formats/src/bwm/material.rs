//! Surface materials: the per-face `u32` of a BWM, an index into the game's `surfacemat.2da`.
//!
//! Walkability is not stored in the walkmesh; it comes from the `Walk` column of
//! `surfacemat.2da`. The table below is the stock KotOR table. The real files confirm the split:
//! every face in the walkable block of the 109 corpus WOK/BWM files from the game's tools has
//! material 3, 4, 5 or 10, and every face after it 2, 7 or 19 (see `docs/formats/bwm.md`).

use std::fmt;

macro_rules! materials {
    ($( $id:literal => $variant:ident, $name:literal, $walk:literal; )*) => {
        /// A surface material id. Unknown ids are kept as [`Material::Other`], never rejected.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Material {
            $(
                #[doc = concat!("`", $id, "` ", $name, ", walkable: ", $walk)]
                $variant,
            )*
            /// An id that `surfacemat.2da` of the stock game does not define.
            Other(u32),
        }

        impl Material {
            /// Every material of the stock table, in id order.
            pub const ALL: &'static [Material] = &[$(Material::$variant),*];

            /// The material of an on-disk id.
            pub const fn from_id(id: u32) -> Self {
                match id {
                    $($id => Material::$variant,)*
                    other => Material::Other(other),
                }
            }

            /// The on-disk id.
            pub const fn id(self) -> u32 {
                match self {
                    $(Material::$variant => $id,)*
                    Material::Other(id) => id,
                }
            }

            /// The lower-case name used in reports and JSON (`other-<id>` for unknown ids).
            pub fn name(self) -> std::borrow::Cow<'static, str> {
                match self {
                    $(Material::$variant => std::borrow::Cow::Borrowed($name),)*
                    Material::Other(id) => std::borrow::Cow::Owned(format!("other-{id}")),
                }
            }

            /// The material named `name` (as [`Material::name`] prints it, case-insensitive),
            /// or a plain number.
            pub fn from_name(name: &str) -> Option<Self> {
                let lower = name.to_ascii_lowercase();
                $(if lower == $name { return Some(Material::$variant); })*
                if let Some(n) = lower.strip_prefix("other-") {
                    return n.parse().ok().map(Material::from_id);
                }
                lower.parse().ok().map(Material::from_id)
            }

            /// Whether the stock `surfacemat.2da` marks the material walkable.
            /// Unknown ids are not walkable.
            pub const fn is_walkable(self) -> bool {
                match self {
                    $(Material::$variant => $walk,)*
                    Material::Other(_) => false,
                }
            }
        }
    };
}

materials! {
    0 => NotDefined, "not-defined", false;
    1 => Dirt, "dirt", true;
    2 => Obscuring, "obscuring", false;
    3 => Grass, "grass", true;
    4 => Stone, "stone", true;
    5 => Wood, "wood", true;
    6 => Water, "water", true;
    7 => NonWalk, "non-walk", false;
    8 => Transparent, "transparent", false;
    9 => Carpet, "carpet", true;
    10 => Metal, "metal", true;
    11 => Puddles, "puddles", true;
    12 => Swamp, "swamp", true;
    13 => Mud, "mud", true;
    14 => Leaves, "leaves", true;
    15 => Lava, "lava", false;
    16 => BottomlessPit, "bottomless-pit", true;
    17 => DeepWater, "deep-water", false;
    18 => Door, "door", true;
    19 => NonWalkGrass, "non-walk-grass", false;
    20 => Sand, "sand", true;
    21 => BareBones, "bare-bones", true;
    22 => StoneBridge, "stone-bridge", true;
    30 => Trigger, "trigger", true;
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl From<u32> for Material {
    fn from(id: u32) -> Self {
        Material::from_id(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_including_unknown() {
        for id in 0..64 {
            assert_eq!(Material::from_id(id).id(), id);
        }
        assert_eq!(Material::from_id(999), Material::Other(999));
        assert!(!Material::Other(999).is_walkable());
    }

    #[test]
    fn names_round_trip() {
        for &m in Material::ALL {
            assert_eq!(Material::from_name(&m.name()), Some(m));
        }
        assert_eq!(Material::from_name("METAL"), Some(Material::Metal));
        assert_eq!(Material::from_name("other-77"), Some(Material::Other(77)));
        assert_eq!(Material::from_name("7"), Some(Material::NonWalk));
        assert_eq!(Material::from_name("nonsense"), None);
    }

    #[test]
    fn walkability_matches_the_corpus_split() {
        for id in [3, 4, 5, 10] {
            assert!(Material::from_id(id).is_walkable(), "{id}");
        }
        for id in [2, 7, 19] {
            assert!(!Material::from_id(id).is_walkable(), "{id}");
        }
    }
}
