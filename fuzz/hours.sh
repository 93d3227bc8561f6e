#!/usr/bin/env bash
# Runs fuzz targets one after another, each for a wall-clock budget, and records what each run
# cost: one tab-separated line per run in LOG (date, target, wall s, CPU s, executions, result).
# The CPU seconds (user + system of the fuzzer process, from /usr/bin/time) are what the hours
# table in README.md adds up; wall time says little on a machine that also builds.
#
# Usage: ./hours.sh SECONDS LOG TARGET...
#   ./hours.sh 1800 /tmp/fuzz-hours.tsv erf rim key      # three targets, 30 minutes each
#   nice -n 19 ./hours.sh ...                            # beside other work: takes idle CPU only
# Each target is built before its timed run (a no-op when it is up to date).
set -uo pipefail
cd "$(dirname "$0")"
[ $# -ge 3 ] || { sed -n '2,10p' "$0" >&2; exit 2; }
budget=$1 log=$2
shift 2
[ -s "$log" ] || printf 'date\ttarget\twall_s\tcpu_s\texecutions\tresult\n' > "$log"
for t in "$@"; do
  out="/tmp/fuzz-hours-$t-$(date +%s).log"
  # Build outside the timed run, so that the CPU seconds are the fuzzer's alone.
  if ! cargo +nightly fuzz build "$t" > "$out" 2>&1; then
    printf '%s\t%s\t0\t0\t0\t%s\n' "$(date -Is)" "$t" "build failed: see $out" >> "$log"
    continue
  fi
  times=$(mktemp)
  start=$(date +%s)
  # -malloc_limit_mb=72: libFuzzer's inputs are at most 1 MiB, and issue 11 bounds the peak
  # memory at 64 MiB + 8 x the input, so one allocation of 72 MiB is already a finding (an
  # `oom-` artifact). The RSS limit stays loose: AddressSanitizer's own memory counts there.
  /usr/bin/time -f '%U %S' -o "$times" \
    cargo +nightly fuzz run "$t" -- -max_total_time="$budget" -rss_limit_mb=2048 \
      -malloc_limit_mb=72 -print_final_stats=1 > "$out" 2>&1
  rc=$?
  wall=$(( $(date +%s) - start ))
  cpu=$(awk 'END { printf "%.0f", $1 + $2 }' "$times")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out" | tail -n 1)
  if [ "$rc" -eq 0 ]; then result=ok; else result="exit $rc: see $out"; fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -Is)" "$t" "$wall" "$cpu" "${execs:-?}" "$result" >> "$log"
  rm -f "$times"
done
