#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Large JFR recordings for the benchmark, of two shapes:
#   jdk      the JDK's own recording of tests/data/jfr with profile settings
#            (OpenJDK 17: two chunks, dozens of event types, metadata and
#            pools in every chunk) joined over and over into one file of
#            chunks of one JVM, as the JDK's repository holds them;
#   samples  chunks of execution samples, as a sampling profiler's
#            recording is mostly made of: 20,000 distinct stacks 12 to 40
#            frames deep over 4,000 methods, written by profdata's JFR
#            writer from folded stacks (one chunk of 250 MB, the file that
#            chunk over and over).
# Usage: gen-big-jfr.sh PROFDATA SHAPE OUT [MB] (default 500).
set -euo pipefail
profdata=$1
shape=$2
out=$3
mb=${4:-500}
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp" "$tmp.folded" "$tmp.one"' EXIT

# $tmp.one over and over into $tmp, up to the size asked for: a file of chunks.
repeat_one() {
	local one
	one=$(stat -c %s "$tmp.one")
	for _ in $(seq $(((mb * 1000000 + one - 1) / one))); do cat "$tmp.one"; done >"$tmp"
}

case $shape in
jdk)
	gzip -dc "$src"/tests/data/jfr/jdk17-profile.jfr.gz >"$tmp.one"
	repeat_one
	;;
samples)
	# ~7 bytes an event (no times: folded stacks have none): the counts add up to 250 MB
	python3 - "$tmp.folded" 250 <<'EOF'
import random, sys
out, mb = sys.argv[1], int(sys.argv[2])
rng = random.Random(23)
methods = [f"com.example.p{i % 37}.Class{i % 611}.method{i}" for i in range(4000)]
stacks = 20000
events = mb * 1000000 // 7
with open(out, "w") as f:
    for s in range(stacks):
        depth = rng.randint(12, 40)
        frames = ["java.lang.Thread.run"] + [rng.choice(methods) for _ in range(depth - 1)]
        f.write(";".join(frames) + f" {events // stacks}\n")
EOF
	"$profdata" convert --quiet "$tmp.folded" "$tmp.one" --to jfr --force
	repeat_one
	;;
*)
	echo "usage: gen-big-jfr.sh PROFDATA jdk|samples OUT [MB]" >&2
	exit 2
	;;
esac
mv "$tmp" "$out"
trap - EXIT
rm -f "$tmp.folded" "$tmp.one"
