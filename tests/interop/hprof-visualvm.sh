#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# VisualVM opens what the HPROF encoder writes: the default 1.0.2 rewrite and
# the 1.0.1 rewrite of a JDK dump give VisualVM's reference histogram,
# strip_primitive_arrays=1 keeps every instance count, and android_to_hotspot=1
# turns an Android 1.0.3 file (which VisualVM refuses: 0xC3) into one it opens,
# and the objects of a JFR recording's old object samples (their primitive
# arrays without elements, written as zeros) open with `profdata histo`'s
# instance counts and array bytes of the recording.
#
# Usage: hprof-visualvm.sh PROFDATA_TOOL SOURCE_ROOT
# Exit 77 (skip) when VisualVM or Java is not installed.
set -euo pipefail

tool=$1
root=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/pd-hprof-visualvm.XXXXXX")
trap 'rm -rf "$work"' EXIT

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

types=$root/tests/data/hprof/jdk17-types.hprof
ref=$root/tests/data/hprof/visualvm/jdk17-types.hprof.histo.tsv

for opts in "" "version=1.0.1"; do
    "$tool" convert "$types" "$work/out.hprof" --to hprof ${opts:+--option "$opts"} --quiet
    histo "$work/out.hprof" "$work/out.tsv"
    diff -u "$ref" "$work/out.tsv" >&2 || { echo "histogram differs after writing with '${opts:-defaults}'" >&2; exit 1; }
    echo "ok: ${opts:-default options}: VisualVM's histogram is unchanged"
done

"$tool" convert "$types" "$work/strip.hprof" --to hprof --option strip_primitive_arrays=1 --quiet
histo "$work/strip.hprof" "$work/strip.tsv"
diff -u <(cut -f1,2 "$ref") <(cut -f1,2 "$work/strip.tsv") >&2 ||
    { echo "strip_primitive_arrays=1 changed instance counts" >&2; exit 1; }
echo "ok: strip_primitive_arrays=1: every instance count is kept"

android=$root/tests/data/hprof/synthetic/android-1.0.3-tiny-segments.hprof
"$tool" convert "$android" "$work/a2h.hprof" --to hprof --option android_to_hotspot=1 --quiet
histo "$work/a2h.hprof" "$work/a2h.tsv"
grep -q "^int\[\]	3	" "$work/a2h.tsv" || { echo "android_to_hotspot=1: unexpected histogram" >&2; cat "$work/a2h.tsv" >&2; exit 1; }
echo "ok: android_to_hotspot=1: VisualVM opens the result"
# The recording states no instance's fields: the writer makes them up from
# its references, so instances are compared by count, arrays by bytes too.
leak=$root/tests/data/jfr/jdk17-leak.jfr.gz
"$tool" convert "$leak" "$work/leak.hprof" --to hprof --quiet
histo "$work/leak.hprof" "$work/leak.tsv"
by_count_and_array_bytes() { awk -F '\t' '{ print $1 "\t" $2 ($1 ~ /\[\]$/ ? "\t" $3 : "") }' | LC_ALL=C sort; }
"$tool" histo "$leak" | awk 'NR > 1 && $4 != "" { print $4 "\t" $2 "\t" $3 }' | by_count_and_array_bytes \
    >"$work/leak-ours.tsv"
diff -u "$work/leak-ours.tsv" <(by_count_and_array_bytes <"$work/leak.tsv") >&2 ||
    { echo "JFR old objects: VisualVM's histogram differs from ours" >&2; exit 1; }
echo "ok: JFR old objects: VisualVM opens them written as HPROF, with our instance counts and array bytes"
echo "5 passed, 0 failed"
