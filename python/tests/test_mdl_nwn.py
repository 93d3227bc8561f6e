"""areakit.Mdl on NWN compiled models: every corpus model reads (``game == "nwn"``) and writes
back byte for byte, its counts are those of ``areakit info --json``, its mesh arrays have
consistent shapes, ``to_ascii`` gives NWN's dialect that ``MdlAscii`` reads, and
``transform`` moves the model and writes it."""

import areakit
import numpy as np
import pytest

from conftest import corpus_files


@pytest.fixture(scope="module")
def models():
    files = corpus_files("nwn-mdl-bin")
    assert len(files) == 108
    return [(p, p.read_bytes(), areakit.Mdl.read(p)) for p in files]


def test_every_model_reads_and_writes_back_byte_for_byte(models):
    for path, data, m in models:
        assert m.game == "nwn", path
        mdl, mdx = m.to_bytes()
        assert mdl == data and mdx == b"", path
        assert areakit.Mdl.read(data) == m
        assert m.check() == [], path


def test_counts_are_infos_and_meshes_have_consistent_shapes(models):
    for path, _, m in models:
        info = m.info()
        c = m.counts
        assert c["nodes"] == info["nodes"]["total"] and c["faces"] == info["faces"], path
        assert len(m.nodes) == c["nodes"] and m.nodes[0]["parent"] is None
        meshes = m.meshes()
        assert len(meshes) == c["meshes"]
        assert sum(len(x["positions"]) for x in meshes) == c["vertices"]
        for x in meshes:
            n = len(x["positions"])
            assert x["faces"].shape == (len(x["material"]), 3)
            assert x["faces"].size == 0 or int(x["faces"].max()) < n
            assert len(x["normals"]) in (0, n) and len(x["uv"]) in (0, n)
            assert x["bone_weights"].shape in ((0, 4), (n, 4))


def test_to_ascii_is_nwn_text_that_reads(models):
    for path, _, m in models[:10] + models[-5:]:
        text = m.to_ascii()
        assert text.startswith("# NWN MDL ASCII"), path
        t = areakit.MdlAscii.read(text.encode("latin-1"))
        assert t.info()["nodes"] == m.counts["nodes"], path


def test_a_transformed_tile_writes_and_reads_back(models, tmp_path):
    path, data, m = next(x for x in models if "ttd01" in x[0].name)
    t = m.copy()
    t.transform(rotate=90, translate=(10, 0, 0))
    assert t != m
    t.write(tmp_path / "turned.mdl")
    back = areakit.Mdl.read(tmp_path / "turned.mdl")
    assert back == t and not (tmp_path / "turned.mdx").exists()
    a = m.meshes()[0]["positions"]
    b = back.meshes()[0]["positions"]
    assert np.array_equal(a, b), "vertices stay; the node moves"
    moved = [n["position"] for n in back.nodes if n["parent"] == 0]
    before = [n["position"] for n in m.nodes if n["parent"] == 0]
    for (x, y, z), (x2, y2, z2) in zip(before, moved):
        assert abs(-y + 10 - x2) < 1e-4 and abs(x - y2) < 1e-4 and abs(z - z2) < 1e-4
