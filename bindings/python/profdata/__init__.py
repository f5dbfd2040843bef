# SPDX-License-Identifier: Apache-2.0
"""Python binding for libprofdata: a C extension (profdata._profdata) over its public C API.

    import profdata
    with profdata.open("dump.hprof.gz") as p:
        print(p.format, p.count("objects"))
        for c in p.classes():
            print(c.name, c.instance_size)
    for row in profdata.histogram("dump.hprof"):
        print(row.name, row.instances, row.bytes)
    profdata.convert("cpu.prof", "cpu.folded")          # the format from the name's ending

A missing file raises FileNotFoundError (an unreadable one PermissionError, a
folder IsADirectoryError, for input and output alike),
an input that is not valid profdata.FormatError (with .filename, .offset and
.line), other failures profdata.Error; repairs made while reading a damaged
input are reported through the warnings module as profdata.ProfdataWarning.
A Profile used after close() raises ValueError, as a closed file does.

The library is linked into the extension: nothing is looked for at import.
"""
import collections
import os
import warnings as _warnings
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from . import _columns, _inputs, _notebook, _profdata
from ._columns import COLUMNS, Table
from ._errors import Error, FormatError, ProfdataWarning, error as _error
from ._heap import ClassRetained, Heap, HeapObject, PathStep, Suspects, Waste, frame_or_rows as _frame_or_rows
from ._inputs import Input
from ._notebook import FlameGraph

__all__ = ["Error", "FormatError", "ProfdataWarning", "Profile", "open", "histogram", "convert",
           "version", "formats", "format_for_filename", "TABLES", "HistogramRow", "Class", "Object", "Reference",
           "Thread", "Frame", "Stack", "Sample", "biggest_objects", "COLUMNS", "Table", "TopRow", "FlameGraph",
           "Input", "Heap", "HeapObject", "PathStep", "ClassRetained", "Suspects", "Waste", "merge", "diff",
           "ClassChange", "NewDominator"]

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

# The model's tables by name ("objects", "trace_contexts", ...), as the library names them.
TABLES: List[str] = _profdata.tables()

HistogramRow = collections.namedtuple("HistogramRow", "name instances bytes")
Class = collections.namedtuple("Class", "id name internal_name super_id loader_id instance_size")
Object = collections.namedtuple("Object", "id class_id class_name kind length size")
Reference = collections.namedtuple("Reference", "source target")
Thread = collections.namedtuple("Thread", "serial name group object_id")
Frame = collections.namedtuple("Frame", "function source_file line address")
Stack = collections.namedtuple("Stack", "serial thread_serial frames")
Sample = collections.namedtuple("Sample", "stack_serial thread_serial time_ns values")
TopRow = collections.namedtuple("TopRow", "name flat cum inlined")

_TOP_GROUPS = {"functions": _profdata.TOP_FUNCTIONS, "lines": _profdata.TOP_LINES, "files": _profdata.TOP_FILES}

_KINDS = {_profdata.OBJECT_INSTANCE: "instance", _profdata.OBJECT_ARRAY: "object-array",
          _profdata.OBJECT_PRIM_ARRAY: "primitive-array"}
_CHUNK = 65536  # rows fetched from the extension at a time by the iterators


def _emit_warnings(diags: Sequence[Tuple[Any, ...]], stacklevel: int = 3) -> List[str]:
    out = []
    for d in diags:
        if d[0] is None:
            _warnings.warn("... and %d more warnings" % d[1], ProfdataWarning, stacklevel=stacklevel)
            break
        text = str(_error(d[0], d))  # type: ignore[arg-type]
        out.append(text)
        _warnings.warn(text, ProfdataWarning, stacklevel=stacklevel)
    return out


def version() -> str:
    return str(_profdata.version())


def formats() -> List[Tuple[str, bool, bool]]:
    """[(name, can_read, can_write)] for this build."""
    return list(_profdata.formats())


def format_for_filename(name: PathLike) -> Optional[str]:
    """The name of the format a file name's ending names ("cpu.svg": "flamegraph", "dump.hprof.gz":
    "hprof"), or None when no format claims it; ValueError when several formats claim that ending."""
    code, fmt = _profdata.format_for_filename(os.fsencode(name))
    if code == _profdata.ENOTFOUND:
        return None
    if code == _profdata.EINVAL:
        raise ValueError("several formats end like %r: name the one you want" % os.fsdecode(name))
    if code < 0:
        raise Error(code)
    return fmt


