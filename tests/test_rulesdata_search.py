"""`[scoring] search = "round"` (docs/rules-language.md): the search bots (mc, ismcts) play out to the
end of the round in play and value the position there as if the game ended then — the seats that
lead by `[end.winner]` win — instead of playing every later round. Checked on Atout (seats) and
Enchères d'équipe (teams) against values recomputed here from the counters, and in sequence: a
play-out from the middle of a round stops at the next round's first decision, never later."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.games.bots import MonteCarloBot
from cardbase.games.bots.base import horizon_of, playout_utilities
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import parse_rules_text

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "data" / "rules"
runner = CliRunner()


def _game(code: str, players: int, search: str | None) -> Game:
    text = (RULES / f"{code}.toml").read_text(encoding="utf-8")
    text = text.replace('search = "round"\n', "")
    if search is not None:
        text = text.replace("[scoring]\n", f'[scoring]\nsearch = "{search}"\n', 1)
    return Game(parse_rules_text(text), [], players)


def _as_if_ended(s, players: int) -> list[float]:
    """The returns if the game ended now, from the seats' points (highest wins, ties shared)."""
    pts = [s.counters[p]["points"] for p in range(players)]
    won = [p for p in range(players) if pts[p] == max(pts)]
    if len(won) == players:
        return [0.0] * players
    return [1 / len(won) if p in won else -1 / (players - len(won)) for p in range(players)]


def _middle_of_a_round(game: Game, seed: int, moves: int):
    s = game.new_state(seed, log=False)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
    assert not s.is_terminal()
    return s


def test_atout_searches_to_the_end_of_the_deal() -> None:
    assert 'search = "round"' in (RULES / "atout.toml").read_text(encoding="utf-8")
    game = _game("atout", 3, "round")
    assert game.rules.search == "round"
    assert _game("atout", 3, None).rules.search == "game"  # the default: play-outs to the game's end


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_play_out_stops_at_the_next_deal_valued_by_who_leads_then(players: int) -> None:
    game = _game("atout", players, "round")
    stopped = decided = 0
    for seed in range(12):
        s = _middle_of_a_round(game, seed, 3 + seed)
        mark = horizon_of(s)
        assert mark == s.round
        assert s.horizon_utilities(mark) is None  # the round is still in play
        events = None if s.events is None else len(s.events)
        out = s.clone()
        utils = playout_utilities(out, mark)
        if out.is_terminal():  # the last deal: the game's own end
            assert utils == list(out.returns())
            decided += 1
            continue
        stopped += 1
        assert out.round == mark + 1  # the next deal has begun, not one move further
        assert utils == _as_if_ended(out, players)
        assert (None if s.events is None else len(s.events)) == events
        # one move earlier the deal was still in play: the play-out stopped at its first decision
        again = s.clone()
        while again.round == mark:
            again.apply_action(again.greedy_action())
        assert again.round == mark + 1 and again.counters == out.counters
    assert stopped > 0


def test_without_search_round_the_play_outs_go_to_the_end_of_the_game() -> None:
    s = _middle_of_a_round(_game("atout", 2, None), 4, 5)
    assert horizon_of(s) is None
    out = s.clone()
    utils = playout_utilities(out, horizon_of(out))
    assert out.is_terminal() and utils == list(out.returns())


def test_a_team_game_values_the_round_by_its_teams_points() -> None:
    """Enchères d'équipe with `search = "round"`: at the end of a round every seat of the team with
    the most points (its seats' points added up, `[teams] value = "sum"`) gets +1, the others −1,
    and nothing is logged (the game is not over)."""
    players = 4
    game = _game("encheres", players, "round")
    seen = 0
    for seed in range(10):
        s = game.new_state(seed)
        rng = random.Random(seed)
        first = s.round
        while s.round == first and not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        if s.is_terminal():
            continue
        logged = len(s.events)
        utils = s.horizon_utilities(first)
        assert len(s.events) == logged
        team = [sum(s.counters[q]["points"] for q in range(players) if q % 2 == t) for t in (0, 1)]
        if team[0] == team[1]:
            assert utils == [0.0] * players
        else:
            best = 0 if team[0] > team[1] else 1
            assert utils == [1.0 if q % 2 == best else -1.0 for q in range(players)]
        seen += 1
    assert seen > 0


def test_monte_carlo_plays_atout_with_the_round_horizon() -> None:
    """A whole game of mc against greedy ends by the file's own condition (the search bot's choices
    are legal at every decision), each decision searched to the end of its deal."""
    game = _game("atout", 2, "round")
    s = game.new_state(7, log=False)
    bots = [MonteCarloBot(samples=4, seed=1), None]
    while not s.is_terminal():
        p = s.current_player()
        a = bots[p].step(s) if bots[p] is not None else s.greedy_action()
        assert a in s.legal_actions()
        s.apply_action(a)
    assert s.ended_by == "donnes_jouees"


def test_a_wrong_search_value_is_a_problem_with_its_line_and_the_values_allowed(tmp_path) -> None:
    text = (RULES / "atout.toml").read_text(encoding="utf-8").replace('search = "round"', 'search = "donne"')
    bad = tmp_path / "atout.toml"
    bad.write_text(text, encoding="utf-8")
    res = runner.invoke(app, ["games", "check", str(bad), "--games", "0", "--search-states", "0"])
    assert res.exit_code != 0
    line = text.splitlines().index('search = "donne"') + 1
    assert "scoring.search" in res.output and f"ligne {line}" in res.output, res.output
    assert "round" in res.output and "game" in res.output
