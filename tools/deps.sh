#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install, with apt-get, whatever a fresh Debian machine lacks to build and
# test libprofdata. Sourced by quickstart.sh and test.sh; `--interop` adds the
# real readers and producers the interoperability tests compare against.
set -euo pipefail

pd_packages=(meson ninja-build gcc clang pkg-config check zlib1g-dev libexpat1-dev libarchive-dev libdw-dev
             libacl1-dev libzstd-dev liblz4-dev libyajl-dev
             libprotobuf-c-dev protobuf-c-compiler valgrind binutils libclang-rt-14-dev
             python3 python3-dev python3-pip python3-venv python3-pytest
             python3-mesonpy python3-numpy python3-pandas python3-mypy)
pd_interop_packages=(openjdk-17-jdk-headless visualvm google-perftools libgoogle-perftools-dev
                     golang-go python3 chromium nodejs libxml2-utils python3-distributed)
# The quick start profiles a bundled program with libprofiler.
pd_demo_packages=(libgoogle-perftools-dev)

pd_install_deps() {
  local want=("${pd_packages[@]}") missing=()
  if [ "${1:-}" = "--interop" ]; then
    want+=("${pd_interop_packages[@]}")
    # Debian's npm only where no npm came with node (NodeSource's nodejs has one, and conflicts with it).
    command -v npm >/dev/null || want+=(npm)
  fi
  if [ "${1:-}" = "--demo" ]; then want+=("${pd_demo_packages[@]}"); fi
  for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    pd_apt_install "${missing[@]}"
  fi
  if [ "${1:-}" = "--interop" ]; then pd_install_browser_packages; fi
}

pd_apt_install() {
  echo "installing: $*"
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq
  "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "$@" >/dev/null
}

# The browser checks' npm packages (playwright-core, speedscope, ajv), exactly
# as tests/interop/browser/package-lock.json pins them, into that folder's
# node_modules (ignored by git). No browser download: they drive Debian's
# chromium. Quiet and harmless when npm or the network is missing: the checks
# then try again under the build directory, or skip (77).
pd_install_browser_packages() {
  local here
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/interop/browser"
  command -v npm >/dev/null || return 0
  [ -d "$here/node_modules/playwright-core" ] && [ -d "$here/node_modules/speedscope" ] &&
    [ -d "$here/node_modules/ajv" ] && return 0
  (cd "$here" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --ignore-scripts >/dev/null 2>&1) ||
    echo "npm ci in $here failed: the browser checks will skip"
}
