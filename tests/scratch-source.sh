#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sourced by the tests that run the README's and the quick start's commands
# as a user would, in the source tree: scratch_source SRC DEST copies the
# sources into DEST (the files git tracks or would track, else everything
# but build folders and node_modules), so what they build and leave behind
# goes with DEST.
scratch_source() {
  local src=$1 dest=$2
  mkdir -p "$dest"
  if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1; then
    (cd "$src" && git ls-files -z --cached --others --exclude-standard |
      while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
      tar --null -T - -cf -) | tar -C "$dest" -xf -
  else
    tar -C "$src" --exclude='./build*' --exclude=node_modules --exclude=.git -cf - . | tar -C "$dest" -xf -
  fi
}
