"""Every corpus file of every format the package reads: read, then byte-exact round trip
(bytes and path inputs, to_bytes and write), counts asserted."""

import areakit
import pytest

from conftest import corpus_files, is_corrupted

# (class, SOURCES.tsv formats, files expected, of which deliberately corrupted)
CASES = [
    (areakit.Bwm, ("wok", "bwm", "pwk"), 112, 0),
    (areakit.Lyt, ("lyt",), 13, 0),
    (areakit.Vis, ("vis",), 11, 0),
    (areakit.MdlAscii, ("mdl-ascii", "wok-ascii", "pwk-ascii"), 380, 0),
    (areakit.Trx, ("trx", "trn"), 70, 0),
    (areakit.Gff, ("gff",), 35, 0),
    (areakit.TwoDa, ("2da",), 14, 1),
    (areakit.Erf, ("erf",), 79, 1),
    (areakit.Rim, ("rim",), 3, 1),
]


@pytest.mark.parametrize("cls,formats,expected,corrupted", CASES, ids=[c[0].__name__ for c in CASES])
def test_round_trip_byte_exact(cls, formats, expected, corrupted):
    files = corpus_files(*formats)
    assert len(files) == expected
    exact = rejected = 0
    for path in files:
        data = path.read_bytes()
        try:
            model = cls.read(data)
        except areakit.FormatError as e:
            # Only PyKotor's deliberately broken files may fail, and with a location.
            assert is_corrupted(path), f"{path}: {e}"
            assert e.path is None and (e.offset is not None or e.line is not None), e
            with pytest.raises(areakit.FormatError) as again:
                cls.read(path)
            assert again.value.path == str(path)
            rejected += 1
            continue
        assert model.to_bytes() == data, path
        from_path = cls.read(str(path))
        assert from_path == model
        assert from_path.path == str(path)
        exact += 1
    assert rejected == corrupted
    assert exact == expected - corrupted


def test_write_is_byte_exact_and_atomic(tmp_path):
    files = corpus_files("wok", "bwm", "pwk")
    assert len(files) == 112
    for i, path in enumerate(files):
        out = tmp_path / f"{i}{path.suffix}"
        areakit.Bwm.read(path).write(out)
        assert out.read_bytes() == path.read_bytes(), path
    # No temporary file is left beside the outputs.
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
    assert len(list(tmp_path.iterdir())) == 112


def test_capsule_members_decode():
    """Members of the ERF/MOD capsules come out as bytes the other classes read."""
    files = [p for p in corpus_files("erf") if not is_corrupted(p)]
    assert len(files) == 78
    members = gffs = 0
    for path in files:
        erf = areakit.Erf.read(path)
        assert len(erf) == len(erf.resources)
        for name, size in erf.resources:
            data = erf.resource(name)
            assert data is not None and len(data) == size
            members += 1
            if name.endswith((".git", ".are", ".ifo", ".utp", ".utd")):
                g = areakit.Gff.read(data)
                assert g.to_bytes() == data
                assert g.file_type.strip().lower() == name.rsplit(".", 1)[1]
                gffs += 1
    assert members > 0 and gffs > 0
    assert erf.resource("no-such-member.xyz") is None


def test_trx_bake_and_walkmesh():
    files = corpus_files("trx", "trn")
    assert len(files) == 70
    trn = [p for p in files if p.suffix.lower() == ".trn"]
    assert trn
    t = areakit.Trx.read(trn[0])
    assert t.format == "trn"
    baked = t.bake()
    assert baked.format == "trx" and baked.island_count > 0
    assert areakit.Trx.read(baked.to_bytes()) == baked
    assert t.vertices.shape[1] == 3 and t.triangles.shape[1] == 3
    assert t.triangles.max() < len(t.vertices)


def test_gff_fields_as_python_values():
    """Every corpus GFF as Python values: root fields by label, nested lists of dicts, typed."""
    files = corpus_files("gff")
    assert len(files) == 35
    utps = gits = placed = 0
    for path in files:
        g = areakit.Gff.read(path)
        d = g.to_dict()
        assert isinstance(d, dict) and d, path
        for label, value in d.items():
            assert label in g and g[label] == value
        assert "no such field" not in g
        with pytest.raises(KeyError):
            g["no such field"]
        with_ids = g.to_dict(struct_ids=True)
        assert with_ids["__struct_id__"] == 0xFFFFFFFF
        assert {k: v for k, v in with_ids.items() if k != "__struct_id__"}.keys() == d.keys()
        kind = g.file_type.strip()
        if kind == "UTP":
            utps += 1
            assert isinstance(d["Appearance"], int) and isinstance(d["TemplateResRef"], str)
            assert set(d["LocName"]) == {"strref", "strings"}
        if kind == "GIT":
            gits += 1
            for p in d.get("Placeable List", []) + d.get("Door List", []):
                assert all(isinstance(p[c], float) for c in ("X", "Y", "Z")), path
                assert isinstance(p["TemplateResRef"], str)
                placed += 1
    assert utps > 0 and gits > 0 and placed > 0

