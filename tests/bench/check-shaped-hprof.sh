#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# gen-shaped-hprof writes a dump that readers take as it is meant: the same
# bytes for the same arguments; profdata reads it strictly, every object
# counted; and, where VisualVM's heap library is installed, VisualVM opens it
# and agrees with us on the histogram, class by class, and on the 20 biggest
# objects by retained size.
#   check-shaped-hprof.sh GEN_SHAPED_HPROF PROFDATA_TOOL SOURCE_ROOT
set -euo pipefail
gen=$1 pd=$2 root=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=20000

"$gen" "$work/a.hprof" --objects "$n" --classes 300 --seed 7 2>/dev/null
"$gen" "$work/b.hprof" --objects "$n" --classes 300 --seed 7 2>/dev/null
cmp -s "$work/a.hprof" "$work/b.hprof" || { echo "the same arguments gave different dumps"; exit 1; }
! "$gen" "$work/c.hprof" --objects 10 2>/dev/null || { echo "10 objects were not refused"; exit 1; }

objects=$("$pd" info --strict --json "$work/a.hprof" | python3 -c 'import json,sys; print(json.load(sys.stdin)["counts"]["objects"])')
[ "$objects" = "$n" ] || { echo "profdata counts $objects objects, not $n"; exit 1; }
"$pd" top -n 20 --strict "$work/a.hprof" >"$work/top.txt"
echo "profdata reads $n objects strictly"

visualvm_histo=$root/tests/interop/visualvm-histo.sh
set +e
bash "$visualvm_histo" "$work/a.hprof" 2>"$work/err" | sort >"$work/vv-histo.tsv"
status=${PIPESTATUS[0]}
set -e
[ "$status" != 77 ] || { echo "skipped the VisualVM half: $(tail -n1 "$work/err")"; exit 77; }
[ "$status" = 0 ] || { echo "VisualVM cannot read the dump: $(tail -n1 "$work/err")"; exit 1; }
"$pd" histo "$work/a.hprof" | awk 'NR > 1 && $1 != "total" { print $4 "\t" $2 "\t" $3 }' | sort >"$work/pd-histo.tsv"
diff "$work/vv-histo.tsv" "$work/pd-histo.tsv" || { echo "histograms differ (VisualVM <, profdata >)"; exit 1; }

jar=$(find ${VISUALVM_HOME:+"$VISUALVM_HOME"} /usr/share/visualvm /usr/lib/visualvm \
  -name org-graalvm-visualvm-lib-jfluid-heap.jar 2>/dev/null | head -n1 || true)
javac -nowarn -cp "$jar" -d "$work" "$root/tests/interop/VisualVMRetained.java"
java -cp "$jar:$work" VisualVMRetained --top 20 "$work/a.hprof" | cut -f1,3,4 >"$work/vv-top.tsv"
awk 'NR > 1 { print $2 "\t" $3 "\t" $4 }' "$work/top.txt" |
  while IFS=$'\t' read -r id shallow retained; do printf '%d\t%s\t%s\n' "$id" "$shallow" "$retained"; done >"$work/pd-top.tsv"
diff "$work/vv-top.tsv" "$work/pd-top.tsv" || { echo "the 20 biggest objects differ (VisualVM <, profdata >)"; exit 1; }
echo "VisualVM agrees: $(wc -l <"$work/pd-histo.tsv") classes in the histogram, the 20 biggest retained sizes"
