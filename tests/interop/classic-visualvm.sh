#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# VisualVM opens HPROF files made from IBM classic heapdumps:
# - a JDK dump converted to classic and back gives VisualVM's reference
#   histogram (java.lang.Object's bytes aside: doc/formats-classic.md);
# - every classic fixture converted to HPROF opens, with the classic file's
#   instance counts per class.
#
# Usage: classic-visualvm.sh PROFDATA_TOOL SOURCE_ROOT
# Exit 77 (skip) when VisualVM or Java is not installed.
set -euo pipefail

tool=$1
root=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/pd-classic-visualvm.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0

histo() {
    local rc=0
    bash "$here/visualvm-histo.sh" -b "$work/vv" "$1" >"$2" 2>"$work/err" || rc=$?
    if [ "$rc" = 77 ]; then
        echo "skipped: VisualVM's heap library or Java is not installed"
        exit 77
    fi
    if [ "$rc" != 0 ]; then
        echo "VisualVM could not read $1:" >&2
        tail -5 "$work/err" >&2
        exit 1
    fi
}

# name<TAB>instances[<TAB>bytes], summed per name, sorted
sum_by_name() {
    awk -F '\t' -v cols="$2" '$2 ~ /^[0-9]+$/ { n[$1] += $2; b[$1] += $3 }
        END { for (k in n) if (cols == 3) print k "\t" n[k] "\t" b[k]; else print k "\t" n[k] }' "$1" | LC_ALL=C sort
}

for name in jdk17-types jdk17-loaders; do
    "$tool" convert "$root/tests/data/hprof/$name.hprof" "$work/$name.txt" --to ibm-classic --quiet
    "$tool" convert "$work/$name.txt" "$work/$name.hprof" --to hprof --quiet
    histo "$work/$name.hprof" "$work/$name.tsv"
    ref=$root/tests/data/hprof/visualvm/$name.hprof.histo.tsv
    diff -u <(sum_by_name "$ref" 3 | grep -v '^java\.lang\.Object	') \
            <(sum_by_name "$work/$name.tsv" 3 | grep -v '^java\.lang\.Object	') >&2 ||
        { echo "$name: VisualVM's histogram changed through classic" >&2; exit 1; }
    diff -u <(sum_by_name "$ref" 2) <(sum_by_name "$work/$name.tsv" 2) >&2 ||
        { echo "$name: instance counts changed through classic" >&2; exit 1; }
    echo "ok: $name.hprof -> classic -> HPROF: VisualVM's histogram is unchanged"
    passed=$((passed + 1))
done

for f in "$root"/tests/data/classic/*.txt; do
    base=$(basename "$f" .txt)
    case $base in truncated|bad-trailer) continue ;; esac
    "$tool" convert "$f" "$work/$base.hprof" --to hprof --quiet
    histo "$work/$base.hprof" "$work/$base.tsv"
    if [ "$base" = multi-heap ]; then
        echo "ok: $base.txt -> HPROF: VisualVM opens it (it shows the first of the two heaps)"
        passed=$((passed + 1))
        continue
    fi
    "$tool" histo "$f" --json >"$work/$base.json"
    python3 - "$work/$base.json" >"$work/$base.counts" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["classes"] if isinstance(d, dict) else d
n = {}
for e in rows:
    n[e["name"]] = n.get(e["name"], 0) + e["instances"]
for k in sorted(n):
    print(k + "\t" + str(n[k]))
PY
    diff -u <(LC_ALL=C sort "$work/$base.counts") <(sum_by_name "$work/$base.tsv" 2) >&2 ||
        { echo "$base: VisualVM's instance counts differ from the classic file's" >&2; exit 1; }
    echo "ok: $base.txt -> HPROF: VisualVM opens it with the same instances per class"
    passed=$((passed + 1))
done
echo "$passed passed, 0 failed"
