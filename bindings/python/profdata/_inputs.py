# SPDX-License-Identifier: Apache-2.0
"""What the functions reading an input take, and how each becomes one of the library's readers.

An input is a path (str or os.PathLike), the content itself (bytes, bytearray,
memoryview), an open file descriptor (int), or a binary file object (anything
with .read()). The extension opens (kind, object, name): a path with
profdata_reader_open_path(), content with profdata_reader_open_memory(), a
descriptor with profdata_reader_open_fd(), a file object with
profdata_reader_open_callbacks(). Gzip is recognised from the first bytes
whatever the kind.
"""
import os
from typing import Any, Protocol, Tuple, Union

from . import _profdata


class Readable(Protocol):
    """A binary file object: read(n) returns at most n bytes, b"" at the end."""

    def read(self, __size: int) -> bytes: ...


# Accepted inputs. bytes are content, not a path: a path held in bytes goes in as os.fsdecode(path).
Input = Union[str, "os.PathLike[str]", "os.PathLike[bytes]", bytes, bytearray, memoryview, int, Readable]

# (kind, object, name) as the extension's read(), convert() and histogram() take it.
Spec = Tuple[int, Any, str]


def spec(src: Input) -> Spec:
    """The extension's description of an input; TypeError for what is none."""
    if isinstance(src, (str, os.PathLike)):
        path = os.fsencode(src)
        return _profdata.INPUT_PATH, path, os.fsdecode(path)
    if isinstance(src, (bytes, bytearray, memoryview)):
        return _profdata.INPUT_MEMORY, _stable_bytes(src), "<bytes>"
    if isinstance(src, int) and not isinstance(src, bool):
        if src < 0:
            raise ValueError("a file descriptor is not negative: %d" % src)
        os.fstat(src)  # OSError (EBADF) for a descriptor not open, as os.read() would say
        return _profdata.INPUT_FD, src, "<fd %d>" % src
    if callable(getattr(src, "read", None)):
        # Through .read(), not .fileno(): read() starts where the file object is (its
        # position and what it has buffered) and gives what wrappers decode (a
        # gzip.GzipFile's fileno() is the compressed file's, an lzma.LZMAFile's too);
        # a descriptor read past Python's buffer, from the OS's position, would not.
        # The library holds the GIL only for each read() call.
        return _profdata.INPUT_FILE, src, file_name(src)
    raise TypeError("an input is a path, bytes, a file descriptor or a binary file object, not %s"
                    % type(src).__name__)


def _stable_bytes(data: Union[bytes, bytearray, memoryview]) -> bytes:
    """bytes the reader may borrow: the library reads memory in place and a model keeps
    pointing into it, so it must stay unchanged as long as the model lives. bytes are
    immutable and used as they are (the model holds a reference: no copy). A bytearray,
    or a view of anything but whole bytes, could change or move underneath: it is copied
    once. (The limited API of 3.9, which the extension keeps to, has no buffer protocol
    either, so a view's memory could not be reached in place.)"""
    if isinstance(data, bytes):
        return data
    if isinstance(data, memoryview) and isinstance(data.obj, bytes) and data.c_contiguous \
            and data.nbytes == len(data.obj):
        return data.obj
    return bytes(data) if isinstance(data, bytearray) else data.tobytes()


def file_name(f: Any) -> str:
    """How messages name a file object: its .name (open() gives the path, or the descriptor)."""
    name = getattr(f, "name", None)
    if isinstance(name, int) and not isinstance(name, bool):
        return "<fd %d>" % name
    if isinstance(name, (str, bytes, os.PathLike)):
        return os.fsdecode(name)
    return "<%s>" % type(f).__name__


def name(s: Spec) -> str:
    """The input's name in messages: the path, "<bytes>", "<fd 5>", or a file's name."""
    return s[2]
