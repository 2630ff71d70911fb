"""A search bot with a time per decision (the app's tables) whose time runs out before it could try
every move once — Menteur offers hundreds of sets a turn, each tried by a play-out to the game's
end — plays the game's greedy move instead of going on for minutes (it took 115 CPU s a decision
with 200 ms allowed); without a time limit (batches) nothing changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardbase.games.bots.ismcts import ISMCTSBot
from cardbase.games.bots.montecarlo import MonteCarloBot
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import load_rules

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("bot", [MonteCarloBot, ISMCTSBot])
def test_out_of_time_before_every_move_is_tried_plays_greedy(bot, monkeypatch) -> None:
    game = Game(load_rules(ROOT / "data" / "rules" / "menteur.toml"), [], 4)
    s = game.new_state(1)
    assert len(s.legal_actions()) > 100
    tried = []
    from cardbase.games.bots import base

    if bot is MonteCarloBot:  # a play-out for each move tried
        real = base.playout_utilities
        monkeypatch.setattr(f"{bot.__module__}.playout_utilities", lambda st, h: tried.append(1) or real(st, h))
    else:  # an iteration of the tree for each move tried
        real_it = ISMCTSBot._iterate
        monkeypatch.setattr(ISMCTSBot, "_iterate", lambda self, *a: tried.append(1) or real_it(self, *a))
    move = bot(seed=0, max_ms=0).step(s.clone())
    assert move == s.clone().greedy_action()
    assert len(tried) <= 2  # stopped at once, not after a play-out for each of the moves
