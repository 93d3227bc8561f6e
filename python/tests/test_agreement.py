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
