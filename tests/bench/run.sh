#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The benchmarks of issue #21's table, each figure beside its peer measured
# in the same run and beside a bare read of the same input (`cat` and
# bare-read.c, a read() into one reused buffer), with user, system and wall
# time and peak RSS, best of $PD_BENCH_RUNS, then whether this run met each
# goal and one markdown table to paste into a note (measure.sh says how).
# Asserts nothing: speed is not a unit test.
#
#   tests/bench/run.sh [BUILD_DIR] [PART ...]
#
# Parts (default: all, in this order):
#   hprof      streaming histogram and model + references (`info`) of the
#              1.8 GB jcmd dump, against VisualVM's heap library
#   heap       `top -n 50` on the 7 M-object dump, against VisualVM's
#              retained sizes, and on the 37 M-object dump
#   report     `report` (suspects, waste, histogram, tree in one page) of
#              the 7 M- and 37 M-object dumps, beside `top` alone, and
#              `suspects` and `waste` alone (issue #26)
#   shaped     histo, info and top on a dump of another shape
#              (gen-shaped-hprof.c: ids out of order, thousands of classes)
#   gperftools gperftools -> folded on a wide profile (60,000 stacks, random
#              addresses over two mappings), against `go tool pprof -raw`
#   svg        the flame graph of that profile, against folded
#   classic    HPROF -> classic text (stdout), classic text -> histogram
#   model symbolize tracexml
#              the model's bytes per object, symbolization, XML traces
#   cpuprofile the cpuprofile reader (bench-cpuprofile-read: per-stack
#              counts) on a 226 MB .cpuprofile (gen-big-cpuprofile.js)
#              against Node's JSON.parse of the same file
#   text       the text readers (`info`: read into the model) on 220 MB of
#              `perf script`, of folded stacks of distinct chains and of
#              folded stacks of one call tree, sorted (gen-perf-script.py);
#              no peer reads these into a model, so the bare reads stand
#              beside them
#   jfr        JFR -> folded of two 500 MB recordings (gen-big-jfr.sh: the
#              JDK's own chunks joined, and chunks of execution samples
#              from our writer) against jdk.jfr.consumer.RecordingFile
#              summing the same stacks (tests/interop/JfrStacks.java)
#   pprof      pprof -> folded of a 500,000-sample profile (make-pprof.py)
#              against `go tool pprof -raw`, and merge of 100 profiles of a
#              fleet (gen-pprof-fleet.py) against `go tool pprof -proto`
#
# Inputs, made once when missing and kept under $PD_BENCH_DIR (default /tmp):
# profdata-big.hprof (gen-big-hprof.sh, jcmd), profdata-service.hprof
# (gen-service-hprof.sh), profdata-wide.cpu (gen-wide-gperftools.py),
# profdata-shaped-N.hprof (N = $PD_BENCH_SHAPED_OBJECTS, default 7000000).
# $PD_BENCH_BIG and $PD_BENCH_SERVICE name other dumps for the first two.
# Peers: $PD_BENCH_PEER_RUNS runs (default $PD_BENCH_RUNS), each stopped
# after $PD_BENCH_PEER_TIMEOUT seconds (default 3600); PD_BENCH_VISUALVM=0
# leaves VisualVM out; FLAMEGRAPH_PL names a flamegraph.pl to compare with.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build}
shift || true
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(hprof heap report shaped gperftools svg classic model symbolize tracexml pprof cpuprofile text jfr)
dir=${PD_BENCH_DIR:-/tmp}
runs=${PD_BENCH_RUNS:-3}
peer_runs=${PD_BENCH_PEER_RUNS:-$runs}
peer_timeout=${PD_BENCH_PEER_TIMEOUT:-3600}
big=${PD_BENCH_BIG:-$dir/profdata-big.hprof}
service=${PD_BENCH_SERVICE:-$dir/profdata-service.hprof}
shaped_objects=${PD_BENCH_SHAPED_OBJECTS:-7000000}
pd=$build/tools/profdata/profdata
[ -x "$pd" ] || { echo "build first: $pd is missing"; exit 1; }
scratch=$(mktemp -d "$dir/pd-bench.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
timefile=$scratch/time
# shellcheck source=tests/bench/measure.sh
. "$here/measure.sh"

# best "seconds maxrss_kb" of $runs runs of a command (stdout discarded), for
# the parts outside the table (model, symbolize, tracexml)
measure() {
  local best_t="" best_m="" t m out
  for _ in $(seq "$runs"); do
    # -o: the command's own stderr is discarded, time's report is not
    /usr/bin/time -o "$timefile" -f '%e %M' "$@" >/dev/null 2>/dev/null
    out=$(tail -n1 "$timefile")
    t=${out% *}
    m=${out#* }
    if [ -z "$best_t" ] || awk -v a="$t" -v b="$best_t" 'BEGIN{exit !(a<b)}'; then best_t=$t best_m=$m; fi
  done
  echo "$best_t $best_m"
}
rate() { awk -v b="$1" -v t="$2" 'BEGIN{ if (t <= 0) t = 0.001; printf "%.0f", b / t / 1e6 }'; }
row() { printf '%-46s %8s s %8s MB/s %8s MiB peak\n' "$1" "$2" "$3" "$(($4 / 1024))"; }

objects_of() { "$pd" info --json "$1" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["counts"]["objects"])'; }
mb() { echo $(($(stat -c %s "$1") / 1000000)); }
millions() { objects_of "$1" | awk '{ printf "%.0f", $1 / 1e6 }'; }

# the two bare reads of FILE, as labels bare-cat and bare-read
bare_reads() {
  cmd bare-cat cat "$1"
  cmd bare-read "$build/tests/bench/bare-read" "$1"
}
# show_peer LABEL TEXT WHY BYTES: the peer's line, or why there is none (LABEL empty)
show_peer() {
  if [ -n "$1" ]; then show "$1" "$2" "$4"; else echo "  $3"; fi
}
show_bare() {
  show bare-cat "cat (bare read)" "$1"
  show bare-read "bare-read.c, read() into 1 MiB" "$1"
}

visualvm_jar() {
  [ "${PD_BENCH_VISUALVM:-1}" != 0 ] || return 1
  { find ${VISUALVM_HOME:+"$VISUALVM_HOME"} /usr/share/visualvm /usr/lib/visualvm \
      -name "org-graalvm-visualvm-lib-jfluid-heap.jar" 2>/dev/null || true; } | head -n1 | grep .
}

# VisualVM's histogram (load + instance counts) of FILE as the label peer-visualvm, cold each run
peer_visualvm_histo() {
  local jar classes=$scratch/visualvm
  jar=$(visualvm_jar) || return 1
  mkdir -p "$classes"
  javac -nowarn -cp "$jar" -d "$classes" "$src/tests/interop/VisualVMHisto.java" "$src/tests/interop/VisualVMRetained.java" || return 1
  cmd peer-visualvm timeout "$peer_timeout" bash "$src/tests/interop/visualvm-histo.sh" -b "$classes" --time "$1"
}

# VisualVM's 50 biggest objects by retained size in FILE, as peer-retained;
# its index cache goes to a directory made and removed within each run
peer_visualvm_retained() {
  local jar classes=$scratch/visualvm
  jar=$(visualvm_jar) || return 1
  peer_visualvm_histo "$1" || return 1
  cmd_sh peer-retained "d=\$(mktemp -d '$scratch/vr.XXXXXX'); ln -s '$1' \"\$d/dump.hprof\";
    timeout '$peer_timeout' java ${VISUALVM_JAVA_OPTS:--Xmx12g} -cp '$jar:$classes' VisualVMRetained --time 50 \"\$d/dump.hprof\";
    rc=\$?; rm -rf \"\$d\"; exit \$rc"
}

# Histogram and model of one dump (NAME: how the summary calls it), beside
# VisualVM loading it and counting instances, and beside bare reads.
histo_and_model() {
  local name=$1 f=$2 size objects peer=""
  size=$(stat -c %s "$f")
  objects=$(objects_of "$f")
  echo "== $name: $f, $(mb "$f") MB, $objects objects"
  cmd ours-histo "$pd" histo "$f"
  cmd ours-info "$pd" info "$f"
  bare_reads "$f"
  peer_visualvm_histo "$f" && peer=peer-visualvm
  interleave ours-histo ours-info $peer bare-cat bare-read
  show ours-histo "profdata histo (streaming)" "$size"
  show ours-info "profdata info (model + references)" "$size"
  show_peer "$peer" "VisualVM heap library (load + counts)" "VisualVM: not installed or PD_BENCH_VISUALVM=0" "$size"
  show_bare "$size"
  local floor bpo x
  floor=$(bare_floor)
  bpo=$(calc "${T_RSS[ours-info]} * 1024 / $objects" | cut -d. -f1)
  x=$(per "${T_WALL[ours-histo]}" "${T_WALL[$floor]}")
  echo "  histo: $(printf '%.2f' "$x")x the time of the faster bare read (${floor#bare-})${peer:+; $(ratio ours-histo "$peer") faster than VisualVM}"
  echo "  info: $bpo bytes/object (peak RSS / objects)${peer:+; $(ratio ours-info "$peer") faster than VisualVM}"
  verdict "streaming histogram, $name" "<= 1.5x a bare read" "$(printf '%.2f' "$x")x ${floor#bare-}" \
    "$(less 1.5 "$x" && echo no || echo yes)" "$(short ours-histo)" "$(short "$peer")" "$(short "$floor")"
  local limit=$((16 * objects / 1024 + 64 * 1024))
  judge_speed ours-info "$peer" 15
  [ "${T_RSS[ours-info]}" -le "$limit" ] || MET=no
  verdict "model + references (info), $name" ">= 15x VisualVM at <= 16 B/object + 64 MiB ($((limit / 1024)) MiB)" \
    "$MEASURED, $bpo B/object" "$MET" "$(short ours-info)" "$(short "$peer")" "$(short "$floor")"
}

# `top -n 50` of one dump beside bare reads, and VisualVM's retained sizes when the third
# argument is "visualvm"; REPLY: the label VisualVM's figures are under, empty when it did not run.
top_rows() {
  local name=$1 f=$2 with=${3:-} peer=""
  echo "== top: $name, $f, $(mb "$f") MB, $(objects_of "$f") objects (machine load: $(cut -d' ' -f1-3 /proc/loadavg))"
  cmd ours-top "$pd" top -n 50 "$f"
  bare_reads "$f"
  [ "$with" = visualvm ] && peer_visualvm_retained "$f" && peer=peer-retained
  interleave ours-top $peer bare-cat bare-read
  show ours-top "profdata top -n 50 (model + dominators)" "$(stat -c %s "$f")"
  [ -z "$with" ] || show_peer "$peer" "VisualVM getBiggestObjectsByRetainedSize" "VisualVM: not installed or PD_BENCH_VISUALVM=0" "$(stat -c %s "$f")"
  show_bare "$(stat -c %s "$f")"
  REPLY=$peer
}

bench_hprof() {
  [ -f "$big" ] || bash "$here/gen-big-hprof.sh" "$big" || { echo "cannot make $big"; return; }
  histo_and_model "$(mb "$big") MB jcmd dump" "$big"
}

# `top -n 50` of FILE against VisualVM's retained sizes: the goal is 25x.
top_against_visualvm() {
  top_rows "$1" "$2" visualvm
  judge_speed ours-top "$REPLY" 25
  verdict "top -n 50, $1" ">= 25x VisualVM" "$MEASURED" "$MET" \
    "$(short ours-top)" "$(short peer-retained)" "$(short "$(bare_floor)")"
}

bench_heap() {
  [ -f "$service" ] || bash "$here/gen-service-hprof.sh" "$service" || { echo "cannot make $service"; return; }
  top_against_visualvm "$(millions "$service")M-object dump" "$service"
  [ -f "$big" ] || { echo "no $big"; return; }
  local name limit=$((1100000000 / 1024)) met
  name="$(millions "$big")M-object dump"
  top_rows "$name" "$big"
  met=$(less "${T_WALL[ours-top]}" 10 && [ "${T_RSS[ours-top]}" -le "$limit" ] && echo yes || echo no)
  verdict "top -n 50, $name" "< 10 s in <= 1.1 GB" "${T_WALL[ours-top]} s, $(mib ours-top) MiB" "$met" \
    "$(short ours-top)" "—" "$(short "$(bare_floor)")"
}

# `report` of FILE (one page: the suspects, the waste, the retained
# histogram, the top of the dominator tree), beside `top -n 50` alone in the
# same run, and `suspects` and `waste` alone, each a load and an analysis of
# its own. Sets REPORT_RATIO, report's wall time over top's.
report_rows() {
  local name=$1 f=$2 size
  size=$(stat -c %s "$f")
  echo "== report: $name, $f, $(mb "$f") MB (machine load: $(cut -d' ' -f1-3 /proc/loadavg))"
  cmd ours-top "$pd" top -n 50 "$f"
  cmd ours-suspects "$pd" suspects "$f"
  cmd ours-waste "$pd" waste "$f"
  cmd ours-report "$pd" report "$f" -o "$scratch/report.html"
  bare_reads "$f"
  interleave ours-top ours-suspects ours-waste ours-report bare-cat bare-read
  show ours-report "profdata report (suspects, waste, histogram, tree)" "$size"
  show ours-top "profdata top -n 50 alone" "$size"
  show ours-suspects "profdata suspects alone" "$size"
  show ours-waste "profdata waste alone" "$size"
  show_bare "$size"
  REPORT_RATIO=$(per "${T_WALL[ours-report]}" "${T_WALL[ours-top]}")
}

# Issue #26's answers: the report within 2x of top on the service dump, and
# on the 37 M-object dump in under 15 s and 1.3 GB.
bench_report() {
  [ -f "$service" ] || bash "$here/gen-service-hprof.sh" "$service" || { echo "cannot make $service"; return; }
  local name limit=$((1300000000 / 1024)) met
  name="$(millions "$service")M-object dump"
  report_rows "$name" "$service"
  met=$(less "$REPORT_RATIO" 2.0001 && echo yes || echo no)
  verdict "report, $name" "<= 2x top -n 50" "$(printf '%.2f' "$REPORT_RATIO")x top" "$met" \
    "$(short ours-report)" "top: $(short ours-top)" "$(short "$(bare_floor)")"
  [ -f "$big" ] || { echo "no $big: make it with tests/bench/gen-big-hprof.sh (run.sh hprof does)"; return; }
  name="$(millions "$big")M-object dump"
  report_rows "$name" "$big"
  met=$(less "${T_WALL[ours-report]}" 15 && [ "${T_RSS[ours-report]}" -le "$limit" ] && echo yes || echo no)
  verdict "report, $name" "< 15 s in <= 1.3 GB" "${T_WALL[ours-report]} s, $(mib ours-report) MiB" "$met" \
    "$(short ours-report)" "top: $(short ours-top)" "$(short "$(bare_floor)")"
}

# A dump of another shape than the JDK's: histo, info and top, beside VisualVM.
bench_shaped() {
  local f=$dir/profdata-shaped-$shaped_objects.hprof
  if [ ! -f "$f" ]; then
    echo "== making $f"
    /usr/bin/time -f "  gen-shaped-hprof: %e s wall, %U user + %S sys" \
      "$build/tests/bench/gen-shaped-hprof" "$f" --objects "$shaped_objects" || { echo "cannot make $f"; return; }
  fi
  histo_and_model "shaped dump ($shaped_objects objects)" "$f"
  top_against_visualvm "shaped dump ($shaped_objects objects)" "$f"
}

# The wide profile, made by gen-wide-gperftools.py with exactly these arguments.
wide_profile() {
  local f=$dir/profdata-wide.cpu
  [ -f "$f" ] && { echo "$f"; return; }
  [ -f "$here/gen-wide-gperftools.py" ] || return 1
  python3 "$here/gen-wide-gperftools.py" "$f" --records 500000 --stacks 60000 --mappings 2 >&2 && echo "$f"
}

skip_wide() {
  echo "== $1: SKIPPED: tests/bench/gen-wide-gperftools.py is not on this branch yet (it makes the wide profile)"
  summary+=("| $1 | skipped: no gen-wide-gperftools.py yet | | | | $2 | not run |")
}

bench_gperftools() {
  local f; f=$(wide_profile) || { skip_wide "gperftools -> folded, wide profile" ">= 40x go tool pprof -raw"; return; }
  local size; size=$(stat -c %s "$f")
  echo "== gperftools -> folded: $f, $(mb "$f") MB"
  cmd ours-folded "$pd" convert "$f" "$scratch/out.folded" --to folded --quiet
  cmd ours-folded-none "$pd" convert "$f" "$scratch/none.folded" --to folded --quiet --symbolize=none
  bare_reads "$f"
  local peer=""
  if command -v go >/dev/null; then
    mkdir -p "$scratch/go"
    cmd peer-go env HOME="$scratch/go" GOPATH="$scratch/go" GOCACHE="$scratch/go/c" GOFLAGS=-mod=mod \
      timeout "$peer_timeout" go tool pprof -raw -symbolize=none "$f"
    peer=peer-go
  fi
  interleave ours-folded ours-folded-none $peer bare-cat bare-read
  show ours-folded "convert --to folded (default: auto symbolize)" "$size"
  show ours-folded-none "convert --to folded --symbolize=none" "$size"
  show_peer "$peer" "go tool pprof -raw -symbolize=none" "go: not installed" "$size"
  show_bare "$size"
  judge_speed ours-folded "$peer" 40
  verdict "gperftools -> folded, wide profile" ">= 40x go tool pprof -raw" "$MEASURED" "$MET" \
    "$(short ours-folded)" "$(short "$peer")" "$(short "$(bare_floor)")"
}

# The flame graph of the wide profile against folded; against folded +
# flamegraph.pl only where FLAMEGRAPH_PL names a copy (Debian does not
# package it; npm's "flamegraph" is another program, a JavaScript port).
bench_svg() {
  local f; f=$(wide_profile) || { skip_wide "SVG flame graph, wide profile" "<= folded"; return; }
  local size peer=""
  size=$(stat -c %s "$f")
  echo "== SVG flame graph: $f, $(mb "$f") MB"
  cmd ours-svg "$pd" convert "$f" "$scratch/out.svg" --quiet
  cmd ours-folded "$pd" convert "$f" "$scratch/out.folded" --to folded --quiet
  bare_reads "$f"
  if [ -n "${FLAMEGRAPH_PL:-}" ] && [ -f "$FLAMEGRAPH_PL" ]; then
    cmd_sh peer-flamegraph "$(printf '%q ' "$pd") convert $(printf '%q ' "$f") '$scratch/fg.folded' --to folded --quiet &&
      perl $(printf '%q' "$FLAMEGRAPH_PL") '$scratch/fg.folded' > '$scratch/fg.svg'"
    peer=peer-flamegraph
  fi
  interleave ours-svg ours-folded $peer bare-cat bare-read
  show ours-svg "convert to .svg (flame graph)" "$size"
  show ours-folded "convert --to folded" "$size"
  show_peer "$peer" "convert --to folded + flamegraph.pl" \
    "flamegraph.pl: not packaged by Debian (npm's 'flamegraph' is a JavaScript port): set FLAMEGRAPH_PL to compare" "$size"
  show_bare "$size"
  local x; x=$(per "${T_WALL[ours-svg]}" "${T_WALL[ours-folded]}")
  verdict "SVG flame graph, wide profile" "<= folded" "$(printf '%.2f' "$x")x folded" \
    "$(less 1 "$x" && echo no || echo yes)" "$(short ours-svg)" "$(short "$peer")" "$(short "$(bare_floor)")"
}

# "R MB/s": LABEL's rate over BYTES
mbps() { per "$2" "${T_WALL[$1]}" | awk '{ printf "%.0f", $1 / 1e6 }'; }

bench_classic() {
  [ -f "$big" ] || { echo "== classic: needs $big (run the hprof part first)"; return; }
  local size txt=$scratch/big.classic.txt
  size=$(stat -c %s "$big")
  echo "== classic text, both ways: $big, $(mb "$big") MB"
  cmd ours-to-classic "$pd" convert "$big" - --to ibm-classic --quiet
  bare_reads "$big"
  interleave ours-to-classic bare-cat bare-read
  show ours-to-classic "hprof -> classic text, to stdout" "$size"
  show_bare "$size"
  local r; r=$(mbps ours-to-classic "$size")
  verdict "HPROF -> classic text (MB/s of input)" ">= 1000 MB/s" "$r MB/s" "$([ "$r" -ge 1000 ] && echo yes || echo no)" \
    "$(short ours-to-classic)" "—" "$(short "$(bare_floor)"), $(mbps "$(bare_floor)" "$size") MB/s"
  "$pd" convert "$big" "$txt" --to ibm-classic --quiet || { echo "cannot write $txt"; return; }
  size=$(stat -c %s "$txt")
  echo "== classic text -> histogram: $(mb "$txt") MB of text"
  cmd ours-classic-histo "$pd" histo "$txt"
  bare_reads "$txt"
  interleave ours-classic-histo bare-cat bare-read
  show ours-classic-histo "classic text -> histo" "$size"
  show_bare "$size"
  r=$(mbps ours-classic-histo "$size")
  verdict "classic text -> histogram (MB/s of input)" ">= 1000 MB/s" "$r MB/s" "$([ "$r" -ge 1000 ] && echo yes || echo no)" \
    "$(short ours-classic-histo)" "—" "$(short "$(bare_floor)"), $(mbps "$(bare_floor)" "$size") MB/s"
  rm -f "$txt"
}

bench_model() {
  echo "== model"
  "$build/tests/bench/bench-model" 10000000
  "$build/tests/bench/bench-model" 10000000 shuffled
}

# Naming frames: the 500,000-record profile with its PCs in a real binary's text
# (this build's libprofdata.so, -g), converted to folded with and without
# symbolization, and google-pprof --text on the same profile and binary (one
# run: it takes minutes). Wall and CPU seconds: on a shared machine the CPU
# figure is the steadier one.
bench_symbolize() {
  local so; so=$(ls "$build"/lib/libprofdata.so.*.*.* 2>/dev/null | head -n1)
  [ -n "$so" ] || { echo "== symbolize: no libprofdata.so in $build"; return; }
  cp "$so" "$dir/profdata-bench-text.so"
  local f=$dir/profdata-big-sym.cpu
  python3 "$here/gen-big-gperftools.py" "$f" --binary "$dir/profdata-bench-text.so" 2>/dev/null ||
    { echo "cannot make $f"; return; }
  echo "== symbolize: $f, $(($(stat -c %s "$f") / 1000000)) MB, PCs in $dir/profdata-bench-text.so"
  local out t0 t1 c0 c1; out=$(mktemp -d)
  wall_cpu() { /usr/bin/time -f '%e %U %S' "$@" 2>&1 >/dev/null | tail -n1 | awk '{ print $1, $2 + $3 }'; }
  best() { # best wall and CPU of $runs runs
    local bw="" bc="" w c
    for _ in $(seq "$runs"); do
      read -r w c < <(wall_cpu "$@")
      if [ -z "$bw" ] || awk -v a="$w" -v b="$bw" 'BEGIN{exit !(a<b)}'; then bw=$w; fi
      if [ -z "$bc" ] || awk -v a="$c" -v b="$bc" 'BEGIN{exit !(a<b)}'; then bc=$c; fi
    done
    echo "$bw $bc"
  }
  read -r t0 c0 < <(best "$pd" convert "$f" "$out/a.folded" --to folded --symbolize=none --quiet)
  read -r t1 c1 < <(best "$pd" convert "$f" "$out/b.folded" --to folded --symbolize=yes --quiet)
  printf '%-46s %8s s wall %8s s CPU\n' "convert --to folded --symbolize=none" "$t0" "$c0"
  printf '%-46s %8s s wall %8s s CPU\n' "convert --to folded --symbolize=yes" "$t1" "$c1"
  awk -v a="$t0" -v b="$t1" -v c="$c0" -v d="$c1" 'BEGIN{ printf "symbolization adds %.2f s wall, %.2f s CPU\n", b - a, d - c }'
  if command -v google-pprof >/dev/null; then
    local gt gc
    read -r gt gc < <(wall_cpu google-pprof --text "$dir/profdata-bench-text.so" "$f")
    printf '%-46s %8s s wall %8s s CPU\n' "google-pprof --text (one run)" "$gt" "$gc"
    awk -v g="$gt" -v p="$t1" -v gc="$gc" -v pc="$c1" 'BEGIN{
      printf "symbolizing convert is %.0fx faster than google-pprof --text (%.0fx in CPU)\n", g / p, gc / pc }'
  else
    echo "google-pprof not installed: no comparison"
  fi
  rm -rf "$out"
}

# tracexml: conversion to folded against bare expat counting the same file's
# elements (tests/bench/bare-expat.c), peak RSS, and writing speed.
bench_tracexml() {
  local mb=${PD_BENCH_TRACE_MB:-1000}
  local f=$dir/profdata-big-$mb.trace.xml
  [ -f "$f" ] || python3 "$here/gen-big-tracexml.py" "$f" "$mb" || { echo "cannot make $f"; return; }
  local size; size=$(stat -c %s "$f")
  echo "== tracexml: $f, $((size / 1000000)) MB (agent layout: one line, no closing tag)"
  local out; out=$(mktemp -d)
  read -r t m < <(measure "$build/tests/bench/bare-expat" "$f")
  row "bare expat, counting elements" "$t" "$(rate "$size" "$t")" "$m"
  local expat_t=$t
  read -r t m < <(measure "$pd" convert "$f" "$out/out.folded" --to folded --quiet)
  row "convert --to folded (streaming derivation)" "$t" "$(rate "$size" "$t")" "$m"
  awk -v e="$expat_t" -v p="$t" 'BEGIN{ printf "folded conversion runs at %.2fx the speed of bare expat\n", e / p }'
  "$pd" convert "$f" "$out/out.xml" --to tracexml --quiet
  local wsize; wsize=$(stat -c %s "$out/out.xml")
  read -r t m < <(measure "$pd" convert "$f" "$out/out.xml" --to tracexml --quiet)
  row "convert --to tracexml (output MB/s)" "$t" "$(rate "$wsize" "$t")" "$m"
  # The encoder alone, from a model of the first 20 MB (a model of the whole would not be small).
  head -c 20000000 "$f" > "$out/head.xml"
  "$build/tests/bench/bench-tracexml-write" "$out/head.xml"
  rm -rf "$out"
}


# go tool pprof as a peer, offline, in a folder of its own under the scratch folder
go_peer() {
  mkdir -p "$scratch/go"
  cmd "$1" env HOME="$scratch/go" GOPATH="$scratch/go" GOCACHE="$scratch/go/c" GOFLAGS=-mod=mod GOPROXY=off \
    PPROF_TMPDIR="$scratch/go/tmp" PPROF_BINARY_PATH="$scratch/go/none" timeout "$peer_timeout" go tool pprof "${@:2}"
}

# judge_pprof OURS PEER WORK: >= 10x faster than the peer at <= 1/4 of its peak RSS
judge_pprof() {
  local ours=$1 peer=$2 work=$3 memory_met=no
  judge_speed "$ours" "$peer" 10
  if [ -n "$peer" ] && [ -n "${T_RSS[$peer]:-}" ]; then
    [ $((${T_RSS[$ours]} * 4)) -le "${T_RSS[$peer]}" ] && memory_met=yes
    MEASURED="$MEASURED, $(mib "$ours") vs $(mib "$peer") MiB"
    case $MET in yes | no) [ "$memory_met" = yes ] || MET=no ;; esac
  fi
  verdict "$work" ">= 10x go tool pprof, <= 1/4 of its peak RSS" "$MEASURED" "$MET" \
    "$(short "$ours")" "$(short "$peer")" "—"
}

