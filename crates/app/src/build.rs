//! `areakit build`: a module from a layout of kit rooms.
