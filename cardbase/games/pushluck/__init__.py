"""15 en un tour: a push-your-luck game — flip face-down cards, reach 15 points in one turn.

- ``rules``: constants and options (each default a ruling of ``docs/rulings/pushluck.md``);
- ``material``: the box (points cards, multipliers, Protection, Perdre tout) built from the
  edition's cards or from a short list such as ``+3,+5,x2,protection,perdre-tout``;
- ``state``: the game state (legal actions, apply, observation, resample, clone, replay);
- ``solver``: exact backward induction over a turn (reach 15, capped solo expectation, seats);
- ``solo``: the exact solo expectation with unlimited reshuffles (ruling PL12);
- ``rulings``: the rulings as data (``RULINGS``) and the rule-coverage keys (``COVERAGE``);
- ``bots``: greedy (go until 15, then stop) and optimal (the solver's policy).
"""

from __future__ import annotations

from typing import Any

from cardbase.games import frame

from . import bots as _bots
from .state import State as _State


def _own_bot(game: Any, name: str, seed: int | None) -> Any:
    """This game's own bots (``optimal``); ``None`` for the generic ones."""
    return _bots.OptimalBot() if name.strip().lower() == "optimal" else None


frame.register(__name__, greedy=_bots.greedy_action, playout=_State.play_greedy, bot=_own_bot)
