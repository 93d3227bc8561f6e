#!/usr/bin/env bash
# Compiles every corpus binary model through MDL ASCII (areakit convert m.mdl x.mdl.ascii, then
# x.mdl.ascii -> x.mdl + x.mdx) into OUT, reads the compiled pairs with PyKotor 2.3.12
# (mdl_counts.py, venv target/bench-pykotor) and compares their counts with PyKotor's counts
# of the originals. Usage: python/bench/compiled_mdl_counts.sh AREAKIT CORPUS OUT
set -euo pipefail
areakit=$1 corpus=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
head -1 "$corpus/SOURCES.tsv" > "$out/SOURCES.tsv"
awk -F'\t' '$7 == "mdl-bin"' "$corpus/SOURCES.tsv" | while IFS=$'\t' read -r file rest; do
  mkdir -p "$out/$(dirname "$file")"
  "$areakit" convert "$corpus/$file" "$out/$file.ascii" > /dev/null
  "$areakit" convert "$out/$file.ascii" "$out/$file" > /dev/null
  printf '%s\t%s\n' "$file" "$rest" >> "$out/SOURCES.tsv"
done
py=${PYKOTOR_PYTHON:-target/bench-pykotor/bin/python}
"$py" "$here/mdl_counts.py" "$corpus" > "$out/original.jsonl"
"$py" "$here/mdl_counts.py" "$out" > "$out/compiled.jsonl"
python3 - "$out/original.jsonl" "$out/compiled.jsonl" <<'PY'
import json, sys
orig = {r["file"]: r for r in map(json.loads, open(sys.argv[1]))}
comp = {r["file"]: r for r in map(json.loads, open(sys.argv[2]))}
same = differ = failed = both = 0
for f, o in orig.items():
    c = comp[f]
    if "error" in c and "error" in o:
        both += 1
        continue
    if "error" in c:
        failed += 1
        print(f"{f}: PyKotor cannot read the compiled model: {c['error']}")
        continue
    if "error" in o:
        continue
    keys = ("nodes", "meshes", "vertices", "faces", "animations")
    if all(o[k] == c[k] for k in keys):
        same += 1
    else:
        differ += 1
        print(f"{f}: " + ", ".join(f"{k} {o[k]} -> {c[k]}" for k in keys if o[k] != c[k]))
print(f"{same} compiled models read with the original's counts, {differ} differ, {failed} unreadable, "
      f"{both} unreadable to PyKotor as originals too")
sys.exit(1 if differ or failed else 0)
PY
