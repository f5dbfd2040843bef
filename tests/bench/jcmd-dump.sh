#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Runs one of the benchmark heap programs (BigHeap.java, ServiceHeap.java) in
# a JVM until it says it is ready, dumps its heap with jcmd GC.heap_dump, and
# stops it. What gen-big-hprof.sh and gen-service-hprof.sh share.
#
# Usage: tests/bench/jcmd-dump.sh NAME PROGRAM JVM_HEAP OUTPUT ARGUMENT
#   NAME      the calling script's name, for messages
#   PROGRAM   the Java class beside this script (its .java file)
#   JVM_HEAP  -Xms/-Xmx of the JVM, e.g. 6g
#   OUTPUT    the dump (replaced if present)
#   ARGUMENT  the program's size argument
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
me=$1 prog=$2 heap=$3 out=$4 target=$5

for tool in java javac jcmd; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "$me: $tool not found" >&2
        exit 1
    fi
done

mkdir -p "$(dirname "$out")"
# The target JVM resolves a relative path against its own working directory.
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")

work=$(mktemp -d "${TMPDIR:-/tmp}/profdata-$prog.XXXXXX")
jvm_pid=""
cleanup() {
    if [ -n "$jvm_pid" ] && kill -0 "$jvm_pid" 2>/dev/null; then
        kill "$jvm_pid" 2>/dev/null || true
        wait "$jvm_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

javac -d "$work" "$here/$prog.java"

# Parallel GC: jcmd's dump starts with a full GC of the live data, which the
# parallel collector does faster than serial on several cores. -Xshare:off
# keeps the CDS archive's extra symbols out of the dump.
java -Xshare:off -Xms"$heap" -Xmx"$heap" -XX:+UseParallelGC -cp "$work" "$prog" "$work/ready" "$target" \
    >"$work/out" 2>"$work/err" &
jvm_pid=$!

while [ ! -f "$work/ready" ]; do
    if ! kill -0 "$jvm_pid" 2>/dev/null; then
        echo "$me: $prog exited early" >&2
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
    echo "$me: jcmd GC.heap_dump failed:" >&2
    echo "$msg" >&2
    exit 1
fi
end=$(date +%s)
# The JVM creates the dump as 0600; benchmarks may run as another user.
chmod 644 "$out"

kill "$jvm_pid"
wait "$jvm_pid" 2>/dev/null || true
jvm_pid=""

echo "$me: $out: $(stat -c %s "$out") bytes, $objects objects made by $prog, dumped in $((end - start)) s"
