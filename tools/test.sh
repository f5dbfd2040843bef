#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The whole test suite, from a fresh Debian machine:
#   1. install what is missing (apt-get), including the real readers used by
#      the interoperability tests;
#   2. build with gcc and run every test (unit, api, codecs, interop, fuzz corpora);
#   3. build with clang, -Werror, the same tests;
#   3b. release builds (-O3, as packagers build) with gcc and clang, -Werror;
#   3c. the static library alone, and both libraries;
#   4. build with AddressSanitizer + UndefinedBehaviorSanitizer and run the tests again;
#   5. run the unit suites under valgrind;
#   6. build the libFuzzer targets and fuzz each decoder briefly.
# Build folders go under build-test/ (removed first). Exit status: 0 only if all pass.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/deps.sh
pd_install_deps --interop

out=build-test
rm -rf "$out"
mkdir -p "$out"

step() { printf '\n== %s\n' "$*"; }
# A setup or build says nothing unless it fails; then the CI log shows why.
quiet() {
  local log
  log=$(mktemp)
  if ! "$@" >"$log" 2>&1; then
    printf 'failed: %s\n' "$*"
    tail -n 60 "$log"
    exit 1
  fi
  rm -f "$log"
}

step "gcc build and tests"
quiet meson setup "$out/gcc" --werror -Dtests=enabled
quiet meson compile -C "$out/gcc"
meson test -C "$out/gcc" --print-errorlogs

step "clang build and tests"
CC=clang quiet meson setup "$out/clang" --werror -Dtests=enabled
quiet meson compile -C "$out/clang"
meson test -C "$out/clang" --print-errorlogs --suite unit --suite api

# -Werror is ours, not a default: other compilers may warn where ours do not.
# -O3 brings gcc's maybe-uninitialized analysis, so release builds are built too.
for compiler in gcc clang; do
  step "$compiler release build (-O3) and tests"
  CC=$compiler quiet meson setup "$out/release-$compiler" --buildtype=release --werror -Dtests=enabled
  quiet meson compile -C "$out/release-$compiler"
  meson test -C "$out/release-$compiler" --print-errorlogs --suite unit --suite api
done

step "static library (libprofdata.a exposes only profdata_*) and both libraries"
quiet meson setup "$out/static" --werror -Dtests=enabled -Ddefault_library=static
quiet meson compile -C "$out/static"
meson test -C "$out/static" --print-errorlogs --suite unit --suite api
quiet meson setup "$out/both" --werror -Dtests=enabled -Ddefault_library=both
quiet meson compile -C "$out/both"
meson test -C "$out/both" --print-errorlogs --suite api

step "address and undefined-behaviour sanitizers"
quiet meson setup "$out/asan" --werror -Dtests=enabled -Db_sanitize=address,undefined -Db_lundef=false
quiet meson compile -C "$out/asan"
meson test -C "$out/asan" --setup asan --print-errorlogs --no-suite interop --no-suite bindings

step "valgrind (unit suites)"
meson test -C "$out/gcc" --setup valgrind --print-errorlogs --suite unit

step "fuzzing (libFuzzer, ${PD_FUZZ_SECONDS:=20} s per target)"
# Every target (decode-only, round trips, conversions) with its seeds and dictionary:
# tests/fuzz/campaign.sh, the same script that runs the long campaigns.
CC=clang quiet meson setup "$out/fuzz" -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false \
  -Dtool=false
fuzz_work=$(mktemp -d)
shopt -s extglob
tests/fuzz/campaign.sh -b "$out/fuzz" -w "$fuzz_work" -s "${PD_FUZZ_SEED:=1}" "$PD_FUZZ_SECONDS"
for t in "$fuzz_work"/*/; do
  name=$(basename "$t")
  # A crash leaves its input (<name>-crash-*, -leak-, -timeout-, -oom-); the corpus must run clean again.
  # A sanitizer report that did not stop the run (UBSan) counts as a crash too.
  if compgen -G "$fuzz_work/$name-@(crash|leak|timeout|oom)-*" >/dev/null || grep -q 'SUMMARY:' "$fuzz_work/$name.log" ||
     ! "$out/fuzz/tests/fuzz/fuzz-$name" -runs=0 "$t" >/dev/null 2>&1; then
    echo "fuzz-$name: crash; logs and inputs in $fuzz_work"
    # What a CI log needs to reproduce it elsewhere: the report and the inputs.
    grep -m1 -A12 -E '^==[0-9]+==ERROR|runtime error|deadly signal' "$fuzz_work/$name.log" || true
    for f in "$fuzz_work/$name"-@(crash|leak|timeout|oom)-*; do
      [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 65536 ] || continue
      echo "input $(basename "$f") (base64):"; base64 -w 76 "$f"
    done
    exit 1
  fi
  echo "fuzz-$name: no crash in ${PD_FUZZ_SECONDS}s"
done
rm -rf "$fuzz_work"

step "all tests passed"
