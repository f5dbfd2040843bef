#!/usr/bin/env python3
"""Writes the synthetic HPROF fixtures in this directory, from the format
document (shared/specs/hprof.txt) and the Android notes, independently of
the library's encoder.

They hold what today's JDK no longer writes: the old profiling agent's
records, 4-byte identifiers, Android 1.0.3 sub-records in many tiny
segments, several dumps in one file and unknown top-level tags.

Usage: make-synthetic.py [OUTPUT_DIR]
Writes the .hprof files and expected-counts.txt ("file key value" lines:
what a reader must find in each file). The output is deterministic.
"""
import os
import struct
import sys

# Basic types: code -> (name, size in bytes; 0 means identifier size)
TYPES = {2: ("object", 0), 4: ("boolean", 1), 5: ("char", 2), 6: ("float", 4),
         7: ("double", 8), 8: ("byte", 1), 9: ("short", 2), 10: ("int", 4), 11: ("long", 8)}


class Writer:
    def __init__(self, version, id_size, timestamp_ms):
        self.id_size = id_size
        self.out = bytearray(version.encode() + b"\0")
        self.out += struct.pack(">III", id_size, timestamp_ms >> 32, timestamp_ms & 0xFFFFFFFF)
        self.counts = {}
        self.classes = set()
        self.threads = set()

    def count(self, key, n=1):
        self.counts[key] = self.counts.get(key, 0) + n

    def id(self, v):
        return v.to_bytes(self.id_size, "big")

    def record(self, tag, body, time=0):
        self.out += struct.pack(">BII", tag, time, len(body)) + body

    def value(self, t, v):
        size = TYPES[t][1] or self.id_size
        return v.to_bytes(size, "big")

    # top-level records
    def string(self, sid, text):
        self.record(0x01, self.id(sid) + text.encode("utf-8"))
        self.count("strings")

    def load_class(self, serial, cid, trace, name_id, time=0):
        self.classes.add(cid)
        self.record(0x02, struct.pack(">I", serial) + self.id(cid) + struct.pack(">I", trace) + self.id(name_id), time)

    def unload_class(self, serial, time=0):
        self.record(0x03, struct.pack(">I", serial), time)
        self.count("unloads")

    def frame(self, fid, name, sig, src, class_serial, line):
        self.record(0x04, self.id(fid) + self.id(name) + self.id(sig) + self.id(src) +
                    struct.pack(">Ii", class_serial, line))
        self.count("frames")
        self.count("functions")

    def trace(self, serial, thread, frames):
        self.record(0x05, struct.pack(">III", serial, thread, len(frames)) + b"".join(self.id(f) for f in frames))
        self.count("stacks")

    def alloc_sites(self, flags, cutoff, live_b, live_i, alloc_b, alloc_i, sites, time=0):
        body = struct.pack(">HfIIQQI", flags, cutoff, live_b, live_i, alloc_b, alloc_i, len(sites))
        for s in sites:
            body += struct.pack(">BIIIIII", *s)
        self.record(0x06, body, time)
        self.count("alloc_sites")

    def heap_summary(self, live_b, live_i, alloc_b, alloc_i, time=0):
        self.record(0x07, struct.pack(">IIQQ", live_b, live_i, alloc_b, alloc_i), time)
        self.count("heap_summaries")

    def start_thread(self, serial, obj, trace, name, group, parent, time=0):
        self.threads.add(serial)
        self.record(0x0A, struct.pack(">I", serial) + self.id(obj) + struct.pack(">I", trace) +
                    self.id(name) + self.id(group) + self.id(parent), time)

    def end_thread(self, serial, time=0):
        self.threads.add(serial)
        self.record(0x0B, struct.pack(">I", serial), time)

    def cpu_samples(self, total, traces, time=0):
        body = struct.pack(">II", total, len(traces))
        for count, trace in traces:
            body += struct.pack(">II", count, trace)
        self.record(0x0D, body, time)
        self.count("sample_groups")
        self.count("samples", len(traces))

    def control_settings(self, flags, depth, time=0):
        self.record(0x0E, struct.pack(">IH", flags, depth), time)
        self.count("control_settings")

    def unknown(self, tag, body, time=0):
        self.record(tag, body, time)
        self.count("unknown")


