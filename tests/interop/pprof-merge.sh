#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# profdata merge against go tool pprof's own merge (-proto A B ...), on the
# Go runtime profiles of tests/data/pprof: -raw of both, taken as values,
# stacks by name and labels of every sample, is the same, and so are the
# totals of every sample type; profdata diff against -diff_base (and
# -normalize): the same folded stacks and values for every sample type. Usage: pprof-merge.sh PROFDATA SRCDIR. 77
# (skip) without go.
set -euo pipefail
profdata=$1
src=$2
# shellcheck source=tests/interop/go-pprof-env.sh
source "$src/tests/interop/go-pprof-env.sh"
helper="python3 $src/tests/interop/pprof-raw-folded.py"
data=$src/tests/data/pprof
fail=0 checks=0
# Sets go tool pprof merges: one kind thrice, kinds with the same sample types.
for set in "cpu cpu cpu" "heap allocs heap" "mutex block" "goroutine goroutine" "threadcreate threadcreate"; do
    files=()
    for kind in $set; do files+=("$data/$kind.pb.gz"); done
    go tool pprof -proto "${files[@]}" >"$scratch/go.pb.gz" 2>/dev/null
    "$profdata" merge --quiet "${files[@]}" -o "$scratch/ours.pb.gz"
    go tool pprof -raw "$scratch/go.pb.gz" 2>/dev/null | $helper samples >"$scratch/go.samples"
    go tool pprof -raw "$scratch/ours.pb.gz" 2>/dev/null | $helper samples >"$scratch/ours.samples"
    checks=$((checks + 1))
    if cmp -s "$scratch/go.samples" "$scratch/ours.samples"; then
        echo "ok   $set: $(wc -l <"$scratch/ours.samples") samples, as go tool pprof -proto merges them"
    else
        echo "FAIL $set: the merge differs from go tool pprof -proto's"
        diff "$scratch/go.samples" "$scratch/ours.samples" | head -10
        fail=$((fail + 1))
    fi
done
# The merge of merges is the merge of all (associative), whatever the order (commutative).
"$profdata" merge --quiet "$data/heap.pb.gz" "$data/allocs.pb.gz" -o "$scratch/ab.pb.gz"
"$profdata" merge --quiet "$data/heap.pb.gz" "$scratch/ab.pb.gz" -o "$scratch/ab-c.pb.gz"
"$profdata" merge --quiet "$data/allocs.pb.gz" "$data/heap.pb.gz" "$data/heap.pb.gz" -o "$scratch/cba.pb.gz"
checks=$((checks + 1))
if cmp -s <(go tool pprof -raw "$scratch/ab-c.pb.gz" 2>/dev/null | $helper samples) \
          <(go tool pprof -raw "$scratch/cba.pb.gz" 2>/dev/null | $helper samples); then
    echo "ok   merge (heap allocs) heap reads as merge allocs heap heap"
else
    echo "FAIL merge is not associative and commutative"
    fail=$((fail + 1))
fi
# diff BASE NEW: the folded stacks of every value, as -diff_base (with -normalize) shows them.
for pair in "mutex block" "allocs heap" "cpu cpu"; do
    read -r base new <<<"$pair"
    for normalize in "" -normalize; do
        "$profdata" diff --quiet ${normalize:+-$normalize} "$data/$base.pb.gz" "$data/$new.pb.gz" -o "$scratch/d.pb.gz"
        go tool pprof -raw $normalize -diff_base "$data/$base.pb.gz" "$data/$new.pb.gz" 2>/dev/null >"$scratch/go.raw"
        go tool pprof -raw "$scratch/d.pb.gz" 2>/dev/null >"$scratch/ours.raw"
        n=0
        while read -r type; do
            checks=$((checks + 1))
            if cmp -s <($helper folded "$n" <"$scratch/go.raw" | LC_ALL=C sort) \
                      <($helper folded "$n" <"$scratch/ours.raw" | LC_ALL=C sort); then
                echo "ok   diff $base $new ${normalize:-} $type: as go tool pprof -diff_base"
            else
                echo "FAIL diff $base $new ${normalize:-} $type: differs from go tool pprof -diff_base"
                fail=$((fail + 1))
            fi
            n=$((n + 1))
        done < <($helper types <"$scratch/go.raw")
    done
done
echo "$((checks - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
