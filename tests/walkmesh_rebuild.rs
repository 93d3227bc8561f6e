//! Rebuilding the derived data of every corpus BWM from vertices, faces and materials alone,
//! compared section by section with what the tools stored.

mod common;

use areakit::walkmesh;
use areakit_formats::bwm;

#[derive(Default, Debug)]
struct Tally {
    files: usize,
    identical: usize,
    order: usize,
    normals: usize,
    distances: usize,
    adjacency: usize,
    edges: usize,
    perimeters: usize,
    aabb: usize,
    faces: usize,
    normal_faces: usize,
    distance_faces: usize,
}

#[test]
fn corpus_rebuild_matches_sections() {
    let files = common::corpus_files(&["wok", "bwm", "pwk"]);
    assert_eq!(files.len(), 112);
    let mut t = Tally::default();
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let m = bwm::read(&data).unwrap();
        let r = walkmesh::rebuild(&m).unwrap();
        let name = path
            .strip_prefix(common::corpus_dir())
            .unwrap()
            .display()
            .to_string();
        t.files += 1;
        let same_bytes = bwm::write(&r).unwrap() == data;
        t.identical += same_bytes as usize;
        let order = r.faces == m.faces;
        t.order += order as usize;
        let bits = |v: &[[f32; 3]]| v.iter().map(|a| a.map(f32::to_bits)).collect::<Vec<_>>();
        let n = bits(&r.normals) == bits(&m.normals);
        let d = r.distances.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
            == m.distances.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let a = r.adjacency == m.adjacency;
        let e = r.edges == m.edges;
        let p = r.perimeters == m.perimeters;
        let x = r.aabb_nodes == m.aabb_nodes;
        t.faces += m.faces.len();
        t.normal_faces += r
            .normals
            .iter()
            .zip(&m.normals)
            .filter(|(a, b)| a.map(f32::to_bits) == b.map(f32::to_bits))
            .count();
        t.distance_faces += r
            .distances
            .iter()
            .zip(&m.distances)
            .filter(|(a, b)| a.to_bits() == b.to_bits())
            .count();
        t.normals += n as usize;
        t.distances += d as usize;
        t.adjacency += a as usize;
        t.edges += e as usize;
        t.perimeters += p as usize;
        t.aabb += x as usize;
        if let Some(i) = r
            .aabb_nodes
            .iter()
            .zip(&m.aabb_nodes)
            .position(|(a, b)| a != b)
        {
            if r.aabb_nodes
                .iter()
                .zip(&m.aabb_nodes)
                .all(|(a, b)| a.face == b.face)
            {
                println!(
                    "AABBSAMEFACES {name}\n  {:?}\n  {:?}",
                    r.aabb_nodes[i], m.aabb_nodes[i]
                );
            }
        }
        if !(a && e && p) {
            println!(
                "  ADJ {:?}\n  MINE {:?}",
                m.adjacency.iter().take(6).collect::<Vec<_>>(),
                r.adjacency.iter().take(6).collect::<Vec<_>>()
            );
            println!(
                "  EDGES {:?}\n  MINE {:?}",
                m.edges
                    .iter()
                    .map(|e| (e.edge, e.transition))
                    .take(40)
                    .collect::<Vec<_>>(),
                r.edges
                    .iter()
                    .map(|e| (e.edge, e.transition))
                    .take(40)
                    .collect::<Vec<_>>()
            );
            println!("  PERIM {:?}\n  MINE {:?}", m.perimeters, r.perimeters);
        }
        if !same_bytes {
            let nn = r
                .normals
                .iter()
                .zip(&m.normals)
                .filter(|(a, b)| a.map(f32::to_bits) != b.map(f32::to_bits))
                .count();
            let nd = r
                .distances
                .iter()
                .zip(&m.distances)
                .filter(|(a, b)| a.to_bits() != b.to_bits())
                .count();
            let fa = r
                .aabb_nodes
                .iter()
                .zip(&m.aabb_nodes)
                .position(|(a, b)| a != b);
            println!(
                "DIFF {name}: faces {} order {order} normals {n}({nn}) dist {d}({nd}) adj {a} edges {e} perim {p} aabb {x} first-aabb-diff {fa:?}",
                m.faces.len()
            );
        }
    }
    println!("{t:#?}");
}
