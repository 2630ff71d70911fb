"""Bots: they play legal moves, are reproducible from their seed, and the oracle bounds them."""

from __future__ import annotations

import pytest

from cardbase.games.bots import GreedyBot, ISMCTSBot, MonteCarloBot, RandomBot, make_bot, oracle_search
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
    from cardbase.games.bots import utility

    g = Game([RICH, RICH])
    for seed in range(20):
        s = g.new_state(seed)
        s.play_greedy()
        a, b = s.scores()
        r = s.returns()
        assert utility(s, 0) == pytest.approx(r[0] + 0.02 * (a - b))
        assert utility(s, 1) == pytest.approx(r[1] + 0.02 * (b - a))


class _LastStone:
    """A toy game for N players and teams: take 1 or 2 stones; whoever takes the last one loses.

    Returns: the loser's team -1, every other seat +1 (teams) or +1/(n-1) (no teams). Nothing is
    hidden (``resample`` is a clone); the greedy choice is "take one"."""

    def __init__(self, stones: int, players: int, teams: list[int] | None = None, player: int = 0):
        self.stones, self.n, self.teams, self.player = stones, players, teams, player
        self.loser = -1

    def current_player(self):
        return -1 if self.loser >= 0 else self.player

    def is_terminal(self):
        return self.loser >= 0

    def legal_actions(self):
        return [a for a in (2, 1) if a <= self.stones]  # "take two" first: ties do not help

    def apply_action(self, a):
        assert a in self.legal_actions()
        self.stones -= a
        if self.stones == 0:
            self.loser = self.player
        self.player = (self.player + 1) % self.n

    def returns(self):
        if self.loser < 0:
            return [0.0] * self.n
        if self.teams:
            lost = self.teams[self.loser]
            return [-1.0 if self.teams[p] == lost else 1.0 for p in range(self.n)]
        return [-1.0 if p == self.loser else 1.0 / (self.n - 1) for p in range(self.n)]

    def clone(self):
        c = _LastStone(self.stones, self.n, self.teams, self.player)
        c.loser = self.loser
        return c

    def resample(self, player, rng):
        return self.clone()

    def greedy_action(self):
        return 1


@pytest.mark.parametrize("bot", ["mc", "ismcts"])
def test_search_bots_play_for_their_team_over_n_players(bot):
    """Four players in two teams: taking two would give the last stone to a teammate; taking one
    leads (greedy play after) to an opponent taking it. Three players, no teams: the same."""
    opts = {"samples": 4} if bot == "mc" else {"iterations": 40}
    team_game = _LastStone(3, 4, teams=[0, 0, 1, 1])
    assert make_bot(bot, seed=1, **opts).step(team_game) == 1
    alone = _LastStone(2, 3)
    assert make_bot(bot, seed=1, **opts).step(alone) == 1
    # and a whole game plays to its end with legal moves
    s = _LastStone(9, 4, teams=[0, 1, 0, 1])
    bots = [make_bot(bot, seed=i, **opts) for i in range(4)]
    while not s.is_terminal():
        s.apply_action(bots[s.current_player()].step(s))
    r = s.returns()
    assert sorted(r) == [-1.0, -1.0, 1.0, 1.0] and r[0] == r[2]


def test_utilities_default_to_the_returns():
    from cardbase.games.bots.base import utilities

    s = _LastStone(1, 3)
    s.apply_action(1)
    assert utilities(s) == s.returns() == [-1.0, 0.5, 0.5]


class _Clock:
    """A stand-in for time.perf_counter: each reading is ``step`` seconds after the previous."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _mc_reference(state, samples: int, seed: int) -> int:
    """The Monte Carlo choice as one loop per action (its code before the time limit)."""
    import random

    from cardbase.games.bots.base import horizon_of, playout_utilities

    rng = random.Random(seed)
    legal = state.legal_actions()
    p = state.current_player()
    worlds = [state.resample(p, rng) for _ in range(samples)]
    best, best_v = legal[0], None
    for a in legal:
        total = 0.0
        for w in worlds:
            s = w.clone()
            s.apply_action(a)
            total += playout_utilities(s, horizon_of(state))[p]
        if best_v is None or total > best_v:
            best, best_v = a, total
    return best


def test_monte_carlo_without_a_limit_chooses_as_one_loop_per_action():
    game = Game([RICH, RICH])
    compared = 0
    for seed in range(6):
        s = game.new_state(seed)
        while not s.is_terminal() and compared < 60:
            if len(s.legal_actions()) > 1:
                assert MonteCarloBot(samples=6, seed=seed).step(s) == _mc_reference(s, 6, seed)
                compared += 1
            s.apply_action(GreedyBot().step(s))
    assert compared >= 30


@pytest.mark.parametrize("name", ["mc", "ismcts"])
def test_a_search_bot_with_a_time_limit_stops_early_with_a_legal_move(name, monkeypatch):
    """At the app's tables (max_ms): a clock where every reading is 1 s later runs the time out
    at the first move tried, before every move was tried once: the search gives the game's greedy
    move (tests/test_search_bots_time.py: Menteur's hundreds of sets)."""
    from cardbase.games.bots import ismcts, montecarlo
    from cardbase.games.bots.base import playout_utilities

    game = Game([RICH, RICH])
    s = game.new_state(4)
    while len(s.legal_actions()) < 2:
        s.apply_action(s.legal_actions()[0])
    plays = []
    module = montecarlo if name == "mc" else ismcts
    if name == "mc":
        monkeypatch.setattr(montecarlo, "playout_utilities",
                            lambda st, h: plays.append(1) or playout_utilities(st, h))
    else:
        iterate = ismcts.ISMCTSBot._iterate
        monkeypatch.setattr(ismcts.ISMCTSBot, "_iterate",
                            lambda self, *a, **k: plays.append(1) or iterate(self, *a, **k))
    monkeypatch.setattr(module.time, "perf_counter", _Clock(1.0))
    bot = make_bot(name, seed=3, max_ms=500)
    from cardbase.games.frame import greedy_of

    greedy = greedy_of(s) or type(s).greedy_action
    assert bot.step(s) == greedy(s.clone()) and s.legal_actions()
    assert len(plays) == 1  # stopped after the first move tried


def test_the_tables_give_search_bots_a_time_limit_and_batches_none():
    from cardbase.playtest.games import seat_bot
    from cardbase.ui.playtest_shared import TABLE_THINK_MS

    assert seat_bot("mc", 1, max_ms=TABLE_THINK_MS).max_ms == TABLE_THINK_MS
    assert seat_bot("ISMCTS", 1, max_ms=TABLE_THINK_MS).max_ms == TABLE_THINK_MS
    assert seat_bot("mc", 1).max_ms is None and seat_bot("ismcts", 1).max_ms is None
    assert isinstance(seat_bot("greedy", 1, max_ms=TABLE_THINK_MS), GreedyBot)
