"""Areas built in the test (no complete KotOR module is public): Area.open, rooms, links,
path; areakit.path and areakit.check against the same engine as the CLI."""

import areakit
import numpy as np
import pytest

from conftest import corpus_files


def square(x0, y0, size=10.0, transitions=None):
    v = [[x0, y0, 0], [x0 + size, y0, 0], [x0 + size, y0 + size, 0], [x0, y0 + size, 0]]
    return areakit.Bwm.from_arrays(v, [[0, 1, 2], [0, 2, 3]], [4, 4])


@pytest.fixture
def two_rooms(tmp_path):
    a, b = square(0, 0), square(10, 0)
    a.write(tmp_path / "demo_a.wok")
    b.write(tmp_path / "demo_b.wok")
    lyt = areakit.Lyt()
    lyt.rooms = [("demo_a", (0, 0, 0)), ("demo_b", (0, 0, 0))]
    lyt.write(tmp_path / "demo.lyt")
    return tmp_path


def test_area_open_rooms_and_path(two_rooms):
    area = areakit.Area.open(two_rooms)
    assert area.resref == "demo"
    assert [r["name"] for r in area.rooms] == ["demo_a", "demo_b"]
    assert all(isinstance(r["walkmesh"], areakit.Bwm) for r in area.rooms)
    assert area.lyt.rooms[1][0] == "demo_b"
    assert area.vis is None
    r = area.path((1.0, 5.0), (19.0, 5.0))
    assert r.found and bool(r)
    assert r.length == pytest.approx(18.0, abs=1e-3)
    assert r.rooms == ["demo_a", "demo_b"]
    assert r.points.shape == (2, 3)
    d = r.to_dict()
    assert d["found"] and d["mode"] == "optimal" and d["rooms"] == r.rooms
    fast = area.path((1.0, 5.0), (19.0, 5.0), mode="fast", radius=0.5)
    assert fast.found and fast.mode == "fast"
    miss = area.path((1.0, 5.0), (50.0, 50.0), snap=0.0)
    assert not miss.found and miss.reason
    with pytest.raises(ValueError):
        area.path((1.0, 5.0), (19.0, 5.0), mode="baked")
    with pytest.raises(ValueError):
        area.path((1.0,), (19.0, 5.0))


def test_path_function_matches_area_path(two_rooms):
    r = areakit.path(two_rooms / "demo.lyt", (1.0, 5.0), (19.0, 5.0))
    assert r.to_dict() == areakit.Area.open(two_rooms).path((1.0, 5.0), (19.0, 5.0)).to_dict()
    one = areakit.path(two_rooms / "demo_a.wok", (1.0, 1.0), (9.0, 9.0))
    assert one.found and one.length == pytest.approx(np.hypot(8, 8), abs=1e-3)
    with pytest.raises(FileNotFoundError):
        areakit.path(two_rooms / "nope.wok", (0, 0), (1, 1))


def test_area_paths_answer_as_path_one_pair_at_a_time(two_rooms):
    area = areakit.Area.open(two_rooms)
    pairs = [
        ((1.0, 5.0), (19.0, 5.0)),
        ((1.0, 1.0, 0.0), (9.0, 9.0, 0.0)),
        ((1.0, 5.0), (50.0, 50.0)),  # the goal is off the ground: a miss, in its place
        ([np.float32(2.0), np.float32(3.0)], [18.0, 7.5]),  # lists, NumPy scalars
    ]
    for mode, radius in [("optimal", 0.0), ("fast", 0.5)]:
        batch = area.paths(pairs, mode=mode, radius=radius, snap=0.0)
        assert len(batch) == len(pairs)
        one_by_one = [area.path(a, b, mode=mode, radius=radius, snap=0.0) for a, b in pairs]
        assert [r.to_dict() for r in batch] == [r.to_dict() for r in one_by_one]
        assert [r.found for r in batch] == [True, True, False, True]
        assert all(r.mode == mode for r in batch)
    assert batch[0].rooms == ["demo_a", "demo_b"]
    assert area.paths([]) == []
    # Over the corner graph (kept with the area's navigation data): the same optimal lengths.
    plain = areakit.Area.open(two_rooms).paths(pairs, snap=0.0)
    graph = areakit.Area.open(two_rooms).paths(pairs, snap=0.0, corner_graph="yes", landmarks=2)
    assert [r.found for r in graph] == [r.found for r in plain]
    found = [r.length for r in plain if r.found]
    assert [r.length for r in graph if r.found] == pytest.approx(found, rel=1e-5)
    # NumPy (n, 2, 2) arrays are pairs too.
    arr = np.array([[[1.0, 5.0], [19.0, 5.0]], [[1.0, 1.0], [9.0, 9.0]]], dtype=np.float32)
    assert [r.length for r in area.paths(arr)] == [r.length for r in area.paths(pairs[:2])]
    for bad in ["1,2 3,4", [((1.0, 5.0),)], [((1.0,), (2.0, 3.0))], [((1.0, 5.0), (2.0, float("nan")))], [3]]:
        with pytest.raises(ValueError, match="pairs"):
            area.paths(bad)
    with pytest.raises(ValueError):
        area.paths(pairs, mode="baked")
    with pytest.raises(ValueError):
        area.paths(pairs, radius=-1.0)


