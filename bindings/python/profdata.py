# SPDX-License-Identifier: Apache-2.0
"""Python binding for libprofdata over its public C API (ctypes, no compiler needed).

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

The shared library is found through PROFDATA_LIBRARY (a path), else where
`meson install` puts the library of the Meson build tree this module was
built beside (recorded in the wheel by build_backend.py), else its soname
(libprofdata.so.0.3, through the dynamic linker's search path), else
ctypes.util.find_library, else the lib folders of the prefix this module was
installed under, else that build tree's own library (README.md says why).
"""
import collections
import ctypes
import ctypes.util
import errno
import glob
import os
import re
import sys
import warnings as _warnings
from typing import List, Optional

__all__ = ["Error", "FormatError", "ProfdataWarning", "Profile", "open", "histogram", "convert",
           "version", "formats", "format_for_filename", "TABLES", "HistogramRow", "Class", "Object", "Reference", "Thread", "Frame",
           "Stack", "Sample", "biggest_objects"]

SONAME = "libprofdata.so.0.3"  # this release's (doc/api-policy.md)


# The libraries of the Meson build trees found beside the source when the
# wheel was built (build_backend.py fills these lines in): where `meson
# install` puts them, and the build trees' own files. Empty in the source tree
# and in a `meson install`.
_INSTALLED_LIBRARIES: List[str] = []
_BUILD_TREE_LIBRARIES: List[str] = []


def _candidates() -> List[str]:
    env = os.environ.get("PROFDATA_LIBRARY")
    if env:
        return [env]
    found = _INSTALLED_LIBRARIES + [SONAME]
    name = ctypes.util.find_library("profdata")
    if name:
        found.append(name)
    # Installed under PREFIX/lib/pythonX/.../profdata.py: try PREFIX/lib[/*]/.
    here = os.path.dirname(os.path.abspath(__file__))
    parts = here.split(os.sep)
    if "lib" in parts:
        prefix = os.sep.join(parts[:len(parts) - parts[::-1].index("lib") - 1]) or os.sep
        for pattern in ("lib", "lib/*", "lib64"):
            found += sorted(glob.glob(os.path.join(prefix, pattern, SONAME)))
    for prefix in ("/usr/local", "/usr"):
        found += sorted(glob.glob(os.path.join(prefix, "lib*", "*", SONAME)))
    return found + _BUILD_TREE_LIBRARIES


def _load() -> ctypes.CDLL:
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append("%s (no such file)" % path)
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("libprofdata not found; install it (meson install), or set PROFDATA_LIBRARY to its path."
                      " Tried: " + "; ".join(tried))


_lib = _load()

_P = ctypes.c_void_p
_u8, _u32, _u64, _i32, _sz = ctypes.c_uint8, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_int32, ctypes.c_size_t


class _Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char_p), ("name", ctypes.c_char_p),
                ("offset", _u64), ("line", _u64)]


class _ReadOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint), ("format", ctypes.c_char_p), ("mode", ctypes.c_int),
                ("options", ctypes.c_char_p)]


class _WriteOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint), ("format", ctypes.c_char_p), ("options", ctypes.c_char_p)]


class _Meta(ctypes.Structure):
    _fields_ = [("format", ctypes.c_char_p), ("version", ctypes.c_char_p), ("id_size", _u32),
                ("word_size", _u32), ("big_endian", ctypes.c_int),
                ("timestamp_ms", _u64), ("period", _u64),
                ("period_type", ctypes.c_char_p), ("period_unit", ctypes.c_char_p),
                ("comments", _P), ("ncomments", _sz)]


class _HistoEntry(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("class_id", _u64),
                ("instances", _u64), ("bytes", _u64)]


# Row structs. Row getters take the size of the caller's struct
# (doc/api-policy.md), so these mirrors stay valid when a later release
# appends members.
class _Function(ctypes.Structure):
    _fields_ = [("id", _u64), ("name_id", _u64), ("signature_id", _u64),
                ("source_file_id", _u64), ("class_serial", _u32),
                ("start_line", _i32), ("end_line", _i32)]


