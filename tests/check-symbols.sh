#!/usr/bin/env bash
# Every symbol the shared library exports carries the profdata_ prefix, and
# every one is bound to a version node of lib/libprofdata.map.
set -euo pipefail
lib=$1
syms=$(nm -D --defined-only "$lib" | awk '{print $3}')
bad=$(echo "$syms" | grep -v -E '^(profdata_[A-Za-z0-9_]+@@PROFDATA_[0-9]+\.[0-9]+|PROFDATA_[0-9]+\.[0-9]+)$' || true)
if [ -n "$bad" ]; then
  echo "exported symbols without the profdata_ prefix or a version node:"
  echo "$bad"
  exit 1
fi
echo "$(echo "$syms" | grep -c '^profdata_') exported symbols, all prefixed and versioned"
