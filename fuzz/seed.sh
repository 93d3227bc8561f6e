#!/usr/bin/env bash
# Seeds the fuzz corpora from ../shared/corpus (copies stay in fuzz/corpus, which git ignores),
# and from seeds/<target>/ where the repository keeps a target's own minimised corpus (inputs
# libFuzzer generated from nothing, no third-party bytes: today only walkmesh_struct).
# Usage: ./seed.sh            # every target
#        ./seed.sh trx lyt    # only these targets
set -euo pipefail
cd "$(dirname "$0")"
src=../../shared/corpus

# target -> SOURCES.tsv `format` values (column 7) that seed it
declare -A formats=(
  [bwm]="wok bwm pwk"
  [trx]="trx trn"
  [mdb]="mdb"
  [mdl_ascii]="mdl-ascii wok-ascii pwk-ascii"
  [mdl_nwn]="nwn-mdl-bin"
  [lyt]="lyt"
  [vis]="vis"
  [trx_aswm]="trx trn"
  [walkmesh]="wok bwm pwk"
  [gff]="gff"
  [erf]="erf"
  [rim]="rim"
  [key]="erf"
  [bif]="erf"
  [twoda]="2da"
  [walkmesh_struct]=""   # seeds/walkmesh_struct only: its inputs are not files
  [mdl]=""               # built below: a u32 MDL length, the MDL, the MDX (pairs under 1 MiB)
)

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(mdl mdl_nwn bwm trx trx_aswm mdb mdl_ascii lyt vis walkmesh walkmesh_struct gff erf rim key bif twoda)

for t in "${targets[@]}"; do
  [ -v "formats[$t]" ] || { echo "unknown target: $t" >&2; exit 1; }
  mkdir -p "corpus/$t"
  if [ "$t" = mdl ]; then
    # each binary MDL + MDX pair under 1 MiB as one input: a u32 MDL length, the MDL, the MDX
    awk -F'\t' 'NR > 1 && $7 == "mdl-bin" { print $1 }' "$src/SOURCES.tsv" |
      python3 -c '
import hashlib, struct, sys
src, out = sys.argv[1], sys.argv[2]
for f in sys.stdin.read().split("\n"):
    if not f:
        continue
    mdl = open(f"{src}/{f}", "rb").read()
    mdx = open(f"{src}/{f[:-4]}.mdx", "rb").read()
    blob = struct.pack("<I", len(mdl)) + mdl + mdx
    if len(blob) <= 1 << 20:
        open(f"{out}/" + hashlib.sha256(blob).hexdigest()[:16], "wb").write(blob)
' "$src" "corpus/$t"
    continue
  fi
  if [ -d "seeds/$t" ]; then cp seeds/"$t"/* "corpus/$t/"; fi
  { [ -z "${formats[$t]}" ] || awk -F'\t' -v want="${formats[$t]}" '
    BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) ok[w[i]] = 1 }
    NR > 1 && ($7 in ok) { print $1 }' "$src/SOURCES.tsv"; } |
    while IFS= read -r f; do
      if [ "$t" = trx_aswm ]; then
        # the decompressed walkmesh of each ASWM packet (what trx::decode_walkmesh takes)
        python3 - "$src/$f" "corpus/$t" <<'PY'
import hashlib, struct, sys, zlib
data = open(sys.argv[1], "rb").read()
if data[:4] == b"NWN2":
    (count,) = struct.unpack_from("<I", data, 8)
    for i in range(count):
        tag, off = struct.unpack_from("<4sI", data, 12 + 8 * i)
        if tag != b"ASWM" or data[off + 8:off + 12] != b"COMP":
            continue
        (size,) = struct.unpack_from("<I", data, off + 4)
        mesh = zlib.decompress(data[off + 20:off + 8 + size])
        name = hashlib.sha256(mesh).hexdigest()[:16]
        open(f"{sys.argv[2]}/{name}", "wb").write(mesh)
PY
      elif [ "$t" = mdl ]; then
        :
      elif [ "$t" = key ] || [ "$t" = bif ]; then
        # no public KEY/BIF exists: a BIF holding the members of each capsule below 200 KB,
        # and a KEY indexing it (what key::build_install writes)
        python3 - "$src/$f" "corpus/$t" "$t" <<'PY'
import hashlib, struct, sys
data = open(sys.argv[1], "rb").read()
if len(data) > 200_000 or data[4:8] != b"V1.0":
    sys.exit(0)
count, _, keys, res = struct.unpack_from("<4I", data, 16)
if count > 100_000:
    sys.exit(0)
members = []
for i in range(count):
    name, _, rtype, _ = struct.unpack_from("<16sIHH", data, keys + 24 * i)
    off, size = struct.unpack_from("<II", data, res + 8 * i)
    members.append((name, rtype, data[off:off + size]))
if sys.argv[3] == "bif":
    table = 20 + 16 * len(members)
    out, blobs, at = [b"BIFFV1  ", struct.pack("<III", len(members), 0, 20)], [], table
    for i, (_, rtype, blob) in enumerate(members):
        out.append(struct.pack("<IIII", i, at, len(blob), rtype))
        blobs.append(blob)
        at += len(blob)
    out = b"".join(out + blobs)
else:
    name = b"data\\capsule.bif\0"
    keys_at = 64 + 12 + len(name)
    out = b"KEY V1  " + struct.pack("<6I", 1, len(members), 64, keys_at, 0, 0) + bytes(32)
    out += struct.pack("<IIHH", 0, 76, len(name), 1) + name
    for i, (rname, rtype, _) in enumerate(members):
        out += rname + struct.pack("<HI", rtype, i)
open(f"{sys.argv[2]}/{hashlib.sha256(out).hexdigest()[:16]}", "wb").write(out)
PY
      else
        cp "$src/$f" "corpus/$t/$(sha256sum "$src/$f" | cut -c1-16)"
      fi
    done
  echo "seeded: $(ls "corpus/$t" | wc -l) $t"
done
