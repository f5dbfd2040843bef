#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `profdata suspects` finds the leaks planted in tests/data/hprof/jdk17-leaks
# (gen/LeaksFixture.java) as planted, and its figures agree with an
# independent computation over VisualVM's heap library (VisualVMRetained):
# the object suspect's and its accumulation point's retained sizes equal
# VisualVM's, the class suspect retains the sum of VisualVM's retained sizes
# of the class's instances, and every path from a GC root is a chain
# VisualVM confirms. Exit 77 without Java or VisualVM.
#   suspects-visualvm.sh PROFDATA_TOOL SOURCE_ROOT
set -euo pipefail
pd=$1 root=$2
here=$root/tests/interop
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=tests/interop/visualvm-jar.sh
. "$here/visualvm-jar.sh"
visualvm_require "$work" "$here/VisualVMRetained.java"

dump=$root/tests/data/hprof/jdk17-leaks.hprof.gz
gzip -dc "$dump" >"$work/dump.hprof"
visualvm() { java ${VISUALVM_JAVA_OPTS:-} -cp "$heap_jar:$work" VisualVMRetained "$@" "$work/dump.hprof"; }
visualvm --all >"$work/all.tsv"
visualvm --class-objects >"$work/classes.tsv"
"$pd" suspects --json --quiet "$dump" >"$work/suspects.json"

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
retained = {}
by_class = {}
for line in open(work + "/all.tsv"):
    f = line.rstrip("\n").split("\t")
    retained[int(f[0])] = int(f[3])
    by_class.setdefault(f[1], []).append(int(f[3]))
for line in open(work + "/classes.tsv"):
    f = line.rstrip("\n").split("\t")
    retained[int(f[0])] = int(f[3])
s = json.load(open(work + "/suspects.json"))
fail = []
objects = [x for x in s["suspects"] if x["kind"] == "object"]
classes = [x for x in s["suspects"] if x["kind"] == "class"]
cache = [x for x in objects if x.get("class_object") == "LeaksFixture"]
sessions = [x for x in classes if x["class"] == "LeaksFixture$Session"]
if len(cache) != 1:
    fail.append("the static map's class LeaksFixture is not an object suspect")
else:
    x = cache[0]
    acc = x["accumulation"]
    if acc.get("class") != "java.util.HashMap$Node[]":
        fail.append("the map's memory should gather in its HashMap$Node[] table, not %r" % acc)
    first = x["accumulated"][0] if x["accumulated"] else {}
    if first.get("class") != "java.util.HashMap$Node" or first.get("count") != 5000:
        fail.append("the table should hold 5000 HashMap$Node, not %r" % first)
    for what, oid, ours in (("suspect", x["id"], x["retained"]), ("accumulation point", acc["id"], acc["retained"])):
        if retained.get(oid) != ours:
            fail.append("%s %#x retains %d here, %r in VisualVM" % (what, oid, ours, retained.get(oid)))
if len(sessions) != 1:
    fail.append("LeaksFixture$Session is not a class suspect")
else:
    x = sessions[0]
    vv = by_class.get("LeaksFixture$Session", [])
    if x["instances"] != 1000 or len(vv) != 1000:
        fail.append("1000 sessions planted: %d here, %d in VisualVM" % (x["instances"], len(vv)))
    if x["retained"] != sum(vv):
        fail.append("the sessions retain %d here, %d summed over VisualVM's instances" % (x["retained"], sum(vv)))
with open(work + "/paths", "w") as out:
    for x in s["suspects"]:
        out.write(" ".join(str(step["id"]) for step in x["path"]) + "\n")
        if x["path"][-1]["id"] != x["id"]:
            fail.append("the path of %#x ends elsewhere" % x["id"])
for f in fail:
    print("suspects-visualvm: " + f)
sys.exit(1 if fail else 0)
PY
visualvm --check-paths <"$work/paths" >"$work/checked"
if grep -v '^ok$' "$work/checked" >/dev/null; then
  echo "paths from GC roots VisualVM does not confirm:"
  paste "$work/checked" "$work/paths" | grep -v '^ok'
  exit 1
fi
echo "ok: the planted suspects are found, their retained sizes agree with VisualVM, $(wc -l <"$work/paths") paths confirmed"
