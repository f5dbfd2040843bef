#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `profdata diff OLD NEW` of two heap dumps: the planted growth of
# tests/data/hprof/jdk17-growth-{1,2} (gen/GrowthFixture.java) comes first,
# as planted, in the text and the JSON; --sort and --limit do what they say;
# a heap dump with a profile, and each kind of input given the other's
# options, are refused (exit 2) with a reason; two profiles still diff.
# Usage: check-heap-diff.sh PROFDATA SOURCE_ROOT PYTHON
set -euo pipefail
tool=$1 root=$2 python=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/tool/expect.sh
. "$root/tests/tool/expect.sh"
old=$root/tests/data/hprof/jdk17-growth-1.hprof.gz
new=$root/tests/data/hprof/jdk17-growth-2.hprof.gz
cpu=$root/tests/data/gperftools/cpu-100hz.prof

expect_status 0 "$tool" diff --quiet "$old" "$new"
grep -qE '^ +\+3000 +\+192000 +\+336000 +4000 +256000 +448000  GrowthFixture\$Order$' "$dir/out" ||
  fail "the planted class is not the first row as planted: $(cat "$dir/out")"
grep -qE '^objects by id: [0-9]+ in both' "$dir/out" || fail "no objects by id: $(cat "$dir/out")"
grep -qE '^ +1 +0x[0-9a-f]+ +32784 +[0-9]+  java\.util\.HashMap\$Node\[\]$' "$dir/out" ||
  fail "the grown table is not the first new dominator: $(cat "$dir/out")"
echo "text: the planted class first, the grown table the biggest new dominator"

expect_status 0 "$tool" diff --quiet --json "$old" "$new"
"$python" - "$dir/out" <<'PY' || fail "diff --json: $(cat "$dir/out")"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["classes"][0]
assert c["class"] == "GrowthFixture$Order" and c["instances"] == 3000 and c["bytes"] == 3000 * 64, c
assert c["old"]["instances"] == 1000 and c["new"]["instances"] == 4000, c
assert c["new"]["bytes"] - c["old"]["bytes"] == c["bytes"], c
assert d["order"] == "bytes" and d["total_classes"] >= len(d["classes"]) == 20, d
assert [x["bytes"] for x in d["classes"]] == sorted((x["bytes"] for x in d["classes"]), reverse=True)
o = d["objects"]
assert o["matched"] + o["new"] == d["new"]["objects"] and o["matched"] + o["gone"] == d["old"]["objects"], o
assert o["new"] >= 4 * 3000, o
assert d["new_dominators"][0]["class"] == "java.util.HashMap$Node[]", d["new_dominators"]
PY
expect_status 0 "$tool" diff --quiet --json --sort retained -n 2 "$old" "$new"
"$python" - "$dir/out" <<'PY' || fail "diff --sort retained -n 2: $(cat "$dir/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["order"] == "retained" and len(d["classes"]) == 2 and len(d["new_dominators"]) <= 2, d
assert d["classes"][0]["retained"] >= d["classes"][1]["retained"], d
PY
expect_status 0 "$tool" diff --quiet --json --sort instances -n 0 "$old" "$new"
grep -q '"classes":\[\],"new_dominators":\[\]' "$dir/out" || fail "diff -n 0: $(cat "$dir/out")"
echo "json: as planted; --sort and --limit"

expect_status 2 "$tool" diff --quiet "$old" "$cpu"
grep -q 'is a heap dump and .* a profile of samples: diff compares two heap dumps or two profiles' "$dir/err" ||
  fail "a heap dump with a profile: $(cat "$dir/err")"
expect_status 2 "$tool" diff --quiet "$cpu" "$new"
expect_status 2 "$tool" diff --quiet "$old" "$new" -o "$dir/out.folded"
grep -q -- '--output is for the diff of two profiles' "$dir/err" || fail "--output on heap dumps: $(cat "$dir/err")"
[ ! -e "$dir/out.folded" ] || fail "a refused heap diff wrote its --output"
expect_status 2 "$tool" diff --quiet --json "$cpu" "$cpu" -o "$dir/d.folded"
grep -q -- '--json is for the diff of two heap dumps' "$dir/err" || fail "--json on profiles: $(cat "$dir/err")"
expect_status 0 "$tool" diff --quiet "$cpu" "$cpu" -o "$dir/d.folded"
expect_status 2 "$tool" diff --quiet "$cpu" "$cpu"
grep -q 'diff needs --output OUT' "$dir/err" || fail "profiles without --output: $(cat "$dir/err")"
echo "refusals: a heap dump with a profile, each input kind the other's options; profiles still diff"
