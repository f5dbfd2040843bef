#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The heap analysis agrees with VisualVM's heap library: on every HPROF
# fixture, and on the shared corpus when present, the 50 biggest objects by
# retained size (ids, shallow and retained sizes, in order) equal
# Heap.getBiggestObjectsByRetainedSize(50) with Instance.getRetainedSize()
# (ties at the 50th left out);
# and the path to a GC root that `profdata path` gives for the first ten of
# them is a chain VisualVM confirms (a GC root first, then each object a
# field, array element or static of the one before); and the retained
# histogram (`profdata histo --retained`) equals JavaClass.getRetainedSizeByClass()
# class by class. The same for each of these dumps rewritten into Android's
# (ART's) layout by hprof-art-layout.py --unreachable: HPROF 1.0.3, HEAP DUMP
# INFO switching heaps, ART's root kinds, Dalvik's UNREACHABLE records.
# Exit 77 without Java or VisualVM.
#   heap-visualvm.sh PROFDATA_TOOL SOURCE_ROOT
set -euo pipefail
pd=$1 root=$2
here=$root/tests/interop
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=tests/interop/visualvm-jar.sh
. "$here/visualvm-jar.sh"
visualvm_require "$work" "$here/VisualVMRetained.java"

files=("$root"/tests/data/hprof/*.hprof "$root"/tests/data/hprof/*.hprof.gz "$root"/tests/data/hprof/synthetic/*.hprof)
[ -d "$root/../shared/corpus/hprof" ] && files+=("$root"/../shared/corpus/hprof/*)
mkdir "$work/art"
for f in "${files[@]}"; do
  case $f in *.gz | */synthetic/*) continue ;; esac
  if [ -f "$f" ] && ! python3 "$here/hprof-art-layout.py" --unreachable "$f" "$work/art/$(basename "$f").art.hprof"; then
    echo "hprof-art-layout.py could not rewrite $(basename "$f")"
    exit 1
  fi
done
files+=("$work"/art/*.hprof)

# VisualVM writes its index next to the dump: give it a private copy (decompressed: it reads no gzip).
visualvm() {
  java ${VISUALVM_JAVA_OPTS:-} -cp "$heap_jar:$work" VisualVMRetained "$@" "$work/dump.hprof"
}

compared=0
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  name=$(basename "$f")
  rm -rf "$work/dump.hprof" "$work"/dump.hprof.*
  if [ "$(head -c 2 "$f" | od -An -tx1 | tr -d ' \n')" = 1f8b ]; then gzip -dc "$f" >"$work/dump.hprof"; else cp "$f" "$work/dump.hprof"; fi
  if ! visualvm --top 50 >"$work/vv.tsv" 2>"$work/err"; then
    echo "VisualVM could not read $name: $(tail -n1 "$work/err")"
    continue
  fi
  "$pd" top --json --quiet -n 50 "$f" | python3 -c '
import json, sys
for o in json.load(sys.stdin)["objects"]:
    print("%d\t%s\t%d\t%d" % (o["id"], o["class"], o["shallow"], o["retained"]))' >"$work/ours.tsv"
  # A tie at the cut is no disagreement: objects retaining exactly what the
  # 50th does are left out of both lists (VisualVM orders ties as its index
  # lays the objects out, which no id order reproduces on every dump).
  for t in vv ours; do
    awk -F'\t' '{ r[NR] = $0; v[NR] = $4 } END { last = NR; if (NR == 50) while (last > 0 && v[last] == v[NR]) last--
                   for (i = 1; i <= last; i++) print r[i] }' "$work/$t.tsv" >"$work/$t.cut"
  done
  if ! diff -u "$work/vv.cut" "$work/ours.cut" >"$work/diff"; then
    echo "$name: the biggest objects differ from VisualVM's (- VisualVM, + profdata):"
    head -n 40 "$work/diff"
    exit 1
  fi
  echo "ok: $name: the 50 biggest objects and their retained sizes agree with VisualVM"
  visualvm --classes | cut -f1,3 | LC_ALL=C sort >"$work/vv-classes"
  "$pd" histo --retained --json --quiet "$f" | python3 -c '
import json, sys
for c in json.load(sys.stdin)["classes"]:
    print("%s\t%d" % (c["name"], c["retained"]))' | LC_ALL=C sort >"$work/ours-classes"
  if ! diff -u "$work/vv-classes" "$work/ours-classes" >"$work/diff"; then
    echo "$name: the retained histogram differs from VisualVM's (- VisualVM, + profdata):"
    head -n 40 "$work/diff"
    exit 1
  fi
  echo "ok: $name: $(wc -l <"$work/vv-classes") classes' retained sizes agree with VisualVM"
  : >"$work/paths"
  for id in $(head -n 10 "$work/ours.tsv" | cut -f1); do
    "$pd" path --json --quiet "$f" "$id" | python3 -c '
import json, sys
print(" ".join(str(s["id"]) for s in json.load(sys.stdin)["path"]))' >>"$work/paths"
  done
  visualvm --check-paths <"$work/paths" >"$work/checked"
  if grep -v '^ok$' "$work/checked" >/dev/null; then
    echo "$name: paths to GC roots VisualVM does not confirm:"
    paste "$work/checked" "$work/paths" | grep -v '^ok' | head
    exit 1
  fi
  echo "ok: $name: $(wc -l <"$work/paths") paths to GC roots are valid chains"
  compared=$((compared + 1))
done
[ $compared -gt 0 ] || { echo "no file could be compared"; exit 1; }
echo "$compared files compared: all agree with VisualVM"
