"""Playtests: goldfish and head-to-head batches, round robins, statistics and the bot ladder.

``deck_defs_from_db(session, deck_ref)`` (from :mod:`.decks`) gives the cards of a deck named by
a deck-list file, a saved deck or a starter slug; it is imported on first use so that batch
workers do not load the database layer.

Playtest sits above the catalog: it may import the catalog, decks, the games, storage and the
kernel, never outputs or a face (Streamlit, Typer).
"""

from __future__ import annotations

from typing import Any

__all__ = ["PlaytestDeck", "deck_defs_from_db", "resolve_playtest_deck", "resolved_deck_defs"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import decks

        return getattr(decks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
