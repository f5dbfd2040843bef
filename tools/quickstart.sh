#!/usr/bin/env bash
# From a fresh Debian machine: install what is missing, build, and run the
# main job on real files bundled with the sources: a heap dump made by JDK
# 17's jcmd GC.heap_dump (inspect it, print its class histogram, convert it
# to IBM's classic format and check the result) and a CPU profile made by
# gperftools' libprofiler (convert it to folded stacks).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/deps.sh
pd_install_deps

meson setup build-quickstart -Dtests=disabled >/dev/null 2>&1 || meson setup --reconfigure build-quickstart >/dev/null
meson compile -C build-quickstart >/dev/null
pd=build-quickstart/tools/profdata/profdata
dump=tests/data/hprof/jdk17-types.hprof

echo "\$ profdata info $dump"
"$pd" info "$dump"
echo
echo "\$ profdata histo $dump --limit 10"
"$pd" histo "$dump" --limit 10
echo
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "\$ profdata convert $dump $out/types.txt --to ibm-classic   # OpenJ9's classic text format"
"$pd" convert "$dump" "$out/types.txt" --to ibm-classic
head -n 3 "$out/types.txt"
echo "\$ profdata check $out/types.txt"
"$pd" check "$out/types.txt"
echo
cpu=tests/data/gperftools/cpu-100hz.prof
echo "\$ profdata convert $cpu $out/cpu.folded --to folded   # made by libprofiler; flamegraph.pl input"
"$pd" convert "$cpu" "$out/cpu.folded" --to folded
sort -t' ' -k2 -n -r "$out/cpu.folded" | head -n 3 | cut -c1-150
# The same profile as an interactive flame graph (format from the name), kept to open in a browser:
echo "\$ profdata convert $cpu build-quickstart/cpu.svg   # click to zoom, Search takes a regular expression"
"$pd" convert "$cpu" build-quickstart/cpu.svg
