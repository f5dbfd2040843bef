# SPDX-License-Identifier: Apache-2.0
"""Tests of the Python binding against the built library (pytest; run by meson test)."""
import os
import pathlib
import sys
import warnings
from typing import Callable, List

import pytest

import profdata  # the built package, on PYTHONPATH (meson.build)

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "data")
DUMP = os.path.join(DATA, "hprof", "jdk17-minimal.hprof")
CPU = os.path.join(DATA, "gperftools", "cpu-1000hz.prof")
TRACE = os.path.join(DATA, "tracexml", "every-element.xml")


def needs(fmt: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif((fmt, True, True) not in profdata.formats(), reason="no %s codec in this build" % fmt)


def test_version() -> None:
    assert profdata.version().count(".") == 2


def test_missing_file_is_file_not_found() -> None:
    with pytest.raises(FileNotFoundError) as info:
        profdata.open("/nonexistent/dump.hprof")
    assert info.value.filename == "/nonexistent/dump.hprof"


def test_unknown_bytes_are_a_format_error_with_offset(tmp_path: pathlib.Path) -> None:
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"not a profile at all\n")
    with pytest.raises(profdata.FormatError) as info:
        profdata.open(bad)
    assert info.value.offset == 0
    assert isinstance(info.value, ValueError) and isinstance(info.value, profdata.Error)


def test_formats_are_listed() -> None:
    names = [n for n, _, _ in profdata.formats()]
    assert len(names) == len(set(names))


@needs("hprof")
def test_closed_profile_raises_instead_of_crashing() -> None:
    p = profdata.open(DUMP)
    classes = p.classes()
    p.close()
    p.close()  # twice is fine
    assert p.closed
    uses: List[Callable[[], object]] = [lambda: p.count("objects"), lambda: p.format, lambda: next(classes),
                                        lambda: list(p.objects()), lambda: p.write("/tmp/never", "hprof")]
    for use in uses:
        with pytest.raises(ValueError):
            use()
    assert "closed" in repr(p)


@needs("hprof")
def test_iterators_over_a_heap_dump() -> None:
    with profdata.open(DUMP) as p:
        assert p.format == "hprof"
        objects = list(p.objects())
        assert len(objects) == p.count("objects") > 1000
        classes = {c.id: c for c in p.classes()}
        assert any(c.name == "java.lang.String" and c.internal_name == "java/lang/String"
                   for c in classes.values())
        assert all(o.class_name for o in objects)
        refs = list(p.references())
        assert len(refs) == p.reference_count() > 0
        ids = {o.id for o in objects}
        assert all(r.source in ids for r in refs[:1000])
        stacks = list(p.stacks())
        assert any(f.function == "main" for s in stacks for f in s.frames)
        assert len(p.functions()) == p.count("functions")
        assert all(name for name, _, _, _ in p.functions())


@needs("hprof")
def test_histogram_rows_are_named_tuples_that_sum_to_the_objects() -> None:
    rows = profdata.histogram(DUMP)
    assert rows[0].bytes >= rows[-1].bytes
    with profdata.open(DUMP) as p:
        assert sum(r.instances for r in rows) == p.count("objects")


