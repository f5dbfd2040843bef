#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Rewrites a JDK HPROF heap dump into the layout Android's runtime (ART)
writes, so that the heap analysis can be compared with VisualVM's on it
(heap-visualvm.sh).

    hprof-art-layout.py [--jni-monitor] [--unreachable] IN.hprof OUT.hprof

What it changes (facts from ART's runtime/hprof/hprof.cc; the choices of
which object goes where are ours, deterministic, so a rerun writes the
same bytes):

- Header `JAVA PROFILE 1.0.3`; identifier size, time stamp and every
  top-level record other than the heap dump are kept as they are, and
  three STRING records, "image", "zygote" and "app" (the heap names), come
  first, with ids past the largest string id of the input.
- Each dump (a HEAP DUMP record, or HEAP DUMP SEGMENTs up to HEAP DUMP END)
  is written again as ART does: HEAP DUMP SEGMENTs of at most 128
  sub-records or 4096 bytes (a sub-record starts a new segment once either
  is reached), the GC roots first, then the objects and classes, in the
  input's order, then HEAP DUMP END.
- HEAP DUMP INFO (0xFE: u4 heap id, string id of its name) comes before an
  object whose heap differs from the current one; a new segment resets the
  current heap to the default (0), so the next object repeats it. Heaps, by
  position among the dump's N objects and classes: the first quarter is the
  boot image ('I'), up to 60 % the zygote ('Z'), the rest the application
  ('A'), where every 7th object goes back to the zygote.
