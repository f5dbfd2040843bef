#!/usr/bin/env bash
# Install into a temporary root, then build examples/version.c using nothing
# but `pkg-config --cflags --libs libprofdata`, run it, and check it prints the
# version. This is what a user of the installed library does.
set -euo pipefail
build=$1 src=$2
command -v pkg-config >/dev/null || { echo "pkg-config missing"; exit 77; }
if ldd "$build"/lib/libprofdata.so | grep -E 'lib(a|ub)san' >/dev/null; then
  echo "skipped: a sanitizer build; a plain program cannot load it (the plain build runs this test)"
  exit 77
fi
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
meson install -C "$build" --destdir "$root" --quiet >/dev/null
pcdir=$(dirname "$(find "$root" -name libprofdata.pc | head -n1)")
[ -n "$pcdir" ] || { echo "libprofdata.pc was not installed"; exit 1; }
export PKG_CONFIG_PATH=$pcdir PKG_CONFIG_SYSROOT_DIR=$root
version=$(pkg-config --modversion libprofdata)
# shellcheck disable=SC2046
cc -std=c99 -Wall -Wextra -Werror -o "$root/consumer" "$src/examples/version.c" $(pkg-config --cflags --libs libprofdata)
libdir=$(dirname "$(find "$root" -name 'libprofdata.so.*' | head -n1)")
out=$(LD_LIBRARY_PATH=$libdir "$root/consumer")
echo "$out"
[ "$out" = "libprofdata $version (headers $version)" ]
# The soname carries MAJOR from 1.0 on, 0.MINOR before (doc/api-policy.md).
soname=$(objdump -p "$libdir"/libprofdata.so.*.*.* | awk '/SONAME/ {print $2}')
echo "soname: $soname"
major=${version%%.*} rest=${version#*.}
if [ "$major" = 0 ]; then want=libprofdata.so.0.${rest%%.*}; else want=libprofdata.so.$major; fi
[ "$soname" = "$want" ]
