"""Python binding for libprofdata over its public C API (ctypes, no compiler needed).

    import profdata
    with profdata.Profile.read("dump.hprof.gz") as p:
        print(p.format, p.count("objects"))
    for name, instances, size in profdata.histogram("dump.hprof"):
        ...
    profdata.convert("cpu.prof", "cpu.folded", "folded")

Errors raise profdata.Error with the file, byte offset and message the
library reported.
"""
import ctypes
import ctypes.util
import os

__all__ = ["Error", "Profile", "histogram", "convert", "version", "formats", "biggest_objects"]

TABLES = ["strings", "classes", "objects", "roots", "dumps", "heap_infos", "threads", "functions",
          "frames", "stacks", "sample_types", "sample_groups", "samples", "alloc_sites",
          "heap_summaries", "control_settings", "mappings", "trace_events", "unknown_records",
          "attachments", "class_unloads", "class_loads", "class_dumps"]


def _load():
    path = os.environ.get("PROFDATA_LIBRARY") or ctypes.util.find_library("profdata")
    if not path:
        path = "libprofdata.so.0.2"  # the soname of this release (doc/api-policy.md)
    return ctypes.CDLL(path)


_lib = _load()


class _Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char_p), ("name", ctypes.c_char_p),
                ("offset", ctypes.c_uint64), ("line", ctypes.c_uint64)]


class _ReadOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint), ("format", ctypes.c_char_p), ("mode", ctypes.c_int),
                ("options", ctypes.c_char_p)]


class _WriteOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint), ("format", ctypes.c_char_p), ("options", ctypes.c_char_p)]


class _Meta(ctypes.Structure):
    _fields_ = [("format", ctypes.c_char_p), ("version", ctypes.c_char_p), ("id_size", ctypes.c_uint32),
                ("word_size", ctypes.c_uint32), ("big_endian", ctypes.c_int),
                ("timestamp_ms", ctypes.c_uint64), ("period", ctypes.c_uint64),
                ("period_type", ctypes.c_char_p), ("period_unit", ctypes.c_char_p),
                ("comments", ctypes.c_void_p), ("ncomments", ctypes.c_size_t)]


class _HistoEntry(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("class_id", ctypes.c_uint64),
                ("instances", ctypes.c_uint64), ("bytes", ctypes.c_uint64)]


class _Function(ctypes.Structure):
    # Row getters take the size of the caller's struct (doc/api-policy.md), so
    # this mirror stays valid when a later release appends members.
    _fields_ = [("id", ctypes.c_uint64), ("name_id", ctypes.c_uint64), ("signature_id", ctypes.c_uint64),
                ("source_file_id", ctypes.c_uint64), ("class_serial", ctypes.c_uint32),
                ("start_line", ctypes.c_int32), ("end_line", ctypes.c_int32)]


_P = ctypes.c_void_p
_sig = {
    "profdata_version_string": (ctypes.c_char_p, []),
    "profdata_strerror": (ctypes.c_char_p, [ctypes.c_int]),
    "profdata_reader_open_path": (ctypes.c_int, [ctypes.POINTER(_P), ctypes.c_char_p]),
    "profdata_reader_free": (None, [_P]),
    "profdata_reader_error": (ctypes.POINTER(_Error), [_P]),
    "profdata_reader_warning_count": (ctypes.c_size_t, [_P]),
    "profdata_reader_warning": (ctypes.POINTER(_Error), [_P, ctypes.c_size_t]),
    "profdata_read": (ctypes.c_int, [ctypes.POINTER(_P), _P, ctypes.POINTER(_ReadOptions)]),
    "profdata_profile_free": (None, [_P]),
    "profdata_profile_count": (ctypes.c_size_t, [_P, ctypes.c_int]),
    "profdata_profile_meta": (ctypes.POINTER(_Meta), [_P]),
    "profdata_profile_reference_count": (ctypes.c_uint64, [_P]),
    "profdata_profile_string": (ctypes.c_void_p, [_P, ctypes.c_uint64, ctypes.POINTER(ctypes.c_size_t)]),
    "profdata_profile_function_sized": (ctypes.c_int, [_P, ctypes.c_size_t, ctypes.POINTER(_Function),
                                                       ctypes.c_size_t]),
    "profdata_writer_open_path": (ctypes.c_int, [ctypes.POINTER(_P), ctypes.c_char_p]),
    "profdata_writer_close": (ctypes.c_int, [_P]),
    "profdata_writer_free": (None, [_P]),
    "profdata_writer_error": (ctypes.POINTER(_Error), [_P]),
    "profdata_write": (ctypes.c_int, [_P, _P, ctypes.POINTER(_WriteOptions)]),
    "profdata_convert": (ctypes.c_int, [_P, ctypes.POINTER(_ReadOptions), _P, ctypes.POINTER(_WriteOptions)]),
    "profdata_histogram_read": (ctypes.c_int, [ctypes.POINTER(_P), _P, ctypes.POINTER(_ReadOptions), ctypes.c_long]),
    "profdata_histogram_count": (ctypes.c_size_t, [_P]),
    "profdata_histogram_entry_at": (ctypes.POINTER(_HistoEntry), [_P, ctypes.c_size_t]),
    "profdata_histogram_free": (None, [_P]),
    "profdata_format_count": (ctypes.c_size_t, []),
    "profdata_format_at": (_P, [ctypes.c_size_t]),
    "profdata_format_name": (ctypes.c_char_p, [_P]),
    "profdata_format_can_read": (ctypes.c_int, [_P]),
    "profdata_format_can_write": (ctypes.c_int, [_P]),
}
for _name, (_res, _args) in _sig.items():
    _f = getattr(_lib, _name)
    _f.restype = _res
    _f.argtypes = _args