class _ClassLoad(ctypes.Structure):
    _fields_ = [("time_us", _u64), ("serial", _u32), ("id", _u64), ("trace_serial", _u32), ("name_id", _u64)]


class _ClassDump(ctypes.Structure):
    _fields_ = [("id", _u64), ("trace_serial", _u32), ("super_id", _u64), ("loader_id", _u64),
                ("signers_id", _u64), ("protection_domain_id", _u64), ("reserved1", _u64),
                ("reserved2", _u64), ("instance_size", _u32), ("size", _u64),
                ("constants", _P), ("nconstants", _sz), ("statics", _P), ("nstatics", _sz),
                ("fields", _P), ("nfields", _sz), ("refs", _P), ("nrefs", _sz)]


class _ClassInfo(ctypes.Structure):
    _fields_ = [("load", _ClassLoad), ("dump", _ClassDump), ("has_load", ctypes.c_int),
                ("has_dump", ctypes.c_int), ("unloaded", ctypes.c_int), ("dump_index", _u32),
                ("name", ctypes.c_char_p)]


class _Object(ctypes.Structure):
    _fields_ = [("id", _u64), ("class_id", _u64), ("trace_serial", _u32), ("kind", _u8),
                ("elem_type", _u8), ("flags", _u8), ("length", _u64), ("size", _u64),
                ("data", _P), ("data_len", _u64), ("refs", _P), ("nrefs", _sz)]


class _ThreadStart(ctypes.Structure):
    _fields_ = [("time_us", _u64), ("serial", _u32), ("object_id", _u64), ("trace_serial", _u32),
                ("name_id", _u64), ("group_name_id", _u64), ("parent_group_name_id", _u64)]


class _ThreadEnd(ctypes.Structure):
    _fields_ = [("time_us", _u64), ("serial", _u32)]


class _ThreadInfo(ctypes.Structure):
    _fields_ = [("start", _ThreadStart), ("has_start", ctypes.c_int), ("end", _ThreadEnd),
                ("has_end", ctypes.c_int)]


class _Stack(ctypes.Structure):
    _fields_ = [("serial", _u32), ("thread_serial", _u32), ("frame_ids", ctypes.POINTER(_u64)),
                ("nframes", _sz)]


class _Frame(ctypes.Structure):
    _fields_ = [("id", _u64), ("function_id", _u64), ("line", _i32), ("address", _u64),
                ("has_address", ctypes.c_int), ("mapping", _u32)]


class _Sample(ctypes.Structure):
    _fields_ = [("stack_serial", _u32), ("thread_serial", _u32), ("time_ns", _u64),
                ("values", ctypes.POINTER(ctypes.c_int64)), ("nvalues", _sz)]


def _row(name, struct):
    return (ctypes.c_int, [_P, _sz, ctypes.POINTER(struct), _sz])


