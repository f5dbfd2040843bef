#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Class histogram of an HPROF file as VisualVM's heap library computes it,
# for comparison with libprofdata's. See README.md beside this file.
#
# Usage: visualvm-histo.sh [-b BUILD_DIR] [--verbose] [--time|--class-sizes] FILE
#   -b BUILD_DIR  compile VisualVMHisto.java there and reuse it on later runs
#                 (default: a temporary directory, removed on exit)
#   other options are passed to VisualVMHisto (see VisualVMHisto.java)
#
# Environment:
#   VISUALVM_HOME       directory to search first for the VisualVM jars
#   VISUALVM_JAVA_OPTS  extra JVM options for the reader (e.g. -Xmx8g)
#
# Exit status 77 (the "skip" code of Meson and Automake test harnesses) when
# java, javac or the VisualVM heap library is not installed.
#
# VisualVM writes index files into FILE.hwcache next to the dump and reuses
# them on the next run. To keep them out of source trees and read-only
# directories, and to make every run start cold, the reader is pointed at a
# symlink in a temporary directory, so the cache lands there and is removed
# with it. A .gz input is decompressed there first, because this VisualVM
# (2.1.x) reads only uncompressed dumps.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build_dir=""
args=()
file=""

while [ $# -gt 0 ]; do
    case $1 in
        -b)
            [ $# -ge 2 ] || { echo "visualvm-histo: -b needs a directory" >&2; exit 2; }
            build_dir=$2
            shift 2
            ;;
        --*)
            args+=("$1")
            shift
            ;;
        *)
            [ -z "$file" ] || { echo "visualvm-histo: one FILE only" >&2; exit 2; }
            file=$1
            shift
            ;;
    esac
done
if [ -z "$file" ]; then
    echo "usage: visualvm-histo.sh [-b BUILD_DIR] [--verbose] [--time|--class-sizes] FILE" >&2
    exit 2
fi
if [ ! -r "$file" ]; then
    echo "visualvm-histo: cannot read $file" >&2
    exit 2
fi

for tool in java javac; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "visualvm-histo: $tool not found, skipping" >&2
        exit 77
    fi
done

# shellcheck source=tests/interop/visualvm-jar.sh
. "$(dirname "${BASH_SOURCE[0]}")/visualvm-jar.sh"
jar_name=$visualvm_jar_name
if ! heap_jar=$(visualvm_heap_jar); then
    echo "visualvm-histo: $jar_name not found (install visualvm or set VISUALVM_HOME), skipping" >&2
    exit 77
fi
# The listing is captured first: with pipefail, grep -q closing the pipe
# early would make unzip die of SIGPIPE and the check fail at random.
if command -v unzip >/dev/null 2>&1; then
    listing=$(unzip -l "$heap_jar" 2>/dev/null || true)
    if ! grep -q 'org/graalvm/visualvm/lib/jfluid/heap/HeapFactory.class' <<<"$listing"; then
        echo "visualvm-histo: $heap_jar has no HeapFactory, skipping" >&2
        exit 77
    fi
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/visualvm-histo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ -z "$build_dir" ]; then
    build_dir=$tmp/classes
fi
mkdir -p "$build_dir"
src=$here/VisualVMHisto.java
cls=$build_dir/VisualVMHisto.class
if [ ! -f "$cls" ] || [ "$src" -nt "$cls" ] || [ "$heap_jar" -nt "$cls" ]; then
    javac -nowarn -cp "$heap_jar" -d "$build_dir" "$src"
fi

abs_file=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")
if [ "$(head -c 2 "$abs_file" | od -An -tx1 | tr -d ' \n')" = 1f8b ]; then
    input=$tmp/dump.hprof
    gzip -dc "$abs_file" >"$input"
else
    input=$tmp/dump.hprof
    ln -s "$abs_file" "$input"
fi

# shellcheck disable=SC2086 # VISUALVM_JAVA_OPTS is a list of options
java ${VISUALVM_JAVA_OPTS:-} -cp "$heap_jar:$build_dir" VisualVMHisto ${args[@]+"${args[@]}"} "$input"
