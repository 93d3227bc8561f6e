"""Bwm: arrays, edits, derived tables, rebuild/transform, and queries — NumPy batches equal
one-at-a-time answers on every corpus walkmesh."""

import copy

import areakit
import numpy as np
import pytest

from conftest import corpus_files


def walkmeshes():
    files = corpus_files("wok", "bwm", "pwk")
    assert len(files) == 112
    return files


def sample_points(m, n, seed):
    (lx, ly, lz), (hx, hy, hz) = m.bounds
    rng = np.random.default_rng(seed)
    xs = rng.uniform(lx - 1, hx + 1, n)
    ys = rng.uniform(ly - 1, hy + 1, n)
    zs = rng.uniform(lz - 1, hz + 1, n)
    return xs, ys, zs


def test_arrays_match_the_model():
    for path in walkmeshes():
        m = areakit.Bwm.read(path)
        v, f, mat = m.vertices, m.faces, m.materials
        assert v.dtype == np.float32 and v.shape == (len(v), 3)
        assert f.dtype == np.uint32 and f.shape == (len(f), 3)
        assert mat.shape == (len(f),) and m.walkable.dtype == bool
        if len(f):
            assert f.max() < len(v)
        # Stored tables of a game file: walkable faces first, adjacency for those only.
        assert m.adjacency.shape == (m.walkable_face_count, 3)
        assert m.normals.shape == (len(f), 3) and m.distances.shape == (len(f),)
        assert m.aabb_bounds.shape == (len(m.aabb_links), 2, 3)
        assert m.edges.shape[1:] in ((2,), ())
        assert m.info()["faces"] == len(f)
        assert m.kind in ("wok", "pwk")


def test_batch_queries_equal_one_at_a_time():
    checked = hits = 0
    for path in walkmeshes():
        m = areakit.Bwm.read(path)
        if len(m.faces) == 0:
            continue
        xs, ys, zs = sample_points(m, 40, 7)
        faces = m.face_at(xs, ys)
        faces_z = m.face_at(xs, ys, zs)
        heights = m.height_at(xs, ys, zs)
        assert faces.dtype == np.int64 and faces.shape == xs.shape
        for i, (x, y, z) in enumerate(zip(xs.tolist(), ys.tolist(), zs.tolist())):
            one = m.face_at(x, y)
            assert (one if one is not None else -1) == faces[i]
            one = m.face_at(x, y, z)
            assert (one if one is not None else -1) == faces_z[i]
            h = m.height_at(x, y, z)
            assert (np.isnan(heights[i]) if h is None else np.float32(h) == heights[i])
            q = m.query(x, y, z)
            assert q["face"] == (None if faces_z[i] < 0 else faces_z[i])
            hits += faces[i] >= 0
        # Rays straight down from above, and nearest walkable points.
        origins = np.stack([xs, ys, np.full_like(xs, 1000.0)], axis=1)
        rf, rd, rp = m.raycast(origins, (0.0, 0.0, -1.0))
        nf, npts, nd = m.nearest_walkable(np.stack([xs, ys, zs], axis=1))
        for i in range(5):
            one = m.raycast(origins[i], (0, 0, -1))
            assert (one["face"] if one else -1) == rf[i]
            if one:
                assert np.float32(one["distance"]) == rd[i]
            near = m.nearest_walkable((xs[i], ys[i], zs[i]))
            assert (near["face"] if near else -1) == nf[i]
        checked += 1
    assert checked == 112
    assert hits > 1000  # the samples do land on the meshes