_sig = {
    "profdata_version_string": (ctypes.c_char_p, []),
    "profdata_strerror": (ctypes.c_char_p, [ctypes.c_int]),
    "profdata_reader_open_path": (ctypes.c_int, [ctypes.POINTER(_P), ctypes.c_char_p]),
    "profdata_reader_free": (None, [_P]),
    "profdata_reader_error": (ctypes.POINTER(_Error), [_P]),
    "profdata_reader_warning_count": (_sz, [_P]),
    "profdata_reader_warning": (ctypes.POINTER(_Error), [_P, _sz]),
    "profdata_read": (ctypes.c_int, [ctypes.POINTER(_P), _P, ctypes.POINTER(_ReadOptions)]),
    "profdata_profile_free": (None, [_P]),
    "profdata_profile_count": (_sz, [_P, ctypes.c_int]),
    "profdata_profile_meta": (ctypes.POINTER(_Meta), [_P]),
    "profdata_profile_reference_count": (_u64, [_P]),
    "profdata_profile_string": (_P, [_P, _u64, ctypes.POINTER(_sz)]),
    "profdata_profile_function_sized": _row("function", _Function),
    "profdata_profile_class_sized": _row("class", _ClassInfo),
    "profdata_profile_object_sized": _row("object", _Object),
    "profdata_profile_thread_sized": _row("thread", _ThreadInfo),
    "profdata_profile_stack_sized": _row("stack", _Stack),
    "profdata_profile_frame_sized": _row("frame", _Frame),
    "profdata_profile_sample_sized": _row("sample", _Sample),
    "profdata_profile_find_class": (ctypes.c_int, [_P, _u64, ctypes.POINTER(_sz)]),
    "profdata_profile_find_function": (ctypes.c_int, [_P, _u64, ctypes.POINTER(_sz)]),
    "profdata_profile_find_frame": (ctypes.c_int, [_P, _u64, ctypes.POINTER(_sz)]),
    "profdata_profile_object_size": (_u64, [_P, _sz]),
    "profdata_profile_object_refs": (ctypes.c_long, [_P, _sz, ctypes.c_int, ctypes.POINTER(_u64), _sz]),
    "profdata_java_name": (_sz, [ctypes.c_char_p, _sz, ctypes.c_char_p, _sz]),
    "profdata_writer_open_path": (ctypes.c_int, [ctypes.POINTER(_P), ctypes.c_char_p]),
    "profdata_writer_close": (ctypes.c_int, [_P]),
    "profdata_writer_free": (None, [_P]),
    "profdata_writer_error": (ctypes.POINTER(_Error), [_P]),
    "profdata_writer_warning_count": (_sz, [_P]),
    "profdata_writer_warning": (ctypes.POINTER(_Error), [_P, _sz]),
    "profdata_write": (ctypes.c_int, [_P, _P, ctypes.POINTER(_WriteOptions)]),
    "profdata_convert": (ctypes.c_int, [_P, ctypes.POINTER(_ReadOptions), _P, ctypes.POINTER(_WriteOptions)]),
    "profdata_histogram_read": (ctypes.c_int, [ctypes.POINTER(_P), _P, ctypes.POINTER(_ReadOptions), ctypes.c_long]),
    "profdata_histogram_count": (_sz, [_P]),
    "profdata_histogram_entry_at": (ctypes.POINTER(_HistoEntry), [_P, _sz]),
    "profdata_histogram_total_instances": (_u64, [_P]),
    "profdata_histogram_total_bytes": (_u64, [_P]),
    "profdata_histogram_free": (None, [_P]),
    "profdata_format_count": (_sz, []),
    "profdata_format_at": (_P, [_sz]),
    "profdata_format_name": (ctypes.c_char_p, [_P]),
    "profdata_format_can_read": (ctypes.c_int, [_P]),
    "profdata_format_can_write": (ctypes.c_int, [_P]),
    "profdata_format_for_filename": (ctypes.c_int, [ctypes.POINTER(_P), ctypes.c_char_p]),
    "profdata_reader_sniff": (ctypes.c_int, [_P, ctypes.POINTER(_P)]),
    "profdata_table_name": (ctypes.c_char_p, [ctypes.c_int]),
    "profdata_table_from_name": (ctypes.c_int, [ctypes.POINTER(ctypes.c_int), ctypes.c_char_p]),
}
for _name, (_res, _args) in _sig.items():
    _f = getattr(_lib, _name)
    _f.restype = _res
    _f.argtypes = _args

_EIO, _EFORMAT, _ETRUNCATED, _EUNSUPPORTED, _EINVAL, _ENOTFOUND, _ELIMIT = -3, -4, -5, -6, -7, -8, -10
_NO_OFFSET = 2 ** 64 - 1


def _table_names():
    names = []
    while True:
        name = _lib.profdata_table_name(len(names))
        if name is None:
            return names
        names.append(name.decode())


# The model's tables by name ("objects", "trace_contexts", ...), as the library names them.
TABLES = _table_names()

