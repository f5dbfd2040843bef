# SPDX-License-Identifier: Apache-2.0
"""Inputs as Python has them: a path, bytes, a file object, a descriptor, gzip; the same model from each."""
import gc
import gzip
import io
import os
import pathlib
import sys
from typing import Any, Tuple

import pytest

import profdata  # the built package, on PYTHONPATH (meson.build)

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "data")
DUMP = os.path.join(DATA, "hprof", "jdk17-minimal.hprof")
DUMP_GZ = os.path.join(DATA, "hprof", "jdk17-minimal.hprof.gz")  # made by jcmd GC.heap_dump -gz=1
CPU = os.path.join(DATA, "gperftools", "cpu-1000hz.prof")

pytestmark = pytest.mark.skipif(("hprof", True, True) not in profdata.formats(), reason="no hprof codec")


Model = Tuple[Any, ...]


def model(p: profdata.Profile) -> Model:
    """What must read the same whatever the input's kind: counts, classes, objects, references."""
    return p.format, p.counts(), list(p.classes()), list(p.objects()), p.reference_count()


def read(src: Any, **kw: Any) -> Model:
    with profdata.open(src, **kw) as p:
        return model(p)


@pytest.fixture(scope="module")
def raw() -> bytes:
    with open(DUMP, "rb") as f:
        return f.read()


@pytest.fixture(scope="module")
def expected() -> Model:
    return read(DUMP)


def test_bytes_bytearray_and_memoryview_read_as_the_path(raw: bytes, expected: Model) -> None:
    for src in (raw, bytearray(raw), memoryview(raw), memoryview(bytearray(raw)), memoryview(raw)[:]):
        assert read(src) == expected, type(src)


def test_a_view_of_part_of_the_bytes_reads_that_part(raw: bytes, expected: Model) -> None:
    padded = b"JUNK" + raw + b""
    assert read(memoryview(padded)[4:]) == expected


def test_bytes_are_read_in_place_and_kept_alive_by_the_model(raw: bytes, expected: Model) -> None:
    data = bytes(raw)  # a fresh object, referenced by this frame alone
    before = sys.getrefcount(data)
    p = profdata.open(data)
    assert sys.getrefcount(data) == before + 1  # the model holds the bytes it points into: no copy
    objects = p.objects  # a Table keeps the model, and so the bytes, after the Profile is gone
    del p, data
    gc.collect()
    assert len(list(objects())) == expected[1]["objects"]


def test_file_objects_are_read_through_read(raw: bytes, expected: Model) -> None:
    with open(DUMP, "rb") as f:
        assert read(f) == expected
    assert read(io.BytesIO(raw)) == expected
    with open(DUMP, "rb", buffering=0) as f:  # a raw FileIO
        assert read(f) == expected


def test_a_file_object_is_read_from_its_position(raw: bytes, expected: Model) -> None:
    f = io.BytesIO(b"header the caller skips\n" + raw)
    f.readline()
    assert read(f) == expected


def test_a_descriptor_is_read_from_its_position_and_left_open(expected: Model) -> None:
    fd = os.open(DUMP, os.O_RDONLY)
    try:
        assert read(fd) == expected
        os.fstat(fd)  # still open: the caller owns it
        os.lseek(fd, 0, os.SEEK_SET)
        assert read(fd) == expected
    finally:
        os.close(fd)


def test_a_pipe_descriptor_streams(raw: bytes, expected: Model) -> None:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the writer: the reader below reads as the bytes arrive
        os.close(r)
        with os.fdopen(w, "wb") as out:
            out.write(raw)
        os._exit(0)
    os.close(w)
    try:
        assert read(r) == expected
    finally:
        os.close(r)
        os.waitpid(pid, 0)


