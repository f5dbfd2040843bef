#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `profdata diff OLD NEW` of the two dumps of tests/data/hprof/jdk17-growth
# (one process before and after a planted growth, gen/GrowthFixture.java)
# agrees with an independent computation over VisualVM's heap library: each
# dump's per-class instances and shallow bytes (VisualVMHisto) and retained
# bytes (VisualVMRetained --classes), summed by class name as the diff sums
# several loaders' classes of one name, then subtracted; every class of
# either dump must have our old, new and change figures, and the biggest new
# dominator the retained size VisualVM gives that object. Exit 77 without
# Java or VisualVM.
#   heap-diff-visualvm.sh PROFDATA_TOOL SOURCE_ROOT
set -euo pipefail
pd=$1 root=$2
here=$root/tests/interop
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=tests/interop/visualvm-jar.sh
. "$here/visualvm-jar.sh"
visualvm_require "$work" "$here/VisualVMHisto.java" "$here/VisualVMRetained.java"

old=$root/tests/data/hprof/jdk17-growth-1.hprof.gz
new=$root/tests/data/hprof/jdk17-growth-2.hprof.gz
for side in old new; do
  # Each dump in a directory of its own: VisualVM keeps its index files beside the dump.
  mkdir "$work/$side"
  gzip -dc "${!side}" >"$work/$side/dump.hprof"
  for mode in histo classes all; do
    case $mode in
      histo) main=VisualVMHisto args=() ;;
      classes) main=VisualVMRetained args=(--classes) ;;
      all) main=VisualVMRetained args=(--all) ;;
    esac
    # shellcheck disable=SC2086 # VISUALVM_JAVA_OPTS is a list of options
    java ${VISUALVM_JAVA_OPTS:-} -cp "$heap_jar:$work" "$main" "${args[@]}" "$work/$side/dump.hprof" \
      >"$work/$side.$mode.tsv"
  done
done
"$pd" diff --json --quiet --limit 1000000 "$old" "$new" >"$work/diff.json"

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def by_name(side):
    rows = {}
    for line in open("%s/%s.histo.tsv" % (work, side)):
        name, count, size = line.rstrip("\n").split("\t")
        r = rows.setdefault(name, [0, 0, 0])
        r[0] += int(count); r[1] += int(size)
    for line in open("%s/%s.classes.tsv" % (work, side)):
        name, _, retained = line.rstrip("\n").split("\t")
        rows.setdefault(name, [0, 0, 0])[2] += int(retained)
    return rows
vv = {"old": by_name("old"), "new": by_name("new")}
d = json.load(open(work + "/diff.json"))
ours = {c["class"]: c for c in d["classes"]}
fail = []
names = set(vv["old"]) | set(vv["new"])
if d["total_classes"] != len(d["classes"]):
    fail.append("--limit 1000000 listed %d of %d classes" % (len(d["classes"]), d["total_classes"]))
for name in sorted(names | set(ours)):
    c = ours.get(name)
    if c is None:
        fail.append("%s: in VisualVM's histogram, not in the diff" % name)
        continue
    for k, key in enumerate(("instances", "bytes", "retained")):
        o, n = vv["old"].get(name, [0, 0, 0])[k], vv["new"].get(name, [0, 0, 0])[k]
        if (c["old"][key], c["new"][key], c[key]) != (o, n, n - o):
            fail.append("%s %s: old %d new %d change %d here, %d %d %d by VisualVM" %
                        (name, key, c["old"][key], c["new"][key], c[key], o, n, n - o))
retained = {}
for line in open(work + "/new.all.tsv"):
    f = line.split("\t")
    retained[int(f[0])] = int(f[3])
top = d["new_dominators"][0] if d["new_dominators"] else None
if not top or top["class"] != "java.util.HashMap$Node[]" or retained.get(top["id"]) != top["retained"]:
    fail.append("the biggest new dominator %r: VisualVM's retained size %r" % (top, top and retained.get(top["id"])))
planted = ours.get("GrowthFixture$Order", {})
if d["classes"][0]["class"] != "GrowthFixture$Order" or planted.get("instances") != 3000:
    fail.append("the planted class is not first with 3000 more instances: %r" % d["classes"][0])
for f in fail[:40]:
    print("heap-diff-visualvm: " + f)
if not fail:
    print("ok: %d classes, their instances, shallow and retained bytes in both dumps and the changes agree with "
          "VisualVM; %d objects in both by id, %d new, %d gone" %
          (len(names), d["objects"]["matched"], d["objects"]["new"], d["objects"]["gone"]))
sys.exit(1 if fail else 0)
PY