- Roots, in the input's order, with ART's kinds replacing some of them:
  JNI GLOBAL k (counted from 0) stays when k % 5 is 0 and becomes VM
  INTERNAL (0x8D), DEBUGGER (0x8B), FINALIZING (0x8A) or REFERENCE CLEANUP
  (0x8C) for k % 5 = 1, 2, 3, 4 (ART's root visitor names dex caches and
  the like VM internal; finalizing and reference cleanup are Dalvik's
  kinds, obsolete in ART); every other root is kept. One INTERNED STRING
  root (0x89) per 4th java.lang.String instance (ART's intern table) comes
  before the first STICKY CLASS root, as ART visits its intern table
  before its class linker, after the threads and JNI globals.
- --jni-monitor: also a JNI MONITOR root (0x8E) per MONITOR USED root, as
  ART writes it: object id, u4 thread serial, u4 frame (-1). VisualVM's
  heap library reads 0x8E as an object id alone, so it cannot read such a
  file.
- --unreachable: also an UNREACHABLE record (0x90, Dalvik's, obsolete in
  ART: object id alone) per 50th instance.
"""
import struct
import sys

ROOT_SIZES = {0xFF: 1, 0x01: 2, 0x02: None, 0x03: None, 0x04: 0, 0x05: 1, 0x06: 0, 0x07: 1, 0x08: None,
              0x89: 1, 0x8A: 1, 0x8B: 1, 0x8C: 1, 0x8D: 1, 0x8E: None, 0x90: 1}
TYPE_SIZES = {2: 0, 4: 1, 5: 2, 6: 4, 7: 8, 8: 1, 9: 2, 10: 4, 11: 8}
GLOBAL_KINDS = (0x01, 0x8D, 0x8B, 0x8A, 0x8C)
MAX_SUBRECORDS, MAX_BYTES = 128, 4096


class Dump:
    """One heap dump's sub-records: roots and objects, as (tag, bytes)."""

    def __init__(self):
        self.roots = []
        self.objects = []


def root_length(tag, ids):
    """Bytes after the tag of a root sub-record: ids, then u4s."""
    n = ROOT_SIZES[tag]
    if n is None:           # id, u4, u4
        return ids + 8
    if n == 0:              # id, u4
        return ids + 4
    return n * ids


def subrecord_length(body, q, ids):
    tag = body[q]
    p = q + 1
    if tag in ROOT_SIZES:
        return 1 + root_length(tag, ids)
    if tag == 0x20:          # CLASS DUMP
        p += 7 * ids + 8
        (n,) = struct.unpack_from(">H", body, p)
        p += 2
        for _ in range(n):
            t = body[p + 2]
            p += 3 + (TYPE_SIZES[t] or ids)
        (n,) = struct.unpack_from(">H", body, p)
        p += 2
        for _ in range(n):
            t = body[p + ids]
            p += ids + 1 + (TYPE_SIZES[t] or ids)
        (n,) = struct.unpack_from(">H", body, p)
        return p + 2 + n * (ids + 1) - q
    if tag == 0x21:          # INSTANCE DUMP
        (n,) = struct.unpack_from(">I", body, p + 2 * ids + 4)
        return 1 + 2 * ids + 8 + n
    if tag == 0x22:          # OBJECT ARRAY DUMP
        (n,) = struct.unpack_from(">I", body, p + ids + 4)
        return 1 + 2 * ids + 8 + n * ids
    if tag == 0x23:          # PRIMITIVE ARRAY DUMP
        n, t = struct.unpack_from(">IB", body, p + ids + 4)
        return 1 + ids + 9 + n * (TYPE_SIZES[t] or ids)
    if tag == 0xFE:          # HEAP DUMP INFO
        return 1 + 4 + ids
    raise ValueError("unknown heap dump sub-record 0x%02x at %d" % (tag, q))


def read_dump_body(dump, body, ids):
    q = 0
    while q < len(body):
        n = subrecord_length(body, q, ids)
        sub = (body[q], bytes(body[q:q + n]))
        (dump.roots if body[q] in ROOT_SIZES else dump.objects).append(sub)
        q += n


class Writer:
    def __init__(self, ids):
        self.ids = ids
        self.out = bytearray()

    def id(self, v):
        return v.to_bytes(self.ids, "big")

    def record(self, tag, body):
        self.out += struct.pack(">BII", tag, 0, len(body)) + body


def art_roots(dump, ids, string_class, options):
    """The dump's roots with ART's kinds, then the added ones."""
    roots, interned, globals_seen, strings_seen = [], [], 0, 0
    for tag, sub in dump.roots:
        if tag == 0x01:
            kind = GLOBAL_KINDS[globals_seen % 5]
            globals_seen += 1
            sub = sub if kind == 0x01 else bytes([kind]) + sub[1:1 + ids]
        roots.append(sub)
        if tag == 0x07 and options["jni-monitor"]:
            roots.append(bytes([0x8E]) + sub[1:1 + ids] + struct.pack(">Ii", 1, -1))
    instances = 0
    for tag, sub in dump.objects:
        if tag != 0x21:
            continue
        if string_class is not None and sub[1 + ids + 4:1 + 2 * ids + 4] == string_class:
            if strings_seen % 4 == 0:
                interned.append(bytes([0x89]) + sub[1:1 + ids])
            strings_seen += 1
        if options["unreachable"] and instances % 50 == 0:
            roots.append(bytes([0x90]) + sub[1:1 + ids])
        instances += 1
    sticky = next((k for k, sub in enumerate(roots) if sub[0] == 0x05), len(roots))
    return roots[:sticky] + interned + roots[sticky:]


def heap_of(i, n):
    if 4 * i < n:
        return ord("I")
    if 10 * i < 6 * n or i % 7 == 0:
        return ord("Z")
    return ord("A")


def write_dump(w, dump, names, string_class, options):
    segment = bytearray()
    count = 0
    heap = 0

    def flush():
        nonlocal segment, count, heap
        if count:
            w.record(0x1C, bytes(segment))
        segment, count, heap = bytearray(), 0, 0

    def add(sub):
        nonlocal count
        if count >= MAX_SUBRECORDS or len(segment) >= MAX_BYTES:
            flush()
        segment.extend(sub)
        count += 1

    for sub in art_roots(dump, w.ids, string_class, options):
        add(sub)
    n = len(dump.objects)
    for i, (_, sub) in enumerate(dump.objects):
        want = heap_of(i, n)
        if count >= MAX_SUBRECORDS or len(segment) >= MAX_BYTES:
            flush()
        if want != heap:
            segment.extend(bytes([0xFE]) + struct.pack(">I", want) + w.id(names[want]))
            heap = want
        add(sub)
    flush()
    w.record(0x2C, b"")


def main(argv):
    options = {"jni-monitor": False, "unreachable": False}
    args = []
    for a in argv[1:]:
        if a.startswith("--") and a[2:] in options:
            options[a[2:]] = True
        else:
            args.append(a)
    if len(args) != 2:
        sys.stderr.write("usage: hprof-art-layout.py [--jni-monitor] [--unreachable] IN.hprof OUT.hprof\n")
        return 2
    data = open(args[0], "rb").read()
    nul = data.index(b"\0")
    ids, hi, lo = struct.unpack_from(">III", data, nul + 1)
    records = []
    p = nul + 13
    while p + 9 <= len(data):
        tag, _, length = struct.unpack_from(">BII", data, p)
        records.append((tag, data[p + 9:p + 9 + length], data[p:p + 9 + length]))
        p += 9 + length

    strings, max_string, string_class = {}, 0, None
    for tag, body, _ in records:
        if tag == 0x01:
            sid = int.from_bytes(body[:ids], "big")
            strings[sid] = body[ids:]
            max_string = max(max_string, sid)
    for tag, body, _ in records:
        if tag == 0x02 and strings.get(int.from_bytes(body[8 + ids:8 + 2 * ids], "big")) == b"java/lang/String":
            string_class = body[4:4 + ids]

    w = Writer(ids)
    w.out += b"JAVA PROFILE 1.0.3\0" + struct.pack(">III", ids, hi, lo)
    names = {}
    for k, name in enumerate((b"image", b"zygote", b"app")):
        names[name[0] - 32] = max_string + 1 + k
        w.record(0x01, w.id(max_string + 1 + k) + name)
    dump = None
    for tag, body, raw in records:
        if tag == 0x0C:
            one = Dump()
            read_dump_body(one, body, ids)
            write_dump(w, one, names, string_class, options)
        elif tag == 0x1C:
            dump = dump or Dump()
            read_dump_body(dump, body, ids)
        elif tag == 0x2C:
            if dump:
                write_dump(w, dump, names, string_class, options)
            dump = None
        else:
            w.out += raw
    if dump:
        write_dump(w, dump, names, string_class, options)
    with open(args[1], "wb") as f:
        f.write(w.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
