#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Writes the small hand-made JFR recordings of this folder (README.md says
# what each holds): a chunk laid out as the JDK lays one out (header,
# metadata, events, the checkpoint last), its metadata naming only the types
# it uses, and broken variants of it for the reader's errors.
# Usage: make-synthetic.py [OUTDIR]   (default: this folder)
import os
import struct
import sys

# class ids
LONG, INT, BOOLEAN, STRING = 20, 21, 22, 23
THREAD, CLASS, METHOD, SYMBOL, TRACE, FRAME, LOOP = 30, 31, 32, 33, 34, 35, 60
SAMPLE, OTHER, OLD_SAMPLE = 100, 101, 102
OLD_OBJECT, REFERENCE, OLD_ARRAY, OLD_FIELD, GC_ROOT, ROOT_SYSTEM, ROOT_TYPE = 70, 71, 72, 73, 74, 75, 76


class Writer:
    def __init__(self, compressed):
        self.compressed = compressed

    def varint(self, v):
        v &= (1 << 64) - 1
        out = bytearray()
        for _ in range(8):
            if v < 0x80:
                out.append(v)
                return bytes(out)
            out.append((v & 0x7F) | 0x80)
            v >>= 7
        out.append(v & 0xFF)
        return bytes(out)

    def int(self, v, width=4):
        if self.compressed:
            return self.varint(v)
        return (v & ((1 << (8 * width)) - 1)).to_bytes(width, "big")

    def long(self, v):
        return self.int(v, 8)

    def utf8(self, s):
        b = s.encode("utf-8")
        return b"\x03" + self.int(len(b)) + b

    def latin1(self, s):
        b = s.encode("latin-1")
        return b"\x05" + self.int(len(b)) + b

    def chars(self, s):
        units = s.encode("utf-16-be")
        return b"\x04" + self.int(len(units) // 2) + b"".join(
            self.int(int.from_bytes(units[i:i + 2], "big"), 2) for i in range(0, len(units), 2))

    def pooled(self, index):
        return b"\x02" + self.long(index)

    def event(self, type_id, body):
        payload = self.long(type_id) + body
        if not self.compressed:
            return struct.pack(">i", 4 + len(payload)) + payload
        n = len(payload) + 1
        while len(self.varint(n)) + len(payload) != n:
            n = len(self.varint(n)) + len(payload)
        return self.varint(n) + payload


def field(name, cls, pool=False, dim=0):
    attrs = {"name": name, "class": str(cls)}
    if pool:
        attrs["constantPool"] = "true"
    if dim:
        attrs["dimension"] = str(dim)
    return ("field", attrs, [])


def cls(id_, name, fields=(), super_=None):
    attrs = {"id": str(id_), "name": name}
    if super_:
        attrs["superType"] = super_
    return ("class", attrs, list(fields))


def old_types():
    """jdk.OldObjectSample and its types, as JDK 17 declares them (modifiers as an int)."""
    return [
        cls(OLD_OBJECT, "jdk.types.OldObject", [field("address", LONG), field("type", CLASS, True),
                                                field("description", STRING), field("referrer", REFERENCE, True)]),
        cls(REFERENCE, "jdk.types.Reference", [field("array", OLD_ARRAY, True), field("field", OLD_FIELD, True),
                                               field("object", OLD_OBJECT, True), field("skip", INT)]),
        cls(OLD_ARRAY, "jdk.types.OldObjectArray", [field("size", INT), field("index", INT)]),
        cls(OLD_FIELD, "jdk.types.OldObjectField", [field("name", STRING), field("modifiers", INT)]),
        cls(GC_ROOT, "jdk.types.OldObjectGcRoot", [field("description", STRING), field("system", ROOT_SYSTEM, True),
                                                   field("type", ROOT_TYPE, True)]),
        cls(ROOT_SYSTEM, "jdk.types.OldObjectRootSystem", [field("system", STRING)]),
        cls(ROOT_TYPE, "jdk.types.OldObjectRootType", [field("type", STRING)]),
        cls(OLD_SAMPLE, "jdk.OldObjectSample",
            [field("startTime", LONG), field("eventThread", THREAD, True), field("stackTrace", TRACE, True),
             field("allocationTime", LONG), field("objectAge", LONG), field("lastKnownHeapUsage", LONG),
             field("object", OLD_OBJECT, True), field("arrayElements", INT), field("root", GC_ROOT, True)],
            "jdk.jfr.Event"),
    ]