def test_gzip_is_recognised_in_every_kind_of_input(raw: bytes, expected: Model) -> None:
    packed = gzip.compress(raw, 1)
    assert read(packed) == expected
    assert read(io.BytesIO(packed)) == expected
    assert read(gzip.GzipFile(fileobj=io.BytesIO(packed))) == expected  # a wrapper that decompresses itself
    with open(DUMP_GZ, "rb") as f:  # the JDK's own gzip, as bytes, file object and path
        jdk_gz = f.read()
    assert read(jdk_gz) == read(io.BytesIO(jdk_gz)) == read(DUMP_GZ)


def test_histogram_and_convert_take_every_kind(raw: bytes, tmp_path: pathlib.Path) -> None:
    rows = profdata.histogram(DUMP)
    assert profdata.histogram(raw) == profdata.histogram(io.BytesIO(raw)) == rows
    assert profdata.histogram(gzip.compress(raw, 1)) == rows
    profdata.convert(DUMP, tmp_path / "a.hprof")
    with open(DUMP, "rb") as f:
        profdata.convert(f, tmp_path / "b.hprof")
    profdata.convert(bytearray(raw), tmp_path / "c.hprof")
    a = (tmp_path / "a.hprof").read_bytes()
    assert a == (tmp_path / "b.hprof").read_bytes() == (tmp_path / "c.hprof").read_bytes()


def test_a_cpu_profile_needs_no_name_to_be_recognised() -> None:
    with open(CPU, "rb") as f:
        data = f.read()
    with profdata.open(data) as p:  # the library sniffs content, never a name
        assert p.format == "gperftools"
    with profdata.open(data, format="gperftools") as p:
        assert p.count("samples") > 0


def test_errors_name_the_input(tmp_path: pathlib.Path) -> None:
    with pytest.raises(profdata.FormatError, match=r"^<bytes>, byte 0: ") as info:
        profdata.open(b"not a profile at all\n")
    assert info.value.filename == "<bytes>" and info.value.offset == 0
    with pytest.raises(profdata.FormatError, match=r"^<BytesIO>, byte 0: "):
        profdata.histogram(io.BytesIO(b"not a profile at all\n"))
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"not a profile at all\n")
    with open(bad, "rb") as f, pytest.raises(profdata.FormatError) as info:
        profdata.open(f)
    assert info.value.filename == str(bad)
    fd = os.open(bad, os.O_RDONLY)
    try:
        with pytest.raises(profdata.FormatError, match=r"^<fd %d>, byte 0: " % fd):
            profdata.open(fd)
    finally:
        os.close(fd)


def test_a_truncated_input_names_its_offset(raw: bytes) -> None:
    with pytest.raises(profdata.FormatError) as info:
        profdata.open(raw[:100000], strict=True)
    offset = info.value.offset
    assert info.value.filename == "<bytes>" and offset is not None and 0 < offset <= 100000


def test_what_read_raises_is_raised(tmp_path: pathlib.Path) -> None:
    class Failing(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def read(self, n: int = -1) -> bytes:
            raise ConnectionResetError("the peer went away")

    with pytest.raises(ConnectionResetError, match="the peer went away"):
        profdata.open(Failing())

    class Text:
        name = "text.txt"

        def read(self, n: int = -1) -> str:
            return "a str"

    with pytest.raises(TypeError, match="returns bytes"):
        profdata.histogram(Text())  # type: ignore[arg-type]  # what the test is about

    class Greedy:
        def read(self, n: int = -1) -> bytes:
            return b"x" * (n + 1)

    with pytest.raises(ValueError, match="returned"):
        profdata.convert(Greedy(), tmp_path / "never.folded")
    assert not (tmp_path / "never.folded").exists()


def test_what_is_no_input_is_refused() -> None:
    with pytest.raises(TypeError, match="not float"):
        profdata.open(1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not negative"):
        profdata.open(-1)
    fd = os.open(DUMP, os.O_RDONLY)
    os.close(fd)
    with pytest.raises(OSError):  # EBADF, as os.read() says it
        profdata.open(fd)
