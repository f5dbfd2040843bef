#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Our JFR reader against the JDK's own, on the recordings of tests/data/jfr
# (tests/interop/jfr-gen makes them), a two-chunk file made of them, and
# the corpus's (../shared/corpus/jfr):
#   1. every event type's count (`profdata info --json`'s events) equals
#      `jfr summary`'s Count column;
#   2. the jdk.ExecutionSample events per stack (our folded output) equal
#      what jdk.jfr.consumer.RecordingFile reads (JfrStacks.java, compiled
#      here into the build folder);
#   3. the objects of the jdk.OldObjectSample events and of their paths to
#      GC roots (`jfr print --json`) equal our heap dump's (written as IBM
#      classic text): addresses, classes and references.
# For the corpus files, another converter's collapsed stacks (expected/)
# are compared too and the result printed: a different reading (its frame
# names carry lines, its units are nanoseconds), reported, not required.
# Usage: jfr-oracle.sh PROFDATA SRCDIR BUILDDIR. 77 (skip) without java,
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
classes=$build/jfr-oracle-classes
mkdir -p "$classes"
javac -d "$classes" "$src/tests/interop/JfrStacks.java"
compare="python3 $src/tests/interop/jfr-compare.py"
fail=0

check() { # FILE (plain .jfr) NAME [counts]
	local f=$1 name=$2
	jfr summary "$f" >"$scratch/summary"
	"$profdata" info --json "$f" >"$scratch/info.json"
	if out=$($compare summary "$scratch/summary" "$scratch/info.json"); then
		echo "ok   $name counts: $(tail -1 <<<"$out")"
	else
		echo "FAIL $name counts: $out"
		fail=$((fail + 1))
	fi
	[ "${3:-}" != counts ] || return 0
	old_objects "$f" "$name"
	java -cp "$classes" JfrStacks "$f" jdk.ExecutionSample >"$scratch/helper"
	if out=$($compare settings "$scratch/helper" "$scratch/info.json"); then
		echo "ok   $name settings: $(tail -1 <<<"$out"), as RecordingFile reads them"
	else
		echo "FAIL $name settings: $out"
		fail=$((fail + 1))
	fi
	$compare helper-stacks "$scratch/helper" | LC_ALL=C sort >"$scratch/want"
	"$profdata" convert --quiet "$f" "$scratch/got.folded" --to folded
	LC_ALL=C sort "$scratch/got.folded" >"$scratch/got"
	if cmp -s "$scratch/want" "$scratch/got"; then
		echo "ok   $name stacks: $(wc -l <"$scratch/got") distinct, as RecordingFile reads them"
	else
		echo "FAIL $name stacks differ from RecordingFile's"
		diff "$scratch/want" "$scratch/got" | head -6
		fail=$((fail + 1))
	fi
}

old_objects() { # FILE NAME
	jfr print --json --events jdk.OldObjectSample "$1" >"$scratch/old.json"
	grep -q '"jdk.OldObjectSample"' "$scratch/old.json" || return 0
	"$profdata" convert --quiet "$1" "$scratch/old.phd" --to ibm-classic
	if out=$($compare old-objects "$scratch/old.json" "$scratch/old.phd"); then
		echo "ok   $2 old objects: $(tail -1 <<<"$out"), as jfr print shows them"
	else
		echo "FAIL $2 old objects: $out"
		fail=$((fail + 1))
	fi
}

files=()
for f in "$src"/tests/data/jfr/*.jfr.gz; do
	gzip -dc "$f" >"$scratch/$(basename "$f" .gz)"
	files+=("$scratch/$(basename "$f" .gz)")
done
[ ${#files[@]} -gt 0 ] || { echo "skipped: no recordings in tests/data/jfr"; exit 77; }
for f in "${files[@]}"; do
	check "$f" "$(basename "$f")"
done
# Recordings of different JVMs joined: counts only, for RecordingFile keeps
# pool entries from chunk to chunk (what one JVM's chunks may rely on), so
# it names one JVM's hidden classes with the other's; we read each chunk's
# own pools. jdk*-profile's two chunks are one JVM's: stacks compared there.
cat "${files[@]}" >"$scratch/chunks.jfr"
check "$scratch/chunks.jfr" "${#files[@]} recordings as one file of chunks" counts

if corpus_files recordings "$src" jfr '*.jfr.gz'; then
	for f in "${recordings[@]}"; do
		name=$(basename "$f" .jfr.gz)
		gzip -dc "$f" >"$scratch/$name.jfr"
		check "$scratch/$name.jfr" "corpus $name"
		for e in "$(dirname "$f")"/expected/"$name"_*_process_cpu_*; do
			[ -f "$e" ] || continue
			echo "     $name against the other converter's cpu stacks: $($compare expected "$e" "$scratch/got.folded" || true)"
		done
	done
fi
[ "$fail" -eq 0 ]
