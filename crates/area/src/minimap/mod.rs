//! Game-style minimaps of the walkable ground and the ARE map block that places them
//! (`areakit minimap`).
