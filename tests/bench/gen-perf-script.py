#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a large `perf script` text (default fields over perf record -g) or
folded stacks, for timing the text readers:

  gen-perf-script.py perf OUT --mb 220     samples of 8 threads, 3,000 call
        paths 6-40 frames deep over 20,000 symbols in 30 DSOs (kernel frames
        at the leaf end of a tenth of them), the leaf at one of 4 offsets
  gen-perf-script.py folded OUT --mb 220   folded stacks of the same paths,
        a line per path with a suffix of 4 on each
        frame: nearly every line a chain of its own, as collapsed files are
  gen-perf-script.py tree OUT --mb 220     folded stacks of one program's
        call tree, in the order stackcollapse scripts write them (sorted):
        5,000 Java-like method names, chains 8-64 deep, each line keeping
        most of the line before it (a shared prefix) and a new tail

Deterministic (a fixed seed), so that figures from two runs compare.
"""
import argparse
import random


def paths(rng):
    dsos = ["/usr/lib/x86_64-linux-gnu/lib%s.so.%d" % (n, i % 3) for i, n in enumerate(
        ["c", "m", "stdc++", "ssl", "crypto", "z", "pthread", "gtk-3", "glib-2.0", "xml2"] * 3)]
    dsos[0] = "/usr/bin/server"
    syms = []
    for i in range(20000):
        dso = dsos[i % len(dsos)]
        name = rng.choice(["handle", "parse", "encode", "std::vector<int>::push_back(int const&)", "run",
                           "do_work", "alloc", "hash_lookup"]) + "_%d" % i
        syms.append((rng.randrange(0x1000, 0x4000000), name, dso))
    kernel = [(0xffffffff81000000 + rng.randrange(0x1000000), k, "[kernel.kallsyms]")
              for k in ["do_syscall_64", "entry_SYSCALL_64_after_hwframe", "__x64_sys_read", "vfs_read",
                        "ksys_read", "schedule", "__schedule", "asm_exc_page_fault"]]
    out = []
    for _ in range(3000):
        depth = rng.randrange(6, 40)
        path = [rng.choice(syms) for _ in range(depth)]  # leaf first
        if rng.random() < 0.1:
            path = [rng.choice(kernel) for _ in range(rng.randrange(2, 7))] + path
        out.append(path)
    return out


def write_perf(f, rng, ps, size):
    written, t = 0, 1000.0
    weights = [1.0 / (i + 1) for i in range(len(ps))]
    while written < size:
        chunk = []
        for path in rng.choices(ps, weights, k=2000):
            t += 0.000251
            tid = 4000 + rng.randrange(8)
            chunk.append("server %d/%d %11.6f:     250000 cpu-clock:u: \n" % (4000, tid, t))
            for k, (addr, name, dso) in enumerate(path):
                # callers' frames are return addresses, one per call site; the leaf is where the clock hit
                off = (addr & 0xff) + (4 * rng.randrange(4) if k == 0 else 0)
                chunk.append("\t%16x %s+0x%x (%s)\n" % (addr + off, name, off, dso))
            chunk.append("\n")
        text = "".join(chunk)
        f.write(text)
        written += len(text)


def write_folded(f, rng, ps, size):
    written = 0
    while written < size:
        chunk = []
        for path in rng.choices(ps, k=2000):
            chunk.append(";".join("%s_%x" % (n, 4 * rng.randrange(4)) for _, n, _ in reversed(path)) +
                         " %d\n" % rng.randrange(1, 1000))
        text = "".join(chunk)
        f.write(text)
        written += len(text)


def write_tree(f, rng, size):
    pkgs = ["org.example.%s" % p for p in ["web", "db", "cache", "auth", "json", "io", "sched", "util"]]
    names = ["%s.%s%d.%s" % (rng.choice(pkgs), rng.choice(["Handler", "Service", "Pool", "Codec", "Queue"]), i % 97,
                             rng.choice(["run", "call", "apply", "get", "put", "encode", "decode", "lambda$0"]))
             for i in range(5000)]
    top = ["java.lang.Thread.run", "java.util.concurrent.ThreadPoolExecutor$Worker.run"]
    lines, written, prev = [], 0, top
    while written < size:
        keep = len(prev) - min(len(prev) - len(top), int(rng.expovariate(0.25)) + 1)
        depth = rng.randrange(max(keep + 1, 8), 65)
        prev = prev[:keep] + [rng.choice(names) for _ in range(depth - keep)]
        line = ";".join(prev) + " %d\n" % rng.randrange(1, 500)
        lines.append(line)
        written += len(line)
    lines.sort()
    f.write("".join(lines))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["perf", "folded", "tree"])
    ap.add_argument("out")
    ap.add_argument("--mb", type=int, default=220)
    a = ap.parse_args()
    rng = random.Random(24)
    with open(a.out, "w") as f:
        if a.kind == "tree":
            write_tree(f, rng, a.mb << 20)
        else:
            (write_perf if a.kind == "perf" else write_folded)(f, rng, paths(rng), a.mb << 20)


main()
