//! The route an NWN2 engine takes through a TRX's baked path tables ([`baked_route`]): the
//! island path table gives the islands to pass; inside each island's tile, the tile's path
//! table gives the next triangle toward the island's exit (or the goal), and the exit steps
//! into the next island. [`crate::navigation::PathMode::Baked`] funnels a path through it.

use areakit_formats::trx;

/// Why the baked tables give no route (or the ground has none to give).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BakedRouteError {
    /// The ground is no baked NWN2 terrain.
    #[error("baked mode needs an NWN2 terrain with baked path tables")]
    NoTables,
    /// The ground was carved for a radius or placed objects.
    #[error("baked mode follows the file's path tables, which know no radius or objects")]
    Carved,
    /// The route steps onto a triangle that is not walkable.
    #[error("the baked route steps onto triangle {0}, which is not walkable")]
    NotWalkable(u32),
    /// A triangle index past the table.
    #[error("triangle {0} does not exist")]
    NoTriangle(u32),
    /// A triangle's island index past the island table.
    #[error("triangle {triangle} belongs to no island ({island})")]
    NoIsland {
        /// The triangle.
        triangle: u32,
        /// Its island index.
        island: u16,
    },
    /// Following the island table never reaches the goal's island.
    #[error("the island path table loops")]
    IslandLoop,
    /// The island table has fewer than islands² entries.
    #[error("the island path table is shorter than islands²")]
    ShortIslandTable,
    /// The island table gives no next island.
    #[error("the baked tables have no route from island {from} to island {to}")]
    NoIslandRoute {
        /// The island the walk is on.
        from: u16,
        /// The goal's island.
        to: u16,
    },
    /// The next island is not among the island's links.
    #[error("island {from} has no link to island {to}")]
    NoLink {
        /// The island.
        from: u16,
        /// The next island.
        to: u16,
    },
    /// The island lists no exit triangle for that link.
    #[error("island {from} has no exit toward island {to}")]
    NoExit {
        /// The island.
        from: u16,
        /// The next island.
        to: u16,
    },
    /// The exit triangle touches no triangle of the next island.
    #[error("the exit triangle {exit} of island {from} touches no triangle of island {to}")]
    NoCrossing {
        /// The exit triangle.
        exit: u32,
        /// The island.
        from: u16,
        /// The next island.
        to: u16,
    },
    /// A triangle outside every tile.
    #[error("triangle {0} belongs to no tile")]
    NoTile(u32),
    /// Two triangles of one island leg in different tiles.
    #[error("triangles {0} and {1} of one island lie in different tiles")]
    TwoTiles(u32, u32),
    /// A triangle without a node in its tile's path table.
    #[error("triangle {0} has no node in its tile's path table")]
    NoNode(u32),
    /// The tile table has no step toward the target.
    #[error("the tile path table has no step from triangle {0} toward {1}")]
    NoStep(u32, u32),
    /// A hop to a node past the node list.
    #[error("path table node {0} does not exist")]
    NoPathNode(u8),
    /// Following the tile table never reaches the target.
    #[error("the tile path table loops between triangles {0} and {1}")]
    TileLoop(u32, u32),
}

/// The triangles (TRX indices) the engine's baked tables lead through from triangle `s` to
/// triangle `g`: the island path table gives the islands to pass; inside each island's tile,
/// the tile's path table gives the next triangle toward the island's exit (or the goal), and
/// the exit steps into the next island.
pub fn baked_route(w: &trx::Walkmesh, s: u32, g: u32) -> Result<Vec<u32>, BakedRouteError> {
    let tri = |t: u32| {
        w.triangles
            .get(t as usize)
            .ok_or(BakedRouteError::NoTriangle(t))
    };
    let island_of = |t: u32| -> Result<u16, BakedRouteError> {
        let i = tri(t)?.island;
        if usize::from(i) >= w.islands.len() {
            return Err(BakedRouteError::NoIsland {
                triangle: t,
                island: i,
            });
        }
        Ok(i)
    };
    let n_isl = w.islands.len();
    let (mut isl, goal_isl) = (island_of(s)?, island_of(g)?);
    let mut route = vec![s];
    let mut cur = s;
    let mut steps = 0usize;
    while isl != goal_isl {
        steps += 1;
        if steps > n_isl {
            return Err(BakedRouteError::IslandLoop);
        }
        let next = w
            .island_paths
            .get(usize::from(isl) * n_isl + usize::from(goal_isl))
            .map(|n| n.next)
            .ok_or(BakedRouteError::ShortIslandTable)?;
        if usize::from(next) >= n_isl {
            return Err(BakedRouteError::NoIslandRoute {
                from: isl,
                to: goal_isl,
            });
        }
        let here = &w.islands[usize::from(isl)];
        let k = here
            .links
            .iter()
            .position(|&l| l == u32::from(next))
            .ok_or(BakedRouteError::NoLink {
                from: isl,
                to: next,
            })?;
        let exit = *here.exits.get(k).ok_or(BakedRouteError::NoExit {
            from: isl,
            to: next,
        })?;
        walk_tile(w, &mut route, cur, exit)?;
        // Step across into the next island.
        let across = tri(exit)?
            .linked_triangles
            .into_iter()
            .find(|&t| {
                w.triangles
                    .get(t as usize)
                    .is_some_and(|x| x.island == next)
            })
            .ok_or(BakedRouteError::NoCrossing {
                exit,
                from: isl,
                to: next,
            })?;
        route.push(across);
        cur = across;
        isl = next;
    }
    walk_tile(w, &mut route, cur, g)?;
    Ok(route)
}

/// Appends the path-table route from `from` to `to` (same tile) after `from`.
fn walk_tile(
    w: &trx::Walkmesh,
    route: &mut Vec<u32>,
    from: u32,
    to: u32,
) -> Result<(), BakedRouteError> {
    if from == to {
        return Ok(());
    }
    let tile = w
        .tiles
        .iter()
        .find(|t| t.triangle_range().contains(&u64::from(from)))
        .ok_or(BakedRouteError::NoTile(from))?;
    if !tile.triangle_range().contains(&u64::from(to)) {
        return Err(BakedRouteError::TwoTiles(from, to));
    }
    let pt = &tile.path_table;
    let node = |t: u32| -> Result<u8, BakedRouteError> {
        let local = (t - tile.triangles_offset) as usize;
        match pt.local_to_node.get(local) {
            Some(&n) if n != 0xff => Ok(n),
            _ => Err(BakedRouteError::NoNode(t)),
        }
    };
    let target = node(to)?;
    let mut cur = node(from)?;
    for _ in 0..pt.node_to_local.len() {
        let hop = pt
            .node(cur, target)
            .map(|b| b & 0x7f)
            .filter(|&b| b != 0x7f)
            .ok_or(BakedRouteError::NoStep(from, to))?;
        let local = *pt
            .node_to_local
            .get(usize::from(hop))
            .ok_or(BakedRouteError::NoPathNode(hop))?;
        let t = tile.triangles_offset + local;
        route.push(t);
        if hop == target {
            return Ok(());
        }
        cur = hop;
    }
    Err(BakedRouteError::TileLoop(from, to))
}
