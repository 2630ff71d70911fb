"""Whole seeded games of a rules file played by random moves: the one loop the rules-language tests
share (``tests/test_rulesdata*.py``). Seed ``n`` deals the game and chooses every move with
``random.Random(n)``, so a test and the figure it checks replay the same games."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import parse_rules_text


def random_moves(game: Game, seed: int, *, log: bool = True) -> Iterator[tuple[Any, Any]]:
    """A game of ``game`` dealt by ``seed``, its random moves drawn by a generator of the same seed:
    yields ``(state, move)`` before each move, which the caller plays on ``state``; the finished
    state last, with the move ``None``."""
    s = game.new_state(seed) if log else game.new_state(seed, log=False)
    rng = random.Random(seed)
    while not s.is_terminal():
        yield s, rng.choice(s.legal_actions())
    yield s, None


def random_game(game: Game, seed: int, check: Callable[[Any], None] | None = None, *,
                log: bool = True) -> Any:
    """One game of ``game`` dealt by ``seed`` and played by random moves to its end
    (``check(state)`` before every move); the state at its end."""
    for s, move in random_moves(game, seed, log=log):
        if move is None:
            return s
        if check is not None:
            check(s)
        s.apply_action(move)
    raise AssertionError("unreachable: the moves end with the finished state")


def random_games(game: Game | str, seeds: Iterable[int], players: int = 2, *, name: str = "t.toml",
                 check: Callable[[Any], None] | None = None) -> Iterator[Any]:
    """:func:`random_game` for each seed; ``game`` a :class:`Game`, or a rules text (read as the
    file ``name``, with no edition cards, at ``players``)."""
    if isinstance(game, str):
        game = Game(parse_rules_text(game, name), [], players)
    for seed in seeds:
        yield random_game(game, seed, check)
