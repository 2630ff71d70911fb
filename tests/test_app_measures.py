"""The measures of a good game under every batch view of the app: NesPanini's goldfish batch (the
solo measures, and a row for each measure that does not apply, saying why), its round robin (every
pair, both seat orders) and its bot ladder, and a solo box game (15 en un tour alone) — the same
figures as ``measures()``, each with its interval and its meaning, numbers in the app's language."""

from __future__ import annotations

import pytest
from test_app import SQLITE, app_env, no_exception, page_test  # noqa: F401 - fixture

from cardbase.playtest.batch import measured_games
from cardbase.playtest.measures import measures

pytestmark = [SQLITE, pytest.mark.usefixtures("app_env")]


def _nespanini(mode: str, lang: str = "fr"):
    at = page_test("playtest", lang=lang)
    at.session_state["pt_mode"] = mode
    return at.run()


def _deck_keys(n: int) -> list[str]:
    from cardbase import decks
    from cardbase.storage import db

    with db.session_scope() as s:
        keys = [f"deck:{d.id}" for d in decks.list_decks(s, game="nespanini")][:n]
    assert len(keys) == n
    return keys


def _cards(key: str):
    from cardbase.playtest import deck_defs_from_db
    from cardbase.storage import db

    with db.session_scope() as s:
        return deck_defs_from_db(s, int(key.split(":", 1)[1]))


def _run_and_measure(at, prefix: str, games: int):
    """Run the batch of ``prefix`` with ``games`` games, then its measures: (the result, its table)."""
    at.number_input(key=f"{prefix}_games").set_value(games).run()
    at.button(key=f"{prefix}_go").click().run()
    no_exception(at)
    panel = "ptrr" if prefix == "ptd" and len(at.session_state["ptd_decks"]) > 2 else prefix
    at.button(key=f"{panel}_measures").click().run()
    no_exception(at)
    return at.session_state[f"{panel}_measures_result"], at.table[-1].value


def test_the_goldfish_batch_shows_the_solo_measures() -> None:
    at = _nespanini("batch")
    m, frame = _run_and_measure(at, "ptb", 20)
    key = at.selectbox(key="ptb_deck").value
    want = measures(measured_games([_cards(key)]), games=20, seed=0, bots=["greedy"], skill_games=20,
                    outcome_games=20, code="nespanini")
    assert {k: v for k, v in m.items() if k != "decks"} == want and m["solo"]
    rows = {r["Mesure"]: r for _, r in frame.iterrows()}
    assert {"Durée (tours par partie)", "Score final acquis après", "Écart de niveau (greedy contre random)",
            "Décisions par partie", "Décisions qui changent l'issue"} <= set(rows)
    length = rows["Durée (tours par partie)"]
    assert length["Valeur"] == f"{want['length']['mean']:.1f}".replace(".", ",") and " – " in length["IC 95 %"]
    skill = rows["Écart de niveau (greedy contre random)"]
    assert skill["Valeur"].endswith(" points") and "random" in skill["Ce que cela veut dire"]
    # what does not apply alone says so, and why — no figure made up
    na = rows["Changements de meneur"]
    assert na["Valeur"] == "sans objet" and na["IC 95 %"] == "" and "Personne d'autre ne peut mener" in na["Ce que cela veut dire"]
    assert rows["Avantage du premier joueur"]["Valeur"] == "sans objet"
    assert "Victoires du premier joueur" not in rows


def test_the_round_robin_measures_every_pair_in_both_seat_orders() -> None:
    keys = _deck_keys(3)
    at = _nespanini("duel")
    at.multiselect(key="ptd_decks").set_value(keys).run()
    m, frame = _run_and_measure(at, "ptd", 2)
    want = measures(measured_games([_cards(k) for k in keys], both_orders=True), games=6, seed=0,
                    bots=["greedy", "greedy"], skill_games=6, outcome_games=6, code="nespanini")
    assert m["pool"] == 3 and len(m["decks"]) == 3
    assert {k: v for k, v in m.items() if k not in ("pool", "decks")} == want
    assert any("3 paires de decks" in c.value for c in at.caption)
    names = set(frame["Mesure"])
    assert {"Victoires du premier joueur", "Victoires de la place 1 (Glouton)", "Remontées",
            "Vainqueur connu après", "Retard moyen du vainqueur remonté"} <= names


def test_the_ladder_measures_its_mirror_match() -> None:
    at = _nespanini("ladder")
    at.multiselect(key="ptl_levels").set_value(["random", "greedy"]).run()
    m, frame = _run_and_measure(at, "ptl", 4)
    assert m["bots"] == ["greedy", "greedy"] and m["decks"][0] == m["decks"][1] and not m["solo"]
    lc = m["lead_changes"]["mean"]
    row = frame[frame["Mesure"] == "Changements de meneur"].iloc[0]
    assert row["Valeur"] == f"{lc:.2f}".replace(".", ",")  # a decimal comma in French


def test_the_measures_table_in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same table in English: a decimal point, the sentences in English (solo and not)."""
    from test_measures_engines import PATH, _Scripted
    from test_measures_reports import _Solo

    from cardbase.ui import common, measures_view, playtest_shared

    monkeypatch.setattr(common, "lang", lambda: "en")
    monkeypatch.setattr(playtest_shared, "lang", lambda: "en")
    rows = measures_view.measures_rows(measures(_Scripted(PATH), games=4, bots=["random"], code="s"))
    by = {r["Measure"]: r for r in rows}
    assert by["Lead changes"]["Value"] == "3.00" and by["Comebacks"]["Value"] == "100.0%"
    assert by["Seat 2's wins (Random)"]["Value"] == "100.0%" and "fair share (50.0%)" in by["Seat 2's wins (Random)"]["What it means"]
    solo = {r["Measure"]: r for r in measures_view.measures_rows(
        measures(_Solo([0, 1, 0]), games=2, bots=["script"], skill_games=2, code="solo"))}
    assert solo["Skill gap (greedy against random)"]["Value"] == "+3.0 points"
    assert solo["Lead changes"]["Value"] == "not applicable" and solo["Lead changes"]["What it means"] == "Nobody else can lead."


def test_a_solo_box_batch_shows_its_measures() -> None:
    at = page_test("playtest")
    at.session_state["pt_gamecode"] = "pushluck"
    at.session_state["pl_mode"] = "batch"
    at.run()
    at.number_input(key="plb_players").set_value(1).run()
    at.number_input(key="plb_games").set_value(10).run()
    at.button(key="plb_measures").click().run()
    no_exception(at)
    m = at.session_state["plb_measures_result"]
    assert m["solo"] and m["games"] == 10 and m["skill_gap"]["basis"] == "score"
    frame = at.table[-1].value
    assert "Score final acquis après" in set(frame["Mesure"]) and "sans objet" in set(frame["Valeur"])
