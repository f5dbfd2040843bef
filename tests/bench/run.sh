#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The benchmarks, with the reference tools measured in the same
# run. Prints figures; asserts nothing (speed is not a unit test).
#
#   tests/bench/run.sh [BUILD_DIR] [hprof|gperftools|svg|classic|model|symbolize|tracexml|heap ...]
#
# Big inputs are generated once (not committed) under $PD_BENCH_DIR
# (default /tmp): profdata-big.hprof (~1.8 GB, ~37 M objects, made with jcmd
# by gen-big-hprof.sh), profdata-big.cpu (~88 MB, gen-big-gperftools.py) and
# profdata-big.trace.xml (~1 GB, $PD_BENCH_TRACE_MB MB, gen-big-tracexml.py).
# profdata-service.hprof (~7 M objects, gen-service-hprof.sh, for "heap").
# Each figure is the best of $PD_BENCH_RUNS runs (default 3), page cache warm.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build}
shift || true
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(model hprof gperftools svg classic symbolize tracexml)
dir=${PD_BENCH_DIR:-/tmp}
runs=${PD_BENCH_RUNS:-3}
pd=$build/tools/profdata/profdata
[ -x "$pd" ] || { echo "build first: $pd is missing"; exit 1; }

# best "seconds maxrss_kb" of $runs runs of a command (stdout discarded)
measure() {
  local best_t="" best_m="" t m out
  for _ in $(seq "$runs"); do
    # -o: the command's own stderr is discarded, time's report is not
    /usr/bin/time -o "$dir/.pd-bench-time" -f '%e %M' "$@" >/dev/null 2>/dev/null
    out=$(tail -n1 "$dir/.pd-bench-time")
    t=${out% *}
    m=${out#* }
    if [ -z "$best_t" ] || awk -v a="$t" -v b="$best_t" 'BEGIN{exit !(a<b)}'; then best_t=$t best_m=$m; fi
  done
  echo "$best_t $best_m"
}
rate() { awk -v b="$1" -v t="$2" 'BEGIN{ if (t <= 0) t = 0.001; printf "%.0f", b / t / 1e6 }'; }
row() { printf '%-46s %8s s %8s MB/s %8s MiB peak\n' "$1" "$2" "$3" "$(($4 / 1024))"; }

bench_model() {
  echo "== model"
  "$build/tests/bench/bench-model" 10000000
  "$build/tests/bench/bench-model" 10000000 shuffled
}

bench_hprof() {
  local f=$dir/profdata-big.hprof
  [ -f "$f" ] || bash "$here/gen-big-hprof.sh" "$f" || { echo "cannot make $f"; return; }
  local size; size=$(stat -c %s "$f")
  local objects; objects=$("$pd" info --json "$f" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["counts"]["objects"])')
  echo "== hprof: $f, $((size / 1000000)) MB, $objects objects"
  read -r t m < <(measure "$pd" histo "$f")
  row "profdata histo (streaming)" "$t" "$(rate "$size" "$t")" "$m"
  local histo_t=$t
  read -r t m < <(measure "$pd" info "$f")
  row "profdata info (model + all references)" "$t" "$(rate "$size" "$t")" "$m"
  awk -v m="$m" -v n="$objects" 'BEGIN{ printf "%-46s %8.1f bytes/object (peak RSS / objects)\n", "model", m * 1024 / n }'
  local model_t=$t model_m=$m
  if [ -n "$(find /usr/share/visualvm -name "*jfluid-heap*.jar" 2>/dev/null | head -n1)" ]; then
    local vb; vb=$(mktemp -d)
    read -r t m < <(measure bash "$src/tests/interop/visualvm-histo.sh" -b "$vb" --time "$f")
    rm -rf "$vb"
    row "VisualVM heap library (load + instance counts)" "$t" "$(rate "$size" "$t")" "$m"
    awk -v v="$t" -v h="$histo_t" -v mo="$model_t" -v vm="$m" -v mm="$model_m" 'BEGIN{
      printf "histo is %.1fx faster than VisualVM; model is %.1fx faster, with %.2f of its peak memory\n",
             v / h, v / mo, mm / vm }'
  else
    echo "VisualVM not installed: no comparison"
  fi
}