class Error(Exception):
    """A failure reported by libprofdata: code, file name, byte offset, line, message."""

    def __init__(self, code, name=None, offset=None, line=None, message=None):
        self.code, self.name, self.offset, self.line = code, name, offset, line
        self.message = message or _lib.profdata_strerror(code).decode()
        where = "" if offset is None else " at byte %d" % offset
        where += "" if not line else ", line %d" % line
        super().__init__("%s%s: %s" % (name or "profdata", where, self.message))


def _raise(code, err_ptr):
    if err_ptr:
        e = err_ptr.contents
        off = None if e.offset == 2 ** 64 - 1 else e.offset
        raise Error(code, e.name.decode(errors="replace"), off, e.line, e.message.decode(errors="replace"))
    raise Error(code)


def _read_options(fmt, strict, options):
    return _ReadOptions(1, fmt.encode() if fmt else None, 1 if strict else 0,
                        options.encode() if options else None)


def _open_reader(path):
    r = _P()
    code = _lib.profdata_reader_open_path(ctypes.byref(r), os.fsencode(path))
    if code < 0:
        err = _lib.profdata_reader_error(r) if r else None
        try:
            _raise(code, err)
        finally:
            _lib.profdata_reader_free(r)
    return r


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
            warnings = []
            for i in range(_lib.profdata_reader_warning_count(r)):
                w = _lib.profdata_reader_warning(r, i)
                if w:
                    warnings.append(w.contents.message.decode(errors="replace"))
            return cls(p, warnings)
        finally:
            _lib.profdata_reader_free(r)

    def close(self):
        if self._p:
            _lib.profdata_profile_free(self._p)
            self._p = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    @property
    def format(self):
        return _lib.profdata_profile_meta(self._p).contents.format.decode()

    @property
    def version(self):
        v = _lib.profdata_profile_meta(self._p).contents.version
        return v.decode() if v else None

    def count(self, table):
        """Rows of a table, by name: "objects", "classes", "samples", ..."""
        return _lib.profdata_profile_count(self._p, TABLES.index(table))

    def counts(self):
        return {t: self.count(t) for t in TABLES}

    def references(self):
        return _lib.profdata_profile_reference_count(self._p)

    def _string(self, sid):
        n = ctypes.c_size_t()
        ptr = _lib.profdata_profile_string(self._p, sid, ctypes.byref(n)) if sid else None
        return ctypes.string_at(ptr, n.value).decode(errors="replace") if ptr else None

    def functions(self):
        """[(name, signature, source_file, start_line)] of the function table, in input order."""
        out = []
        f = _Function()
        for i in range(self.count("functions")):
            code = _lib.profdata_profile_function_sized(self._p, i, ctypes.byref(f), ctypes.sizeof(f))
            if code < 0:
                raise Error(code)
            out.append((self._string(f.name_id), self._string(f.signature_id), self._string(f.source_file_id),
                        f.start_line))
        return out

    def write(self, path, format, options=None):
        w = _P()
        code = _lib.profdata_writer_open_path(ctypes.byref(w), os.fsencode(path))
        try:
            if code >= 0:
                wo = _WriteOptions(1, format.encode(), options.encode() if options else None)
                code = _lib.profdata_write(self._p, w, ctypes.byref(wo))
            if code >= 0:
                code = _lib.profdata_writer_close(w)
            if code < 0:
                _raise(code, _lib.profdata_writer_error(w) if w else None)
        finally:
            _lib.profdata_writer_free(w)


