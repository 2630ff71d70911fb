"""Warnings of a deck that is legal but may play badly (NesPanini: too few cards to reach the
Cimetière ending, ruling R10): the game's own rule of thumb, matched against the database here.
"""

from __future__ import annotations

from typing import Any

from cardbase.games.nespanini.analysis import GAME, DeckWarning, ending_warnings


def deck_warnings(session: Any, deck_list: Any, game: Any = None) -> list[DeckWarning]:
    """:func:`ending_warnings` of a deck list matched against the database (NesPanini decks only;
    other games and unresolved lines give no warning: ``check_deck`` reports those)."""
    from cardbase import decks

    resolved = decks.resolve_deck(session, deck_list, game=game)
    if resolved.game is None or resolved.game.code != GAME or not resolved.entries:
        return []
    return ending_warnings((e.card.keywords or (), e.count) for e in resolved.entries)
