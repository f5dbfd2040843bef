# SPDX-License-Identifier: Apache-2.0
"""What notebooks show: a Profile's short HTML summary, and flame graphs.

Jupyter (and IPython's display()) call _repr_html_() and _repr_svg_(). The summary
stays cheap: counts, and the histogram of a heap dump or the flat sums of a profile of
samples, which are one pass each; no heap analysis (dominators) is run for it.
"""
import html
import os
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Sequence, Tuple, Union

from . import _profdata
from ._errors import Error

if TYPE_CHECKING:
    from . import Profile

TOP_ROWS = 10  # classes or functions a summary lists


class FlameGraph:
    """An interactive flame graph, the SVG the library's `flamegraph` writer makes
    (doc/formats-flamegraph.md): .svg is its text, save(path) writes it, and notebooks
    show it through _repr_svg_()."""

    def __init__(self, svg: str, warnings: List[str]) -> None:
        self.svg = svg
        self.warnings = warnings

    def _repr_svg_(self) -> str:
        return self.svg

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Write the SVG to `path` (UTF-8), as `profdata convert IN OUT.svg` would."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)

    def __repr__(self) -> str:
        return "<profdata.FlameGraph, %d characters of SVG>" % len(self.svg)


def options_text(options: Dict[str, Any]) -> str:
    """flamegraph(title="x", reverse=True) as the writer's options, "title=x,reverse=1".
    The library's option strings have no escape: a ',' in a value cannot be said."""
    parts = []
    for key, value in options.items():
        text = ("1" if value else "0") if isinstance(value, bool) else str(value)
        if "," in text:
            raise ValueError("option %s=%r: the library's options cannot hold a ','" % (key, text))
        parts.append("%s=%s" % (key, text))
    return ",".join(parts)


def _table(head: Sequence[str], rows: Iterable[Sequence[Any]], numeric_from: int = 1) -> str:
    """An HTML table, every cell escaped; columns from `numeric_from` on align right."""
    def cell(tag: str, i: int, v: Any) -> str:
        style = ' style="text-align:right"' if i >= numeric_from else ' style="text-align:left"'
        text = "{:,}".format(v) if isinstance(v, int) else str(v)
        return "<%s%s>%s</%s>" % (tag, style, html.escape(text), tag)
    out = ["<table>", "<tr>" + "".join(cell("th", i, h) for i, h in enumerate(head)) + "</tr>"]
    out += ["<tr>" + "".join(cell("td", i, v) for i, v in enumerate(r)) + "</tr>" for r in rows]
    return "\n".join(out + ["</table>"])


def _largest_classes(p: "Profile") -> Tuple[str, List[Tuple[str, int, int]]]:
    """The classes of dump 0 with most shallow bytes, as `profdata histo` counts them."""
    try:
        rows = p._m.histogram(0)
    except Error:
        return "", []
    return ("Largest classes by shallow size (dump 0)",
            [(name or "?", instances, size) for name, instances, size in rows[:TOP_ROWS]])


def _hottest_functions(p: "Profile") -> Tuple[str, List[Tuple[str, int, str, int, str]]]:
    """The functions of most flat value in the default sample type, as `profdata top`."""
    try:
        total, kind, unit, rows = p._m.top(_profdata.TOP_FUNCTIONS, None)
    except Error:
        return "", []

    def share(v: int) -> str:
        return "%.2f%%" % (v * 100.0 / total) if total else "-"
    title = "Top functions by flat %s (%s)" % (kind or "value", unit or "count")
    return title, [(name or "?", flat, share(flat), cum, share(cum)) for name, flat, cum, _ in rows[:TOP_ROWS]]


def summary_html(p: "Profile") -> str:
    """The Profile as a notebook shows it: format, the rows of its non-empty tables, and
    its top classes (a heap dump) or top functions (a profile of samples)."""
    if p.closed:
        return "<p>%s</p>" % html.escape("<profdata.Profile (closed)>")
    fmt = p.format + (" " + p.version if p.version else "")
    parts = ["<div class=\"profdata-profile\">",
             "<p><b>profdata.Profile</b>: %s</p>" % html.escape(fmt),
             _table(("table", "rows"), [(t, n) for t, n in p.counts().items() if n])]
    if p.count("objects"):
        title, classes = _largest_classes(p)
        if classes:
            parts += ["<p>%s</p>" % html.escape(title),
                      _table(("class", "instances", "shallow bytes"), classes)]
    if p.count("samples"):
        title, functions = _hottest_functions(p)
        if functions:
            parts += ["<p>%s</p>" % html.escape(title),
                      _table(("function", "flat", "flat%", "cum", "cum%"), functions)]
    return "\n".join(parts + ["</div>"])
