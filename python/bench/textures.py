#!/usr/bin/env python3
"""Textures: areakit against two references, in one run, on every corpus TPC.

Usage (``textures.sh`` makes the three virtual environments and calls this):

    textures.py --areakit-python A/bin/python --pykotor-python P/bin/python \
                --pillow-python L/bin/python [--corpus DIR] [--json]
    textures.py --referee-only --areakit-python A/bin/python --pillow-python L/bin/python

(``--referee-only``, run by ``.ci/run``: Pillow's verdict alone, no timings and no PyKotor.)

Three workers, each in its own interpreter, on the same files (bytes preloaded: no disk):

- areakit: ``Tpc.read`` of every file (best of several passes), ``Tpc.read`` and ``rgba(0)``
  (the first level decoded), and the RGBA of every level of every layer, written to a
  scratch folder for the referee;
- pykotor (2.3.12): ``read_tpc`` of every file, and ``read_tpc`` then ``convert(RGBA)`` on
  ``N_TwilekMD01.tpc`` (its DXT decoding, for the agreement figure);
- pillow (the referee): every level of every TPC wrapped in a DDS (the TPC's blocks or pixels
  as they are, behind a DDS header) and decoded by Pillow's DDS plugin (BC1/BC3, or
  uncompressed RGBA), compared pixel by pixel with areakit's RGBA.

Prints the speeds, the ratios, and the referee's verdict: every pixel of every level of every
corpus TPC within one level per channel of Pillow's. Exits 1 when the referee disagrees.
"""

import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parents[2] / "shared" / "corpus"


def corpus_tpcs(corpus):
    lines = (corpus / "SOURCES.tsv").read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    fi, fo = header.index("file"), header.index("format")
    return sorted(str(corpus / c[fi]) for c in (l.split("\t") for l in lines[1:]) if c[fo] == "tpc")


def best_of(fn, passes, budget=None):
    best, spent = float("inf"), 0.0
    for _ in range(passes):
        t = time.perf_counter()
        fn()
        dt = time.perf_counter() - t
        best, spent = min(best, dt), spent + dt
        if budget is not None and spent > budget:
            break
    return best


# ---------------------------------------------------------------------------------------
# Workers
# ---------------------------------------------------------------------------------------


def worker_areakit(job):
    import areakit

    datas = [Path(p).read_bytes() for p in job["files"]]
    read_s = decode_s = None
    if not job.get("referee_only"):
        read_s = best_of(lambda: [areakit.Tpc.read(d) for d in datas], 20, budget=10)
        decode_s = best_of(lambda: [areakit.Tpc.read(d).rgba(0) for d in datas], 10, budget=20)
    level0_bytes = 0
    dumps = []
    out = Path(job["scratch"])
    for i, d in enumerate(datas):
        t = areakit.Tpc.read(d)
        level0_bytes += t.width * t.height * 4
        for layer in range(t.layers):
            for mip in range(t.mip_count):
                px = t.rgba(mip=mip, layer=layer)
                name = f"{i}-{layer}-{mip}.rgba"
                (out / name).write_bytes(px.tobytes())
                dumps.append({"file": i, "layer": layer, "mip": mip,
                              "width": px.shape[1], "height": px.shape[0], "dump": name})
    return {"files": len(datas), "bytes": sum(map(len, datas)), "read_s": read_s,
            "read_decode_s": decode_s, "level0_rgba_bytes": level0_bytes, "dumps": dumps}


def worker_pykotor(job):
    from pykotor.resource.formats.tpc import read_tpc
    from pykotor.resource.formats.tpc.tpc_data import TPCTextureFormat

    datas = [Path(p).read_bytes() for p in job["files"]]
    fails = []

    def read_all():
        fails.clear()
        for d in datas:
            try:
                read_tpc(d)
            except Exception as e:  # noqa: BLE001 - a failure is a result here
                fails.append(repr(e)[:120])

    read_s = best_of(read_all, 5, budget=60)
    twilek = next(i for i, p in enumerate(job["files"]) if p.endswith("N_TwilekMD01.tpc"))
    t0 = time.perf_counter()
    tpc = read_tpc(datas[twilek])
    tpc.convert(TPCTextureFormat.RGBA)
    mm = tpc.layers[0].mipmaps[0]
    decode_s = time.perf_counter() - t0
    name = "pykotor-twilek.rgba"
    (Path(job["scratch"]) / name).write_bytes(bytes(mm.data))
    return {"files": len(datas), "read_s": read_s, "read_failures": fails,
            "twilek": {"file": twilek, "width": mm.width, "height": mm.height, "dump": name,
                       "read_convert_s": decode_s}}


