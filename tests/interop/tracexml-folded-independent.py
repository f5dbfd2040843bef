#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An independent reading of a TPTP trace's methodEntry/methodExit pairs as
folded call counts (Python's own XML parser, no libprofdata), for comparing
with `profdata convert --to folded`. Usage: tracexml-folded-independent.py TRACE.trcxml|TRACE.xml"""
import collections
import sys
import xml.etree.ElementTree as ET
import zipfile


def documents(path):
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            for name in z.namelist():
                if name.endswith(".xml"):
                    yield z.read(name)
    else:
        with open(path, "rb") as f:
            yield f.read()


def main():
    classes, methods, counts = {}, {}, collections.Counter()
    stacks = collections.defaultdict(list)
    for data in documents(sys.argv[1]):
        # The agent leaves the root open: close it for a parser that wants whole documents.
        text = data.decode("utf-8")
        if "</TRACE>" not in text:
            text += "</TRACE>"
        for el in ET.fromstring(text):
            a = el.attrib
            if el.tag == "classDef":
                classes[a["classId"]] = a.get("name", "")
            elif el.tag == "methodDef":
                name = a.get("name", "")
                name = {"-init-": "<init>", "-clinit-": "<clinit>"}.get(name, name)
                methods[a["methodId"]] = classes.get(a.get("classIdRef"), "") + "." + name
            elif el.tag == "methodEntry":
                stacks[a.get("threadIdRef")].append((a.get("ticket"), methods.get(a.get("methodIdRef"), "?")))
            elif el.tag == "methodExit":
                st = stacks[a.get("threadIdRef")]
                k = len(st)
                while k > 0 and st[k - 1][0] != a.get("ticket"):
                    k -= 1
                if k == 0:
                    continue
                while len(st) >= k:
                    counts[";".join(m for _, m in st)] += 1
                    st.pop()
    for st in stacks.values():
        while st:
            counts[";".join(m for _, m in st)] += 1
            st.pop()
    for chain, n in sorted(counts.items()):
        print(chain, n)


main()