class Heap:
    """Heap dump sub-records, as byte strings."""

    def __init__(self, w):
        self.w = w
        self.subs = []

    def add(self, b, key=None):
        self.subs.append(b)
        if key:
            self.w.count(key)

    def root(self, tag, obj, *rest):
        w = self.w
        b = bytes([tag]) + w.id(obj)
        if tag == 0x01:
            b += w.id(rest[0])
        elif tag in (0x02, 0x03, 0x08, 0x8E):
            b += struct.pack(">II", rest[0], rest[1])
        elif tag in (0x04, 0x06):
            b += struct.pack(">I", rest[0])
        self.add(b, "roots")

    def class_dump(self, cid, trace, super_id, loader, consts, statics, fields, instance_size):
        w = self.w
        w.classes.add(cid)
        b = bytes([0x20]) + w.id(cid) + struct.pack(">I", trace) + w.id(super_id) + w.id(loader)
        b += w.id(0) + w.id(0) + w.id(0) + w.id(0) + struct.pack(">I", instance_size)
        b += struct.pack(">H", len(consts))
        for idx, t, v in consts:
            b += struct.pack(">HB", idx, t) + w.value(t, v)
        b += struct.pack(">H", len(statics))
        for name, t, v in statics:
            b += w.id(name) + bytes([t]) + w.value(t, v)
        b += struct.pack(">H", len(fields))
        for name, t in fields:
            b += w.id(name) + bytes([t])
        self.add(b, "class_dumps")

    def instance(self, oid, trace, cid, values):
        w = self.w
        data = b"".join(w.value(t, v) for t, v in values)
        self.add(bytes([0x21]) + w.id(oid) + struct.pack(">I", trace) + w.id(cid) +
                 struct.pack(">I", len(data)) + data, "objects")

    def obj_array(self, oid, trace, cid, elems):
        w = self.w
        self.add(bytes([0x22]) + w.id(oid) + struct.pack(">II", trace, len(elems)) + w.id(cid) +
                 b"".join(w.id(e) for e in elems), "objects")

    def prim_array(self, oid, trace, t, elems):
        w = self.w
        self.add(bytes([0x23]) + w.id(oid) + struct.pack(">IIB", trace, len(elems), t) +
                 b"".join(w.value(t, e) for e in elems), "objects")

    def prim_array_nodata(self, oid, trace, t, length):
        self.add(bytes([0xC3]) + self.w.id(oid) + struct.pack(">IIB", trace, length, t), "objects")

    def heap_info(self, heap_id, name):
        self.add(bytes([0xFE]) + struct.pack(">I", heap_id) + self.w.id(name), "heap_infos")

    def write_heap_dump(self, time=0):
        """One HEAP DUMP (0x0C) record."""
        self.w.record(0x0C, b"".join(self.subs), time)
        self.w.count("dumps")
        self.subs = []

    def write_segments(self, per_segment, time=0):
        """HEAP DUMP SEGMENTs of at most per_segment sub-records, then HEAP DUMP END."""
        for i in range(0, len(self.subs), per_segment):
            self.w.record(0x1C, b"".join(self.subs[i:i + per_segment]), time)
            self.w.count("segments")
        self.w.record(0x2C, b"")
        self.w.count("dumps")
        self.subs = []


def common_strings(w, base):
    names = ["java/lang/Object", "java/lang/String", "[Ljava/lang/Object;", "Main", "main", "([Ljava/lang/String;)V",
             "Main.java", "value", "next", "count", "main-thread", "main-group", "system", "COUNT"]
    ids = {}
    for i, n in enumerate(names):
        ids[n] = base + i
        w.string(base + i, n)
    return ids


PRIM_ARRAYS = [(4, "[Z", "boolean[]"), (5, "[C", "char[]"), (6, "[F", "float[]"), (7, "[D", "double[]"),
               (8, "[B", "byte[]"), (9, "[S", "short[]"), (10, "[I", "int[]"), (11, "[J", "long[]")]


def prim_array_classes(w, sid_base, cls_base, serial_base, source_form):
    """LOAD CLASS records for the primitive array classes (readers such as
    VisualVM need them to type primitive arrays); returns their class ids."""
    ids = []
    for i, (_, internal, source) in enumerate(PRIM_ARRAYS):
        w.string(sid_base + i, source if source_form else internal)
        w.load_class(serial_base + i, cls_base + i, 0, sid_base + i)
        ids.append(cls_base + i)
    return ids


