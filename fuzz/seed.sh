#!/usr/bin/env bash
# Seeds the fuzz corpora from ../shared/corpus (copies stay in fuzz/corpus, which git ignores).
set -euo pipefail
cd "$(dirname "$0")"
src=../../shared/corpus
mkdir -p corpus/bwm
awk -F'\t' 'NR>1 && ($7=="wok"||$7=="bwm"||$7=="pwk"){print $1}' "$src/SOURCES.tsv" |
  while read -r f; do cp "$src/$f" "corpus/bwm/$(sha256sum "$src/$f" | cut -c1-16)"; done
echo "seeded: $(ls corpus/bwm | wc -l) bwm"
