#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes N CPU profiles (gzip'd profile.proto) as a fleet of processes of
one service would make them, for the merge benchmark: one binary (a mapping,
20,000 locations of 5,000 functions, every tenth location with an inlined
call), 60,000 call stacks of 20-40 frames the fleet runs, and per profile
SAMPLES samples drawn from those stacks with a skew (a few stacks are hot,
as in real services), each with samples/count and cpu/nanoseconds and one
of 16 worker labels. Deterministic: the binary and stacks from seed 22,
profile i's samples from seed 1000 + i.

Usage: gen-pprof-fleet.py DIR [N=100] [SAMPLES=20000]
Writes DIR/fleet-000.pb.gz ... DIR/fleet-(N-1).pb.gz.
"""
import gzip
import importlib.util
import os
import random
import sys


# The wire helpers and the binary's tables of make-pprof.py (its name has a dash: loaded by path).
_spec = importlib.util.spec_from_file_location("make_pprof", os.path.join(os.path.dirname(__file__), "make-pprof.py"))
make_pprof = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_pprof)
varint, field, vint = make_pprof.varint, make_pprof.field, make_pprof.vint


NLOC, NFUNC, NSTACKS = 20000, 5000, 60000


def binary_tables():
    """The profile's fields every process shares: mapping, locations, functions, strings; and the stacks."""
    rnd = random.Random(22)
    strings = ["", "samples", "count", "cpu", "nanoseconds", "worker", "/usr/bin/service", "service.go"]
    fname0 = len(strings)
    strings += ["pkg%d.function%d" % (i % 97, i) for i in range(NFUNC)]
    worker0 = len(strings)
    strings += ["w%d" % i for i in range(16)]
    tables = bytearray(make_pprof.binary(rnd, NLOC, NFUNC, fname0))
    for s in strings:
        tables += field(6, s.encode())
    stacks = [b"".join(varint(rnd.randrange(1, NLOC + 1)) for _ in range(rnd.randint(20, 40)))
              for _ in range(NSTACKS)]
    labels = [field(3, vint(1, 5) + vint(2, worker0 + i)) for i in range(16)]
    return bytes(tables), stacks, labels


def profile(i, nsamples, tables, stacks, labels):
    rnd = random.Random(1000 + i)
    body = bytearray(field(1, vint(1, 1) + vint(2, 2)) + field(1, vint(1, 3) + vint(2, 4)))
    for _ in range(nsamples):
        stack = stacks[min(int(rnd.paretovariate(0.6)) - 1, NSTACKS - 1)] if rnd.random() < 0.5 else \
            stacks[rnd.randrange(NSTACKS)]
        count = rnd.randint(1, 5)
        body += field(2, field(1, stack) + field(2, varint(count) + varint(count * 10000000)) +
                      labels[rnd.randrange(16)])
    body += tables
    body += vint(9, 1700000000000000000 + i * 60000000000) + vint(10, 60000000000)
    body += field(11, vint(1, 3) + vint(2, 4)) + vint(12, 10000000)
    return bytes(body)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    nsamples = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
    os.makedirs(out, exist_ok=True)
    tables, stacks, labels = binary_tables()
    for i in range(n):
        with gzip.open(os.path.join(out, "fleet-%03d.pb.gz" % i), "wb", compresslevel=6) as f:
            f.write(profile(i, nsamples, tables, stacks, labels))


main()
