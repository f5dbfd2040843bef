#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Python binding's figures on a large heap dump: the objects' sizes into numpy and the
objects as a pandas DataFrame with class names (columns at C speed), beside iterating the
same rows as Object tuples (p.objects()).

    PYTHONPATH=BUILD/bindings/python python3 tests/bench/python-columns.py DUMP [--no-iterate]

DUMP: /tmp/profdata-service.hprof (about 7 million objects, gen-service-hprof.sh) or
/tmp/profdata-big.hprof (37 million, gen-big-hprof.sh). Needs numpy and pandas.
"""
import functools
import sys
import time
from typing import Callable, List, TypeVar

import numpy

import profdata


T = TypeVar("T")


def timed(what: str, fn: Callable[[], T]) -> T:
    start = time.perf_counter()
    result = fn()
    print("%-48s %8.2f s" % (what, time.perf_counter() - start), flush=True)
    return result


def main(argv: List[str]) -> int:
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    # A notebook has pandas imported before it asks for a frame: its import (about a
    # second here) is timed on its own line, not in the DataFrame's.
    timed("import pandas", lambda: __import__("pandas"))
    with timed("read %s" % argv[1], lambda: profdata.open(argv[1])) as p:
        n = p.count("objects")
        print("%d objects" % n)
        sizes = timed("objects' sizes into numpy", lambda: numpy.asarray(p.objects.column("size")))
        df = timed("objects as a DataFrame with class names", functools.partial(p.to_pandas, "objects"))
        print("  %d rows, %d bytes; largest class by bytes: %s" % (
            len(df), int(sizes.sum()), df.groupby("class_name", observed=True)["size"].sum().idxmax()))
        if "--no-iterate" not in argv:
            rows = timed("iterating the same rows (p.objects())", lambda: sum(1 for _ in p.objects()))
            assert rows == n
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
