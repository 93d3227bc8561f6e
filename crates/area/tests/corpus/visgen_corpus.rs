//! The VIS generator against a brute-force ray oracle written here (no tree, every triangle,
//! its own random eye and target points): every pair of rooms the oracle finds joined by a
//! sight line must be in the generated VIS (no pop-in). On synthetic areas of box rooms with
//! doorways and pillars, and on the real rooms of module m10aa in the corpus (five room models
//! with their WOKs), where the game's own VIS is also compared.

use areakit_area::models;
use areakit_area::visgen::synthetic::{GridSpec, grid_area};
use areakit_area::visgen::{self, VisOptions, VisRoom};
use areakit_formats::{bwm, mdl, vis};
use glam::Vec3;

/// SplitMix64: the oracle's own random points.
struct Rng(u64);
impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
    }

    /// A uniform random point of `tris`, area-weighted, with its triangle.
    fn on(&mut self, tris: &[[Vec3; 3]], areas: &[f32]) -> (Vec3, usize) {
        let total: f32 = areas.iter().sum();
        let mut x = self.unit() * total;
        let mut i = 0;
        while i + 1 < areas.len() && x >= areas[i] {
            x -= areas[i];
            i += 1;
        }
        let (mut u, mut v) = (self.unit(), self.unit());
        if u + v > 1.0 {
            (u, v) = (1.0 - u, 1.0 - v);
        }
        let t = tris[i];
        (t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v, i)
    }
}

fn area(t: &[Vec3; 3]) -> f32 {
    0.5 * (t[1] - t[0]).cross(t[2] - t[0]).length()
}

/// The oracle's scene: every occluder triangle with its box, each room's eye and target points.
struct Oracle {
    occluders: Vec<([Vec3; 3], Vec3, Vec3)>,
    eyes: Vec<Vec<Vec3>>,
    targets: Vec<Vec<Vec3>>,
}

impl Oracle {
    /// `floors[r]`: room r's walkable triangles; `drawn[r]`: its drawn faces (front side by
    /// winding); `occluders`: the faces that hide.
    fn new(
        floors: &[Vec<[Vec3; 3]>],
        drawn: &[Vec<[Vec3; 3]>],
        occluders: Vec<[Vec3; 3]>,
        per_room: (usize, usize),
        eye_height: f32,
        seed: u64,
    ) -> Oracle {
        let mut o = Oracle {
            occluders: occluders
                .into_iter()
                .map(|t| (t, t[0].min(t[1]).min(t[2]), t[0].max(t[1]).max(t[2])))
                .collect(),
            eyes: Vec::new(),
            targets: Vec::new(),
        };
        let mut rng = Rng(seed);
        for (floor, faces) in floors.iter().zip(drawn) {
            let mut eyes = Vec::new();
            let areas: Vec<f32> = floor.iter().map(area).collect();
            if areas.iter().sum::<f32>() > 0.0 {
                for _ in 0..per_room.0 {
                    let p = rng.on(floor, &areas).0;
                    // Eye height, or just under a lower ceiling.
                    let o0 = p + Vec3::Z * 0.05;
                    let up = o.first_hit(o0, Vec3::Z * (eye_height - 0.05));
                    eyes.push(match up {
                        Some(s) => o0 + Vec3::Z * ((eye_height - 0.05) * s - 0.05).max(0.0),
                        None => p + Vec3::Z * eye_height,
                    });
                }
            }
            let mut targets = eyes.clone();
            let areas: Vec<f32> = faces.iter().map(area).collect();
            if areas.iter().sum::<f32>() > 0.0 {
                for _ in 0..per_room.1 {
                    let (p, i) = rng.on(faces, &areas);
                    let t = faces[i];
                    let n = (t[1] - t[0]).cross(t[2] - t[0]).normalize_or_zero();
                    targets.push(p + n * visgen::TARGET_OFFSET);
                }
            }
            o.eyes.push(eyes);
            o.targets.push(targets);
        }
        o
    }

    /// The nearest hit on `a + s·d`, s in (0, 1), over every triangle (Möller–Trumbore).
    fn first_hit(&self, a: Vec3, d: Vec3) -> Option<f32> {
        let (lo, hi) = (a.min(a + d), a.max(a + d));
        let mut best: Option<f32> = None;
        for (t, tlo, thi) in &self.occluders {
            if tlo.cmpgt(hi).any() || thi.cmplt(lo).any() {
                continue;
            }
            let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
            let p = d.cross(e2);
            let det = e1.dot(p);
            if det.abs() < 1e-12 {
                continue;
            }
            let s = a - t[0];
            let u = s.dot(p) / det;
            let q = s.cross(e1);
            let v = d.dot(q) / det;
            let k = e2.dot(q) / det;
            if u >= 0.0 && v >= 0.0 && u + v <= 1.0 && k > 0.0 && k < 1.0 {
                best = Some(best.map_or(k, |b: f32| b.min(k)));
            }
        }
        best
    }

