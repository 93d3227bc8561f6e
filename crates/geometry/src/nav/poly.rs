//! The polygon layer: the walkable triangles merged into convex polygons.
