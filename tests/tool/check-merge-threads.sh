#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `profdata merge` splits its inputs in two runs merged on two threads when
# it may use two processors: what it writes is byte for byte what one run
# writes (taskset -c 0 leaves it one processor), with the same warnings in
# the same order, and a bad input in either run fails the merge, naming the
# file, with nothing written.
# Usage: check-merge-threads.sh PROFDATA SOURCE_ROOT. 77 without taskset,
# a second processor or the pprof codec.
set -euo pipefail
tool=$1
root=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/tool/expect.sh
source "$root/tests/tool/expect.sh"
command -v taskset >/dev/null || { echo "skipped: no taskset"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "skipped: one processor"; exit 77; }
"$tool" formats | grep -q '^ *pprof ' || { echo "skipped: built without pprof"; exit 77; }
data=$root/tests/data

# Sets of inputs: one format; two formats whose profiles share a sample type; mappings, class loads, labels.
sets=(
  "pprof/cpu.pb.gz pprof/cpu.pb.gz pprof/cpu.pb.gz"
  "pprof/heap.pb.gz pprof/allocs.pb.gz pprof/heap.pb.gz pprof/allocs.pb.gz"
  "pprof/cpu.pb.gz gperftools/cpu-100hz.prof gperftools/cpu-1000hz.prof pprof/cpu.pb.gz"
  "hprof/synthetic/agent-1.0.1-id4.hprof gperftools/cpu-100hz.prof hprof/synthetic/agent-1.0.1-id4.hprof"
  # split by bytes after the first: the second run meets a sample type its first input lacks
  "gperftools/cpu-1000hz.prof hprof/synthetic/agent-1.0.1-id4.hprof gperftools/cpu-100hz.prof"
)
for set in "${sets[@]}"; do
  files=()
  for f in $set; do files+=("$data/$f"); done
  expect_status 0 "$tool" merge --quiet "${files[@]}" -o "$dir/two.pb.gz"
  expect_status 0 taskset -c 0 "$tool" merge --quiet "${files[@]}" -o "$dir/one.pb.gz"
  cmp -s "$dir/two.pb.gz" "$dir/one.pb.gz" || fail "merge $set: two threads wrote other bytes than one"
  # Without --quiet: the warnings too (a sample type one input lacks, numbered by input).
  expect_status 0 "$tool" merge --to pprof "${files[@]}" -o "$dir/two.pb.gz"
  mv "$dir/err" "$dir/two.err"
  expect_status 0 taskset -c 0 "$tool" merge --to pprof "${files[@]}" -o "$dir/one.pb.gz"
  cmp -s "$dir/two.err" "$dir/err" || fail "merge $set: two threads said $(cat "$dir/two.err"), one $(cat "$dir/err")"
  cmp -s "$dir/two.pb.gz" "$dir/one.pb.gz" || fail "merge $set (warnings said): other bytes than one thread's"
done
grep -q "left out" "$dir/two.err" || fail "the last set's merge said no warning: $(cat "$dir/two.err")"

# A bad input, in the first run or the second: the merge fails naming it and writes nothing.
printf 'not a profile at all\n' >"$dir/bad.pb.gz"
good=$data/pprof/cpu.pb.gz
for order in "bad good good good" "good good good bad"; do
  files=()
  for f in $order; do [ "$f" = bad ] && files+=("$dir/bad.pb.gz") || files+=("$good"); done
  rm -f "$dir/out.pb.gz"
  "$tool" merge --quiet "${files[@]}" -o "$dir/out.pb.gz" >"$dir/out" 2>"$dir/err" && fail "merge $order succeeded"
  grep -q "bad.pb.gz" "$dir/err" || fail "merge $order: the error does not name the bad file: $(cat "$dir/err")"
  [ ! -e "$dir/out.pb.gz" ] || fail "merge $order: an output was written"
done
echo "merge on two threads: as on one; bad inputs refused"
