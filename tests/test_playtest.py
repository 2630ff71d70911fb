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


def test_deck_references_resolve_through_the_database(session, tmp_path):
    """A deck-list file, a saved deck name and a starter slug give the same cards."""
    from collections import Counter

    from cardbase.errors import DeckListError, NotFoundError
    from cardbase.playtest import deck_defs_from_db, resolve_playtest_deck

    path = starter_decks()["braises-ardentes"]
    by_file = deck_defs_from_db(session, str(path))
    saved = resolve_playtest_deck(session, "Braises ardentes")
    slug = resolve_playtest_deck(session, "braises-ardentes")
    assert saved.source == "saved" and slug.source == "starter" and slug.name == "braises-ardentes"
    names = Counter(c.name for c in by_file)
    assert len(by_file) == 20 and names == Counter(c.name for c in saved.cards)
    assert names == Counter(c.name for c in slug.cards)
    assert names == Counter(c.name for c in load_deck_defs(path))
    assert all(c.id > 0 for c in by_file)  # database cards, not file cards
    assert resolve_playtest_deck(session, "braises ARDENTES").name == "Braises ardentes"
    from cardbase.decks import get_deck

    deck_id = get_deck(session, "Braises ardentes").id
    assert Counter(c.name for c in deck_defs_from_db(session, deck_id)) == names
    with pytest.raises(NotFoundError, match="id"):
        deck_defs_from_db(session, 10**6)
    with pytest.raises(NotFoundError, match="braises-ardentes"):
        deck_defs_from_db(session, "no-such-deck")
    bad = tmp_path / "bad.txt"
    bad.write_text("2 Tisonnier\n3 Carte qui n'existe pas\n", encoding="utf-8")
    with pytest.raises(DeckListError, match="ligne 2"):
        deck_defs_from_db(session, str(bad))


def test_cli_sim_reads_decks_from_the_database(cli_env, tmp_path):
    from cardbase.cli.sim import app

    runner = CliRunner()
    r = runner.invoke(app, ["goldfish", "braises-ardentes", "--games", "40", "--json",
                            "--oracle-games", "2", "--swap-games", "5"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["games"] == 40 and data["deck"] == "braises-ardentes"
    assert set(data["percentiles"]) >= {"5", "50", "95"} and data["mean"] > 0
    assert {row["card"] for row in data["cards"]} >= {"Tisonnier", "Le Colosse de Fer"}
    assert all(row["swap_delta"] is not None for row in data["cards"])
    deck_file = tmp_path / "mine.txt"
    deck_file.write_text(starter_decks()["maree-et-crypte"].read_text(encoding="utf-8"),
                         encoding="utf-8")
    r = runner.invoke(app, ["duel", "Braises ardentes", str(deck_file), "--games", "40", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    for key in ("games", "wins", "ties", "losses", "win_rate", "ci95", "first_player_win_rate"):
        assert key in data
    assert data["games"] == 40 and data["wins"] + data["ties"] + data["losses"] == 40
    assert data["decks"] == ["Braises ardentes", "Marée et Crypte"]
    r = runner.invoke(app, ["duel", "no-such-deck", "braises-ardentes"])
    assert r.exit_code == 2
    assert "no deck 'no-such-deck'" in r.output and "braises-ardentes" in r.output


def test_cli_sim_with_edition_files_needs_no_database(tmp_path, monkeypatch):
    from cardbase.cli.sim import app
    from cardbase.playtest.cards import DATA_DIR

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'absent' / 'none.db'}")
    editions = [a for p in sorted((DATA_DIR / "editions").glob("*.toml")) for a in ("-e", str(p))]
    r = CliRunner().invoke(app, ["goldfish", "cour-arc-en-ciel", "--games", "30", "--json",
                                 "--oracle-games", "0", "--swap-games", "0", *editions])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["games"] == 30