def types(loop=False, old=False):
    t = [cls(LONG, "long"), cls(INT, "int"), cls(BOOLEAN, "boolean"), cls(STRING, "java.lang.String"),
         cls(THREAD, "java.lang.Thread", [field("osName", STRING), field("osThreadId", LONG),
                                          field("javaName", STRING), field("javaThreadId", LONG)]),
         cls(CLASS, "java.lang.Class", [field("name", SYMBOL, True)]),
         cls(METHOD, "jdk.types.Method", [field("type", CLASS, True), field("name", SYMBOL, True),
                                           field("descriptor", SYMBOL, True)]),
         cls(SYMBOL, "jdk.types.Symbol", [field("string", STRING)]),
         cls(TRACE, "jdk.types.StackTrace", [field("truncated", BOOLEAN), field("frames", FRAME, dim=1)]),
         cls(FRAME, "jdk.types.StackFrame", [field("method", METHOD, True), field("lineNumber", INT)]),
         cls(SAMPLE, "jdk.ExecutionSample", [field("startTime", LONG), field("sampledThread", THREAD, True),
                                             field("stackTrace", TRACE, True)], "jdk.jfr.Event"),
         cls(OTHER, "test.Other", [field("startTime", LONG), field("message", STRING)], "jdk.jfr.Event")]
    if loop:
        t.append(cls(LOOP, "test.Loop", [field("next", LOOP)]))
    return t + (old_types() if old else [])


def metadata(w, loop=False, old=False):
    strings = []

    def ix(s):
        if s not in strings:
            strings.append(s)
        return strings.index(s)

    def element(e):
        name, attrs, children = e
        out = w.int(ix(name)) + w.int(len(attrs))
        for k, v in attrs.items():
            out += w.int(ix(k)) + w.int(ix(v))
        out += w.int(len(children))
        for c in children:
            out += element(c)
        return out

    tree = element(("root", {}, [("metadata", {}, types(loop, old)), ("region", {"locale": "en_US"}, [])]))
    body = w.long(0) + w.long(0) + w.long(1) + w.int(len(strings)) + b"".join(w.utf8(s) for s in strings) + tree
    return w.event(0, body)


def pool(w, cls_id, entries):
    return w.long(cls_id) + w.int(len(entries)) + b"".join(w.long(k) + v for k, v in entries)


def trace(w, frames, count=None):
    out = b"\x00" + w.int(len(frames) if count is None else count)
    return out + b"".join(w.long(m) + w.int(line) for m, line in frames)


def checkpoint(w, extra=(), frames_count=None):
    pools = [
        pool(w, SYMBOL, [(1, w.utf8("com/example/Main")), (2, w.latin1("main")), (3, w.chars("work")),
                         (4, w.pooled(7)), (5, w.latin1("gr\u00fcn"))]),
        pool(w, STRING, [(7, w.utf8("()V"))]),
        pool(w, CLASS, [(10, w.long(1))]),
        pool(w, METHOD, [(20, w.long(10) + w.long(2) + w.long(4)), (21, w.long(10) + w.long(3) + w.long(4)),
                         (22, w.long(10) + w.long(5) + w.long(4))]),
        pool(w, TRACE, [(40, trace(w, [(21, 12), (20, 5)], frames_count)), (41, trace(w, [(22, 7), (20, 6)]))]),
        pool(w, THREAD, [(50, w.utf8("os-main") + w.long(1001) + w.utf8("main") + w.long(1))]),
    ] + list(extra)
    body = w.long(0) + w.long(0) + w.long(0) + b"\x00" + w.int(len(pools)) + b"".join(pools)
    return w.event(1, body)