# pprof: read -> folded of one large profile, and merge of a fleet's 100
# profiles, each beside go tool pprof doing the same in the same run.
bench_pprof() {
  local big=$dir/profdata-pprof-500k.pb.gz fleet=$dir/profdata-pprof-fleet peer=""
  [ -f "$big" ] || python3 "$here/make-pprof.py" "$big" 500000 || { echo "cannot make $big"; return; }
  [ -f "$fleet/fleet-099.pb.gz" ] || python3 "$here/gen-pprof-fleet.py" "$fleet" 100 20000 ||
    { echo "cannot make $fleet"; return; }
  local size; size=$(stat -c %s "$big")
  echo "== pprof -> folded: $big, $(mb "$big") MB"
  # To stdout, which the harness discards, as go's: a path output adds the writer's fsync before its rename
  cmd ours-pprof-folded "$pd" convert "$big" - --to folded --quiet
  bare_reads "$big"
  if command -v go >/dev/null; then go_peer peer-go-raw -raw -symbolize=none "$big"; peer=peer-go-raw; fi
  interleave ours-pprof-folded $peer bare-cat bare-read
  show ours-pprof-folded "convert pprof -> folded" "$size"
  show_peer "$peer" "go tool pprof -raw" "go: not installed" "$size"
  show_bare "$size"
  judge_pprof ours-pprof-folded "$peer" "pprof -> folded, 500,000 samples"
  local files=("$fleet"/fleet-*.pb.gz)
  size=$(cat "${files[@]}" | wc -c)
  echo "== merge of ${#files[@]} profiles: $fleet, $((size / 1000000)) MB"
  cmd ours-merge "$pd" merge --quiet "${files[@]}" -o - --to pprof
  peer=""
  if command -v go >/dev/null; then go_peer peer-go-proto -proto -symbolize=none "${files[@]}"; peer=peer-go-proto; fi
  interleave ours-merge $peer
  show ours-merge "profdata merge" "$size"
  show_peer "$peer" "go tool pprof -proto" "go: not installed" "$size"
  judge_pprof ours-merge "$peer" "merge of ${#files[@]} pprof profiles"
}