HistogramRow = collections.namedtuple("HistogramRow", "name instances bytes")
Class = collections.namedtuple("Class", "id name internal_name super_id loader_id instance_size")
Object = collections.namedtuple("Object", "id class_id class_name kind length size")
Reference = collections.namedtuple("Reference", "source target")
Thread = collections.namedtuple("Thread", "serial name group object_id")
Frame = collections.namedtuple("Frame", "function source_file line address")
Stack = collections.namedtuple("Stack", "serial thread_serial frames")
Sample = collections.namedtuple("Sample", "stack_serial thread_serial time_ns values")

_PRIMITIVE_ARRAYS = {4: "boolean[]", 5: "char[]", 6: "float[]", 7: "double[]", 8: "byte[]",
                     9: "short[]", 10: "int[]", 11: "long[]"}
_KINDS = {0: "instance", 1: "object-array", 2: "primitive-array"}


class Error(Exception):
    """A failure reported by libprofdata: code, file name, byte offset, line, message."""

    def __init__(self, code: int, name: Optional[str] = None, offset: Optional[int] = None,
                 line: Optional[int] = None, message: Optional[str] = None) -> None:
        self.code, self.filename, self.offset, self.line = code, name, offset, line
        self.name = name  # kept from 0.1
        self.message = message or _lib.profdata_strerror(code).decode()
        where = "" if not line else ", line %d" % line
        where += "" if offset is None else ", byte %d" % offset
        super().__init__("%s%s: %s" % (name or "profdata", where, _unplaced(self.message, offset, line)))


def _unplaced(message: str, offset: Optional[int], line: Optional[int]) -> str:
    """The message without the place Error already gives, as the tool prints it: decoders
    may repeat the offset ("... at offset N") or start with the line ("line L: ...")."""
    if line:
        message = re.sub(r"^(?:[^ ]+?: )?line %d: " % line, "", message, count=1)
    if offset is not None:
        message = re.sub(r" at offset %d(?![0-9])" % offset, "", message, count=1)
    return message


class FormatError(Error, ValueError):
    """The input is not valid for its format (or is truncated, or an unsupported variant)."""


class ProfdataWarning(UserWarning):
    """A repair made while reading damaged input, or data a conversion could not keep."""


def _error(code, err_ptr):
    if err_ptr:
        e = err_ptr.contents
        off = None if e.offset == _NO_OFFSET else e.offset
        name = e.name.decode(errors="replace") if e.name else None
        msg = e.message.decode(errors="replace") if e.message else None
        args = (code, name, off, e.line or None, msg)
    else:
        args = (code,)
    if code in (_EFORMAT, _ETRUNCATED, _EUNSUPPORTED, _ELIMIT):
        return FormatError(*args)
    return Error(*args)


def _raise(code, err_ptr):
    raise _error(code, err_ptr)


def _os_error(path):
    """The OSError the system would give for opening `path`, or None."""
    try:
        with builtin_open(path, "rb"):
            return None
    except OSError as e:
        return e


builtin_open = open


def _read_options(fmt, strict, options):
    return _ReadOptions(1, fmt.encode() if fmt else None, 1 if strict else 0,
                        options.encode() if options else None)


def _open_reader(path):
    r = _P()
    code = _lib.profdata_reader_open_path(ctypes.byref(r), os.fsencode(path))
    if code < 0:
        err = _lib.profdata_reader_error(r) if r else None
        exc = _error(code, err)
        _lib.profdata_reader_free(r)
        if code == _EIO:
            os_err = _os_error(path)
            if os_err is not None:
                raise os_err from exc
        raise exc
    return r


