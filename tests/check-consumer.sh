#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install into a temporary root, then build examples/version.c using nothing
# but `pkg-config --cflags --libs libprofdata`, run it, and check it prints the
# version. This is what a user of the installed library does.
set -euo pipefail
build=$1 src=$2
command -v pkg-config >/dev/null || { echo "pkg-config missing"; exit 77; }
if [ -e "$build"/lib/libprofdata.so ] && ldd "$build"/lib/libprofdata.so | grep -E 'lib(a|ub)san' >/dev/null; then
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
# A program may name its own functions as our internals are named.
own_names() {
  cat >"$root/own.c" <<'C'
#include <profdata/profdata.h>
#include <stdio.h>
int pd_diag_init(void);
int pd_diag_init(void) { return 7; }
int main(void) { printf("%d %s\n", pd_diag_init(), profdata_version_string()); return 0; }
C
  # shellcheck disable=SC2046,SC2086
  cc -std=c99 -o "$root/own" "$root/own.c" $(pkg-config --cflags libprofdata) $1
  [ "$("$root/own")" = "7 $version" ]
  echo "a program defining pd_diag_init links against the archive"
}
shared=$(find "$root" -name 'libprofdata.so.*' | head -n1)
if [ -z "$shared" ]; then
  # A static-only build: the archive and `pkg-config --static` are the whole story.
  # shellcheck disable=SC2046
  cc -std=c99 -Wall -Wextra -Werror -o "$root/consumer" "$src/examples/version.c" \
    $(pkg-config --static --cflags --libs libprofdata)
  out=$("$root/consumer")
  echo "$out (static)"
  [ "$out" = "libprofdata $version (headers $version)" ]
  own_names "$(pkg-config --static --libs libprofdata)"
  exit 0
fi
# shellcheck disable=SC2046
cc -std=c99 -Wall -Wextra -Werror -o "$root/consumer" "$src/examples/version.c" $(pkg-config --cflags --libs libprofdata)
libdir=$(dirname "$shared")
out=$(LD_LIBRARY_PATH=$libdir "$root/consumer")
echo "$out"
[ "$out" = "libprofdata $version (headers $version)" ]
if [ -e "$libdir/libprofdata.a" ]; then
  # Both libraries installed: the archive links too, with `pkg-config --static`.
  # shellcheck disable=SC2046
  cc -std=c99 -o "$root/consumer-static" "$src/examples/version.c" $(pkg-config --cflags libprofdata) \
    "$libdir/libprofdata.a" $(pkg-config --static --libs-only-l libprofdata | sed 's/-lprofdata\b//')
  [ "$("$root/consumer-static")" = "$out" ]
  echo "static archive: same output"
  own_names "$libdir/libprofdata.a $(pkg-config --static --libs-only-l libprofdata | sed 's/-lprofdata\b//')"
fi
# The soname carries MAJOR from 1.0 on, 0.MINOR before (doc/api-policy.md).
soname=$(objdump -p "$libdir"/libprofdata.so.*.*.* | awk '/SONAME/ {print $2}')
echo "soname: $soname"
major=${version%%.*} rest=${version#*.}
if [ "$major" = 0 ]; then want=libprofdata.so.0.${rest%%.*}; else want=libprofdata.so.$major; fi
[ "$soname" = "$want" ]
