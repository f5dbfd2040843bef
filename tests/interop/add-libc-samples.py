#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Copy a gperftools CPU profile of this machine with samples added at PCs
across libc's free(), so that naming them meets what live samples meet only
now and then: DWARF file names written "./malloc/malloc.c" and calls
inlined into free (pprof -top cleans the one, marks the other "(inline)").

usage: add-libc-samples.py IN OUT   (exit 77: no libc mapping or no free symbol)
"""
import struct
import subprocess
import sys


def records_end(words):
    """Index of the trailer record (count 0, depth 1, pc 0) after the 5-word header."""
    i = 5
    while i + 2 < len(words):
        if words[i] == 0 and words[i + 1] == 1 and words[i + 2] == 0:
            return i
        i += 2 + words[i + 1]
    raise SystemExit("no end-of-records trailer")


def libc_base(maps):
    """Load address of the first mapping of libc.so.6 (its file offset 0), and the file."""
    for line in maps.splitlines():
        f = line.split()
        if len(f) >= 6 and f[5].endswith("/libc.so.6") and int(f[2], 16) == 0:
            return int(f[0].split("-")[0], 16), f[5]
    return None, None


def free_offset(path):
    out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[2].split("@")[0] == "free":
            return int(f[0], 16)
    return None


def main():
    src, dst = sys.argv[1], sys.argv[2]
    data = open(src, "rb").read()
    words = list(struct.unpack("<%dQ" % (len(data) // 8), data[: len(data) // 8 * 8]))
    end = records_end(words)
    maps = data[(end + 3) * 8:]
    base, path = libc_base(maps.decode("utf-8", "replace"))
    off = free_offset(path) if path else None
    if base is None or off is None:
        print("no libc mapping or no free symbol: skipped")
        sys.exit(77)
    added = []
    for k in range(0, 0x200, 0x10):
        added += [3, 1, base + off + k]
    out = words[:end] + added + words[end:end + 3]
    open(dst, "wb").write(struct.pack("<%dQ" % len(out), *out) + maps)


main()