def open(path: Input, format: Optional[str] = None, strict: bool = False,  # noqa: A001 (like io.open)
         options: Optional[str] = None) -> "Profile":
    """Read a profile or heap dump into memory; use the result as a context manager.

    `path` is a path, the content itself (bytes, bytearray, memoryview), an open file
    descriptor (int; read from its position, never closed) or a binary file object
    (read through its .read() from its position; gzip.open(...) works too). Gzip is
    recognised from the first bytes for every kind. The library chooses the format from
    the content's first bytes, never from a name, so an input without one (bytes, a
    descriptor, a BytesIO) is recognised as its file would be: `format=` is needed only
    where a file of that content would need it. Errors name the input as the path,
    "<bytes>", "<fd 5>", or the file object's .name."""
    return Profile.read(path, format=format, strict=strict, options=options)


class Profile:
    """A profile read into the model. Use as a context manager, or call close()."""

    def __init__(self, model: Any, warnings: List[str]) -> None:
        self._m = model
        self.warnings = warnings

    @classmethod
    def read(cls, path: Input, format: Optional[str] = None, strict: bool = False,
             options: Optional[str] = None) -> "Profile":
        """profdata.open(): any input it takes."""
        model, diags = _profdata.read(_inputs.spec(path), format, strict, options)
        return cls(model, _emit_warnings(diags, stacklevel=4))

    def close(self) -> None:
        m = getattr(self, "_m", None)
        if m is not None:
            m.close()

    @property
    def closed(self) -> bool:
        return bool(self._m.closed)

    def __enter__(self) -> "Profile":
        self._m.meta()  # ValueError when closed
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        if self.closed:
            return "<profdata.Profile (closed)>"
        return "<profdata.Profile %s, %d objects, %d samples>" % (self.format, self.count("objects"),
                                                                  self.count("samples"))

    @property
    def format(self) -> str:
        return str(self._m.meta()[0])

    @property
    def version(self) -> Optional[str]:
        return self._m.meta()[1]  # type: ignore[no-any-return]

    def count(self, table: str) -> int:
        """Rows of a table, by name: "objects", "classes", "samples", ... (profdata.TABLES)"""
        try:
            return int(self._m.count(table))
        except KeyError:
            raise ValueError("no table %r; the tables are %s" % (table, ", ".join(TABLES))) from None

    def counts(self) -> Dict[str, int]:
        return {t: self.count(t) for t in TABLES}

    def reference_count(self) -> int:
        """Total non-null references held by objects."""
        return int(self._m.reference_count())

    def _chunks(self, fetch: Any) -> Iterator[Any]:
        start = 0
        while True:
            rows = fetch(start, _CHUNK)
            if not rows:
                return
            yield from rows
            start += _CHUNK

    def functions(self) -> List[Tuple[Optional[str], Optional[str], Optional[str], int]]:
        """[(name, signature, source_file, start_line)] of the function table, in input order."""
        return list(self._m.functions())

    def classes(self) -> Iterator[Class]:
        """Classes in input order; name in Java form ("int[]"), internal_name as stored ("[I")."""
        for cid, internal, super_id, loader_id, instance_size in self._m.classes():
            name = _profdata.java_name(internal) if internal is not None else None
            yield Class(cid, name, internal, super_id, loader_id, instance_size)

    def _class_names(self) -> Dict[int, Optional[str]]:
        names: Dict[int, Optional[str]] = {}
        for c in self.classes():
            names.setdefault(c.id, c.name)
        return names

    @property
    def objects(self) -> Table:
        """The objects: p.objects() iterates them, p.objects.column("size") reads a column."""
        return Table(self._m, "objects", self._objects)

    @property
    def stacks(self) -> Table:
        """The stacks: p.stacks() iterates them, p.stacks.column("serial") reads a column."""
        return Table(self._m, "stacks", self._stacks)

    @property
    def samples(self) -> Table:
        """The samples: p.samples() iterates them, p.samples.column("stack") reads a column."""
        return Table(self._m, "samples", self._samples)

    @property
    def frames(self) -> Table:
        """The frames, as columns (p.frames.column("line")); stacks() gives them named."""
        return Table(self._m, "frames", lambda: iter(()))

    def _objects(self) -> Iterator[Object]:
        """Objects in input order; size is the shallow size as VisualVM counts it."""
        names = self._class_names()
        arrays: Dict[int, Optional[str]] = {}
        for oid, class_id, kind, elem_type, length, size in self._chunks(self._m.objects):
            if kind == _profdata.OBJECT_PRIM_ARRAY and not class_id:
                if elem_type not in arrays:
                    arrays[elem_type] = _primitive_array_name(elem_type)
                cname = arrays[elem_type]
            else:
                cname = names.get(class_id)
            yield Object(oid, class_id, cname, _KINDS.get(kind, str(kind)), length, size)

    def references(self) -> Iterator[Reference]:
        """Every non-null reference held by an object, as (source id, target id), in input order."""
        start, n = 0, self.count("objects")
        while start < n:
            for source, target in self._m.references(start, _CHUNK):
                yield Reference(source, target)
            start += _CHUNK

    def threads(self) -> Iterator[Thread]:
        for row in self._m.threads():
            yield Thread(*row)

    def _stacks(self) -> Iterator[Stack]:
        """Stacks with their frames, leaf (most recent call) first."""
        cache: Dict[int, Frame] = {}
        for serial, thread_serial, frame_ids in self._chunks(self._m.stacks):
            frames = []
            for fid in frame_ids:
                if fid not in cache:
                    row = self._m.frame(fid)
                    cache[fid] = Frame(*row) if row else Frame(None, None, None, None)
                frames.append(cache[fid])
            yield Stack(serial, thread_serial, tuple(frames))

    def _samples(self) -> Iterator[Sample]:
        for row in self._chunks(self._m.samples):
            yield Sample(*row)

    def to_pandas(self, table: str) -> Any:
        """A pandas DataFrame of a table's columns (objects, frames, stacks, samples), with
        names resolved: objects get "class_name" (primitive arrays "int[]", ...), frames
        "function", samples "value0", "value1", ... when every sample has as many values.
        Needs numpy and pandas; the columns are read at C speed, one copy into the frame."""
        t = getattr(self, table) if table in ("objects", "frames", "stacks", "samples") else None
        if not isinstance(t, Table):
            raise ValueError("to_pandas takes objects, frames, stacks or samples, not %r" % table)
        import pandas
        cols = _columns.plain_columns(t)
        if table == "objects":
            cols["class_name"] = self._class_names_of(cols)
        elif table == "frames":
            cols["function"] = _columns.categorical(cols["function_index"],
                                                    [f[0] or "?" for f in self.functions()])
        elif table == "samples":
            cols.update(self._sample_values(t, len(cols["stack"])))
        return pandas.DataFrame(cols, copy=False)  # the columns are ours: no second copy

    def _class_names_of(self, cols: Dict[str, Any]) -> Any:
        """The class names of the objects' class_index; a primitive array, which no class
        object names, by its elem_type ("int[]"). Rows past the classes: 16 primitive array
        names, then 16 Nones for an object with neither class nor array type."""
        import numpy
        names: List[Optional[str]] = [c.name or c.internal_name or "0x%x" % c.id for c in self.classes()]
        base = len(names)
        names += [_primitive_array_name(t) for t in range(16)] + [None] * 16
        not_array = (cols["kind"] != _profdata.OBJECT_PRIM_ARRAY).view(numpy.uint8) << 4
        extra = (cols["elem_type"] | not_array).astype(numpy.int32) + base
        return _columns.categorical(numpy.where(cols["class_index"] >= 0, cols["class_index"], extra), names)

    def _sample_values(self, t: Table, n: int) -> Dict[str, Any]:
        """value0, value1, ... of samples that all have as many values; else none."""
        import numpy
        offsets = numpy.asarray(t.column("values_offsets"))
        width = set(numpy.diff(offsets).tolist()) if n else set()
        if len(width) != 1:
            return {}
        values = numpy.asarray(t.column("values")).reshape(n, width.pop())
        return {"value%d" % k: values[:, k] for k in range(values.shape[1])}

    def histogram(self, dump: int = 0) -> Any:
        """Instances and shallow bytes per class of dump `dump` (-1: all), largest first, as
        `profdata histo` counts them: a DataFrame (name, instances, bytes) when pandas is
        there, else [HistogramRow]. Empty for a profile without objects."""
        rows = [HistogramRow(*r) for r in self._m.histogram(dump)]
        return _frame_or_rows(rows, HistogramRow._fields)

    def top(self, group: str = "functions", sample_type: Optional[str] = None) -> Any:
        """The flat and cumulative sums per function ("lines", "files") of a profile of
        samples, as `profdata top` and pprof -top give them, largest flat first: a DataFrame
        (name, flat, flat%, cum, cum%, inlined; .attrs total, sample_type, unit) when pandas
        is there, else [TopRow]. profdata.Error for a profile without samples, or a sample
        type it does not have (the message lists those it has)."""
        if group not in _TOP_GROUPS:
            raise ValueError("top groups by %s, not %r" % (", ".join(_TOP_GROUPS), group))
        total, kind, unit, rows = self._m.top(_TOP_GROUPS[group], sample_type)
        marks = {_profdata.TOP_INLINED: "inline", _profdata.TOP_PARTLY_INLINED: "partial-inline"}
        top = [TopRow(name, flat, cum, marks.get(inlined, "")) for name, flat, cum, inlined in rows]
        df = _frame_or_rows(top, TopRow._fields)
        if isinstance(df, list):
            return df
        for col in ("flat", "cum"):
            df.insert(df.columns.get_loc(col) + 1, col + "%", df[col] * 100.0 / total if total else 0.0)
        df.attrs.update(total=total, sample_type=kind, unit=unit)
        return df

    def _repr_html_(self) -> str:
        """A notebook's view: format, rows per non-empty table, and the 10 largest classes
        by shallow bytes (a heap dump) or the 10 top functions by flat (samples)."""
        return _notebook.summary_html(self)

    def flamegraph(self, **options: Any) -> FlameGraph:
        """The interactive flame graph of the samples, made in memory by the library's
        flamegraph writer; options are the writer's (title="...", width=1200,
        reverse=True, minwidth=0.5, value=1, ...: doc/formats-flamegraph.md).
        Notebooks show it; .svg is the text, .save(path) writes it."""
        svg, diags = self._m.write_memory("flamegraph", _notebook.options_text(options))
        return FlameGraph(svg.decode("utf-8", "replace"), _emit_warnings(diags))

    def heap(self, dump: int = 0, node_bits: int = 0) -> Heap:
        """The heap analysis of dump `dump` (dominators, retained sizes, paths from GC roots),
        made once without the GIL: profdata.Heap. node_bits: 0 lets the library pick the width
        of its node numbers (32, or 64 past 2^31 - 2 objects and classes); 32 or 64 asks."""
        return Heap(self._m, dump, node_bits)

    def to_bytes(self, format: str, options: Optional[str] = None) -> bytes:
        """The profile written in `format` into memory (options as write()'s): what
        travels between processes (pprof bytes merge again: examples/dask-merge.py)."""
        written: Tuple[bytes, List[Any]] = self._m.write_memory(format, options)
        _emit_warnings(written[1])
        return written[0]

    def write(self, path: PathLike, format: str, options: Optional[str] = None) -> None:
        self._m.meta()  # ValueError when closed, before any file is made
        _emit_warnings(self._m.write(os.fsencode(path), format, options))