def test_paths_on_a_corpus_walkmesh_answer_as_path(tmp_path):
    """areakit.paths (all cores) against areakit.path pair by pair on a corpus WOK: the same
    answers in the same order; areakit.paths on the area of the same file agrees too."""
    wok = next(f for f in corpus_files("wok") if areakit.Bwm.read(f).walkable_face_count > 300)
    m = areakit.Bwm.read(wok)
    centres = m.vertices[m.faces[m.walkable]].mean(axis=1)
    rng = np.random.default_rng(25)
    picks = rng.integers(0, len(centres), size=(120, 2))
    pairs = [(tuple(map(float, centres[a])), tuple(map(float, centres[b]))) for a, b in picks]
    pairs.append(((0.0, 0.0), (1e6, 1e6)))
    for mode in ["optimal", "fast"]:
        batch = areakit.paths(wok, pairs, mode=mode)
        one_by_one = [areakit.path(wok, a, b, mode=mode) for a, b in pairs]
        assert [r.to_dict() for r in batch] == [r.to_dict() for r in one_by_one]
        assert sum(r.found for r in batch) >= 60
        assert not batch[-1].found and batch[-1].reason
    # The corner graph and landmarks change the effort, never the optimal length; fast mode
    # over the graph stays within 2 % of it (areakit_geometry::nav::FAST_BOUND).
    plain = areakit.paths(wok, pairs, corner_graph="no")
    graph = areakit.paths(wok, pairs, corner_graph="yes", landmarks=4)
    fast = areakit.paths(wok, pairs, mode="fast", corner_graph="yes")
    for p, g, f in zip(plain, graph, fast):
        assert p.found == g.found == f.found
        if p.found:
            assert g.length == pytest.approx(p.length, rel=1e-5)
            assert p.length * (1 - 1e-5) <= f.length <= p.length * 1.02 + 1e-5
    with pytest.raises(ValueError, match="corner_graph"):
        areakit.paths(wok, pairs, corner_graph="sometimes")
    with pytest.raises(ValueError, match="landmarks"):
        areakit.paths(wok, pairs, landmarks=9)
    with pytest.raises(FileNotFoundError):
        areakit.paths(tmp_path / "nope.wok", pairs)
    with pytest.raises(ValueError, match="pairs\\[1\\] goal"):
        areakit.paths(wok, [pairs[0], (pairs[1][0], (1.0,))])


def test_path_on_a_baked_trx():
    trx = corpus_files("trx")
    assert len(trx) == 61
    t = areakit.Trx.read(trx[0])
    v, tri, flags = t.vertices, t.triangles, t.triangle_flags
    walk = tri[(flags & 1) == 1]
    assert len(walk) > 0
    c = v[walk[0]].mean(axis=0)
    r = areakit.path(trx[0], (float(c[0]), float(c[1])), (float(c[0]), float(c[1])), mode="baked")
    assert r.mode == "baked"


def test_check_uses_the_cli_codes(two_rooms, tmp_path):
    findings = areakit.check([two_rooms])
    report = areakit.check_report(two_rooms)
    assert report["files_checked"] >= 3
    assert [f.to_dict() for f in findings] == report["findings"]
    # The area has no VIS file and its rooms carry no transitions: the checks say so.
    codes = {f.code for f in findings}
    assert codes
    assert all(c == c.lower() and " " not in c for c in codes)
    # A file that does not decode is an invalid-file finding with its offset.
    bad = tmp_path / "broken.wok"
    bad.write_bytes(b"BWM V1.0" + b"\x01" * 40)
    (f,) = [f for f in areakit.check(bad) if f.code == "invalid-file"]
    assert f.is_error and f.severity == "error" and f.offset is not None and f.path == str(bad)
    assert "invalid-file" in repr(f) and str(bad) in str(f)
    with pytest.raises(FileNotFoundError):
        areakit.check([tmp_path / "missing"])


def test_check_corpus_walkmeshes_matches_methods():
    files = corpus_files("wok", "bwm", "pwk")
    assert len(files) == 112
    by_path = {}
    for f in areakit.check(files):
        by_path.setdefault(f.path, []).append(f)
    for p in files[:20]:
        ours = [f.code for f in areakit.Bwm.read(p).check()]
        assert ours == [f.code for f in by_path.get(str(p), [])], p


KITS = "kotor/openkotor_pykotor/Tools/HolocronToolset/src/toolset/kits"


@pytest.fixture
def kits_dir():
    from conftest import CORPUS

    d = CORPUS / KITS
    if not d.is_dir():
        pytest.fail(f"{d} is missing: the build tests need ../shared/corpus")
    return d


