#!/usr/bin/env bash
# From a fresh Debian machine: install what is missing, build, and run the
# main job on a real heap dump bundled with the sources (made by JDK 17's
# jcmd GC.heap_dump): inspect it, print its class histogram, convert it.
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
echo "\$ profdata convert $dump $out/types.hprof.gz --to hprof --option id_size=8 --gzip"
"$pd" convert "$dump" "$out/types.hprof.gz" --to hprof --gzip
"$pd" check "$out/types.hprof.gz"
rm -rf "$out"
