#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The bash completion script is installed where bash-completion looks
# (share/bash-completion/completions/profdata), registers itself for
# profdata, and completes commands, options, formats and values by asking the
# tool. Usage: check-completion.sh PROFDATA SOURCE_ROOT BUILD_DIR
set -euo pipefail
tool=$1 root=$2 build=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

meson install -C "$build" --destdir "$dir/root" --no-rebuild --quiet >/dev/null
script=$(find "$dir/root" -path '*/bash-completion/completions/profdata' -type f | head -n1)
[ -n "$script" ] || fail "no bash-completion/completions/profdata under the install: $(find "$dir/root" -name 'profdata*')"
echo "installed: ${script#"$dir/root"}"

# A bash that sources the installed script, finds this build's tool as
# `profdata`, and completes COMP_WORDS as bash would before a Tab.
mkdir "$dir/bin"
ln -s "$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")" "$dir/bin/profdata"
cat >"$dir/run.sh" <<'SH'
source "$1"
shift
complete -p profdata
complete_words() { # WORD...: COMPREPLY for the last word, one a line
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _profdata
  printf '%s\n' "${COMPREPLY[@]}"
}
complete_words "$@"
SH
run() { PATH="$dir/bin:$PATH" bash "$dir/run.sh" "$script" "$@"; }
expect() { # WANTED WORD...: the completions of WORD... are exactly WANTED (one a line)
  local want=$1; shift
  local got
  run "$@" >"$dir/reply"
  got=$(tail -n +2 "$dir/reply")
  [ "$got" = "$want" ] || fail "completing '$*': got '$got', not '$want'"
}

run profdata co >"$dir/reply"
registered=$(head -n1 "$dir/reply")
[ "$registered" = "complete -F _profdata profdata" ] || fail "complete -p says '$registered'"
expect convert profdata co
expect "$(printf -- '--to\n--top-stacks')" profdata convert --t
expect "$(printf 'convert\ncheck')" profdata help c
expect speedscope profdata convert in.prof out --to sp
expect speedscope profdata convert in.prof out --to = sp
expect "$(printf 'auto\nyes\nnone')" profdata convert in.prof out --symbolize =
expect all profdata histo f --dump a
expect "" profdata path f.hprof 0x
run profdata histo --from "" >"$dir/from"
grep -qx hprof "$dir/from" || fail "--from does not complete to hprof: $(cat "$dir/from")"
# The formats --to completes are the ones `profdata formats` says this build writes.
run profdata convert x y --to "" >"$dir/to"
[ "$(tail -n +2 "$dir/to" | sort)" = "$("$tool" formats | awk '$2 ~ /w/ {print $1}' | sort)" ] ||
  fail "--to completes other formats than profdata formats lists as written"
touch "$dir/dump-one.hprof"
cd "$dir"
expect dump-one.hprof profdata info dump-o
expect dump-one.hprof profdata convert dump-o
echo "completes commands, options, --to/--from formats, values and file operands"
