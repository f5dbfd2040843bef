#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write a large synthetic gperftools CPU profile for benchmarks.

The default output (500,000 records of 20 frames, 64-bit little endian) is
about 88 MB, the size of a long-running server profile.  The content is
deterministic for a given seed and set of options, so timings from different
machines or commits compare the same bytes.

Stacks come from walking a call tree whose nodes have few children, most
walks taking the first ones: that makes records share prefixes and whole
chains repeat, as they do in real profiles (gperftools also re-emits a chain
each time it evicts it from its hash table), which is what aggregation code
in readers and exporters has to cope with.

Usage: gen-big-gperftools.py [PATH] [--records N] [--depth D] [--seed S]
                             [--binary ELF]
Prints the file size, record count, distinct stacks and total samples.

--binary ELF puts every PC in the executable segment of a real ELF file (a
64-bit little-endian executable or shared object), mapped where a PIE would
be, so that symbolizers have something to name (tests/bench/run.sh
symbolize); the default mappings name files that do not exist.
"""

import argparse
import os
import random
import struct
import sys

PERIOD_US = 10000

# (start, end, offset, path) of the executable mappings the PCs fall into;
# the list ends up as /proc/self/maps lines after the trailer.
MAPPINGS = [
    (0x0000555555554000, 0x0000555555d54000, 0x0, "/usr/local/bin/bigserver"),
    (0x00007FFFF7A00000, 0x00007FFFF7B80000, 0x26000,
     "/usr/lib/x86_64-linux-gnu/libc.so.6"),
    (0x00007FFFF7C00000, 0x00007FFFF7D90000, 0x9A000,
     "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30"),
    (0x00007FFFF7E10000, 0x00007FFFF7E30000, 0x5000,
     "/usr/lib/x86_64-linux-gnu/libprofiler.so.0.5.5"),
]


def elf_text_mapping(path):
    """(start, end, offset, path) of the executable PT_LOAD of an ELF64 LE file, loaded as a PIE would be."""
    with open(path, "rb") as f:
        data = f.read(1 << 20)
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SystemExit("%s: not a 64-bit little-endian ELF file" % path)
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    base = 0x0000555555554000
    for i in range(phnum):
        p_type, p_flags, p_offset, p_vaddr, _, p_filesz, _, _ = \
            struct.unpack_from("<IIQQQQQQ", data, phoff + i * phentsize)
        if p_type == 1 and p_flags & 1:
            page = 0x1000
            start = base + (p_vaddr & ~(page - 1))
            end = base + ((p_vaddr + p_filesz + page - 1) & ~(page - 1))
            return (start, end, p_offset & ~(page - 1), path)
    raise SystemExit("%s: no executable segment" % path)


def make_pc_pool(rng, size):
    """Return-address-like PCs, most in the executable, the rest in libs."""
    pool = set()
    weights = [70, 15, 12, 3]
    while len(pool) < size:
        start, end, _, _ = rng.choices(MAPPINGS, weights)[0]
        pool.add(rng.randrange(start + 0x1000, end - 0x10))
    return sorted(pool)


class CallTree:
    """A lazily grown call tree; a node is [pc, children]."""

    def __init__(self, rng, pool, fanout_by_depth):
        self.rng = rng
        self.pool = pool
        self.fanout_by_depth = fanout_by_depth
        self.root = [self._pick_pc(0), []]

    def _pick_pc(self, depth):
        # Frames near the root come from a small set of functions (main,
        # event loop, dispatchers) while leaves spread over the whole pool.
        span = min(len(self.pool), 40 + depth * len(self.pool) // 12)
        return self.pool[self.rng.randrange(span)]

    def walk(self, depth):
        """Return one root-to-leaf list of PCs of the given depth."""
        node = self.root
        pcs = [node[0]]
        for level in range(1, depth):
            fanout = self.fanout_by_depth(level)
            # Geometric choice: the first child is taken about half the
            # time, so popular paths dominate the way hot code does.
            idx = 0
            while idx + 1 < fanout and self.rng.random() < 0.45:
                idx += 1
            children = node[1]
            while len(children) <= idx:
                children.append([self._pick_pc(level), []])
            node = children[idx]
            pcs.append(node[0])
        return pcs


def fanout_for(level):
    if level < 3:
        return 1  # _start -> libc start -> main: always the same
    if level < 8:
        return 4
    return 3


def maps_text(binary=None):
    lines = []
    inode = 1000
    for start, end, offset, path in dict.fromkeys(MAPPINGS):
        inode += 17
        device = "08:01"
        if binary:
            # What a process on this machine would record of the real file:
            # symbolizers check that the file on disk is the one mapped.
            st = os.stat(binary)
            inode = st.st_ino
            device = "%02x:%02x" % (os.major(st.st_dev), os.minor(st.st_dev))
        lines.append("%x-%x r-xp %08x %s %-10d %s"
                     % (start, end, offset, device, inode, path))
    lines.append("7ffffffde000-7ffffffff000 rw-p 00000000 00:00 0          "
                 "[stack]")
    return ("\n".join(lines) + "\n").encode("ascii")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", nargs="?", default="/tmp/profdata-big.cpu")
    ap.add_argument("--records", type=int, default=500000)
    ap.add_argument("--depth", type=int, default=20)
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--stacks", type=int, default=20000,
                    help="distinct call chains to draw records from")
    ap.add_argument("--pcs", type=int, default=4000,
                    help="size of the PC pool")
    ap.add_argument("--binary", help="put every PC in this ELF file's text")
    args = ap.parse_args()
    if args.binary:
        global MAPPINGS
        start, end, offset, path = elf_text_mapping(args.binary)
        # The pool draws from start + 0x1000 on: the first page is usually PLT.
        MAPPINGS = [(start, end, offset, path)] * 4
    if args.records < 0 or not 1 <= args.depth <= 254:
        ap.error("need records >= 0 and 1 <= depth <= 254")

    rng = random.Random(args.seed)
    tree = CallTree(rng, make_pc_pool(rng, args.pcs), fanout_for)

    # Build the distinct chains first (leaf first, as the file wants them),
    # pre-packed so writing 500k records stays fast in Python.
    seen = {}
    tries = 0
    while len(seen) < args.stacks and tries < args.stacks * 50:
        tries += 1
        chain = tuple(reversed(tree.walk(args.depth)))
        if chain not in seen:
            seen[chain] = struct.pack("<%dQ" % args.depth, *chain)
    stacks = list(seen.values())
    distinct_pcs = len({pc for chain in seen for pc in chain})

    rec_head = struct.Struct("<QQ")
    total = 0
    used = set()
    with open(args.path, "wb") as out:
        out.write(struct.pack("<5Q", 0, 3, 0, PERIOD_US, 0))
        buf = []
        for _ in range(args.records):
            # Cubing a uniform number skews picks toward low indices: a few
            # chains get most records, a long tail gets one or two.
            which = int(len(stacks) * rng.random() ** 3)
            count = 1
            while count < 1000 and rng.random() < 0.3:
                count += rng.randrange(1, 8)
            total += count
            used.add(which)
            buf.append(rec_head.pack(count, args.depth))
            buf.append(stacks[which])
            if len(buf) >= 16384:
                out.write(b"".join(buf))
                buf.clear()
        out.write(b"".join(buf))
        out.write(struct.pack("<3Q", 0, 1, 0))
        out.write(maps_text(args.binary))
        size = out.tell()

    print("wrote %s: %d bytes, %d records of depth %d, %d distinct stacks "
          "used, %d distinct PCs, total samples %d"
          % (args.path, size, args.records, args.depth, len(used),
             distinct_pcs, total), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
