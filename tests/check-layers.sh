#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The layers doc/design.md draws ("Layout: folders by layer"), checked on the
# #include lines of lib/: each layer includes only its own folder and the
# layers above it in that list, codecs only internal.h, their own folder and
# the headers internal.h designates for them, never another codec's; and
# tests/ mirrors lib/, folder for folder. Exit 1 naming every include or
# folder against the rules.
# Usage: check-layers.sh SOURCE_ROOT
set -euo pipefail

# ---- the rules (doc/design.md) ----
# What each layer may include besides its own folder, the public headers
# (profdata/*.h) and the build's pd_config.h. "internal" is lib/internal.h
# and the event list it includes: it gathers util's and io's headers, the
# event tables and the codec descriptor, so every layer above io may use it.
declare -A may_include=(
  [util]=""
  [io]="util"
  [internal]="util io"
  [jvm]="util io internal"
  [model]="util io internal jvm"
  [analysis]="util io internal jvm model"
  [symbolize]="util io internal"
  [transform]="util io internal jvm model analysis symbolize"
  [core]="util io internal jvm model analysis symbolize transform codecs/registry.h"
)
# Codecs: internal.h (what the core offers them), their own folder, and
# these (design.md: the util, jvm and model headers a codec needs; the
# samples and stacks that writers read; the transforms a descriptor names).
codec_headers=(internal.h 'util/*' jvm/jvm.h model/model.h analysis/samples.h analysis/stacks.h
               transform/transform.h)
# Known exceptions, "lib/FILE -> HEADER", while a rewrite is under way: none.
known_exceptions=()
# tests/ mirrors lib/: its folders are lib/'s, or these, which test no one layer.
tests_beside_layers=(abi bench conformance data fuzz hostile interop support tool)

root=$(cd "$1" && pwd)
cd "$root/lib"
bad=0 checked=0
fail() { echo "FAIL: $*"; bad=$((bad + 1)); }

# The layer of a file or header path under lib/: its folder, codecs/<name>
# for a codec, "internal" for the headers at the top.
layer_of() {
  case $1 in
    codecs/registry.h) echo codecs/registry.h ;;
    codecs/*/*) local rest=${1#codecs/}; echo "codecs/${rest%%/*}" ;;
    */*) echo "${1%%/*}" ;;
    *) echo internal ;;
  esac
}

allowed() { # FILE LAYER HEADER HEADER_LAYER
  local pat
  [ "$4" = "$2" ] && return 0
  if [[ $2 == codecs/* ]]; then
    for pat in "${codec_headers[@]}"; do
      # shellcheck disable=SC2053 # a pattern, on purpose
      [[ $3 == $pat ]] && return 0
    done
    return 1
  fi
  [[ " ${may_include[$2]} " == *" $4 "* ]]
}

while IFS= read -r f; do
  f=${f#./}
  layer=$(layer_of "$f")
  if [[ $layer != codecs/* && -z ${may_include[$layer]+set} ]]; then
    fail "lib/$f: lib/${f%%/*} is not a layer of doc/design.md; give it a line in $(basename "$0")"
    continue
  fi
  while IFS= read -r h; do
    checked=$((checked + 1))
    case $h in
      profdata/* | pd_config.h) continue ;;
      *..*) fail "lib/$f includes \"$h\": name a header by its path under lib/, not by climbing out"; continue ;;
    esac
    dir=$(dirname "$f")
    if [ "$dir" != . ] && [ -e "$dir/$h" ] && [[ $h != */* ]]; then
      continue # beside it: its own folder
    fi
    [ -e "$h" ] || [ "$h" = codecs/registry.h ] || [[ $h == codecs/pprof/*.pb-c.h ]] ||
      { fail "lib/$f includes \"$h\", which is not under lib/"; continue; }
    allowed "$f" "$layer" "$h" "$(layer_of "$h")" && continue
    [[ " ${known_exceptions[*]} " == *" lib/$f -> $h "* ]] && { echo "known exception: lib/$f -> $h"; continue; }
    if [[ $layer == codecs/* ]]; then
      fail "lib/$f includes \"$h\": a codec includes only its own folder and ${codec_headers[*]}"
    else
      fail "lib/$f includes \"$h\": $layer includes only its own folder${may_include[$layer]:+ and }${may_include[$layer]}"
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(find . -name '*.[ch]' | sort)

# tests/ mirrors lib/: a folder of one is a folder of the other.
for d in "$root"/tests/*/ "$root"/tests/codecs/*/; do
  d=${d#"$root"/tests/}
  d=${d%/}
  [ -d "$d" ] || [[ " ${tests_beside_layers[*]} " == *" $d "* ]] || fail "tests/$d has no lib/$d to mirror"
done
for d in */ codecs/*/; do
  d=${d%/}
  [ -d "$root/tests/$d" ] || fail "lib/$d has no tests/$d"
done

if [ "$bad" -gt 0 ]; then
  echo "$bad of $checked includes or folders go against the layers of doc/design.md"
  exit 1
fi
echo "$checked includes in lib/ follow the layers of doc/design.md; tests/ mirrors lib/"
