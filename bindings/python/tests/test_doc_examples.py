# SPDX-License-Identifier: Apache-2.0
"""Every ```python block of the documents that show the binding runs, as written, in a folder
where the file names the examples use hold real fixtures of the repository. A document's
example that stops working fails here, not in a reader's notebook."""
import gzip
import pathlib
import re
from typing import Dict, List, Tuple

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
DOCUMENTS = ["README.md", "bindings/python/README.md"]

# The names the examples read, and the committed fixture each one is.
FIXTURES: Dict[str, str] = {
    "dump.hprof": "tests/data/hprof/jdk17-minimal.hprof",
    "old.hprof": "tests/data/hprof/jdk17-growth-1.hprof.gz",
    "new.hprof": "tests/data/hprof/jdk17-growth-2.hprof.gz",
    "cpu.prof": "tests/data/gperftools/cpu-1000hz.prof",
    "base.prof": "tests/data/gperftools/cpu-100hz.prof",
    "leaks.hprof": "tests/data/hprof/jdk17-leaks.hprof.gz",
}


def _blocks() -> List[Tuple[str, int, str]]:
    """(document, line, code) of every python block of the documents."""
    found = []
    for name in DOCUMENTS:
        text = (ROOT / name).read_text(encoding="utf-8")
        for m in re.finditer(r"^```python\n(.*?)^```", text, flags=re.S | re.M):
            found.append((name, text.count("\n", 0, m.start()) + 1, m.group(1)))
    return found


def _stage(folder: pathlib.Path, code: str) -> None:
    """The fixtures the example names, under those names: plain, and gzip-compressed where
    it names NAME.gz (staged on demand: compressing every one for every block is slow)."""
    for name, source in FIXTURES.items():
        if name not in code:
            continue
        src = ROOT / source
        data = gzip.decompress(src.read_bytes()) if source.endswith(".gz") else src.read_bytes()
        (folder / name).write_bytes(data)
        if name + ".gz" in code:
            (folder / (name + ".gz")).write_bytes(gzip.compress(data, compresslevel=1))


BLOCKS = _blocks()


def test_the_documents_have_examples() -> None:
    assert len(BLOCKS) >= 3, "no python examples found in %s" % ", ".join(DOCUMENTS)


@pytest.mark.parametrize("document,line,code", BLOCKS, ids=["%s:%d" % (d, n) for d, n, _ in BLOCKS])
def test_example_runs(document: str, line: int, code: str, tmp_path: pathlib.Path,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    for optional in ("numpy", "pandas"):  # the binding's optional companions
        if re.search(r"\b%s\b|to_pandas" % optional, code):
            pytest.importorskip(optional)
    _stage(tmp_path, code)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "%s:%d" % (document, line), "exec"), {"__name__": "__doc_example__"})
    # What an example writes lands in its folder, complete.
    for made in tmp_path.iterdir():
        assert made.stat().st_size > 0, "%s:%d wrote an empty %s" % (document, line, made.name)
