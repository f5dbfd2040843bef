#!/bin/bash
# Converts the JDK-made HPROF fixtures (tests/data/hprof/jdk17-*.hprof) to
# IBM classic heapdumps in OpenJ9's layout, gzip-compressed:
#
#   tests/data/classic/make-from-hprof.sh [BUILD_DIR]   # default: build
#
# Each is exactly
#   profdata convert --via-model tests/data/hprof/NAME.hprof - --to ibm-classic --quiet | gzip -9n > NAME.txt.gz
# (through the model, as profdata_write() does; a streaming conversion gives the
# same bytes).
# tests/codecs/ibm-classic/test-classic-hprof.c checks that a fresh conversion still gives the
# same text (the header line, which names the library version, aside).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:-$root/build}
profdata=$build/tools/profdata/profdata
for name in jdk17-minimal jdk17-types jdk17-threads jdk17-loaders; do
    "$profdata" convert --via-model "$root/tests/data/hprof/$name.hprof" - --to ibm-classic --quiet | gzip -9n > "$here/$name.txt.gz"
    echo "$here/$name.txt.gz"
done
