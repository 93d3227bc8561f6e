//! An independent shortest-path oracle for the navigation engine: it shares no code with
//! `areakit-geometry` and reads only plain arrays (vertex positions and triangles).
//!
//! A shortest path over walkable triangles, measured in plan, bends only at vertices where
//! the ground turns round an obstacle: a fan of triangles round a vertex that does not close
//! (a wall leaves the vertex) and whose plan angles add up to at least 180°, or a closed fan
//! whose angles add up to more than 360° (ground that overlaps itself round the vertex, as
//! on a spiral ramp). Those (vertex, fan) pairs are the *nodes*. The oracle runs A* (its
//! heuristic the straight distance to the goal) over the nodes plus the start and the goal,
//! joining two of them where the straight walk between them ([`walk`]) stays on the ground,
//! tested lazily and remembered.
//!
//! **The pinch rule**: where the ground meets itself only at a vertex (two fans round it), a
//! node is a vertex *and* one fan: a path may reach the vertex in one fan and turn there, but
//! it leaves in the same fan, and a straight walk through the vertex stays in its fan too. A
//! path never crosses from one side of a pinch to the other, because the engine's edge-to-edge
//! walk cannot (`docs/navigation.md`, "The oracle").
//!
//! It is slow by design (every visibility is a walk through the triangles), so it takes an
//! upper bound: with the engine's length as the bound it only has to show that nothing
//! shorter exists.

mod exact;
mod ground;
mod judge;
mod slivers;
mod walk;

pub use exact::orient;
use ground::{Ground, P2};
pub use ground::{LinkFindings, Links, NONE as NO_LINK};
pub use judge::{Answer, Disagreement, Promise, RELATIVE};
use std::cell::RefCell;
use std::collections::{BinaryHeap, HashMap};
use walk::At;

/// An end of a path: a plan point on a triangle that holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct End {
    /// The plan point.
    pub point: [f32; 2],
    /// The triangle (by the surface's numbering) that holds it.
    pub triangle: u32,
}

/// A shortest path found by the oracle.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    /// Its plan length.
    pub length: f64,
    /// Its points: the start, the vertices it turns at, the goal.
    pub points: Vec<[f64; 2]>,
}

/// What is wrong with a polyline given as a path.
#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// It does not start at the start or end at the goal.
    Ends,
    /// Point `i` repeats point `j < i`.
    Repeats {
        /// The later point.
        i: usize,
        /// The earlier one.
        j: usize,
    },
    /// Point `i` turns back exactly (the pieces before and after it are opposite).
    TurnsBack {
        /// The point.
        i: usize,
    },
    /// Point `i` (a turn) is not a vertex of the walkable boundary.
    NotACorner {
        /// The point.
        i: usize,
    },
    /// The piece from point `i` to point `i + 1` leaves the ground (or crosses a pinch).
    OffGround {
        /// The piece's first point.
        i: usize,
    },
    /// The last piece ends on other ground than the goal's (another floor or fan).
    WrongGoal,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Ends => write!(f, "does not run from the start to the goal"),
            Fault::Repeats { i, j } => write!(f, "point {i} repeats point {j}"),
            Fault::TurnsBack { i } => write!(f, "turns back at point {i}"),
            Fault::NotACorner { i } => write!(f, "turns at point {i}, not a boundary corner"),
            Fault::OffGround { i } => write!(f, "piece {i} leaves the ground"),
            Fault::WrongGoal => write!(f, "ends on other ground than the goal's"),
        }
    }
}

/// A node: a vertex and one of its fans.
#[derive(Debug, Clone, Copy)]
struct Node {
    vertex: u32,
    fan: u32,
    /// A triangle of the fan.
    tri: u32,
}

/// The oracle of one walkable surface. See the [module docs](self).
pub struct Oracle {
    ground: Ground,
    nodes: Vec<Node>,
    /// Node-to-node walks done so far.
    seen: RefCell<HashMap<(u32, u32), bool>>,
    /// How the file's links differed from the model's rule.
    findings: LinkFindings,
}

const NO_NODE: u32 = u32::MAX;

fn dist(a: P2, b: P2) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

fn p2(p: [f32; 2]) -> P2 {
    [f64::from(p[0]), f64::from(p[1])]
}

/// A queue item: smallest `f` first.
#[derive(PartialEq)]
struct Item(f64, u32);
impl Eq for Item {}
impl PartialOrd for Item {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Item {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
    }
}

