#!/usr/bin/env bash
# The benchmarks of the issues, with the reference tools measured in the same
# run. Prints figures; asserts nothing (speed is not a unit test).
#
#   tests/bench/run.sh [BUILD_DIR] [hprof|gperftools|classic|model|heap ...]
#
# Big inputs are generated once (not committed) under $PD_BENCH_DIR
# (default /tmp): profdata-big.hprof (~1.8 GB, ~37 M objects, made with jcmd
# by gen-big-hprof.sh), profdata-big.cpu (~88 MB, gen-big-gperftools.py) and
# profdata-service.hprof (~7 M objects, gen-service-hprof.sh, for "heap").
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

# Heap analysis (issue 13): dominators and retained sizes with `profdata top`
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
