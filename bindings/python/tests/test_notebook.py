# SPDX-License-Identifier: Apache-2.0
"""What notebooks show: Profile._repr_html_() and flame graphs made in memory."""
import html.parser
import os
import pathlib
import xml.etree.ElementTree as ET
from typing import List, Optional, Set, Tuple

import pytest

import profdata  # the built package, on PYTHONPATH (meson.build)

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "data")
DUMP = os.path.join(DATA, "hprof", "jdk17-minimal.hprof")
CPU = os.path.join(DATA, "gperftools", "cpu-1000hz.prof")
SVG = "{http://www.w3.org/2000/svg}"


def needs(fmt: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif((fmt, True, True) not in profdata.formats(), reason="no %s codec in this build" % fmt)


class Cells(html.parser.HTMLParser):
    """The text of every cell of every table, and that the tags nest and close."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: List[str] = []
        self.rows: List[List[str]] = []
        self.text: List[str] = []

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        self.open.append(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.text = []

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open.pop() == tag, "</%s> closes nothing open" % tag
        if tag in ("td", "th"):
            self.rows[-1].append("".join(self.text))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def cells(text: str) -> List[List[str]]:
    parser = Cells()
    parser.feed(text)
    parser.close()
    assert parser.open == []
    return parser.rows


@needs("hprof")
def test_a_heap_dump_shows_its_counts_and_largest_classes() -> None:
    with profdata.open(DUMP) as p:
        rows = cells(p._repr_html_())
        counts = {t: n for t, n in p.counts().items() if n}
        top = profdata.histogram(DUMP)[:10]
    assert ["table", "rows"] in rows and ["objects", "{:,}".format(counts["objects"])] in rows
    assert sum(1 for r in rows if len(r) == 2 and r[0] in counts) == len(counts)  # the non-empty tables, alone
    classes = rows[rows.index(["class", "instances", "shallow bytes"]) + 1:]
    assert [r[0] for r in classes] == [t.name for t in top]  # "byte[]" first, as profdata histo
    assert classes[0][2] == "{:,}".format(top[0].bytes)


def test_a_cpu_profile_shows_its_top_functions() -> None:
    with profdata.open(CPU) as p:
        rows = cells(p._repr_html_())
        top = p.top()
    names = top["name"].tolist() if hasattr(top, "columns") else [t.name for t in top]
    functions = rows[rows.index(["function", "flat", "flat%", "cum", "cum%"]) + 1:]
    assert [r[0] for r in functions] == names[:10]
    assert functions[0][2].endswith("%")


def test_names_are_escaped(tmp_path: pathlib.Path) -> None:
    folded = tmp_path / "x.folded"
    folded.write_text("main;<script>alert(1)</script> 5\nmain;a&b 3\n")
    with profdata.open(folded) as p:
        text = p._repr_html_()
    assert "<script>" not in text and "&lt;script&gt;" in text
    assert any(r[0] == "<script>alert(1)</script>" for r in cells(text))


def test_a_closed_profile_says_so() -> None:
    p = profdata.open(CPU)
    p.close()
    assert "closed" in p._repr_html_()


def svg_frames(svg: str) -> Set[str]:
    """The names the flame graph's frames carry, from their <title>s."""
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == SVG + "svg"
    names: Set[str] = set()
    for g in root.iter(SVG + "g"):
        if g.get("class") == "f":
            title = g.find(SVG + "title")
            assert title is not None and title.text is not None
            names.add(title.text.rsplit(" (", 1)[0])
    return names


def test_the_flame_graph_is_the_writers_svg_with_every_frame(tmp_path: pathlib.Path) -> None:
    with profdata.open(CPU) as p:
        fg = p.flamegraph(minwidth=0, title="cpu <1000 Hz>")
        p.write(tmp_path / "cpu.folded", "folded")
        p.write(tmp_path / "cpu.svg", "flamegraph", "minwidth=0,title=cpu <1000 Hz>")
    assert isinstance(fg, profdata.FlameGraph) and fg._repr_svg_() == fg.svg
    assert fg.svg == (tmp_path / "cpu.svg").read_text()  # what the writer makes, in memory
    expected = {"all"}
    for line in (tmp_path / "cpu.folded").read_text().splitlines():
        expected.update(line.rsplit(" ", 1)[0].split(";"))
    assert svg_frames(fg.svg) == expected
    assert "cpu &lt;1000 Hz&gt;" in fg.svg
    fg.save(tmp_path / "saved.svg")
    assert (tmp_path / "saved.svg").read_text() == fg.svg


def test_flame_graph_options_and_their_errors() -> None:
    with profdata.open(CPU) as p:
        icicle = p.flamegraph(reverse=True, width=600)
        assert 'width="600"' in icicle.svg
        with pytest.raises(ValueError, match="','"):
            p.flamegraph(title="a,b")
        with pytest.raises(profdata.Error, match="colour"):
            p.flamegraph(colour="blue")


@needs("hprof")
def test_a_heap_dump_without_samples_has_no_flame_graph() -> None:
    with profdata.open(DUMP) as p, pytest.raises(profdata.Error):
        p.flamegraph()
