//! `areakit minimap`: a minimap image of an area and its ARE map block.
