#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The tool's messages have one shape ("profdata: FILE: [line L, ]byte B: what")
# and say each place once; usage mistakes are short and refused alike by every
# command; JSON output is valid whatever the file name; a truncated .gz reads
# like a truncated file. Usage: check-messages.sh PROFDATA SOURCE_ROOT PYTHON
set -euo pipefail
tool=$1 root=$2 python=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/tool/expect.sh
. "$root/tests/tool/expect.sh"
fixture=$root/tests/data/hprof/jdk17-minimal.hprof

# Place said once, in one shape.
head -c 499999 "$fixture" >"$dir/cut.hprof"
expect_status 1 "$tool" check "$dir/cut.hprof"
grep -qE "^profdata: $dir/cut.hprof: byte [0-9]+: " "$dir/err" || fail "shape: $(cat "$dir/err")"
grep -q "at offset" "$dir/err" && fail "offset said twice: $(cat "$dir/err")"
printf '0x1000 [16] OBJ java/lang/Object\n' >"$dir/c.txt"
expect_status 1 "$tool" check "$dir/c.txt" --from ibm-classic
grep -qE "^profdata: $dir/c.txt: line 1, byte 0: [^l]" "$dir/err" || fail "line shape: $(cat "$dir/err")"
expect_status 1 "$tool" convert "$fixture" /nonexistent-dir/out.txt --to ibm-classic
[ "$(grep -o /nonexistent-dir/out.txt "$dir/err" | wc -l)" = 1 ] || fail "path said more than once: $(cat "$dir/err")"
echo "messages: one shape, each place once"

# Usage mistakes: short, and the same rule for every command.
expect_status 2 "$tool" convert "$fixture" "$dir/o" --to xyz
[ "$(wc -l <"$dir/err")" -le 3 ] || fail "--to xyz printed $(wc -l <"$dir/err") lines"
grep -q "this build writes:.*hprof" "$dir/err" || fail "--to xyz does not list the formats: $(cat "$dir/err")"
expect_status 2 "$tool" check "$fixture" --json
expect_status 2 "$tool" formats extra
expect_status 2 "$tool" info "$fixture" extra
expect_status 2 "$tool" histo "$fixture" --gzip
echo "usage: unused options and arguments refused by every command"

# JSON: valid for any file name; histo --json has what the text shows.
odd=$dir/$(printf 'n\351\377.hprof')
cp "$fixture" "$odd"
"$tool" info "$odd" --json | "$python" -c 'import json, sys; json.load(sys.stdin)'
"$tool" histo "$fixture" --json --limit 3 | "$python" -c '
import json, sys
d = json.load(sys.stdin)
assert d["format"] == "hprof" and d["file"].endswith("jdk17-minimal.hprof"), d
assert d["total_instances"] >= sum(c["instances"] for c in d["classes"]) and d["total_bytes"] > 0, d
assert len(d["classes"]) == 3 and d["total_classes"] > 3, d'
echo "json: valid for a non-UTF-8 name; histo has file, format and totals"

# A truncated .gz reads like a truncated file: permissive keeps, check fails, both name the byte.
gzip -c "$fixture" >"$dir/full.hprof.gz"
head -c 150000 "$dir/full.hprof.gz" >"$dir/cut.hprof.gz"
if [ "$("$tool" info "$dir/full.hprof.gz" | awk '/^format:/ {print $2}')" = hprof ]; then
  expect_status 0 "$tool" info "$dir/cut.hprof.gz"
  grep -qE "warning: $dir/cut.hprof.gz: byte [0-9]+: gzip stream ends" "$dir/err" || fail "no warning: $(cat "$dir/err")"
  expect_status 1 "$tool" check "$dir/cut.hprof.gz"
  grep -qE "^profdata: $dir/cut.hprof.gz: byte [0-9]+: " "$dir/err" || fail "check: $(cat "$dir/err")"
  echo "truncated .gz: permissive with a warning, check fails, both at a byte"
else
  echo "no gzip input in this build: the truncated .gz case is not run"
fi

# Nothing the output can say: a failure naming what is missing, not an empty success.
cpu=$root/tests/data/gperftools/cpu-1000hz.prof
expect_status 1 "$tool" histo "$cpu"
grep -q "holds no heap dump" "$dir/err" || fail "histo of a CPU profile: $(cat "$dir/err")"
expect_status 1 "$tool" convert "$fixture" "$dir/dump.folded" --to folded
grep -q "no samples" "$dir/err" || fail "folded from a heap dump: $(cat "$dir/err")"
[ ! -e "$dir/dump.folded" ] || fail "an output was left behind"
echo "empty results refused: histo of a CPU profile, folded stacks of a heap dump"

# A FIFO is read once: the format histo --json names comes from the bytes read, not from a second open
# (which would wait for a writer that never comes).
mkfifo "$dir/in.fifo"
cat "$fixture" >"$dir/in.fifo" &
expect_status 0 timeout 20 "$tool" histo "$dir/in.fifo" --json --limit 1
wait
grep -q '"format":"hprof"' "$dir/out" || fail "histo --json of a FIFO: $(cat "$dir/out" "$dir/err")"
cat "$cpu" >"$dir/in.fifo" &
expect_status 1 timeout 20 "$tool" histo "$dir/in.fifo"
wait
grep -q "(gperftools) holds no heap dump" "$dir/err" || fail "histo of a FIFO'd CPU profile: $(cat "$dir/err")"
echo "a FIFO is read once: histo names its format from the bytes it read"

# Read options a format does not take are not given to it: --symbolize of a heap dump says it does nothing.
expect_status 0 "$tool" convert "$fixture" "$dir/sym.txt" --to ibm-classic --symbolize=yes
grep -q "hprof input has no native frames to name; --symbolize does nothing" "$dir/err" ||
  fail "--symbolize of a heap dump: $(cat "$dir/err")"
echo "--symbolize of a format that cannot be symbolized: said to do nothing"
