#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `profdata report DUMP -o OUT.html`: one page whose data is what the heap
# commands print with --json (histo --retained, suspects, waste, and diff
# with --baseline), the top of the dominator tree with every node after its
# parent and inside it, and no '<' in the data (a string of the dump cannot
# end the script element). The planted leak and growth of the JDK-made
# fixtures are in it. Without -o it is refused; a failed report writes
# nothing. (The page itself is tested in Chromium: tests/interop/browser/report.sh.)
# Usage: check-report.sh PROFDATA SOURCE_ROOT PYTHON
set -euo pipefail
tool=$1 root=$2 python=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/tool/expect.sh
. "$root/tests/tool/expect.sh"
data=$root/tests/data/hprof
leaks=$data/jdk17-leaks.hprof.gz old=$data/jdk17-growth-1.hprof.gz new=$data/jdk17-growth-2.hprof.gz

# The page's data, and the commands' own JSON beside it.
expect_status 0 "$tool" report --quiet "$leaks" -o "$dir/leaks.html"
for c in suspects waste; do "$tool" $c --quiet --json "$leaks" >"$dir/$c.json"; done
"$tool" histo --retained --quiet --json "$leaks" >"$dir/histo.json"
"$tool" info --quiet --json "$leaks" >"$dir/info.json"
expect_status 0 "$tool" report --quiet "$new" --baseline "$old" -o "$dir/growth.html" -n 5
"$tool" diff --quiet --json "$old" "$new" -n 5 >"$dir/diff.json"

"$python" - "$dir" <<'PY' || fail "the report's data"
import json, re, sys
d = sys.argv[1]
def data(name):
    page = open(f"{d}/{name}", encoding="utf-8").read()
    blocks = re.findall(r'^<script type="application/json" id="profdata-data">(.*?)</script>$', page, re.S | re.M)
    assert len(blocks) == 1, f"{name}: {len(blocks)} data blocks"
    assert "<" not in blocks[0], f"{name}: a '<' in the data"
    assert "\n<!-- profdata-report-data -->\n" not in page, f"{name}: the marker is left"
    return json.loads(blocks[0])
def load(name):
    return json.load(open(f"{d}/{name}"))

r = data("leaks.html")
assert r["profdata_report"] == 1 and r["file"] == "jdk17-leaks.hprof.gz" and r["format"] == "hprof", r["file"]
assert r["suspects"] == load("suspects.json"), "suspects differ from suspects --json"
assert r["waste"] == load("waste.json"), "waste differs from waste --json"
assert r["histogram"] == load("histo.json"), "histogram differs from histo --retained --json"
assert r["diff"] is None and "baseline" not in r
o = r["overview"]
assert o["objects"] == load("info.json")["counts"]["objects"], o
assert o["reachable_bytes"] + o["unreachable_bytes"] == o["shallow_bytes"], o
assert sum(x["count"] for x in o["roots"]) > 0, o
assert [x["count"] for x in o["roots"]] == sorted((x["count"] for x in o["roots"]), reverse=True), o
t = r["tree"]
assert t["total"] == o["reachable_bytes"] and 0 < len(t["nodes"]) <= 4000, len(t["nodes"])
inside = [0] * len(t["nodes"])
for k, n in enumerate(t["nodes"]):
    assert -1 <= n["parent"] < k, (k, n)
    assert n["shallow"] <= n["retained"], n
    if n["parent"] >= 0:
        inside[n["parent"]] += n["retained"]
for k, n in enumerate(t["nodes"]):
    # a class object's own size counts in no retained size (VisualVM's rule: doc/heap-analysis.md)
    own = 0 if n.get("class_object") else n["shallow"]
    assert inside[k] + own <= n["retained"], (k, n, inside[k])
assert sum(n["retained"] for n in t["nodes"] if n["parent"] < 0) <= t["total"]
planted = [n for n in t["nodes"] if n.get("class_object") == "LeaksFixture"]
assert len(planted) == 1 and planted[0]["retained"] * 2 > t["total"] // 10, planted
assert any(s.get("class_object") == "LeaksFixture" for s in r["suspects"]["suspects"]), "no planted suspect"

g = data("growth.html")
assert g["baseline"] == "jdk17-growth-1.hprof.gz" and g["diff"] == load("diff.json"), "diff differs from diff --json"
assert g["diff"]["classes"][0]["class"] == "GrowthFixture$Order", g["diff"]["classes"][0]
assert len(g["waste"]["strings"]["top"]) <= 5 and len(g["diff"]["classes"]) <= 5, "--limit 5 not passed on"
print("data: as the commands print it; the tree's", len(t["nodes"]), "nodes inside their parents")
PY
echo "the page's data is the commands' JSON; the planted leak and growth are in it"

expect_status 2 "$tool" report --quiet "$leaks"
grep -q 'report needs --output' "$dir/err" || fail "no -o: $(cat "$dir/err")"
printf 'not a heap dump\n' >"$dir/bad.hprof"
expect_status 1 "$tool" report --quiet "$dir/bad.hprof" -o "$dir/bad.html"
[ ! -e "$dir/bad.html" ] || fail "a failed report wrote its output"
expect_status 1 "$tool" report --quiet "$leaks" --baseline "$dir/bad.hprof" -o "$dir/bad.html"
[ ! -e "$dir/bad.html" ] || fail "a report with a bad baseline wrote its output"
cp "$dir/leaks.html" "$dir/ro.html" && chmod 444 "$dir/ro.html"
expect_status 1 "$tool" report --quiet "$leaks" -o "$dir/ro.html"
grep -q 'read-only' "$dir/err" || fail "a read-only OUT: $(cat "$dir/err")"
expect_status 0 "$tool" report --quiet --force "$leaks" -o "$dir/ro.html"
[ "$(stat -c %a "$dir/ro.html")" = 444 ] || fail "--force did not keep the mode"
echo "refusals: no -o, a bad dump or baseline (nothing written), a read-only OUT"
