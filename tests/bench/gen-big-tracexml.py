#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a big trace in TPTP's agent layout (one line after the declaration and
<TRACE>, no closing tag) for tests/bench/run.sh: tracexml.

Usage: gen-big-tracexml.py OUT [MEGABYTES]  (default 1000)

The trace has the agent's context (node, process, agent, traceStart, options),
16 threads, 400 classes and 4000 methods, then methodEntry/methodExit pairs as
the agent writes them (ticket, stackDepth, overhead), nested up to 40 deep in a
pseudo-random walk whose callees follow from their callers (mostly one, at
times one of two others): the distinct stacks stay in the thousands however
long the trace, as in real traces (statechum_part1: 1,810 for 21,812 calls)."""
import random
import sys

out = sys.argv[1]
target = int(sys.argv[2] if len(sys.argv) > 2 else 1000) * 1000 * 1000
rng = random.Random(20070212)
NODE, PROC, AGENT, TRACE = ("UUID-1171275307-465002-93725991-%d" % i for i in range(4))

with open(out, "w", buffering=1 << 20) as f:
    head = ['<?xml version="1.0"?>\n<TRACE>\n',
            f'<node nodeId="{NODE}" hostname="bench" ipaddress="127.0.0.1" timezone="0" time="1171278538.375000000"/>',
            f'<processCreate processId="{PROC}" pid="1" nodeIdRef="{NODE}" time="1171278538.375000000"/>',
            f'<agentCreate agentId="{AGENT}" version="1.000" processIdRef="{PROC}" agentName="Java Profiling Agent" agentType="Profiler" time="1171278538.375000000"/>',
            f'<traceStart traceId="{TRACE}" agentIdRef="{AGENT}" time="1171278545.203125000"/>',
            '<option key="TICKET" value="true"/>']
    for t in range(1, 17):
        head.append(f'<threadStart threadId="{t}" time="1171278545.210937500" threadName="Thread-{t}" groupName="main" parentName="system" objIdRef="0"/>')
    for c in range(400):
        head.append(f'<classDef threadIdRef="1" name="com.example.pkg{c % 20}.Class{c}" sourceName="Class{c}.java" classId="{10000 + c}" objIdRef="{20000 + c}" time="1171278546.933593750"/>')
    for m in range(4000):
        head.append(f'<methodDef name="method{m}" signature="(I)V" startLineNumber="{m % 500 + 1}" endLineNumber="{m % 500 + 9}" methodId="{30000 + m}" classIdRef="{10000 + m % 400}"/>')
    f.write("".join(head))
    written = sum(len(h) for h in head)
    ticket, sec, ns = 1, 1171278546, 0
    stacks = {t: [] for t in range(1, 17)}
    # The walk: on each thread, enter a method chosen from a small set per depth, or leave.
    while written < target:
        parts = []
        for _ in range(20000):
            t = rng.randint(1, 16)
            st = stacks[t]
            ns += rng.randint(1000, 400000)
            if ns >= 1000000000:
                sec, ns = sec + ns // 1000000000, ns % 1000000000
            if st and (len(st) >= 40 or rng.random() < 0.52):
                m, tk = st.pop()
                parts.append(f'<methodExit threadIdRef="{t}" methodIdRef="{30000 + m}" classIdRef="{10000 + m % 400}" ticket="{tk}" time="{sec}.{ns:09d}" overhead="0.000013999"/>')
            else:
                # Callees follow from the caller, mostly the same one: a call tree with few branches.
                r = rng.random()
                parent = st[-1][0] if st else t
                m = (parent * 31 + len(st) * 7 + (0 if r < 0.97 else 1 if r < 0.995 else 2)) % 4000
                st.append((m, ticket))
                parts.append(f'<methodEntry threadIdRef="{t}" time="{sec}.{ns:09d}" methodIdRef="{30000 + m}" classIdRef="{10000 + m % 400}" ticket="{ticket}" stackDepth="{len(st)}"/>')
                ticket += 1
        chunk = "".join(parts)
        f.write(chunk)
        written += len(chunk)
