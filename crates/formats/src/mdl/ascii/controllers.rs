//! KotOR's controller type numbers by node kind and name (mdlops, kotorblender and reone agree;
//! xoreos uses NWN's older emitter numbers), its classifications and emitter flag names.

use crate::mdl::common::flags;

/// Classification byte ↔ name.
pub(crate) const CLASSES: [(u8, &str); 8] = [
    (0x00, "Other"),
    (0x01, "Effect"),
    (0x02, "Tile"),
    (0x04, "Character"),
    (0x08, "Door"),
    (0x10, "Lightsaber"),
    (0x20, "Placeable"),
    (0x40, "Flyer"),
];

/// Controller names per node kind (type number, name). Type numbers repeat across kinds.
pub(crate) const COMMON: [(u32, &str); 3] = [(8, "position"), (20, "orientation"), (36, "scale")];

pub(crate) const MESH_CONTROLLERS: [(u32, &str); 2] = [(100, "selfillumcolor"), (132, "alpha")];

pub(crate) const LIGHT_CONTROLLERS: [(u32, &str); 5] = [
    (76, "color"),
    (88, "radius"),
    (96, "shadowradius"),
    (100, "verticaldisplacement"),
    (140, "multiplier"),
];

pub(crate) const EMITTER_CONTROLLERS: [(u32, &str); 48] = [
    (80, "alphaEnd"),
    (84, "alphaStart"),
    (88, "birthrate"),
    (92, "bounce_co"),
    (96, "combinetime"),
    (100, "drag"),
    (104, "fps"),
    (108, "frameEnd"),
    (112, "frameStart"),
    (116, "grav"),
    (120, "lifeExp"),
    (124, "mass"),
    (128, "p2p_bezier2"),
    (132, "p2p_bezier3"),
    (136, "particleRot"),
    (140, "randvel"),
    (144, "sizeStart"),
    (148, "sizeEnd"),
    (152, "sizeStart_y"),
    (156, "sizeEnd_y"),
    (160, "spread"),
    (164, "threshold"),
    (168, "velocity"),
    (172, "xsize"),
    (176, "ysize"),
    (180, "blurlength"),
    (184, "lightningDelay"),
    (188, "lightningRadius"),
    (192, "lightningScale"),
    (196, "lightningSubDiv"),
    (200, "lightningzigzag"),
    (216, "alphaMid"),
    (220, "percentStart"),
    (224, "percentMid"),
    (228, "percentEnd"),
    (232, "sizeMid"),
    (236, "sizeMid_y"),
    (240, "m_fRandomBirthRate"),
    (252, "targetsize"),
    (256, "numcontrolpts"),
    (260, "controlptradius"),
    (264, "controlptdelay"),
    (268, "tangentspread"),
    (272, "tangentlength"),
    (284, "colorMid"),
    (380, "colorEnd"),
    (392, "colorStart"),
    (502, "detonate"),
];

/// The controller name groups of a node with `flags`, in lookup order: for writing a name
/// (binary → ASCII) meshes, emitters, lights; for reading one (ASCII → binary) lights, emitters,
/// meshes (mdlops's orders: type numbers repeat across kinds); the common names last.
pub(crate) fn groups(f: u16, reading: bool) -> Vec<&'static [(u32, &'static str)]> {
    let mut g: Vec<&'static [(u32, &'static str)]> = Vec::new();
    for kind in [flags::MESH, flags::EMITTER, flags::LIGHT] {
        if f & kind != 0 {
            g.push(match kind {
                flags::MESH => &MESH_CONTROLLERS,
                flags::EMITTER => &EMITTER_CONTROLLERS,
                _ => &LIGHT_CONTROLLERS,
            });
        }
    }
    if reading {
        g.reverse();
    }
    g.push(&COMMON);
    g
}

pub(crate) fn controller_name(f: u16, kind: u32) -> String {
    name_in(&groups(f, false), kind)
}

/// The type number of a controller name for a node with `flags` (`controller<N>` for any
/// number).
pub(crate) fn controller_kind(f: u16, name: &str) -> Option<u32> {
    kind_in(&groups(f, true), name)
}

/// The name the first of `groups` gives controller `kind` (`controller<N>` where none does).
pub(crate) fn name_in(groups: &[&[(u32, &'static str)]], kind: u32) -> String {
    groups
        .iter()
        .find_map(|g| g.iter().find(|(k, _)| *k == kind))
        .map_or_else(|| format!("controller{kind}"), |(_, n)| (*n).to_string())
}

/// The type number the first of `groups` gives a controller name (any case), or the number of
/// a `controller<N>` name.
pub(crate) fn kind_in(groups: &[&[(u32, &'static str)]], name: &str) -> Option<u32> {
    groups
        .iter()
        .find_map(|g| g.iter().find(|(_, n)| n.eq_ignore_ascii_case(name)))
        .map(|(k, _)| *k)
        .or_else(|| {
            name.to_ascii_lowercase()
                .strip_prefix("controller")
                .and_then(|n| n.parse().ok())
        })
}

pub(crate) const EMITTER_FLAGS: [(u32, &str); 13] = [
    (0x0001, "p2p"),
    (0x0002, "p2p_sel"),
    (0x0004, "affectedByWind"),
    (0x0008, "m_isTinted"),
    (0x0010, "bounce"),
    (0x0020, "random"),
    (0x0040, "inherit"),
    (0x0080, "inheritvel"),
    (0x0100, "inherit_local"),
    (0x0200, "splat"),
    (0x0400, "inherit_part"),
    (0x0800, "depth_texture"),
    (0x1000, "emitterflag13"),
];
