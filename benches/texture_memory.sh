#!/bin/sh
# Peak memory and time of large image conversions (`docs/formats/tpc.md`, "Memory"): the
# pictures of `examples/big_textures.rs` converted by the release binary under
# `/usr/bin/time -v` (Debian's `time` package). Prints one line a conversion: the peak resident
# set (MB), the elapsed and user time and the output's size. Set ONLY to a space-separated
# list of output names to run only those.
#
# `cargo build --release --bin areakit --example big_textures && sh benches/texture_memory.sh [DIR]`
# (`AREAKIT=path/to/areakit` measures another build, `BIG_TEXTURES=` another generator.)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${AREAKIT:-"$root/target/release/areakit"}
gen=${BIG_TEXTURES:-"$root/target/release/examples/big_textures"}
dir=${1:-$(mktemp -d)}
[ -f "$dir/big.png" ] || "$gen" "$dir" >/dev/null

run() {
    name=$1
    shift
    case " ${ONLY:-$name} " in *" $name "*) ;; *) return 0 ;; esac
    rm -f "$dir/$name"
    /usr/bin/time -v "$bin" convert "$@" 2>"$dir/time.txt" >/dev/null || {
        echo "$name: failed"
        cat "$dir/time.txt"
        return 1
    }
    kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
    el=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
    us=$(sed -n 's/.*User time (seconds): //p' "$dir/time.txt")
    printf '%-22s peak %5d MB  elapsed %8s  user %7s s  %10d bytes\n' "$name" $((kb / 1024)) \
        "$el" "$us" "$(wc -c <"$dir/$name")"
}

cd "$dir"
run big.tpc big.png big.tpc
run big_alpha.tpc big_alpha.png big_alpha.tpc
run big_rgb.tpc big.png big_rgb.tpc --encoding rgb
run big_rgba.tpc big_alpha.png big_rgba.tpc --encoding rgba
run big_grey.tpc big.png big_grey.tpc --encoding grey
run big_back.png big.tpc big_back.png
run big_alpha_back.png big_alpha.tpc big_alpha_back.png
run big_rle.tpc big_rle.tga big_rle.tpc
run big_rle.png big_rle.tga big_rle.png
