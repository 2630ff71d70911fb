"""Overseers: draft, hidden cards, accusation and bluff in three rounds, 3 to 6 players.

- ``rules``: constants, the card split by player count and the options (each default a ruling of
  ``docs/rulings/overseers.md``);
- ``material``: the box (Vertu & Vice cards, Personnages and their powers) built from the edition;
- ``state``: the game state (legal actions, apply, observation, resample, clone, replay);
- ``bots``: the greedy heuristic (it reads only what its player sees).
"""

from __future__ import annotations

from typing import Any

from cardbase.games import frame

from . import analysis as _analysis
from . import bots as _bots


def _own_bot(game: Any, name: str, seed: int | None) -> Any:
    """Overseers' own bots: ``belief`` (OV18); ``None`` for the generic ones."""
    return _bots.BeliefBot(seed=seed) if name.strip().lower() == "belief" else None


frame.register(__name__, greedy=_bots.greedy_action, bot=_own_bot,
               analytics=lambda game, records: _analysis.batch_figures(records, game.num_players),
               analytics_text=lambda game, figures: _analysis.figures_text(figures))
