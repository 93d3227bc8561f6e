//! Room links from geometry: every walkable boundary edge of one room that coincides with a
//! walkable boundary edge of another links to that room's LYT index (`areakit relink`).
