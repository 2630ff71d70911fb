"""The app's batch view plays a game written as data (data/rules/huit.toml) with no database card."""

from __future__ import annotations

from test_app import app_env, no_exception, page_test  # noqa: F401 - fixture


def test_the_batch_view_plays_a_rules_file_game() -> None:
    at = page_test("playtest")
    at.session_state["pt_gamecode"] = "huit"
    at.run()
    no_exception(at)
    at.number_input(key="pgb_huit_games").set_value(20).run()
    at.button(key="pgb_huit_go").click().run()
    no_exception(at)
    shown = " ".join(str(x.value) for x in [*at.markdown, *at.caption, *at.info, *at.success])
    assert "**Taux de victoire par place**" in shown and "**Fin des parties**" in shown
    assert "HU2" in shown  # its contested ruling, from the rules file
    tables = " ".join(x.value.to_string() for x in at.dataframe)
    assert "main_vide" in tables
