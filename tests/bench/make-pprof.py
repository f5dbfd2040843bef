#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a large synthetic pprof profile (gzip'd profile.proto) for the
reader's benchmark: N samples (default 500,000), each a distinct stack of
20-40 locations out of 20,000 (every tenth location two lines: an inlined
call), two values (samples/count, cpu/nanoseconds), and a worker label on
every sample. Deterministic (a fixed seed).

Usage: make-pprof.py OUT.pb.gz [N]
"""
import gzip
import random
import sys


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def vint(number, v):
    return varint(number << 3) + varint(v)


def binary(rnd, nloc, nfunc, fname0):
    """One mapping (its file string 6), `nloc` locations of `nfunc` functions
    (their names from string `fname0` on, their file string 7), every tenth
    location with an inlined call, drawn from `rnd`."""
    body = bytearray(field(3, vint(1, 1) + vint(2, 0x400000) + vint(3, 0x4000000) + vint(5, 6) + vint(7, 1)))
    for i in range(1, nloc + 1):
        lines = field(4, vint(1, rnd.randrange(1, nfunc + 1)) + vint(2, rnd.randint(1, 900)))
        if i % 10 == 0:
            lines = field(4, vint(1, rnd.randrange(1, nfunc + 1)) + vint(2, rnd.randint(1, 900))) + lines
        body += field(4, vint(1, i) + vint(2, 1) + vint(3, 0x400000 + 16 * i) + lines)
    for i in range(1, nfunc + 1):
        body += field(5, vint(1, i) + vint(2, fname0 + i - 1) + vint(3, fname0 + i - 1) + vint(4, 7))
    return bytes(body)


def main():
    out, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 500000
    rnd = random.Random(22)
    nloc, nfunc = 20000, 5000
    strings = ["", "samples", "count", "cpu", "nanoseconds", "worker", "/usr/bin/app", "app.go"]
    fname0 = len(strings)
    strings += ["pkg%d.function%d" % (i % 97, i) for i in range(nfunc)]
    worker0 = len(strings)
    strings += ["w%d" % i for i in range(16)]
    body = bytearray()
    body += field(1, vint(1, 1) + vint(2, 2))
    body += field(1, vint(1, 3) + vint(2, 4))
    labels = [field(3, vint(1, 5) + vint(2, worker0 + i)) for i in range(16)]
    for i in range(n):
        depth = rnd.randint(20, 40)
        locs = b"".join(varint(rnd.randrange(1, nloc + 1)) for _ in range(depth))
        count = rnd.randint(1, 5)
        values = varint(count) + varint(count * 10000000)
        body += field(2, field(1, locs) + field(2, values) + labels[i % 16])
    body += binary(rnd, nloc, nfunc, fname0)
    for s in strings:
        body += field(6, s.encode())
    body += vint(9, 1700000000000000000) + vint(10, 60000000000)
    body += field(11, vint(1, 3) + vint(2, 4)) + vint(12, 10000000)
    with gzip.open(out, "wb", compresslevel=6) as f:
        f.write(body)


if __name__ == "__main__":
    main()
