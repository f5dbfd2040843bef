#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# A fuzzing campaign: each libFuzzer target for SECONDS (a release wants at
# least one CPU-hour per target: 3600), from its seed corpora and with its
# dictionary, keeping what it finds in a work corpus. Prints, per target,
# executions, executions per second, coverage (libFuzzer's cov: edges and ft:
# features) and whether it crashed; crash inputs stay in the work folder.
#
#   tests/fuzz/campaign.sh [-b BUILD] [-w WORK] [-j JOBS] [-s SEED] SECONDS [TARGET...]
#
# BUILD: a -Dfuzzing=true build (default build-fuzz, set up with clang,
# ASan+UBSan when missing). WORK: where work corpora and logs go (default a
# new temporary folder, printed). JOBS: targets run at once (default 1: the
# figures are per CPU). SEED: libFuzzer's random seed (default: a new one per
# run; tools/test.sh fixes it, so that its short runs take the same first
# steps on every machine). TARGET: names as in tests/fuzz/meson.build (any,
# hprof, hprof-roundtrip, classic, classic-roundtrip, gperftools,
# gperftools-roundtrip, convert, tracexml, heap, pprof, jfr, hprof-text,
# folded, perf-script, cpuprofile, speedscope); default every one BUILD has.
# After a campaign, `-merge=1` the work corpus into tests/fuzz/corpus/<name>
# to keep what it found (see tests/fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."

build=build-fuzz work= jobs=1 seed=()
while getopts b:w:j:s: o; do
  case $o in
    b) build=$OPTARG ;;
    w) work=$OPTARG ;;
    j) jobs=$OPTARG ;;
    s) seed=(-seed="$OPTARG") ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '2,20p' "$0"; exit 2; }
secs=$1; shift

# target: seed corpora (under tests/fuzz/corpus) and dictionary (under tests/fuzz), as in meson.build
# (keep the two lists alike: a target missing here is not fuzzed by tools/test.sh)
declare -A seeds=(
  [any]="any hprof classic gperftools pprof" [hprof]=hprof [hprof-roundtrip]=hprof
  [classic]=classic [classic-roundtrip]=classic [gperftools]=gperftools
  [gperftools-roundtrip]=gperftools [convert]="any hprof classic gperftools hprof-text" [tracexml]=tracexml [heap]=hprof
  [pprof]=pprof [jfr]=jfr [hprof-text]=hprof-text [folded]=folded [perf-script]=perf-script
  [cpuprofile]=cpuprofile [speedscope]=speedscope)
declare -A dicts=([hprof]=hprof.dict [hprof-roundtrip]=hprof.dict [classic]=classic.dict
  [classic-roundtrip]=classic.dict [convert]=classic.dict [tracexml]=fuzz-tracexml.dict [heap]=hprof.dict
  [pprof]=pprof.dict [jfr]=jfr.dict [hprof-text]=hprof-text.dict)
targets=("$@")

if [ ! -f "$build/build.ninja" ]; then
  CC=clang meson setup "$build" -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false \
    -Dtool=false >/dev/null
fi
meson compile -C "$build" >/dev/null
# No target named: every one of `seeds` the build has (cpuprofile and speedscope need yajl).
if [ ${#targets[@]} -eq 0 ]; then
  for name in $(printf '%s\n' "${!seeds[@]}" | sort); do
    [ ! -x "$build/tests/fuzz/fuzz-$name" ] || targets+=("$name")
  done
fi
[ -n "$work" ] || work=$(mktemp -d /tmp/profdata-fuzz-XXXXXX)
mkdir -p "$work"
echo "work corpora and logs: $work"

run_one() {
  local name=$1 t=$build/tests/fuzz/fuzz-$1 dict=() seed_dirs=() d
  [ -x "$t" ] || { echo "$name: no such target in $build" >&2; return 1; }
  mkdir -p "$work/$name"
  for d in ${seeds[$name]}; do seed_dirs+=("tests/fuzz/corpus/$d"); done
  [ -z "${dicts[$name]:-}" ] || dict=(-dict="tests/fuzz/${dicts[$name]}")
  # New inputs go to the first folder: the work corpus, never the seeds.
  # CPU seconds too: on a shared machine executions per CPU-second say more than per second.
  local timer=()
  [ ! -x /usr/bin/time ] || timer=(/usr/bin/time -f 'cpu_seconds: %U %S' -o "$work/$name.cpu")
  "${timer[@]}" "$t" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 "${seed[@]}" \
    -artifact_prefix="$work/$name-" "${dict[@]}" "$work/$name" "${seed_dirs[@]}" >"$work/$name.log" 2>&1 || true
}

summary() {
  local name=$1 log=$work/$1.log execs cov ft crashed
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cpu=$(awk '/^cpu_seconds:/ { printf "%d", $2 + $3 + 0.5 }' "$work/$1.cpu" 2>/dev/null)
  [ "${cpu:-0}" -gt 0 ] || cpu=$secs
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
  crashed=no  # a sanitizer report or a crash
  grep -qE '^==[0-9]+==ERROR|SUMMARY: |deadly signal|Test unit written' "$log" && crashed=YES
  printf '%-22s %12s %9s %12s %8s %8s %8s\n' "$name" "${execs:-?}" "$(( ${execs:-0} / secs ))" \
    "$(( ${execs:-0} / cpu ))" "${cov:-?}" "${ft:-?}" "$crashed"
}

running=0
for name in "${targets[@]}"; do
  [ -n "${seeds[$name]:-}" ] || { echo "unknown target $name" >&2; exit 2; }
  run_one "$name" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
done
wait
printf '%-22s %12s %9s %12s %8s %8s %8s\n' target executions "exec/s" "exec/cpu-s" cov ft findings
for name in "${targets[@]}"; do summary "$name"; done
# What the sanitizers reported (UBSan goes on after a report; a crash stops the target).
grep -h "SUMMARY: " "$work"/*.log 2>/dev/null | sort | uniq -c || true
ls "$work" | grep -E -- '-(crash|leak|timeout|oom)-' | sed "s|^|crash input: $work/|" || true
