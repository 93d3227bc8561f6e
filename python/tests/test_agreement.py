"""The Python package and the command line answer the same, because both call the same
library function (areakit-app). A module folder with GIT placeables and doors (written by the
repository's ``module_fixture`` example from corpus parts) is opened by ``areakit path`` and by
``areakit.Area.open(...).path``: lengths and points agree, and the path goes around the
placeable that stands on the straight walk."""

import json
import os
import subprocess
from pathlib import Path

import areakit
import numpy as np
import pytest

from conftest import CORPUS, REPO

PAIRS = [
    ((1.5, 1.5), (18.5, 16.5)),
    ((2.5, 3.0), (12.0, 12.0)),
    ((1.5, 9.0), (17.0, 2.0)),
]


def cargo(*args):
    env = dict(os.environ)
    subprocess.run(
        ["cargo", *args], cwd=REPO, check=True, env=env, stdout=subprocess.DEVNULL
    )


def target_dir():
    return Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))


@pytest.fixture(scope="module")
def cli():
    """The areakit binary: the one `cargo test` built, else built here."""
    exe = target_dir() / "debug" / "areakit"
    if not exe.is_file():
        cargo("build", "--quiet", "--bin", "areakit")
    assert exe.is_file(), exe
    return exe


@pytest.fixture(scope="module")
def module_folder(tmp_path_factory):
    if not (CORPUS / "SOURCES.tsv").is_file():
        pytest.fail(f"{CORPUS} is missing: the fixture takes its parts from the corpus")
    out = tmp_path_factory.mktemp("module")
    exe = target_dir() / "debug" / "examples" / "module_fixture"
    if not exe.is_file():
        cargo("build", "--quiet", "--example", "module_fixture")
    subprocess.run([str(exe), str(out)], check=True, stdout=subprocess.DEVNULL)
    folder = out / "mod"
    assert (folder / "demo.git").is_file() and (folder / "module.ifo").is_file()
    return folder


