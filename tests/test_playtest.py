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
    assert "aucun deck 'no-such-deck'" in r.output and "braises-ardentes" in r.output


def test_cli_sim_with_edition_files_needs_no_database(tmp_path, monkeypatch):
    from cardbase.cli.sim import app
    from cardbase.playtest.cards import DATA_DIR

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'absent' / 'none.db'}")
    editions = [a for p in sorted((DATA_DIR / "editions").glob("*.toml")) for a in ("-e", str(p))]
    r = CliRunner().invoke(app, ["goldfish", "cour-arc-en-ciel", "--games", "30", "--json",
                                 "--oracle-games", "0", "--swap-games", "0", *editions])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["games"] == 30


# ---------------------------------------------------------------- how games ended (ruling R10)


def _np1(text):
    from tests.test_engine import np1_deck

    return np1_deck(text)


def test_every_batch_report_counts_how_its_games_ended():
    from cardbase.games.nespanini import ENDINGS
    from tests.test_engine import LEGENDS_DECK, REVEAL_DECK

    legends, reveal = _np1(LEGENDS_DECK), _np1(REVEAL_DECK)
    g = goldfish(legends, games=30, oracle_games=2, swap_games=4)
    assert list(g.summary["ended_by"]) == list(ENDINGS)
    assert g.summary["ended_by"]["unreachable"] == 30 and sum(g.summary["ended_by"].values()) == 30
    assert g.records["ended_by"].tolist() == ["unreachable"] * 30
    off = goldfish(legends, games=10, oracle_games=0, swap_games=0, stalemate_rounds=0)
    assert off.summary["ended_by"]["turn-limit"] == 10 and off.summary["stalemate_rounds"] == 0
    d = duel(legends, legends, games=20)
    assert d.summary["ended_by"]["unreachable"] == 20
    d = duel(reveal, legends, games=20, bots=("mc", "greedy"))  # used to crash (ruling R9)
    assert sum(d.summary["ended_by"].values()) == 20 and json.loads(d.to_json())["ended_by"]
    rr = roundrobin({"a": legends, "b": RICH, "c": reveal}, games=10)
    out = rr.to_dict()
    assert out["games"] == 30 and sum(out["ended_by"].values()) == 30
    assert out["ended_by"]["cimetiere"] >= 10  # RICH against the reveal deck ends normally
    lad = ladder(RICH, games=4, levels=("random", "greedy"))
    assert sum(lad.loc[0, "ended_by"].values()) == 4


def test_cli_sim_says_how_games_ended_and_warns(tmp_path):
    from cardbase import i18n
    from cardbase.cli.sim import app
    from tests.test_engine import LEGENDS_DECK, NP1

    deck = tmp_path / "legendes.txt"
    deck.write_text(LEGENDS_DECK, encoding="utf-8")
    runner = CliRunner()
    r = runner.invoke(app, ["duel", str(deck), str(deck), "--games", "4", "-e", NP1])
    assert r.exit_code == 0, r.output
    assert "fin des parties : 4 Cimetière hors d'atteinte (R10)" in r.stdout
    assert "4 parties sur 4 ne se sont pas terminées par le Cimetière" in r.stderr
    r = runner.invoke(app, ["duel", str(deck), str(deck), "--games", "4", "-e", NP1, "--json",
                            "--stalemate-rounds", "0"])
    assert json.loads(r.stdout)["ended_by"]["turn-limit"] == 4
    with i18n.use_language("en"):
        r = runner.invoke(app, ["goldfish", str(deck), "--games", "6", "-e", NP1,
                                "--oracle-games", "0", "--swap-games", "0"])
    assert "games ended: 6 Cimetière out of reach (R10)" in r.stdout
    assert "mean points" in r.stdout  # table headers in the current language
    r = runner.invoke(app, ["goldfish", str(deck), "-n", "3", "-e", NP1, "--stalemate-rounds", "-1"])
    assert r.exit_code == 2 and "--stalemate-rounds" in r.stderr and "Traceback" not in r.output
    r = runner.invoke(app, ["roundrobin", str(deck), "braises-ardentes", "--games", "4", "-e", NP1])
    assert r.exit_code == 0, r.output
    assert "fin des parties :" in r.stdout and "cote" in r.stdout
    r = runner.invoke(app, ["ladder", str(deck), "--games", "4", "-e", NP1, "--json"])
    data = json.loads(r.stdout)
    assert sum(data["ended_by"].values()) == 4 * 3 and all("ended_by" in x for x in data["rungs"])


