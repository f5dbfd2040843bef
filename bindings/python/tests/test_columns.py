# SPDX-License-Identifier: Apache-2.0
"""Columns at C speed (profdata_profile_column) and DataFrames, against the row iterators."""
import os

import pytest

import profdata  # the built package, on PYTHONPATH (meson.build)

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "data")
DUMP = os.path.join(DATA, "hprof", "jdk17-minimal.hprof")
CPU = os.path.join(DATA, "gperftools", "cpu-1000hz.prof")


def test_columns_are_listed_by_the_library() -> None:
    tables = {c[0] for c in profdata.COLUMNS}
    assert {"objects", "frames", "stacks", "samples"} <= tables
    assert all(c[0] in profdata.TABLES for c in profdata.COLUMNS)
    assert ("objects", "size", "Q", "plain") in [c[:4] for c in profdata.COLUMNS]


def test_a_column_is_a_typed_buffer_that_matches_the_rows() -> None:
    with profdata.open(DUMP) as p:
        sizes = p.objects.column("size")
        assert sizes.format == "Q" and len(sizes) == len(p.objects) == p.count("objects")
        rows = list(p.objects())
        assert list(sizes) == [o.size for o in rows]
        assert list(p.objects.column("id")) == [o.id for o in rows]
        assert sum(sizes) == sum(r.bytes for r in profdata.histogram(DUMP))
        with pytest.raises(ValueError, match="no column 'sizes' in objects"):
            p.objects.column("sizes")


def test_references_are_offsets_and_targets() -> None:
    with profdata.open(DUMP) as p:
        offsets = p.objects.column("references_offsets")
        targets = p.objects.column("references")
        assert len(offsets) == p.count("objects") + 1 and offsets[0] == 0
        assert offsets[-1] == len(targets) == p.reference_count()
        ids = p.objects.column("id")
        refs = list(p.references())
        flat = [(ids[i], targets[k]) for i in range(len(ids)) for k in range(offsets[i], offsets[i + 1])]
        assert flat == [tuple(r) for r in refs]


def test_a_closed_profile_has_no_columns() -> None:
    p = profdata.open(DUMP)
    p.close()
    with pytest.raises(ValueError):
        p.objects.column("size")


def test_numpy_takes_a_column_without_a_copy() -> None:
    np = pytest.importorskip("numpy")
    with profdata.open(DUMP) as p:
        view = p.objects.column("size")
        a = np.asarray(view)
        assert a.dtype == np.uint64 and a.base is not None
        assert np.shares_memory(a, np.asarray(view))
        assert int(a.sum()) == sum(view)


def test_objects_as_a_dataframe_with_class_names() -> None:
    pytest.importorskip("pandas")
    with profdata.open(DUMP) as p:
        df = p.to_pandas("objects")
        rows = list(p.objects())
    assert len(df) == len(rows)
    assert list(df["class_name"].astype(str)) == [o.class_name for o in rows]
    by_class = df.groupby("class_name", observed=True)["size"].agg(["count", "sum"])
    top = profdata.histogram(DUMP)[0]
    assert (by_class.loc[top.name, "count"], by_class.loc[top.name, "sum"]) == (top.instances, top.bytes)


def test_samples_and_frames_as_dataframes() -> None:
    pytest.importorskip("pandas")
    with profdata.open(CPU) as p:
        samples = p.to_pandas("samples")
        frames = p.to_pandas("frames")
        rows = list(p.samples())
        with pytest.raises(ValueError, match="to_pandas takes"):
            p.to_pandas("strings")
    assert list(samples["stack"]) == [s.stack_serial for s in rows]
    assert list(samples["value0"]) == [s.values[0] for s in rows]
    assert len(frames) > 0 and "function" in frames and "address" in frames


def test_the_histogram_of_a_model_is_the_streamed_one() -> None:
    with profdata.open(DUMP) as p:
        h = p.histogram()
    rows = profdata.histogram(DUMP)
    if isinstance(h, list):
        assert h == rows
    else:
        assert list(h.itertuples(index=False, name=None)) == [tuple(r) for r in rows]


def test_top_sums_per_function() -> None:
    with profdata.open(CPU) as p:
        top = p.top()
        lines = p.top("lines")
        with pytest.raises(ValueError, match="top groups by"):
            p.top("classes")
        with pytest.raises(profdata.Error, match="sample type"):
            p.top(sample_type="no-such-type")
    with profdata.open(DUMP) as p, pytest.raises(profdata.Error):
        p.top()
    if isinstance(top, list):
        pytest.skip("no pandas: rows only")
    total = top.attrs["total"]
    assert total > 0 and int(top["flat"].sum()) == total  # every sample's leaf, once
    assert top["cum"].max() <= total and list(top.columns[:3]) == ["name", "flat", "flat%"]
    assert (top["flat"].abs().diff().dropna() <= 0).all()  # largest flat first
    assert len(lines) >= len(top)