def _output_errno(path: str) -> int:
    """Why a file could not be created at `path`, as the system would say it."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        return errno.EISDIR
    if not os.path.isdir(folder):
        return errno.ENOENT if not os.path.exists(folder) else errno.ENOTDIR
    if not os.access(folder, os.W_OK | os.X_OK):
        return errno.EACCES
    return errno.EIO


def _open_writer(path) -> ctypes.c_void_p:
    """A writer on `path`; an output the system refuses raises the OSError it names
    (IsADirectoryError, FileNotFoundError, PermissionError), with the library's message."""
    w = _P()
    code = _lib.profdata_writer_open_path(ctypes.byref(w), os.fsencode(path))
    if code < 0:
        exc = _error(code, _lib.profdata_writer_error(w) if w else None)
        _lib.profdata_writer_free(w)
        if code == _EIO:
            raise OSError(_output_errno(os.fsdecode(path)), exc.message, os.fsdecode(path)) from exc
        raise exc
    return w


def _emit_warnings(count, get, stacklevel=3):
    out = []
    for i in range(count):
        w = get(i)
        if not w:
            _warnings.warn("... and %d more warnings" % (count - i), ProfdataWarning, stacklevel=stacklevel)
            break
        e = w.contents
        text = str(Error(e.code, e.name.decode(errors="replace") if e.name else None,
                         None if e.offset == _NO_OFFSET else e.offset, e.line or None,
                         e.message.decode(errors="replace")))
        out.append(text)
        _warnings.warn(text, ProfdataWarning, stacklevel=stacklevel)
    return out


def version():
    return _lib.profdata_version_string().decode()


def formats():
    """[(name, can_read, can_write)] for this build."""
    out = []
    for i in range(_lib.profdata_format_count()):
        f = _lib.profdata_format_at(i)
        out.append((_lib.profdata_format_name(f).decode(), bool(_lib.profdata_format_can_read(f)),
                    bool(_lib.profdata_format_can_write(f))))
    return out


def format_for_filename(name):
    """The name of the format a file name's ending names ("cpu.svg": "flamegraph", "dump.hprof.gz":
    "hprof"), or None when no format claims it; ValueError when several formats claim that ending."""
    f = _P()
    code = _lib.profdata_format_for_filename(ctypes.byref(f), os.fsencode(name))
    if code == _ENOTFOUND:
        return None
    if code == _EINVAL:
        raise ValueError("several formats end like %r: name the one you want" % os.fsdecode(name))
    if code < 0:
        raise Error(code)
    return _lib.profdata_format_name(f).decode()


def _java_name(internal):
    if internal is None:
        return None
    raw = internal.encode()
    buf = ctypes.create_string_buffer(len(raw) * 2 + 16)
    n = _lib.profdata_java_name(raw, len(raw), buf, len(buf))
    if n >= len(buf):
        buf = ctypes.create_string_buffer(n + 1)
        _lib.profdata_java_name(raw, len(raw), buf, len(buf))
    return buf.value.decode(errors="replace")


def open(path, format=None, strict=False, options=None):  # noqa: A001 (like io.open)
    """Read a profile or heap dump into memory; use the result as a context manager."""
    return Profile.read(path, format=format, strict=strict, options=options)