def heap_content(h, s, obj_base, with_android=False, array_classes=()):
    """Classes, roots and objects of every kind, shared by several files."""
    w = h.w
    for cid in array_classes:
        h.class_dump(cid, 0, obj_base + 1, 0, [], [], [], 0)
    cls_object, cls_main, cls_arr = obj_base + 1, obj_base + 2, obj_base + 3
    h.class_dump(cls_object, 0, 0, 0, [], [], [], 0)
    h.class_dump(cls_main, 1, cls_object, 0,
                 [(1, 10, 42), (2, 11, 1 << 40)],
                 [(s["COUNT"], 10, 7), (s["next"], 2, obj_base + 20), (s["value"], 7, 0x400921FB54442D18)],
                 [(s["value"], 10), (s["next"], 2), (s["count"], 11)],
                 4 + w.id_size + 8)
    h.class_dump(cls_arr, 0, cls_object, 0, [], [], [], 0)
    h.root(0xFF, obj_base + 20)
    h.root(0x01, obj_base + 20, 0x1234)
    h.root(0x02, obj_base + 21, 1, 0)
    h.root(0x03, obj_base + 21, 1, 2)
    h.root(0x04, obj_base + 22, 1)
    h.root(0x05, cls_main)
    h.root(0x06, obj_base + 23, 1)
    h.root(0x07, obj_base + 20)
    h.root(0x08, obj_base + 24, 1, 1)
    h.instance(obj_base + 20, 1, cls_main, [(10, 5), (2, obj_base + 21), (11, 99)])
    h.instance(obj_base + 21, 0, cls_main, [(10, 6), (2, 0), (11, 100)])
    h.obj_array(obj_base + 22, 0, cls_arr, [obj_base + 20, 0, obj_base + 21])
    h.obj_array(obj_base + 23, 0, cls_arr, [])
    h.prim_array(obj_base + 24, 0, 4, [1, 0, 1])
    h.prim_array(obj_base + 25, 0, 5, [0x48, 0x69])
    h.prim_array(obj_base + 26, 0, 6, [0x3F800000])
    h.prim_array(obj_base + 27, 0, 7, [0x3FF0000000000000, 0])
    h.prim_array(obj_base + 28, 0, 8, list(range(200)))
    h.prim_array(obj_base + 29, 0, 9, [0xFFFF, 1])
    h.prim_array(obj_base + 30, 0, 10, [1, 2, 3, 0x7FFFFFFF])
    h.prim_array(obj_base + 31, 0, 11, [1 << 63])
    h.prim_array(obj_base + 32, 0, 10, [])
    if with_android:
        h.heap_info(ord("Z"), s["system"])
        for tag in (0x89, 0x8A, 0x8B, 0x8C, 0x8D, 0x90):
            h.root(tag, obj_base + 20)
        h.root(0x8E, obj_base + 21, 1, 3)
        h.prim_array_nodata(obj_base + 40, 0, 10, 1000)
        h.heap_info(ord("A"), s["main"])
        h.prim_array_nodata(obj_base + 41, 0, 5, 7)
        h.instance(obj_base + 42, 0, cls_object, [])


