#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Writes a large HotSpot heap dump for reader benchmarks (not committed).
#
# Usage: tests/bench/gen-big-hprof.sh [OUTPUT [TARGET_OBJECTS]]
#   OUTPUT          default /tmp/profdata-big.hprof (replaced if present)
#   TARGET_OBJECTS  objects the program allocates, default 37000000, which
#                   gives a dump of about 1.8 GB; the JDK adds ~10k more
# Needs java, javac and jcmd, about 6 GB of free memory for the JVM, and
# disk space for the dump.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:-/tmp/profdata-big.hprof}
target=${2:-37000000}

for tool in java javac jcmd; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "gen-big-hprof: $tool not found" >&2
        exit 1
    fi
done

mkdir -p "$(dirname "$out")"
# The target JVM resolves a relative path against its own working directory.
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")

work=$(mktemp -d "${TMPDIR:-/tmp}/profdata-big.XXXXXX")
jvm_pid=""
cleanup() {
    if [ -n "$jvm_pid" ] && kill -0 "$jvm_pid" 2>/dev/null; then
        kill "$jvm_pid" 2>/dev/null || true
        wait "$jvm_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

javac -d "$work" "$here/BigHeap.java"

# Parallel GC: jcmd's dump starts with a full GC of ~1.3 GB of live data,
# which the parallel collector does faster than serial on several cores.
# -Xshare:off keeps the CDS archive's extra symbols out of the dump.
java -Xshare:off -Xms6g -Xmx6g -XX:+UseParallelGC -cp "$work" BigHeap "$work/ready" "$target" \
    >"$work/out" 2>"$work/err" &
jvm_pid=$!

while [ ! -f "$work/ready" ]; do
    if ! kill -0 "$jvm_pid" 2>/dev/null; then
        echo "gen-big-hprof: BigHeap exited early" >&2
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
    echo "gen-big-hprof: jcmd GC.heap_dump failed:" >&2
    echo "$msg" >&2
    exit 1
fi
end=$(date +%s)
# The JVM creates the dump as 0600; benchmarks may run as another user.
chmod 644 "$out"

kill "$jvm_pid"
wait "$jvm_pid" 2>/dev/null || true
jvm_pid=""

echo "gen-big-hprof: $out: $(stat -c %s "$out") bytes, $objects objects allocated by BigHeap, dumped in $((end - start)) s"
