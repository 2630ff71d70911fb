"""Output files that appear whole or not at all.

Every file a print writes (PDF, proof PNG, card PNG, manifest, the folder of print-shop PNGs) is
first written under a hidden temporary name beside its target, then moved into place when it is
complete (``os.replace``, atomic on one file system). A print that fails — a bad template, an
unreadable art file, a text that cannot be printed, an interrupted process — leaves the previous
good file exactly as it was and no half-written file behind.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from cardbase.errors import CardbaseError
from cardbase.i18n import tr


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class OutputError(CardbaseError):
    """The output path cannot be written: no such folder, a folder in its place, no rights."""


def check_target(out: Path, suffixes: tuple[str, ...]) -> Path:
    """Refuse, before any work, an output path that cannot become a file of the given kind."""
    out = Path(out)
    if out.is_dir():
        raise OutputError(tr("printing.out.is_folder", path=str(out)))
    if out.suffix.lower() not in suffixes:
        raise OutputError(tr("printing.out.suffix", path=str(out), suffixes=", ".join(suffixes)))
    parent = out.parent
    if not parent.is_dir():
        raise OutputError(tr("printing.out.no_folder", folder=str(parent)))
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(tr("printing.out.read_only", folder=str(parent)))
    return out


def _cannot_write(target: Path, exc: OSError) -> OutputError:
    return OutputError(tr("printing.out.cannot_write", path=str(target),
                          reason=exc.strerror or str(exc)))


@contextlib.contextmanager
def atomic_file(target: Path) -> Iterator[Path]:
    """A temporary path beside ``target``; moved onto ``target`` only if the block succeeds."""
    target = Path(target)
    try:
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    except OSError as exc:
        raise _cannot_write(target, exc) from None
    os.close(fd)
    tmp = Path(name)
    os.chmod(tmp, 0o666 & ~_umask())  # the permissions an ordinary new file gets
    try:
        try:
            yield tmp
        except OSError as exc:  # a full disk, a vanished folder… while writing
            raise _cannot_write(target, exc) from None
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise _cannot_write(target, exc) from None
    finally:
        tmp.unlink(missing_ok=True)


@contextlib.contextmanager
def atomic_dir(target: Path) -> Iterator[Path]:
    """A temporary folder beside ``target``; it replaces ``target`` only if the block succeeds.

    The old folder is moved aside first and removed once the new one is in place.
    """
    target = Path(target)
    if target.exists() and not target.is_dir():
        raise OutputError(tr("printing.out.not_folder", path=str(target)))
    try:
        tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part"))
    except OSError as exc:
        raise _cannot_write(target, exc) from None
    os.chmod(tmp, 0o777 & ~_umask())
    try:
        try:
            yield tmp
        except OSError as exc:
            raise _cannot_write(target, exc) from None
        old = None
        try:
            if target.exists():
                old = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.",
                                            suffix=".old"))
                os.replace(target, old / "previous")
            os.replace(tmp, target)
        except OSError as exc:
            if old is not None and (old / "previous").exists() and not target.exists():
                os.replace(old / "previous", target)  # put the previous folder back
            raise _cannot_write(target, exc) from None
        finally:
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
