# SPDX-License-Identifier: Apache-2.0
# Sourced by the tool checks, after they set $dir (a scratch directory):
# fail MESSAGE, and expect_status STATUS CMD... which runs CMD with its
# stdout in $dir/out and its stderr in $dir/err and fails unless it exits
# STATUS.
fail() { echo "FAIL: $*"; exit 1; }
expect_status() {
  local want=$1 got=0; shift
  "$@" >"$dir/out" 2>"$dir/err" || got=$?
  [ "$got" = "$want" ] || fail "$* exited $got, not $want: $(cat "$dir/err")"
}
