#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# hprof-text (the HPROF agent's java.hprof.txt) against readings that are not ours:
#  - our folded stacks of every CPU SAMPLES and CPU TIME file equal an independent
#    reading of the text (hprof-text-folded.py, which shares no code with the library);
#  - a heap dump converted to binary HPROF has, per class, as many instances as the
#    text has OBJ and ARR records (counted with awk): in our histogram of the HPROF
#    file, and in VisualVM's when VisualVM is installed (visualvm-histo.sh).
# The corpus part (real agent output) is skipped, saying why, without the corpus.
# Usage: hprof-text-interop.sh PROFDATA SOURCE_ROOT. Exit 77 when python3 is missing.
set -euo pipefail
profdata=$1
root=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null || { echo "skipped: python3 is not installed"; exit 77; }

. "$here/corpus.sh"
real=()
corpus_files real "$root" hprof-text '*.txt' || true
inputs=("$root"/tests/data/hprof-text/cpu-*.txt "$root/tests/data/hprof-text/heap.txt" "${real[@]}")

# name<TAB>instances per class of the text's OBJ and ARR records, sorted
text_counts() {
    awk '/^OBJ / { s = $0; sub(/.*class=/, "", s); sub(/@[0-9a-fA-F]*\)$/, "", s); n[s]++ }
         /^ARR / { s = $0; sub(/.*elem type=/, "", s); sub(/(@[0-9a-fA-F]*)?\)$/, "", s); n[s]++ }
         END { for (k in n) print k "\t" n[k] }' "$1" | LC_ALL=C sort
}

# name<TAB>instances of a "profdata histo" table or a VisualVM TSV, classes with none left out
table_counts() {
    awk -F "$2" -v c="$3" '$c ~ /^[0-9]+$/ && $(c) > 0 { n[$(c + 1)] += $c }
         END { for (k in n) print k "\t" n[k] }' "$1" | LC_ALL=C sort
}

vv=yes
for f in "${inputs[@]}"; do
    name=$(basename "$f")
    if grep -q '^CPU \(SAMPLES\|TIME (ms)\) BEGIN' "$f"; then
        "$profdata" convert --quiet "$f" "$tmp/ours.folded" --to folded
        python3 "$here/hprof-text-folded.py" "$f" >"$tmp/theirs.folded"
        LC_ALL=C sort "$tmp/ours.folded" | cmp - "$tmp/theirs.folded"
        echo "folded: $name: $(wc -l <"$tmp/ours.folded") stacks, total $(awk '{s += $NF} END {print s}' \
            "$tmp/ours.folded"), equal to an independent reading"
    fi
    grep -q '^HEAP DUMP BEGIN' "$f" || continue
    text_counts "$f" >"$tmp/text.counts"
    "$profdata" convert --quiet "$f" "$tmp/heap.hprof" --to hprof
    "$profdata" histo "$tmp/heap.hprof" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
for e in (d["classes"] if isinstance(d, dict) else d):
    print(str(e["instances"]) + "\t" + e["name"])' >"$tmp/ours.tsv"
    table_counts "$tmp/ours.tsv" '\t' 1 >"$tmp/ours.counts"
    diff -u "$tmp/text.counts" "$tmp/ours.counts" >&2
    echo "histo: $name -> HPROF: $(awk -F '\t' '{s += $2} END {print s}' "$tmp/text.counts") instances of" \
        "$(wc -l <"$tmp/text.counts") classes, as the text's OBJ and ARR records"
    [ "$vv" = yes ] || continue
    rc=0
    bash "$here/visualvm-histo.sh" -b "$tmp/vv" "$tmp/heap.hprof" >"$tmp/vv.tsv" 2>"$tmp/vv.err" || rc=$?
    if [ "$rc" = 77 ]; then
        echo "VisualVM part skipped: VisualVM's heap library or Java is not installed"
        vv=no
        continue
    fi
    [ "$rc" = 0 ] || { tail -5 "$tmp/vv.err" >&2; exit 1; }
    awk -F '\t' '$2 > 0 { n[$1] += $2 } END { for (k in n) print k "\t" n[k] }' "$tmp/vv.tsv" |
        LC_ALL=C sort >"$tmp/vv.counts"
    diff -u "$tmp/text.counts" "$tmp/vv.counts" >&2
    echo "VisualVM: $name -> HPROF opens with the text's instances per class"
done