class Profile:
    """A profile read into the model. Use as a context manager, or call close()."""

    def __init__(self, handle, warnings):
        self._p = handle
        self.warnings = warnings

    @classmethod
    def read(cls, path, format=None, strict=False, options=None):
        r = _open_reader(path)
        try:
            p = _P()
            opts = _read_options(format, strict, options)
            code = _lib.profdata_read(ctypes.byref(p), r, ctypes.byref(opts))
            if code < 0:
                _raise(code, _lib.profdata_reader_error(r))
            warnings = _emit_warnings(_lib.profdata_reader_warning_count(r),
                                      lambda i: _lib.profdata_reader_warning(r, i), stacklevel=4)
            return cls(p, warnings)
        finally:
            _lib.profdata_reader_free(r)

    def close(self):
        p, self._p = getattr(self, "_p", None), None
        if p:
            _lib.profdata_profile_free(p)

    @property
    def closed(self):
        return not self._p

    def _handle(self):
        if not self._p:
            raise ValueError("operation on a closed profile")
        return self._p

    def __enter__(self):
        self._handle()
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def __repr__(self):
        if not self._p:
            return "<profdata.Profile (closed)>"
        return "<profdata.Profile %s, %d objects, %d samples>" % (self.format, self.count("objects"),
                                                                  self.count("samples"))

    @property
    def format(self):
        return _lib.profdata_profile_meta(self._handle()).contents.format.decode()

    @property
    def version(self):
        v = _lib.profdata_profile_meta(self._handle()).contents.version
        return v.decode() if v else None

    def count(self, table):
        """Rows of a table, by name: "objects", "classes", "samples", ... (profdata.TABLES)"""
        t = ctypes.c_int()
        if _lib.profdata_table_from_name(ctypes.byref(t), table.encode()) < 0:
            raise ValueError("no table %r; the tables are %s" % (table, ", ".join(TABLES)))
        return _lib.profdata_profile_count(self._handle(), t.value)

    def counts(self):
        return {t: self.count(t) for t in TABLES}

    def reference_count(self):
        """Total non-null references held by objects."""
        return _lib.profdata_profile_reference_count(self._handle())

    def _string(self, sid):
        n = _sz()
        ptr = _lib.profdata_profile_string(self._handle(), sid, ctypes.byref(n)) if sid else None
        return ctypes.string_at(ptr, n.value).decode(errors="replace") if ptr else None

    def _rows(self, table, getter, struct):
        row = struct()
        for i in range(self.count(table)):
            code = getter(self._handle(), i, ctypes.byref(row), ctypes.sizeof(row))
            if code < 0:
                raise Error(code)
            yield i, row

    def functions(self):
        """[(name, signature, source_file, start_line)] of the function table, in input order."""
        return [(self._string(f.name_id), self._string(f.signature_id), self._string(f.source_file_id),
                 f.start_line)
                for _, f in self._rows("functions", _lib.profdata_profile_function_sized, _Function)]

    def classes(self):
        """Classes in input order; name in Java form ("int[]"), internal_name as stored ("[I")."""
        for _, c in self._rows("classes", _lib.profdata_profile_class_sized, _ClassInfo):
            internal = c.name.decode(errors="replace") if c.name else None
            cid = c.dump.id if c.has_dump else c.load.id
            yield Class(cid, _java_name(internal), internal, c.dump.super_id, c.dump.loader_id,
                        c.dump.instance_size)

    def _class_names(self):
        names = {}
        for c in self.classes():
            names.setdefault(c.id, c.name)
        return names

    def objects(self):
        """Objects in input order; size is the shallow size as VisualVM counts it."""
        names = self._class_names()
        for i, o in self._rows("objects", _lib.profdata_profile_object_sized, _Object):
            if o.kind == 2 and not o.class_id:
                cname = _PRIMITIVE_ARRAYS.get(o.elem_type)
            else:
                cname = names.get(o.class_id)
            yield Object(o.id, o.class_id, cname, _KINDS.get(o.kind, str(o.kind)), o.length,
                         _lib.profdata_profile_object_size(self._handle(), i))

    def references(self):
        """Every non-null reference held by an object, as (source id, target id), in input order."""
        cap = 64
        buf = (_u64 * cap)()
        for i, o in self._rows("objects", _lib.profdata_profile_object_sized, _Object):
            n = _lib.profdata_profile_object_refs(self._handle(), i, 0, buf, cap)
            if n > cap:
                cap = n
                buf = (_u64 * cap)()
                n = _lib.profdata_profile_object_refs(self._handle(), i, 0, buf, cap)
            if n < 0:
                raise Error(n)
            source = o.id
            for k in range(n):
                yield Reference(source, buf[k])

    def threads(self):
        for _, t in self._rows("threads", _lib.profdata_profile_thread_sized, _ThreadInfo):
            s = t.start
            yield Thread(s.serial, self._string(s.name_id), self._string(s.group_name_id), s.object_id)

    def _frame(self, frame_id):
        idx = _sz()
        h = self._handle()
        if _lib.profdata_profile_find_frame(h, frame_id, ctypes.byref(idx)) < 0:
            return Frame(None, None, None, None)
        fr = _Frame()
        _lib.profdata_profile_frame_sized(h, idx.value, ctypes.byref(fr), ctypes.sizeof(fr))
        name = source = None
        if fr.function_id and _lib.profdata_profile_find_function(h, fr.function_id, ctypes.byref(idx)) >= 0:
            fn = _Function()
            _lib.profdata_profile_function_sized(h, idx.value, ctypes.byref(fn), ctypes.sizeof(fn))
            name, source = self._string(fn.name_id), self._string(fn.source_file_id)
        return Frame(name, source, fr.line, fr.address if fr.has_address else None)

    def stacks(self):
        """Stacks with their frames, leaf (most recent call) first."""
        cache = {}
        for _, st in self._rows("stacks", _lib.profdata_profile_stack_sized, _Stack):
            frames = []
            for k in range(st.nframes):
                fid = st.frame_ids[k]
                if fid not in cache:
                    cache[fid] = self._frame(fid)
                frames.append(cache[fid])
            yield Stack(st.serial, st.thread_serial, tuple(frames))

    def samples(self):
        for _, s in self._rows("samples", _lib.profdata_profile_sample_sized, _Sample):
            yield Sample(s.stack_serial, s.thread_serial, s.time_ns,
                         tuple(s.values[k] for k in range(s.nvalues)))

    def write(self, path, format, options=None):
        w = _open_writer(path)
        try:
            wo = _WriteOptions(1, format.encode(), options.encode() if options else None)
            code = _lib.profdata_write(self._handle(), w, ctypes.byref(wo))
            if code >= 0:
                code = _lib.profdata_writer_close(w)
            if code < 0:
                _raise(code, _lib.profdata_writer_error(w) if w else None)
            _emit_warnings(_lib.profdata_writer_warning_count(w), lambda i: _lib.profdata_writer_warning(w, i))
        finally:
            _lib.profdata_writer_free(w)