bench_gperftools() {
  local f=$dir/profdata-big.cpu
  [ -f "$f" ] || python3 "$here/gen-big-gperftools.py" "$f" >/dev/null || { echo "cannot make $f"; return; }
  local size; size=$(stat -c %s "$f")
  echo "== gperftools: $f, $((size / 1000000)) MB"
  local out; out=$(mktemp -d)
  read -r t m < <(measure "$pd" info "$f")
  row "read (profdata info)" "$t" "$(rate "$size" "$t")" "$m"
  for to in folded gperftools pprof; do
    # --symbolize=none: this measures conversion; the symbolize part measures naming.
    read -r t m < <(measure "$pd" convert "$f" "$out/out.$to" --to "$to" --quiet --symbolize=none)
    row "convert --to $to" "$t" "$(rate "$size" "$t")" "$m"
    [ "$to" = folded ] && folded_t=$t
  done
  if command -v go >/dev/null; then
    local gh; gh=$(mktemp -d)
    read -r t m < <(measure env HOME="$gh" GOPATH="$gh" GOCACHE="$gh/c" GOFLAGS=-mod=mod \
      go tool pprof -raw -symbolize=none "$f")
    rm -rf "$gh"
    row "go tool pprof -raw -symbolize=none" "$t" "$(rate "$size" "$t")" "$m"
    awk -v g="$t" -v p="$folded_t" 'BEGIN{ printf "folded export is %.1fx faster than go tool pprof -raw\n", g / p }'
  else
    echo "go not installed: no comparison"
  fi
  rm -rf "$out"
}

# The flame graph of the big gperftools profile; against `convert --to folded`
# followed by flamegraph.pl only where FLAMEGRAPH_PL names a copy of it (it is
# not packaged), else our time alone.
bench_svg() {
  local f=$dir/profdata-big.cpu
  [ -f "$f" ] || python3 "$here/gen-big-gperftools.py" "$f" >/dev/null || { echo "cannot make $f"; return; }
  local size; size=$(stat -c %s "$f")
  local out; out=$(mktemp -d)
  echo "== svg: $f, $((size / 1000000)) MB"
  read -r t m < <(measure "$pd" convert "$f" "$out/out.svg" --quiet)
  row "convert to .svg (flame graph)" "$t" "$(rate "$size" "$t")" "$m"
  local svg_t=$t
  "$pd" convert "$f" "$out/out.svg" --quiet
  printf '%-46s %8s KB, %s frames\n' "  the SVG" "$(($(stat -c %s "$out/out.svg") / 1000))" \
    "$(grep -c '<g class="f"' "$out/out.svg")"
  if [ -n "${FLAMEGRAPH_PL:-}" ] && [ -f "$FLAMEGRAPH_PL" ]; then
    read -r t m < <(measure bash -c '"$1" convert "$2" "$3/f.folded" --to folded --quiet && perl "$4" "$3/f.folded" >"$3/fg.svg"' \
      _ "$pd" "$f" "$out" "$FLAMEGRAPH_PL")
    row "convert --to folded + flamegraph.pl" "$t" "$(rate "$size" "$t")" "$m"
    awk -v a="$t" -v b="$svg_t" 'BEGIN{ if (b <= 0) b = 0.001; printf "the SVG is %.1fx faster than folded + flamegraph.pl\n", a / b }'
  else
    echo "FLAMEGRAPH_PL is not set (flamegraph.pl is not packaged): our time alone"
  fi
  rm -rf "$out"
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
  cpu() { /usr/bin/time -f '%e %U %S' "$@" 2>&1 >/dev/null | tail -n1 | awk '{ print $1, $2 + $3 }'; }
  best() { # best wall and CPU of $runs runs
    local bw="" bc="" w c
    for _ in $(seq "$runs"); do
      read -r w c < <(cpu "$@")
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
    read -r gt gc < <(cpu google-pprof --text "$dir/profdata-bench-text.so" "$f")
    printf '%-46s %8s s wall %8s s CPU\n' "google-pprof --text (one run)" "$gt" "$gc"
    awk -v g="$gt" -v p="$t1" -v gc="$gc" -v pc="$c1" 'BEGIN{
      printf "symbolizing convert is %.0fx faster than google-pprof --text (%.0fx in CPU)\n", g / p, gc / pc }'
  else
    echo "google-pprof not installed: no comparison"
  fi
  rm -rf "$out"
}

