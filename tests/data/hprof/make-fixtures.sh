#!/bin/bash
# Regenerates the JDK-made HPROF fixtures in this directory from the programs
# in gen/. Every run gives different bytes (addresses, ids, timestamps, the
# JDK's own objects); only the program-made content is stable.
#
# Usage: tests/data/hprof/make-fixtures.sh [OUTPUT_DIR [NAME...]]
#   OUTPUT_DIR defaults to the directory of this script; NAMEs (minimal,
#   types, threads, loaders, types-nocoops, leaks,
#   waste, growth) make only those.
# Needs java, javac and jcmd from one JDK (the dump format and names depend
# on the JDK that runs the fixture; the files are named after its major
# version).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out_dir=${1:-$here}
shift || true
only=("$@")
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)

for tool in java javac jcmd; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "make-fixtures: $tool not found" >&2
        exit 1
    fi
done

# Dumps above this size are kept only gzip-compressed (the minimal one is
# always kept plain so that a plain JDK dump is in the tree).
max_plain_bytes=$((4 * 1024 * 1024))

# -Xshare:off: with CDS the dump also holds the shared archive's symbol
# table and archived objects, which makes it ~60% bigger for nothing the
# tests need. Serial GC and a small heap keep the JVM's own structures small.
jvm_opts=(-Xshare:off -Xmx32m -XX:+UseSerialGC -XX:TieredStopAtLevel=1)

major=$(java -XshowSettings:properties -version 2>&1 |
    sed -n 's/^ *java\.specification\.version = //p')
prefix="jdk${major}"

work=$(mktemp -d "${TMPDIR:-/tmp}/profdata-fixtures.XXXXXX")
jvm_pid=""
cleanup() {
    if [ -n "$jvm_pid" ] && kill -0 "$jvm_pid" 2>/dev/null; then
        kill "$jvm_pid" 2>/dev/null || true
        wait "$jvm_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

javac -d "$work/classes" "$here"/gen/*.java
# The plugin must not be on the application class path: LoadersFixture loads
# it through its own class loaders from this directory.
javac -d "$work/plugin" "$here"/gen/plugin/Plugin.java

# jcmd reports most failures on stdout and still exits 0, so the message is
# checked, and so is the file.
heap_dump() {
    local pid=$1
    shift
    local target=${*: -1}
    local msg
    msg=$(jcmd "$pid" GC.heap_dump "$@" 2>&1) || {
        echo "$msg" >&2
        return 1
    }
    if ! grep -q 'Heap dump file created' <<<"$msg" || [ ! -s "$target" ]; then
        echo "make-fixtures: jcmd GC.heap_dump $* failed:" >&2
        echo "$msg" >&2
        return 1
    fi
}

# dump_fixture NAME "EXTRA_JVM_OPTS" MAIN_CLASS [PROGRAM_ARGS...]
dump_fixture() {
    local name=$1 main=$3
    if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$name"; then
        return 0
    fi
    local -a extra
    read -r -a extra <<<"$2"
    shift 3
    local ready="$work/$name.ready"
    local plain="$work/$prefix-$name.hprof"
    local gz="$plain.gz"

    java "${jvm_opts[@]}" ${extra[@]+"${extra[@]}"} -cp "$work/classes" "$main" "$ready" "$@" \
        >"$work/$name.out" 2>"$work/$name.err" &
    jvm_pid=$!

    local waited=0
    while [ ! -f "$ready" ]; do
        if ! kill -0 "$jvm_pid" 2>/dev/null; then
            echo "make-fixtures: $main exited before it was ready" >&2
            cat "$work/$name.err" >&2
            exit 1
        fi
        if [ "$waited" -ge 600 ]; then
            echo "make-fixtures: $main not ready after 60 s" >&2
            exit 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done

    # The JVM refuses to overwrite an existing file, and the paths must be
    # absolute because the target JVM resolves them against its own cwd.
    heap_dump "$jvm_pid" "$plain"
    if [ "$gzip_best" = yes ]; then
        gzip -9 -n -c "$plain" >"$gz"
    else
        heap_dump "$jvm_pid" -gz=1 "$gz"
    fi

    kill "$jvm_pid"
    wait "$jvm_pid" 2>/dev/null || true
    jvm_pid=""

    # The JVM creates dumps as 0600; tests and other users need to read them.
    chmod 644 "$plain" "$gz"
    local size
    size=$(stat -c %s "$plain")
    if [ "$plain_wanted" = no ]; then
        rm -f "$out_dir/$prefix-$name.hprof"
    elif [ "$name" = minimal ] || [ "$size" -le "$max_plain_bytes" ]; then
        mv -f "$plain" "$out_dir/"
    else
        echo "make-fixtures: $prefix-$name.hprof is $size bytes, keeping only the .gz" >&2
        rm -f "$out_dir/$prefix-$name.hprof"
    fi
    mv -f "$gz" "$out_dir/"
}

plain_wanted=yes
gzip_best=no
dump_fixture minimal "" MinimalFixture
dump_fixture types "" TypesFixture
dump_fixture threads "" ThreadsFixture
dump_fixture loaders "" LoadersFixture "$work/plugin"
# Planted leaks for `profdata suspects` (gen/LeaksFixture.java says which).
plain_wanted=no
dump_fixture leaks "" LeaksFixture
# Planted waste for `profdata waste` (gen/WasteFixture.java says which),
# compressed with gzip -9 (a third smaller than the JVM's -gz=1).
gzip_best=yes
dump_fixture waste "" WasteFixture
gzip_best=no
# Two dumps of one process before and after a planted growth, for
# `profdata diff` (gen/GrowthFixture.java): jdk17-growth-{1,2}.hprof.gz.
dump_pair() {
    local name=$1 main=$2
    if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$name"; then
        return 0
    fi
    local ready="$work/$name.ready"
    java "${jvm_opts[@]}" -cp "$work/classes" "$main" "$ready" >"$work/$name.out" 2>"$work/$name.err" &
    jvm_pid=$!
    local step file
    for step in 1 2; do
        file=$ready
        [ "$step" = 1 ] || file=$ready.2
        local waited=0
        while [ ! -f "$file" ]; do
            if ! kill -0 "$jvm_pid" 2>/dev/null || [ "$waited" -ge 600 ]; then
                echo "make-fixtures: $main not ready for dump $step" >&2
                cat "$work/$name.err" >&2
                exit 1
            fi
            sleep 0.1
            waited=$((waited + 1))
        done
        heap_dump "$jvm_pid" "$work/$prefix-$name-$step.hprof"
        # Compressed here at level 9 (jcmd's -gz would be a third dump, taken after a GC of its own).
        gzip -9 -n -c "$work/$prefix-$name-$step.hprof" >"$out_dir/$prefix-$name-$step.hprof.gz"
        chmod 644 "$out_dir/$prefix-$name-$step.hprof.gz"
        touch "$ready.go"
    done
    kill "$jvm_pid"
    wait "$jvm_pid" 2>/dev/null || true
    jvm_pid=""
}
dump_pair growth GrowthFixture
# Same program without compressed oops: VisualVM then takes 8-byte
# references and a 16-byte header instead of 4 and 12, so shallow sizes
# follow the other branch of its size rule. Kept only gzip-compressed, as
# the plain types dump already covers the format itself.
plain_wanted=no
dump_fixture types-nocoops "-XX:-UseCompressedOops" TypesFixture

java -version 2>&1 | sed 's/^/make-fixtures: /' >&2
ls -l "$out_dir"/"$prefix"-*.hprof* >&2
