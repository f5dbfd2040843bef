#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# libprofdata.a as one relocatable object in which only profdata_* stay
# global: the internal pd_* functions and the generated protobuf-c code become
# local, so that a program may define names of its own such as pd_diag_init.
# Usage: static-archive.sh LD OBJCOPY AR INTERNAL.a OUT.a
set -eu
ld=$1 objcopy=$2 ar=$3 in=$4 out=$5
obj=$out.o
rm -f "$obj" "$out"
"$ld" -r -o "$obj" --whole-archive "$in" --no-whole-archive
"$objcopy" --wildcard --keep-global-symbol='profdata_*' "$obj"
"$ar" rcs "$out" "$obj"
rm -f "$obj"
