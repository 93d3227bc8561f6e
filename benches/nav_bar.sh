#!/usr/bin/env bash
# The navigation bar (docs/navigation.md, "The bar"): 1 000 pairs of walkable-triangle centres
# per corpus TRX and 200 per corpus WOK (seed 5), asked of `areakit path --pairs --json` in the
# optimal and the fast mode and judged by the independent oracle (examples/nav_cli_check.rs).
# With a second binary (the code before a change), its optimal answers are judged too: a valid
# polyline of it shorter than ours counts as `other-shorter`.
#
#   benches/nav_bar.sh [OUTDIR] [OTHER_AREAKIT]      (from the checkout; builds what it needs)
#
# BAR_BIN=path/to/areakit judges another build's answers (the code before a change, say).
set -euo pipefail
out=${1:-target/nav-bar}
other=${2:-}
cargo build --release --quiet --bin areakit --example nav_bar_pairs --example nav_cli_check
bin=target/release
ours=${BAR_BIN:-$bin/areakit}
"$bin/examples/nav_bar_pairs" "$out"
while IFS=$'\t' read -r pairs ground; do
    "$ours" path "$ground" --pairs "$pairs" --json > "$pairs.optimal.jsonl"
    "$ours" path "$ground" --pairs "$pairs" --json --mode fast > "$pairs.fast.jsonl"
    extra=()
    if [ -n "$other" ]; then
        "$other" path "$ground" --pairs "$pairs" --json > "$pairs.other.jsonl"
        extra=("versus=$pairs.other.jsonl")
    fi
    "$bin/examples/nav_cli_check" "$ground" "$pairs" "$pairs.optimal.jsonl" \
        "$pairs.fast.jsonl" "${extra[@]}" 2>> "$out/details.txt"
done < "$out/list.tsv"
