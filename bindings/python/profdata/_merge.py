# SPDX-License-Identifier: Apache-2.0
"""profdata.merge() and profdata.diff(), as `profdata merge` and `profdata diff` do.

Profiles of samples are merged as pprof merges them (samples of equal stacks
and labels summed, sample types made to agree), one input at a time: an input
given by its path is read, added and freed before the next is read. A diff of
two profiles is NEW merged with BASE negated (go tool pprof -diff_base). A
diff of two heap dumps is the change per class (`profdata diff OLD NEW`).
"""
import collections
import os
from typing import TYPE_CHECKING, Any, Iterable, Optional, Tuple, Union, overload

from . import _inputs, _profdata
from ._heap import Heap, frame_or_rows

if TYPE_CHECKING:
    from . import PathLike, Profile

ClassChange = collections.namedtuple(
    "ClassChange", "class_name instances bytes retained new_instances new_bytes new_retained "
                   "old_instances old_bytes old_retained")
NewDominator = collections.namedtuple("NewDominator", "id class_name shallow retained")

_ORDERS = {"bytes": _profdata.HEAP_DIFF_BY_BYTES, "retained": _profdata.HEAP_DIFF_BY_RETAINED,
           "instances": _profdata.HEAP_DIFF_BY_INSTANCES}
_OBJECT_FIELDS = ("old_objects", "old_bytes", "new_objects", "new_bytes", "matched", "matched_bytes",
                  "added", "added_bytes", "gone", "gone_bytes")

# What merge() and diff() take: a Profile, or any input open() takes (a path, bytes, a file object, ...).
Input = Union["Profile", _inputs.Input]


def _opened(source: Input, options: Optional[str] = None) -> Tuple["Profile", bool]:
    """(the Profile, whether we opened it and must close it)."""
    from . import Profile, open as _open
    if isinstance(source, Profile):
        return source, False
    return _open(source, options=options), True


def _add(acc: Any, source: Input, options: Optional[str]) -> None:
    p, ours = _opened(source, options)
    try:
        acc.add(p._m)
    finally:
        if ours:
            p.close()


def _result(acc: Any, output: Optional["PathLike"], format: Optional[str]) -> Optional["Profile"]:
    """The merged Profile; or, with `output`, written there (the format from its name) and None."""
    from . import Profile, _emit_warnings, format_for_filename
    model, diags = acc.result()
    merged = Profile(model, _emit_warnings(diags, stacklevel=4))
    if output is None:
        return merged
    to = format or format_for_filename(output)
    if to is None:
        raise ValueError("no format ends like %r: give `format`" % os.fsdecode(output))
    with merged:
        merged.write(output, to)
    return None


@overload
def merge(inputs: Iterable[Input], output: None = None, format: Optional[str] = None,
          options: Optional[str] = None) -> "Profile": ...


@overload
def merge(inputs: Iterable[Input], output: "PathLike", format: Optional[str] = None,
          options: Optional[str] = None) -> None: ...


def merge(inputs: Iterable[Input], output: Optional["PathLike"] = None, format: Optional[str] = None,
          options: Optional[str] = None) -> Optional["Profile"]:
    """Merge profiles of samples (paths or Profiles), as `profdata merge IN... -o OUT` does:
    the merged Profile, or None when written to `output` (its format `format`, by default
    the one output's name ends like, as convert() chooses). `options` are the read options
    of the inputs given by path ("symbolize=auto" names native frames as the tool does)."""
    acc = _profdata.merge()
    for source in inputs:
        _add(acc, source, options)
    return _result(acc, output, format)


def _is_heap_dump(p: "Profile") -> bool:
    return p.count("samples") == 0 and p.count("objects") > 0


def _heap_diff(old: "Profile", new: "Profile", sort: str, dominators: int) -> Any:
    if sort not in _ORDERS:
        raise ValueError("diff sorts by %s, not %r" % (", ".join(_ORDERS), sort))
    before, after = Heap(old._m), Heap(new._m)
    if before.node_bits != after.node_bits:  # the library compares heaps of one width: both at 64
        before, after = (before, Heap(new._m, node_bits=64)) if before.node_bits == 64 else \
            (Heap(old._m, node_bits=64), after)
    objects, classes, doms = _profdata.heap_diff(before._h, after._h, _ORDERS[sort], dominators)
    rows = [ClassChange(*c) for c in classes]
    df = frame_or_rows(rows, ClassChange._fields)
    if not isinstance(df, list):
        df.attrs.update(objects=dict(zip(_OBJECT_FIELDS, objects)),
                        new_dominators=[NewDominator(*d) for d in doms])
    return df


def diff(base: Input, new: Input, output: Optional["PathLike"] = None, format: Optional[str] = None,
         sort: str = "bytes", dominators: int = 10, options: Optional[str] = None) -> Any:
    """NEW minus BASE, as `profdata diff BASE NEW` gives it.

    Two profiles of samples: the difference as a Profile (NEW's samples, and BASE's
    negated: values may be negative), or None when written to `output` (as merge()); an
    `output` ending in .svg (or format "flamegraph") is the differential flame graph that
    `profdata diff BASE NEW -o OUT.svg` draws: widths from NEW, colour by growth, of the
    inputs' default sample type (options "sample=NAME" chooses another; a Profile already
    read is drawn by its first).
    Two heap dumps: the change per class name, the largest growth (of `sort`: "bytes",
    "retained" or "instances") first: a DataFrame of ClassChange's columns when pandas is
    there (its .attrs "objects": the objects matched, new and gone by id; "new_dominators":
    the new objects no other new object dominates, [NewDominator]), else [ClassChange].
    One of each is refused (ValueError). `options`: as merge()'s."""
    from . import format_for_filename
    graph = output is not None and (format or format_for_filename(output)) == "flamegraph"
    if graph and "sample=" not in (options or ""):
        # A flame graph draws one value: a pprof input's default sample type, as the tool reads it.
        options = (options + "," if options else "") + "sample=default"
    b, close_b = _opened(base, options)
    n, close_n = _opened(new, options)
    try:
        heaps = _is_heap_dump(b) + _is_heap_dump(n)
        if heaps == 2:
            if output is not None:
                raise ValueError("the diff of two heap dumps is a table, not a file: no output")
            return _heap_diff(b, n, sort, dominators)
        if heaps == 1:
            raise ValueError("diff compares two heap dumps or two profiles, not one of each")
        acc = _profdata.merge()
        if graph:
            # Negative values would draw nothing: NEW and BASE go side by side, as the tool draws them.
            acc.add_side(n._m, False)
            acc.add_side(b._m, True)
        else:
            acc.add(n._m)
            acc.negate()
            acc.add(b._m)
    finally:
        if close_b:
            b.close()
        if close_n:
            n.close()
    return _diff_graph(acc, output) if graph and output is not None else _result(acc, output, format)


def _diff_graph(acc: Any, output: "PathLike") -> None:
    """The differential flame graph of a merge of add_side()'s: value 0 drawn against its base."""
    from . import Profile, _emit_warnings
    model, diags = acc.result()
    with Profile(model, _emit_warnings(diags, stacklevel=4)) as merged:
        base = merged.count("sample_types") // 2
        merged.write(output, "flamegraph", "value=0,base=%d" % base)
