"""Bots: they play legal moves, are reproducible from their seed, and the oracle bounds them."""

from __future__ import annotations

import pytest

from cardbase.bots import GreedyBot, ISMCTSBot, MonteCarloBot, RandomBot, make_bot, oracle_search
from cardbase.errors import CardbaseError
from cardbase.games.nespanini import Game
from tests.test_engine import RICH


def _play(game, seed, bots):
    s = game.new_state(seed)
    while not s.is_terminal():
        a = bots[s.current_player()].step(s)
        assert a in s.legal_actions()
        s.apply_action(a)
    return s


@pytest.mark.parametrize("name", ["random", "greedy", "mc", "ismcts"])
def test_every_bot_plays_legal_games_reproducibly(name):
    opts = {"samples": 4} if name == "mc" else {"iterations": 30} if name == "ismcts" else {}
    g = Game([RICH, RICH])
    a = _play(g, 3, [make_bot(name, seed=1, **opts), RandomBot(2)])
    b = _play(g, 3, [make_bot(name, seed=1, **opts), RandomBot(2)])
    assert a.events == b.events


def test_unknown_bot_names_the_known_ones():
    with pytest.raises(CardbaseError, match="greedy"):
        make_bot("alphazero")


def test_greedy_never_below_oracle_and_usually_better_than_random():
    g = Game([RICH])
    greedy_total = random_total = 0
    for seed in range(30):
        gs = _play(g, seed, [GreedyBot()])
        rs = _play(g, seed, [RandomBot(seed)])
        greedy_total += gs.score(0)
        random_total += rs.score(0)
        res = oracle_search(g.new_state(seed), max_nodes=200)
        assert res.score >= gs.score(0)
    assert greedy_total > random_total


def test_search_bots_do_not_see_hidden_cards():
    """A bot's choice depends only on what it sees: two states equal from its side, same move."""
    g = Game([RICH, RICH])
    s = g.new_state(9)
    p = s.current_player()
    import random

    other = s.resample(p, random.Random(5))
    for bot_a, bot_b in ((MonteCarloBot(samples=4, seed=3), MonteCarloBot(samples=4, seed=3)),
                         (ISMCTSBot(iterations=40, seed=3), ISMCTSBot(iterations=40, seed=3))):
        assert bot_a.step(s) == bot_b.step(other)


def test_ismcts_options_still_play_legal_moves():
    """Every ISMCTS variant (searched opponent, no widening, a time limit) plays legal moves."""
    g = Game([RICH, RICH])
    for opts in ({"opponent": "search"}, {"widen": 1}, {"iterations": 10**6, "max_ms": 5}):
        bot = ISMCTSBot(seed=4, **({"iterations": 40} | opts))
        s = g.new_state(11)
        while not s.is_terminal():
            a = bot.step(s) if s.current_player() == 0 else s.greedy_action()
            assert a in s.legal_actions()
            s.apply_action(a)


def test_utilities_are_the_returns_plus_a_share_of_the_margin():
    from cardbase.bots import utility

    g = Game([RICH, RICH])
    for seed in range(20):
        s = g.new_state(seed)
        s.play_greedy()
        a, b = s.scores()
        r = s.returns()
        assert utility(s, 0) == pytest.approx(r[0] + 0.02 * (a - b))
        assert utility(s, 1) == pytest.approx(r[1] + 0.02 * (b - a))
