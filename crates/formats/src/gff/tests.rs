//! Unit tests over small hand-made GFFs.