# cpuprofile: our reader against V8's own JSON.parse, which builds the document and does nothing with it.
bench_cpuprofile() {
  local big=$dir/profdata-big.cpuprofile peer=""
  command -v node >/dev/null || { echo "== cpuprofile: node is not installed: skipped"; return; }
  [ -f "$big" ] || node "$here/gen-big-cpuprofile.js" "$big" || { echo "cannot make $big"; return; }
  local size; size=$(stat -c %s "$big")
  echo "== cpuprofile -> per-stack counts: $big, $(mb "$big") MB"
  cmd ours-cpuprofile "$build/tests/bench/bench-cpuprofile-read" "$big"
  cmd peer-node-json node -e 'JSON.parse(require("fs").readFileSync(process.argv[1]))' "$big"
  peer=peer-node-json
  bare_reads "$big"
  interleave ours-cpuprofile $peer bare-cat bare-read
  show ours-cpuprofile "bench-cpuprofile-read" "$size"
  show_peer "$peer" "node JSON.parse(readFileSync)" "" "$size"
  show_bare "$size"
  judge_speed ours-cpuprofile "$peer" 5
  verdict "cpuprofile read, $(mb "$big") MB" ">= 5x Node's JSON.parse" "$MEASURED" "$MET" \
    "$(short ours-cpuprofile)" "$(short "$peer")" "—"
}

