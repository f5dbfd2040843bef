#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Our pprof reader against go tool pprof's own reading (-raw), on the Go
# runtime profiles of tests/data/pprof (tests/interop/pprof-gen makes them):
#   1. every kind reads with the same stacks and totals: for each sample
#      type, our folded output (--read-option sample=TYPE) equals the folded
#      stacks summed from -raw;
#   2. pprof -> pprof reads the same: -raw of our rewrite, taken as values,
#      stacks by name and labels of every sample, equals -raw of the input
#      (so labels survive).
# Usage: pprof-read.sh PROFDATA SRCDIR. 77 (skip) without go.
set -euo pipefail
profdata=$1
src=$2
# shellcheck source=tests/interop/go-pprof-env.sh
source "$src/tests/interop/go-pprof-env.sh"
raw() { go tool pprof -raw "$1" 2>/dev/null; }
helper="python3 $src/tests/interop/pprof-raw-folded.py"
fail=0 checks=0
for f in "$src"/tests/data/pprof/*.pb.gz; do
    kind=$(basename "$f" .pb.gz)
    raw "$f" >"$scratch/$kind.raw"
    n=0
    while read -r type; do
        $helper folded "$n" <"$scratch/$kind.raw" >"$scratch/want"
        "$profdata" convert --quiet --read-option "sample=$type" "$f" "$scratch/got.folded"
        # go tool pprof leaves out samples without a location (threadcreate's
        # in Go 1.19: the runtime records no stacks); we keep them, as [empty]
        grep -v -e ' 0$' -e '^\[empty\] ' "$scratch/got.folded" | LC_ALL=C sort >"$scratch/got" || true
        LC_ALL=C sort "$scratch/want" -o "$scratch/want"
        checks=$((checks + 1))
        if cmp -s "$scratch/want" "$scratch/got"; then
            echo "ok   $kind $type: $(wc -l <"$scratch/got") stacks, as go tool pprof -raw"
        else
            echo "FAIL $kind $type: stacks or totals differ from go tool pprof -raw"
            diff "$scratch/want" "$scratch/got" | head -10
            fail=$((fail + 1))
        fi
        n=$((n + 1))
    done < <($helper types <"$scratch/$kind.raw")
    "$profdata" convert --quiet "$f" "$scratch/again.pb.gz"
    raw "$scratch/again.pb.gz" >"$scratch/again.raw"
    checks=$((checks + 1))
    if cmp -s <($helper samples <"$scratch/$kind.raw") <($helper samples <"$scratch/again.raw"); then
        echo "ok   $kind: pprof -> pprof reads the same (values, stacks, labels)"
    else
        echo "FAIL $kind: pprof -> pprof reads differently"
        diff <($helper samples <"$scratch/$kind.raw") <($helper samples <"$scratch/again.raw") | head -10
        fail=$((fail + 1))
    fi
done
checks=$((checks + 1))
"$profdata" convert --quiet "$src/tests/data/pprof/cpu.pb.gz" "$scratch/cpu.pb.gz"
raw "$scratch/cpu.pb.gz" >"$scratch/cpu.raw"
if grep -q 'phase:\[spin\] worker:\[alpha\]' "$scratch/cpu.raw"; then
    echo "ok   cpu: pprof.Do's labels survive pprof -> pprof"
else
    echo "FAIL cpu: the labels are lost in pprof -> pprof"
    fail=$((fail + 1))
fi
echo "$((checks - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
