# SPDX-License-Identifier: Apache-2.0
"""The exceptions of profdata, and the one place that chooses which a library failure becomes.

The extension (_profdata) calls library_error() with the library's code and diagnostic;
a code's meaning comes from the extension's constants, which the C headers define.
"""
import errno
import os
import re
from typing import Optional, Tuple

from . import _profdata

# A diagnostic as the extension hands it over: (code, name, offset, line, message).
Diag = Tuple[int, Optional[str], Optional[int], Optional[int], str]

_FORMAT_CODES = (_profdata.EFORMAT, _profdata.ETRUNCATED, _profdata.EUNSUPPORTED, _profdata.ELIMIT)


class Error(Exception):
    """A failure reported by libprofdata: code, file name, byte offset, line, message."""

    def __init__(self, code: int, name: Optional[str] = None, offset: Optional[int] = None,
                 line: Optional[int] = None, message: Optional[str] = None) -> None:
        self.code, self.filename, self.offset, self.line = code, name, offset, line
        self.name = name  # kept from 0.1
        self.message = message or _profdata.strerror(code)
        where = "" if not line else ", line %d" % line
        where += "" if offset is None else ", byte %d" % offset
        super().__init__("%s%s: %s" % (name or "profdata", where, _unplaced(self.message, offset, line)))


def _unplaced(message: str, offset: Optional[int], line: Optional[int]) -> str:
    """The message without the place Error already gives, as the tool prints it: decoders
    may repeat the offset ("... at offset N") or start with the line ("line L: ...")."""
    if line:
        message = re.sub(r"^(?:[^ ]+?: )?line %d: " % line, "", message, count=1)
    if offset is not None:
        message = re.sub(r" at offset %d(?![0-9])" % offset, "", message, count=1)
    return message


class FormatError(Error, ValueError):
    """The input is not valid for its format (or is truncated, or an unsupported variant)."""


class ProfdataWarning(UserWarning):
    """A repair made while reading damaged input, or data a conversion could not keep."""


def error(code: int, diag: Optional[Diag] = None) -> Error:
    """The Error (FormatError for bad input) of a code and its diagnostic."""
    cls = FormatError if code in _FORMAT_CODES else Error
    return cls(code, diag[1], diag[2], diag[3], diag[4]) if diag else cls(code)


def _os_error(path: str) -> Optional[OSError]:
    """The OSError the system gives for opening `path`, or None."""
    try:
        with open(path, "rb"):
            return None
    except OSError as e:
        return e


def _output_errno(path: str) -> int:
    """Why a file could not be created at `path`, as the system would say it."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        return errno.EISDIR
    if not os.path.isdir(folder):
        return errno.ENOENT if not os.path.exists(folder) else errno.ENOTDIR
    if not os.access(folder, os.W_OK | os.X_OK):
        return errno.EACCES
    return errno.EIO


def library_error(code: int, diag: Optional[Diag], path: Optional[bytes], side: str) -> Exception:
    """What the extension raises for a failure: an input or output the system refuses is the
    OSError it names (FileNotFoundError, IsADirectoryError, ...), from the library's Error."""
    exc = error(code, diag)
    if code != _profdata.EIO or path is None:
        return exc
    name = os.fsdecode(path)
    os_err = _os_error(name) if side == "input" else OSError(_output_errno(name), exc.message, name)
    if os_err is None:
        return exc
    os_err.__cause__ = exc
    return os_err
