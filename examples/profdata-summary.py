#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What a profile holds, through the Python binding:
a heap dump's top classes by shallow bytes, or a CPU profile's hottest
stacks in folded form (root;...;leaf count), the form flamegraph.pl reads.

    python3 examples/profdata-summary.py dump.hprof.gz [N]
    python3 examples/profdata-summary.py cpu.prof [N]
"""
import collections
import sys
from typing import Counter, List

import profdata


def top_classes(path: str, n: int) -> None:
    rows = profdata.histogram(path)
    print("%12s %14s  %s" % ("instances", "bytes", "class"))
    for row in rows[:n]:
        print("%12d %14d  %s" % (row.instances, row.bytes, row.name))
    print("%12d %14d  (%d classes)" % (sum(r.instances for r in rows), sum(r.bytes for r in rows), len(rows)))


def folded_stacks(profile: profdata.Profile, n: int) -> None:
    stacks = {s.serial: s for s in profile.stacks()}
    counts: Counter[str] = collections.Counter()
    for sample in profile.samples():
        frames = stacks[sample.stack_serial].frames
        names = [f.function or ("0x%x" % f.address if f.address is not None else "?") for f in frames]
        counts[";".join(reversed(names))] += sample.values[0] if sample.values else 1
    for stack, count in counts.most_common(n):
        print("%s %d" % (stack, count))


def main(argv: List[str]) -> int:
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    n = int(argv[2]) if len(argv) > 2 else 10
    try:
        with profdata.open(argv[1]) as profile:
            kind = "heap" if profile.count("objects") else "cpu" if profile.count("samples") else None
            if kind == "cpu":
                folded_stacks(profile, n)
        if kind == "heap":
            top_classes(argv[1], n)  # streaming: a second pass costs no model memory
        elif kind is None:
            print("%s: neither objects nor samples" % argv[1], file=sys.stderr)
            return 1
    except (OSError, profdata.Error) as e:
        print("profdata-summary: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