def test_batch_shapes_and_scalars():
    m = areakit.Bwm.read(corpus_files("wok")[0])
    xs, ys, _ = sample_points(m, 12, 3)
    grid = m.face_at(xs.reshape(3, 4), ys.reshape(3, 4))
    assert grid.shape == (3, 4)
    assert (grid.ravel() == m.face_at(xs, ys)).all()
    assert m.face_at(list(xs), list(ys)).tolist() == m.face_at(xs, ys).tolist()
    assert m.face_at(np.float32(xs[0]), ys[0]) == m.face_at(float(xs[0]), float(ys[0]))
    assert m.face_at(1e9, 1e9) is None
    assert np.isnan(m.height_at(np.array([1e9]), np.array([1e9]))).all()
    with pytest.raises(ValueError):
        m.face_at(np.zeros(3), np.zeros(4))


def test_from_arrays_edit_rebuild_transform(tmp_path):
    verts = [[0, 0, 0], [4, 0, 0], [4, 4, 0], [0, 4, 0]]
    m = areakit.Bwm.from_arrays(verts, [[0, 1, 2], [0, 2, 3]], [4, 4])
    assert m.kind == "wok" and len(m.faces) == 2 and m.walkable.all()
    assert m.face_at(3.0, 1.0) is not None and m.face_at(1.0, 3.0) is not None
    assert m.face_at(5.0, 5.0) is None
    assert m.height_at(1.0, 1.0) == 0.0
    assert len(m.perimeters) == 1 and len(m.edges) == 4
    back = areakit.Bwm.read(m.to_bytes())
    assert back == m and back != areakit.Bwm()

    moved = m.transform(translate=(10, 0, 2), rotate=90)
    assert moved.face_at(8.0, 1.0) is not None  # (1, 1) rotated to (-1, 1), then +10 in x
    assert moved.height_at(8.0, 1.0) == pytest.approx(2.0)
    assert m.face_at(1.0, 1.0) is not None  # the original is unchanged

    # Editing the geometry drops the query cache: the mesh answers at its new place.
    edited = copy.copy(m)
    v = edited.vertices
    v[:, 2] += 5
    edited.vertices = v
    assert edited.height_at(1.0, 1.0) == pytest.approx(5.0)
    assert m.height_at(1.0, 1.0) == 0.0
    mats = edited.materials
    mats[:] = 7  # non-walkable
    edited.materials = mats
    assert not edited.walkable.any() and edited.height_at(1.0, 1.0) is None
    rebuilt = edited.rebuild()
    assert rebuilt.walkable_face_count == 0

    with pytest.raises(IndexError):
        areakit.Bwm.from_arrays(verts, [[0, 1, 9]])
    with pytest.raises(ValueError):
        m.faces = np.zeros((3, 3), dtype=np.uint32)
    with pytest.raises(ValueError):
        m.transform(mirror="z")

    out = tmp_path / "a.wok"
    m.write(out)
    assert out.read_bytes() == m.to_bytes()
    assert areakit.Bwm.read(out) == m


def test_rebuild_repairs_the_damaged_corpus_file():
    damaged = [p for p in corpus_files("wok") if p.name == "out.wok"]
    assert len(damaged) == 1
    m = areakit.Bwm.read(damaged[0])
    codes = {f.code for f in m.check()}
    assert codes, "the damaged file has findings"
    fixed = m.rebuild()
    assert len(fixed.aabb_links) == 2 * len(fixed.faces) - 1
    assert len(fixed.perimeters) > 0
    assert not any(f.is_error for f in fixed.check())


def test_kind_and_hooks():
    pwk = corpus_files("pwk")
    assert len(pwk) == 3
    m = areakit.Bwm.read(pwk[0])
    assert m.kind == "pwk" and m.walkmesh_type == 0
    assert areakit.Bwm.read(pwk[0].read_bytes(), kind="dwk").kind == "dwk"
    assert set(m.hooks) == {"relative_use", "absolute_use", "position"}
    m.position = (1, 2, 3)
    assert m.position == (1.0, 2.0, 3.0)
    assert areakit.Bwm.read(m.to_bytes()).position == (1.0, 2.0, 3.0)
    assert areakit.Bwm.material_name(4) == "stone"
    assert "Bwm pwk" in repr(m)
