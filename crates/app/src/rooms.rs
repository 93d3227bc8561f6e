//! The room models of an area: each LYT room's binary model (`<room>.mdl` with its `.mdx`) from
//! the resources the area was opened with, decoded, and placed at the room's LYT position.
//! `check` compares them with the rooms' WOKs; `export`, `render` and `view` draw them.

use areakit_area::module::Module;
use areakit_area::resources::Resources;
use areakit_formats::DecodeError;
use areakit_formats::mdl;

/// One room's model.
#[derive(Debug, Clone)]
pub struct RoomModel {
    /// The room's index in the LYT.
    pub room: usize,
    /// The room's name (the model's resref).
    pub name: String,
    /// The room's LYT position (where the model's origin stands in area space).
    pub position: [f32; 3],
    /// Where the MDL came from (a file path, or `capsule/name.mdl`).
    pub origin: String,
    /// The model, or why it does not decode.
    pub model: Result<mdl::Model, DecodeError>,
}

/// The models of the rooms of `module` that `res` holds (rooms without a model are left out;
/// a model whose MDX is missing is read with an empty one, so its meshes fail to decode).
pub fn room_models(module: &Module, res: &dyn Resources) -> Vec<RoomModel> {
    let mut out = Vec::new();
    for (i, room) in module.area.rooms.iter().enumerate() {
        if room.is_placeholder() {
            continue;
        }
        let Some(place) = module.area.lyt.rooms.get(i) else {
            continue;
        };
        let Ok(Some(data)) = res.get(&room.name, "mdl") else {
            continue;
        };
        let mdx = res.get(&room.name, "mdx").ok().flatten();
        out.push(RoomModel {
            room: i,
            name: room.name.clone(),
            position: place.position,
            origin: data.origin,
            model: mdl::read(&data.data, mdx.as_ref().map_or(&[][..], |r| &r.data[..])),
        });
    }
    out
}
