"""Rule coverage of a game written as data: each action is a rule, counted over the decisions
where it was allowed — an answer of an answer window too, whether the seat answered or let it
pass — and an action the bots almost never play when they may is reported under every batch
(« les bots ne s'en servent presque pas »): Menteur's greedy bots almost never call « Menteur ! »,
random ones call half the time."""

from __future__ import annotations

import random
from pathlib import Path

from cardbase.playtest import coverage as cov
from cardbase.playtest.games import simulate
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import load_rules

ROOT = Path(__file__).resolve().parent.parent


def _report(bots: str, games: int, players: int = 4):
    return simulate("menteur", (), players=players, bots=[bots] * players, games=games, seed=0, workers=1)[0]


def test_an_answer_not_made_is_an_occasion_of_the_answer() -> None:
    """Every seat asked in a window had « Menteur ! » allowed: occasions are the seats asked (the
    answers and the passes), uses the calls."""
    game = Game(load_rules(ROOT / "data" / "rules" / "menteur.toml"), [], 4)
    for seed in range(3):
        s, rng = game.new_state(seed), random.Random(seed)
        asked = calls = 0
        while not s.is_terminal():
            legal = s.legal_actions()
            move = rng.choice(legal)
            if s.observation(s.current_player()).get("window"):
                asked += 1
                calls += s.action_to_string(move) == "Menteur !"
            s.apply_action(move)
        assert s.coverage()["menteur"] == [asked, calls] and 0 < calls < asked


def test_a_rule_the_greedy_bots_almost_never_use_is_reported() -> None:
    greedy = _report("greedy", 12)
    calls = greedy.coverage["menteur"]
    assert calls["rulebook"] and calls["occasions"] > 300 and calls["rate"] < cov.RARE
    assert any(line.startswith("Menteur ! : ") and "presque pas" in line for line in greedy.coverage_warnings), \
        greedy.coverage_warnings
    random = _report("random", 12)
    assert random.coverage["menteur"]["rate"] > 0.2 and not random.coverage_warnings
    # an ending is not a rule a player chooses: never reported
    assert not greedy.coverage["ending:main_vide"]["rulebook"]
