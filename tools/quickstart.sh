#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# From a fresh Debian machine: install what is missing, build, and run the
# main job on real files bundled with the sources: a heap dump made by JDK
# 17's jcmd GC.heap_dump (inspect it, print its class histogram, convert it
# to IBM's classic format and check the result); then profile a small bundled
# C program (tools/demo/busy.c) with gperftools' libprofiler on the spot and
# show where its time went, by function name: profdata names the frames
# from the program's own symbols and debug information.
# Every command is printed as it is run, and what it writes stays in
# build-quickstart/ for the commands suggested at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/deps.sh
pd_install_deps --demo

meson setup build-quickstart -Dtests=disabled >/dev/null 2>&1 || meson setup --reconfigure build-quickstart >/dev/null
meson compile -C build-quickstart -j "$(nproc)" >/dev/null
pd_self=build-quickstart/tools/profdata/profdata
out=build-quickstart/quickstart
mkdir -p "$out"
dump=tests/data/hprof/jdk17-types.hprof

# show WORDS...: print "$ WORDS", each quoted as a shell would need it.
show() {
  printf '$'
  for w in "$@"; do
    if [[ $w =~ ^[A-Za-z0-9_./,=:+-]+$ ]]; then printf ' %s' "$w"; else printf ' %q' "$w"; fi
  done
  printf '\n'
}
# run [VAR=VALUE...] COMMAND ARGS...: print the command, then run it.
run() {
  show "$@"
  env "$@"
}
# profdata ARGS...: the tool just built, printed as "profdata".
profdata() {
  show profdata "$@"
  "$pd_self" "$@"
}

profdata info "$dump"
echo
profdata histo "$dump" --limit 10
echo
echo "# OpenJ9's classic text format, and a strict check of what was written:"
profdata convert "$dump" "$out/types.txt" --to ibm-classic
head -n 3 "$out/types.txt"
profdata check "$out/types.txt"
echo
# --no-as-needed: Debian's linker drops a library the program does not call,
# and the program does not call libprofiler; CPUPROFILE starts it.
run gcc -std=c99 -g -O1 -fno-omit-frame-pointer -o "$out/busy" tools/demo/busy.c \
    -Wl,--no-as-needed -lprofiler -Wl,--as-needed
echo "# libprofiler samples it 200 times a second:"
run CPUPROFILE="$out/busy.prof" CPUPROFILE_FREQUENCY=200 "$out/busy" 2
echo
echo "# Where its time went, busiest function first (flat: running in it; cum: it or what it called):"
profdata top "$out/busy.prof" --limit 12
echo
echo "# As an interactive flame graph (the format from the name; click to zoom, Search takes a regular expression):"
profdata convert "$out/busy.prof" "$out/busy.svg"
echo
cat <<MORE
What it wrote stays in $out/, and profdata is $pd_self. Next, for instance:
  # per source line:
  $pd_self top $out/busy.prof --lines
  # folded stacks, for flamegraph.pl:
  $pd_self convert $out/busy.prof $out/busy.folded
  # pprof's format, for go tool pprof -top $out/busy.pb.gz:
  $pd_self convert $out/busy.prof $out/busy.pb.gz
  # the flame graph, in a browser:
  xdg-open $out/busy.svg
MORE
