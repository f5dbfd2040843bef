#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Writes the service-shaped heap dump of the heap-analysis benchmark (not committed).
#
# Usage: tests/bench/gen-service-hprof.sh [OUTPUT [CUSTOMERS]]
#   OUTPUT          default /tmp/profdata-service.hprof (replaced if present)
#   CUSTOMERS       default 240000: about 7 million objects, a dump of
#                   about 440 MB (ServiceHeap.java)
# Needs java, javac and jcmd, about 2 GB of free memory for the JVM, and
# disk space for the dump.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:-/tmp/profdata-service.hprof}
target=${2:-240000}

for tool in java javac jcmd; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "gen-service-hprof: $tool not found" >&2
        exit 1
    fi
done

mkdir -p "$(dirname "$out")"
# The target JVM resolves a relative path against its own working directory.
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")

work=$(mktemp -d "${TMPDIR:-/tmp}/profdata-service.XXXXXX")
jvm_pid=""
cleanup() {
    if [ -n "$jvm_pid" ] && kill -0 "$jvm_pid" 2>/dev/null; then
        kill "$jvm_pid" 2>/dev/null || true
        wait "$jvm_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

javac -d "$work" "$here/ServiceHeap.java"

# Parallel GC: jcmd's dump starts with a full GC of ~1.3 GB of live data,
# which the parallel collector does faster than serial on several cores.
# -Xshare:off keeps the CDS archive's extra symbols out of the dump.
java -Xshare:off -Xms2g -Xmx2g -XX:+UseParallelGC -cp "$work" ServiceHeap "$work/ready" "$target" \
    >"$work/out" 2>"$work/err" &
jvm_pid=$!

while [ ! -f "$work/ready" ]; do
    if ! kill -0 "$jvm_pid" 2>/dev/null; then
        echo "gen-service-hprof: ServiceHeap exited early" >&2
        cat "$work/err" >&2
        exit 1
    fi
    sleep 0.5
done
objects=$(sed -n 's/^objects //p' "$work/out")

# The JVM will not overwrite an existing dump.
rm -f "$out"
start=$(date +%s)
msg=$(jcmd "$jvm_pid" GC.heap_dump "$out" 2>&1) || true
if ! grep -q 'Heap dump file created' <<<"$msg" || [ ! -s "$out" ]; then
    echo "gen-service-hprof: jcmd GC.heap_dump failed:" >&2
    echo "$msg" >&2
    exit 1
fi
end=$(date +%s)
# The JVM creates the dump as 0600; benchmarks may run as another user.
chmod 644 "$out"

kill "$jvm_pid"
wait "$jvm_pid" 2>/dev/null || true
jvm_pid=""

echo "gen-service-hprof: $out: $(stat -c %s "$out") bytes, $objects objects (estimate) kept by ServiceHeap, dumped in $((end - start)) s"
