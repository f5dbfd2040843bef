#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# hprof-text (the HPROF agent's java.hprof.txt) against readings that are not ours:
#  - our folded stacks of every CPU SAMPLES and CPU TIME file equal an independent
#    reading of the text (hprof-text-folded.py, which shares no code with the library);
#  - a heap dump converted to binary HPROF has, per class, as many instances as the
#    text has OBJ and ARR records (counted with awk): in our histogram of the HPROF
#    file, and in VisualVM's when VisualVM is installed (visualvm-histo.sh); and
#    VisualVM reads every reference an OBJ lists under the field name it lists it by.
# And the writer (--to hprof-text):
#  - every real agent file (corpus) and fixture: written, then read and written
#    again, byte-identical; the written file reads back with the same tables
#    (threads, stacks, samples, allocation sites, classes, objects, roots,
#    references), the same folded stacks and the same class histogram;
#  - binary HPROF fixtures (tests/data/hprof/jdk17-*) -> text -> binary HPROF keep
#    classes, objects, roots and references, instances per class, and (in VisualVM)
#    every non-null reference field under its name;
#  - a gperftools CPU profile (libprofiler's own output) -> text: CPU SAMPLES
#    whose folded stacks equal the input's.
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
inputs=("$root"/tests/data/hprof-text/cpu-*.txt "$root"/tests/data/hprof-text/{heap,fields}.txt "${real[@]}")

# name<TAB>instances per class of the text's OBJ and ARR records, sorted
text_counts() {
    awk '/^OBJ / { s = $0; sub(/.*class=/, "", s); sub(/@[0-9a-fA-F]*\)$/, "", s); n[s]++ }
         /^ARR / { s = $0; sub(/.*elem type=/, "", s); sub(/(@[0-9a-fA-F]*)?\)$/, "", s); n[s]++ }
         END { for (k in n) print k "\t" n[k] }' "$1" | LC_ALL=C sort
}

# name<TAB>instances of a "profdata histo" table or a VisualVM TSV, classes with none left out
# ID<TAB>FIELD<TAB>VALUE for every item line of every OBJ record
text_fields() {
    awk '/^OBJ / { id = $2; obj = 1; next } /^[A-Z]/ { obj = 0; next }
         obj && /^\t/ { n = split($0, a, /[\t ]+/); print id "\t" a[2] "\t" a[n] }' "$1" | LC_ALL=C sort
}

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
    # every reference an OBJ lists, by the field name it lists it under (an order of its own within a class)
    text_fields "$f" >"$tmp/text.fields"
    bash "$here/visualvm-histo.sh" -b "$tmp/vv" --fields "$tmp/heap.hprof" | LC_ALL=C sort >"$tmp/vv.fields"
    diff -u "$tmp/text.fields" "$tmp/vv.fields" >&2
    echo "VisualVM: $name -> HPROF: $(wc -l <"$tmp/text.fields") instance fields, each with its name and value"
done

# table<TAB>count of the model a file reads into, for the tables named
counts() {
    "$profdata" info --json "$1" | python3 -c '
import json, sys
c = json.load(sys.stdin)["counts"]
for k in sys.argv[1:]:
    print(k + "\t" + str(c[k]))' "${@:2}"
}
model_tables=(threads stacks samples alloc_sites classes objects roots references attachments)
heap_tables=(classes objects roots references)

# instances<TAB>class of "profdata histo", sorted
instances() {
    "$profdata" histo "$1" --json --limit 1000000 | python3 -c '
import json, sys
d = json.load(sys.stdin)
for e in sorted((d["classes"] if isinstance(d, dict) else d), key=lambda e: e["name"]):
    print(str(e["instances"]) + "\t" + e["name"])'
}

