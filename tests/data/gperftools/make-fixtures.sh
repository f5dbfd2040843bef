#!/usr/bin/env bash
# Re-records the gperftools CPU profile fixtures with the real profiler
# (libprofiler from gperftools).  The output differs on every run (timing,
# ASLR addresses, library paths), so tests must check structure and totals
# that the tools agree on, never exact bytes.
#
# Needs: gcc and libgoogle-perftools-dev (Debian package names).
# Usage: tests/data/gperftools/make-fixtures.sh [OUTDIR]
#   OUTDIR defaults to the directory holding this script.
#   FIXTURE_BUILD_DIR=DIR keeps the compiled workload in DIR (useful for
#   symbolizing with google-pprof); otherwise it lives in a temp dir that is
#   removed, so no binary ends up in the repository.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:-$here}
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [[ -n ${FIXTURE_BUILD_DIR:-} ]]; then
    build=$FIXTURE_BUILD_DIR
    mkdir -p "$build"
else
    build=$(mktemp -d)
    trap 'rm -rf "$build"' EXIT
fi

# Frame pointers make the profiler's unwinder (and so the recorded stacks)
# stable; -O1 keeps the code realistic without inlining the noinline helpers.
gcc -std=c99 -Wall -Wextra -g -O1 -fno-omit-frame-pointer \
    -o "$build/workload" "$here/gen/workload.c" \
    -Wl,--no-as-needed -lprofiler -Wl,--as-needed

run() {
    # The profiler reports "PROFILE: interrupts/evictions/bytes = ..." on
    # stderr at exit; keep it visible so the README numbers can be checked.
    echo "+ $*" >&2
    env "$@"
}

rm -f "$out"/*.prof

# Plain CPUPROFILE runs at two rates; the header's period slot differs.
run CPUPROFILE="$out/cpu-100hz.prof" CPUPROFILE_FREQUENCY=100 \
    "$build/workload" 2.5
run CPUPROFILE="$out/cpu-1000hz.prof" CPUPROFILE_FREQUENCY=1000 \
    "$build/workload" 2.5

# Profiling switched on from code rather than from the environment.
run "$build/workload" 2.5 api "$out/api-start-stop.prof"

# Too short to take a sample: header, trailer, then the maps text.
run CPUPROFILE="$out/short.prof" "$build/workload" 0
# The same binary part without any maps text, as left by a writer that
# never got to the maps (derived from short.prof by truncation).
head -c 64 "$out/short.prof" > "$out/short-64bytes.prof"

# SIGKILL'd runs.  Without ProfilerFlush the samples never leave memory.
kill_after() {
    local secs=$1
    shift
    echo "+ $* (SIGKILL after ${secs}s)" >&2
    env "$@" &
    local pid=$!
    sleep "$secs"
    kill -KILL "$pid"
    wait "$pid" || true
}
kill_after 2 CPUPROFILE="$out/killed.prof" "$build/workload" 30
kill_after 2 CPUPROFILE="$out/killed-flushed.prof" "$build/workload" 30 flush

for f in "$out"/*.prof; do
    size=$(stat -c %s "$f")
    if (( size > 200 * 1024 )); then
        echo "error: $f is $size bytes, keep fixtures under 200 KB" >&2
        exit 1
    fi
    printf '%8d  %s\n' "$size" "${f##*/}"
done
