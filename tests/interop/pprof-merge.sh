#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# profdata merge, diff and the filters against go tool pprof, on the Go
# runtime profiles of tests/data/pprof:
#   1. merge: -raw of ours and of go tool pprof -proto A B ..., taken as
#      values, stacks by name and labels of every sample, is the same; a
#      merge of a merge is the merge of all, in any order;
#   2. diff BASE NEW (--normalize): the folded stacks of every sample type
#      are those of -diff_base (-normalize);
#   3. the read options focus, ignore, hide, prune_from: our folded stacks
#      of every sample type are those of -raw with -focus, -ignore, -hide,
#      -prune_from;
#   4. and the pprof we write of such a filtered input reads in go tool pprof
#      -raw as its own filter shows the input: a location a filter took some
#      inlined lines (or the line they were inlined into) out of is written
#      with the lines kept.
# Usage: pprof-merge.sh PROFDATA SRCDIR. 77 (skip) without go.
set -euo pipefail
profdata=$1
src=$2
# shellcheck source=tests/interop/go-pprof-env.sh
source "$src/tests/interop/go-pprof-env.sh"
helper="python3 $src/tests/interop/pprof-raw-folded.py"
data=$src/tests/data/pprof
samples() { go tool pprof -raw "$1" 2>/dev/null | $helper samples >"$2"; }
# folded_types RAW OURS_CMD...: for each sample type of -raw output RAW, ours (the command, given
# --read-option sample=TYPE and OUT last) against RAW's folded stacks of that type
folded_types() {
    local raw=$1 what=$2 n=0 type
    shift 2
    while read -r type; do
        "$@" --read-option "sample=$type" "$scratch/ours.folded"
        # go tool pprof -raw leaves out samples without a location (hide can take all); we keep them as [empty]
        grep -v -e ' 0$' -e '^\[empty\] ' "$scratch/ours.folded" | LC_ALL=C sort >"$scratch/ours" || true
        $helper folded "$n" <"$raw" | LC_ALL=C sort >"$scratch/go"
        same "$what $type: as go tool pprof" "$scratch/go" "$scratch/ours"
        n=$((n + 1))
    done < <($helper types <"$raw")
}

for set in "cpu cpu cpu" "heap allocs heap" "mutex block" "goroutine goroutine" "threadcreate threadcreate"; do
    files=()
    for kind in $set; do files+=("$data/$kind.pb.gz"); done
    go tool pprof -proto "${files[@]}" >"$scratch/go.pb.gz" 2>/dev/null
    "$profdata" merge --quiet "${files[@]}" -o "$scratch/ours.pb.gz"
    samples "$scratch/go.pb.gz" "$scratch/go.samples"
    samples "$scratch/ours.pb.gz" "$scratch/ours.samples"
    same "merge $set: as go tool pprof -proto" "$scratch/go.samples" "$scratch/ours.samples"
done
"$profdata" merge --quiet "$data/heap.pb.gz" "$data/allocs.pb.gz" -o "$scratch/ab.pb.gz"
"$profdata" merge --quiet "$data/heap.pb.gz" "$scratch/ab.pb.gz" -o "$scratch/ab-c.pb.gz"
"$profdata" merge --quiet "$data/allocs.pb.gz" "$data/heap.pb.gz" "$data/heap.pb.gz" -o "$scratch/cba.pb.gz"
samples "$scratch/ab-c.pb.gz" "$scratch/ab-c.samples"
samples "$scratch/cba.pb.gz" "$scratch/cba.samples"
same "merge (heap allocs) heap reads as merge allocs heap heap" "$scratch/ab-c.samples" "$scratch/cba.samples"

for pair in "mutex block" "allocs heap" "cpu cpu"; do
    read -r base new <<<"$pair"
    for normalize in "" -normalize; do
        "$profdata" diff --quiet ${normalize:+-$normalize} "$data/$base.pb.gz" "$data/$new.pb.gz" -o "$scratch/d.pb.gz"
        go tool pprof -raw $normalize -diff_base "$data/$base.pb.gz" "$data/$new.pb.gz" 2>/dev/null >"$scratch/go.raw"
        folded_types "$scratch/go.raw" "diff $base $new $normalize" "$profdata" convert --quiet "$scratch/d.pb.gz"
    done
done

filters=("focus=main.hash" "focus=contend" "ignore=asyncPreempt" "ignore=main.cpuWork" "hide=runtime"
         "hide=^main[.]" "hide=main.hash" "hide=main.spin" "prune_from=main.spin" "prune_from=main.hash"
         "prune_from=runtime.main" "prune_from=chanrecv")
# raw_same WHAT RAW_A RAW_B: every sample type's folded stacks of two -raw outputs
raw_same() {
    local n=0 type
    while read -r type; do
        $helper folded "$n" <"$2" | LC_ALL=C sort >"$scratch/a"
        $helper folded "$n" <"$3" | LC_ALL=C sort >"$scratch/b"
        same "$1 $type" "$scratch/a" "$scratch/b"
        n=$((n + 1))
    done < <($helper types <"$2")
}
for kind in cpu heap mutex block goroutine; do
    for filter in "${filters[@]}"; do
        go tool pprof -raw "-${filter%%=*}=${filter#*=}" "$data/$kind.pb.gz" 2>/dev/null >"$scratch/go.raw"
        folded_types "$scratch/go.raw" "$kind $filter" \
            "$profdata" convert --quiet --read-option "$filter" "$data/$kind.pb.gz"
        "$profdata" convert --quiet --read-option "$filter" "$data/$kind.pb.gz" "$scratch/f.pb.gz"
        go tool pprof -raw "$scratch/f.pb.gz" 2>/dev/null >"$scratch/f.raw"
        raw_same "$kind $filter, written as pprof:" "$scratch/go.raw" "$scratch/f.raw"
    done
done
echo "$((checks - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