# One recording of gen-big-jfr.sh's SHAPE -> folded, against RecordingFile when java is there.
jfr_read() {
  local shape=$1 f=$dir/profdata-jfr-$1.jfr peer=""
  [ -f "$f" ] || bash "$here/gen-big-jfr.sh" "$pd" "$shape" "$f" 500 || { echo "cannot make $f"; return; }
  local size; size=$(stat -c %s "$f")
  echo "== jfr ($shape) -> folded: $f, $(mb "$f") MB"
  cmd "ours-jfr-$shape" "$pd" convert "$f" - --to folded --quiet
  if [ -d "$scratch/jfr-classes" ]; then
    cmd "peer-jfr-$shape" java -cp "$scratch/jfr-classes" JfrStacks "$f" jdk.ExecutionSample
    peer=peer-jfr-$shape
  fi
  bare_reads "$f"
  interleave "ours-jfr-$shape" $peer bare-cat bare-read
  show "ours-jfr-$shape" "convert jfr -> folded" "$size"
  show_peer "$peer" "RecordingFile, stacks summed" "java: not installed" "$size"
  show_bare "$size"
  judge_speed "ours-jfr-$shape" "$peer" 10
  verdict "jfr ($shape) -> folded, $(mb "$f") MB" ">= 10x RecordingFile" "$MEASURED" "$MET" \
    "$(short "ours-jfr-$shape")" "$(short "$peer")" "—"
}

