#!/usr/bin/env bash
# Install, with apt-get, whatever a fresh Debian machine lacks to build and
# test libprofdata. Sourced by quickstart.sh and test.sh; `--interop` adds the
# real readers and producers the interoperability tests compare against.
set -euo pipefail

pd_packages=(meson ninja-build gcc clang pkg-config check zlib1g-dev libexpat1-dev
             libprotobuf-c-dev protobuf-c-compiler valgrind binutils libclang-rt-14-dev
             python3 python3-setuptools python3-pip python3-venv python3-pytest)
pd_interop_packages=(openjdk-17-jdk-headless visualvm google-perftools libgoogle-perftools-dev
                     golang-go python3)

pd_install_deps() {
  local want=("${pd_packages[@]}") missing=()
  if [ "${1:-}" = "--interop" ]; then want+=("${pd_interop_packages[@]}"); fi
  for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing: ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq
  "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
