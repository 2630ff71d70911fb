"""15 en un tour on the command line: ``sim game pushluck`` (two players by default; a solo batch
reports its score distribution, never a win rate) and ``solve pushluck``'s limits (PL13)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.games import registry

runner = CliRunner()
SQLITE = pytest.mark.sqlite_only("the command-line contract does not depend on the database")


def test_default_players_is_two_for_pushluck_and_the_minimum_elsewhere() -> None:
    assert registry.seat_bots(registry.get("pushluck"), None, None, 10)[0] == 2
    assert registry.seat_bots(registry.get("overkill"), None, None, 10)[0] == 2
    assert registry.seat_bots(registry.get("ctterror"), None, None, 10)[0] == registry.get("ctterror").min_players
    assert registry.seat_bots(registry.get("pushluck"), 1, None, 10)[0] == 1


@SQLITE
def test_sim_game_pushluck_defaults_to_two_players(cli_env) -> None:
    r = runner.invoke(app, ["sim", "game", "pushluck", "--games", "200", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["players"] == 2 and len(data["seats"]) == 2
    assert sum(s["wins"] for s in data["seats"]) == 200  # someone wins every two-player game
    assert "solo" not in data


@SQLITE
def test_a_solo_batch_reports_scores_not_win_rates(cli_env) -> None:
    r = runner.invoke(app, ["sim", "game", "pushluck", "--players", "1", "--games", "300", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert all("win_rate" not in s and "wins" not in s for s in data["seats"])
    solo = data["solo"]
    q = solo["quantiles"]
    assert q["min"] <= q["q10"] <= q["q25"] <= q["median"] <= q["q75"] <= q["q90"] <= q["max"]
    lo, hi = solo["mean_ci95"]
    assert lo < solo["mean"] < hi and solo["games"] == 300 and solo["rounds"] == 10
    # greedy solo stops at 15 or loses: every round scores 0 or 15..19, a game 10 of them
    assert solo["mean"] > 15 and q["max"] <= 190
    text = runner.invoke(app, ["sim", "game", "pushluck", "--players", "1", "--games", "100"])
    assert text.exit_code == 0, text.output
    assert "taux de victoire" in text.stdout and "médiane" in text.stdout
    assert "Siège 1" not in text.stdout and "victoires" not in text.stdout.split("aucun taux")[0]


def test_solve_refuses_a_box_too_large_before_the_work_pl13(monkeypatch) -> None:
    from cardbase.games.pushluck import solver

    def no_work(*args, **kwargs):
        raise AssertionError("the solver started")

    box = ",".join(["+1"] * 10 + ["+3"] * 5 + ["+5"] * 5 + ["x2"] * 3 + ["protection"] * 3
                   + ["perdre-tout"] * 4)
    monkeypatch.setattr(solver, "Solver", no_work)  # the limit is checked before any solving
    r = runner.invoke(app, ["solve", "pushluck", "--box", box])
    assert r.exit_code == 2
    assert "Boîte trop grande" in r.output and "30 cartes" in r.output and "PL13" in r.output
    assert "Traceback" not in r.output
    # a middle box: the capped table is what is too big; the message says which --reshuffles fits
    mid = "+1,+1,+3,+3,+5,x2,protection,protection,perdre-tout,perdre-tout"
    r = runner.invoke(app, ["solve", "pushluck", "--box", mid, "--reshuffles", "6"])
    assert r.exit_code == 2 and "--reshuffles 3" in r.output


def test_solve_takes_the_contested_reading_as_a_rule_pl6() -> None:
    r = runner.invoke(app, ["solve", "pushluck", "--rule", "stop_at_target=true", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["rules"]["stop_at_target"] is True
    win = data["seats"]["2"]["win"]
    assert win[0] > win[1]  # the favoured seat flips to seat 1
    assert data["solo"]["unlimited"]["value_exact"] == "37913/4800"
    bad = runner.invoke(app, ["solve", "pushluck", "--rule", "stop_at_target=peut-être"])
    assert bad.exit_code == 2 and "stop_at_target" in bad.output


def test_solve_says_when_the_exact_solo_value_is_out_of_reach(monkeypatch) -> None:
    from cardbase.games.pushluck import solo

    def refuse(self, solver):
        raise solo.NoExactSolo("threshold")

    monkeypatch.setattr(solo.Unlimited, "__init__", refuse)
    r = runner.invoke(app, ["solve", "pushluck", "--players", "1"])
    assert r.exit_code == 0, r.output
    assert "n'a pas pu être calculée exactement" in r.output and "sans maximum" not in r.output


def test_a_solo_interval_never_goes_below_zero_pl8() -> None:
    """A solo total is never negative: with the optimal bot's rare huge scores (PL12) the normal
    interval of the mean used to start below 0."""
    from types import SimpleNamespace

    from cardbase.games.pushluck.material import parse_box
    from cardbase.games.pushluck.rules import Rules
    from cardbase.games.pushluck.state import Game

    g = Game(parse_box("+3,+5,x2,protection,perdre-tout"), Rules(), players=1)
    records = [SimpleNamespace(returns=[0.0])] * 99 + [SimpleNamespace(returns=[40000.0])]
    solo = g.analytics(records)["solo"]
    assert solo["mean"] == 400 and solo["mean_ci95"][0] == 0.0 and solo["mean_ci95"][1] > 400

def test_a_box_with_multipliers_does_not_size_memory_by_its_scores_pl13() -> None:
    """x10,x10 make the scores to beat reach millions: the peak distribution is kept sparse (a list
    as long as the target asked for ~10 GB), and it agrees with the exact reach probability."""
    from fractions import Fraction

    from cardbase.games.pushluck.material import parse_box
    from cardbase.games.pushluck.solver import Solver

    s = Solver(parse_box("x10,x10,+15,+15,perdre-tout,protection"))
    far = s.reach_float(10**12)  # the old dense table: a list of 2**40 floats
    assert 0.0 < far < s.reach_float(10**6) < s.reach_float(15)
    p, _flips = s.reach()
    assert s.reach_float(15) == pytest.approx(float(p), abs=1e-12)
    assert s.reach_float(16) <= s.reach_float(15) and s.reach_float(0) == 1.0
    assert isinstance(p, Fraction)


def test_the_seats_search_stops_at_its_limit_and_keeps_what_it_found(monkeypatch) -> None:
    """P15 at 5 players took more than a quarter of an hour, a box with x10 multipliers at 2 or 3
    players minutes and gigabytes: the search counts its positions (PL13) and stops with a message
    naming the player count, after printing the counts it could answer."""
    from cardbase.games.pushluck import solver

    monkeypatch.setattr(solver, "MAX_SEAT_WORK", 5_000)  # P15: 2,400 at 2 players, 290,000 up to 3
    r = runner.invoke(app, ["solve", "pushluck", "--players", "3"])
    assert r.exit_code == 2, r.output
    assert "2 joueurs (jeu optimal)" in r.output
    assert "Chances de chaque place à 3 joueurs" in r.output and "5 000 positions" in r.output
    assert "sim game pushluck --players 3 --bots greedy" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["solve", "pushluck", "--players", "3", "--json"])
    assert r.exit_code == 2
    data = json.loads(r.stdout[: r.stdout.rindex("}") + 1])
    assert list(data["seats"]) == ["2"] and data["seats_limit"] == {"players": 3, "positions": 5_000}


def test_a_search_stopped_at_its_limit_leaves_the_smaller_counts_their_budget(monkeypatch) -> None:
    """The app keeps one solver per box for every player: a 5-player search stopped at the limit
    (PL13) must not spend the budget of a later 2-player question — each player count's search
    has its own, since a stopped search keeps nothing."""
    from cardbase.games.pushluck import solver
    from cardbase.games.pushluck.material import box_from_cards
    from cardbase.playtest.cards import DATA_DIR, load_edition_defs

    monkeypatch.setattr(solver, "MAX_SEAT_WORK", 5_000)  # P15: 2,400 at 2 players, 290,000 at 3
    s = solver.Solver(box_from_cards(load_edition_defs([DATA_DIR / "editions" / "P15.toml"])))
    with pytest.raises(solver.SeatsTooBig):
        s.seats(3)
    assert s.seats(2).win  # answered, not refused at once
    with pytest.raises(solver.SeatsTooBig):
        s.seats(3)  # still too big, and still said so


def test_box_figures_beyond_the_limits_are_listed_not_a_traceback() -> None:
    huge = "+" + "9" * 5000  # int() of it raised ValueError (Python's 4,300-digit limit)
    r = runner.invoke(app, ["solve", "pushluck", "--box", f"{huge},x5000,+1000001,+3,perdre-tout"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.count("chiffre hors limites") == 3
    assert "carte 1 de la liste" in r.output and "carte 3 de la liste" in r.output
    assert len(r.output) < 2000  # the 5,000 digits are not echoed
