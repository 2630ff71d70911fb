"""Game-agnostic bots for any state with the OpenSpiel-style interface.

A state offers ``current_player()``, ``legal_actions()``, ``apply_action(a)``, ``is_terminal()``,
``returns()``, ``scores()``, ``clone()`` and ``resample(player, rng)``; optionally
``greedy_action()`` (a fast game-specific greedy choice) and ``heuristic(player)``.

Levels: :class:`RandomBot` < :class:`GreedyBot` < :class:`MonteCarloBot` < :class:`ISMCTSBot`;
:func:`oracle_score` is the clairvoyant upper bound of a goldfish game.
"""

from __future__ import annotations

from .base import BOT_NAMES, Bot, RandomBot, make_bot, utility
from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .montecarlo import MonteCarloBot
from .oracle import OracleResult, oracle_score, oracle_search

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