    /// A clear segment from an eye of `a` to a target of `b`.
    fn sees(&self, a: usize, b: usize) -> bool {
        self.eyes[a].iter().any(|&e| {
            self.targets[b]
                .iter()
                .any(|&t| self.first_hit(e, t - e).is_none())
        })
    }

    /// The pairs (a < b) with a sight line either way.
    fn pairs(&self) -> Vec<(usize, usize)> {
        let n = self.eyes.len();
        let mut out = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if self.sees(a, b) || self.sees(b, a) {
                    out.push((a, b));
                }
            }
        }
        out
    }
}

/// Pairs of the VIS (both directions listed), as room indices.
fn vis_pairs(v: &vis::Vis, names: &[String]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for a in 0..names.len() {
        for b in a + 1..names.len() {
            if v.is_visible(&names[a], &names[b]) || v.is_visible(&names[b], &names[a]) {
                out.push((a, b));
            }
        }
    }
    out
}

#[test]
fn synthetic_areas_hold_every_sight_line_the_oracle_finds() {
    let opts = VisOptions::default();
    let (mut oracle_pairs, mut generated, mut loose, mut areas) = (0, 0, 0, 0);
    for (seed, cols, rows) in [(1, 3, 2), (2, 3, 3), (3, 4, 2), (4, 2, 2)] {
        let a = grid_area(&GridSpec {
            cols,
            rows,
            seed,
            door_chance: 0.5,
            pillar_chance: 0.5,
            ..GridSpec::default()
        });
        let rooms = a.vis_rooms();
        let r = visgen::generate_vis(&rooms, &a.links, &opts);
        let names: Vec<String> = rooms.iter().map(|r| r.name.clone()).collect();
        let floors: Vec<Vec<[Vec3; 3]>> = a
            .rooms
            .iter()
            .map(|r| {
                r.walkmesh
                    .faces
                    .iter()
                    .map(|f| {
                        f.vertices
                            .map(|v| Vec3::from(r.walkmesh.vertices[v as usize]))
                    })
                    .collect()
            })
            .collect();
        let drawn: Vec<Vec<[Vec3; 3]>> = a
            .rooms
            .iter()
            .map(|r| r.triangles.iter().map(|t| t.map(Vec3::from)).collect())
            .collect();
        let all = drawn.iter().flatten().copied().collect();
        let oracle = Oracle::new(&floors, &drawn, all, (40, 160), opts.eye_height, seed);
        let found = oracle.pairs();
        let listed = vis_pairs(&r.vis, &names);
        for p in &found {
            assert!(
                listed.contains(p),
                "seed {seed}: the oracle sees {} – {}, the VIS lacks it",
                names[p.0],
                names[p.1]
            );
        }
        // Not everything sees everything: the walls hide.
        assert!(listed.len() < names.len() * (names.len() - 1) / 2);
        oracle_pairs += found.len();
        generated += r.pairs;
        loose += r.pairs_without_sampled_line;
        areas += 1;
    }
    assert_eq!(areas, 4);
    assert!(oracle_pairs > 0);
    eprintln!(
        "synthetic: {areas} areas, {generated} generated pairs, {oracle_pairs} found by the oracle, \
         {loose} generated pairs without a sampled sight line"
    );
}

