#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Our perf-script reader against perf itself and an independent reading:
#   1. the committed fixtures (tests/data/perf-script, made by perf-gen/gen.sh):
#      folded stacks equal to perf-script-collapse.py's per stack and in
#      total; fp.perf's flat percentages (profdata top) equal to the self
#      percentages perf report printed for the same data (fp.report);
#   2. with perf allowed to profile here: the same for a fresh recording of
#      perf-gen/workload.c (-g and --call-graph dwarf), against perf report
#      --stdio --no-children -n run now, in samples per name (a fresh run may
#      sample two symbols of one name, which perf lists apart);
#   3. with go: the conversion to pprof read by go tool pprof -raw gives the
#      same stacks and totals as our folded output.
# Usage: perf-script-interop.sh PROFDATA SRCDIR. 77 (skip) without python3;
# parts 2 and 3 are skipped (said so) without perf or go.
set -euo pipefail
profdata=$1
src=$2
command -v python3 >/dev/null || { echo "python3 is not installed: skipped"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
collapse="python3 $src/tests/interop/perf-script-collapse.py"
fail=0 checks=0
same() {
    checks=$((checks + 1))
    if cmp -s "$2" "$3"; then
        echo "ok   $1"
    else
        echo "FAIL $1"
        diff "$2" "$3" | head -10
        fail=$((fail + 1))
    fi
}
# perf report's self lines ("  71.24%  [.] leaf_b") as "71.24% leaf_b", addresses as 0x without leading zeros
report_self() {
    grep -E '^ +[0-9.]+% +\[' "$1" | awk '{ n = $3; sub(/^0x0*/, "0x", n); print $1, n }' | LC_ALL=C sort
}
# perf report -n's self samples per name ("  71.24%  213  [.] leaf_b" as "leaf_b 213"), summed over
# the symbols of one name: perf keeps two _start (the program's, the loader's) apart, we key by name
report_samples() {
    grep -E '^ +[0-9.]+% +[0-9]+ +\[' "$1" |
        awk '{ n = $4; sub(/^0x0*/, "0x", n); c[n] += $2 } END { for (n in c) print n, c[n] }' | LC_ALL=C sort
}
# our flat values per name in samples of PERIOD
our_samples() { # our_samples PERF-SCRIPT-TEXT PERIOD
    "$profdata" top --quiet -n 100000 "$1" | awk -v p="$2" 'NR > 2 && $1 > 0 { printf "%s %.0f\n", $6, $1 / p }' | LC_ALL=C sort
}
# our flat percentages of the rows with a flat value
our_self() {
    "$profdata" top --quiet -n 100000 "$1" | awk 'NR > 2 && $1 > 0 { print $2, $6 }' | LC_ALL=C sort
}
check_file() { # check_file NAME PERF-SCRIPT-TEXT
    $collapse folded <"$2" >"$scratch/want"
    "$profdata" convert --quiet --strict --from perf-script "$2" "$scratch/got.folded"
    LC_ALL=C sort "$scratch/got.folded" >"$scratch/got"
    same "$1: folded stacks equal the independent reading ($(wc -l <"$scratch/got") stacks)" "$scratch/want" "$scratch/got"
}
for f in "$src"/tests/data/perf-script/*.perf; do
    check_file "$(basename "$f")" "$f"
done
report_self "$src/tests/data/perf-script/fp.report" >"$scratch/want"
our_self "$src/tests/data/perf-script/fp.perf" >"$scratch/got"
same "fp.perf: flat percentages equal perf report's self percentages" "$scratch/want" "$scratch/got"

pprof_check() { # pprof_check NAME PERF-SCRIPT-TEXT
    command -v go >/dev/null || { echo "skip $1: go is not installed"; return; }
    "$profdata" convert --quiet "$2" "$scratch/p.pb.gz"
    (export HOME=$scratch GOCACHE=$scratch/gocache GOFLAGS='' GOPROXY=off GOTOOLCHAIN=local \
            PPROF_TMPDIR=$scratch/pprof PPROF_BINARY_PATH=$scratch/nobinaries
     go tool pprof -raw "$scratch/p.pb.gz" 2>/dev/null) >"$scratch/p.raw"
    python3 "$src/tests/interop/pprof-raw-folded.py" folded 0 <"$scratch/p.raw" | LC_ALL=C sort >"$scratch/want"
    # pprof names a location without a function "?" (our folded stacks: its address)
    "$profdata" convert --quiet "$2" "$scratch/got.folded"
    sed -E 's/(^|;)0x[0-9a-f]+/\1?/g; s/(^|;)0x[0-9a-f]+/\1?/g' "$scratch/got.folded" | grep -v ' 0$' |
        LC_ALL=C sort >"$scratch/got" || true
    same "$1 -> pprof: go tool pprof -raw reads our stacks and totals" "$scratch/want" "$scratch/got"
}
pprof_check fp.perf "$src/tests/data/perf-script/fp.perf"
pprof_check dwarf.perf "$src/tests/data/perf-script/dwarf.perf"

# A fresh recording, when perf may profile here.
if ! command -v perf >/dev/null || ! command -v cc >/dev/null; then
    echo "skip the fresh recording: perf or cc is not installed"
else
    cc -O2 -g -fno-omit-frame-pointer -pthread -o "$scratch/workload" "$src/tests/interop/perf-gen/workload.c"
    if ! perf record -q -e cpu-clock -c 1000000 -g -o "$scratch/fp.data" "$scratch/workload" 30 >/dev/null 2>&1; then
        echo "skip the fresh recording: perf may not profile here (perf_event_paranoid, permissions)"
    else
        perf script -i "$scratch/fp.data" >"$scratch/fp.perf" 2>/dev/null
        perf report -i "$scratch/fp.data" --stdio --no-children --sort sym -n -g none 2>/dev/null \
            >"$scratch/fp.report"
        check_file "fresh -g recording" "$scratch/fp.perf"
        report_samples "$scratch/fp.report" >"$scratch/want"
        our_samples "$scratch/fp.perf" 1000000 >"$scratch/got"
        same "fresh -g recording: flat samples per name equal perf report --no-children's self" "$scratch/want" \
            "$scratch/got"
        pprof_check "fresh -g recording" "$scratch/fp.perf"
        if perf record -q -e cpu-clock -c 4000000 --call-graph dwarf,8192 -o "$scratch/dw.data" \
                "$scratch/workload" 10 >/dev/null 2>&1; then
            perf script -i "$scratch/dw.data" >"$scratch/dw.perf" 2>/dev/null
            check_file "fresh dwarf recording" "$scratch/dw.perf"
        fi
    fi
fi
echo "$((checks - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
