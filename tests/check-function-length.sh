#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# No function in tools/ is longer than 60 lines, from the first line of its
# signature to its closing brace: a command reads as a few named steps, and
# the next option is a table row, not another branch of a long function.
# Functions are found as the house style writes them: the signature from
# column 0, the body's braces alone at column 0. The detector is tried on a
# made-up file first, so that a change to it cannot pass everything unseen.
# Usage: check-function-length.sh SOURCE_ROOT [LIMIT]
set -euo pipefail
root=$1
limit=${2:-60}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# FILE...: "FILE:LINE: NAME N" for every function longer than $limit lines.
too_long() {
  awk -v limit="$limit" '
    FNR == 1 { sig = 0; body = 0 }
    !body && /^[A-Za-z_][A-Za-z0-9_ \t*]*\(/ {
      sig = FNR
      match($0, /[A-Za-z_][A-Za-z0-9_]*\(/)
      name = substr($0, RSTART, RLENGTH - 1)
    }
    !body && /^\{/ { body = 1; start = sig ? sig : FNR }
    body && /^\}/ {
      if (FNR - start + 1 > limit) print FILENAME ":" start ": " name " " (FNR - start + 1)
      body = 0; sig = 0
    }' "$@"
}

# The detector: a function of limit + 1 lines is found, one of limit lines is not.
made_up() { # NAME LINES
  printf 'static int %s(int a,\n                int b)\n{\n' "$1"
  for ((i = 0; i < $2 - 4; i++)); do printf '\ta += b;\n'; done
  printf '}\n\n'
}
{ made_up fits "$limit"; made_up too_long $((limit + 1)); } >"$scratch/made-up.c"
found=$(too_long "$scratch/made-up.c")
[ "$found" = "$scratch/made-up.c:$((limit + 2)): too_long $((limit + 1))" ] || {
  echo "the detector is broken: it found '$found' in a file with one function of $((limit + 1)) lines"
  exit 1
}

cd "$root"
mapfile -t files < <(find tools -name '*.c' -o -name '*.h' | sort)
[ ${#files[@]} -gt 0 ] || { echo "no C files under $root/tools"; exit 1; }
long=$(too_long "${files[@]}")
if [ -n "$long" ]; then
  echo "functions in tools/ longer than $limit lines (file:line: name lines):"
  echo "$long"
  exit 1
fi
echo "${#files[@]} files in tools/: every function has $limit lines or fewer"
