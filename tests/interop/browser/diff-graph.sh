#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The differential flame graph (profdata diff BASE NEW -o OUT.svg) in headless
# Chromium (diff-graph-test.js): exit 77 when node, chromium or the npm
# packages are missing. BASE and NEW come from the Go runtime's block profile
# (tests/data/pprof/block.pb.gz) through our filters: BASE without
# main.cpuWork's stacks, NEW without runtime.chanrecv2's, so main.cpuWork
# grows from nothing and main.contend shrinks but stays.
# usage: diff-graph.sh PROFDATA SOURCE_ROOT BUILD_ROOT
set -euo pipefail
profdata=$1 src=$2 build=$3
# shellcheck source=tests/interop/browser/browser-env.sh
. "$src/tests/interop/browser/browser-env.sh"
block="$src/tests/data/pprof/block.pb.gz"
"$profdata" convert --quiet --ignore 'main\.cpuWork' "$block" "$out/base.pb.gz"
"$profdata" convert --quiet --ignore 'runtime\.chanrecv2' "$block" "$out/new.pb.gz"
"$profdata" diff --quiet "$out/base.pb.gz" "$out/new.pb.gz" -o "$out/diff.svg"
# What the graph must say, read without it: each side's folded stacks.
"$profdata" convert --quiet "$out/base.pb.gz" "$out/base.folded"
"$profdata" convert --quiet "$out/new.pb.gz" "$out/new.folded"
node "$here/diff-graph-test.js" "$modules" "$chromium" "$out"