def histogram(path, format=None, dump=0):
    """[(java_class_name, instances, shallow_bytes)] of dump `dump` (-1: all), largest first, streaming."""
    r = _open_reader(path)
    h = _P()
    try:
        opts = _read_options(format, False, None)
        code = _lib.profdata_histogram_read(ctypes.byref(h), r, ctypes.byref(opts), dump)
        if code < 0:
            _raise(code, _lib.profdata_reader_error(r))
        out = []
        for i in range(_lib.profdata_histogram_count(h)):
            e = _lib.profdata_histogram_entry_at(h, i).contents
            out.append((e.name.decode(errors="replace"), e.instances, e.bytes))
        return out
    finally:
        _lib.profdata_histogram_free(h)
        _lib.profdata_reader_free(r)


def convert(src, dst, to, options=None, read_format=None):
    """Stream src into dst in format `to`; dst appears only when complete."""
    r = _open_reader(src)
    w = _P()
    try:
        code = _lib.profdata_writer_open_path(ctypes.byref(w), os.fsencode(dst))
        if code < 0:
            _raise(code, _lib.profdata_writer_error(w) if w else None)
        ro = _read_options(read_format, False, None)
        wo = _WriteOptions(1, to.encode(), options.encode() if options else None)
        code = _lib.profdata_convert(r, ctypes.byref(ro), w, ctypes.byref(wo))
        if code >= 0:
            code = _lib.profdata_writer_close(w)
        if code < 0:
            err = _lib.profdata_reader_error(r) or _lib.profdata_writer_error(w)
            _raise(code, err)
    finally:
        _lib.profdata_writer_free(w)
        _lib.profdata_reader_free(r)


# ---- heap analysis (profdata/heap.h, doc/heap-analysis.md) ----

class _HeapOptions(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("dump", ctypes.c_long), ("progress", _P), ("progress_user", _P)]


_heap_sig = {
    "profdata_heap_analyze": (ctypes.c_int, [ctypes.POINTER(_P), _P, ctypes.POINTER(_HeapOptions)]),
    "profdata_heap_free": (None, [_P]),
    "profdata_heap_top": (ctypes.c_size_t, [_P, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]),
    "profdata_heap_retained": (ctypes.c_uint64, [_P, ctypes.c_size_t]),
    "profdata_heap_size": (ctypes.c_uint64, [_P, ctypes.c_size_t]),
    "profdata_heap_node_class": (ctypes.c_int, [_P, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]),
    "profdata_profile_object_sized": (ctypes.c_int, [_P, ctypes.c_size_t, _P, ctypes.c_size_t]),
    "profdata_profile_class_sized": (ctypes.c_int, [_P, ctypes.c_size_t, _P, ctypes.c_size_t]),
}
for _name, (_res, _args) in _heap_sig.items():
    _f = getattr(_lib, _name)
    _f.restype = _res
    _f.argtypes = _args


def biggest_objects(profile, n=20, dump=0):
    """[(id, shallow, retained, is_class)] of the n objects of largest retained size in a
    heap dump's Profile, biggest first, as `profdata top` and VisualVM give them."""
    h = _P()
    opts = _HeapOptions(ctypes.sizeof(_HeapOptions), dump, None, None)
    code = _lib.profdata_heap_analyze(ctypes.byref(h), profile._p, ctypes.byref(opts))
    if code != 0:
        raise Error(code)
    try:
        nodes = (ctypes.c_size_t * max(n, 1))()
        out = []
        for node in nodes[:_lib.profdata_heap_top(h, n, nodes)]:
            c = ctypes.c_size_t()
            is_class = bool(_lib.profdata_heap_node_class(h, node, ctypes.byref(c)))
            # The row getters write no more than the caller's struct holds: the id is all we take.
            row = (ctypes.c_uint64 * 3)()
            if is_class:  # profdata_class_info: its load record's id follows time_us and serial
                _lib.profdata_profile_class_sized(profile._p, c.value, row, ctypes.sizeof(row))
                ident = row[2]
            else:  # profdata_object: the id comes first
                _lib.profdata_profile_object_sized(profile._p, node, row, 8)
                ident = row[0]
            out.append((ident, _lib.profdata_heap_size(h, node), _lib.profdata_heap_retained(h, node), is_class))
        return out
    finally:
        _lib.profdata_heap_free(h)