/// The rooms of m10aa whose model and WOK are both in the corpus (PyKotor's generated kit):
/// name, model, WOK, and the model's LYT position (where its walkmesh meets the WOK).
fn m10aa_rooms() -> Vec<(String, mdl::Model, bwm::Bwm, [f32; 3])> {
    let mut out: Vec<_> = areakit_testkit::corpus_files(&["mdl-bin"])
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("m10aa_"))
        })
        .filter_map(|p| {
            let wok = bwm::read(&std::fs::read(p.with_extension("wok")).ok()?).unwrap();
            let m = mdl::read(
                &std::fs::read(&p).unwrap(),
                &std::fs::read(p.with_extension("mdx")).unwrap(),
            )
            .unwrap();
            let at = models::placement_offset(&m, &wok)?;
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            Some((name, m, wok, at))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn m10aa_rooms_hold_every_sight_line_the_oracle_finds_and_meet_the_games_vis() {
    let rooms = m10aa_rooms();
    assert_eq!(rooms.len(), 5, "m10aa rooms with a model and a WOK");
    for (name, m, w, at) in &rooms {
        assert_eq!(
            models::walkmesh_mismatch(m, w, name, *at).len(),
            0,
            "{name}"
        );
    }
    let vis_rooms: Vec<VisRoom<'_>> = rooms
        .iter()
        .map(|(name, m, w, at)| VisRoom {
            name: name.clone(),
            walkmesh: Some(w),
            model: Some(m),
            position: *at,
        })
        .collect();
    // The walkmeshes' links between these five rooms, found by shared edges (the WOKs'
    // transitions number the rooms of the full LYT, which the corpus lacks).
    let links = shared_edges(&rooms);
    assert!(!links.is_empty());
    // Sampled as `check` samples this area.
    let spacing = visgen::check_spacing(&vis_rooms);
    let opts = VisOptions {
        eye_spacing: spacing,
        target_spacing: spacing,
        ..VisOptions::default()
    };
    eprintln!("m10aa: check samples every {spacing} m");
    let r = visgen::generate_vis(&vis_rooms, &links, &opts);
    assert_eq!(r.method, "sampled sight lines");
    let names: Vec<String> = rooms.iter().map(|r| r.0.clone()).collect();
    let listed = vis_pairs(&r.vis, &names);
    for &(a, b) in &links {
        assert!(listed.contains(&(a.min(b), a.max(b))));
    }

    // The oracle: eyes on the WOKs' walkable faces, targets on the models' drawn faces, every
    // opaque face hides.
    let floors: Vec<Vec<[Vec3; 3]>> = rooms
        .iter()
        .map(|(_, _, w, _)| {
            w.faces
                .iter()
                .filter(|f| f.material.is_walkable())
                .map(|f| f.vertices.map(|v| Vec3::from(w.vertices[v as usize])))
                .collect()
        })
        .collect();
    let faces: Vec<Vec<([Vec3; 3], bool)>> = rooms
        .iter()
        .map(|(_, m, _, at)| {
            visgen::occluder_faces(m, *at)
                .into_iter()
                .map(|(t, o)| (t.map(Vec3::from), o))
                .collect()
        })
        .collect();
    let drawn: Vec<Vec<[Vec3; 3]>> = faces
        .iter()
        .map(|f| f.iter().map(|x| x.0).collect())
        .collect();
    let occluders: Vec<[Vec3; 3]> = faces
        .iter()
        .flatten()
        .filter(|x| x.1)
        .map(|x| x.0)
        .collect();
    assert!(occluders.len() > 5000, "{} occluders", occluders.len());
    let oracle = Oracle::new(&floors, &drawn, occluders, (24, 60), opts.eye_height, 10);
    let found = oracle.pairs();
    for p in &found {
        assert!(
            listed.contains(p),
            "the oracle sees {} – {}, the VIS lacks it",
            names[p.0],
            names[p.1]
        );
    }

    // The game's VIS over the same rooms.
    let game = areakit_testkit::corpus_files(&["vis"])
        .into_iter()
        .find(|p| p.ends_with("m10aa.vis"))
        .unwrap();
    let game = vis::read(&std::fs::read(game).unwrap()).unwrap();
    let findings = visgen::vis_findings(&vis_rooms, &links, &game, &opts);
    let count = |code: &str| findings.iter().filter(|f| f.code == code).count();
    let game_pairs = vis_pairs(&game, &names);
    for f in &findings {
        eprintln!("{}: {}", f.code, f.message);
    }
    eprintln!(
        "m10aa (5 rooms): generated {} pairs ({} linked, {} without a sampled line), the oracle \
         {}, the game's VIS {}; vis-missing-pair {}, vis-excess-pair {}",
        r.pairs,
        r.linked_pairs,
        r.pairs_without_sampled_line,
        found.len(),
        game_pairs.len(),
        count("vis-missing-pair"),
        count("vis-excess-pair")
    );
    // The findings are exactly the differences between the game's pairs and the generated
    // ones (every generated pair here has a sight line; linked pairs are never excess).
    assert_eq!(r.pairs_without_sampled_line, 0);
    let missing = listed
        .iter()
        .filter(|p| {
            let (a, b) = (&names[p.0], &names[p.1]);
            !(game.is_visible(a, b) && game.is_visible(b, a))
        })
        .count();
    assert_eq!(count("vis-missing-pair"), missing);
    let excess = game_pairs.iter().filter(|p| !listed.contains(p)).count();
    assert_eq!(count("vis-excess-pair"), excess);
}

/// Pairs of rooms whose walkmeshes share a boundary edge (both ends within 1 cm).
fn shared_edges(rooms: &[(String, mdl::Model, bwm::Bwm, [f32; 3])]) -> Vec<(usize, usize)> {
    let edges: Vec<Vec<[Vec3; 2]>> = rooms
        .iter()
        .map(|(_, _, w, _)| {
            w.edges
                .iter()
                .filter(|e| e.transition().is_some())
                .filter_map(|e| {
                    let f = w.faces.get(e.face() as usize)?;
                    let s = e.side() as usize;
                    let a = w.vertices[f.vertices[s] as usize];
                    let b = w.vertices[f.vertices[(s + 1) % 3] as usize];
                    Some([Vec3::from(a), Vec3::from(b)])
                })
                .collect()
        })
        .collect();
    let near = |p: Vec3, q: Vec3| p.distance(q) < 0.01;
    let mut out = Vec::new();
    for a in 0..rooms.len() {
        for b in a + 1..rooms.len() {
            if edges[a].iter().any(|x| {
                edges[b].iter().any(|y| {
                    (near(x[0], y[0]) && near(x[1], y[1])) || (near(x[0], y[1]) && near(x[1], y[0]))
                })
            }) {
                out.push((a, b));
            }
        }
    }
    out
}
