"""Reading files someone else made, with limits that hold whatever the file says about itself.

:func:`read_bounded` opens the path without blocking, refuses what is not an ordinary file (a
named pipe would block the reader forever, ``/dev/zero`` never ends) and reads at most the limit
plus one byte: a file's size as ``stat`` reports it is only a hint (``/proc`` files report 0, a
file may grow while it is read), so the limit is enforced on the bytes actually read.

:func:`json_shape` counts, in one pass over the text and before ``json.loads`` builds anything,
how many JSON values a text would make and how deeply it nests them: a 10 MB file of ``{},``
would otherwise become millions of Python objects before any later check could see them.
:func:`toml_depth` does the same for the nesting of a TOML text (tomllib recurses, and a file of
500 nested lists ends in a RecursionError).
"""

from __future__ import annotations

import os
import re
import stat
from itertools import accumulate
from pathlib import Path

from cardbase.errors import CardbaseError
from cardbase.i18n import tr

__all__ = ["file_kind", "json_shape", "read_bounded", "toml_depth"]

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_BINARY = getattr(os, "O_BINARY", 0)


def file_kind(mode: int) -> str:
    """The kind of a non-ordinary file, in words (for messages)."""
    if stat.S_ISFIFO(mode):
        return tr("files.kind.fifo")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return tr("files.kind.device")
    if stat.S_ISSOCK(mode):
        return tr("files.kind.socket")
    return tr("files.kind.other")


def read_bounded(path: Path, max_bytes: int, error: type[CardbaseError], keys: str) -> bytes:
    """The bytes of the ordinary file ``path``, at most ``max_bytes`` of them.

    Problems raise ``error`` with the message ``<keys>.missing``, ``.is_folder``, ``.unreadable``
    (``reason``), ``.not_regular`` (``kind``) or ``.too_big`` (``max`` in MB, ``max_kb`` in kB);
    every message takes ``path``. The open never blocks: a named pipe is refused, not waited on.
    """
    path = Path(path)
    limits = {"max": f"{max_bytes / (1024 * 1024):g}", "max_kb": f"{max_bytes / 1024:g}"}
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _BINARY)
    except FileNotFoundError:
        raise error(tr(f"{keys}.missing", path=str(path))) from None
    except IsADirectoryError:
        raise error(tr(f"{keys}.is_folder", path=str(path))) from None
    except OSError as exc:
        raise error(tr(f"{keys}.unreadable", path=str(path),
                       reason=exc.strerror or str(exc))) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise error(tr(f"{keys}.is_folder", path=str(path)))
        if not stat.S_ISREG(mode):
            raise error(tr(f"{keys}.not_regular", path=str(path), kind=file_kind(mode)))
        if os.fstat(fd).st_size > max_bytes:  # a cheap early refusal; the read below decides
            raise error(tr(f"{keys}.too_big", path=str(path), **limits))
        chunks, got = [], 0
        while got <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > max_bytes:
            raise error(tr(f"{keys}.too_big", path=str(path), **limits))
        return b"".join(chunks)
    except OSError as exc:
        raise error(tr(f"{keys}.unreadable", path=str(path),
                       reason=exc.strerror or str(exc))) from None
    finally:
        os.close(fd)


# A JSON string (an unterminated one runs to the end: the scan stays linear, json.loads reports
# it), or a run of anything that is not a string, a bracket or a comma.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\Z)', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def json_shape(text: str, max_values: int, max_depth: int) -> tuple[str, int] | None:
    """The first limit a JSON text goes over, without building it: ``("values", n)`` when it
    holds more than ``max_values`` values (counted as the ``{``, ``[`` and ``,`` outside strings,
    plus one: never fewer than the values json.loads would make), ``("depth", n)`` when it nests
    lists and objects deeper than ``max_depth``; None when it is within both."""
    bare = _STRING.sub('""', text)
    values = bare.count("{") + bare.count("[") + bare.count(",") + 1
    if values > max_values:
        return "values", values
    brackets = _NOT_BRACKET.sub("", bare).encode("ascii")
    depth = max(accumulate(map(_STEP.__getitem__, brackets)), default=0)
    if depth > max_depth:
        return "depth", depth
    return None


# TOML strings (multi-line ones first; an unterminated one runs to the end) and comments: the
# brackets inside them nest nothing.
_TOML_SKIP = re.compile(
    r'"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*(?:"""|\Z)'
    r"|'''.*?(?:'''|\Z)"
    r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"?'
    r"|'[^'\n]*'?"
    r"|#[^\n]*", re.DOTALL)


def toml_depth(text: str) -> int:
    """How deeply a TOML text nests lists and inline tables (a table header counts its own
    brackets), counted without parsing it."""
    brackets = _NOT_BRACKET.sub("", _TOML_SKIP.sub("", text)).encode("ascii")
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)