def _primitive_array_name(elem_type: int) -> Optional[str]:
    """"int[]" for an HPROF primitive array of ints (no class object names it); None for no basic type."""
    name = str(_profdata.basic_type_name(elem_type))
    return None if name == "?" else name + "[]"


def _no_heap_dump(name: str, format: Optional[str], dump: int) -> FormatError:
    """An empty histogram says "nothing" where the truth is "not a heap dump": the
    refusal `profdata histo` gives, in its words."""
    return FormatError(_profdata.EFORMAT, name, None, None,
                       "no objects to count: the input%s holds no heap dump%s"
                       % (" (%s)" % format if format else "",
                          " with that number (dump counts from 0)" if dump > 0 else ""))


def histogram(path: Input, format: Optional[str] = None, dump: int = 0) -> List[HistogramRow]:
    """[HistogramRow(name, instances, bytes)] of dump `dump` (-1: all), largest first, streaming.
    Names are in Java form ("java.lang.String", "int[]"). An input with no objects to count (a
    CPU profile, a dump number past the last) raises FormatError, as `profdata histo` refuses it.
    `path` is any input profdata.open() takes (bytes, a descriptor, a file object, ...)."""
    src = _inputs.spec(path)
    shown, rows, diags = _profdata.histogram(src, format, dump)
    _emit_warnings(diags)
    if not rows:
        raise _no_heap_dump(_inputs.name(src), shown, dump)
    return [HistogramRow(*row) for row in rows]


def convert(src: Input, dst: PathLike, to: Optional[str] = None, options: Optional[str] = None,
            read_format: Optional[str] = None) -> None:
    """Stream src into dst in format `to`, by default the one dst's ending names
    (format_for_filename: ".svg", ".folded", ".pb.gz", ...; a ".gz" after a format's own
    ending names that format, and does not compress); dst appears only when complete.
    `src` is any input profdata.open() takes (bytes, a descriptor, a file object, ...)."""
    spec = _inputs.spec(src)
    if to is None:
        to = format_for_filename(dst)
        if to is None:
            raise ValueError("no format ends like %r: give `to`" % os.fsdecode(dst))
    _emit_warnings(_profdata.convert(spec, os.fsencode(dst), to, options, read_format))


def biggest_objects(profile: Profile, n: int = 20, dump: int = 0) -> List[Tuple[int, int, int, bool]]:
    """[(id, shallow, retained, is_class)] of the n objects of largest retained size in a
    heap dump's Profile, biggest first, as `profdata top` and VisualVM give them."""
    return [(oid, shallow, retained, cls) for oid, _, shallow, retained, cls in profile.heap(dump)._h.top(n)]


from ._merge import ClassChange, NewDominator, diff, merge  # noqa: E402 (they use Profile)