def _sniffed_format(reader: ctypes.c_void_p) -> Optional[str]:
    """The format a read of `reader` will choose (its first bytes stay for that read), or None."""
    f = _P()
    if _lib.profdata_reader_sniff(reader, ctypes.byref(f)) == 0 and f:
        return _lib.profdata_format_name(f).decode()
    return None


def _no_heap_dump(path, format: Optional[str], dump: int) -> "FormatError":
    """An empty histogram says "nothing" where the truth is "not a heap dump": the
    refusal `profdata histo` gives, in its words."""
    return FormatError(_EFORMAT, os.fsdecode(path), None, None,
                       "no objects to count: the input%s holds no heap dump%s"
                       % (" (%s)" % format if format else "", " with that number (dump counts from 0)" if dump > 0 else ""))


def histogram(path, format=None, dump=0):
    """[HistogramRow(name, instances, bytes)] of dump `dump` (-1: all), largest first, streaming.
    Names are in Java form ("java.lang.String", "int[]"). An input with no objects to count (a
    CPU profile, a dump number past the last) raises FormatError, as `profdata histo` refuses it."""
    r = _open_reader(path)
    h = _P()
    try:
        shown = format or _sniffed_format(r)
        opts = _read_options(format, False, None)
        code = _lib.profdata_histogram_read(ctypes.byref(h), r, ctypes.byref(opts), dump)
        if code < 0:
            _raise(code, _lib.profdata_reader_error(r))
        _emit_warnings(_lib.profdata_reader_warning_count(r), lambda i: _lib.profdata_reader_warning(r, i))
        count = _lib.profdata_histogram_count(h)
        if count == 0:
            raise _no_heap_dump(path, shown, dump)
        out = []
        for i in range(count):
            e = _lib.profdata_histogram_entry_at(h, i).contents
            out.append(HistogramRow(e.name.decode(errors="replace"), e.instances, e.bytes))
        return out
    finally:
        _lib.profdata_histogram_free(h)
        _lib.profdata_reader_free(r)


