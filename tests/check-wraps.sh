#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every wrap in subprojects/ is read by `meson setup`, and none is needed
# where the system has the packages: with downloads forbidden
# (--wrap-mode=nodownload) the project configures from system dependencies,
# and forcing a wrap's fallback fails for want of a download, naming that
# wrap (so Meson parsed it and would fetch it). No fallback build is tried:
# it needs the network. Usage: check-wraps.sh SOURCE_ROOT
set -euo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
meson setup "$work/system" "$src" --wrap-mode=nodownload -Dtests=enabled >"$work/log" 2>&1 ||
  { tail -n 20 "$work/log"; echo "FAIL: no configure from system packages with downloads forbidden"; exit 1; }
if grep -q "Downloading" "$work/log"; then echo "FAIL: something was downloaded"; exit 1; fi
echo "configured with --wrap-mode=nodownload from system packages"
n=0
for wrap in "$src"/subprojects/*.wrap; do
  name=$(basename "$wrap" .wrap)
  # Each wrap names the dependency it provides; force Meson to use that wrap.
  dep=$(awk -F' *= *' '/^\[provide\]/ {p = 1; next} p && NF == 2 {print $1; exit}' "$wrap")
  out=$(meson setup "$work/$name" "$src" --wrap-mode=nodownload --force-fallback-for="$dep" \
        -Dtests=enabled -Dpprof=enabled -Dexpat=enabled 2>&1 || true)
  if ! grep -qi "downloading is disabled" <<<"$out" || ! grep -qi "$name" <<<"$out"; then
    echo "$out" | tail -n 5
    echo "FAIL: forcing the $name fallback did not reach its wrap"
    exit 1
  fi
  echo "$name.wrap: read (provides $dep; a fallback build would download $(awk -F' *= *' '/^source_url/ {print $2}' "$wrap"))"
  n=$((n + 1))
done
echo "$n wraps read; none downloaded"