def cli_path(cli, source, start, goal, *extra):
    out = subprocess.run(
        [
            str(cli),
            "path",
            str(source),
            "--from",
            ",".join(map(str, start)),
            "--to",
            ",".join(map(str, goal)),
            "--json",
            *extra,
        ],
        check=True,
        capture_output=True,
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("source", ["folder", "lyt"])
def test_area_path_agrees_with_the_cli_on_a_module(cli, module_folder, source):
    path = module_folder if source == "folder" else module_folder / "demo.lyt"
    area = areakit.Area.open(path)
    objects = area.objects
    kinds = sorted({o["kind"] for o in objects})
    assert kinds == ["door", "placeable"], objects
    for start, goal in PAIRS:
        for radius in (0.0, 0.35):
            want = cli_path(cli, path, start, goal, "--radius", str(radius))
            got = area.path(start, goal, radius=radius)
            assert got.found == want["found"], (start, goal, want)
            assert got.length == pytest.approx(want["length"], abs=1e-4)
            assert got.rooms == want["rooms"]
            points = np.array(want["points"], dtype=np.float32)
            assert got.points.shape == points.shape
            assert np.allclose(got.points, points, atol=1e-4)
            # to_dict() is the object `areakit path --json` prints: the same keys.
            assert sorted(got.to_dict()) == sorted(want)


def test_the_placeable_on_the_straight_walk_is_walked_around(cli, module_folder):
    area = areakit.Area.open(module_folder)
    (start, goal) = PAIRS[0]
    straight = float(np.hypot(goal[0] - start[0], goal[1] - start[1]))
    got = area.path(start, goal)
    assert got.found and got.length > straight + 0.01, (got.length, straight)
    # areakit.path on the same folder is the same library call.
    assert areakit.path(module_folder, start, goal).length == pytest.approx(got.length, abs=1e-5)


def test_area_open_capsule_agrees_with_the_cli(cli, module_folder, tmp_path):
    capsule = tmp_path / "demomod.mod"
    subprocess.run(
        [str(cli), "pack", str(module_folder), "-o", str(capsule)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    area = areakit.Area.open(capsule)
    assert area.resref == "demo"
    start, goal = PAIRS[0]
    want = cli_path(cli, capsule, start, goal)
    got = area.path(start, goal)
    assert got.length == pytest.approx(want["length"], abs=1e-4)
    assert got.length == pytest.approx(
        areakit.Area.open(module_folder).path(start, goal).length, abs=1e-4
    )


def test_paths_answer_as_the_cli_pairs_and_path(cli, tmp_path):
    """areakit.paths, ``areakit path --pairs`` and ``areakit path --from --to --json`` give the
    same answer for every pair under the same settings: the same object, key for key. On a
    corpus TRX whose floor carries patches of coplanar ground (where the location rule picks
    the triangle); walkable triangle centres (connected or not, some with a height), one end
    snapped onto the ground and one far off it."""
    trx = next(CORPUS.rglob("shadowdale_house_moomaiden.trx"))
    t = areakit.Trx.read(trx)
    walk = t.triangles[(t.triangle_flags & 1) == 1]
    centres = t.vertices[walk].mean(axis=1, dtype=np.float32)
    rng = np.random.default_rng(37)
    picks = rng.integers(0, len(centres), size=(16, 2))
    # Exact f32 values, written so the CLI reads back the same numbers.
    def end(p, with_z):
        return tuple(float(np.float32(x)) for x in (p if with_z else p[:2]))

    pairs = [(end((31.393017, 68.64437), False), end((5.4148426, 11.127405), False))]
    pairs += [
        (end(centres[a], i % 2 == 1), end(centres[b], i % 2 == 1)) for i, (a, b) in enumerate(picks)
    ]
    v = t.vertices[walk[0][0]]
    pairs.append((end((v[0] + np.float32(0.4), v[1]), False), end(v, False)))
    pairs.append((end(v, False), (1e6, 1e6)))
    text = "".join(" ".join(",".join(repr(x) for x in p) for p in pair) + "\n" for pair in pairs)
    listing = tmp_path / "pairs.txt"
    listing.write_text(text)
    found = 0
    for mode in ["optimal", "fast"]:
        for graph in ["no", "yes"]:
            settings = ["--mode", mode, "--corner-graph", graph]
            out = subprocess.run(
                [str(cli), "path", str(trx), "--pairs", str(listing), *settings],
                check=True,
                capture_output=True,
            )
            lines = [json.loads(l) for l in out.stdout.decode().splitlines()]
            batch = areakit.paths(trx, pairs, mode=mode, corner_graph=graph)
            assert [r.to_dict() for r in batch] == lines, settings
            for (a, b), line in list(zip(pairs, lines))[:6]:
                assert cli_path(cli, trx, a, b, *settings) == line, (a, b, settings)
            found += sum(r.found for r in batch)
    assert found >= 20


def test_a_big_batch_under_auto_answers_as_single_paths():
    """Under ``corner_graph="auto"`` (the default) a batch long enough for the corner graph
    (128 pairs or more) answers each pair as ``areakit.path`` does alone, in both modes: the
    optimal batch searches the graph (its effort, ``faces_visited``, differs; the path is the
    same), the fast one does not (a fast path over the graph is another path)."""
    trx = next(CORPUS.rglob("shadowdale_house_moomaiden.trx"))
    t = areakit.Trx.read(trx)
    walk = t.triangles[(t.triangle_flags & 1) == 1]
    centres = t.vertices[walk].mean(axis=1, dtype=np.float32)
    rng = np.random.default_rng(38)
    distinct = [
        (tuple(float(x) for x in centres[a][:2]), tuple(float(x) for x in centres[b][:2]))
        for a, b in rng.integers(0, len(centres), size=(12, 2))
    ]
    pairs = [distinct[i % len(distinct)] for i in range(132)]
    found = 0
    for mode in ["optimal", "fast"]:
        batch = areakit.paths(trx, pairs, mode=mode)
        singles = [areakit.path(trx, a, b, mode=mode).to_dict() for a, b in distinct]
        for i, (a, b) in enumerate(pairs):
            single = dict(singles[i % len(distinct)])
            got = batch[i].to_dict()
            if mode == "optimal":
                single.pop("faces_visited")
                got.pop("faces_visited")
            assert got == single, (mode, a, b)
            found += batch[i].found
    # At least one of the distinct pairs is found in each mode (each is asked 11 times).
    assert found >= 22


def test_trx_bake_with_git_is_the_command_lines(cli, tmp_path):
    """Trx.bake(git=...) on the 8 corpus areas with a GIT: the same bytes as `areakit bake
    --git`, from a path, bytes and a Gff alike; the cutters make more, smaller triangles."""
    from conftest import corpus_files

    gits = corpus_files("nwn2-git")
    assert len(gits) == 8
    for git in gits:
        trn = next(p for p in git.parent.iterdir() if p.stem == git.stem and p.suffix.lower() == ".trn")
        t = areakit.Trx.read(trn)
        by_path = t.bake(git=git)
        assert by_path.format == "trx"
        assert by_path.to_bytes() == t.bake(git=git.read_bytes()).to_bytes()
        assert by_path.to_bytes() == t.bake(git=areakit.Gff.read(git)).to_bytes()
        out = tmp_path / (git.stem + ".trx")
        subprocess.run([str(cli), "bake", str(trn), "--git", str(git), "-o", str(out)], check=True, capture_output=True)
        assert out.read_bytes() == by_path.to_bytes(), git.stem
        assert len(by_path.triangles) > len(t.triangles)
    with pytest.raises(areakit.FormatError):
        t.bake(git=b"not a gff")
