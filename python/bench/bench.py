#!/usr/bin/env python3
"""areakit vs PyKotor 2.3.12 on the corpus walkmeshes, in one run, on the same files.

Usage (``run.sh`` makes both virtual environments and calls this):

    bench.py --areakit-python V1/bin/python --pykotor-python V2/bin/python [--corpus DIR]

The driver lists the corpus BWM files (formats wok, bwm, pwk of ``SOURCES.tsv``), draws the
query points, then runs one worker per library (``--side areakit|pykotor``, each in its own
interpreter) on the same files and points, and prints both sides' figures and the ratios.

Measured (file bytes preloaded: parsing and encoding only, no disk):
- read: every file, best of several passes, MB/s;
- write: every file encoded back; the count byte-identical to the input;
- face_at on the largest corpus WOK: one Python call per point; and (areakit) one batched
  call over NumPy arrays.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parents[2] / "shared" / "corpus"


def corpus_walkmeshes(corpus):
    lines = (corpus / "SOURCES.tsv").read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    fi, fo = header.index("file"), header.index("format")
    files = []
    for line in lines[1:]:
        cols = line.split("\t")
        if cols[fo] in ("wok", "bwm", "pwk"):
            files.append((str(corpus / cols[fi]), cols[fo]))
    return sorted(files)


def best_of(fn, passes, budget=None):
    """The best time of `passes` runs (stopping early once `budget` seconds are spent)."""
    best = float("inf")
    spent = 0.0
    for _ in range(passes):
        t = time.perf_counter()
        fn()
        dt = time.perf_counter() - t
        best = min(best, dt)
        spent += dt
        if budget is not None and spent > budget:
            break
    return best


# ---------------------------------------------------------------------------------------
# Workers
# ---------------------------------------------------------------------------------------


def worker_areakit(job):
    import areakit
    import numpy as np

    datas = [Path(p).read_bytes() for p in job["files"]]
    total = sum(map(len, datas))
    read_s = best_of(lambda: [areakit.Bwm.read(d) for d in datas], 20, budget=5)
    models = [areakit.Bwm.read(d) for d in datas]
    write_s = best_of(lambda: [m.to_bytes() for m in models], 20, budget=5)
    exact = sum(m.to_bytes() == d for m, d in zip(models, datas))

    big = areakit.Bwm.read(job["largest"])
    xs, ys = job["xs"], job["ys"]
    n_single = len(xs)
    face_at = big.face_at
    big.face_at(0.0, 0.0)  # prepare the query structure once, outside the timing

    def singles():
        for x, y in zip(xs, ys):
            face_at(x, y)

    single_s = best_of(singles, 5) / n_single
    reps = max(1, job["batch_points"] // n_single)
    bx = np.tile(np.asarray(xs, dtype=np.float64), reps)
    by = np.tile(np.asarray(ys, dtype=np.float64), reps)
    batch_s = best_of(lambda: big.face_at(bx, by), 5) / len(bx)
    answers = [face_at(x, y) for x, y in zip(xs[: job["compare"]], ys[: job["compare"]])]
    return {
        "files": len(datas),
        "bytes": total,
        "read_s": read_s,
        "write_s": write_s,
        "write_exact": exact,
        "faces": len(big.faces),
        "face_at_single_s": single_s,
        "face_at_batch_s": batch_s,
        "batch_points": len(bx),
        "answers": answers,
    }


def worker_pykotor(job):
    from pykotor.resource.formats.bwm import bwm_auto

    datas = [Path(p).read_bytes() for p in job["files"]]
    total = sum(map(len, datas))
    read_fail = []

    def read_all():
        read_fail.clear()
        out = []
        for d in datas:
            try:
                out.append(bwm_auto.read_bwm(d))
            except Exception as e:  # noqa: BLE001 - a failure is a result here
                out.append(None)
                read_fail.append(repr(e)[:120])
        return out

    read_s = best_of(read_all, 3, budget=60)
    models = read_all()
    write_fail = []

    def write_all():
        write_fail.clear()
        out = []
        for m in models:
            try:
                out.append(None if m is None else bwm_auto.bytes_bwm(m))
            except Exception as e:  # noqa: BLE001
                out.append(None)
                write_fail.append(repr(e)[:120])
        return out

    write_s = best_of(write_all, 3, budget=60)
    written = write_all()
    exact = sum(w is not None and w == d for w, d in zip(written, datas))

    big = bwm_auto.read_bwm(Path(job["largest"]).read_bytes())
    face_index = {id(f): i for i, f in enumerate(big.faces)}
    n = job["pykotor_points"]
    xs, ys = job["xs"][:n], job["ys"][:n]

    def run(method):
        def go():
            for x, y in zip(xs, ys):
                method(x, y)

        return best_of(go, 3, budget=30) / n

    face_at_s = run(big.faceAt)
    find_face_at_s = run(big.find_face_at)
    answers = []
    for x, y in zip(job["xs"][: job["compare"]], job["ys"][: job["compare"]]):
        f = big.faceAt(x, y)
        answers.append(None if f is None else face_index.get(id(f)))
    return {
        "files": len(datas),
        "bytes": total,
        "read_s": read_s,
        "read_failures": len(read_fail),
        "write_s": write_s,
        "write_exact": exact,
        "write_failures": len(write_fail),
        "faces": len(big.faces),
        "face_at_single_s": face_at_s,
        "find_face_at_single_s": find_face_at_s,
        "points": n,
        "answers": answers,
    }


# ---------------------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------------------


def run_side(python, side, job_path, env=None):
    out = subprocess.run(
        [python, __file__, "--side", side, "--job", job_path],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--areakit-python", default=sys.executable)
    ap.add_argument("--pykotor-python")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--points", type=int, default=20000, help="points for one-at-a-time areakit queries")
    ap.add_argument("--pykotor-points", type=int, default=300, help="points for PyKotor's (slow) queries")
    ap.add_argument("--batch-points", type=int, default=1_000_000)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--side", choices=["areakit", "pykotor"], help=argparse.SUPPRESS)
    ap.add_argument("--job", help=argparse.SUPPRESS)
    a = ap.parse_args()

    if a.side:
        job = json.loads(Path(a.job).read_text())
        result = worker_areakit(job) if a.side == "areakit" else worker_pykotor(job)
        print(json.dumps(result))
        return 0
    if not a.pykotor_python:
        ap.error("--pykotor-python is required (run.sh makes the environment)")

    files = corpus_walkmeshes(a.corpus)
    if not files:
        print(f"no walkmeshes in {a.corpus}", file=sys.stderr)
        return 1
    woks = [p for p, f in files if f == "wok"]
    largest = max(woks, key=os.path.getsize)
    # Points over the largest WOK's bounds (+10 %), the same for both sides.
    xs_all, ys_all = [], []
    with open(largest, "rb") as fh:
        data = fh.read()
    import struct

    (nverts,) = struct.unpack_from("<I", data, 0x48)
    (voff,) = struct.unpack_from("<I", data, 0x4C)
    verts = [struct.unpack_from("<3f", data, voff + 12 * i) for i in range(nverts)]
    lx, hx = min(v[0] for v in verts), max(v[0] for v in verts)
    ly, hy = min(v[1] for v in verts), max(v[1] for v in verts)
    mx, my = (hx - lx) * 0.05, (hy - ly) * 0.05
    rng = random.Random(42)
    for _ in range(a.points):
        xs_all.append(rng.uniform(lx - mx, hx + mx))
        ys_all.append(rng.uniform(ly - my, hy + my))
    job = {
        "files": [p for p, _ in files],
        "largest": largest,
        "xs": xs_all,
        "ys": ys_all,
        "pykotor_points": min(a.pykotor_points, a.points),
        "batch_points": a.batch_points,
        "compare": min(a.pykotor_points, a.points),
    }
    with tempfile.TemporaryDirectory() as tmp:
        job_path = os.path.join(tmp, "job.json")
        Path(job_path).write_text(json.dumps(job))
        ours = run_side(a.areakit_python, "areakit", job_path)
        # Batched queries run on rayon's threads (one per core); the same on one thread.
        one_thread = run_side(a.areakit_python, "areakit", job_path, {"RAYON_NUM_THREADS": "1"})
        theirs = run_side(a.pykotor_python, "pykotor", job_path)

    mb = ours["bytes"] / 1e6
    agree = sum(x == y for x, y in zip(ours.pop("answers"), theirs.pop("answers")))
    pk_face = min(theirs["face_at_single_s"], theirs["find_face_at_single_s"])
    summary = {
        "files": ours["files"],
        "megabytes": mb,
        "largest_wok": os.path.relpath(largest, a.corpus),
        "largest_wok_faces": ours["faces"],
        "read_mb_s": {"areakit": mb / ours["read_s"], "pykotor": mb / theirs["read_s"]},
        "read_ratio": theirs["read_s"] / ours["read_s"],
        "write_mb_s": {"areakit": mb / ours["write_s"], "pykotor": mb / theirs["write_s"]},
        "write_ratio": theirs["write_s"] / ours["write_s"],
        "write_byte_exact": {"areakit": ours["write_exact"], "pykotor": theirs["write_exact"]},
        "face_at_us": {
            "areakit_single": ours["face_at_single_s"] * 1e6,
            "areakit_batch": ours["face_at_batch_s"] * 1e6,
            "areakit_batch_one_thread": one_thread["face_at_batch_s"] * 1e6,
            "pykotor_faceAt": theirs["face_at_single_s"] * 1e6,
            "pykotor_find_face_at": theirs["find_face_at_single_s"] * 1e6,
        },
        "face_at_single_ratio": pk_face / ours["face_at_single_s"],
        "face_at_batch_ratio": pk_face / ours["face_at_batch_s"],
        "face_at_batch_one_thread_ratio": pk_face / one_thread["face_at_batch_s"],
        "threads": os.cpu_count(),
        "face_at_agreement": f"{agree}/{job['compare']}",
        "areakit": ours,
        "pykotor": theirs,
    }
    if a.json:
        print(json.dumps(summary, indent=2))
        return 0
    n = ours["files"]
    print(f"corpus: {n} BWM files, {mb:.2f} MB; largest WOK {summary['largest_wok']} ({ours['faces']} faces)")
    print(f"{'':34}{'areakit':>14}{'PyKotor 2.3.12':>16}{'ratio':>10}")
    r, w = summary["read_mb_s"], summary["write_mb_s"]
    print(f"{'read all (MB/s)':34}{r['areakit']:>14.1f}{r['pykotor']:>16.3f}{summary['read_ratio']:>9.0f}x")
    print(f"{'write all (MB/s)':34}{w['areakit']:>14.1f}{w['pykotor']:>16.3f}{summary['write_ratio']:>9.0f}x")
    e = summary["write_byte_exact"]
    print(f"{'written byte-exact (files)':34}{e['areakit']:>11}/{n}{e['pykotor']:>13}/{n}")
    f = summary["face_at_us"]
    print(f"{'face_at one at a time (µs/query)':34}{f['areakit_single']:>14.3f}{pk_face * 1e6:>16.1f}{summary['face_at_single_ratio']:>9.0f}x")
    print(f"{'face_at batched (µs/query)':34}{f['areakit_batch']:>14.4f}{pk_face * 1e6:>16.1f}{summary['face_at_batch_ratio']:>9.0f}x")
    print(f"{'  the same on one thread':34}{f['areakit_batch_one_thread']:>14.4f}{pk_face * 1e6:>16.1f}{summary['face_at_batch_one_thread_ratio']:>9.0f}x")
    print(f"  (batched calls run on rayon's threads: {summary['threads']} here; one thread: RAYON_NUM_THREADS=1)")
    print(f"  PyKotor: faceAt {f['pykotor_faceAt']:.1f} µs, find_face_at {f['pykotor_find_face_at']:.1f} µs per query (the faster is the baseline);")
    print(f"  same face answered for {summary['face_at_agreement']} points (PyKotor's faceAt takes the first face containing the point,")
    print("  areakit the walkable one, else the highest: they differ only where faces overlap in plan)")
    if theirs.get("read_failures") or theirs.get("write_failures"):
        print(f"  PyKotor failures: read {theirs['read_failures']}, write {theirs['write_failures']} (files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
