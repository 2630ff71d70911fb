"""Game-agnostic bots for any state with the OpenSpiel-style interface, any number of players.

What a state must offer (and what is optional) is written down in :mod:`cardbase.games.bots.base`:
``current_player``, ``legal_actions``, ``apply_action``, ``is_terminal``, ``returns`` (a team's
return shared by its seats), ``clone``, ``resample``; optionally ``utilities``, ``greedy_action``,
``play_greedy``, ``search_horizon`` / ``horizon_utilities``, ``information_key``, ``heuristic``.

Levels: :class:`RandomBot` < :class:`GreedyBot` < :class:`MonteCarloBot` < :class:`ISMCTSBot`;
:func:`oracle_score` is the clairvoyant upper bound of a goldfish game.
"""

from __future__ import annotations

from .base import Bot, RandomBot, utility
from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .montecarlo import MonteCarloBot
from .oracle import OracleResult, oracle_score, oracle_search
from .registry import BOT_NAMES, make_bot

__all__ = [
    "BOT_NAMES",
    "Bot",
    "GreedyBot",
    "ISMCTSBot",
    "MonteCarloBot",
    "OracleResult",
    "RandomBot",
    "make_bot",
    "oracle_score",
    "oracle_search",
    "utility",
]
