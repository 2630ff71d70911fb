"""NesPanini rules engine (pure: no database, no UI).

>>> game = Game([deck_a, deck_b])          # lists of CardDef; one deck for goldfish
>>> state = game.new_state(seed=7)
>>> while not state.is_terminal():
...     state.apply_action(greedy_action(state))
>>> state.scores(), state.returns()
"""

from __future__ import annotations

from cardbase.games import frame

from .cards import CardTable, blank_card
from .fast import play_greedy
from .policy import greedy_action
from .state import (
    ENDINGS,
    HAND_SIZE,
    STALEMATE_ROUNDS,
    TERMINAL,
    CardScore,
    Game,
    IllegalActionError,
    Observation,
    State,
    Zones,
    replay,
)

__all__ = [
    "ENDINGS", "HAND_SIZE", "STALEMATE_ROUNDS", "TERMINAL", "CardScore", "CardTable", "Game", "IllegalActionError",
    "Observation", "State", "Zones", "blank_card", "greedy_action", "play_greedy", "replay",
]

frame.register(__name__, greedy=greedy_action, playout=play_greedy)
