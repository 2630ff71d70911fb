"""Helpers of the batch commands (``sim``, ``sim game``, ``sim rulings``): decks by reference,
their legality, the executor of ``--scheduler`` and the progress bar.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import typer

from cardbase.errors import NotFoundError
from cardbase.i18n import tr


# True while a batch command reports on a deck played although illegal (``--allow-illegal``)
_PLAYED_ILLEGAL: ContextVar[bool] = ContextVar("played_illegal", default=False)


def _legality(named: dict[str, Any], allow_illegal: bool, editions: list[Path] | None) -> dict[str, list[str]]:
    """The decks' legality (cardbase.decks): an illegal deck refuses the batch (exit 2) unless
    ``--allow-illegal``; the problems of the decks played anyway, for the report."""
    from cardbase.playtest.decks import batch_legality, deck_rules

    if editions:
        rules = deck_rules()
    else:
        from cardbase.storage.db import session_scope

        with session_scope() as session:
            rules = deck_rules(session)
    illegal = batch_legality(named, allow_illegal=allow_illegal, rules=rules)
    _PLAYED_ILLEGAL.set(any(illegal.values()))
    return illegal


@contextmanager
def _executor(scheduler: str | None, quiet: bool):
    """The Dask cluster of ``--scheduler`` for the command (None: local processes)."""
    from cardbase.playtest.cluster import open_executor

    with open_executor(scheduler) as ex:
        if ex is not None and not quiet:
            typer.echo(tr("dask.running_on", address=ex.address, threads=ex.parallelism), err=True)
        yield ex


def _deck(spec: str, editions: list[Path] | None) -> tuple[str, list[Any]]:
    """A deck by reference: a deck-list file, a saved deck or a starter slug, through the database.

    With ``--edition`` files the deck is resolved against those files instead (no database).
    """
    if editions:
        from cardbase.playtest.cards import load_deck_defs, starter_decks

        path = Path(spec)
        if not path.is_file():
            starters = starter_decks()
            if spec not in starters:
                raise NotFoundError(tr("engine.sim.deck_not_found", spec=spec,
                                       starters=", ".join(starters) or tr("engine.sim.none")))
            path = starters[spec]
        return path.stem, load_deck_defs(path, editions)
    from cardbase.storage.db import session_scope
    from cardbase.playtest.decks import resolve_playtest_deck

    with session_scope() as session:
        deck = resolve_playtest_deck(session, spec)
    return deck.name, list(deck.cards)


@contextmanager
def _progress(label: str, enabled: bool):
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    with typer.progressbar(length=1000, label=label, file=sys.stderr) as bar:
        state = {"done": 0}

        def update(done: int, total: int) -> None:
            pos = int(1000 * done / max(total, 1))
            bar.update(pos - state["done"])
            state["done"] = pos

        yield update
