"""Rulings as data: ``games rulings``, ``--rule`` on batches, ``sim rulings`` (each ruling's weight)
and rule coverage in batch reports — the frame every game fills in."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.errors import ValidationError
from cardbase.games import registry, rulings
from cardbase.games.rulings import Ruling, parse_rules
from cardbase.playtest import coverage
from cardbase.playtest.cards import load_deck_defs, load_edition_defs, starter_decks
from cardbase.playtest.weights import paired_delta, weigh

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
OVK = load_edition_defs([ROOT / "data" / "editions" / "OVK.toml"])
SQLITE = pytest.mark.sqlite_only("the command-line contract does not depend on the database")
T = {"fr": "t", "en": "t"}


def test_every_game_with_an_engine_lists_its_rulings_and_they_match_its_doc() -> None:
    """Each numbered ruling of docs/rulings/<game>.md is in the game's RULINGS, and the other way
    round; every option is a real option of the game (its build accepts the default)."""
    editions = sorted((ROOT / "data" / "editions").glob("*.toml"))
    every = load_edition_defs(editions)
    for code, spec in registry.REGISTRY.items():
        listed = rulings.game_rulings(code)
        assert listed, f"{code} has no RULINGS"
        doc = (ROOT / "docs" / "rulings" / f"{code}.md").read_text(encoding="utf-8")
        prefix = re.match(r"[A-Z]+", listed[0].code).group(0)
        in_doc = set(re.findall(rf"\b({prefix}\d+)\b", doc))
        codes = [r.code for r in listed]
        assert len(codes) == len(set(codes)), code
        assert in_doc <= set(codes), (code, sorted(in_doc - set(codes)))
        assert set(codes) <= in_doc, (code, sorted(set(codes) - in_doc))
        for r in listed:
            assert r.title.get("fr") and r.title.get("en") and r.text.get("fr") and r.text.get("en"), r.code
            if r.option:
                assert not r.allowed or r.default in r.allowed, r.code
                if r.contested:
                    assert r.variants(), f"{r.code} is contested but has no alternative"
                for value in (r.default, *r.variants()):  # the game is built with each reading
                    if spec.material == "box":
                        spec.build([c for c in every if c.game == code], spec.min_players, **{r.option: value})
                    else:
                        decks = [load_deck_defs(p, editions) for p in list(starter_decks().values())[:2]]
                        spec.build(decks, 2, **{r.option: value})


def test_parse_rules_lists_every_problem_at_once(monkeypatch) -> None:
    fake = (Ruling("X1", T, T, option="points", default="a", allowed=("a", "b"), contested=True),
            Ruling("X2", T, T, option="limit", default=10, bounds=(1, 50)),
            Ruling("X3", T, T, option="flag", default=False))
    monkeypatch.setattr(rulings, "game_rulings", lambda code: fake)
    assert parse_rules("x", ["points=b", "X2=7", "flag=oui"]) == {"points": "b", "limit": 7, "flag": True}
    with pytest.raises(ValidationError) as err:
        parse_rules("x", ["points=c", "limit=99", "nope=1", "flag", "limit=abc"])
    problems = err.value.problems
    assert [p.code for p in problems] == ["bad-rule-value", "bad-rule-value", "unknown-rule", "bad-rule",
                                          "bad-rule-value"]
    text = str(err.value)
    assert "a, b" in text and "1..50" in text and "points, limit, flag" not in text
    assert "flag, limit, points" in text  # the known options, for the unknown name


def test_paired_delta_is_the_mean_difference_with_its_interval() -> None:
    mean, (lo, hi) = paired_delta([0, 0, 1, 1] * 25, [1, 0, 1, 1] * 25)
    assert mean == pytest.approx(0.25)
    assert lo > 0 and hi < 0.5 and lo < mean < hi
    same, (lo0, hi0) = paired_delta([1, 0] * 10, [1, 0] * 10)
    assert same == 0 and lo0 == hi0 == 0


def test_coverage_warns_for_a_rulebook_rule_used_under_one_percent(monkeypatch) -> None:
    monkeypatch.setattr(coverage, "labels", lambda code: {
        "deny": {"fr": "Nier", "en": "Deny", "occasion": {"fr": "des jugements", "en": "of judgements"},
                 "rulebook": True},
        "admit": {"fr": "Admettre", "en": "Admit", "rulebook": True},
        "bot_only": {"fr": "Interne", "en": "Internal", "rulebook": False}})
    total = coverage.merge([{"deny": [100, 0], "admit": [100, 90], "bot_only": [10, 0]},
                            {"deny": [100, 1], "admit": [100, 99]}, None])
    assert total == {"admit": [200, 189], "bot_only": [10, 0], "deny": [200, 1]}
    lines = coverage.warnings("x", total)
    assert len(lines) == 1 and lines[0].startswith("Nier : 0,5 % des jugements (1 sur 200)")
    data = coverage.as_json("x", total, games=2)
    assert data["deny"]["rate"] == pytest.approx(0.005) and data["deny"]["per_game"] == 0.5


def _contested_overkill(monkeypatch) -> None:
    """OVERKILL's points rule (OK5) as a contested ruling, whatever the game's own list says."""
    real = rulings.game_rulings

    def fake(code):
        if code != "overkill":
            return real(code)
        return (Ruling("OK5", T, T, option="points", default="lines_under",
                       allowed=("lines_under", "all", "best_line"), contested=True),)

    monkeypatch.setattr(rulings, "game_rulings", fake)


def test_weigh_plays_the_same_deals_under_each_reading(monkeypatch) -> None:
    _contested_overkill(monkeypatch)
    res = weigh("overkill", OVK, games=60, seed=4)
    assert res["weighed"] == ["OK5"]
    assert {v["value"] for v in res["variants"]} == {"all", "best_line"}
    assert sum(s["wins"] for s in res["baseline"]["seats"]) + res["baseline"]["ties"] == 60
    for v in res["variants"]:
        for side in v["seats"]:
            lo, hi = side["delta_ci95"]
            assert lo <= side["delta"] <= hi
            base = next(b for b in res["baseline"]["seats"] if b["side"] == side["side"])
            assert side["delta"] == pytest.approx(side["win_rate"] - base["win_rate"])
        # a reading is significant when a side or a measure moves, every test of the batch corrected (Holm)
        assert all(s["significant"] == (s["p_holm"] <= 0.05) and s["p_holm"] >= s["p"] for s in v["seats"])
        assert v["seats_significant"] == any(s["significant"] for s in v["seats"])
        assert v["significant"] == (v["seats_significant"] or bool(v["measures_moved"]))
    deltas = [v["delta"] for v in res["variants"]]
    assert deltas == sorted(deltas, reverse=True)
    # the baseline is the plain batch of the same seed
    again = weigh("overkill", OVK, games=60, seed=4)
    assert again["baseline"] == res["baseline"]


@SQLITE
def test_sim_game_rule_option_is_applied_echoed_and_checked(cli_env, monkeypatch) -> None:
    _contested_overkill(monkeypatch)
    base = runner.invoke(app, ["sim", "game", "overkill", "--games", "30", "--seed", "2", "--json"])
    changed = runner.invoke(app, ["sim", "game", "overkill", "--games", "30", "--seed", "2", "--json",
                                  "--rule", "points=all"])
    assert base.exit_code == 0 and changed.exit_code == 0, changed.output
    b, c = json.loads(base.stdout), json.loads(changed.stdout)
    assert b["rulings"][0]["value"] == "lines_under" and not b["rulings"][0]["changed"]
    assert c["rulings"][0]["value"] == "all" and c["rulings"][0]["changed"]
    assert "coverage" in c and all(k.startswith("ending:") or True for k in c["coverage"])
    assert sum(v["used"] for k, v in c["coverage"].items() if k.startswith("ending:")) == 30
    bad = runner.invoke(app, ["sim", "game", "overkill", "--games", "30", "--rule", "points=most",
                              "--rule", "colour=red"])
    assert bad.exit_code == 2
    assert "lines_under, all, best_line" in bad.output and "« colour »" in bad.output
    text = runner.invoke(app, ["sim", "game", "overkill", "--games", "10", "--rule", "points=all"])
    assert "OK5 points=all *" in text.output


@SQLITE
def test_sim_rulings_and_games_rulings_commands(cli_env, monkeypatch) -> None:
    _contested_overkill(monkeypatch)
    res = runner.invoke(app, ["sim", "rulings", "overkill", "--games", "30", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert set(data) >= {"game", "players", "games", "seed", "baseline", "variants"}
    assert {v["ruling"] for v in data["variants"]} == {"OK5"}
    for v in data["variants"]:
        assert set(v) >= {"ruling", "option", "value", "seats", "delta", "significant", "mean_rounds", "cards"}
        assert v["measures"]["games"] == 30  # the measures under every reading, at most the batch's games
    assert data["baseline"]["measures"]["game"] == "overkill"
    text = runner.invoke(app, ["sim", "rulings", "overkill", "--games", "20"])
    assert text.exit_code == 0 and "Poids des arbitrages" in text.output
    assert "Mesures d'un bon jeu sous chaque lecture (20 parties par lecture" in text.output
    assert "par défaut" in text.output and "OK5 points=" in text.output
    off = json.loads(runner.invoke(app, ["sim", "rulings", "overkill", "--games", "10", "--measures-games", "0",
                                         "--json"]).stdout)
    assert "measures" not in off["baseline"]
    bad = runner.invoke(app, ["sim", "rulings", "overkill", "--games", "20", "--only", "OK99"])
    assert bad.exit_code == 2 and "OK99" in bad.output
    listed = runner.invoke(app, ["games", "rulings", "overkill", "--json"])
    assert listed.exit_code == 0
    rows = json.loads(listed.stdout)["rulings"]
    assert rows[0]["code"] == "OK5" and rows[0]["contested"] is True
    assert set(rows[0]) >= {"code", "title", "text", "option", "default", "allowed", "contested"}


@SQLITE
def test_sim_rulings_refuses_a_batch_over_the_limit_before_playing(cli_env, monkeypatch) -> None:
    _contested_overkill(monkeypatch)
    res = runner.invoke(app, ["sim", "rulings", "overkill", "--games", "60000"])
    assert res.exit_code == 2
    assert "60000 parties × 3 lectures des arbitrages = 180000 parties" in res.output.replace("\u202f", "").replace(" ", " ")


def test_seat_figures_over_decided_games_count_ties_as_nobodys_loss() -> None:
    from cardbase.playtest.games import Record, report

    def rec(*returns):
        return Record(tuple(returns), 10, 1, "score", (frozenset(), frozenset()))

    records = [rec(1, -1)] * 30 + [rec(-1, 1)] * 10 + [rec(0, 0)] * 60  # 60 ties
    rep = report("overkill", 2, 0, ["greedy", "greedy"], records, [])
    first, second = rep.seats
    assert rep.ties == 60 and first["win_rate"] == pytest.approx(0.30)
    assert first["decided"] == 40 and first["wins_decided"] == 30
    assert first["win_rate_decided"] == pytest.approx(0.75)
    lo, hi = first["ci95_decided"]
    assert lo > 0.5 and hi < 0.9  # an edge the all-games rate (30 %) hides
    assert second["win_rate_decided"] == pytest.approx(0.25)


@SQLITE
def test_sim_rulings_weighs_nespanini_on_a_duel(cli_env) -> None:
    res = runner.invoke(app, ["sim", "rulings", "nespanini", "--games", "20", "--only", "R1", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["game"] == "nespanini" and data["weighed"] == ["R1"]
    assert {v["value"] for v in data["variants"]} == {"turns", "first"}
    force = {r["option"]: r["value"] for r in data["baseline"]["rulings"]}  # the readings in force
    assert force["end_rule"] == "cimetiere" and force["deck_lists"] == "public"
    for v in data["variants"]:
        assert [s["side"] for s in v["seats"]][1] == "first"
        for side in v["seats"]:
            lo, hi = side["delta_ci95"]
            assert lo <= side["delta"] <= hi
