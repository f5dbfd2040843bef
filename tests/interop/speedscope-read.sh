#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The speedscope reader on tests/data/speedscope (ours) and
# tests/data/speedscope-app (what speedscope's own app exported;
# tests/interop/speedscope-gen makes both), against an
# independent reading (speedscope-folded-independent.py):
#   1. ours (sampled): our folded equals the weights of the first profile;
#      read and written again, the bytes are the same;
#   2. the app's exports (evented): converted to pprof, go tool pprof -raw's
#      wall/nanoseconds per stack equals the calls' self time; the app's
#      export of our folded cpu-100hz gives back that folded file's counts.
# Usage: speedscope-read.sh PROFDATA SRCDIR. 77 (skip) without go.
set -euo pipefail
profdata=$1
src=$2
# shellcheck source=tests/interop/go-pprof-env.sh
source "$src/tests/interop/go-pprof-env.sh"
data=$src/tests/data/speedscope
oracle="python3 $src/tests/interop/speedscope-folded-independent.py"
sorted() { LC_ALL=C sort "$@"; }

for f in "$data"/cpu-100hz.speedscope.json; do
    $oracle "$f" sampled 0 | sorted >"$scratch/want"
    "$profdata" convert --quiet --to folded "$f" "$scratch/got.folded"
    sorted "$scratch/got.folded" >"$scratch/got"
    same "$(basename "$f"): folded equals the sampled profile's weights" "$scratch/want" "$scratch/got"
    "$profdata" convert --quiet --to speedscope "$f" "$scratch/again.json"
    same "$(basename "$f"): read and written again, byte for byte" "$f" "$scratch/again.json"
done
for f in "$data"-app/app-*.speedscope.json; do
    $oracle "$f" evented | sorted >"$scratch/want"
    "$profdata" convert --quiet "$f" "$scratch/out.pb.gz"
    go tool pprof -raw "$scratch/out.pb.gz" 2>/dev/null | python3 "$src/tests/interop/pprof-raw-folded.py" folded 1 |
        sorted >"$scratch/got"
    same "$(basename "$f"): go tool pprof -raw's wall per stack equals the events' self time" \
        "$scratch/want" "$scratch/got"
done
"$profdata" convert --quiet "$src/tests/data/gperftools/cpu-100hz.prof" "$scratch/cpu.folded"
sorted "$scratch/cpu.folded" >"$scratch/want"
"$profdata" convert --quiet "$data-app/app-cpu-100hz.speedscope.json" "$scratch/app.pb.gz"
go tool pprof -raw "$scratch/app.pb.gz" 2>/dev/null | python3 "$src/tests/interop/pprof-raw-folded.py" folded 1 |
    sorted >"$scratch/got"
same "app-cpu-100hz: speedscope's export of our folded reads back as that folded ($(wc -l <"$scratch/want") stacks)" \
    "$scratch/want" "$scratch/got"
echo "$((checks - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
