"""areakit.Mdl: every corpus binary model (MDL + MDX) reads and writes back byte for byte, its
counts are those of ``areakit info --json``, its mesh arrays have consistent shapes, a path
finds the MDX beside it, truncated bytes raise with an offset, ``transform`` moves the root's
children as ``areakit transform`` does, and ``to_ascii`` gives MDL ASCII text."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import areakit
import numpy as np
import pytest

from conftest import REPO, corpus_files

EXPECTED = 136


def pairs():
    files = corpus_files("mdl-bin")
    assert len(files) == EXPECTED
    return [(p, p.with_suffix(".mdx")) for p in files]


@pytest.fixture(scope="module")
def models():
    """Every corpus pair: (mdl path, mdl bytes, mdx bytes, Mdl read from the bytes)."""
    out = []
    for mdl, mdx in pairs():
        a, x = mdl.read_bytes(), mdx.read_bytes()
        out.append((mdl, a, x, areakit.Mdl.read(a, x)))
    return out


def target_dir():
    return Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))


@pytest.fixture(scope="module")
def cli():
    """The areakit binary: the one `cargo test` built, else built here."""
    exe = target_dir() / "debug" / "areakit"
    if not exe.is_file():
        subprocess.run(
            ["cargo", "build", "--quiet", "--bin", "areakit"],
            cwd=REPO,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    assert exe.is_file(), exe
    return exe


def with_meshes(models, n=1):
    """The first `n` models whose root has children placed off the origin and meshes."""
    out = []
    for path, a, x, m in models:
        nodes = m.nodes
        moved = [c for c in nodes[0]["children"] if nodes[c]["position"][:2] != (0.0, 0.0)]
        if moved and m.counts["meshes"] > 0:
            out.append((path, a, x, m))
        if len(out) == n:
            break
    assert len(out) == n
    return out


def test_every_pair_round_trips_byte_exact(models):
    assert len(models) == EXPECTED
    games = set()
    for path, a, x, m in models:
        assert m.to_bytes() == (a, x), path
        assert m.path is None
        games.add(m.game)
    assert games <= {"k1", "k2"} and games


def test_counts_agree_with_nodes_and_meshes(models):
    for path, _, _, m in models:
        nodes, meshes = m.nodes, m.meshes()
        counts = m.counts
        assert counts == {
            "nodes": len(nodes),
            "meshes": len(meshes),
            "vertices": sum(len(d["positions"]) for d in meshes),
            "faces": sum(len(d["faces"]) for d in meshes),
            "animations": len(m.animations),
        }, path
        assert [d["node"] for d in meshes] == [i for i, n in enumerate(nodes) if n["has_mesh"]]
        assert nodes[0]["parent"] is None
        for i, n in enumerate(nodes):
            for c in n["children"]:
                assert nodes[c]["parent"] == i
            assert len(n["position"]) == 3 and len(n["orientation"]) == 4


def test_mesh_arrays_have_consistent_shapes(models):
    meshes = 0
    for path, _, _, m in models:
        for d in m.meshes():
            meshes += 1
            p, f = d["positions"], d["faces"]
            n, k = len(p), len(f)
            assert p.shape == (n, 3) and p.dtype == np.float32, path
            assert f.shape == (k, 3) and f.dtype == np.uint32, path
            assert d["material"].shape == (k,) and d["material"].dtype == np.uint32
            assert d["normals"].shape in ((0, 3), (n, 3)) and d["normals"].dtype == np.float32
            assert d["uv"].shape in ((0, 2), (n, 2)) and d["uv"].dtype == np.float32
            assert d["uv2"].shape in ((0, 2), (n, 2))
            assert d["bone_weights"].shape in ((0, 4), (n, 4))
            assert d["bone_indices"].shape in ((0, 4), (n, 4))
            if k:
                assert int(f.max()) < n, (path, d["name"])
            assert isinstance(d["texture"], str) and isinstance(d["node"], int)
            assert m.nodes[d["node"]]["name"] == d["name"]
    assert meshes == sum(m.counts["meshes"] for *_, m in models) > 0


def test_mesh_indexing(models):
    (path, _, _, m) = with_meshes(models)[0]
    all_meshes = m.meshes()
    last = m.mesh(-1)
    assert last["node"] == all_meshes[-1]["node"]
    assert m.mesh(0)["node"] == all_meshes[0]["node"]
    by_name = m.mesh(all_meshes[0]["name"].upper())
    assert by_name["node"] == all_meshes[0]["node"]
    assert np.array_equal(by_name["positions"], all_meshes[0]["positions"])
    with pytest.raises(IndexError):
        m.mesh(len(all_meshes))
    with pytest.raises(KeyError):
        m.mesh("no such node")


def test_counts_and_header_equal_the_cli_info(cli, models):
    picked = [models[0], models[len(models) // 2], models[-1]]
    picked.append(max(models, key=lambda t: len(t[1])))
    picked.append(max(models, key=lambda t: t[3].counts["animations"]))
    for path, _, _, m in picked:
        out = subprocess.run(
            [str(cli), "info", "--json", str(path)], check=True, capture_output=True
        )
        info = json.loads(out.stdout)
        assert info["format"] == "mdl"
        assert m.counts == {
            "nodes": info["nodes"]["total"],
            "meshes": info["meshes"],
            "vertices": info["vertices"],
            "faces": info["faces"],
            "animations": info["animations"],
        }, path
        assert m.game == info["game"]
        assert m.name == info["name"]
        assert m.classification == info["classification"]
        sup = info["supermodel"]
        assert m.supermodel == (None if sup.upper() in ("", "NULL") else sup)
        assert m.bounds == (tuple(info["bounds"]["min"]), tuple(info["bounds"]["max"]))
        assert m.radius == info["radius"]
        # info() goes through the same library call as the CLI.
        mine = areakit.Mdl.read(path).info()
        assert {k: v for k, v in mine.items() if k != "path"} == {
            k: v for k, v in info.items() if k != "path"
        }


def test_reading_a_path_finds_the_mdx(models, tmp_path):
    (path, a, x, m) = with_meshes(models)[0]
    for source in (str(path), path):
        from_path = areakit.Mdl.read(source)
        assert from_path == m
        assert from_path.path == str(path)
        assert from_path.to_bytes() == (a, x)
    # An explicit mdx wins over the one beside the model.
    assert areakit.Mdl.read(path, x) == m
    assert areakit.Mdl.read(bytearray(a), memoryview(x)) == m
    # Copied with its MDX: found; without it: an error naming the missing MDX.
    shutil.copy(path, tmp_path / "room.mdl")
    with pytest.raises(areakit.FormatError) as e:
        areakit.Mdl.read(tmp_path / "room.mdl")
    assert "room.mdx" in str(e.value) and e.value.path == str(tmp_path / "room.mdl")
    shutil.copy(path.with_suffix(".mdx"), tmp_path / "room.mdx")
    assert areakit.Mdl.read(tmp_path / "room.mdl") == m
    # write() puts the MDX beside the MDL.
    m.write(tmp_path / "out.mdl")
    assert (tmp_path / "out.mdl").read_bytes() == a
    assert (tmp_path / "out.mdx").read_bytes() == x


def test_a_truncated_mdl_raises_with_an_offset(models, tmp_path):
    (path, a, x, _) = with_meshes(models)[0]
    # Empty bytes hold no NUL, so the one detection judges them as (empty) text: an error
    # at line 1, column 1.
    with pytest.raises(areakit.FormatError) as e:
        areakit.Mdl.read(b"", x)
    assert e.value.line == 1 and e.value.path is None, e.value
    for cut in (11, len(a) // 2, len(a) - 1):
        with pytest.raises(areakit.FormatError) as e:
            areakit.Mdl.read(a[:cut], x)
        assert e.value.offset is not None, (cut, e.value)
        assert "offset 0x" in str(e.value) and e.value.path is None
    (tmp_path / "cut.mdl").write_bytes(a[: len(a) // 2])
    (tmp_path / "cut.mdx").write_bytes(x)
    with pytest.raises(areakit.FormatError) as e:
        areakit.Mdl.read(tmp_path / "cut.mdl")
    assert e.value.path == str(tmp_path / "cut.mdl") and e.value.offset is not None
    assert str(tmp_path / "cut.mdl") in str(e.value)
    with pytest.raises(TypeError):
        areakit.Mdl.read(12)


def test_rotate_moves_the_roots_children(models):
    for path, a, x, m in with_meshes(models, 3):
        before = m.nodes
        meshes_before = m.meshes()
        m2 = m.copy()
        m2.transform(rotate=90)
        assert m2 != m and m == areakit.Mdl.read(a, x)
        back = areakit.Mdl.read(*m2.to_bytes())
        after = back.nodes
        children = set(before[0]["children"])
        for i, (b, c) in enumerate(zip(before, after)):
            if i in children:
                bx, by, bz = b["position"]
                assert c["position"] == (-by, bx, bz), (path, b["name"])
            else:
                assert c["position"] == b["position"], (path, b["name"])
        # The vertices stay: the placement moved.
        for d0, d1 in zip(meshes_before, back.meshes()):
            assert np.array_equal(d0["positions"], d1["positions"])
        # Four quarter turns bring the positions back.
        for _ in range(3):
            m2.transform(rotate=90)
        assert [n["position"] for n in m2.nodes] == [n["position"] for n in before]


def test_transform_equals_the_cli(cli, models, tmp_path):
    (path, a, x, m) = with_meshes(models)[0]
    out = tmp_path / "out.mdl"
    subprocess.run(
        [str(cli), "transform", str(path), "-o", str(out),
         "--mirror", "x", "--rotate", "90", "--translate", "1,2,3"],
        check=True,
        capture_output=True,
    )
    m2 = m.copy()
    m2.transform(translate=(1, 2, 3), rotate=90, mirror="x")
    assert m2.to_bytes() == (out.read_bytes(), out.with_suffix(".mdx").read_bytes())


def test_transform_arguments():
    m = areakit.Mdl.read(*[p.read_bytes() for p in pairs()[0]])
    with pytest.raises(ValueError):
        m.transform(mirror="z")
    with pytest.raises(ValueError):
        m.transform(rotate=float("nan"))
    with pytest.raises(ValueError):
        m.transform(translate=(0, float("inf"), 0))
    assert m.transform() is None


def test_to_ascii_is_mdl_ascii(models):
    (path, a, x, m) = with_meshes(models)[0]
    text = m.to_ascii()
    assert isinstance(text, str)
    assert text.lstrip().startswith("newmodel"), text[:200]
    assert f"newmodel {m.name}" in text
    parsed = areakit.MdlAscii.read(text.encode("latin-1"))
    assert parsed.name == m.name
    assert sum(parsed.nodes_by_type.values()) == m.counts["nodes"]


def test_repr_copy_and_properties(models):
    (path, a, x, m) = with_meshes(models)[0]
    r = repr(m)
    assert r.startswith("<Mdl ") and f"{m.counts['nodes']} nodes" in r
    assert m.copy() == m and m.copy() is not m
    (lo, hi) = m.bounds
    assert len(lo) == 3 and len(hi) == 3
    assert isinstance(m.classification, int)
    assert m.supermodel is None or m.supermodel.upper() != "NULL"
    assert all(isinstance(n, str) for n in m.animations)
    assert m.check() == [] or all(f.code for f in m.check())
