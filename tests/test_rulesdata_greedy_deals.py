"""The greedy bot of the rules interpreter keeps, when some look-aheads on the undealt position
read a hidden card or draw chance, the values of the others and plays only those on the deals
(``_PartlyHidden``): the same moves as without any shortcut (``Game.shortcuts``), in whole seeded
games of Marché (its blind draw reads an unseen card, taking from the market does not), L'Atout
and Cueillette (``horizon = "round"``: every look-ahead is played on the deals). The speed is
measured by ``benchmarks/rulesdata_greedy_speed.py``, never here."""

from __future__ import annotations

import pytest

from cardbase.games import registry
from cardbase.playtest.batch import game_seed


def _play(game, seed: int):
    s = game.new_state(seed, log=False)
    while not s.is_terminal():
        s.apply_action(s.greedy_action())
    return s


@pytest.mark.parametrize("code,players,games", [
    ("marche", 2, 4), ("marche", 3, 3), ("marche", 4, 2), ("atout", 2, 3), ("atout", 4, 2),
    ("cueillette", 2, 3), ("cueillette", 4, 2),
])
def test_kept_undealt_values_change_no_move(code: str, players: int, games: int) -> None:
    fast, plain = registry.get(code).build((), players), registry.get(code).build((), players)
    plain.shortcuts = False
    for i in range(games):
        a, b = _play(fast, game_seed(41, i)), _play(plain, game_seed(41, i))
        assert a.history == b.history
        assert (a.winners, a.ended_by, a.counters) == (b.winners, b.ended_by, b.counters)
    assert plain.undealt == [0, 0]
    tried, stopped = fast.undealt
    if code == "cueillette":
        assert tried == 0  # a round's look-ahead draws: dealt at once
    else:
        assert tried > 2 * stopped  # the searches with some look-ahead read undealt kept trying
