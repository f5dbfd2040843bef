#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `profdata top` equals `go tool pprof -top` on the same profile: for every
# profile of samples among the fixtures (gperftools, trace elements), the
# corpus and a profile made here with libprofiler, written as pprof by
# profdata, each row's name, flat share and
# cumulative share agree, per function and per line (-lines), for every
# sample type the profile has (-sample_index). Per file (-files) pprof
# keeps a row per function's start line, so only the unit tests check ours.
#
# Usage: top-pprof.sh PROFDATA SOURCE_ROOT
# Exit: 0 all agree, 1 a difference, 77 without go tool pprof.
set -euo pipefail

profdata=$1
src=$2
. "$src/tests/interop/corpus.sh"

if ! command -v go >/dev/null 2>&1 || ! go tool -n pprof >/dev/null 2>&1; then
	echo "go tool pprof is not installed (Debian: golang-go): skipped"
	exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

inputs=("$src"/tests/data/gperftools/cpu-*.prof "$src"/tests/data/tracexml/*.xml)
# A profile whose native frames are named, with lines: the quick start's program under libprofiler.
if cc -std=c99 -g -O1 -fno-omit-frame-pointer -o "$work/busy" "$src/tools/demo/busy.c" \
	-Wl,--no-as-needed -lprofiler -Wl,--as-needed 2>/dev/null &&
	CPUPROFILE="$work/busy.prof" CPUPROFILE_FREQUENCY=500 "$work/busy" 1 >/dev/null 2>&1; then
	inputs+=("$work/busy.prof")
	# and with samples across libc's free(), named through its DWARF as live samples are only now and then
	if python3 "$src/tests/interop/add-libc-samples.py" "$work/busy.prof" "$work/busy-libc.prof"; then
		inputs+=("$work/busy-libc.prof")
	fi
else
	echo "libprofiler part skipped: tools/demo/busy.c did not build or run with -lprofiler (libgoogle-perftools-dev)"
fi
if corpus_files more "$src" gperftools '*.cpu'; then inputs+=("${more[@]}"); fi
if corpus_files more "$src" tracexml '*.trcxml'; then inputs+=("${more[@]}"); fi

# Rows "name<TAB>flat%<TAB>cum%" of pprof's -top text (columns: flat flat% sum% cum cum% name).
pprof_rows() {
	go tool pprof -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 "$@" 2>/dev/null | python3 -c '
import re, sys
seen = False
for line in sys.stdin:
    if seen:
        m = re.match(r"\s*(\S+)\s+(\S+)%\s+(\S+)%\s+(\S+)\s+(\S+)%\s+(.*)$", line.rstrip("\n"))
        if m:
            print("%s\t%s\t%s" % (m.group(6), m.group(2), m.group(5)))
    elif re.match(r"\s*flat\s+flat%", line):
        seen = True' | LC_ALL=C sort
}

# The same rows of ours, from --json, shares printed as pprof prints them (its measurement.Percentage).
# pprof shows C++ names demangled, without their parameters; profdata keeps a
# symbol's name as the symbol table holds it (libprofiler's own
# `_Z18GetSystemCPUsCountv`, sampled now and then as the profiler starts), so
# ours are demangled the same way (binutils' c++filt -p) before comparing.
our_rows() {
	"$profdata" top --json --quiet -n 1000000 "$@" | python3 -c '
import json, sys
t = json.load(sys.stdin)
rows = t.get("functions") or t.get("lines") or t.get("files") or []
def share(v):
    r = abs(100.0 * v / t["total"]) if t["total"] else 0.0
    if 99.95 <= r <= 100.05:
        return "100"
    return ("%.2f" if r >= 1.0 else "%.2g") % r
mark = {"all": " (inline)", "partly": " (partial-inline)"}
for r in rows:
    print("%s%s\t%s\t%s" % (r["name"], mark.get(r.get("inlined"), ""), share(r["flat"]), share(r["cum"])))' |
		c++filt -p | LC_ALL=C sort
}

status=0 compared=0
for f in "${inputs[@]}"; do
	pb=$work/$(basename "$f").pb.gz
	"$profdata" convert --quiet "$f" "$pb"
	types=$(go tool pprof -raw "$pb" 2>/dev/null | awk '!found && /^Samples:/ { getline; print; found = 1 }')
	for type in $types; do
		name=${type%%/*}
		for mode in functions lines; do
			ours=(--sample-type "$name") theirs=(-sample_index="$name")
			[ "$mode" = functions ] || ours+=("--$mode") theirs+=("-$mode")
			pprof_rows "${theirs[@]}" "$pb" >"$work/theirs"
			our_rows "${ours[@]}" "$f" >"$work/ours"
			compared=$((compared + 1))
			if ! diff -u "$work/theirs" "$work/ours" >"$work/diff"; then
				echo "$(basename "$f") ($name, $mode): profdata top differs from go tool pprof -top (- pprof, + profdata):"
				head -20 "$work/diff"
				status=1
			fi
		done
	done
done
echo "$compared tables of ${#inputs[@]} profiles compared with go tool pprof -top"
exit $status
