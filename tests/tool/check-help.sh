#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Help comes from the command table: `profdata help`, `profdata --help`,
# `profdata help COMMAND` and `profdata COMMAND --help` print it (exit 0);
# each command's help lists exactly the options it accepts; an unknown option
# or one a command does not take is refused (exit 2) naming the command.
# The commands are the tool's own list (`profdata __complete ""`): this
# script names none it could forget. Usage: check-help.sh PROFDATA SOURCE_ROOT
set -euo pipefail
tool=$1 root=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/tool/expect.sh
. "$root/tests/tool/expect.sh"
fixture=$root/tests/data/hprof/jdk17-minimal.hprof

mapfile -t commands < <("$tool" __complete "")
[ ${#commands[@]} -ge 7 ] || fail "__complete lists ${#commands[@]} commands: ${commands[*]}"

expect_status 0 "$tool" help
cp "$dir/out" "$dir/help"
for c in "${commands[@]}"; do
  grep -qE "^  $c( |$)" "$dir/help" || fail "profdata help does not list $c"
done
expect_status 0 "$tool" --help
cmp -s "$dir/out" "$dir/help" || fail "profdata --help differs from profdata help"
grep -q __complete "$dir/help" && fail "profdata help shows the hidden __complete"
echo "profdata help: ${#commands[@]} commands, the same as --help"

# Each command: help COMMAND, COMMAND --help and COMMAND -h say the same; every
# option it lists is accepted (its value taken from the help line), every other
# option of the table is refused by name.
mapfile -t every_option < <("$tool" __complete info - | grep -v -e '^--help$' -e '^--version$')
for c in "${commands[@]}"; do
  expect_status 0 "$tool" help "$c"
  cp "$dir/out" "$dir/help-$c"
  head -n1 "$dir/help-$c" | grep -q "^usage: profdata $c" || fail "help $c: $(head -n1 "$dir/help-$c")"
  for form in "$c --help" "$c -h"; do
    # shellcheck disable=SC2086
    expect_status 0 "$tool" $form
    cmp -s "$dir/out" "$dir/help-$c" || fail "'profdata $form' differs from 'profdata help $c'"
  done
  mapfile -t listed < <(grep -oE '^  (-[a-z], )?--?[a-z-]+' "$dir/help-$c" | sed -E 's/^  (-[a-z], )?//')
  mapfile -t offered < <("$tool" __complete "$c" -)
  [ "$(printf '%s\n' "${listed[@]}" | sort)" = "$(printf '%s\n' "${offered[@]}" | sort)" ] ||
    fail "$c: help lists '${listed[*]}', completion offers '${offered[*]}'"
  for o in --json --gzip --force --retained --to --limit; do
    # (no pipe into grep -q: under pipefail its early exit can fail the writer with SIGPIPE)
    grep -qx -- "$o" <<<"$(printf '%s\n' "${listed[@]}")" && continue
    expect_status 2 "$tool" "$c" "$fixture" "$o"
    grep -q "$c does not take $o" "$dir/err" || fail "$c $o: $(cat "$dir/err")"
  done
done
echo "help COMMAND = COMMAND --help = COMMAND -h for each; the options listed are the ones completed, others refused"

expect_status 2 "$tool" convert "$fixture" "$dir/out.txt" --bogus
grep -q "convert: unknown option --bogus" "$dir/err" || fail "unknown option: $(cat "$dir/err")"
grep -q "profdata help convert" "$dir/err" || fail "no pointer to the help: $(cat "$dir/err")"
expect_status 2 "$tool" info "$fixture" --limit=3
grep -q "info does not take --limit" "$dir/err" || fail "--limit for info: $(cat "$dir/err")"
expect_status 2 "$tool" help no-such-command
expect_status 2 "$tool" frobnicate
grep -q "unknown command 'frobnicate'" "$dir/err" || fail "unknown command: $(cat "$dir/err")"
expect_status 2 "$tool" top "$fixture" -n
grep -q -- "-n needs a value" "$dir/err" || fail "-n without a value: $(cat "$dir/err")"
expect_status 2 "$tool" histo "$fixture" --dump=-1
grep -q -- "--dump takes a number or 'all'" "$dir/err" || fail "--dump=-1: $(cat "$dir/err")"
expect_status 0 "$tool" top "$fixture" -n 2 --json
echo "unknown options and commands refused (exit 2) naming the command; values checked by the table"

# The man page renders without a warning.
if command -v man >/dev/null 2>&1; then
  warnings=$(MANWIDTH=80 man --warnings -l "$root/doc/profdata.1" 2>&1 >/dev/null) || fail "man failed: $warnings"
  [ -z "$warnings" ] || fail "doc/profdata.1: $warnings"
  echo "doc/profdata.1 renders without warnings"
fi
