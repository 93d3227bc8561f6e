//! NWN's controller type numbers by node kind and name (BioWare's compiler; xoreos's NWN1MDL
//! template, CleanModels and nwnrs agree), with nwnmdlcomp's other numbers for the emitter's
//! mid and percent controllers, the classifications and the emitter flag names.

use crate::mdl::ascii::controllers::{kind_in, name_in};
use crate::mdl::common::flags;

/// Classification byte ↔ name (items and GUI models are 0).
pub(crate) const CLASSES: [(u8, &str); 5] = [
    (0x00, "Unknown"),
    (0x01, "Effect"),
    (0x02, "Tile"),
    (0x04, "Character"),
    (0x08, "Door"),
];

/// The classification byte of an ASCII name (singular or plural, any case; `Item`, `GUI`,
/// `Other` and unknown words are 0; a number is itself).
pub(crate) fn class_of(name: &str) -> u8 {
    let n = name.to_ascii_lowercase();
    let n = n.strip_suffix('s').unwrap_or(&n);
    match n {
        "effect" => 1,
        "tile" => 2,
        "character" => 4,
        "door" => 8,
        other => other.parse().unwrap_or(0),
    }
}

/// Controllers every node has (type number, name).
pub(crate) const COMMON: [(u32, &str); 3] = [(8, "position"), (20, "orientation"), (36, "scale")];

/// Mesh controllers.
pub(crate) const MESH: [(u32, &str); 2] = [(100, "selfillumcolor"), (128, "alpha")];

/// Light controllers.
pub(crate) const LIGHT: [(u32, &str); 5] = [
    (76, "color"),
    (88, "radius"),
    (96, "shadowradius"),
    (100, "verticaldisplacement"),
    (140, "multiplier"),
];

/// Emitter controllers, BioWare's numbers.
pub(crate) const EMITTER: [(u32, &str); 40] = [
    (80, "alphaEnd"),
    (84, "alphaStart"),
    (88, "birthrate"),
    (92, "bounce_co"),
    (96, "colorEnd"),
    (108, "colorStart"),
    (120, "combinetime"),
    (124, "drag"),
    (128, "fps"),
    (132, "frameEnd"),
    (136, "frameStart"),
    (140, "grav"),
    (144, "lifeExp"),
    (148, "mass"),
    (152, "p2p_bezier2"),
    (156, "p2p_bezier3"),
    (160, "particleRot"),
    (164, "randvel"),
    (168, "sizeStart"),
    (172, "sizeEnd"),
    (176, "sizeStart_y"),
    (180, "sizeEnd_y"),
    (184, "spread"),
    (188, "threshold"),
    (192, "velocity"),
    (196, "xsize"),
    (200, "ysize"),
    (204, "blurlength"),
    (208, "lightningDelay"),
    (212, "lightningRadius"),
    (216, "lightningScale"),
    (220, "lightningSubDiv"),
    (228, "detonate"),
    (448, "alphaMid"),
    (452, "colorMid"),
    (464, "percentStart"),
    (465, "percentMid"),
    (466, "percentEnd"),
    (468, "sizeMid"),
    (472, "sizeMid_y"),
];

/// nwnmdlcomp's numbers for the emitter controllers it numbers differently.
pub(crate) const EMITTER_NWNMDLCOMP: [(u32, &str); 7] = [
    (464, "alphaMid"),
    (468, "colorMid"),
    (480, "percentStart"),
    (481, "percentMid"),
    (482, "percentEnd"),
    (484, "sizeMid"),
    (488, "sizeMid_y"),
];

/// Whether a model's emitter controllers carry nwnmdlcomp's numbers (one of 480-488, and none
/// of BioWare's own 448/452).
pub(crate) fn is_nwnmdlcomp(kinds: impl Iterator<Item = u32>) -> bool {
    let mut theirs = false;
    for k in kinds {
        if k == 448 || k == 452 {
            return false;
        }
        theirs |= (480..=488).contains(&k);
    }
    theirs
}

fn groups(f: u32, nwnmdlcomp: bool) -> Vec<&'static [(u32, &'static str)]> {
    let f = f as u16;
    let mut g: Vec<&'static [(u32, &'static str)]> = Vec::new();
    if f & flags::EMITTER != 0 {
        if nwnmdlcomp {
            g.push(&EMITTER_NWNMDLCOMP);
        }
        g.push(&EMITTER);
    }
    if f & flags::LIGHT != 0 {
        g.push(&LIGHT);
    }
    if f & flags::MESH != 0 {
        g.push(&MESH);
    }
    g.push(&COMMON);
    g
}

/// The ASCII name of controller `kind` on a node with content flags `f` (`controller<N>` for a
/// number no table names).
pub(crate) fn controller_name(f: u32, kind: u32, nwnmdlcomp: bool) -> String {
    name_in(&groups(f, nwnmdlcomp), kind)
}

/// The type number (BioWare's) of a controller name on a node with content flags `f`.
pub(crate) fn controller_kind(f: u32, name: &str) -> Option<u32> {
    kind_in(&groups(f, false), name)
}

/// The emitter flag bits and their ASCII names: KotOR's first eleven (NWN has no depth
/// texture and no thirteenth flag).
pub(crate) const EMITTER_FLAGS: &[(u32, &str)] =
    crate::mdl::ascii::controllers::EMITTER_FLAGS.split_at(11).0;