def old_pools(w):
    """A path 0x3000 (a root) -> 0x2000 -> 0x1000, an object 0x4000 its own referrer, one of address 0."""
    obj = lambda address, class_index, referrer: w.long(address) + w.long(class_index) + b"\x00" + w.long(referrer)
    return [
        pool(w, SYMBOL, [(8, w.utf8("[B")), (9, w.utf8("java/util/HashMap")), (11, w.utf8("[Ljava/lang/Object;"))]),
        pool(w, CLASS, [(11, w.long(8)), (12, w.long(9)), (13, w.long(11))]),
        pool(w, OLD_OBJECT, [(1, obj(0x1000, 11, 1)), (2, obj(0x2000, 13, 2)), (3, obj(0x3000, 12, 0)),
                             (4, obj(0x4000, 12, 3)), (5, obj(0, 12, 0))]),
        pool(w, REFERENCE, [(1, w.long(1) + w.long(0) + w.long(2) + w.int(0)),
                            (2, w.long(0) + w.long(1) + w.long(3) + w.int(0)),
                            (3, w.long(0) + w.long(0) + w.long(4) + w.int(0))]),
        pool(w, OLD_ARRAY, [(1, w.int(4) + w.int(2))]),
        pool(w, OLD_FIELD, [(1, w.utf8("table") + w.int(2))]),
        pool(w, GC_ROOT, [(1, b"\x00" + w.long(1) + w.long(1))]),
        pool(w, ROOT_SYSTEM, [(1, w.utf8("Threads"))]),
        pool(w, ROOT_TYPE, [(1, w.utf8("Stack Variable"))]),
    ]


def old_samples(w):
    """Samples of 0x1000 (rooted), 0x4000 (no root), the object of address 0, then 0x2000 (met on the first path)."""
    sample = lambda obj, elements, root: w.event(OLD_SAMPLE, w.long(2500) + w.long(50) + w.long(41) + w.long(1500) +
                                                 w.long(1000) + w.long(1 << 20) + w.long(obj) + w.int(elements) +
                                                 w.long(root))
    return sample(1, 16, 1) + sample(4, (1 << 32) - 1, 0) + sample(5, 0, 0) + sample(2, 4, 1)


def chunk(compressed=True, loop=False, frames_count=None, events_extra=b"", old=False):
    w = Writer(compressed)
    meta = metadata(w, loop, old)
    events = b"".join(w.event(SAMPLE, w.long(2000 + i) + w.long(50) + w.long(40 if i < 2 else 41)) for i in range(3))
    events += w.event(OTHER, w.long(2100) + w.utf8("hello")) + w.event(OTHER, w.long(2200) + b"\x00")
    events += events_extra + (old_samples(w) if old else b"")
    extra = ([pool(w, LOOP, [(1, b"")])] if loop else []) + (old_pools(w) if old else [])
    cp = checkpoint(w, extra, frames_count)
    meta_at = 68
    cp_at = meta_at + len(meta) + len(events)
    size = cp_at + len(cp)
    header = b"FLR\x00" + struct.pack(">HHqqqqqqqi", 2, 0, size, cp_at, meta_at, 1700000000000000000,
                                      1000000000, 1000, 1000000000, 1 if compressed else 0)
    return header + meta + events + cp


def metadata_size_zero():
    """tiny.jfr with its metadata event's size, two varint bytes at byte 68, made 0 in two bytes."""
    data = bytearray(chunk())
    assert data[68] & 0x80 and not data[69] & 0x80
    data[68:70] = b"\x80\x00"
    return bytes(data)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    w = Writer(True)
    files = {
        "tiny.jfr": chunk(),
        "tiny-fixed.jfr": chunk(compressed=False),
        "two-chunks.jfr": chunk() + chunk(compressed=False),
        "second-chunk-cut.jfr": chunk() + chunk()[:200],
        "type-cycle.jfr": chunk(loop=True),
        "huge-array.jfr": chunk(frames_count=1 << 31),
        "unknown-type.jfr": chunk(events_extra=w.event(999, b"")),
        "event-past-chunk.jfr": chunk(events_extra=w.varint(100000) + w.long(OTHER)),
        # a size of 2 written in 3 bytes (a varint may carry zeros): the event ends inside its own size
        "event-shorter-than-size.jfr": chunk(events_extra=b"\x82\x80\x00" + w.long(OTHER)),
        "metadata-size-zero.jfr": metadata_size_zero(),
        "old-objects.jfr": chunk(old=True),
        # a fourth sample whose stackTrace is null (0), as the JDK writes with stackTrace=false
        "null-stack.jfr": chunk(events_extra=w.event(SAMPLE, w.long(2300) + w.long(50) + w.long(0))),
    }
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
