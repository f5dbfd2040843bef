#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `profdata top` answers for every input: a CPU profile's busiest functions
# (flat and cumulative, per line or file, any sample type), a heap dump's
# biggest objects with hexadecimal ids and class objects named, and a word
# why when a dump has no GC roots; -n and --limit are one option; a heap
# dump is refused by every writer of samples, leaving no output.
# Usage: check-top.sh PROFDATA SOURCE_ROOT PYTHON
set -euo pipefail
tool=$1 root=$2 python=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/tool/expect.sh
. "$root/tests/tool/expect.sh"
cpu=$root/tests/data/gperftools/cpu-100hz.prof
dump=$root/tests/data/hprof/jdk17-loaders.hprof

# A CPU profile: pprof's columns, the binary of what could not be named, JSON that adds up.
expect_status 0 "$tool" top --quiet "$cpu"
grep -q '^cpu (nanoseconds): 2550000000 in all' "$dir/out" || fail "top of a CPU profile: $(cat "$dir/out")"
grep -qE '^ +2450000000 +96\.08% +96\.08% +2550000000 100\.00%  \[workload\]$' "$dir/out" ||
  fail "top's first row: $(cat "$dir/out")"
expect_status 0 "$tool" top --quiet --json --sample-type samples "$cpu"
"$python" - "$dir/out" <<'PY' || fail "top --json: $(cat "$dir/out")"
import json, sys
t = json.load(open(sys.argv[1]))
assert t["sample_type"] == "samples" and t["unit"] == "count" and t["total"] == 255, t
rows = t["functions"]
assert sum(r["flat"] for r in rows) == t["total"] and max(r["cum"] for r in rows) == t["total"], rows
assert [r["flat"] for r in rows] == sorted((r["flat"] for r in rows), reverse=True)
PY
expect_status 0 "$tool" top --quiet --json --lines "$cpu"
grep -q '"lines":\[' "$dir/out" || fail "top --lines: $(cat "$dir/out")"
expect_status 0 "$tool" top --quiet --json --files "$cpu"
grep -q '"files":\[' "$dir/out" || fail "top --files: $(cat "$dir/out")"
expect_status 2 "$tool" top --quiet --sample-type alloc_space "$cpu"
grep -q 'sample type "alloc_space": the profile has samples, cpu' "$dir/err" || fail "unknown sample type: $(cat "$dir/err")"
expect_status 2 "$tool" top --quiet --lines --files "$cpu"
echo "top of a CPU profile: flat and cum per function, line and file, any sample type"

# -n and --limit are one option, for top and histo alike.
"$tool" top --quiet -n 2 "$cpu" >"$dir/n"
"$tool" top --quiet --limit 2 "$cpu" >"$dir/limit"
cmp -s "$dir/n" "$dir/limit" || fail "top -n 2 and --limit 2 differ"
[ "$(grep -cE '^ +-?[0-9]+ ' "$dir/n")" = 2 ] || fail "top -n 2: $(cat "$dir/n")"
"$tool" histo -n 3 "$dump" >"$dir/n"
"$tool" histo --limit 3 "$dump" >"$dir/limit"
cmp -s "$dir/n" "$dir/limit" || fail "histo -n 3 and --limit 3 differ"
echo "-n and --limit: the same option for top and histo"

# A heap dump: ids in hexadecimal as every other message, a class object names its class.
expect_status 0 "$tool" top --quiet -n 3 "$dump"
grep -qE '^ +1 +0x[0-9a-f]+ +72 +35424  class java\.lang\.System$' "$dir/out" || fail "top of a heap dump: $(cat "$dir/out")"
expect_status 0 "$tool" top --quiet --json -n 1 "$dump"
grep -q '"class":"java.lang.Class","class_object":"java.lang.System"' "$dir/out" || fail "top --json: $(cat "$dir/out")"
id=$(grep -oE '0x[0-9a-f]+' <("$tool" top --quiet -n 1 "$dump") | head -1)
expect_status 0 "$tool" path --quiet "$dump" "$id"
grep -qE "@$id\$" "$dir/out" || fail "path names the object by its hexadecimal id: $(cat "$dir/out")"
echo "top and path of a heap dump: hexadecimal ids, class objects with their class"

# No GC roots (an IBM classic heapdump records none): a word why, not an empty table.
expect_status 1 "$tool" top --quiet "$root/tests/data/classic/jdmpview.txt"
grep -q "the dump has no GC roots (the ibm-classic input names none)" "$dir/err" || fail "top without roots: $(cat "$dir/err")"
[ ! -s "$dir/out" ] || fail "top without roots printed a table: $(cat "$dir/out")"
echo "top of a dump without GC roots: refused with the reason"

# Every writer of samples refuses a heap dump and leaves nothing behind.
for out in d.svg d.speedscope.json d.trace.json d.prof d.folded; do
  expect_status 1 "$tool" convert --quiet "$dump" "$dir/$out"
  grep -q "holds no samples, only a heap" "$dir/err" || fail "convert to $out: $(cat "$dir/err")"
  [ ! -e "$dir/$out" ] || fail "convert to $out left an output"
done
echo "a heap dump to flamegraph, speedscope, chrome-trace, gperftools, folded: refused, no output"