# 1. text -> text: a fixed point, and what the reader makes of it unchanged
for f in "$root"/tests/data/hprof-text/*.txt "${real[@]}"; do
    name=$(basename "$f")
    "$profdata" convert --quiet "$f" "$tmp/once.txt" --to hprof-text
    "$profdata" convert --quiet "$tmp/once.txt" "$tmp/twice.txt" --from hprof-text --to hprof-text
    cmp "$tmp/once.txt" "$tmp/twice.txt"
    counts "$f" "${model_tables[@]}" >"$tmp/a.counts"
    counts "$tmp/once.txt" "${model_tables[@]}" >"$tmp/b.counts"
    diff -u "$tmp/a.counts" "$tmp/b.counts" >&2
    if grep -q '^CPU \(SAMPLES\|TIME (ms)\) BEGIN' "$f"; then
        "$profdata" convert --quiet "$f" "$tmp/a.folded" --to folded
        "$profdata" convert --quiet "$tmp/once.txt" "$tmp/b.folded" --to folded
        cmp <(LC_ALL=C sort "$tmp/a.folded") <(LC_ALL=C sort "$tmp/b.folded")
    fi
    if grep -q '^HEAP DUMP BEGIN' "$f"; then
        cmp <("$profdata" histo "$f") <("$profdata" histo "$tmp/once.txt")
    fi
    echo "text: $name -> hprof-text ($(wc -c <"$tmp/once.txt") bytes): rewrites byte-identical;" \
        "reads back with equal tables ($(paste -sd' ' "$tmp/a.counts" | tr '\t' '='))"
done

# 2. binary HPROF -> text -> binary HPROF
for f in "$root"/tests/data/hprof/jdk17-*.hprof; do
    name=$(basename "$f")
    "$profdata" convert --quiet "$f" "$tmp/heap.txt" --to hprof-text
    "$profdata" convert --quiet "$tmp/heap.txt" "$tmp/back.hprof" --from hprof-text --to hprof
    counts "$f" "${heap_tables[@]}" >"$tmp/a.counts"
    counts "$tmp/back.hprof" "${heap_tables[@]}" >"$tmp/b.counts"
    diff -u "$tmp/a.counts" "$tmp/b.counts" >&2
    instances "$f" >"$tmp/a.histo"
    instances "$tmp/back.hprof" >"$tmp/b.histo"
    diff -u "$tmp/a.histo" "$tmp/b.histo" >&2
    # read back, a class's fields come in the order its instances first show them (doc/formats-hprof-text.md):
    # the second rewrite is the fixed point
    "$profdata" convert --quiet "$tmp/heap.txt" "$tmp/twice.txt" --from hprof-text --to hprof-text
    "$profdata" convert --quiet "$tmp/twice.txt" "$tmp/thrice.txt" --from hprof-text --to hprof-text
    cmp "$tmp/twice.txt" "$tmp/thrice.txt"
    echo "hprof: $name -> hprof-text -> hprof: $(paste -sd' ' "$tmp/a.counts" | tr '\t' '=') kept," \
        "$(wc -l <"$tmp/a.histo") classes' instances equal"
    [ "$vv" = yes ] || continue
    for h in "$f" "$tmp/back.hprof"; do
        bash "$here/visualvm-histo.sh" -b "$tmp/vv" "$h" 2>"$tmp/vv.err" | awk -F '\t' '$2 > 0 { print $1 "\t" $2 }' |
            LC_ALL=C sort >"$tmp/vv.$(basename "$h").counts" || { tail -5 "$tmp/vv.err" >&2; exit 1; }
    done
    diff -u "$tmp/vv.$name.counts" "$tmp/vv.back.hprof.counts" >&2
    echo "VisualVM: $name -> hprof-text -> hprof: the same histogram as the original's" \
        "($(wc -l <"$tmp/vv.$name.counts") classes)"
    for h in "$f" "$tmp/back.hprof"; do
        bash "$here/visualvm-histo.sh" -b "$tmp/vv" --fields "$h" | LC_ALL=C sort >"$tmp/vv.$(basename "$h").fields"
    done
    diff -u "$tmp/vv.$name.fields" "$tmp/vv.back.hprof.fields" >&2
    echo "VisualVM: $name -> hprof-text -> hprof: the original's $(wc -l <"$tmp/vv.$name.fields") non-null" \
        "reference fields, each under its name"
done

# 3. gperftools (libprofiler's output) -> text: the CPU SAMPLES hold the input's stacks
for f in "$root"/tests/data/gperftools/cpu-100hz.prof "$root"/tests/data/gperftools/cpu-1000hz.prof; do
    name=$(basename "$f")
    "$profdata" convert --quiet "$f" "$tmp/cpu.txt" --to hprof-text
    "$profdata" convert --quiet "$f" "$tmp/a.folded" --to folded
    "$profdata" convert --quiet "$tmp/cpu.txt" "$tmp/b.folded" --from hprof-text --to folded
    cmp <(LC_ALL=C sort "$tmp/a.folded") <(LC_ALL=C sort "$tmp/b.folded")
    grep -q '^CPU SAMPLES BEGIN' "$tmp/cpu.txt"
    echo "gperftools: $name -> hprof-text: $(wc -l <"$tmp/a.folded") stacks, total" \
        "$(awk '{s += $NF} END {print s}' "$tmp/a.folded") samples, folded equal to the input's"
done
