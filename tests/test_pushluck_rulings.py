"""15 en un tour: the contested reading of PL6 (stop at 15), PL14 ("tour complet"), the rulings as
data and the rule coverage, with the engine, the solver and simulation agreeing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardbase.games import registry
from cardbase.games.pushluck.bots import OptimalBot
from cardbase.games.pushluck.material import parse_box
from cardbase.games.pushluck.rules import Rules
from cardbase.games.pushluck.rulings import COVERAGE, RULINGS
from cardbase.games.pushluck.solver import solve
from cardbase.games.pushluck.state import FLIP, RESHUFFLE, STOP, Game
from cardbase.games.rulings import parse_rules
from cardbase.playtest.cards import load_edition_defs
from cardbase.playtest.games import simulate
from cardbase.playtest.stats import wilson

ROOT = Path(__file__).resolve().parent.parent
DEFS = load_edition_defs([ROOT / "data" / "editions" / "P15.toml"])
BOX = "+3,+5,x2,protection,perdre-tout"


def test_stop_at_target_ends_the_turn_at_15_pl6() -> None:
    """With the option, the flip that reaches 15 ends the turn; without it, the player may go on."""
    for seed in range(300):
        free = Game(parse_box(BOX), Rules(), 2).new_state(seed)
        auto = Game(parse_box(BOX), Rules(stop_at_target=True), 2).new_state(seed)
        while free.player == 0 and free.points < 15:
            act = RESHUFFLE if free.full else FLIP
            free.apply_action(act)
            auto.apply_action(act)
        if free.player == 0 and free.points >= 15:  # reached 15 in the free reading
            assert STOP in free.legal_actions()  # may stop or go on
            assert auto.player == 1 and auto.round_scores[0] == free.points  # turn over
            return
    raise AssertionError("no seed reached 15")


def test_the_favoured_seat_flips_with_the_reading_of_pl6() -> None:
    free = solve(parse_box(BOX), players=2)["seats"]["2"]["win"]
    auto = solve(parse_box(BOX), players=2, stop_at_target=True)["seats"]["2"]["win"]
    assert free[1] > 0.5 > free[0]  # the default reading: seat 2
    assert auto[0] > 0.5 > auto[1]  # a turn stops at 15: seat 1
    rep, _ = simulate("pushluck", DEFS, players=2, bots=["optimal"], games=3000, seed=5,
                      options=parse_rules("pushluck", ["PL6=true"]))
    lo, hi = wilson(rep.seats[0]["wins"], rep.games)
    assert lo <= auto[0] <= hi


def test_finish_round_false_ends_the_game_at_once_pl14() -> None:
    g = Game(parse_box(BOX), Rules(finish_round=False), 3)
    for seed in range(200):
        s = g.new_state(seed)
        while not s.is_terminal():
            s.apply_action(s.greedy_action())
        assert s.ended_by == "target" and len(s.winners) == 1
        w = s.winners[0]
        assert all(x is None for x in s.round_scores[w + 1:])  # the later seats never played
    win = solve(parse_box(BOX), players=3, finish_round=False)["seats"]["3"]["win"]
    rep, _ = simulate("pushluck", DEFS, players=3, bots=["optimal"], games=3000, seed=2,
                      options={"finish_round": False})
    for seat, p in zip(rep.seats, win):
        lo, hi = wilson(seat["wins"], rep.games)
        assert lo <= p <= hi


def test_stop_at_target_solo_is_finite_and_the_bot_plays_it() -> None:
    data = solve(parse_box(BOX), players=1, stop_at_target=True)
    assert data["solo"]["status"] == "exact" and data["solo"]["expected_points_per_round"] < 15
    assert data["rules"] == {"stop_at_target": True, "finish_round": True}
    g = Game(parse_box(BOX), Rules(stop_at_target=True, solo_rounds=1), 1)
    bot, xs = OptimalBot(), []
    for seed in range(4000):
        s = g.new_state(seed, log=False)
        while not s.is_terminal():
            s.apply_action(bot.step(s))
        xs.append(s.returns()[0])
    assert max(xs) <= 15 + 5 * 2 + 5  # a turn never runs far past 15
    mean = sum(xs) / len(xs)
    sd = (sum((x - mean) ** 2 for x in xs) / len(xs)) ** 0.5
    assert abs(mean - data["solo"]["expected_points_per_round"]) < 4 * sd / len(xs) ** 0.5


def test_every_ruling_of_the_doc_is_data_and_options_parse() -> None:
    doc = (ROOT / "docs" / "rulings" / "pushluck.md").read_text(encoding="utf-8")
    codes = set(re.findall(r"\*\*(PL\d+) —|## (PL\d+) —", doc))
    codes = {a or b for a, b in codes}
    assert codes == {r.code for r in RULINGS}
    contested = [r for r in RULINGS if r.contested]
    assert [r.code for r in contested] == ["PL6", "PL14"]  # both move the headline seat figure
    fields = set(Rules.__dataclass_fields__)
    assert all(r.option in fields for r in RULINGS if r.option)
    assert parse_rules("pushluck", ["stop_at_target=oui", "PL14=false"]) == {
        "stop_at_target": True, "finish_round": False}
    game = registry.playable("pushluck").build(DEFS, 2, **parse_rules("pushluck", ["tie=shared"]))
    assert game.rules.tie == "shared"


@pytest.mark.parametrize("options", [{}, {"stop_at_target": True}])
def test_coverage_counts_every_play_path(options) -> None:
    g = Game(parse_box(BOX), Rules(**options), 2)
    total: dict[str, list[int]] = {}
    for seed in range(150):
        s = g.new_state(seed, log=False)
        if seed % 2:
            s.play_greedy()
        else:
            bot = OptimalBot()
            while not s.is_terminal():
                s.apply_action(bot.step(s))
        for k, (occ, used) in s.coverage().items():
            assert 0 <= used <= occ
            slot = total.setdefault(k, [0, 0])
            slot[0] += occ
            slot[1] += used
    assert set(total) <= set(COVERAGE)
    assert total["end:target"] == [150, 150]
    assert total["protection"][0] > total["protection"][1] > 0
    assert total["multiplier"][1] > 0
    # free reading: the players stop at 15 themselves; stop_at_target: the rule stops them
    assert (total["stop"][1] > 0) == (not options)
    auto = total["stop_at_target"]
    assert auto[0] > 0 and auto[1] == (auto[0] if options else 0)
    # a clone carries its counts
    s = g.new_state(1)
    s.apply_action(FLIP)
    assert s.clone().coverage() == s.coverage()


def test_a_solo_game_never_counts_15_as_an_ending_it_missed_pl8() -> None:
    """PL8: reaching 15 does not end a solo game, so a solo batch has no "15 reached" occasion
    (it used to count one per game and warn that the bots never reached it)."""
    g = Game(parse_box(BOX), Rules(solo_rounds=3), 1)
    s = g.new_state(4, log=False)
    s.play_greedy()
    cov = s.coverage()
    assert cov["end:rounds"] == [1, 1]
    assert "end:target" not in cov and "end:round_limit" not in cov
    two = g.__class__(parse_box(BOX), Rules(), 2).new_state(4, log=False)
    two.play_greedy()
    assert two.coverage()["end:target"] == [1, 1] and "end:rounds" not in two.coverage()
