#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Make the speedscope fixtures: in tests/data/speedscope-app, what
# speedscope's app wrote (kept apart: the conformance suite rewrites every
# file of tests/data/speedscope and expects it back, which holds for ours):
#   app-node-cpu.speedscope.json  speedscope's app (export.js) importing
#                                 tests/data/cpuprofile/node-cpu.cpuprofile and exporting it
#   app-cpu-100hz.speedscope.json the same for our folded stacks of
#                                 tests/data/gperftools/cpu-100hz.prof
# in tests/data/speedscope:
#   cpu-100hz.speedscope.json     ours, from the same gperftools profile
#   trace.speedscope.json         ours, from tests/data/tracexml/every-element.xml (evented)
# Usage: gen.sh PROFDATA [DATADIR] (default tests/data). Needs node, chromium and the browser
# checks' npm packages (tests/interop/browser/install.sh).
set -euo pipefail
profdata=$1
here="$(cd "$(dirname "$0")" && pwd)"
src="$here/../../.."
data="${2:-$src/tests/data}"
out=$data/speedscope app=$data/speedscope-app
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
modules=$(bash "$src/tests/interop/browser/install.sh" "$src/tests/interop/browser" "$tmp/npm")
mkdir -p "$out" "$app"
"$profdata" convert --quiet "$src/tests/data/gperftools/cpu-100hz.prof" "$tmp/cpu-100hz.folded"
node "$here/export.js" "$modules" "$chromium" "$src/tests/data/cpuprofile/node-cpu.cpuprofile" \
  "$app/app-node-cpu.speedscope.json"
node "$here/export.js" "$modules" "$chromium" "$tmp/cpu-100hz.folded" "$app/app-cpu-100hz.speedscope.json"
"$profdata" convert --quiet "$src/tests/data/gperftools/cpu-100hz.prof" "$out/cpu-100hz.speedscope.json"
"$profdata" convert --quiet "$src/tests/data/tracexml/every-element.xml" "$out/trace.speedscope.json"
