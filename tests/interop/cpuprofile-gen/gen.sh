#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Make tests/data/cpuprofile's fixtures with Node (V8's own profiler):
#   node-cpu.cpuprofile  `node --cpu-prof` of work.js
#   node-trace.json      the same run's trace events (Profile / ProfileChunk,
#                        category disabled-by-default-v8.cpu_profiler)
# Usage: gen.sh [OUTDIR]   (default: tests/data/cpuprofile)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/../../data/cpuprofile}"
command -v node >/dev/null || { echo "gen.sh: node is missing" >&2; exit 77; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && node --cpu-prof --cpu-prof-dir="$tmp" --cpu-prof-name=node-cpu.cpuprofile \
  --trace-event-categories=disabled-by-default-v8.cpu_profiler --trace-event-file-pattern=node-trace.json \
  "$here/work.js")
mkdir -p "$out"
cp "$tmp/node-cpu.cpuprofile" "$tmp/node-trace.json" "$out/"