impl Oracle {
    /// The oracle of the triangles over the vertices (`x`, `y` in plan, `z` up), numbered as
    /// given.
    pub fn new(vertices: &[[f32; 3]], triangles: &[[u32; 3]]) -> Oracle {
        Oracle::with_links(vertices, triangles, Links::SharedEdges)
    }

    /// The oracle with its neighbours from `links` (a file's own adjacency, or the model's
    /// rule); how the file's links differ from the rule is [`Oracle::link_findings`].
    pub fn with_links(vertices: &[[f32; 3]], triangles: &[[u32; 3]], links: Links) -> Oracle {
        let (ground, findings) = Ground::with_links(vertices, triangles, links);
        let mut nodes = Vec::new();
        let pi = std::f64::consts::PI;
        for (f, fan) in ground.fans.iter().enumerate() {
            let turns = if !fan.open {
                fan.angle > 2.0 * pi + 1e-6
            } else if (fan.angle - pi).abs() > 1e-6 || fan.walls.contains(&ground::NONE) {
                fan.angle > pi
            } else {
                // About 180°: more exactly when the second wall lies right of the first, seen
                // from the vertex (a straight wall, exactly 180°, never turns a path).
                let [a, b] = fan.walls.map(|w| ground.pos[w as usize]);
                orient(ground.pos[fan.vertex as usize], a, b) == std::cmp::Ordering::Less
            };
            if turns {
                nodes.push(Node {
                    vertex: fan.vertex,
                    fan: f as u32,
                    tri: fan.tris[0],
                });
            }
        }
        Oracle {
            ground,
            nodes,
            seen: RefCell::new(HashMap::new()),
            findings,
        }
    }

    /// How the links the oracle was given differ from the model's rule (all zero for
    /// [`Links::SharedEdges`]).
    pub fn link_findings(&self) -> &LinkFindings {
        &self.findings
    }

    /// The vertices round which the ground meets itself only at the vertex (a pinch: two or
    /// more fans).
    pub fn pinches(&self) -> usize {
        self.ground
            .vertex_fans
            .iter()
            .filter(|f| f.len() > 1)
            .count()
    }

    /// The number of nodes (vertex and fan pairs a shortest path may turn at).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The node positions.
    pub fn node_points(&self) -> Vec<[f64; 2]> {
        self.nodes
            .iter()
            .map(|n| self.ground.pos[n.vertex as usize])
            .collect()
    }

    /// Whether triangle `t` is ground (has plan area).
    pub fn is_ground(&self, t: u32) -> bool {
        !self.ground.flat[t as usize]
    }

    /// Whether triangle `t` holds plan point `p` (its sides and corners included).
    pub fn holds(&self, t: u32, p: [f32; 2]) -> bool {
        self.ground.holds(t, p2(p))
    }

    /// Whether the ground joins triangles `a` and `b` (both ground).
    pub fn connected(&self, a: u32, b: u32) -> bool {
        self.is_ground(a)
            && self.is_ground(b)
            && self.ground.part[a as usize] == self.ground.part[b as usize]
    }

    /// A triangle of the floor at `(x, y)`, by the oracle's own rule: of the triangles that
    /// hold the point in plan (edges and corners included), with a height hint the one whose
    /// height there is nearest to it, without one the highest; the lowest index of those
    /// within 1 mm of that height. The point stands on that whole floor
    /// ([`Oracle::stands`]), so which of its triangles is named does not change a path.
    pub fn locate(&self, x: f32, y: f32, z: Option<f32>) -> Option<u32> {
        let p = p2([x, y]);
        let here: Vec<(u32, f64)> = (0..self.ground.tris.len() as u32)
            .filter(|&t| !self.ground.flat[t as usize] && self.ground.holds(t, p))
            .map(|t| (t, self.ground.height(t, p)))
            .collect();
        let score = |h: f64| z.map_or(-h, |z| (h - f64::from(z)).abs());
        let best = here.iter().map(|c| score(c.1)).reduce(f64::min)?;
        here.iter()
            .filter(|c| score(c.1) <= best + 1e-3)
            .map(|c| c.0)
            .min()
    }

    /// Every triangle an end stands on ([`Oracle::stands`]).
    fn on(&self, e: End) -> Vec<u32> {
        self.ground.stands(e.triangle, p2(e.point))
    }

