#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `profdata histo` agrees class by class (name, instances, shallow bytes) with
# VisualVM's heap library on every HPROF fixture, and on the shared corpus
# when it is present. Classes that share a name (several class loaders) are
# compared as a multiset of lines. Exit 77 when VisualVM or Java is absent.
#   histo-visualvm.sh PROFDATA_TOOL SOURCE_ROOT
set -euo pipefail
pd=$1 root=$2
here=$root/tests/interop
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

files=("$root"/tests/data/hprof/*.hprof "$root"/tests/data/hprof/*.hprof.gz "$root"/tests/data/hprof/synthetic/*.hprof)
corpus=${PROFDATA_CORPUS:-${PD_CORPUS_OPTION:-$root/../shared/corpus}}
[ -d "$corpus/hprof" ] && files+=("$corpus"/hprof/*)

ours() {
  "$pd" histo --json --quiet "$1" | python3 -c '
import json, sys
for c in json.load(sys.stdin)["classes"]:
    print("%s\t%d\t%d" % (c["name"], c["instances"], c["bytes"]))' | LC_ALL=C sort
}

compared=0
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  rc=0
  bash "$here/visualvm-histo.sh" -b "$work/vv" "$f" >"$work/vv.tsv" 2>"$work/err" || rc=$?
  if [ $rc -eq 77 ]; then echo "skipped: VisualVM's heap library or Java is not installed"; exit 77; fi
  if [ $rc -ne 0 ]; then
    # VisualVM cannot open some valid files (see tests/interop/README.md); they are not ours to judge.
    echo "VisualVM could not read $(basename "$f"): $(tail -n1 "$work/err")"
    continue
  fi
  LC_ALL=C sort "$work/vv.tsv" > "$work/vv.sorted"
  ours "$f" > "$work/ours.sorted"
  if ! diff -u "$work/vv.sorted" "$work/ours.sorted" > "$work/diff"; then
    echo "$(basename "$f"): histogram differs from VisualVM's (- VisualVM, + profdata):"
    head -n 40 "$work/diff"
    exit 1
  fi
  echo "ok: $(basename "$f"): $(wc -l < "$work/vv.sorted") classes agree with VisualVM"
  compared=$((compared + 1))
done
[ $compared -gt 0 ] || { echo "no file could be compared"; exit 1; }
echo "$compared files agree"
