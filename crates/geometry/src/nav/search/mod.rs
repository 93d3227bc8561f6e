//! The search engine's parts, each of its own: the working memory ([`pool`]), the graphs it
//! runs on ([`cells`]: triangles or polygons), the optimal search ([`polyanya`], written once
//! over both), the fast mode's corridor search ([`astar`]) and string pulling ([`funnel`]),
//! the straight walk that takes a path down to the triangles it crosses ([`walk`]), and what a
//! search returns ([`result`]). The query object that puts them together for a request is
//! [`crate::nav::query`].

pub(crate) mod astar;
pub(crate) mod cells;
pub(crate) mod funnel;
pub(crate) mod polyanya;
pub(crate) mod pool;
pub mod result;
pub(crate) mod walk;

use crate::nav::mesh::{Location, NO_TRIANGLE, NavMesh};

/// The root (and the turn id) of the start point; `START - 1` stands for the goal.
pub(crate) const START: u32 = u32::MAX;

/// The vertex of its triangle a located point lies exactly on (in plan), or `NO_TRIANGLE`.
pub(crate) fn vertex_at(mesh: &NavMesh, at: Location) -> u32 {
    mesh.tris[at.triangle as usize]
        .into_iter()
        .find(|&v| {
            let p = mesh.vertices[v as usize];
            p.x == at.point.x && p.y == at.point.y
        })
        .unwrap_or(NO_TRIANGLE)
}