    /// Every triangle a point `p` on triangle `t` stands on, by the oracle's own rule: each
    /// that holds `p` in plan (edges and corners included) with its height there within 1 mm
    /// of `t`'s, but at a pinch (a vertex the ground meets itself at only there) only `t`'s
    /// fan. Sorted.
    pub fn stands(&self, t: u32, p: [f32; 2]) -> Vec<u32> {
        self.ground.stands(t, p2(p))
    }

    /// Whether the ends stand on connected ground (some triangle of each, one part).
    pub fn ends_connected(&self, a: End, b: End) -> bool {
        let bs = self.on(b);
        self.on(a)
            .iter()
            .any(|&x| bs.iter().any(|&y| self.connected(x, y)))
    }

    /// Whether the straight piece from `a` to `b` stays on the ground (never crossing a
    /// pinch), from any triangle `a` stands on to one `b` stands on.
    pub fn sees(&self, a: End, b: End) -> bool {
        let (p, q) = (p2(a.point), p2(b.point));
        let (from, goal) = (self.on(a), self.on(b));
        if p == q {
            return from.iter().any(|t| goal.binary_search(t).is_ok());
        }
        let arrived = self.ground.walk(&self.ground.starts_on(&from, p), p, q);
        arrived.iter().any(|t| goal.binary_search(t).is_ok())
    }

    /// The walk's states at node `n`.
    fn node_states(&self, n: u32) -> [At; 1] {
        let node = self.nodes[n as usize];
        [At::Vertex(node.vertex, node.tri)]
    }

    /// Whether arriving triangles at node `n`'s position reach it (one is in its fan).
    fn reaches_node(&self, arrived: &[u32], n: u32) -> bool {
        let node = self.nodes[n as usize];
        arrived
            .iter()
            .any(|&t| self.ground.fan(node.vertex, t) == Some(node.fan))
    }

    fn node_sees_node(&self, a: u32, b: u32) -> bool {
        if let Some(&v) = self.seen.borrow().get(&(a, b)) {
            return v;
        }
        let (p, q) = (self.node_pos(a), self.node_pos(b));
        let v = if p == q {
            false
        } else {
            let arrived = self.ground.walk(&self.node_states(a), p, q);
            self.reaches_node(&arrived, b)
        };
        self.seen.borrow_mut().insert((a, b), v);
        v
    }

    fn node_pos(&self, n: u32) -> P2 {
        self.ground.pos[self.nodes[n as usize].vertex as usize]
    }

    /// The shortest path from `s` to `t` no longer than `bound` (`f64::INFINITY` for any), or
    /// `None` when there is none that short (or the ends are not connected).
    pub fn shortest(&self, s: End, t: End, bound: f64) -> Option<Route> {
        if !self.ends_connected(s, t) {
            return None;
        }
        let (ps, pt) = (p2(s.point), p2(t.point));
        if self.sees(s, t) {
            let d = dist(ps, pt);
            return (d <= bound).then(|| Route {
                length: d,
                points: vec![ps, pt],
            });
        }
        let n = self.nodes.len();
        let start_place = self.on(s);
        let goal_place = self.on(t);
        let starts = self.ground.starts_on(&start_place, ps);
        let mut g = vec![f64::INFINITY; n];
        let mut parent = vec![NO_NODE; n];
        let mut closed = vec![false; n];
        let mut heap = BinaryHeap::new();
        let mut best = (bound, NO_NODE);
        // From the start.
        for v in 0..n as u32 {
            let x = self.node_pos(v);
            let d = dist(ps, x);
            if d + dist(x, pt) > best.0 {
                continue;
            }
            let node = self.nodes[v as usize];
            let ok = if x == ps {
                start_place
                    .iter()
                    .any(|&u| self.ground.fan(node.vertex, u) == Some(node.fan))
            } else {
                self.reaches_node(&self.ground.walk(&starts, ps, x), v)
            };
            if ok {
                g[v as usize] = d;
                heap.push(Item(d + dist(x, pt), v));
            }
        }
        while let Some(Item(f, u)) = heap.pop() {
            if f >= best.0 {
                break;
            }
            if closed[u as usize] {
                continue;
            }
            closed[u as usize] = true;
            let gu = g[u as usize];
            let x = self.node_pos(u);
            // To the goal.
            let to_goal = dist(x, pt);
            if gu + to_goal < best.0 {
                let node = self.nodes[u as usize];
                let ok = if x == pt {
                    goal_place
                        .iter()
                        .any(|&w| self.ground.fan(node.vertex, w) == Some(node.fan))
                } else {
                    let arrived = self.ground.walk(&self.node_states(u), x, pt);
                    arrived.iter().any(|w| goal_place.binary_search(w).is_ok())
                };
                if ok {
                    best = (gu + to_goal, u);
                }
            }
            for v in 0..n as u32 {
                if closed[v as usize] {
                    continue;
                }
                let y = self.node_pos(v);
                let gv = gu + dist(x, y);
                if gv >= g[v as usize] || gv + dist(y, pt) >= best.0 {
                    continue;
                }
                if self.node_sees_node(u, v) {
                    g[v as usize] = gv;
                    parent[v as usize] = u;
                    heap.push(Item(gv + dist(y, pt), v));
                }
            }
        }
        if best.1 == NO_NODE {
            return None;
        }
        let mut points = vec![pt];
        let mut v = best.1;
        while v != NO_NODE {
            points.push(self.node_pos(v));
            v = parent[v as usize];
        }
        points.push(ps);
        points.reverse();
        Some(Route {
            length: best.0,
            points,
        })
    }

