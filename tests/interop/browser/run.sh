#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The browser checks (browser-test.js) on every CPU profile of tests/data and
# of the corpus when it is there (tests/interop/corpus.sh; without it that
# part is skipped, saying so): exit 77 when node, chromium or the npm
# packages are missing, or nothing is left to open. With MAKE_TRACE
# (tests/interop/browser/make-trace.c), a method trace too.
# usage: run.sh PROFDATA SOURCE_ROOT BUILD_ROOT [MAKE_TRACE] [--screenshots DIR]
set -euo pipefail
profdata=$1 src=$2 build=$3
shift 3
make_trace=
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then make_trace=$1; shift; fi
# shellcheck source=tests/interop/browser/browser-env.sh
. "$src/tests/interop/browser/browser-env.sh"
names=()
add() { # NAME FILE
	[ -f "$2" ] || return 0
	for ext in svg speedscope.json trace.json folded pb.gz; do
		"$profdata" convert "$2" "$out/$1.$ext" --quiet
	done
	names+=("$1")
}
for f in "$src"/tests/data/gperftools/*.prof; do
	"$profdata" info "$f" >/dev/null 2>&1 || continue
	add "$(basename "$f" .prof)" "$f"
done
add agent-hprof "$src/tests/data/hprof/synthetic/agent-1.0.1-id4.hprof"
# What the readers of today's profilers read (each made by its real producer,
# tests/data/*/README.md), converted to everything speedscope opens.
add pprof-go-cpu "$src/tests/data/pprof/cpu.pb.gz"
add jfr-jdk17 "$src/tests/data/jfr/jdk17-profile.jfr.gz"
add perf-fp "$src/tests/data/perf-script/fp.perf"
add perf-dwarf "$src/tests/data/perf-script/dwarf.perf"
add node-cpu "$src/tests/data/cpuprofile/node-cpu.cpuprofile"
add folded-perf "$src/tests/data/folded/perf-fp.folded"
# speedscope's own export of a Node profile: evented, a method trace as the
# corpus's TPTP traces are (browser-test.js checks both kinds alike).
add evented-speedscope-node "$src/tests/data/speedscope-app/app-node-cpu.speedscope.json"
"$profdata" convert "$src/tests/data/speedscope-app/app-node-cpu.speedscope.json" \
	"$out/evented-speedscope-node.wall.svg" --to flamegraph --option value=1 --quiet
# The corpus part (tests/interop/corpus.sh): skipped, saying why, without the corpus.
. "$src/tests/interop/corpus.sh"
if corpus_files files "$src" gperftools cppbench.cpu; then add cppbench "${files[0]}"; fi
# The HPROF agent's text output (JDK 6 and 7's agent): CPU samples and CPU times.
if corpus_files files "$src" hprof-text 'hprof2flamegraph_cpu-*.hprof.txt'; then
	for f in "${files[@]}"; do add "hprof-text-$(basename "$f" .hprof.txt | sed 's/^hprof2flamegraph_//')" "$f"; done
fi
if ! "$profdata" formats | grep -q '^tracexml '; then
	echo "corpus traces skipped: this build has no tracexml codec"
elif corpus_files files "$src" tracexml '*.trcxml'; then
	for f in "${files[@]}"; do
		add "xml-$(basename "$f" .trcxml)" "$f"
		"$profdata" convert "$f" "$out/xml-$(basename "$f" .trcxml).wall.svg" --to flamegraph --option value=1 --quiet
	done
fi
if [ -n "$make_trace" ]; then "$make_trace" "$out" && names+=(trace); fi
[ ${#names[@]} -gt 0 ] || { echo "no CPU profile to open: skipped"; exit 77; }
node "$here/browser-test.js" "$modules" "$chromium" "$out" "${names[@]}" "$@"
