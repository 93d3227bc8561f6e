#!/usr/bin/env python3
"""Compares `areakit info --json` of every corpus binary MDL with PyKotor 2.3.12's counts.

Usage: compare_mdl_counts.py AREAKIT_BINARY CORPUS_DIR PYKOTOR_JSONL

PYKOTOR_JSONL is the output of mdl_counts.py. Compared: nodes (areakit's nodes.total), meshes,
vertices, faces, animations, on every pair PyKotor reads. Prints one line per difference and a
summary; exits 1 when any count differs.
"""
import json
import subprocess
import sys

binary, corpus, reference = sys.argv[1:4]
theirs = [json.loads(line) for line in open(reference) if line.strip()]
compared = differing = skipped = 0
for row in theirs:
    if "error" in row:
        skipped += 1
        continue
    out = subprocess.run([binary, "info", "--json", f"{corpus}/{row['file']}"],
                         capture_output=True, text=True, check=True).stdout
    ours = json.loads(out)
    ours["nodes"] = ours["nodes"]["total"]
    compared += 1
    for key in ("nodes", "meshes", "vertices", "faces", "animations"):
        if ours[key] != row[key]:
            differing += 1
            print(f"{row['file']}: {key} areakit {ours[key]} pykotor {row[key]}")
print(f"{compared} pairs compared, {differing} counts differ, {skipped} pairs PyKotor cannot read")
sys.exit(1 if differing else 0)
