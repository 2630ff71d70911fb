"""Playtest batches: figures, reproducibility whatever the executor, records, CLI."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from typer.testing import CliRunner

from cardbase.playtest.batch import duel, goldfish, ladder, roundrobin, save_records
from cardbase.playtest.cards import load_deck_defs, starter_decks
from cardbase.playtest.stats import wilson
from tests.test_engine import PLAIN_DECK, RICH


def test_wilson_interval_contains_the_rate_and_narrows():
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi
    lo2, hi2 = wilson(500, 1000)
    assert hi2 - lo2 < hi - lo
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_goldfish_figures_and_same_result_with_any_executor(tmp_path):
    a = goldfish(RICH, games=120, seed=4, oracle_games=5, swap_games=20)
    with ThreadPoolExecutor(2) as ex:
        b = goldfish(RICH, games=120, seed=4, oracle_games=5, swap_games=20, executor=ex)
    assert a.to_json() == b.to_json()
    assert a.records["score"].tolist() == b.records["score"].tolist()
    s = a.summary
    assert s["games"] == 120 and s["min"] <= s["mean"] <= s["max"]
    assert s["percentiles"]["5"] <= s["percentiles"]["50"] <= s["percentiles"]["95"]
    assert s["p_at_least"][str(s["min"])] == 1.0
    assert s["oracle_mean_gap"] >= 0
    assert set(a.cards.columns) >= {"card", "kept_rate", "discarded_rate", "avg_points", "swap_delta"}
    assert a.cards["avg_points"].sum() == pytest.approx(s["mean"])
    save_records(a.records, tmp_path / "g.jsonl")
    lines = (tmp_path / "g.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 120 and json.loads(lines[0])["game"] == 0


def test_swap_test_of_a_valuable_card_is_negative():
    rep = goldfish(PLAIN_DECK, games=200, seed=1, oracle_games=0, swap_games=200)
    top = rep.cards.sort_values("value").iloc[-1]
    assert top["swap_delta"] < 0


def test_duel_mirror_is_balanced_and_counts_add_up():
    rep = duel(RICH, RICH, games=200, seed=2)
    s = rep.summary
    assert s["wins"] + s["ties"] + s["losses"] == 200
    assert s["ci95"][0] <= s["win_rate"] <= s["ci95"][1]
    # a mirror with the same bot: seats swapped on the same seeds gives a symmetric result
    assert s["wins"] == s["losses"]
    assert 0 <= s["first_player_win_rate"] <= 1


def test_roundrobin_matrix_and_ratings():
    rr = roundrobin({"riche": RICH, "simple": PLAIN_DECK}, games=60, seed=1)
    assert rr.matrix.loc["riche", "simple"] + rr.matrix.loc["simple", "riche"] <= 1.0
    assert len(rr.ratings) == 2


def test_ladder_rows():
    df = ladder(PLAIN_DECK, games=20, seed=0, levels=("random", "greedy"))
    assert df.iloc[0]["level"] == "greedy" and df.iloc[0]["games"] == 20


def test_cli_goldfish_and_duel_json():
    from cardbase.cli.sim import app

    starters = starter_decks()
    if not starters:
        pytest.skip("no starter decks")
    name = next(iter(starters))
    assert len(load_deck_defs(starters[name])) == 20
    r = CliRunner().invoke(app, ["goldfish", name, "--games", "40", "--json", "--oracle-games", "2",
                                 "--swap-games", "5"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["games"] == 40 and "percentiles" in data and data["cards"]
    r = CliRunner().invoke(app, ["duel", name, name, "--games", "40", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    for key in ("games", "wins", "ties", "losses", "win_rate", "ci95", "first_player_win_rate"):
        assert key in data
    r = CliRunner().invoke(app, ["duel", "no-such-deck", name])
    assert r.exit_code == 2