def test_build_relink_vis_minimap_agree_with_the_cli(tmp_path, kits_dir):
    """areakit.build makes the module `areakit build` makes; Area.relink, generate_vis and
    minimap answer on it as `relink`, `vis generate` and `minimap` do."""
    import json
    import pathlib
    import subprocess

    layout = pathlib.Path(__file__).parents[2] / "examples/layouts/hiddenbek.json"
    report = areakit.build(layout, tmp_path / "bek01", kits=kits_dir)
    assert report["check"]["errors"] == 0
    assert len(report["build"]["rooms"]) == 7
    assert report["build"]["minimap_coverage"] >= 0.98
    with pytest.raises(ValueError, match="--force"):
        areakit.build(layout, tmp_path / "bek01", kits=kits_dir)
    with pytest.raises(ValueError, match="no_such"):
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({"module": "bad01", "rooms": [{"kit": "hiddenbek", "component": "no_such"}]}))
        areakit.build(bad, tmp_path / "bad", kits=kits_dir)
    assert not (tmp_path / "bad").exists()

    area = areakit.Area.open(tmp_path / "bek01")
    # Built from geometry, the links are right: relink changes nothing.
    r = area.relink(tmp_path / "relinked")
    assert r["changes"] == [] and r["links"] > 0
    # The generated VIS is the one the build wrote, at any sample spacing of the check.
    built = areakit.Vis.read(tmp_path / "bek01" / "bek01.vis")
    v = area.generate_vis()
    assert v["method"] == "portals"
    for spacing in [None, 1.0, 0.5]:
        w = area.generate_vis(spacing=spacing)
        for room in [f"bek01_{i:02}" for i in range(7)]:
            assert sorted(w["vis"].visible_from(room)) == sorted(built.visible_from(room))
    assert area.generate_vis(spacing=0.5)["method"] == "portals and sampled sight lines"
    # info: the rooms at their LYT places, one GIT door per LYT door hook, the VIS pairs.
    info = area.info()
    lyt = areakit.Lyt.read(tmp_path / "bek01" / "bek01.lyt")
    assert [(r["name"], r["position"]) for r in info["rooms"]] == [(n, list(p)) for n, p in lyt.rooms]
    assert len(info["doors"]) == len(info["door_hooks"]) == 6
    pairs = {tuple(sorted((a.lower(), b.lower()))) for a, seen in built.rooms.items() for b in seen if a.lower() != b.lower()}
    assert info["vis"]["pairs"] == len(pairs) > 0
    assert info["entry"]["area"] == "bek01"
    # The map draws the GIT doors (no DWK without the game: slabs across the doorways).
    area.render(tmp_path / "map.svg", size=600)
    assert (tmp_path / "map.svg").read_text().count("drawn as its doorway") == 6
    # An .erf output is an ERF capsule.
    erf = areakit.build(layout, tmp_path / "bek01.erf", kits=kits_dir)
    assert erf["kind"] == "erf" and (tmp_path / "bek01.erf").read_bytes()[:8] == b"ERF V1.0"
    # A kit is an input to check: its known defects are warnings, no error.
    kit = [f for f in areakit.check(pathlib.Path(kits_dir) / "hiddenbek.json")]
    assert "kit-hook-off-doorway" in {f.code for f in kit}
    assert not [f for f in kit if f.severity == "error"]
    m = area.minimap(tmp_path / "lbl_mapbek01.tga")
    assert m["coverage"] >= 0.98 and m["width"] == 512
    # The same numbers as the CLI's --json.
    exe = pathlib.Path(__file__).parents[2] / "target" / "debug" / "areakit"
    if exe.exists():
        out = subprocess.run(
            [exe, "minimap", tmp_path / "bek01", "-o", tmp_path / "cli.tga", "--json"],
            capture_output=True,
            check=True,
        )
        cli = json.loads(out.stdout)
        # The CLI prints an f32 as its shortest text (1.14), Python holds its exact value
        # (1.1399999856948853): the same f32 either way.
        def f32(v):
            if isinstance(v, float):
                return float(np.float32(v))
            if isinstance(v, list):
                return [f32(x) for x in v]
            if isinstance(v, dict):
                return {k: f32(x) for k, x in v.items()}
            return v

        assert f32(cli["map"]) == f32(m["map"]) and f32(cli["coverage"]) == f32(m["coverage"])


def test_a_damaged_texture_pack_is_a_warning(two_rooms, tmp_path):
    """What opening the game leaves out (a texture pack that does not open) is a UserWarning, as
    the CLI says it on stderr, and the call goes on."""
    game = tmp_path / "game"
    (game / "override").mkdir(parents=True)
    (game / "TexturePacks").mkdir()
    (game / "TexturePacks" / "swpc_tex_tpa.erf").write_bytes(b"ERF V1.0" + b"\0" * 22)
    with pytest.warns(UserWarning, match="swpc_tex_tpa.erf"):
        area = areakit.Area.open(two_rooms, game=game)
    assert area.resref == "demo"
