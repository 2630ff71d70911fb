"""The play loop the rules-file benchmarks share: seeded games of a registered game to their end,
random bots (``random.Random(seed)`` choosing among the legal moves) or greedy ones on every seat.
Imported by the scripts of this folder (run as ``python benchmarks/NAME.py``, this folder is on
the import path)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from cardbase.games import registry


def built(name: str, players: int) -> Any:
    """The registered game ``name`` at ``players``, with no edition cards."""
    return registry.get(name).build([], players)


def finished_games(game: Any, games: int, *, greedy: bool, ending: str | None = None,
                   log: bool = True) -> Iterator[Any]:
    """Seeds 0 … ``games``-1 of ``game`` (built: :func:`built`, or a rules file's ``Game``), each
    played to its end — checked to end by ``ending`` when given (a game stopped by anything else,
    a safety net, is not a figure of the game) — the finished states, one at a time; ``log=False``
    plays them without their event logs."""
    for seed in range(games):
        s = game.new_state(seed) if log else game.new_state(seed, log=False)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(s.greedy_action() if greedy else rng.choice(s.legal_actions()))
        assert ending is None or s.ended_by == ending, f"seed {seed}: ended by {s.ended_by}, not {ending}"
        yield s
