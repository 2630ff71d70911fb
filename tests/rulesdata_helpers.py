"""Whole seeded games of a rules file played by random moves: the one loop the rules-language tests
share (``tests/test_rulesdata*.py``). Seed ``n`` deals the game and chooses every move with
``random.Random(n)``, so a test and the figure it checks replay the same games."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import parse_rules_text


def random_game(game: Game, seed: int, check: Callable[[Any], None] | None = None, *,
                log: bool = True) -> Any:
    """One game of ``game`` dealt by ``seed`` and played by random moves to its end
    (``check(state)`` before every move); the state at its end."""
    s = game.new_state(seed) if log else game.new_state(seed, log=False)
    rng = random.Random(seed)
    while not s.is_terminal():
        if check is not None:
            check(s)
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def random_games(game: Game | str, seeds: Iterable[int], players: int = 2, *, name: str = "t.toml",
                 check: Callable[[Any], None] | None = None) -> Iterator[Any]:
    """:func:`random_game` for each seed; ``game`` a :class:`Game`, or a rules text (read as the
    file ``name``, with no edition cards, at ``players``)."""
    if isinstance(game, str):
        game = Game(parse_rules_text(game, name), [], players)
    for seed in seeds:
        yield random_game(game, seed, check)
