#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tracexml against readers that are not ours:
#  - xmllint --dtdvalid lib/codecs/tracexml/trace.dtd accepts what we write from the
#    synthetic fixtures that hold only what the DTD declares, and from the corpus traces;
#  - go tool pprof reads the pprof we make from each corpus trace, with a total equal
#    to the trace's number of methodEntry elements (counted with unzip and grep);
#  - our folded stacks equal an independent reading of the entry/exit pairs
#    (tracexml-folded-independent.py, Python's own XML parser).
# Usage: tracexml-interop.sh PROFDATA SOURCE_ROOT. Exit 77 when no reader is installed.
set -euo pipefail
profdata=$1
root=$2
here=$(cd "$(dirname "$0")" && pwd)
dtd=$root/lib/codecs/tracexml/trace.dtd
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ran=0

inputs=("$root/tests/data/tracexml/traceroot-open.xml" "$root/tests/codecs/tracexml/agent.trcxml"
        "$root/tests/data/tracexml/fragments.xml")
# The corpus part: skipped, saying why, without the corpus (corpus.sh).
. "$here/corpus.sh"
traces=()
corpus_files traces "$root" tracexml '*.trcxml' || true
inputs+=("${traces[@]}")

if command -v xmllint >/dev/null; then
    for f in "${inputs[@]}"; do
        "$profdata" convert --quiet "$f" "$tmp/out.xml" --to tracexml
        xmllint --noout --dtdvalid "$dtd" "$tmp/out.xml"
        "$profdata" convert --quiet "$f" "$tmp/patent.xml" --to tracexml --option root=traceRoot
        xmllint --noout --dtdvalid "$dtd" "$tmp/patent.xml"
        echo "xmllint: $(basename "$f") valid"
    done
    ran=1
fi

if [ ${#traces[@]} -gt 0 ]; then
    for f in "${traces[@]}"; do
        entries=$(unzip -p "$f" | grep -o '<methodEntry ' | wc -l)
        if command -v go >/dev/null; then
            "$profdata" convert --quiet "$f" "$tmp/out.pb.gz" --to pprof
            total=$(bash "$here/pprof-totals.sh" --tool go "$tmp/out.pb.gz" | awk '{print $NF}')
            echo "go tool pprof: $(basename "$f") total $total, methodEntry elements $entries"
            [ "$total" = "$entries" ]
            ran=1
        fi
        if command -v python3 >/dev/null; then
            "$profdata" convert --quiet "$f" "$tmp/ours.folded" --to folded
            python3 "$here/tracexml-folded-independent.py" "$f" > "$tmp/theirs.folded"
            sort "$tmp/ours.folded" | cmp - "$tmp/theirs.folded"
            echo "folded: $(basename "$f") equal to an independent reading"
            ran=1
        fi
    done
fi
[ "$ran" = 1 ] || exit 77
