#!/usr/bin/env python3
"""Reference counts (and optional parse timings) of PyKotor 2.3.12 reading binary MDL+MDX.

Usage: mdl_counts.py [--time] CORPUS_DIR

Reads CORPUS_DIR/SOURCES.tsv, takes every row whose format is ``mdl-bin`` (its .mdx is the
same path with extension .mdx), parses each pair with PyKotor and prints one JSON object per
line:

    {"file": ..., "nodes": N, "meshes": N, "vertices": N, "faces": N, "animations": N,
     "seconds": t}
    {"file": ..., "error": "message"}            # when PyKotor fails

Counts: nodes = len(mdl.all_nodes()) (geometry tree); meshes = nodes whose ``mesh`` is not
None; vertices = sum of len(node.mesh.vertex_positions); faces = sum of len(node.mesh.faces);
animations = len(mdl.anims).

``seconds`` is the wall time (time.perf_counter) of the read call alone on bytes already in
memory; with --time the read is repeated 3 times and the median is reported. Without --time
``seconds`` is null.

Run it with the PyKotor venv, e.g. target/bench-pykotor/bin/python.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import time
from pathlib import Path

from pykotor.resource.formats.mdl import read_mdl

REPEATS = 3


def read_pair(mdl_bytes: bytes, mdx_bytes: bytes):
    return read_mdl(mdl_bytes, source_ext=mdx_bytes)


def counts(mdl) -> dict:
    nodes = mdl.all_nodes()
    meshes = vertices = faces = 0
    for node in nodes:
        mesh = node.mesh
        if mesh is None:
            continue
        meshes += 1
        vertices += len(mesh.vertex_positions)
        faces += len(mesh.faces)
    return {
        "nodes": len(nodes),
        "meshes": meshes,
        "vertices": vertices,
        "faces": faces,
        "animations": len(mdl.anims),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--time", action="store_true", help="time the parse (median of 3)")
    ap.add_argument("corpus_dir", type=Path)
    args = ap.parse_args()

    corpus: Path = args.corpus_dir
    with open(corpus / "SOURCES.tsv", newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["format"] == "mdl-bin"]

    for row in rows:
        rel = row["file"]
        rec: dict = {"file": rel}
        try:
            mdl_path = corpus / rel
            mdl_bytes = mdl_path.read_bytes()
            mdx_bytes = mdl_path.with_suffix(".mdx").read_bytes()
        except OSError as e:
            rec["error"] = f"input: {type(e).__name__}: {e}"
            print(json.dumps(rec), flush=True)
            continue
        try:
            if args.time:
                times = []
                for _ in range(REPEATS):
                    t0 = time.perf_counter()
                    mdl = read_pair(mdl_bytes, mdx_bytes)
                    times.append(time.perf_counter() - t0)
                seconds = statistics.median(times)
            else:
                mdl = read_pair(mdl_bytes, mdx_bytes)
                seconds = None
            rec.update(counts(mdl))
            rec["seconds"] = seconds
        except Exception as e:  # noqa: BLE001 - any PyKotor failure is a result
            rec = {"file": rel, "error": f"{type(e).__name__}: {e}"}
        print(json.dumps(rec), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
