#!/usr/bin/env bash
# Makes the three virtual environments under target/ (areakit from ./python; PyKotor 2.3.12;
# Pillow, the referee, in its own) and runs textures.py: areakit's TPC read and DXT decoding
# against PyKotor's read in the same run, and every decoded pixel of every corpus TPC against
# Pillow's BC1/BC3 decoder. Usage: python/bench/textures.sh [textures.py options, e.g. --json]
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python3}
OURS=target/bench-areakit
THEIRS=target/bench-pykotor
REFEREE=target/bench-pillow
for v in "$OURS" "$THEIRS" "$REFEREE"; do
  if [ ! -x "$v/bin/python" ]; then "$PY" -m venv "$v"; fi
done
"$OURS/bin/pip" install --quiet ./python numpy
"$THEIRS/bin/pip" install --quiet "pykotor==2.3.12"
"$REFEREE/bin/pip" install --quiet "pillow==13.0.0"
exec "$OURS/bin/python" python/bench/textures.py \
  --areakit-python "$OURS/bin/python" --pykotor-python "$THEIRS/bin/python" \
  --pillow-python "$REFEREE/bin/python" "$@"
