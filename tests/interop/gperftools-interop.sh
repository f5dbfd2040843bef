#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Do the reference tools read what we write?  For every gperftools input (the
# libprofiler fixtures, the shared corpus file when present, and small 32-bit
# profiles made here), convert it with `profdata` to gperftools in several
# layouts and to pprof, and compare the total samples that google-pprof and
# `go tool pprof` report (tests/interop/pprof-totals.sh) with our own total
# (the sum of our folded export).
#
# Usage: gperftools-interop.sh PROFDATA SOURCE_ROOT [go|google-pprof]
# Exit: 0 all agree, 1 a disagreement or a rejected file, 77 no tool installed.
set -euo pipefail

profdata=$1
src=$2
only=${3:-}
totals=$src/tests/interop/pprof-totals.sh

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

tools=()
if [[ -z $only || $only == go ]] && command -v go >/dev/null 2>&1 && go tool -n pprof >/dev/null 2>&1; then
    tools+=(go)
fi
if [[ -z $only || $only == google-pprof ]] && command -v google-pprof >/dev/null 2>&1 &&
    command -v nm >/dev/null 2>&1 && command -v objdump >/dev/null 2>&1; then
    tools+=(google-pprof)
fi
if (( ${#tools[@]} == 0 )); then
    echo "no reference tool installed (go tool pprof, google-pprof): skipped"
    exit 77
fi

# 32-bit inputs: the PCs of the real fixtures do not fit 32 bits. No record
# starts with PC 0 (the perl tool stops at such a record).
python3 - "$scratch" <<'EOF' || { echo "python3 missing: 32-bit inputs skipped"; }
import struct, sys
out = sys.argv[1]
recs = [(1, [0x8048100, 0x8048200, 0x8048300]), (2, [0x8048400, 0x8048200]),
        (1, [0x8048100, 0x8048200, 0x8048300]), (5, [0xb7f00010, 0x8048500, 0x8048300])]
maps = (b"08048000-08050000 r-xp 00000000 08:01 1234 /usr/bin/app32\n"
        b"b7f00000-b7f10000 r-xp 00000000 08:01 99 /lib/i386-linux-gnu/libc.so.6\n")
for name, f in (("synthetic-le32.prof", "<I"), ("synthetic-be32.prof", ">I")):
    b = b"".join(struct.pack(f, x) for x in (0, 3, 0, 10000, 0))
    for c, pcs in recs:
        b += b"".join(struct.pack(f, x) for x in [c, len(pcs)] + pcs)
    b += b"".join(struct.pack(f, x) for x in (0, 1, 0)) + maps
    open("%s/%s" % (out, name), "wb").write(b)
# The Java variant: version 1, then "0xADDR name" symbol lines.
f = "<Q"
b = b"".join(struct.pack(f, x) for x in (0, 3, 1, 10000, 0))
for c, pcs in recs:
    b += b"".join(struct.pack(f, x) for x in [c, len(pcs)] + pcs)
b += b"".join(struct.pack(f, x) for x in (0, 1, 0))
b += (b"0x0000000008048100 com.example.Foo.bar (Foo.java:42)\n"
      b"0x0000000008048200 com.example.Foo.run (Foo.java:7)\n"
      b"0x0000000008048300 java.lang.Thread.run (Thread.java:748)\n"
      b"0x0000000008048400 GC\n0x00000000b7f00010 JVM_Sleep (/usr/lib/jvm/libjvm.so)\n")
open("%s/synthetic-java.prof" % out, "wb").write(b)
EOF

inputs=()
corpus=${PROFDATA_CORPUS:-${PD_CORPUS_OPTION:-$src/../shared/corpus}}
for f in "$src"/tests/data/gperftools/*.prof "$corpus"/gperftools/cppbench.cpu \
    "$scratch"/synthetic-*.prof; do
    [[ -s $f ]] && inputs+=("$f")
done

our_total() {
    "$profdata" convert --quiet "$1" "$scratch/t.folded" --to folded
    awk '{ s += $NF } END { printf "%d\n", s }' "$scratch/t.folded"
}

status=0
check() {
    local what=$1 file=$2 want=$3 tool got
    for tool in "${tools[@]}"; do
        # google-pprof reads only the legacy format
        [[ $tool == google-pprof && $file == *.pb.gz ]] && continue
        got=$(bash "$totals" --tool "$tool" "$file" 2>"$scratch/err") || got="error: $(head -c 300 "$scratch/err")"
        if [[ $got == "$want" ]]; then
            printf 'ok    %-14s %-60s %s\n' "$tool" "$what" "$got"
        else
            printf 'FAIL  %-14s %-60s ours %s, theirs %s\n' "$tool" "$what" "$want" "$got"
            status=1
        fi
    done
}

for f in "${inputs[@]}"; do
    name=${f##*/}
    want=$(our_total "$f")
    layouts=("word_size=8,byte_order=little" "word_size=8,byte_order=big")
    [[ $name == synthetic-*32.prof ]] && layouts+=("word_size=4,byte_order=little" "word_size=4,byte_order=big")
    for layout in "${layouts[@]}"; do
        args=()
        IFS=, read -ra kv <<<"$layout"
        for o in "${kv[@]}"; do args+=(--option "$o"); done
        "$profdata" convert --quiet "$f" "$scratch/out.prof" --to gperftools "${args[@]}"
        check "$name -> gperftools $layout" "$scratch/out.prof" "$want"
    done
    "$profdata" convert --quiet "$f" "$scratch/out.pb.gz" --to pprof
    check "$name -> pprof" "$scratch/out.pb.gz" "$want"
done
exit "$status"