    /// Checks a polyline given as the path from `s` to `t` (points `x`, `y`, `z`): it starts
    /// and ends there, has no step of no length in plan and comes back to no point (in 3-D: on
    /// ground that winds over itself, a path may pass over a place it passed under), never
    /// turns back exactly, turns only at vertices of
    /// the walkable boundary, and every piece stays on the ground, each starting on the ground
    /// (fan) where the one before arrived, the last arriving on the goal's.
    pub fn check_path(&self, s: End, t: End, points: &[[f32; 3]]) -> Result<(), Fault> {
        let pts: Vec<P2> = points.iter().map(|&p| p2([p[0], p[1]])).collect();
        if pts.len() < 2 || pts[0] != p2(s.point) || pts[pts.len() - 1] != p2(t.point) {
            return Err(Fault::Ends);
        }
        for i in 1..pts.len() {
            // A step of no length in plan, or back to a point passed before (in 3-D).
            let same = |j: usize| pts[j] == pts[i] && (j + 1 == i || points[j] == points[i]);
            if let Some(j) = (0..i).find(|&j| same(j)) {
                // A path from a point to itself is the one exception: two equal ends.
                if !(pts.len() == 2 && s.point == t.point) {
                    return Err(Fault::Repeats { i, j });
                }
            }
        }
        for i in 1..pts.len().saturating_sub(1) {
            let (a, b, c) = (pts[i - 1], pts[i], pts[i + 1]);
            let back = (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1]) < 0.0;
            if orient(a, b, c) == std::cmp::Ordering::Equal && back {
                return Err(Fault::TurnsBack { i });
            }
            let corner = self.ground.vertices_at(b).iter().any(|&v| {
                self.ground.vertex_fans[v as usize]
                    .iter()
                    .any(|&f| self.ground.fans[f as usize].open)
            });
            if !corner {
                return Err(Fault::NotACorner { i });
            }
        }
        if pts.len() == 2 && pts[0] == pts[1] {
            let (a, b) = (self.on(s), self.on(t));
            return if a.iter().any(|x| b.binary_search(x).is_ok()) {
                Ok(())
            } else {
                Err(Fault::WrongGoal)
            };
        }
        let mut states = self.ground.starts_on(&self.on(s), pts[0]);
        for i in 0..pts.len() - 1 {
            let arrived = self.ground.walk(&states, pts[i], pts[i + 1]);
            if arrived.is_empty() {
                return Err(Fault::OffGround { i });
            }
            states.clear();
            for a in arrived {
                for st in self.ground.starts(a, pts[i + 1]) {
                    if !states.contains(&st) {
                        states.push(st);
                    }
                }
            }
        }
        let goal = self.on(t);
        let ends: Vec<u32> = states
            .iter()
            .map(|s| match *s {
                At::Tri(t) | At::Vertex(_, t) => t,
            })
            .collect();
        if ends.iter().any(|e| goal.binary_search(e).is_ok()) {
            Ok(())
        } else {
            Err(Fault::WrongGoal)
        }
    }
}

#[cfg(test)]
mod tests;