bench_jfr() {
  if command -v javac >/dev/null && command -v java >/dev/null; then
    mkdir -p "$scratch/jfr-classes"
    javac -d "$scratch/jfr-classes" "$src/tests/interop/JfrStacks.java" || rm -rf "$scratch/jfr-classes"
  fi
  jfr_read jdk
  jfr_read samples
}

# One text input: made by gen-perf-script.py KIND when missing, then read by `info` against the bare reads.
text_read() {
  local kind=$1 what=$2 f=$dir/profdata-text-$1.txt size r
  [ -f "$f" ] || python3 "$here/gen-perf-script.py" "$kind" "$f" --mb 220 || { echo "cannot make $f"; return; }
  size=$(stat -c %s "$f")
  echo "== $what -> model: $f, $(mb "$f") MB"
  cmd "ours-$kind" "$pd" info "$f"
  bare_reads "$f"
  interleave "ours-$kind" bare-cat bare-read
  show "ours-$kind" "info ($what)" "$size"
  show_bare "$size"
  r=$(mbps "ours-$kind" "$size")
  verdict "$what read (MB/s of input)" ">= 300 MB/s" "$r MB/s (CPU $(per "$size" "$(cpu "ours-$kind")" | awk '{ printf "%.0f", $1 / 1e6 }') MB/s)" \
    "$([ "$r" -ge 300 ] && echo yes || echo no)" "$(short "ours-$kind")" "—" "$(short "$(bare_floor)"), $(mbps "$(bare_floor)" "$size") MB/s"
}

bench_text() {
  text_read perf "perf script"
  text_read folded "folded, distinct chains"
  text_read tree "folded, one call tree, sorted"
}

echo "# tests/bench/run.sh ${parts[*]}: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)," \
  "$(git -C "$src" describe --always --dirty 2>/dev/null || echo 'no git'), $pd"
load_warning
for p in "${parts[@]}"; do "bench_$p"; done
[ ${#summary[@]} -eq 0 ] || print_summary
