#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Helpers of jfr-oracle.sh.
#   summary SUMMARY INFO_JSON   `jfr summary`'s Count column (types with
#                               events) against `profdata info --json`'s
#                               events; prints the differences, exit 1 on any
#   helper-stacks HELPER_OUT    the "stack FRAMES N" lines as folded stacks
#   expected COLLAPSED OURS     another converter's collapsed stacks (frames
#                               `package/Class.method:line`, values in any
#                               unit) against our folded stacks: the same
#                               stacks, values in one ratio? Prints a line
#   settings HELPER INFO_JSON   the helper's settings equal to `profdata
#                               info --json`'s
#   frame-types JSON            `jfr print --json`'s jdk.ExecutionSample
#                               events as lines, sorted: the thread state,
#                               whether the stack is truncated, then each
#                               frame's class and method name, line and
#                               frame type
#   other-events JSON           `jfr print --json`'s other events, each as
#                               one line of JSON (keys sorted), sorted
#   counts SUMMARY              `jfr summary`'s Count column as "NAME N"
#                               lines (a name's rows summed), but for
#                               jdk.Metadata and jdk.CheckPoint
#   old-objects JSON CLASSIC    `jfr print --json`'s jdk.OldObjectSample
#                               events (each object and the objects of its
#                               path to a GC root) against our objects
#                               written as IBM classic text: the same
#                               addresses, classes and references
import json
import re
import sys


def summary_counts(summary_path):
    want = {}
    for line in open(summary_path, encoding="utf-8"):
        m = re.match(r"^ (\S+)\s+(\d+)\s+\d+\s*$", line)
        # a name stands twice when chunks number its type differently (recordings joined, JFR -> JFR)
        if m and int(m.group(2)) > 0:
            want[m.group(1)] = want.get(m.group(1), 0) + int(m.group(2))
    return want


def counts(summary_path):
    for name, n in sorted(summary_counts(summary_path).items()):
        if name not in ("jdk.Metadata", "jdk.CheckPoint"):
            print(name, n)
    return 0


def other_events(path):
    lines = [json.dumps(event, sort_keys=True) for event in json.load(open(path, encoding="utf-8"))["recording"]["events"]
             if event["type"] != "jdk.ExecutionSample"]
    for line in sorted(lines):
        print(line)
    return 0


def jdk_old_objects(json_path):
    """Each object of the samples' paths by address: its class, and (referrer, object) pairs."""
    with open(json_path) as f:
        events = json.load(f)["recording"]["events"]
    classes, refs = {}, set()
    for e in events:
        o, below = e["values"]["object"], None
        while o:
            classes.setdefault(o["address"], o["type"]["name"] if o["type"] else "?")
            if below is not None:
                refs.add((o["address"], below))
            below = o["address"]
            o = o["referrer"]["object"] if o["referrer"] else None
    return len(events), classes, refs


def classic_objects(path):
    """An IBM classic heapdump's OBJ records: class by address, and (object, reference) pairs."""
    classes, refs, at = {}, set(), None
    with open(path) as f:
        for line in f:
            words = line.split()
            if line.startswith("0x") and len(words) >= 4 and words[2] == "OBJ":
                at = int(words[0], 16)
                classes[at] = words[3]
            elif line.startswith("\t") and at is not None:
                refs.update((at, int(w, 16)) for w in words)
            else:
                at = None
    return classes, refs


def old_objects(json_path, classic_path):
    n, want_classes, want_refs = jdk_old_objects(json_path)
    got_classes, got_refs = classic_objects(classic_path)
    bad = [f"0x{a:x}: {want_classes.get(a)} vs {got_classes.get(a)}"
           for a in sorted(set(want_classes) | set(got_classes)) if want_classes.get(a) != got_classes.get(a)]
    bad += [f"reference 0x{a:x} -> 0x{b:x} only in the JDK's" for a, b in sorted(want_refs - got_refs)]
    bad += [f"reference 0x{a:x} -> 0x{b:x} only in ours" for a, b in sorted(got_refs - want_refs)]
    for line in bad[:10]:
        print(line)
    print(f"{n} samples, {len(want_classes)} objects, {len(want_refs)} references; {len(bad)} differences")
    return 1 if bad else 0


