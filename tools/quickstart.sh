#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# From a fresh Debian machine: install what is missing, build, and run the
# main job on real files bundled with the sources: a heap dump made by JDK
# 17's jcmd GC.heap_dump (inspect it, print its class histogram, convert it
# to IBM's classic format and check the result); then profile a small bundled
# C program (tools/demo/busy.c) with gperftools' libprofiler on the spot and
# show where its time went, by function name: profdata names the frames
# from the program's own symbols and debug information.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/deps.sh
pd_install_deps --demo

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
echo "\$ cc -g -O1 -fno-omit-frame-pointer -o $out/busy tools/demo/busy.c -lprofiler"
gcc -std=c99 -g -O1 -fno-omit-frame-pointer -o "$out/busy" tools/demo/busy.c \
    -Wl,--no-as-needed -lprofiler -Wl,--as-needed
echo "\$ CPUPROFILE=$out/busy.prof $out/busy 2   # libprofiler samples it 200 times a second"
CPUPROFILE="$out/busy.prof" CPUPROFILE_FREQUENCY=200 "$out/busy" 2 2>/dev/null
echo "\$ profdata convert $out/busy.prof $out/busy.folded --to folded   # one line per call stack"
"$pd" convert "$out/busy.prof" "$out/busy.folded" --to folded
echo
# Each folded line is "outermost;...;innermost COUNT". What ran above main (the
# C runtime's start-up) is left out; each stack is shown as a call tree.
awk '{ n = $NF; total += n; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); s = ""; on = 0
       for (i = 1; i <= k; i++) { if (f[i] == "main") on = 1; if (on) s = s (s == "" ? "" : ";") f[i] }
       if (s == "") s = $0; count[s] += n
       k = split(s, f, ";"); flat[f[k]] += n; delete seen
       for (i = 1; i <= k; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; cum[f[i]] += n } }
     END {
       printf "Where the %d samples were taken, busiest function first\n", total
       printf "  (self: the function itself was running; total: it or what it called)\n\n"
       printf "  %6s %6s  %s\n", "self", "total", "function"
       for (fn in cum) if (cum[fn] * 100 >= total || flat[fn] > 0)
         printf "  %5.1f%% %5.1f%%  %s\n", 100 * flat[fn] / total, 100 * cum[fn] / total, fn | "sort -k1,1nr -k2,2nr"
       close("sort -k1,1nr -k2,2nr")
       printf "\nThe busiest call stacks (caller above callee):\n"
       m = 0; for (s in count) keys[++m] = s
       for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (count[keys[j]] > count[keys[i]]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
       for (i = 1; i <= m && i <= 4; i++) {
         printf "\n  %.1f%% of the time (%d samples):\n", 100 * count[keys[i]] / total, count[keys[i]]
         k = split(keys[i], f, ";"); pad = "    "
         for (j = 1; j <= k; j++) { printf "%s%s%s\n", pad, (j > 1 ? "`- " : ""), f[j]; if (j > 1) pad = pad "   " }
       }
     }' "$out/busy.folded"
echo
echo "The same profile opens in pprof (profdata convert $out/busy.prof busy.pb.gz --to pprof;"
echo "go tool pprof -top busy.pb.gz) and, as folded stacks, in flamegraph.pl."
# The same profile as an interactive flame graph (format from the name), kept to open in a browser:
echo "\$ profdata convert $out/busy.prof build-quickstart/cpu.svg   # click to zoom, Search takes a regular expression"
"$pd" convert "$out/busy.prof" build-quickstart/cpu.svg
