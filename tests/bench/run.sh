#!/usr/bin/env bash
# The benchmarks of the issues, with the reference tools measured in the same
# run. Prints figures; asserts nothing (speed is not a unit test).
#
#   tests/bench/run.sh [BUILD_DIR] [hprof|gperftools|classic|model|tracexml ...]
#
# Big inputs are generated once (not committed) under $PD_BENCH_DIR
# (default /tmp): profdata-big.hprof (~1.8 GB, ~37 M objects, made with jcmd
# by gen-big-hprof.sh), profdata-big.cpu (~88 MB, gen-big-gperftools.py) and
# profdata-big.trace.xml (~1 GB, $PD_BENCH_TRACE_MB MB, gen-big-tracexml.py).
# Each figure is the best of $PD_BENCH_RUNS runs (default 3), page cache warm.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build}
shift || true
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(model hprof gperftools classic)
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
    read -r t m < <(measure "$pd" convert "$f" "$out/out.$to" --to "$to" --quiet)
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

for p in "${parts[@]}"; do "bench_$p"; done
