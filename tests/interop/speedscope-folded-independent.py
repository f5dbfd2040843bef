#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An independent reading of a speedscope file, for the speedscope reader's
tests: folded lines (root first, ';' between frame names, value), summed
per stack, sorted.

  speedscope-folded-independent.py FILE sampled N   weights of sampled profile N
  speedscope-folded-independent.py FILE evented     self time of every evented
                                                     profile's calls, in nanoseconds

Evented: an O opens a frame on its profile's stack, a C closes the innermost
open call of that frame (and the calls above it); a call's self time is its
duration less its callees'. Times are converted to nanoseconds from the
profile's unit ("none" is taken as nanoseconds).
"""
import json
import sys

NS = {"none": 1, "nanoseconds": 1, "microseconds": 1e3, "milliseconds": 1e6, "seconds": 1e9, "bytes": 1}


def clean(name):
    return name.replace(";", "_").replace("\n", "_").replace("\r", "_")


def evented(doc, frames, out):
    for p in doc["profiles"]:
        if p["type"] != "evented":
            continue
        scale = NS[p["unit"]]
        stack = []  # [frame, start, callee time]
        for e in p["events"]:
            at = e["at"] * scale
            if e["type"] == "O":
                stack.append([e["frame"], at, 0.0])
                continue
            if not any(s[0] == e["frame"] for s in stack):
                continue
            while True:
                f, start, callees = stack.pop()
                key = ";".join(clean(frames[s[0]]) for s in stack + [[f]])
                out[key] = out.get(key, 0) + (at - start) - callees
                if stack:
                    stack[-1][2] += at - start
                if f == e["frame"]:
                    break


def main():
    doc = json.load(open(sys.argv[1], encoding="utf-8"))
    frames = [f["name"] for f in doc["shared"]["frames"]]
    out = {}
    if sys.argv[2] == "sampled":
        sampled = [p for p in doc["profiles"] if p["type"] == "sampled"]
        p = sampled[int(sys.argv[3])]
        for s, w in zip(p["samples"], p["weights"]):
            key = ";".join(clean(frames[i]) for i in s) or "[empty]"
            out[key] = out.get(key, 0) + w
    else:
        evented(doc, frames, out)
    for line in sorted("%s %d" % (k, round(v)) for k, v in out.items() if round(v) != 0):
        print(line)


main()