def convert(src, dst, to=None, options=None, read_format=None):
    """Stream src into dst in format `to`, by default the one dst's ending names
    (format_for_filename: ".svg", ".folded", ".pb.gz", ...; a ".gz" after a format's own
    ending names that format, and does not compress); dst appears only when complete."""
    if to is None:
        to = format_for_filename(dst)
        if to is None:
            raise ValueError("no format ends like %r: give `to`" % os.fsdecode(dst))
    r = _open_reader(src)
    w = _P()
    try:
        w = _open_writer(dst)
        ro = _read_options(read_format, False, None)
        wo = _WriteOptions(1, to.encode(), options.encode() if options else None)
        code = _lib.profdata_convert(r, ctypes.byref(ro), w, ctypes.byref(wo))
        if code >= 0:
            code = _lib.profdata_writer_close(w)
        if code < 0:
            err = _lib.profdata_reader_error(r) or _lib.profdata_writer_error(w)
            _raise(code, err)
        _emit_warnings(_lib.profdata_reader_warning_count(r), lambda i: _lib.profdata_reader_warning(r, i))
        _emit_warnings(_lib.profdata_writer_warning_count(w), lambda i: _lib.profdata_writer_warning(w, i))
    finally:
        _lib.profdata_writer_free(w)
        _lib.profdata_reader_free(r)


# ---- heap analysis (profdata/heap.h, doc/heap-analysis.md) ----

class _HeapOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint), ("dump", ctypes.c_long), ("progress", _P), ("payload", _P)]


_heap_sig = {
    "profdata_heap_options_init": (ctypes.c_int, [ctypes.POINTER(_HeapOptions), _sz]),
    "profdata_heap_new": (ctypes.c_int, [ctypes.POINTER(_P), _P, ctypes.POINTER(_HeapOptions)]),
    "profdata_heap_error": (ctypes.POINTER(_Error), [_P]),
    "profdata_heap_free": (None, [_P]),
    "profdata_heap_top_nodes": (ctypes.c_int, [ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_size_t),
                                               _P, ctypes.c_size_t]),
    "profdata_heap_retained": (ctypes.c_uint64, [_P, ctypes.c_size_t]),
    "profdata_heap_size": (ctypes.c_uint64, [_P, ctypes.c_size_t]),
    "profdata_heap_node_class": (ctypes.c_int, [_P, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]),
}
for _name, (_res, _args) in _heap_sig.items():
    _f = getattr(_lib, _name)
    _f.restype = _res
    _f.argtypes = _args


def biggest_objects(profile, n=20, dump=0):
    """[(id, shallow, retained, is_class)] of the n objects of largest retained size in a
    heap dump's Profile, biggest first, as `profdata top` and VisualVM give them."""
    handle = profile._handle()
    h = _P()
    opts = _HeapOptions()
    _lib.profdata_heap_options_init(ctypes.byref(opts), ctypes.sizeof(opts))
    opts.dump = dump
    code = _lib.profdata_heap_new(ctypes.byref(h), handle, ctypes.byref(opts))
    try:
        if code != 0:
            _raise(code, _lib.profdata_heap_error(h) if h else None)
        nodes = (ctypes.c_size_t * max(n, 1))()
        count = ctypes.c_size_t()
        _lib.profdata_heap_top_nodes(nodes, ctypes.byref(count), h, n)
        out = []
        for node in nodes[:count.value]:
            c = ctypes.c_size_t()
            is_class = bool(_lib.profdata_heap_node_class(h, node, ctypes.byref(c)))
            if is_class:
                row = _ClassInfo()
                _lib.profdata_profile_class_sized(handle, c.value, ctypes.byref(row), ctypes.sizeof(row))
                ident = row.load.id or row.dump.id
            else:
                row = _Object()
                _lib.profdata_profile_object_sized(handle, node, ctypes.byref(row), ctypes.sizeof(row))
                ident = row.id
            out.append((ident, _lib.profdata_heap_size(h, node), _lib.profdata_heap_retained(h, node), is_class))
        return out
    finally:
        _lib.profdata_heap_free(h)
