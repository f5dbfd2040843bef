#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# README.md's "Installing" commands, as written: its first sh block, extracted
# from README.md and run in a scratch copy of the sources with a temporary
# $HOME and no LD_LIBRARY_PATH or PKG_CONFIG_PATH. The installed tool runs
# without LD_LIBRARY_PATH, the program built with pkg-config and the rpath the
# README shows runs, and one built without it does not (what the README
# explains). Usage: check-install.sh SOURCE_ROOT
set -euo pipefail
src=$1
command -v pkg-config >/dev/null || { echo "skipped: pkg-config is missing"; exit 77; }
command -v cc >/dev/null || { echo "skipped: no cc"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
awk '/^## Installing/ {on = 1; next} on && /^## / {exit} on && /^```sh$/ {n++; inside = n == 1; next}
     inside && /^```$/ {exit} inside {print}' "$src/README.md" >"$work/install.sh"
[ -s "$work/install.sh" ] || fail "no sh block under '## Installing' in README.md"
grep -q 'sudo ldconfig' "$src/README.md" || fail "README.md does not say when to run ldconfig"

. "$src/tests/scratch-source.sh"
scratch_source "$src" "$work/src"
mkdir "$work/home"
# Ninja at most one job per core, as the rest of the suite.
ninja() { command ninja -j "$(nproc)" "$@"; }
export -f ninja
(cd "$work/src" && env -u LD_LIBRARY_PATH -u PKG_CONFIG_PATH HOME="$work/home" \
  bash -euo pipefail -x "$work/install.sh") >"$work/log" 2>&1 || { cat "$work/log"; fail "README.md's install commands failed"; }
grep -v '^[^+]*ninja: \|^\[[0-9]*/[0-9]*\]' "$work/log" | tail -n 25

prefix=$work/home/opt/libprofdata
[ -x "$prefix/bin/profdata" ] || fail "no $prefix/bin/profdata"
grep -qE '^profdata [0-9.]+ \(libprofdata [0-9.]+\)' "$work/log" || fail "profdata --version printed nothing"
version=$(grep -oE '^libprofdata [0-9.]+ \(headers [0-9.]+\)$' "$work/log" | sort -u)
if [ "$(printf '%s\n' "$version" | wc -l)" != 1 ] || [ "$(grep -c "^$version\$" "$work/log")" != 2 ]; then
  fail "the two programs did not both print their version"
fi
echo "installed tool, rpath program and LD_LIBRARY_PATH program: $version"
# What the README explains: without an rpath or LD_LIBRARY_PATH, a program does not start.
if env -u LD_LIBRARY_PATH "$work/src/version-plain" >"$work/plain" 2>&1; then
  fail "version-plain ran without LD_LIBRARY_PATH: the README's explanation is wrong here"
fi
grep -q 'error while loading shared libraries: libprofdata' "$work/plain" || fail "$(cat "$work/plain")"
echo "without either: $(cat "$work/plain")"
