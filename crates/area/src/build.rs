//! Building a module from kit rooms (`areakit build`): layouts, kits, and the module they make.

pub mod records;
