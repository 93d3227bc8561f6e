//! Reading and writing the records both compiled-model layouts share ([`super::common`]):
//! geometry headers, events, faces, lights and AABB trees.

use super::common::*;
use super::le::*;
use super::space::{Array, Fail, Out, Space, array_at, bad};
use crate::error::DecodeError;

/// The size of a geometry header with an `N`-byte name.
pub(crate) const fn geometry_size<const N: usize>() -> usize {
    48 + N
}

/// The geometry header at the start of `h`, and its root-node pointer.
pub(crate) fn read_geometry<const N: usize>(h: &[u8]) -> (GeometryHeader<N>, u32) {
    let o = 8 + N;
    let mut runtime = [0u32; 6];
    for (i, slot) in runtime.iter_mut().enumerate() {
        *slot = le_u32(h, o + 8 + 4 * i);
    }
    let g = GeometryHeader {
        function_pointers: [le_u32(h, 0), le_u32(h, 4)],
        name: Name(bytes_n(h, 8)),
        node_count: le_u32(h, o + 4),
        runtime,
        ref_count: le_u32(h, o + 32),
        model_type: h[o + 36],
        padding: [h[o + 37], h[o + 38], h[o + 39]],
    };
    (g, le_u32(h, o))
}

/// The bytes of a geometry header whose root node is at `root`.
pub(crate) fn geometry_bytes<const N: usize>(g: &GeometryHeader<N>, root: u32) -> Vec<u8> {
    let mut b = Vec::with_capacity(geometry_size::<N>() + 120);
    push_u32s(&mut b, &g.function_pointers);
    b.extend_from_slice(&g.name.0);
    push_u32(&mut b, root);
    push_u32(&mut b, g.node_count);
    push_u32s(&mut b, &g.runtime);
    push_u32(&mut b, g.ref_count);
    b.push(g.model_type);
    b.extend_from_slice(&g.padding);
    b
}

/// Size of one event record.
pub(crate) const EVENT: usize = 36;

/// The events an array header names.
pub(crate) fn read_events(
    space: &mut Space<'_>,
    words: &mut Vec<u32>,
    a: Array,
) -> Result<Vec<Event>, DecodeError> {
    let ev = space.array(words, a, EVENT as u64, "the animation events")?;
    Ok(ev
        .chunks_exact(EVENT)
        .map(|c| Event {
            time: le_f32(c, 0),
            name: Name(bytes_n(c, 4)),
        })
        .collect())
}

/// Places the events; returns their array header.
pub(crate) fn write_events(out: &mut Out<'_>, events: &[Event]) -> Result<[u32; 3], Fail> {
    let mut b = Vec::with_capacity(events.len() * EVENT);
    for e in events {
        push_f32s(&mut b, &[e.time]);
        b.extend_from_slice(&e.name.0);
    }
    out.array_of(events.len(), &b, "events")
}

/// Size of one face record.
pub(crate) const FACE: usize = 32;

/// The faces an array header names.
pub(crate) fn read_faces(
    space: &mut Space<'_>,
    words: &mut Vec<u32>,
    a: Array,
) -> Result<Vec<Face>, DecodeError> {
    let faces = space.array(words, a, FACE as u64, "the faces")?;
    Ok(faces
        .chunks_exact(FACE)
        .map(|c| Face {
            normal: vec3(c, 0),
            distance: le_f32(c, 12),
            material: le_u32(c, 16),
            adjacent: [le_u16(c, 20), le_u16(c, 22), le_u16(c, 24)],
            vertices: [le_u16(c, 26), le_u16(c, 28), le_u16(c, 30)],
        })
        .collect())
}

/// Places the faces; returns their array header.
pub(crate) fn write_faces(out: &mut Out<'_>, faces: &[Face]) -> Result<[u32; 3], Fail> {
    let mut b = Vec::with_capacity(faces.len() * FACE);
    for f in faces {
        push_f32s(&mut b, &f.normal);
        push_f32s(&mut b, &[f.distance]);
        push_u32(&mut b, f.material);
        push_u16s(&mut b, &f.adjacent);
        push_u16s(&mut b, &f.vertices);
    }
    out.array_of(faces.len(), &b, "faces")
}

/// The light header `h` and its arrays.
pub(crate) fn read_light(
    space: &mut Space<'_>,
    words: &mut Vec<u32>,
    h: &[u8],
) -> Result<Light, DecodeError> {
    let unknown = space.array(words, array_at(h, 4), 4, "the light's unknown array")?;
    let sizes = space.array(words, array_at(h, 16), 4, "the flare sizes")?;
    let positions = space.array(words, array_at(h, 28), 4, "the flare positions")?;
    let shifts = space.array(words, array_at(h, 40), 12, "the flare colour shifts")?;
    let textures = space.array(words, array_at(h, 52), 4, "the flare texture offsets")?;
    let mut names = Vec::with_capacity(textures.len() / 4);
    for c in textures.chunks_exact(4) {
        names.push(space.string(le_u32(c, 0), "a flare texture name")?);
    }
    Ok(Light {
        flare_radius: le_f32(h, 0),
        unknown: super::le::words(unknown),
        flare_sizes: floats(sizes),
        flare_positions: floats(positions),
        flare_color_shifts: f32_rows(shifts),
        flare_textures: names,
        priority: le_u32(h, 64),
        ambient_only: le_u32(h, 68),
        dynamic_type: le_u32(h, 72),
        affect_dynamic: le_u32(h, 76),
        shadow: le_u32(h, 80),
        flare: le_u32(h, 84),
        fading: le_u32(h, 88),
    })
}

