#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `profdata convert` never harms a file: an interrupted conversion leaves no
# temporary file, a 0600 output stays 0600, a new output is no more readable
# than its input, a read-only output needs --force, a symbolic link stays a
# link. Usage: check-output-files.sh PROFDATA SOURCE_ROOT
set -euo pipefail
tool=$1
root=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fixture=$root/tests/data/hprof/jdk17-minimal.hprof
fail() { echo "FAIL: $*"; exit 1; }
mode() { stat -c %a "$1"; }

# Interrupted: the input is a FIFO fed half a file, so convert waits with its
# temporary file open; each signal must remove it.
for sig in INT TERM; do
  mkfifo "$dir/in.fifo"
  # No job control here: a background job ignores SIGINT unless restored.
  ( trap - INT; exec "$tool" convert "$dir/in.fifo" "$dir/out.txt" --to ibm-classic --quiet ) &
  pid=$!
  exec 3>"$dir/in.fifo"
  head -c 100000 "$fixture" >&3
  for _ in $(seq 100); do
    ls "$dir"/out.txt.tmp-* >/dev/null 2>&1 && break
    sleep 0.05
  done
  ls "$dir"/out.txt.tmp-* >/dev/null 2>&1 || fail "no temporary file while converting"
  kill -s "$sig" "$pid"
  status=0
  wait "$pid" || status=$?
  exec 3>&-
  [ "$status" -gt 128 ] || fail "SIG$sig: exit status $status, not killed by the signal"
  if ls "$dir"/out.txt* >/dev/null 2>&1; then fail "SIG$sig left $(ls "$dir"/out.txt*)"; fi
  rm -f "$dir/in.fifo"
  echo "SIG$sig: temporary file removed"
done

# Modes: an existing 0600 output keeps 0600; a new output from a 0600 input is 0600.
cp "$fixture" "$dir/in.hprof"
chmod 600 "$dir/in.hprof"
echo old >"$dir/kept.txt"
chmod 600 "$dir/kept.txt"
(umask 022; "$tool" convert "$dir/in.hprof" "$dir/kept.txt" --to ibm-classic --quiet)
[ "$(mode "$dir/kept.txt")" = 600 ] || fail "existing 0600 output is now $(mode "$dir/kept.txt")"
(umask 022; "$tool" convert "$dir/in.hprof" "$dir/new.txt" --to ibm-classic --quiet)
[ "$(mode "$dir/new.txt")" = 600 ] || fail "new output from a 0600 input is $(mode "$dir/new.txt")"
echo "modes kept: 0600 stays 0600, a new output is no wider than its input"

# Read-only: refused (and untouched) without --force, replaced with it, mode kept.
echo keep >"$dir/ro.txt"
chmod 444 "$dir/ro.txt"
if "$tool" convert "$dir/in.hprof" "$dir/ro.txt" --to ibm-classic --quiet 2>"$dir/err"; then
  fail "a read-only output was replaced without --force"
fi
grep -q "read-only" "$dir/err" || fail "no word of read-only: $(cat "$dir/err")"
[ "$(cat "$dir/ro.txt")" = keep ] || fail "the read-only output changed"
"$tool" convert "$dir/in.hprof" "$dir/ro.txt" --to ibm-classic --quiet --force
[ "$(mode "$dir/ro.txt")" = 444 ] && [ "$(wc -c <"$dir/ro.txt")" -gt 5 ] || fail "--force did not replace it keeping 0444"
echo "read-only output: refused, then replaced with --force"

# A symbolic link stays a link; its target (in another folder) is replaced.
mkdir "$dir/sub"
echo old >"$dir/sub/target.txt"
ln -s sub/target.txt "$dir/link.txt"
"$tool" convert "$dir/in.hprof" "$dir/link.txt" --to ibm-classic --quiet
[ -L "$dir/link.txt" ] || fail "the link was replaced by a file"
[ "$(wc -c <"$dir/sub/target.txt")" -gt 5 ] || fail "the link's target was not written"
echo "symbolic link followed and kept"

# A FIFO as OUT is written through.
mkfifo "$dir/out.fifo"
cat "$dir/out.fifo" >"$dir/from-fifo.txt" &
reader=$!
"$tool" convert "$dir/in.hprof" "$dir/out.fifo" --to ibm-classic --quiet
wait "$reader"
[ -p "$dir/out.fifo" ] || fail "the FIFO was replaced"
cmp -s "$dir/from-fifo.txt" "$dir/kept.txt" || fail "the FIFO's reader got other bytes"
echo "FIFO written through"
