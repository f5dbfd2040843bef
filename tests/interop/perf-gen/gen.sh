#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Makes the perf script fixtures of tests/data/perf-script: workload.c
# (beside this script) built with frame pointers and DWARF, profiled by
# Linux perf on the software clock (cpu-clock: no hardware counters needed)
# and printed by perf script in the layouts people meet:
#   fp.perf          perf record -g; perf script (the default fields)
#   dwarf.perf       perf record --call-graph dwarf; perf script -F with every
#                    field the reader knows (comm,pid,tid,time,event,period,
#                    ip,sym,dso,symoff,srcline): inlined frames, source lines
#   two-events.perf  perf record -e cpu-clock,task-clock -g; -F comm,tid,time,
#                    event,period,ip,sym,dso
#   no-chain.perf    fp.perf's samples without call chains (perf script -G)
#   fp.report        perf report --stdio --no-children --sort sym of fp.perf's
#                    data: the self percentages the tests compare with ours
# Needs perf allowed to profile (perf_event_paranoid <= 2 for one's own
# programs, or root). Usage: gen.sh [OUTDIR]   (default: tests/data/perf-script)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../data/perf-script}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cc -O2 -g -fno-omit-frame-pointer -pthread -o workload "$here/workload.c"
# Paths in the output are the scratch folder's: name it the same every time.
script() { perf script -i "$@" 2>/dev/null | sed "s|$tmp/|/tmp/perf-gen/|g"; }
perf record -q -e cpu-clock -c 1000000 -g -o fp.data ./workload 60 >/dev/null
script fp.data >"$out/fp.perf"
script fp.data -G >"$out/no-chain.perf"
perf report -i fp.data --stdio --no-children --sort sym 2>/dev/null | grep -v '^#' | grep . >"$out/fp.report"
perf record -q -e cpu-clock -c 4000000 --call-graph dwarf,16384 -o dwarf.data ./workload 30 >/dev/null
script dwarf.data -F comm,pid,tid,time,event,period,ip,sym,dso,symoff,srcline >"$out/dwarf.perf"
perf record -q -e cpu-clock,task-clock -c 2000000 -g -o two.data ./workload 30 >/dev/null
script two.data -F comm,tid,time,event,period,ip,sym,dso >"$out/two-events.perf"
ls -l "$out"
