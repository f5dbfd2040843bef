#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An independent reading of `perf script` output (stdin), written from what
perf prints rather than from our reader, to check it:

  perf-script-collapse.py folded [EVENT]   folded stacks (root first, ';'
        between function names, inlined calls as frames, a frame without a
        symbol as 0x and its address), one line per stack with its sample
        count, of the first event (or EVENT), sorted
  perf-script-collapse.py self             per leaf function, its share of
        the first event's periods in percent with two decimals, as
        `perf report --stdio --no-children --sort sym` prints them
  perf-script-collapse.py totals           per event: samples and periods
"""
import collections
import re
import sys

TIME = re.compile(r"^\d+\.\d+:$")


def samples(lines):
    """(event, period, [frame names leaf first]) per sample."""
    head, frames = None, []
    for line in lines + [""]:
        if line.startswith("\t"):
            frames.append(line.strip())
        elif line.startswith(" ") and head and " " not in line.strip().replace(" (inlined)", ""):
            continue  # a source line
        elif line.strip() == "" or not line.startswith("\t"):
            if head is not None:
                yield head[0], head[1], frames
                head, frames = None, []
            if line.strip() and not line.startswith("#"):
                head = header(line, frames)
    return


def header(line, frames):
    words = line.split()
    t = next(i for i, w in enumerate(words) if TIME.match(w))
    rest = words[t + 1:]
    period = 1
    if rest and rest[0].isdigit():
        period = int(rest.pop(0))
    event = rest.pop(0)[:-1] if rest and rest[0].endswith(":") else "event"
    if rest:
        frames.append(" ".join(rest))
    return event, period


def frame_name(text):
    addr, _, rest = text.partition(" ")
    m = re.match(r"^(.*?)\s*\((.*)\)$", rest)
    sym = m.group(1) if m else rest
    sym = re.sub(r"\+0x[0-9a-f]+$", "", sym)
    if sym in ("", "[unknown]"):
        return "0x" + addr.lstrip("0").lower() if addr.strip("0") else "0x0"
    return sym


def main():
    lines = sys.stdin.read().splitlines()
    all_samples = list(samples(lines))
    what = sys.argv[1]
    if what == "totals":
        n, p = collections.Counter(), collections.Counter()
        for e, period, _ in all_samples:
            n[e] += 1
            p[e] += period
        for e in n:
            print(e, n[e], p[e])
        return
    first = sys.argv[2] if len(sys.argv) > 2 else all_samples[0][0]
    chosen = [s for s in all_samples if s[0] == first]
    if what == "folded":
        stacks = collections.Counter(";".join(frame_name(f) for f in reversed(fr)) or "[empty]"
                                     for _, _, fr in chosen)
        for k in sorted(stacks):
            print(k, stacks[k])
    elif what == "self":
        total = sum(p for _, p, _ in chosen)
        leaf = collections.Counter()
        for _, p, fr in chosen:
            leaf[frame_name(fr[0]) if fr else "[empty]"] += p
        for k in sorted(leaf):
            print("%.2f%% %s" % (100.0 * leaf[k] / total, k))


main()
