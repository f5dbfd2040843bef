#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/quickstart.sh, run as written in a scratch copy of the sources: it
# succeeds, prints profdata top's table of the profile it makes with the
# functions of tools/demo/busy.c named, prints the commands README.md's quick
# start shows, and what it suggests at the end works on the files it kept.
# Exit 77 when libprofiler is absent, or when the quick start would install
# packages with apt-get (a test installs nothing).
# Usage: check-quickstart.sh SOURCE_ROOT
set -euo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
printf 'int main(void) { return 0; }\n' >"$work/empty.c"
cc -o "$work/empty" "$work/empty.c" -Wl,--no-as-needed -lprofiler 2>/dev/null ||
  { echo "skipped: libprofiler is not installed (libgoogle-perftools-dev)"; exit 77; }
command -v dpkg-query >/dev/null || { echo "skipped: not Debian; the quick start installs with apt-get"; exit 77; }
# shellcheck source=/dev/null
. "$src/tools/deps.sh"  # pd_packages, pd_demo_packages
missing=()
# shellcheck disable=SC2154
for p in "${pd_packages[@]}" "${pd_demo_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] || { echo "skipped: the quick start would install ${missing[*]}"; exit 77; }

. "$src/tests/scratch-source.sh"
scratch_source "$src" "$work/src"
cd "$work/src"
bash tools/quickstart.sh >"$work/log" 2>&1 || { cat "$work/log"; fail "tools/quickstart.sh exited $?"; }
cat "$work/log"
kept=build-quickstart/quickstart

# The top table of the profile it made, its functions named. main runs
# nothing itself (flat 0), so rows of flat 0 sort by name as pprof sorts them
# and a stray sample in libc (_IO_...) can push it past the 12th row: main is
# looked for in the folded stacks below instead.
grep -qx "\$ profdata top $kept/busy.prof --limit 12" "$work/log" || fail "no 'profdata top' of $kept/busy.prof"
grep -qE '^ +flat +flat% +sum% +cum +cum% +name$' "$work/log" || fail "no top table header"
for fn in count_primes is_prime insertion_sort checksum_text; do
  grep -qE "%  $fn\$" "$work/log" || fail "the top table has no row for $fn"
done

# Each command README.md's quick start shows (its second sh block) was run as shown.
awk '/^## Quick start/ {on = 1; next} on && /^## / {exit} on && /^```sh$/ {n++; inside = n == 2; next}
     inside && /^```$/ {inside = 0} inside {print}' "$src/README.md" >"$work/readme-commands"
[ -s "$work/readme-commands" ] || fail "no commands in README.md's quick start"
while IFS= read -r line; do
  grep -qxF "\$ $line" "$work/log" || fail "README.md shows '$line', the quick start did not run it"
done <"$work/readme-commands"

# What it suggests: the files are there, and the commands work.
for f in busy busy.prof busy.svg types.txt; do [ -s "$kept/$f" ] || fail "$kept/$f is not there"; done
sed -n '/Next, for instance:$/,$p' "$work/log" | sed -n 's/^  \([^#].*\)$/\1/p' >"$work/suggested"
[ "$(wc -l <"$work/suggested")" -ge 3 ] || fail "fewer than 3 suggestions"
while read -r cmd args; do
  case $cmd in
    xdg-open) [ -s "$args" ] || fail "suggests opening $args, which is not there" ;;
    *) # shellcheck disable=SC2086
       "$cmd" $args >"$work/out" 2>&1 || { cat "$work/out"; fail "suggested '$cmd $args' failed"; } ;;
  esac
  echo "suggested and works: $cmd $args"
done <"$work/suggested"
[ -s "$kept/busy.folded" ] || fail "the suggested conversion wrote no $kept/busy.folded"
grep -q ';main;count_primes' "$kept/busy.folded" || fail "no stack through main into count_primes in $kept/busy.folded"
