"""The Playtest page's « Équilibre » view (a card's figure swept on common random numbers) and the deck
page's Tabletop Simulator zip."""

from __future__ import annotations

import pytest
from test_app import app_env, no_exception, page_test  # noqa: F401 - fixtures and helpers

from cardbase.playtest.sweep import sweep
from cardbase.ui.playtest_balance import points_frame

SQLITE = pytest.mark.sqlite_only("the page's logic does not depend on the database")


@SQLITE
def test_balance_view_sweeps_a_value_and_draws_the_curve(app_env: str) -> None:  # noqa: F811
    at = page_test("playtest")
    at.session_state["pt_mode"] = "balance"
    at.run()
    no_exception(at)
    at.number_input(key="ptw_lo").set_value(1).run()
    at.number_input(key="ptw_hi").set_value(4).run()
    at.number_input(key="ptw_games").set_value(20).run()
    at.button(key="ptw_go").click().run()
    no_exception(at)
    result = at.session_state["ptw_result"]
    assert [p["value"] for p in result["points"]] == [1, 2, 3, 4]
    assert result["alone"] is True  # goldfish by default: the mean score and its interval
    table = at.dataframe[-2].value
    assert len(table) == 4 and "Score moyen" in table.columns
    # the measures of a good game at every value (on the same deals): alone, those that apply,
    # each with its interval, what they mean, and why the others do not apply
    assert all(p["measures"]["solo"] and p["measures"]["games"] == 20 for p in result["points"])
    measured = at.dataframe[-1].value
    assert list(measured.columns) == ["valeur", "durée (tours)", "score acquis après"] and len(measured) == 4
    first = result["points"][0]["measures"]["length"]
    assert measured.iloc[0]["durée (tours)"].startswith(f"{first['mean']:.1f}".replace(".", ",") + " [")
    legend = " ".join(c.value for c in at.caption)
    assert "durée (tours)" in legend and "changements de meneur" in legend and "personne d'autre ne peut mener" in legend


def test_points_frame_reads_win_rates_and_bands() -> None:
    points = [{"value": 1, "win_rate": 0.4, "ci95": [0.3, 0.5], "mean_score": 20.0},
              {"value": 2, "win_rate": 0.6, "ci95": [0.5, 0.7], "mean_score": 22.0}]
    df = points_frame(points, alone=False)
    assert list(df["y"]) == [0.4, 0.6] and list(df["lo"]) == [0.3, 0.5]
    alone = points_frame(points, alone=True)
    assert list(alone["y"]) == [20.0, 22.0]


def test_the_view_calls_the_same_sweep_as_the_command_line() -> None:
    """A goldfish sweep of a card's value: higher value, higher mean score (common random numbers)."""
    from pathlib import Path

    from cardbase.playtest.cards import load_deck_defs

    root = Path(__file__).resolve().parent.parent / "data"
    deck = load_deck_defs(root / "decks" / "braises-ardentes.txt", sorted((root / "editions").glob("*.toml")))
    ref = deck[0].ref
    res = sweep(deck, card=ref, field="value", values=[0, 9], games=40, seed=2)
    low, high = (p["mean_score"] for p in res["points"])
    assert high >= low


@SQLITE
def test_deck_page_offers_the_tabletop_simulator_zip(app_env: str, tmp_path) -> None:  # noqa: F811
    """The deck page gives the same export as ``cardbase tts export``: a zip with the saved object
    (one card per copy) and the face sheets."""
    import io
    import json
    import zipfile

    from test_app import STARTER

    at = page_test("decks").run()
    at.text_area(key="deck_paste").input(STARTER).run()
    at.button(key="deck_load_list").click().run()
    assert at.button(key="deck_tts_go").disabled  # no folder of the player's computer yet
    at.text_input(key="deck_tts_dir").input(r"C:\Users\moi\Documents\deck").run()
    at.button(key="deck_tts_go").click().run()
    no_exception(at)
    made = at.session_state["deck_tts"]
    assert made["cards"] == 20
    with zipfile.ZipFile(io.BytesIO(made["zip"])) as zf:
        names = zf.namelist()
        saved = json.loads(zf.read(next(n for n in names if n.endswith(".json"))))
        assert any(n.endswith(".png") or n.endswith(".jpg") for n in names)
    deck = saved["ObjectStates"][0]
    assert len(deck["DeckIDs"]) == 20 and len(deck["ContainedObjects"]) == 20
    # the images are looked for in the player's folder, never in the server's home
    face = next(iter(deck["CustomDeck"].values()))["FaceURL"]  # sheet keys are spread (T5), not "1"
    assert face.startswith("file:///C:/Users/moi/Documents/deck/"), face
