#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write a wide gperftools CPU profile: many distinct stacks of random PCs.

gen-big-gperftools.py draws its stacks from a call tree, so they share
prefixes and reuse a few thousand PCs; profiles from a large program under
varied load look otherwise: tens of thousands of distinct stacks whose PCs
rarely repeat. This generator draws every frame of every stack uniformly at
random over the executable mappings, which is the shape that costs most to
intern, aggregate and name (issue 21).

The maps text after the trailer lists the mappings the PCs fall into. The
first is an executable that does not exist here; the second names this
machine's real libc (/lib/x86_64-linux-gnu/libc.so.6) but, as in a profile
taken on another machine, with a device, inode, file offset and length that
are not this file's: a symbolizer must notice that the file it would open is
not the one the profile recorded, rather than name PCs after the wrong code.
Further mappings (--mappings 3 or more) name libraries that do not exist.

Usage: gen-wide-gperftools.py OUT [--records 500000] [--stacks 60000]
                              [--mappings 2] [--depth 20] [--seed N]
With the defaults the file is about 88 MB. The output is the same for the
same options. Prints what it wrote on stderr.
"""

import argparse
import random
import struct
import sys

PERIOD_US = 10000
REAL_LIBC = "/lib/x86_64-linux-gnu/libc.so.6"

# Executable text is mapped this far apart, at addresses a 64-bit PIE process
# would use: the program low, shared objects near the top of user space.
PROGRAM_BASE = 0x5600_0000_0000
LIBRARY_BASE = 0x7F00_0000_0000
LIBRARY_STRIDE = 0x0100_0000


def mapping_table(count, rng):
    """[(start, end, offset, device, inode, path)], the first two as the docstring says."""
    table = [(PROGRAM_BASE + 0x1000, PROGRAM_BASE + 0x1000 + 0x2400000, 0x1000,
              "fd:02", 4201337, "/opt/wide/bin/wide-server")]
    # Offset 0x2d1000 and a 0x1a0000-byte text do not match any segment of a
    # Debian or Ubuntu libc; device 08:03 and a large inode are another disk's.
    table.append((LIBRARY_BASE, LIBRARY_BASE + 0x1a0000, 0x2d1000,
                  "08:03", 91823456, REAL_LIBC))
    for k in range(2, count):
        start = LIBRARY_BASE + k * LIBRARY_STRIDE
        size = 0x80000 + rng.randrange(64) * 0x10000
        table.append((start, start + size, 0x1000 * rng.randrange(1, 64),
                      "08:03", 91823456 + 97 * k,
                      "/opt/wide/lib/libwide%d.so.%d" % (k, 1 + k % 3)))
    return table


def maps_text(table):
    lines = ["%x-%x r-xp %08x %s %-10d %s" % (start, end, off, dev, inode, path)
             for start, end, off, dev, inode, path in table]
    lines.append("7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0          [stack]")
    return ("\n".join(lines) + "\n").encode("ascii")


def draw_stacks(rng, table, stacks, depth):
    """`stacks` distinct chains of `depth` random PCs, packed leaf first.

    The program holds most of the code, so it gets half the frames and the
    libraries share the other half.
    """
    weights = [len(table)] + [1] * (len(table) - 1)
    spans = [(start + 0x10, end - 0x10) for start, end, _, _, _, _ in table]
    pack = struct.Struct("<%dQ" % depth).pack
    chosen = set()
    out = []
    while len(out) < stacks:
        picks = rng.choices(spans, weights, k=depth)
        chain = tuple(rng.randrange(lo, hi) for lo, hi in picks)
        if chain in chosen:
            continue
        chosen.add(chain)
        out.append(pack(*chain))
    return out


def record_order(rng, stacks, records):
    """Which stack each record carries: every stack once, the rest skewed."""
    first = list(range(min(stacks, records)))
    rng.shuffle(first)
    # A Pareto draw gives a handful of hot stacks and a long tail.
    rest = [min(stacks - 1, int(rng.paretovariate(1.2)) - 1)
            if rng.random() < 0.5 else rng.randrange(stacks)
            for _ in range(records - len(first))]
    return first + rest


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--records", type=int, default=500000)
    ap.add_argument("--stacks", type=int, default=60000)
    ap.add_argument("--mappings", type=int, default=2)
    ap.add_argument("--depth", type=int, default=20)
    ap.add_argument("--seed", type=int, default=21)
    args = ap.parse_args()
    if args.records < 0 or args.stacks < 1 or args.mappings < 2 or not 1 <= args.depth <= 254:
        ap.error("need records >= 0, stacks >= 1, mappings >= 2, 1 <= depth <= 254")

    rng = random.Random(args.seed)
    table = mapping_table(args.mappings, rng)
    chains = draw_stacks(rng, table, args.stacks, args.depth)
    order = record_order(rng, args.stacks, args.records)
    counts = [1 + (rng.randrange(4) if rng.random() < 0.25 else 0) for _ in order]
    head = struct.Struct("<QQ").pack
    body = b"".join(head(c, args.depth) + chains[w] for c, w in zip(counts, order))
    data = b"".join([struct.pack("<5Q", 0, 3, 0, PERIOD_US, 0), body,
                     struct.pack("<3Q", 0, 1, 0), maps_text(table)])
    with open(args.out, "wb") as out:
        out.write(data)
    size, total, used = len(data), sum(counts), set(order)
    print("wrote %s: %d bytes, %d records of depth %d, %d distinct stacks used, "
          "%d mappings, total samples %d"
          % (args.out, size, args.records, args.depth, len(used), len(table), total),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