/// Places a light's arrays and appends its header to `h`.
pub(crate) fn write_light(out: &mut Out<'_>, l: &Light, h: &mut Vec<u8>) -> Result<(), Fail> {
    let unknown = out.array_of(l.unknown.len(), &u32_bytes(&l.unknown), "light words")?;
    let sizes = out.array_of(
        l.flare_sizes.len(),
        &f32_bytes(&l.flare_sizes),
        "flare sizes",
    )?;
    let positions = out.array_of(
        l.flare_positions.len(),
        &f32_bytes(&l.flare_positions),
        "flare positions",
    )?;
    let shifts = out.array_of(
        l.flare_color_shifts.len(),
        &f32_rows_bytes(&l.flare_color_shifts),
        "flare colour shifts",
    )?;
    let textures = out.array(l.flare_textures.len(), 4, "flare textures")?;
    let mut table = Vec::new();
    for t in &l.flare_textures {
        push_u32(&mut table, out.string(t, "the flare texture")?);
    }
    out.sink.put(textures[0], &table);
    push_f32s(h, &[l.flare_radius]);
    for a in [unknown, sizes, positions, shifts, textures] {
        push_u32s(h, &a);
    }
    push_u32s(
        h,
        &[
            l.priority,
            l.ambient_only,
            l.dynamic_type,
            l.affect_dynamic,
            l.shadow,
            l.flare,
            l.fading,
        ],
    );
    Ok(())
}

/// Size of one AABB tree node.
pub(crate) const AABB_NODE: usize = 40;

/// The AABB tree whose root is at `root`, in pre-order.
pub(crate) fn read_aabb(space: &mut Space<'_>, root: u32) -> Result<Aabb, DecodeError> {
    let mut tree: Vec<AabbNode> = Vec::new();
    let limit = space.data.len() / AABB_NODE + 1;
    // Pre-order with an explicit stack: (pointer, parent index, is right child). A cycle or a
    // shared subtree repeats nodes until the limit: bounded work, one error.
    let mut stack = vec![(root, None::<(usize, bool)>)];
    while let Some((p, parent)) = stack.pop() {
        if tree.len() >= limit {
            return Err(space.err(
                u64::from(p),
                "the AABB tree has a cycle or more nodes than the file can hold",
            ));
        }
        let b = space.block(p, AABB_NODE as u64, "an AABB tree node")?;
        let i = tree.len() as u32;
        tree.push(AabbNode {
            min: vec3(b, 0),
            max: vec3(b, 12),
            left: None,
            right: None,
            face: le_i32(b, 32),
            plane: le_u32(b, 36),
        });
        if let Some((pi, right)) = parent {
            if right {
                tree[pi].right = Some(i);
            } else {
                tree[pi].left = Some(i);
            }
        }
        let (l, r) = (le_u32(b, 24), le_u32(b, 28));
        if r != 0 {
            stack.push((r, Some((i as usize, true))));
        }
        if l != 0 {
            stack.push((l, Some((i as usize, false))));
        }
    }
    Ok(Aabb { tree })
}

/// Places an AABB tree in pre-order; returns the root's offset. `node` names the tree's node
/// in messages.
pub(crate) fn write_aabb(out: &mut Out<'_>, a: &Aabb, node: &str) -> Result<u32, Fail> {
    if a.tree.is_empty() {
        return Err(bad(format!("node {node}: an aabb node with an empty tree")));
    }
    let mut at = vec![None::<u32>; a.tree.len()];
    let mut order = Vec::with_capacity(a.tree.len());
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        let t = a
            .tree
            .get(i)
            .ok_or_else(|| bad(format!("node {node}: AABB child {i} is not there")))?;
        if at[i].is_some() {
            return Err(bad(format!(
                "node {node}: the AABB tree reaches node {i} twice"
            )));
        }
        at[i] = Some(out.sink.place(AABB_NODE, true)?);
        order.push(i);
        if let Some(r) = t.right {
            stack.push(r as usize);
        }
        if let Some(l) = t.left {
            stack.push(l as usize);
        }
    }
    if order.len() != a.tree.len() {
        return Err(bad(format!(
            "node {node}: {} of the {} AABB nodes are not reached from the root",
            a.tree.len() - order.len(),
            a.tree.len()
        )));
    }
    for i in order {
        let t = &a.tree[i];
        let mut b = Vec::with_capacity(AABB_NODE);
        push_f32s(&mut b, &t.min);
        push_f32s(&mut b, &t.max);
        let child = |c: Option<u32>| c.and_then(|c| at[c as usize]).unwrap_or(0);
        push_u32(&mut b, child(t.left));
        push_u32(&mut b, child(t.right));
        push_u32(&mut b, t.face as u32);
        push_u32(&mut b, t.plane);
        out.sink.put(at[i].unwrap_or(0), &b);
    }
    Ok(at[0].unwrap_or(0))
}
