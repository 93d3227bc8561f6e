//! Room visibility (VIS) from geometry: sight lines from eye height above the walkable floor,
//! through the openings, against the room models (`areakit vis generate`).
