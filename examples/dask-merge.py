#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Merge a fleet's CPU profiles on Dask's distributed scheduler: a LocalCluster
of worker processes (or the scheduler at --scheduler), the inputs cut into
partitions, each partition merged by a worker, the partial results merged in a
tree, eight at a time. What travels between processes is a merged profile
written as pprof bytes; the merge is pprof's (samples of equal stacks and
labels summed), associative and commutative, so the result equals the one
`profdata merge IN... -o OUT` makes in one process.

    python3 examples/dask-merge.py OUT.pb.gz IN... [--workers N] [--scheduler ADDRESS]

Debian: python3-distributed. The same two functions, merge_files and
merge_parts, run on Spark as rdd.mapPartitions(merge_files) followed by
treeReduce (doc/guide.md).
"""
import sys
from typing import Iterable, List, Optional

import profdata

def merge_files(paths: Iterable[str]) -> bytes:
    """One partition's profiles (paths) merged, as pprof bytes. Native frames stay
    addresses (the library reads them so unless asked): the binaries that name them are
    on the machine that profiled, not on a worker."""
    return profdata.merge(list(paths)).to_bytes("pprof")


def merge_parts(parts: Iterable[bytes]) -> bytes:
    """Merged partitions (pprof bytes) merged again: a step of the tree."""
    return profdata.merge(list(parts)).to_bytes("pprof")


def merge_on_dask(paths: List[str], workers: int = 2, scheduler: Optional[str] = None) -> bytes:
    """The merge of `paths` computed on Dask: a bag of paths, reduced by a tree."""
    import dask.bag
    from dask.distributed import Client, LocalCluster

    cluster = None if scheduler else LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                  dashboard_address=None)
    with Client(scheduler or cluster) as client:
        partitions = max(1, min(len(paths), 8 * workers))
        bag = dask.bag.from_sequence(paths, npartitions=partitions)
        merged: bytes = bag.reduction(merge_files, merge_parts, split_every=8).compute(scheduler=client)
    if cluster is not None:
        cluster.close()
    return merged


def main(argv: List[str]) -> int:
    args, workers, scheduler = [], 2, None
    it = iter(argv[1:])
    for a in it:
        if a == "--workers":
            workers = int(next(it))
        elif a == "--scheduler":
            scheduler = next(it)
        else:
            args.append(a)
    if len(args) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out, inputs = args[0], args[1:]
    merged = merge_on_dask(inputs, workers, scheduler)
    # Written as the tool writes: the format from the output's name (pprof for .pb.gz).
    with profdata.open(merged) as p:
        p.write(out, profdata.format_for_filename(out) or "pprof")
        print("%s: %d inputs merged on Dask, %d samples" % (out, len(inputs), p.count("samples")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
