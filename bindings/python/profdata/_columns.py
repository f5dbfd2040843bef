# SPDX-License-Identifier: Apache-2.0
"""A table's columns at C speed: profdata_profile_column() fills a bytearray once, and
memoryview(...).cast() gives it its element type, which numpy.asarray() takes without a copy.
numpy and pandas are optional: only to_pandas() imports them."""
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from . import _profdata

# (table, name, typecode, shape, description) of every column the library has.
COLUMNS: List[Tuple[str, str, str, str, str]] = _profdata.columns()


class Table:
    """One table of a Profile: call it for its rows (p.objects()), or read whole columns
    (p.objects.column("size")); len() is its row count."""

    def __init__(self, model: Any, name: str, rows: Callable[[], Iterator[Any]]) -> None:
        self._m, self.name, self._rows = model, name, rows

    def __call__(self) -> Iterator[Any]:
        return self._rows()

    def __len__(self) -> int:
        return int(self._m.count(self.name))

    @property
    def columns(self) -> List[str]:
        """The names of this table's columns, as the library lists them."""
        return [c[1] for c in COLUMNS if c[0] == self.name]

    def column(self, name: str) -> memoryview:
        """The whole column `name` as a memoryview of its type ("Q": uint64, "i": int32, ...),
        over a buffer filled once; numpy.asarray() of it copies nothing. An "_offsets"
        column has one element more than the table has rows (offsets into the column
        without the suffix, whose elements are the rows' lists concatenated)."""
        try:
            code, buf = self._m.column(self.name, name)
        except KeyError:
            raise ValueError("no column %r in %s; it has %s" % (name, self.name, ", ".join(self.columns))) \
                from None
        return memoryview(buf).cast(code)


def _numpy() -> Any:
    try:
        import numpy
    except ImportError as e:
        raise ImportError("to_pandas() needs numpy and pandas (Debian: python3-numpy python3-pandas)") from e
    return numpy


def plain_columns(table: Table) -> Dict[str, Any]:
    """{name: numpy array} of the table's one-value-per-row columns."""
    np = _numpy()
    return {c[1]: np.asarray(table.column(c[1])) for c in COLUMNS if c[0] == table.name and c[3] == "plain"}


def categorical(codes: Any, names: Sequence[Optional[str]]) -> Any:
    """A pandas Categorical of names[code]; a code of -1, or of a name that is None, is missing.
    The codes go through one lookup into the smallest type pandas keeps them in, so a column of
    millions of rows is read once and written once."""
    np = _numpy()
    import pandas
    known = sorted({n for n in names if n is not None})
    where = {n: k for k, n in enumerate(known)}
    small = np.int8 if len(known) < 127 else np.int16 if len(known) < 32767 else np.int32
    remap = np.array([where[n] if n is not None else -1 for n in names] + [-1], dtype=small)
    return pandas.Categorical.from_codes(remap[codes], categories=known)  # remap[-1]: missing
