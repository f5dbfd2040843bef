#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Our JFR writer against the JDK's reader: every profile with samples in
# tests/data (JFR, pprof, folded, gperftools, perf script, V8, speedscope,
# the HPROF agent's text) is converted with --to jfr, then
#   1. `jfr summary`, `jfr print` and `jfr print --json` read it without an
#      error;
#   2. the jdk.ExecutionSample events per stack, as jdk.jfr.consumer reads
#      them (JfrStacks.java), equal the source's samples per stack (its
#      folded stacks: counts; for pprof, its `samples` values; a time, the
#      agent's CPU TIME in milliseconds, over the sampling period);
#   3. our reader reads the same stacks back;
#   4. a pprof allocation profile becomes jdk.ObjectAllocationSample events
#      whose weights, read back, equal its alloc_space per stack;
#   5. JFR -> JFR keeps each sample's thread state, frame types
#      (interpreted, JIT compiled, inlined, native) and whether its stack
#      was truncated, as
#      `jfr print --json` shows them, and every other event: `jfr summary`
#      counts each type alike (but jdk.Metadata and jdk.CheckPoint: the
#      chunk of samples adds one of each), and `jfr print --json` prints the
#      same events, each byte for byte (also of the corpus's recordings,
#      ../shared/corpus/jfr, when it is there).
# Usage: jfr-writer.sh PROFDATA SRCDIR BUILDDIR. 77 (skip) without java,
# javac and jfr.
set -euo pipefail
profdata=$1
src=$2
build=$3
for tool in java javac jfr python3; do
	command -v "$tool" >/dev/null || { echo "skipped: no $tool"; exit 77; }
done
# shellcheck source=tests/interop/corpus.sh
source "$src/tests/interop/corpus.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
classes=$build/jfr-writer-classes
mkdir -p "$classes"
javac -d "$classes" "$src/tests/interop/JfrStacks.java"
compare="python3 $src/tests/interop/jfr-compare.py"
fail=0

sorted() { LC_ALL=C sort >"$1"; }
failed() {
	echo "FAIL $*"
	fail=$((fail + 1))
}

# The JDK's tools read the file without a word on stderr.
jdk_reads() { # FILE NAME
	local tool
	for tool in summary print "print --json"; do
		# shellcheck disable=SC2086 # "print --json" is two words
		if ! jfr $tool "$1" >/dev/null 2>"$scratch/err" || [ -s "$scratch/err" ]; then
			failed "$2: jfr $tool: $(head -3 "$scratch/err")"
			return 1
		fi
	done
}

check() { # SOURCE NAME [READ-OPTION for the source's counts [PERIOD: the value of one event]]
	local f=$1 name=$2 out=$scratch/out.jfr
	"$profdata" convert --quiet "$f" "$out" --to jfr
	jdk_reads "$out" "$name" || return 0
	java -cp "$classes" JfrStacks "$out" jdk.ExecutionSample >"$scratch/helper"
	$compare helper-stacks "$scratch/helper" | sorted "$scratch/jdk"
	"$profdata" convert --quiet "$f" - --to folded ${3:+--read-option "$3"} |
		awk -v d="${4:-1}" '{ n = int($NF / d + 0.5); if (n > 0) { $NF = n; print } }' | sorted "$scratch/source"
	"$profdata" convert --quiet "$out" - --to folded | sorted "$scratch/back"
	if ! cmp -s "$scratch/jdk" "$scratch/source"; then
		failed "$name: the JDK's stacks differ from the source's"
		diff "$scratch/source" "$scratch/jdk" | cut -c1-160 | head -6
	elif ! cmp -s "$scratch/jdk" "$scratch/back"; then
		failed "$name: our reading differs from the JDK's"
		diff "$scratch/jdk" "$scratch/back" | cut -c1-160 | head -6
	else
		echo "ok   $name: $(awk '$1 == "count" && $2 == "jdk.ExecutionSample" { print $3 }' "$scratch/helper") events" \
			"over $(wc -l <"$scratch/jdk") stacks, as jdk.jfr.consumer reads them"
	fi
}

