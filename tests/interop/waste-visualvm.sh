#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `profdata waste` finds the duplicate strings an independent computation
# over VisualVM's heap library finds (VisualVMStrings.java): the same
# number of reachable strings, groups, copies and wasted bytes, and group
# by group (its text, cut at 100 characters, and length) the same count and
# wasted bytes. On the JDK-made fixture with planted waste
# (tests/data/hprof/gen/WasteFixture.java: byte[] strings, LATIN1 and
# UTF16), and on the corpus' JDK 8 dumps (char[] strings) when the corpus
# is there. Exit 77 without Java or VisualVM.
#   waste-visualvm.sh PROFDATA_TOOL SOURCE_ROOT
set -euo pipefail
pd=$1 root=$2
here=$root/tests/interop
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=tests/interop/visualvm-jar.sh
. "$here/visualvm-jar.sh"
visualvm_require "$work" "$here/VisualVMStrings.java"

gzip -dc "$root/tests/data/hprof/jdk17-waste.hprof.gz" >"$work/waste.hprof"
dumps=("$work/waste.hprof")
corpus=${PROFDATA_CORPUS:-${PD_CORPUS_OPTION:-$root/../shared/corpus}}
for f in hprof-slurp_hprof-64.bin hprof-slurp_hprof-32.bin; do
  if [ -f "$corpus/hprof/$f" ]; then
    dumps+=("$corpus/hprof/$f")
  else
    echo "note: $corpus/hprof/$f absent: its char[] strings are not checked"
  fi
done

for dump in "${dumps[@]}"; do
  java ${VISUALVM_JAVA_OPTS:-} -cp "$heap_jar:$work" VisualVMStrings "$dump" >"$work/visualvm.tsv"
  "$pd" waste --json --quiet --limit 1000000 "$dump" >"$work/ours.json"
  python3 - "$work" "$(basename "$dump")" <<'PY'
import collections, json, sys
work, name = sys.argv[1], sys.argv[2]
lines = open(work + "/visualvm.tsv").read().splitlines()
strings, groups, copies, wasted = map(int, lines[0].split("\t"))
theirs = collections.Counter()
for line in lines[1:]:
    count, waste, length, text = line.split("\t")
    theirs[(bytes.fromhex(text).decode("utf-8"), int(length), int(count), int(waste))] += 1
s = json.load(open(work + "/ours.json"))["strings"]
ours = collections.Counter((x["text"], x["length"], x["count"], x["wasted"]) for x in s["top"])
fail = []
for what, a, b in (("strings", s["strings"], strings), ("groups", s["groups"], groups),
                   ("copies", s["copies"], copies), ("wasted bytes", s["wasted"], wasted)):
    if a != b:
        fail.append("%s: %d here, %d over VisualVM" % (what, a, b))
if len(s["top"]) != s["groups"]:
    fail.append("%d groups listed of %d" % (len(s["top"]), s["groups"]))
for key in sorted((ours - theirs) + (theirs - ours), key=repr)[:10]:
    fail.append("group %r: %d here, %d over VisualVM" % (key, ours[key], theirs[key]))
for f in fail:
    print("waste-visualvm: %s: %s" % (name, f))
if fail:
    sys.exit(1)
print("ok: %s: %d strings, %d groups of %d copies, %d bytes wasted, as over VisualVM" % (name, strings, groups, copies, wasted))
PY
done
