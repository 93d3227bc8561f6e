//! `areakit relink`: an area's room links set from geometry, as a typed report.
