"""Overseers' balance batch: seats, the first Leader, the rounds led, the colours, rule coverage.

The figures are those of :mod:`cardbase.games.overseers.analysis` (what a batch report adds for
Overseers); this batch plays the games itself. Game ``i`` is dealt from ``game_seed(seed, i)``
and its bots seeded from it, as in the runner.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardbase.domain import CardDef
from cardbase.games import registry
from cardbase.games.overseers.analysis import _rate
from cardbase.games.overseers.rules import COLOURS
from cardbase.playtest.cluster import game_seed
from cardbase.playtest.coverage import merge


def analyse(cards: Sequence[CardDef], players: int, *, games: int = 1000, seed: int = 0,
            bots: Sequence[str] = ("greedy",), options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play ``games`` games and return the seat, Leader and colour figures (JSON-ready)."""
    from cardbase.games.bots.registry import make_bot

    spec = registry.playable("overseers")
    registry.check_players(spec, players)
    names = list(bots) * players if len(bots) == 1 else list(bots)
    registry.check_bots(spec, names)
    game = spec.build(tuple(cards), players, **(options or {}))
    seat_wins = [0] * players
    first = 0
    by_led: dict[int, list[int]] = {k: [0, 0] for k in range(4)}
    colour_win = [0] * len(COLOURS)
    colour_other = [0] * len(COLOURS)
    n_win = n_other = shared = 0
    coverage: list[dict[str, list[int]]] = []
    for i in range(games):
        s_seed = game_seed(seed, i)
        state = game.new_state(s_seed, log=False)
        seats = [game.make_bot(b, s_seed * 31 + j) or make_bot(b, seed=s_seed * 31 + j)
                 for j, b in enumerate(names)]
        while not state.is_terminal():
            state.apply_action(seats[state.current_player()].step(state))
        coverage.append(state.coverage())
        won = state.returns()
        shared += sum(1 for r in won if r > 0) > 1
        for p in range(players):
            w = won[p] > 0
            seat_wins[p] += w
            led = sum(1 for x in state.leaders if x == p)
            by_led[led][0] += 1
            by_led[led][1] += w
            if w:
                n_win += 1
                for c in range(len(COLOURS)):
                    colour_win[c] += state.counted[p][c]
            else:
                n_other += 1
                for c in range(len(COLOURS)):
                    colour_other[c] += state.counted[p][c]
        first += won[state.leaders[0]] > 0
    return {
        "players": players, "games": games, "seed": seed, "bots": names, "shared_wins": shared,
        "seats": [{"seat": p + 1, **_rate(seat_wins[p], games)} for p in range(players)],
        "first_leader": {**_rate(first, games), "fair_share": 1 / players},
        "rounds_led": [{"rounds": k, **_rate(w, n)} for k, (n, w) in sorted(by_led.items()) if n],
        "colours": [{"colour": COLOURS[c],
                     "per_winner": colour_win[c] / n_win if n_win else 0.0,
                     "per_other": colour_other[c] / n_other if n_other else 0.0}
                    for c in range(len(COLOURS))],
        "coverage": merge(coverage),
    }
