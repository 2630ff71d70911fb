"""The rulings in the app's batch views: readings chosen, the rulings a figure rests on, the rule
coverage and « Poids des arbitrages » (the same service as ``cardbase sim rulings``)."""

from __future__ import annotations

import re

import pytest
from test_app import SQLITE, app_env, no_exception, page_test, shown, texts  # noqa: F401 - fixture

from cardbase.games import rulings
from cardbase.games.rulings import Ruling

pytestmark = [SQLITE, pytest.mark.usefixtures("app_env")]
T = {"fr": "Points", "en": "Points"}


@pytest.fixture
def contested_points(monkeypatch):
    real = rulings.game_rulings

    def fake(code):
        if code != "overkill":
            return real(code)
        return (Ruling("OK5", T, T, option="points", default="lines_under",
                       allowed=("lines_under", "all", "best_line"), contested=True),)

    monkeypatch.setattr(rulings, "game_rulings", fake)


def _batch(at):
    at.session_state["pt_gamecode"] = "overkill"
    at.session_state["ok_mode"] = "batch"
    return at.run()


def test_a_batch_under_another_reading_says_so_and_shows_coverage(contested_points) -> None:
    at = _batch(page_test("playtest"))
    no_exception(at)
    at.number_input(key="okb_games").set_value(20).run()
    at.selectbox(key="okb_rule_points").select("all").run()
    at.button(key="okb_go").click().run()
    no_exception(at)
    report = at.session_state["okb_result"]["report"]
    assert [r["value"] for r in report["rulings"]] == ["all"]
    assert "OK5 : toutes les lignes *" in texts(at)
    assert sum(v["used"] for k, v in report["coverage"].items() if k.startswith("ending:")) == 20


def test_the_weight_of_the_rulings_is_measured_in_the_app(contested_points) -> None:
    at = _batch(page_test("playtest"))
    at.number_input(key="okb_games").set_value(20).run()
    assert "Poids des arbitrages" in texts(at)
    at.button(key="okb_weigh").click().run()
    no_exception(at)
    res = at.session_state["okb_weights"]
    assert {v["value"] for v in res["variants"]} == {"all", "best_line"}
    table = at.dataframe[-2].value
    assert len(table) == 2 * 2  # two readings, two seats
    assert "Écart" in table.columns and "Significatif" in table.columns
    # the measures of a good game under every reading, on the same deals
    measured = at.dataframe[-1].value
    assert list(measured["lecture"])[0] == "par défaut" and len(measured) == 3
    assert res["baseline"]["measures"]["games"] == 20 and all(v["measures"]["games"] == 20 for v in res["variants"])
    assert "Mesures d'un bon jeu sous chaque lecture" in texts(at)
    # each reading's verdict, sides and measures judged together: what it moves, or « pas d'effet démontré »
    verdicts = [shown(m.value) for m in at.markdown if m.value.startswith("- **OK5")]
    assert len(verdicts) == 2 and all(re.search(r"\*\* : (pas d'effet démontré|effet démontré : .+ → )", m)
                                      for m in verdicts), verdicts
    assert "Verdict de chaque lecture" in texts(at) and "méthode de Holm" in texts(at)


def test_the_weight_of_nespanini_rulings_on_a_duel() -> None:
    """NesPanini's contested rulings (R1, R9) weighed on the duel of the two decks picked."""
    at = page_test("playtest")
    at.session_state["pt_mode"] = "duel"
    at.run()
    at.number_input(key="ptd_games").set_value(20).run()
    assert "Poids des arbitrages" in texts(at)
    at.button(key="ptd_weigh").click().run()
    no_exception(at)
    res = at.session_state["ptd_weights"]
    assert {v["ruling"] for v in res["variants"]} == {"R1", "R9"}
    table = at.dataframe[-2].value
    measured = at.dataframe[-1].value
    assert len(measured) == 1 + len(res["variants"]) and "1er joueur" in measured.columns
    assert "Premier joueur" in set(table["Place"])
