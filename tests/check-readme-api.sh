#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's API example is a whole program that works: extracted from
# README.md (the first ```c block under "## The API"), compiled strictly
# against the built library, run on a real dump and on a missing file (one
# clean message, exit 1, no crash), and under valgrind when present (no leak).
# Usage: check-readme-api.sh SOURCE_ROOT BUILD_ROOT CC
set -euo pipefail
src=$1 build=$2 cc=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk '/^## The API/ {api = 1} api && /^```c$/ {inside = 1; next} inside && /^```$/ {exit} inside {print}' \
  "$src/README.md" >"$work/app.c"
[ -s "$work/app.c" ] || { echo "no C block under '## The API' in README.md"; exit 1; }
lib=$(find "$build/lib" -maxdepth 1 -name 'libprofdata.so' | head -n1)
[ -n "$lib" ] || { echo "skipped: no shared library in this build (the shared builds run this)"; exit 77; }
if ldd "$lib" | grep -E 'lib(a|ub)san' >/dev/null; then
  echo "skipped: a sanitizer build; a plain program cannot load it"
  exit 77
fi
"$cc" -std=c99 -Wall -Wextra -Werror -I"$src/include" -I"$build/include" -o "$work/app" "$work/app.c" \
  -L"$build/lib" -lprofdata -Wl,-rpath,"$build/lib"
out=$("$work/app" "$src/tests/data/hprof/jdk17-minimal.hprof" "$work/out.txt")
echo "$out"
case $out in *" objects") ;; *) echo "unexpected output"; exit 1 ;; esac
[ -s "$work/out.txt" ] || { echo "no output file"; exit 1; }
status=0
"$work/app" "$work/missing.hprof" "$work/x.txt" 2>"$work/err" || status=$?
echo "missing file: $(cat "$work/err") (exit $status)"
[ "$status" = 1 ] || { echo "a missing file must exit 1"; exit 1; }
grep -q "missing.hprof" "$work/err" || { echo "the message must name the file"; exit 1; }
if command -v valgrind >/dev/null && [ -z "${PD_UNDER_VALGRIND:-}" ]; then
  for args in "$src/tests/data/hprof/jdk17-minimal.hprof $work/out2.txt" "$work/missing.hprof $work/y.txt"; do
    # shellcheck disable=SC2086
    valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
      "$work/app" $args >/dev/null 2>"$work/vg" || [ $? -ne 99 ] || { cat "$work/vg"; exit 1; }
  done
  echo "valgrind: no leak, no error"
fi
