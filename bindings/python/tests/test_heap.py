# SPDX-License-Identifier: Apache-2.0
"""Heap analysis, merge and diff of the Python binding, against the tool's own answers
(`profdata top`, `path`, `histo --retained`, `diff`, `merge`, `waste`) on the committed
fixtures. The tool comes from PROFDATA_TOOL (meson.build); without it those tests skip."""
import gc
import html
import json
import os
import pathlib
import subprocess
import threading
from typing import Any, Dict, Iterator, List, Tuple

import pytest

import profdata

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "data")
DUMP = os.path.join(DATA, "hprof", "jdk17-minimal.hprof")
OLD, NEW = (os.path.join(DATA, "hprof", "jdk17-growth-%d.hprof.gz" % k) for k in (1, 2))
CPU = os.path.join(DATA, "gperftools", "cpu-1000hz.prof")
CPU2 = os.path.join(DATA, "gperftools", "cpu-100hz.prof")
TOOL = os.environ.get("PROFDATA_TOOL")


def needs(fmt: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif((fmt, True, True) not in profdata.formats(), reason="no %s codec in this build" % fmt)


def tool_json(*args: str) -> Any:
    if not TOOL or not os.access(TOOL, os.X_OK):
        pytest.skip("no profdata tool (PROFDATA_TOOL)")
    out = subprocess.run([TOOL, "--quiet", *args, "--json"], check=True, stdout=subprocess.PIPE).stdout
    return json.loads(out)


def rows(table: Any) -> List[Tuple[Any, ...]]:
    """A DataFrame's rows as tuples, or the list of named tuples as it is."""
    if isinstance(table, list):
        return [tuple(r) for r in table]
    return [tuple(r) for r in table.itertuples(index=False)]


@pytest.fixture(scope="module")
def heap() -> Iterator[profdata.Heap]:
    with profdata.open(DUMP) as p:
        yield p.heap()


def shown(obj: Dict[str, Any]) -> str:
    """The tool's JSON name of an object as the binding shows it ("class X" for a class object)."""
    return str("class " + obj["class_object"] if "class_object" in obj else obj["class"])


@needs("hprof")
def test_top_is_the_tools(heap: profdata.Heap) -> None:
    want = [(o["id"], shown(o), o["shallow"], o["retained"]) for o in tool_json("top", DUMP, "-n", "25")["objects"]]
    assert rows(heap.top(25)) == want
    assert len(want) == 25 and want[0][3] >= want[-1][3]


@needs("hprof")
def test_top_rows_are_named_tuples_without_pandas(heap: profdata.Heap, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins
    real = builtins.__import__
    monkeypatch.setattr(builtins, "__import__",
                        lambda name, *a, **k: (_ for _ in ()).throw(ImportError(name)) if name == "pandas"
                        else real(name, *a, **k))
    top = heap.top(3)
    assert isinstance(top, list) and isinstance(top[0], profdata.HeapObject)
    assert top[0].retained == heap.retained(top[0].id) and top[0].shallow == heap.shallow(top[0].id)


@needs("hprof")
def test_paths_are_the_tools(heap: profdata.Heap) -> None:
    for oid, _, _, _ in rows(heap.top(8)):
        want = tool_json("path", DUMP, str(oid))["path"]
        got = heap.path(oid)
        assert [(s.id, s.class_name, s.via, s.field, s.index) for s in got] == \
            [(w["id"], shown(w), w["via"], w.get("field"), w.get("index")) for w in want]
        assert got[0].root_kind is not None and got[0].via == "root " + got[0].root_kind or \
            got[0].via.startswith("root (")
        assert all(s.root_kind is None for s in got[1:]) and got[-1].id == oid


@needs("hprof")
def test_class_retained_is_the_tools(heap: profdata.Heap) -> None:
    want = {c["name"]: (c["instances"], c["bytes"], c["retained"])
            for c in tool_json("histo", "--retained", DUMP)["classes"]}
    got = rows(heap.class_retained())
    assert {name: (i, b, r) for name, i, b, r in got} == want
    assert [r[3] for r in got] == sorted((r[3] for r in got), reverse=True)


@needs("hprof")
def test_reachable_bytes_are_the_waste_reports(heap: profdata.Heap) -> None:
    assert heap.reachable.bytes == tool_json("waste", DUMP)["reachable"]
    assert heap.reachable.objects > 0 and heap.unreachable.objects >= 0


@needs("hprof")
def test_waste_is_the_tools() -> None:
    dump = os.path.join(DATA, "hprof", "jdk17-waste.hprof.gz")
    want = tool_json("waste", dump, "-n", "30")
    with profdata.open(dump) as p:
        w = p.heap().waste(limit=30)
    assert w.totals["reachable_bytes"] == want["reachable"]
    assert (w.totals["string_wasted"], w.totals["array_wasted"], w.totals["collection_wasted"],
            w.totals["boxed_wasted"]) == (want["strings"]["wasted"], want["arrays"]["wasted"],
                                          want["collections"]["wasted"], want["boxed"]["wasted"])
    assert [r[:7] + ([o for o in r[7]],) for r in rows(w.strings)] == [
        (s["text"], s["length"], s["truncated"], s["count"], s["bytes"], s["wasted"], s["id"],
         [o["id"] for o in s["owners"]]) for s in want["strings"]["top"]]
    assert rows(w.arrays) == [(a["class"], a["length"], a["count"], a["bytes"], a["wasted"], a["id"])
                              for a in want["arrays"]["top"]]
    assert rows(w.collections) == [(c["class"], c["count"], c["empty"], c["sparse"], c["empty_bytes"], c["slots"],
                                    c["used"], c["wasted"]) for c in want["collections"]["classes"]]
    assert rows(w.boxed) == [(b["class"], b["count"], b["bytes"], b["distinct"], b["wasted"], b["top_value"],
                              b["top_count"]) for b in want["boxed"]["classes"]]


@needs("hprof")
def test_suspects_are_the_tools() -> None:
    dump = os.path.join(DATA, "hprof", "jdk17-leaks.hprof.gz")
    want = tool_json("suspects", dump)
    with profdata.open(dump) as p:
        h = p.heap()
        got = h.suspects()
        assert (got.reachable_bytes, got.threshold_bytes) == (want["reachable"], want["threshold"])
        assert len(got.suspects) == len(want["suspects"]) == 2
        for s, w in zip(got.suspects, want["suspects"]):
            acc = w.get("accumulation", {})
            assert (s.kind, s.id, s.class_name, s.instances, s.retained) == \
                (w["kind"], w["id"], shown(w), w["instances"], w["retained"])
            assert (s.accumulation_id, s.accumulation_class, s.accumulation_retained, s.depth) == \
                (acc.get("id"), shown(acc) if acc else None, acc.get("retained"), acc.get("depth"))
            assert [tuple(a) for a in s.accumulated] == \
                [(a["class"], a["count"], a["retained"]) for a in w["accumulated"]]
            assert s.accumulated_classes == w["accumulated_classes"]
            assert [(x.id, x.via) for x in h.path(s.id)] == [(x["id"], x["via"]) for x in w["path"]]
        with pytest.raises(profdata.Error):
            h.suspects(threshold=2.0)


@needs("hprof")
def test_dominators_retain_more(heap: profdata.Heap) -> None:
    for oid, _, shallow, retained in rows(heap.top(50)):
        assert shallow <= retained
        dom = heap.dominator(oid)
        if dom is not None:
            assert heap.retained(dom) >= retained and heap.is_reachable(dom)  # VisualVM's sums: a class object may equal
    # the biggest retainer of all is dominated by the roots alone
    assert heap.dominator(rows(heap.top(1))[0][0]) is None


@needs("hprof")
def test_unknown_id_is_a_key_error(heap: profdata.Heap) -> None:
    for ask in (heap.retained, heap.shallow, heap.dominator, heap.path):
        with pytest.raises(KeyError):
            ask(0xDEAD)


@needs("hprof")
def test_64_bit_node_numbers_answer_alike(heap: profdata.Heap) -> None:
    assert heap.node_bits == 32  # the narrowest that holds the dump
    with profdata.open(DUMP) as p:
        wide = p.heap(node_bits=64)
        assert wide.node_bits == 64 and p.heap(node_bits=32).node_bits == 32
        with pytest.raises(profdata.Error, match="node_bits 48"):
            p.heap(node_bits=48)
    assert rows(wide.top(25)) == rows(heap.top(25))
    assert rows(wide.class_retained()) == rows(heap.class_retained())
    oid = rows(heap.top(1))[0][0]
    assert [tuple(s) for s in wide.path(oid)] == [tuple(s) for s in heap.path(oid)]
    assert wide.reachable == heap.reachable and wide.unreachable == heap.unreachable


@needs("hprof")
def test_heap_outlives_its_profile() -> None:
    p = profdata.open(DUMP)
    h = p.heap()
    want = rows(h.top(5))
    p.close()
    with pytest.raises(ValueError):
        p.count("objects")
    assert rows(h.top(5)) == want and h.path(want[0][0])
    p.close()
    del p
    gc.collect()
    assert rows(h.top(5)) == want
    closed = profdata.open(DUMP)
    closed.close()
    with pytest.raises(ValueError):
        closed.heap()


@needs("hprof")
def test_a_heap_of_bytes_outlives_its_profile_and_the_callers_bytes() -> None:
    """The model may point into the bytes it was read from: a Heap that outlives close()
    keeps them too, though the caller dropped them."""
    data = pathlib.Path(DUMP).read_bytes()
    p = profdata.open(data)
    h = p.heap()
    want = rows(h.top(5))
    p.close()
    del p, data
    gc.collect()
    assert rows(h.top(5)) == want and h.path(want[0][0])


@needs("hprof")
def test_paths_and_class_sums_from_threads(heap: profdata.Heap) -> None:
    ids = [r[0] for r in rows(heap.top(4))]
    got = {}

    def work(k: int) -> None:
        got[k] = (len(heap.path(ids[k % 4])), len(rows(heap.class_retained())))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 6 and all(n > 0 and c > 0 for n, c in got.values())


@needs("hprof")
def test_repr_html_escapes(heap: profdata.Heap) -> None:
    page = heap._repr_html_()
    assert page.count("<tr>") == 11  # the header and the top 10
    assert "%d reachable objects" % heap.reachable.objects in page
    for _, name, _, _ in rows(heap.top(10)):
        assert "<td>%s</td>" % html.escape(name) in page


@needs("hprof")
def test_heap_diff_is_the_tools() -> None:
    want = tool_json("diff", OLD, NEW, "-n", "1000")
    got = profdata.diff(OLD, NEW, dominators=1000)
    assert rows(got)[:len(want["classes"])] == [
        (c["class"], c["instances"], c["bytes"], c["retained"], c["new"]["instances"], c["new"]["bytes"],
         c["new"]["retained"], c["old"]["instances"], c["old"]["bytes"], c["old"]["retained"])
        for c in want["classes"]]
    if not isinstance(got, list):
        assert got.attrs["objects"]["matched"] == want["objects"]["matched"]
        assert [tuple(d) for d in got.attrs["new_dominators"]] == \
            [(d["id"], d["class"], d["shallow"], d["retained"]) for d in want["new_dominators"]]


@needs("hprof")
def test_heap_diff_orders_and_refusals() -> None:
    by_retained = rows(profdata.diff(OLD, NEW, sort="retained"))
    assert [r[3] for r in by_retained][:5] == sorted((r[3] for r in by_retained), reverse=True)[:5]
    with pytest.raises(ValueError):
        profdata.diff(OLD, NEW, sort="colour")
    with pytest.raises(ValueError):
        profdata.diff(OLD, CPU)


def sample_sums(p: profdata.Profile) -> Dict[int, List[int]]:
    totals: Dict[int, List[int]] = {}
    for s in p.samples():
        totals[len(s.values)] = [a + b for a, b in zip(totals.get(len(s.values), [0] * len(s.values)), s.values)]
    return totals


def stack_sums(p: profdata.Profile) -> Dict[Any, List[int]]:
    """value sums per stack of frames (function, or address when not named), what merging keeps."""
    names = {}
    for s in p.stacks():
        names[s.serial] = tuple(f.function or f.address for f in s.frames)
    out: Dict[Any, List[int]] = {}
    for s in p.samples():
        key = names.get(s.stack_serial)
        out[key] = [a + b for a, b in zip(out.get(key, [0] * len(s.values)), s.values)]
    return {k: v for k, v in out.items() if any(v)}


@needs("gperftools")
def test_merge_of_two_is_double() -> None:
    with profdata.open(CPU) as one, profdata.merge([CPU, CPU]) as two:
        assert stack_sums(two) == {k: [2 * x for x in v] for k, v in stack_sums(one).items()}


@needs("gperftools")
def test_diff_with_itself_sums_to_zero() -> None:
    with profdata.diff(CPU, CPU) as d:
        assert stack_sums(d) == {}
        assert all(v == 0 for t in sample_sums(d).values() for v in t)


@needs("gperftools")
def test_diff_is_new_minus_base() -> None:
    with profdata.open(CPU) as a, profdata.open(CPU2) as b, profdata.diff(a, b) as d:
        want = {k: list(v) for k, v in stack_sums(b).items()}
        for k, v in stack_sums(a).items():
            want[k] = [x - y for x, y in zip(want.get(k, [0] * len(v)), v)]
        assert stack_sums(d) == {k: v for k, v in want.items() if any(v)}
        assert not a.closed  # Profiles given are the caller's


@needs("gperftools")
@needs("pprof")
def test_merge_writes_what_the_tool_writes(tmp_path: pathlib.Path) -> None:
    if not TOOL:
        pytest.skip("no profdata tool (PROFDATA_TOOL)")
    # The tool names native frames (symbolize=auto); so does the binding when asked (the
    # workload's binary is gone: a warning, as the tool's).
    with pytest.warns(profdata.ProfdataWarning, match="left as addresses"):
        assert profdata.merge([CPU, CPU2], output=tmp_path / "py.pb.gz", options="symbolize=auto") is None
    subprocess.run([TOOL, "--quiet", "merge", CPU, CPU2, "-o", str(tmp_path / "tool.pb.gz")], check=True)
    with profdata.open(tmp_path / "py.pb.gz") as mine, profdata.open(tmp_path / "tool.pb.gz") as theirs:
        assert stack_sums(mine) == stack_sums(theirs) and stack_sums(mine)
    profdata.diff(CPU, CPU2, output=tmp_path / "d.pb.gz")  # the tool's diff names no frames
    subprocess.run([TOOL, "--quiet", "diff", CPU, CPU2, "-o", str(tmp_path / "dt.pb.gz")], check=True)
    with profdata.open(tmp_path / "d.pb.gz") as mine, profdata.open(tmp_path / "dt.pb.gz") as theirs:
        assert stack_sums(mine) == stack_sums(theirs) and stack_sums(mine)


@needs("gperftools")
@needs("pprof")
def test_diff_graph_is_the_tools(tmp_path: pathlib.Path) -> None:
    """The differential flame graph: NEW and BASE side by side, byte for byte what the tool draws."""
    if not TOOL:
        pytest.skip("no profdata tool (PROFDATA_TOOL)")
    block = os.path.join(DATA, "pprof", "block.pb.gz")
    base, new = str(tmp_path / "base.pb.gz"), str(tmp_path / "new.pb.gz")
    subprocess.run([TOOL, "--quiet", "convert", "--ignore", r"main\.cpuWork", block, base], check=True)
    subprocess.run([TOOL, "--quiet", "convert", "--ignore", r"runtime\.chanrecv2", block, new], check=True)
    assert profdata.diff(base, new, output=tmp_path / "py.svg") is None
    subprocess.run([TOOL, "--quiet", "diff", base, new, "-o", str(tmp_path / "tool.svg")], check=True)
    mine, theirs = (tmp_path / "py.svg").read_bytes(), (tmp_path / "tool.svg").read_bytes()
    assert mine == theirs and b"main.cpuWork" in mine and b"<svg" in mine

