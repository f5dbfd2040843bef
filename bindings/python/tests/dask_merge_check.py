# SPDX-License-Identifier: Apache-2.0
"""A fleet merged on Dask equals the sequential merge: examples/dask-merge.py merges 1,000
CPU profiles (a Go runtime pprof and two gperftools profiles of the repository, in turn)
on a LocalCluster of two worker processes, by a tree of partial merges; `profdata merge`
merges the same list in one process. Both are read back as folded stacks, which must be
equal line for line, and so must the sample totals.

    python3 dask_merge_check.py SOURCE_ROOT PROFDATA_TOOL

Exit 77 (skipped) without Dask's distributed scheduler (Debian: python3-distributed)."""
import os
import subprocess
import sys
import tempfile
from typing import List

import profdata


def folded(tool: str, path: str, work: str) -> List[str]:
    out = os.path.join(work, os.path.basename(path) + ".folded")
    subprocess.run([tool, "convert", "--quiet", path, out], check=True)
    with open(out, encoding="utf-8") as f:
        return sorted(f.read().splitlines())


def main(argv: List[str]) -> int:
    try:
        import distributed  # noqa: F401 (only its presence)
    except ImportError:
        print("skipped: no dask.distributed (apt-get install python3-distributed)")
        return 77
    root, tool = argv[1], argv[2]
    sources = [os.path.join(root, "tests/data", p) for p in
               ("pprof/cpu.pb.gz", "gperftools/cpu-1000hz.prof", "gperftools/cpu-100hz.prof")]
    inputs = [sources[i % len(sources)] for i in range(1000)]
    with tempfile.TemporaryDirectory() as work:
        on_dask, sequential = os.path.join(work, "dask.pb.gz"), os.path.join(work, "sequential.pb.gz")
        subprocess.run([sys.executable, os.path.join(root, "examples/dask-merge.py"), on_dask] + inputs,
                       check=True)
        subprocess.run([tool, "merge", "--quiet", "--symbolize", "none", "-o", sequential] + inputs, check=True)
        a, b = folded(tool, on_dask, work), folded(tool, sequential, work)
        assert a == b, "the Dask merge differs from profdata merge: %d and %d folded lines" % (len(a), len(b))
        with profdata.open(on_dask) as p, profdata.open(sequential) as q:
            totals = [sum(s.values[0] for s in x.samples()) for x in (p, q)]
        assert totals[0] == totals[1] and totals[0] > 0, totals
        print("1000 profiles: %d folded stacks, %d samples, equal on Dask and in one process" % (len(a), totals[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
