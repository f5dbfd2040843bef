#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The browser checks (browser-test.js) on every CPU profile of tests/data and
# ../shared/corpus: exit 77 when node, chromium or the npm packages are
# missing. With MAKE_TRACE (tests/interop/browser/make-trace.c), a method
# trace too. usage: run.sh PROFDATA SOURCE_ROOT BUILD_ROOT [MAKE_TRACE] [--screenshots DIR]
set -euo pipefail
profdata=$1 src=$2 build=$3
shift 3
make_trace=
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then make_trace=$1; shift; fi
here="$src/tests/interop/browser"
command -v node >/dev/null || { echo "node is not installed: skipped"; exit 77; }
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$chromium" ] || { echo "chromium is not installed (tools/deps.sh --interop): skipped"; exit 77; }
modules=$(bash "$here/install.sh" "$here" "$build/browser-node") || { echo "npm packages missing: skipped"; exit 77; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
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
corpus=${PROFDATA_CORPUS:-$src/../shared/corpus}
add cppbench "$corpus/gperftools/cppbench.cpu"
for f in "$corpus"/tracexml/*.trcxml; do
	"$profdata" formats | grep -q '^tracexml ' || break
	add "xml-$(basename "$f" .trcxml)" "$f"
	"$profdata" convert "$f" "$out/xml-$(basename "$f" .trcxml).wall.svg" --to flamegraph --option value=1 --quiet
done
if [ -n "$make_trace" ]; then "$make_trace" "$out" && names+=(trace); fi
node "$here/browser-test.js" "$modules" "$chromium" "$out" "${names[@]}" "$@"