def agent_id4():
    """The old JVMTI agent: 1.0.1, 4-byte ids, profiling records, two HEAP DUMPs."""
    w = Writer("JAVA PROFILE 1.0.1", 4, 1700000000123)
    w.control_settings(0x3, 4, time=1)
    s = common_strings(w, 1)
    w.load_class(1, 0x1001, 0, s["java/lang/Object"], time=10)
    w.load_class(2, 0x1002, 0, s["Main"], time=11)
    w.load_class(3, 0x1003, 0, s["[Ljava/lang/Object;"], time=12)
    w.load_class(4, 0x1004, 0, s["java/lang/String"], time=13)
    arrays = prim_array_classes(w, 0x100, 0x1100, 10, True)
    w.frame(0x500, s["main"], s["([Ljava/lang/String;)V"], s["Main.java"], 2, 17)
    w.frame(0x501, s["main"], s["([Ljava/lang/String;)V"], s["Main.java"], 2, -1)
    w.frame(0x502, s["main"], s["([Ljava/lang/String;)V"], 0, 2, -2)
    w.frame(0x503, s["main"], s["([Ljava/lang/String;)V"], 0, 2, -3)
    w.frame(0x504, s["main"], s["([Ljava/lang/String;)V"], 0, 2, 0)
    w.trace(1, 0, [])
    w.trace(2, 1, [0x500, 0x501])
    w.trace(3, 1, [0x502, 0x503, 0x504])
    w.start_thread(1, 0x2000, 2, s["main-thread"], s["main-group"], s["system"], time=20)
    w.start_thread(2, 0x2001, 0, s["main"], s["main-group"], 0, time=21)
    w.cpu_samples(12, [(10, 2), (2, 3)], time=100)
    w.alloc_sites(0x2, 0.0001, 1000, 10, 5000, 50,
                  [(0, 2, 2, 600, 6, 3000, 30), (10, 3, 3, 400, 4, 2000, 20)], time=200)
    w.heap_summary(1000, 10, 5000, 50, time=300)
    w.unload_class(4, time=350)
    h = Heap(w)
    heap_content(h, s, 0x1000, array_classes=arrays)
    h.write_heap_dump(time=400)
    w.cpu_samples(3, [(3, 2)], time=500)
    w.end_thread(2, time=600)
    h.root(0xFF, 0x1020)
    h.class_dump(0x1006, 1, 0x1001, 0, [], [], [(s["value"], 10)], 4)
    h.instance(0x1050, 0, 0x1006, [(10, 77)])
    h.prim_array(0x1051, 0, 8, [1, 2, 3])
    h.write_heap_dump(time=700)
    w.end_thread(1, time=800)
    w.count("sample_types")
    w.count("strings", 2)  # "samples" and "count", made up for the sample type
    return w


def android_tiny_segments():
    """Android ART: 1.0.3, 4-byte ids, Android sub-records, one sub-record per segment."""
    w = Writer("JAVA PROFILE 1.0.3", 4, 1600000000000)
    s = common_strings(w, 0x400000)
    w.load_class(1, 0x7001, 0, s["java/lang/Object"])
    w.load_class(2, 0x7002, 0, s["Main"])
    w.load_class(3, 0x7003, 0, s["[Ljava/lang/Object;"])
    arrays = prim_array_classes(w, 0x400100, 0x7100, 10, False)
    w.trace(1, 0, [])
    h = Heap(w)
    h.heap_info(ord("I"), s["system"])
    heap_content(h, s, 0x7000, with_android=True, array_classes=arrays)
    h.write_segments(1)
    return w


def multi_dump_id8():
    """1.0.2, 8-byte ids: three dumps (segmented, HEAP DUMP, segmented) and unknown tags."""
    w = Writer("JAVA PROFILE 1.0.2", 8, 1750000000000)
    s = common_strings(w, 0x7F0000000000)
    w.unknown(0x42, b"\x01\x02\x03 kept verbatim", time=5)
    w.load_class(1, 0x800001, 0, s["java/lang/Object"])
    w.load_class(2, 0x800002, 0, s["Main"])
    w.load_class(3, 0x800003, 0, s["[Ljava/lang/Object;"])
    arrays = prim_array_classes(w, 0x7F0000000100, 0x800100, 10, False)
    w.trace(1, 0, [])
    h = Heap(w)
    heap_content(h, s, 0x800000, array_classes=arrays)
    h.write_segments(7, time=9)
    w.unknown(0x99, b"", time=6)
    h.root(0x05, 0x800002)
    h.instance(0x900000, 0, 0x800001, [])
    h.write_heap_dump(time=10)
    h.root(0xFF, 0xFFFFFFFFFFF0)
    h.prim_array(0xFFFFFFFFFFF0, 0, 8, [7])
    h.write_segments(1, time=11)
    w.unknown(0xF0, bytes(range(256)), time=7)
    return w


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    files = {
        "agent-1.0.1-id4.hprof": agent_id4(),
        "android-1.0.3-tiny-segments.hprof": android_tiny_segments(),
        "multi-dump-1.0.2-id8.hprof": multi_dump_id8(),
    }
    lines = []
    for name, w in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(w.out)
        w.counts["classes"] = len(w.classes)
        w.counts["threads"] = len(w.threads)
        for key in sorted(w.counts):
            lines.append("%s %s %d" % (name, key, w.counts[key]))
    with open(os.path.join(out, "expected-counts.txt"), "w") as f:
        f.write("# file key count: what a reader must find (written by make-synthetic.py)\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
