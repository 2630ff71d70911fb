"""Helpers shared by the command-line modules: errors to stderr with exit codes, JSON output."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any, TypeVar

import typer

from cardbase.errors import CardbaseError

F = TypeVar("F", bound=Callable[..., Any])

EXIT_ERROR = 2


def fail(message: str, code: int = EXIT_ERROR) -> None:
    from cardbase.i18n import tr

    typer.echo(tr("cli.error", message=message), err=True)
    raise typer.Exit(code)


def handle_errors(func: F) -> F:
    """Turn a CardbaseError into its message on stderr and exit code 2."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except CardbaseError as exc:
            fail(str(exc))

    return wrapper  # type: ignore[return-value]


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


@contextmanager
def session() -> Iterator[Any]:
    from cardbase.storage.db import session_scope

    with session_scope() as s:
        yield s


T = TypeVar("T")


def read(work: Callable[[Any], T]) -> T:
    """``work(source)`` for a command that only reads: on the read-only snapshot of the SQLite
    default when nothing else is left to do (no SQLAlchemy loaded), else on a session as
    :func:`session` gives (see :mod:`cardbase.storage.readonly`). ``work`` prints nothing: it may
    run twice when the snapshot fails under it."""
    from cardbase.storage.readonly import read as run

    return run(work)
