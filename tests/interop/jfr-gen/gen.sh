#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Makes the JFR recordings of tests/data/jfr with the JDK on the machine:
# Workload.java beside this script, compiled and run for about two seconds
# under -XX:StartFlightRecording, once with the JDK's `default` settings and
# once with `profile` (execution samples every 10 or 20 ms, allocation and
# lock events, and two chunks: Workload rotates the chunk half-way), and
# once more with `default`, a stack depth of 32 and Workload's `deep` (a
# thread 80 calls deep: truncated stacks), and once with `profile`,
# path-to-gc-roots=true and Workload's `leak` (old object samples with
# their paths from GC roots), each gzip'd.
# Usage: gen.sh [OUTDIR]   (default: tests/data/jfr)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../data/jfr}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -d "$tmp" "$here/Workload.java"
v=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
for settings in default profile; do
	java -XX:StartFlightRecording=filename="$tmp/$settings.jfr",settings=$settings -cp "$tmp" Workload \
		$([ $settings = profile ] && echo rotate) >/dev/null 2>&1
	gzip -9n <"$tmp/$settings.jfr" >"$out/jdk$v-$settings.jfr.gz"
done
java -XX:FlightRecorderOptions=stackdepth=32 -XX:StartFlightRecording=filename="$tmp/deep.jfr",settings=default \
	-cp "$tmp" Workload deep >/dev/null 2>&1
gzip -9n <"$tmp/deep.jfr" >"$out/jdk$v-deep.jfr.gz"
java -XX:StartFlightRecording=filename="$tmp/leak.jfr",settings=profile,path-to-gc-roots=true \
	-cp "$tmp" Workload leak >/dev/null 2>&1
gzip -9n <"$tmp/leak.jfr" >"$out/jdk$v-leak.jfr.gz"
ls -l "$out"
