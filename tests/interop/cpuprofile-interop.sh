#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The cpuprofile reader on Node's own profiles (tests/data/cpuprofile, made
# by tests/interop/cpuprofile-gen/gen.sh, and one made now when node is
# there):
#   1. our folded stacks equal an independent reading in Node
#      (cpuprofile-folded-independent.js: JSON.parse, parents, counts);
#   2. converted to pprof, go tool pprof -raw reads the same stacks and
#      totals.
# Usage: cpuprofile-interop.sh PROFDATA SRCDIR. 77 (skip) without node or go.
set -euo pipefail
profdata=$1
src=$2
command -v node >/dev/null || { echo "node is not installed: skipped"; exit 77; }
# shellcheck source=tests/interop/go-pprof-env.sh
source "$src/tests/interop/go-pprof-env.sh"
bash "$src/tests/interop/cpuprofile-gen/gen.sh" "$scratch/fresh" >/dev/null
for f in "$src"/tests/data/cpuprofile/*.cpuprofile "$src"/tests/data/cpuprofile/*.json \
         "$scratch"/fresh/*.cpuprofile "$scratch"/fresh/*.json; do
    name=${f#"$src"/}
    name=${name#"$scratch"/}
    node "$src/tests/interop/cpuprofile-folded-independent.js" "$f" >"$scratch/want"
    "$profdata" convert --quiet --to folded "$f" "$scratch/got.folded"
    LC_ALL=C sort "$scratch/got.folded" >"$scratch/got"
    LC_ALL=C sort "$scratch/want" -o "$scratch/want"
    same "$name: folded equals Node's own reading ($(awk '{n+=$NF} END {print n}' "$scratch/want") samples)" \
        "$scratch/want" "$scratch/got"
    "$profdata" convert --quiet "$f" "$scratch/out.pb.gz"
    go tool pprof -raw "$scratch/out.pb.gz" 2>/dev/null | python3 "$src/tests/interop/pprof-raw-folded.py" folded 0 |
        LC_ALL=C sort >"$scratch/raw"
    same "$name: go tool pprof -raw of our pprof has the same stacks and totals" "$scratch/want" "$scratch/raw"
done
echo "$((checks - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