data=$src/tests/data
for f in "$data"/jfr/*.jfr.gz "$data"/folded/*.folded "$data"/gperftools/cpu-*.prof "$data"/perf-script/*.perf \
	"$data"/cpuprofile/*.cpuprofile "$data"/cpuprofile/node-trace.json "$data"/speedscope/*.speedscope.json \
	"$data"/hprof-text/cpu-samples.txt; do
	check "$f" "$(basename "$f")"
done
check "$data/hprof-text/cpu-times.txt" "cpu-times.txt (milliseconds, 10 ms a sample)" sample=0 10
for f in cpu block mutex goroutine; do
	check "$data/pprof/$f.pb.gz" "pprof $f" sample=0
done

# Classes, methods, lines, frame types and truncated stacks, event by event, as the JDK prints them.
kinds_kept() { # RECORDING (gzip'd) NAME
	gzip -dc "$1" >"$scratch/in.jfr"
	"$profdata" convert --quiet "$1" "$scratch/out.jfr" --to jfr
	for side in in out; do
		jfr print --json --events jdk.ExecutionSample "$scratch/$side.jfr" >"$scratch/$side.json"
		$compare frame-types "$scratch/$side.json" >"$scratch/$side.types"
	done
	if cmp -s "$scratch/in.types" "$scratch/out.types"; then
		echo "ok   $2 -> jfr: $(wc -l <"$scratch/in.types") samples' states, classes, methods, lines, frame types and truncation kept" \
			"($(grep -c '^[^ ]* truncated' "$scratch/in.types" || true) truncated;" \
			"states $(cut -d' ' -f1 "$scratch/in.types" | sort -u | paste -sd, -);" \
			"$(grep -oE '\[[A-Za-z0-9+ ]+\](;|$)' "$scratch/in.types" | tr -d '[];' | sort -u | paste -sd, -))"
	else
		failed "$2 -> jfr: states, classes, methods, lines, frame types or truncation differ"
		diff "$scratch/in.types" "$scratch/out.types" | cut -c1-160 | head -6
	fi
	others_kept "$2"
}

# Every other event of in.jfr is in out.jfr, as the JDK counts and prints it.
others_kept() { # NAME
	local side types
	for side in in out; do
		jfr summary "$scratch/$side.jfr" >"$scratch/$side.summary"
		$compare counts "$scratch/$side.summary" >"$scratch/$side.counts"
	done
	# the samples are not printed again: 200,000 of them in async-profiler's recording
	types=$(awk '$1 != "jdk.ExecutionSample" { print $1 }' "$scratch/in.counts" | paste -sd, -)
	for side in in out; do
		jfr print --json --events "${types:-none}" "$scratch/$side.jfr" >"$scratch/$side.json"
		$compare other-events "$scratch/$side.json" >"$scratch/$side.events"
	done
	if ! cmp -s "$scratch/in.counts" "$scratch/out.counts"; then
		failed "$1 -> jfr: jfr summary counts other events"
		diff "$scratch/in.counts" "$scratch/out.counts" | head -6
	elif ! cmp -s "$scratch/in.events" "$scratch/out.events"; then
		failed "$1 -> jfr: jfr print --json prints other events"
		diff "$scratch/in.events" "$scratch/out.events" | cut -c1-160 | head -6
	else
		echo "ok   $1 -> jfr: every other event kept ($(wc -l <"$scratch/in.events") events of" \
			"$(grep -vc '^jdk.ExecutionSample ' "$scratch/in.counts") types), as jfr summary and jfr print --json show them"
	fi
}
for f in "$data"/jfr/*.jfr.gz; do
	kinds_kept "$f" "$(basename "$f")"
done
if corpus_files recordings "$src" jfr '*.jfr.gz'; then
	for f in "${recordings[@]}"; do
		kinds_kept "$f" "corpus $(basename "$f")"
	done
fi

# Allocations: weights, not counts. A stack whose alloc_space is 0 has no event.
"$profdata" convert --quiet "$data/pprof/heap.pb.gz" "$scratch/heap.jfr" --to jfr
if jdk_reads "$scratch/heap.jfr" "pprof heap"; then
	"$profdata" convert --quiet "$data/pprof/heap.pb.gz" - --to folded --read-option sample=alloc_space |
		grep -v ' 0$' | sorted "$scratch/source"
	"$profdata" convert --quiet "$scratch/heap.jfr" - --to folded --read-option events=alloc-sample \
		--read-option sample=alloc_space | sorted "$scratch/back"
	events=$(java -cp "$classes" JfrStacks "$scratch/heap.jfr" jdk.ObjectAllocationSample | grep -c '^stack ')
	if cmp -s "$scratch/source" "$scratch/back" && [ "$events" -eq "$(wc -l <"$scratch/source")" ]; then
		echo "ok   pprof heap: $events stacks of jdk.ObjectAllocationSample, weights equal to alloc_space"
	else
		failed "pprof heap: allocation weights differ ($events stacks seen by the JDK)"
		diff "$scratch/source" "$scratch/back" | head -6
	fi
fi
[ "$fail" -eq 0 ]
