#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Collapse the HPROF agent's text output (CPU SAMPLES or CPU TIME) into folded stacks.

An independent reading, for comparison with `profdata convert --to folded`:
it shares no code with the library. A TRACE's frames are
"Class.method(Source:Line)", leaf first; a folded line is root first,
"Class.method" joined by ';', then the value. CPU SAMPLES gives each trace
its count; CPU TIME gives it its share of the stated total in milliseconds,
rounded half up from the hundredths of a percent printed (the agent printed
decimal commas in some locales). A trace without frames is "[empty]", as
the library names an empty stack. Equal stacks are summed; zeros left out.

Usage: hprof-text-folded.py FILE  (folded lines on stdout, sorted)
"""
import re
import sys


def frame_name(text):
    return text[: text.rindex("(")] if "(" in text else text


def read(path):
    traces, samples = {}, {}
    current, table, total = None, None, 0
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for raw in f:
            line = raw.rstrip("\n")
            m = re.match(r"TRACE (\d+):", line)
            if m:
                current = traces.setdefault(int(m.group(1)), [])
                continue
            if current is not None and line[:1] in ("\t", " ") and table is None:
                text = line.strip()
                if text != "<empty>":
                    current.append(frame_name(text))
                continue
            current = None
            m = re.match(r"CPU (SAMPLES|TIME \(ms\)) BEGIN \(total = (\d+)\)", line)
            if m:
                table, total = ("samples" if m.group(1) == "SAMPLES" else "times"), int(m.group(2))
                continue
            if line.startswith("CPU SAMPLES END") or line.startswith("CPU TIME (ms) END"):
                table = None
                continue
            if table:
                m = re.match(r"\s*\d+\s+(\d+)[.,](\d\d)%\s+\S+%\s+(\d+)\s+(\d+)\s", line)
                if not m:
                    continue
                hundredths = int(m.group(1)) * 100 + int(m.group(2))
                value = int(m.group(3)) if table == "samples" else (hundredths * total + 5000) // 10000
                samples[int(m.group(4))] = samples.get(int(m.group(4)), 0) + value
    return traces, samples


def main():
    traces, samples = read(sys.argv[1])
    folded = {}
    for serial, value in samples.items():
        frames = traces[serial]
        key = ";".join(reversed(frames)) if frames else "[empty]"
        folded[key] = folded.get(key, 0) + value
    out = sys.stdout.buffer
    for key in sorted(k for k in folded if folded[k]):
        out.write(key.encode("utf-8", "surrogateescape") + b" " + str(folded[key]).encode() + b"\n")


main()
