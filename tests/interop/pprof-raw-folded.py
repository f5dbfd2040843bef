#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reads `go tool pprof -raw` output (stdin) and prints what it says about the
samples, in forms our own output can be compared with:

  pprof-raw-folded.py folded N   folded stacks of value N (root first, ';'
                                  between function names, inlined calls as
                                  frames), summed per stack, zeros left out,
                                  sorted
  pprof-raw-folded.py samples    every sample as "values | stack | labels",
                                  sorted: a reading that ignores location and
                                  string numbering, for pprof -> pprof
  pprof-raw-folded.py types      the sample types, one per line
"""
import re
import sys


def parse(text):
    types, samples, locations = [], [], {}
    section = None
    current = None
    for line in text.splitlines():
        if line in ("Samples:", "Locations", "Mappings"):
            section = line
            continue
        if section == "Samples:":
            if not types:
                types = line.split()
                continue
            m = re.match(r"^\s+(-?\d+(?:\s+-?\d+)*):((?:\s+\d+)*)\s*$", line)
            if m:
                values = [int(v) for v in m.group(1).split()]
                locs = [int(x) for x in m.group(2).split()]
                samples.append([values, locs, ""])
            elif line.strip() and samples:
                samples[-1][2] += " " + line.strip()
        elif section == "Locations":
            m = re.match(r"^\s+(\d+): (0x[0-9a-f]+)(?: M=\d+)?\s*(.*)$", line)
            if m:
                current = int(m.group(1))
                locations[current] = [m.group(3)] if m.group(3) else []
            elif line.strip() and current is not None:
                locations[current].append(line.strip())
    return types, samples, locations


def name(line):
    # "func file:line s=N": the function; a function name may hold spaces (C++), the file does not
    parts = line.rsplit(" ", 2)
    return parts[0] if len(parts) == 3 and parts[2].startswith("s=") else line


def stack(locations, locs):
    frames = []
    for loc in locs:
        lines = locations.get(loc, [])
        frames.extend(name(l) for l in lines) if lines else frames.append("?")
    return frames


def main():
    types, samples, locations = parse(sys.stdin.read())
    if sys.argv[1] == "types":
        for t in types:
            print(t.split("/")[0])
    elif sys.argv[1] == "folded":
        n = int(sys.argv[2])
        sums = {}
        for values, locs, _ in samples:
            key = ";".join(reversed(stack(locations, locs)))
            sums[key] = sums.get(key, 0) + values[n]
        for key in sorted(sums):
            if sums[key]:
                print(key, sums[key])
    else:
        out = []
        for values, locs, labels in samples:
            out.append("%s | %s |%s" % (" ".join(map(str, values)), ";".join(stack(locations, locs)),
                                        " ".join(sorted(labels.split()))))
        print("\n".join(sorted(out)))


main()
