//! `areakit vis generate` and the VIS checks of an area with room models.