def dds(block_data, width, height, encoding):
    """A DDS of one image: DXT1/DXT5 blocks or RGBA bytes, as a TPC level stores them."""
    if encoding in ("dxt1", "dxt5"):
        pf = struct.pack("<II4sIIIII", 32, 0x4, b"DXT1" if encoding == "dxt1" else b"DXT5", 0, 0, 0, 0, 0)
        flags, pitch = 0x1 | 0x2 | 0x4 | 0x1000 | 0x80000, len(block_data)
    else:  # rgba: R, G, B, A bytes
        pf = struct.pack("<IIIIIIII", 32, 0x40 | 0x1, 0, 32, 0xFF, 0xFF00, 0xFF0000, 0xFF000000)
        flags, pitch = 0x1 | 0x2 | 0x4 | 0x1000 | 0x8, width * 4
    header = struct.pack("<IIIIIII", 124, flags, height, width, pitch, 0, 1) + b"\0" * 44 + pf
    header += struct.pack("<IIIII", 0x1000, 0, 0, 0, 0)
    return b"DDS " + header + block_data


def tpc_levels(data):
    """The levels of a TPC without cube faces or frames (the corpus has none): (encoding,
    width, height, bytes), read from the header as the format documents say."""
    size, _, width, height, enc, mips = struct.unpack_from("<IfHHBB", data, 0)
    if size:
        encoding, block = {2: ("dxt1", 8), 4: ("dxt5", 16)}[enc]
        level = lambda w, h: max(1, (w + 3) // 4) * max(1, (h + 3) // 4) * block
    else:
        encoding = {4: "rgba"}[enc]
        level = lambda w, h: w * h * 4
    out, at, w, h = [], 128, width, height
    for i in range(mips):
        n = level(w, h) if i else max(size, level(w, h))
        out.append((encoding, w, h, data[at : at + n]))
        at += n
        w, h = max(1, w // 2), max(1, h // 2)
    return out


def worker_pillow(job):
    import io
    import PIL
    from PIL import Image

    scratch = Path(job["scratch"])
    datas = [Path(p).read_bytes() for p in job["files"]]
    levels = {i: tpc_levels(d) for i, d in enumerate(datas)}
    compared = pixels = worst = 0
    within = 0
    bad = []
    for d in job["dumps"]:
        encoding, w, h, blocks = levels[d["file"]][d["mip"]]
        assert (w, h) == (d["width"], d["height"]), (d, w, h)
        ref = Image.open(io.BytesIO(dds(blocks, w, h, encoding))).convert("RGBA").tobytes()
        ours = (scratch / d["dump"]).read_bytes()
        assert len(ref) == len(ours), (d, len(ref), len(ours))
        diff = max((abs(a - b) for a, b in zip(ref, ours)), default=0)
        ok = sum(1 for k in range(0, len(ref), 4)
                 if all(abs(ref[k + c] - ours[k + c]) <= 1 for c in range(4)))
        compared += 1
        pixels += len(ref) // 4
        within += ok
        worst = max(worst, diff)
        if diff > 1:
            bad.append({"file": Path(job["files"][d["file"]]).name, "mip": d["mip"], "max_diff": diff})
    # PyKotor's decoding of N_TwilekMD01 against Pillow's (levels of 3).
    tw = job.get("twilek")
    agree = None
    if tw is not None:
        encoding, w, h, blocks = levels[tw["file"]][0]
        ref = Image.open(io.BytesIO(dds(blocks, w, h, encoding))).convert("RGBA").tobytes()
        theirs = (scratch / tw["dump"]).read_bytes()
        if len(theirs) == len(ref):
            agree = sum(1 for k in range(0, len(ref), 4)
                        if all(abs(ref[k + c] - theirs[k + c]) <= 3 for c in range(4))) / (len(ref) // 4)
    return {"pillow": PIL.__version__, "levels": compared, "pixels": pixels,
            "pixels_within_1": within, "max_diff": worst, "disagreeing_levels": bad[:20],
            "pykotor_twilek_within_3": agree}


WORKERS = {"areakit": worker_areakit, "pykotor": worker_pykotor, "pillow": worker_pillow}


def run_side(python, side, job):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(job, f)
        path = f.name
    try:
        out = subprocess.run([python, __file__, "--side", side, "--job", path],
                             capture_output=True, text=True, check=False)
    finally:
        os.unlink(path)
    if out.returncode != 0:
        sys.exit(f"{side} worker failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--side", choices=sorted(WORKERS))
    ap.add_argument("--job")
    ap.add_argument("--areakit-python")
    ap.add_argument("--pykotor-python")
    ap.add_argument("--pillow-python")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--referee-only", action="store_true",
                    help="only Pillow's verdict on every level (no timings, no PyKotor): .ci/run")
    a = ap.parse_args()
    if a.side:
        job = json.loads(Path(a.job).read_text())
        print(json.dumps(WORKERS[a.side](job)))
        return 0
    files = corpus_tpcs(a.corpus)
    if len(files) != 41:
        sys.exit(f"expected the 41 corpus TPCs, found {len(files)}")
    with tempfile.TemporaryDirectory() as scratch:
        job = {"files": files, "scratch": scratch, "referee_only": a.referee_only}
        ours = run_side(a.areakit_python, "areakit", job)
        if a.referee_only:
            referee = run_side(a.pillow_python, "pillow", dict(job, dumps=ours["dumps"]))
            ok = referee["max_diff"] <= 1 and referee["pixels_within_1"] == referee["pixels"]
            print(f"referee (Pillow {referee['pillow']} BC1/BC3/RGBA via DDS): {referee['levels']} "
                  f"levels of {len(files)} TPCs, {referee['pixels']} pixels; "
                  f"{referee['pixels_within_1']} within 1 level per channel; largest difference "
                  f"{referee['max_diff']}; disagreeing levels: {referee['disagreeing_levels']}")
            return 0 if ok else 1
        theirs = run_side(a.pykotor_python, "pykotor", job)
        referee = run_side(a.pillow_python, "pillow",
                           dict(job, dumps=ours["dumps"], twilek=theirs["twilek"]))
    result = {"areakit": {k: v for k, v in ours.items() if k != "dumps"}, "pykotor": theirs,
              "referee": referee}
    if a.json:
        print(json.dumps(result, indent=2))
    else:
        mb = ours["bytes"] / 1e6
        print(f"{len(files)} corpus TPCs, {mb:.1f} MB")
        print(f"read:   areakit {ours['read_s'] * 1e3:8.2f} ms ({mb / ours['read_s']:8.1f} MB/s)   "
              f"PyKotor 2.3.12 {theirs['read_s'] * 1e3:8.2f} ms ({mb / theirs['read_s']:6.1f} MB/s)   "
              f"ratio {theirs['read_s'] / ours['read_s']:.1f}x")
        print(f"read + first level to RGBA: areakit {ours['read_decode_s'] * 1e3:.2f} ms "
              f"({ours['level0_rgba_bytes'] / ours['read_decode_s'] / 1e9:.2f} GB/s of RGBA); "
              f"PyKotor read_tpc + convert(RGBA) of N_TwilekMD01 (256x256): "
              f"{theirs['twilek']['read_convert_s'] * 1e3:.0f} ms")
        if theirs["read_failures"]:
            print(f"PyKotor could not read {len(theirs['read_failures'])} files: {theirs['read_failures'][:3]}")
        r = referee
        print(f"referee (Pillow {r['pillow']} BC1/BC3/RGBA via DDS): {r['levels']} levels, "
              f"{r['pixels']} pixels; {r['pixels_within_1']} within 1 level per channel; "
              f"largest difference {r['max_diff']}")
        if r["pykotor_twilek_within_3"] is not None:
            print(f"PyKotor 2.3.12 on N_TwilekMD01.tpc: {100 * r['pykotor_twilek_within_3']:.0f}% of "
                  f"pixels within 3 levels of Pillow's")
    ok = referee["max_diff"] <= 1 and referee["pixels_within_1"] == referee["pixels"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
