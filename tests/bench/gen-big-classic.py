#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write a large synthetic IBM classic heapdump (OpenJ9 layout) for benchmarks.

The default output (8,000,000 objects, 64-bit) is about 600 MB. The mix of
records imitates a server heap: strings with their char arrays, hash map
nodes, boxed values, object arrays of a few to a few hundred elements, byte
and int arrays, and a class section of 5,000 CLS records at the end, as
OpenJ9's writer puts it. The content is deterministic for a given seed and
set of options, so timings from different machines or commits compare the
same bytes.

Usage: gen-big-classic.py [PATH] [--objects N] [--seed S] [--word-size 4|8]
Prints the file size, record count and reference count.
"""

import argparse
import random
import sys

CLASSES = 5000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("path", nargs="?", default="big-classic.txt")
    ap.add_argument("--objects", type=int, default=8_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--word-size", type=int, choices=(4, 8), default=8)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    fmt = "0x%016X" if a.word_size == 8 else "0x%08X"
    base = 0x00000000F0000000 if a.word_size == 8 else 0x10000000
    names = ["com/example/app/Type%d" % i for i in range(CLASSES - 12)] + [
        "java/lang/String", "[C", "[B", "[I", "java/util/HashMap$Node", "[Ljava/util/HashMap$Node;",
        "java/lang/Integer", "[Ljava/lang/Object;", "java/util/ArrayList", "[[I", "java/lang/Object",
        "[Ljava/lang/String;"]
    class_addr = {n: 0x0000000000100000 + 0x200 * i for i, n in enumerate(names)}
    addr = base
    addrs = []
    nobj = nprim = narr = nref = nnull = 0
    out = open(a.path, "w", newline="")
    w = out.write
    w("// Version: JRE 17.0.8 Linux amd64-64-Bit Compressed References 20230718_000 (JIT enabled, AOT enabled)\n")
    buf = []
    for i in range(a.objects):
        r = rnd.random()
        refs = []
        if r < 0.25:
            t, size = "java/lang/String", 24
            refs = [addr + 24]
        elif r < 0.50:
            t, size = "[C", 16 + 2 * rnd.randint(4, 60)
        elif r < 0.65:
            t, size = "java/util/HashMap$Node", 32
            refs = [rnd.choice(addrs) for _ in range(3)] if len(addrs) > 8 else []
            nnull += 1
        elif r < 0.72:
            t, size = "java/lang/Integer", 16
        elif r < 0.78:
            n = rnd.randint(1, 16) if rnd.random() < 0.95 else rnd.randint(17, 400)
            t = rnd.choice(["[Ljava/lang/Object;", "[Ljava/util/HashMap$Node;", "[Ljava/lang/String;"])
            size = 16 + 8 * n
            refs = [rnd.choice(addrs) for _ in range(n)] if len(addrs) > 8 else []
        elif r < 0.84:
            t, size = rnd.choice(["[B", "[I"]), 16 + 8 * rnd.randint(1, 64)
        elif r < 0.86:
            t, size = "[[I", 24
            refs = [rnd.choice(addrs)] if addrs else []
        else:
            t = names[rnd.randrange(CLASSES - 12)]
            size = 16 + 8 * rnd.randint(0, 6)
            refs = [rnd.choice(addrs) for _ in range(rnd.randint(0, 4))] if len(addrs) > 8 else []
        if t[0] != "[":
            nobj += 1
        elif len(t) == 2:
            nprim += 1
        else:
            narr += 1
        nref += len(refs)
        buf.append("%s [%d] OBJ %s\n\t%s\n" % (fmt % addr, size, t, "".join(fmt % x + " " for x in refs)))
        if len(addrs) < 100000 or rnd.random() < 0.01:
            if len(addrs) < 100000:
                addrs.append(addr)
            else:
                addrs[rnd.randrange(len(addrs))] = addr
        addr += (size + 7) & ~7
        if len(buf) >= 10000:
            w("".join(buf))
            buf = []
    for n in names:
        refs = [rnd.choice(addrs) for _ in range(rnd.randint(0, 3))]
        nref += len(refs)
        buf.append("%s [%d] CLS %s\n\t%s\n" % (fmt % class_addr[n], 100 + 8 * len(refs), n,
                                              "".join(fmt % x + " " for x in refs)))
    w("".join(buf))
    total = a.objects + CLASSES
    w("// Breakdown - Classes: %d, Objects: %d, ObjectArrays: %d, PrimitiveArrays: %d\n" % (CLASSES, nobj, narr, nprim))
    w("// EOF:  Total 'Objects',Refs(null) : %d,%d(%d)\n" % (total, nref + nnull, nnull))
    size = out.tell()
    out.close()
    print("%s: %d bytes, %d records, %d references" % (a.path, size, total, nref), file=sys.stderr)


if __name__ == "__main__":
    main()