def test_deck_validate_warns_about_a_deck_that_cannot_reach_the_end(cli_env, tmp_path):
    from cardbase.cli import app
    from tests.test_engine import LEGENDS_DECK, REVEAL_DECK

    runner = CliRunner()
    legends = tmp_path / "legendes.txt"
    legends.write_text("# game: nespanini\n" + LEGENDS_DECK, encoding="utf-8")
    r = runner.invoke(app, ["deck", "validate", str(legends), "--json"])
    assert r.exit_code == 0, r.output  # legal: a warning does not change the exit code
    data = json.loads(r.stdout)
    assert data["legal"] is True
    assert [w["code"] for w in data["warnings"]] == ["cimetiere-out-of-reach"]
    assert "4" in data["warnings"][0]["message"]
    r = runner.invoke(app, ["deck", "validate", str(legends)])
    assert r.exit_code == 0 and "cimetiere-out-of-reach" in r.stderr
    fine = tmp_path / "fine.txt"
    fine.write_text("# game: nespanini\n" + REVEAL_DECK, encoding="utf-8")
    r = runner.invoke(app, ["deck", "validate", str(fine), "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["warnings"] == []


def test_ending_analysis_counts_cards_that_can_be_discarded():
    from cardbase.games.nespanini.analysis import discardable_count, ending_warnings

    assert discardable_count([(["Légendaire"], 2), (["legendaire", "Foule"], 1), ([], 3), (None, 1)]) == 4
    assert [w.code for w in ending_warnings([(["Légendaire"], 16), ([], 4)])] == ["cimetiere-out-of-reach"]
    assert ending_warnings([(["Légendaire"], 15), (["Défausse"], 5)]) == []


# ---------------------------------------------------------------- the Playtest page's helpers


def test_round_robin_matrix_shows_a_dash_on_its_diagonal():
    from cardbase.ui.playtest import matrix_table

    rr = roundrobin({"a": RICH, "b": PLAIN_DECK, "c": RICH}, games=4)
    shown = matrix_table(rr.to_dict()["matrix"])
    assert [shown.loc[n, n] for n in "abc"] == ["—"] * 3
    assert "None" not in shown.to_string() and "nan" not in shown.to_string()
    assert shown.loc["a", "b"].endswith("%")
    shown = matrix_table(rr.matrix.to_dict())  # NaN from the frame itself
    assert shown.loc["b", "b"] == "—"


def test_event_log_names_every_event_and_hides_what_the_bot_alone_sees():
    from cardbase.games.nespanini import Game
    from cardbase.ui.playtest import event_lines
    from tests.test_engine import EFFECTS, LEGENDS_DECK, REVEAL_DECK, deck_of, np1_deck

    g = Game([np1_deck(REVEAL_DECK), np1_deck(LEGENDS_DECK)])
    seen = set()
    for seed in range(12):
        s = g.new_state(seed)
        while not s.is_terminal():
            s.apply_action(s.greedy_action())
        kinds = {ev[0] for ev in s.events}
        seen |= kinds
        for human in (0, 1):
            lines = event_lines(s, human)
            assert len(lines) == len(s.events)
            assert not any(ln.startswith(("bottom", "take", "look", "reveal", "legendary")) for ln in lines)
            bot = 1 - human
            defs = s.table.defs
            for ev, ln in zip(s.events, lines, strict=True):
                if ev[0] in ("look", "take") and ev[1] == bot:
                    assert not any(defs[k].name in ln for k in (ev[2] if ev[0] == "look" else [ev[2]]))
                if ev[0] == "bottom" and ev[1] == bot:
                    assert ln == "Le bot place une carte sous son deck."
            assert "Fin de la partie (" in lines[-1] and "cimetiere" not in lines[-1]
    assert {"legendary-bottom", "bottom", "reveal", "look", "take", "effect"} <= seen
    pression = deck_of([EFFECTS[4], EFFECTS[2], EFFECTS[3], EFFECTS[6]])
    s = Game([pression, pression]).new_state(1)
    while not s.is_terminal():
        s.apply_action(s.greedy_action())
    k = s.hands[1][0]
    s.events.extend([("reveal-top", 1, k), ("reveal-top", 0, k)])  # the top card of a deck
    lines = event_lines(s, 0)
    name = s.table.defs[k].name
    assert name not in lines[-2] and name in lines[-1]  # only the effect's owner sees it
    assert {ev[0] for ev in s.events} >= {"forced"}
    assert not any(ln.split(" ")[0] in ("forced", "pick", "give", "bury") for ln in lines)
    assert any("(effet adverse)" in ln or "(votre effet)" in ln for ln in lines)


def _page(mode: str):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_string("from cardbase.ui import playtest\nplaytest.render()\n", default_timeout=120)
    at.session_state["lang"] = "fr"
    at.session_state["pt_mode"] = mode
    return at.run()


def _texts(at) -> str:
    return "\n".join(str(e.value) for kind in ("markdown", "warning", "caption")
                     for e in getattr(at, kind))


def test_playtest_page_round_robin_and_ladder_say_how_games_ended(cli_env):
    from cardbase import decks
    from cardbase.storage import db

    with db.session_scope() as s:
        keys = [f"deck:{d.id}" for d in decks.list_decks(s, game="nespanini")][:3]
    assert len(keys) == 3
    at = _page("duel")
    at.multiselect(key="ptd_decks").set_value(keys).run()
    at.number_input(key="ptd_games").set_value(4).run()
    at.button(key="ptd_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Fin des parties" in _texts(at) and "12 par le Cimetière" in _texts(at)
    matrix = at.dataframe[0].value
    assert all(matrix.iloc[i, i] == "—" for i in range(3))
    at = _page("ladder")
    at.multiselect(key="ptl_levels").set_value(["random", "greedy"]).run()
    at.number_input(key="ptl_games").set_value(4).run()
    at.number_input(key="ptl_stalemate").set_value(0).run()
    at.button(key="ptl_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "4 par le Cimetière" in _texts(at)
    shown = at.dataframe[0].value
    assert len(shown) == 1 and "fin des parties" in shown.columns
