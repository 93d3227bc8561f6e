#!/usr/bin/env bash
# Makes both virtual environments (areakit from ./python, PyKotor 2.3.12 from PyPI) under
# target/ and runs bench.py: areakit vs PyKotor on the corpus walkmeshes, same run, same files.
# Usage: python/bench/run.sh [bench.py options, e.g. --json]
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python3}
OURS=target/bench-areakit
THEIRS=target/bench-pykotor
if [ ! -x "$OURS/bin/python" ]; then "$PY" -m venv "$OURS"; fi
if [ ! -x "$THEIRS/bin/python" ]; then "$PY" -m venv "$THEIRS"; fi
"$OURS/bin/pip" install --quiet ./python numpy
"$THEIRS/bin/pip" install --quiet "pykotor==2.3.12"
exec "$OURS/bin/python" python/bench/bench.py \
  --areakit-python "$OURS/bin/python" --pykotor-python "$THEIRS/bin/python" "$@"
