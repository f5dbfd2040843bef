#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every symbol the shared library exports carries the profdata_ prefix, and
# every one is bound to a version node of lib/libprofdata.map; the static
# archive defines no global symbol outside profdata_ (so a program may have
# its own pd_* or protobuf-c names). Usage: check-symbols.sh LIBRARY...
set -euo pipefail
for lib in "$@"; do
  case $lib in
  *.a)
    syms=$(nm -g --defined-only "$lib" | awk 'NF == 3 {print $3}')
    bad=$(echo "$syms" | grep -v -E '^profdata_[A-Za-z0-9_]+$' || true)
    if [ -n "$bad" ]; then
      echo "$lib: global symbols without the profdata_ prefix:"
      echo "$bad" | head -n 50
      exit 1
    fi
    echo "$lib: $(echo "$syms" | grep -c '^profdata_') global symbols, all profdata_*"
    ;;
  *)
    syms=$(nm -D --defined-only "$lib" | awk '{print $3}')
    # Experimental calls have nodes of their own, PROFDATA_EXPERIMENTAL_X.Y (doc/conventions.md).
    bad=$(echo "$syms" | grep -v -E '^(profdata_[A-Za-z0-9_]+@@PROFDATA_(EXPERIMENTAL_)?[0-9]+\.[0-9]+|PROFDATA_(EXPERIMENTAL_)?[0-9]+\.[0-9]+)$' || true)
    if [ -n "$bad" ]; then
      echo "exported symbols without the profdata_ prefix or a version node:"
      echo "$bad"
      exit 1
    fi
    echo "$lib: $(echo "$syms" | grep -c '^profdata_') exported symbols, all prefixed and versioned"
    ;;
  esac
done
