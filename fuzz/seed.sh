#!/usr/bin/env bash
# Seeds the fuzz corpora from ../shared/corpus (copies stay in fuzz/corpus, which git ignores).
# Usage: ./seed.sh            # every target
#        ./seed.sh trx lyt    # only these targets
set -euo pipefail
cd "$(dirname "$0")"
src=../../shared/corpus

# target -> SOURCES.tsv `format` values (column 7) that seed it
declare -A formats=(
  [bwm]="wok bwm pwk"
  [trx]="trx trn"
  [mdl_ascii]="mdl-ascii wok-ascii pwk-ascii"
  [lyt]="lyt"
  [vis]="vis"
)

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(bwm trx mdl_ascii lyt vis)

for t in "${targets[@]}"; do
  [ -n "${formats[$t]:-}" ] || { echo "unknown target: $t" >&2; exit 1; }
  mkdir -p "corpus/$t"
  awk -F'\t' -v want="${formats[$t]}" '
    BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) ok[w[i]] = 1 }
    NR > 1 && ($7 in ok) { print $1 }' "$src/SOURCES.tsv" |
    while IFS= read -r f; do
      cp "$src/$f" "corpus/$t/$(sha256sum "$src/$f" | cut -c1-16)"
    done
  echo "seeded: $(ls "corpus/$t" | wc -l) $t"
done