bench_classic() {
  local f=$dir/profdata-big.hprof
  [ -f "$f" ] || { echo "== classic: needs $f (run the hprof part first)"; return; }
  local size; size=$(stat -c %s "$f")
  local txt=$dir/profdata-big.classic.txt
  echo "== classic"
  read -r t m < <(measure "$pd" convert "$f" "$txt" --to ibm-classic --quiet)
  row "hprof -> classic (input MB/s)" "$t" "$(rate "$size" "$t")" "$m"
  local tsize; tsize=$(stat -c %s "$txt")
  read -r t m < <(measure "$pd" histo "$txt")
  row "classic ($((tsize / 1000000)) MB) -> histo" "$t" "$(rate "$tsize" "$t")" "$m"
  rm -f "$txt"
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

# Heap analysis: dominators and retained sizes with `profdata top`
# (model load included), against VisualVM's getBiggestObjectsByRetainedSize on
# the service-shaped heap (once: it takes minutes and gigabytes), and on the
# 37 M-object dump alone (VisualVM ran out of 24 GB there). PD_BENCH_VISUALVM=0
# skips VisualVM.
bench_heap() {
  local svc=$dir/profdata-service.hprof big=$dir/profdata-big.hprof
  [ -f "$svc" ] || bash "$here/gen-service-hprof.sh" "$svc" || { echo "cannot make $svc"; return; }
  echo "== heap analysis (machine load: $(cut -d' ' -f1-3 /proc/loadavg))"
  local f
  for f in "$svc" "$big"; do
    [ -f "$f" ] || { echo "no $f"; continue; }
    local objects; objects=$("$pd" info --json "$f" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["counts"]["objects"])')
    read -r t m < <(measure "$pd" top -n 50 "$f")
    printf '%-46s %8s s %8s MiB peak  %s objects (%s MB)\n' "profdata top -n 50 $(basename "$f")" "$t" "$((m / 1024))" \
      "$objects" "$(($(stat -c %s "$f") / 1000000))"
    [ "$f" = "$svc" ] && { svc_t=$t; svc_m=$m; }
  done
  local jar; jar=$(find /usr/share/visualvm -name "*jfluid-heap*.jar" 2>/dev/null | head -n1)
  if [ -n "$jar" ] && [ "${PD_BENCH_VISUALVM:-1}" != 0 ] && [ -n "${svc_t:-}" ]; then
    local vb; vb=$(mktemp -d)
    javac -nowarn -cp "$jar" -d "$vb" "$src/tests/interop/VisualVMRetained.java"
    ln -s "$svc" "$vb/dump.hprof"
    local saved=$runs; runs=1
    read -r t m < <(measure java ${VISUALVM_JAVA_OPTS:--Xmx12g} -cp "$jar:$vb" VisualVMRetained --time 50 "$vb/dump.hprof")
    runs=$saved
    rm -rf "$vb"
    printf '%-46s %8s s %8s MiB peak\n' "VisualVM getBiggestObjectsByRetainedSize(50)" "$t" "$((m / 1024))"
    awk -v v="$t" -v o="$svc_t" -v vm="$m" -v om="$svc_m" 'BEGIN{
      printf "profdata top is %.1fx faster than VisualVM, with %.2f of its peak memory\n", v / o, om / vm }'
  fi
}

for p in "${parts[@]}"; do "bench_$p"; done