def summary(summary_path, info_path):
    want = summary_counts(summary_path)
    got = json.load(open(info_path, encoding="utf-8"))["events"]
    bad = 0
    for name in sorted(set(want) | set(got)):
        if want.get(name, 0) != got.get(name, 0):
            print(f"  {name}: jfr summary {want.get(name, 0)}, ours {got.get(name, 0)}")
            bad += 1
    print(f"{len(want)} event types, {sum(want.values())} events; {bad} differ")
    return 1 if bad else 0


def helper_stacks(path):
    for line in open(path, encoding="utf-8"):
        if line.startswith("stack "):
            print(line[6:], end="")
    return 0


def folded(path, convert):
    out = {}
    opener = open
    if path.endswith(".gz"):
        import gzip
        opener = gzip.open
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            # the other converter writes its values in brackets, "[v1 v2]": the first is kept
            line = line.rstrip("\n")
            if line.endswith("]"):
                stack, _, values = line[:-1].rpartition(" [")
                n = values.split()[0]
            else:
                stack, _, n = line.rpartition(" ")
            # its frames: lines dropped, "/" as ".", a frame of no class without its "."; lambda
            # classes as it names them ($$Lambda_, no number or address) on both sides
            if convert:
                stack = ";".join(re.sub(r":-?\d+$", "", fr).replace("/", ".").removeprefix(".")
                                 for fr in stack.split(";"))
            stack = re.sub(r"\$\$Lambda\$\d+(?:[./+]0x[0-9a-f]+)?", "$$Lambda_", stack)
            out[stack] = out.get(stack, 0) + int(n)
    return out


def settings(helper_path, info_path):
    want = {}
    for line in open(helper_path, encoding="utf-8"):
        if line.startswith("setting "):
            key, _, value = line[len("setting "):].rstrip("\n").partition("\t")
            want[key] = value
    got = json.load(open(info_path, encoding="utf-8")).get("settings", {})
    differ = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
    for k in differ[:5]:
        print(f"  {k}: RecordingFile {want.get(k)!r}, ours {got.get(k)!r}")
    print(f"{len(want)} settings; {len(differ)} differ")
    return 1 if differ or not want else 0


def frame_types(path):
    lines = []
    for event in json.load(open(path, encoding="utf-8"))["recording"]["events"]:
        trace = event["values"].get("stackTrace") or {"truncated": False, "frames": []}
        # a native frame's class is its library in async-profiler's recordings ("libc-2.17.so"): kept as it was
        frames = ["%s.%s:%s[%s]" % ((f["method"].get("type") or {}).get("name"), f["method"]["name"], f["lineNumber"],
                                    f["type"]) for f in trace["frames"]]
        lines.append("%s %s %s" % (event["values"].get("state"), "truncated" if trace["truncated"] else "whole",
                                   ";".join(frames)))
    for line in sorted(lines):
        print(line)
    return 0


def expected(collapsed, ours):
    want, got = folded(collapsed, True), folded(ours, False)
    total_w, total_g = sum(want.values()), sum(got.values())
    ratio = total_w / total_g if total_g else 0
    same = sum(1 for s in want if s in got and abs(want[s] - got[s] * ratio) <= max(1, 1e-9 * want[s]))
    only_w = sum(1 for s in want if s not in got)
    only_g = sum(1 for s in got if s not in want)
    print(f"{len(want)} stacks expected, {len(got)} ours; {same} equal at {ratio:g} per sample; "
          f"{only_w} only expected, {only_g} only ours")
    for s in sorted(s for s in want if s not in got)[:3]:
        print(f"    only expected: {s[:200]}")
    for s in sorted(s for s in got if s not in want)[:3]:
        print(f"    only ours:     {s[:200]}")
    return 0 if same == len(want) == len(got) else 1


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "summary":
        sys.exit(summary(sys.argv[2], sys.argv[3]))
    if cmd == "helper-stacks":
        sys.exit(helper_stacks(sys.argv[2]))
    if cmd == "settings":
        sys.exit(settings(sys.argv[2], sys.argv[3]))
    if cmd == "frame-types":
        sys.exit(frame_types(sys.argv[2]))
    if cmd == "other-events":
        sys.exit(other_events(sys.argv[2]))
    if cmd == "old-objects":
        sys.exit(old_objects(sys.argv[2], sys.argv[3]))
    if cmd == "counts":
        sys.exit(counts(sys.argv[2]))
    sys.exit(expected(sys.argv[2], sys.argv[3]))