@needs("hprof")
def test_convert_and_write(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "copy.hprof"
    profdata.convert(DUMP, out, "hprof")
    with profdata.open(DUMP) as p, profdata.open(out) as q:
        assert q.count("objects") == p.count("objects")
        p.write(tmp_path / "again.hprof", "hprof")
    assert (tmp_path / "again.hprof").stat().st_size == out.stat().st_size


def test_table_names_come_from_the_library() -> None:
    assert profdata.TABLES[:3] == ["strings", "classes", "objects"]
    assert "trace_contexts" in profdata.TABLES
    assert len(profdata.TABLES) == len(set(profdata.TABLES))


@needs("tracexml")
def test_count_of_every_table_the_library_names() -> None:
    with profdata.open(TRACE) as p:
        assert p.count("trace_contexts") > 0
        assert p.counts()["trace_contexts"] == p.count("trace_contexts")
        assert set(p.counts()) == set(profdata.TABLES)
        with pytest.raises(ValueError, match="no table 'contexts'"):
            p.count("contexts")


def test_format_from_a_file_name() -> None:
    assert profdata.format_for_filename("cpu.svg") == "flamegraph"
    assert profdata.format_for_filename("dump.hprof.gz") == "hprof"
    assert profdata.format_for_filename("/tmp/out.speedscope.json") == "speedscope"
    assert profdata.format_for_filename("notes.txt") is None


@needs("gperftools")
def test_convert_takes_the_format_from_the_output_name(tmp_path: pathlib.Path) -> None:
    if not any(name == "folded" and can_write for name, _, can_write in profdata.formats()):
        pytest.skip("no folded codec in this build")
    out = tmp_path / "cpu.folded"
    profdata.convert(CPU, out)
    assert out.read_text().rstrip("\n").rsplit(" ", 1)[1].isdigit()
    with pytest.raises(ValueError, match="give `to`"):
        profdata.convert(CPU, tmp_path / "cpu.unknown")
    assert not (tmp_path / "cpu.unknown").exists()


@needs("gperftools")
def test_samples_and_stacks_of_a_cpu_profile() -> None:
    with profdata.open(CPU) as p:
        samples = list(p.samples())
        assert len(samples) == p.count("samples") > 0
        stacks = {s.serial: s for s in p.stacks()}
        assert all(s.stack_serial in stacks for s in samples)
        assert all(len(s.values) >= 1 for s in samples)


@needs("hprof")
def test_repairs_arrive_as_warnings(tmp_path: pathlib.Path) -> None:
    data = open(DUMP, "rb").read()
    cut = tmp_path / "cut.hprof"
    cut.write_bytes(data[: len(data) // 2])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with profdata.open(cut) as p:
            assert p.warnings
    assert any(issubclass(w.category, profdata.ProfdataWarning) for w in caught)
    with pytest.raises(profdata.FormatError) as info:
        profdata.open(cut, strict=True)
    assert info.value.offset is not None


@needs("hprof")
def test_biggest_objects_by_retained_size() -> None:
    with profdata.open(os.path.join(DATA, "hprof", "jdk17-minimal.hprof")) as p:
        top = profdata.biggest_objects(p, 3)
    # as VisualVM lists them (tests/interop/heap-visualvm.sh): java.lang.System's class first
    assert top[0] == (4272557776, 72, 35424, True)
    assert top[1] == (4272851848, 64, 33936, False)
    assert len(top) == 3


@needs("hprof")
def test_a_failed_heap_analysis_says_why() -> None:
    with profdata.open(os.path.join(DATA, "hprof", "jdk17-minimal.hprof")) as p:
        with pytest.raises(profdata.Error) as info:
            profdata.biggest_objects(p, 3, dump=5)
    assert info.value.code < 0
    assert "no dump 5" in info.value.message


@needs("gperftools")
def test_histogram_of_a_cpu_profile_is_refused_with_the_reason() -> None:
    # As `profdata histo` says it: no empty list where the truth is "not a heap dump".
    with pytest.raises(profdata.FormatError, match=r"cpu-1000hz\.prof: no objects to count: "
                                                   r"the input \(gperftools\) holds no heap dump$"):
        profdata.histogram(CPU)


@needs("hprof")
def test_histogram_of_a_dump_number_past_the_last_is_refused() -> None:
    with pytest.raises(profdata.FormatError, match=r"\(hprof\) holds no heap dump with that number"):
        profdata.histogram(DUMP, dump=3)


@needs("hprof")
def test_messages_give_the_offset_once(tmp_path: pathlib.Path) -> None:
    bad = tmp_path / "idsize.hprof"
    bad.write_bytes(b"JAVA PROFILE 1.0.2\0" + b"\0\0\0\3" + b"\0" * 8)
    with pytest.raises(profdata.FormatError) as info:
        profdata.open(bad)
    assert info.value.offset == 19
    assert "at offset 19" in info.value.message  # the library's words, kept
    assert str(info.value) == "%s, byte 19: HPROF identifier size 3 is not supported (only 4 and 8)" % bad


@needs("ibm-classic")
def test_messages_give_the_line_once() -> None:
    with pytest.raises(profdata.FormatError) as info:
        profdata.open(os.path.join(DATA, "classic", "truncated.txt"), strict=True)
    assert info.value.line == 17
    assert str(info.value).endswith("truncated.txt, line 17, byte 546: the input ends inside a reference line;"
                                    " its last reference is dropped")


@needs("gperftools")
def test_an_output_folder_is_a_directory_error_as_for_input(tmp_path: pathlib.Path) -> None:
    with pytest.raises(IsADirectoryError) as info:
        profdata.convert(CPU, tmp_path, "gperftools")
    assert info.value.filename == str(tmp_path)
    with profdata.open(CPU) as p, pytest.raises(IsADirectoryError):
        p.write(tmp_path, "gperftools")
    with pytest.raises(FileNotFoundError):
        profdata.convert(CPU, tmp_path / "no" / "cpu.prof", "gperftools")
    with pytest.raises(IsADirectoryError):
        profdata.open(tmp_path)
