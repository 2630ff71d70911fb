"""The Jeux page's rules panel (cardbase/ui/rules_editor.py): a game's rules file shown, checked at
every change with each problem's line, key and fix, and saved only when it passes, whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardbase import access
from cardbase.games.rulesdata import register
from tests.test_app import PASSWORD, no_exception, page_test

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def rules_env(db_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("DATABASE_URL", db_url)
    monkeypatch.setenv(access.PASSWORD_ENV, PASSWORD)
    access.reset_attempts()
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "pushluck.toml").write_text((ROOT / "data" / "rules" / "pushluck.toml").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    monkeypatch.setattr(register, "rules_dir", lambda: folder)
    yield folder
    access.enforce(False)
    access.reset_attempts()


def _page(lang: str = "fr"):
    at = page_test("games_admin", editor=True, lang=lang)
    at.session_state["ga_mode"] = "edit"
    at.session_state["ga_pick"] = "pushluck"
    return at.run()


def _area(at):
    return next(a for a in at.text_area if a.key == "ga_rules_pushluck")


def _frames(at) -> str:
    return " ".join(df.value.to_string() for df in at.dataframe)


def test_the_rules_file_is_shown_checked_and_its_problems_listed_as_you_type(rules_env: Path) -> None:
    at = _page()
    no_exception(at)
    area = _area(at)
    assert 'code = "pushluck"' in area.value
    assert any("Règles valables" in s.value for s in at.success)
    broken = area.value.replace('into = "cachees"', 'into = "pile"').replace(
        'when = "done(\'retourner\') > 0"', 'when = "done(\'voler\') > 0"')
    area.set_value(broken).run()
    no_exception(at)
    assert any("2 problème(s)" in e.value for e in at.error)
    frames = _frames(at)
    assert "clé material.into" in frames and "La zone « pile » n'existe pas" in frames
    assert "clé actions[1].when" in frames and "voler" in frames
    save = next(b for b in at.button if b.key == "ga_rules_save_pushluck")
    assert save.disabled  # a file with problems cannot be saved
    assert 'into = "cachees"' in (rules_env / "pushluck.toml").read_text(encoding="utf-8")


def test_a_valid_change_is_saved_whole_and_a_code_mismatch_is_refused(rules_env: Path) -> None:
    at = _page("en")
    area = _area(at)
    area.set_value(area.value.replace("target = 15", "target = 12")).run()
    assert any("Valid rules" in s.value for s in at.success)
    next(b for b in at.button if b.key == "ga_rules_save_pushluck").click().run()
    no_exception(at)
    assert "target = 12" in (rules_env / "pushluck.toml").read_text(encoding="utf-8")
    assert not [p for p in rules_env.iterdir() if p.name.startswith(".")]  # no temporary left
    area = _area(at)
    area.set_value(area.value.replace('code = "pushluck"', 'code = "autre"')).run()
    assert "belongs to the game" in _frames(at)


def test_the_panel_searches_for_an_ending_and_shows_a_game_that_cannot_end(rules_env: Path) -> None:
    """The bounded search of ``games check`` on one deal, at every change: 15 en un tour's ending is
    found (a caption); a file whose cards only pass between two zones and whose end condition is
    never true is shown as a problem — the game cannot end."""
    from tests.test_rulesdata import LOOP

    at = _page()
    # every player count the file allows is searched, and said
    assert any("Nombres de joueurs essayés : 2, 3, 4, 5, 6" in c.value for c in at.caption)
    assert any("[6 joueurs] Recherche bornée : la fin « target » est atteinte" in c.value for c in at.caption)
    _area(at).set_value(LOOP.replace('code = "boucle"', 'code = "pushluck"')).run()
    no_exception(at)
    assert any("Règles valables" in s.value for s in at.success)
    assert any("la partie ne peut pas finir" in e.value and "(6)" in e.value for e in at.error)
    five = LOOP.replace('code = "boucle"', 'code = "pushluck"').replace(
        "players = [2, 2]", "players = [2, 5]").replace("count('a') > 5", "count('b') >= (5 if players == 5 else 2)")
    _area(at).set_value(five).run()
    no_exception(at)
    assert [e.value[:11] for e in at.error if "ne peut pas finir" in e.value] == ["[5 joueurs]"]


def test_a_save_over_someone_elses_newer_file_is_refused_then_reloaded(rules_env: Path) -> None:
    """Two editors open the same rules; the second to save is refused (the first one's file kept),
    then « Recharger » shows the file as saved now and saving from it goes through."""
    at = _page()
    area = _area(at)
    area.set_value(area.value.replace("target = 15", "target = 12")).run()
    path = rules_env / "pushluck.toml"
    theirs = path.read_text(encoding="utf-8").replace("target = 15", "target = 13")
    path.write_text(theirs, encoding="utf-8")  # saved by someone else meanwhile
    next(b for b in at.button if b.key == "ga_rules_save_pushluck").click().run()
    no_exception(at)
    assert any("a changé depuis que vous l" in e.value for e in at.error)
    assert path.read_text(encoding="utf-8") == theirs
    next(b for b in at.button if b.key == "ga_rules_reload_pushluck").click().run()
    area = _area(at)
    assert "target = 13" in area.value
    area.set_value(area.value.replace("target = 13", "target = 11")).run()
    next(b for b in at.button if b.key == "ga_rules_save_pushluck").click().run()
    no_exception(at)
    assert "target = 11" in path.read_text(encoding="utf-8")


def test_the_panel_lists_the_problems_of_teams_and_secret_choices_in_english(rules_env: Path) -> None:
    """The constructs of teams, simultaneous choices and answer windows are checked as you type, each
    problem with its line, key and fix; a valid team game passes and its ending is found."""
    text = (ROOT / "data" / "rules" / "encheres.toml").read_text(encoding="utf-8").replace(
        'code = "encheres"', 'code = "pushluck"')
    at = _page("en")
    _area(at).set_value(text).run()
    no_exception(at)
    assert any("Valid rules" in s.value for s in at.success)
    assert any("Bounded search" in c.value and "mains" in c.value and "vides" in c.value for c in at.caption)
    broken = text.replace("count = 2\n", "count = 3\n").replace("simultaneous = true", "simultaneous = true\nends_turn = false")
    _area(at).set_value(broken).run()
    no_exception(at)
    assert any("3 problem(s)" in e.value for e in at.error)
    frames = _frames(at)
    assert "key teams.names" in frames  # two names for three teams
    assert "key teams.count" in frames and "every team needs at least one player" in frames
    assert "key actions[1].ends_turn" in frames and "always ends the turn" in frames


def test_a_hostile_text_is_a_listed_problem_and_nothing_is_saved(rules_env: Path) -> None:
    """Lists nested past the limit (the panel showed « valid » with no rules and failed), a dotted
    key of thousands of parts (seconds of parsing), a formula nested a thousand levels (Python's
    recursion limit): each a problem with its line, the save button off, the file unchanged."""
    at = _page()
    saved = (rules_env / "pushluck.toml").read_text(encoding="utf-8")
    area = _area(at)
    original = area.value
    for text, line, words in (
            ("x = " + "[" * 40 + "]" * 40 + "\n" + original, 1, "trop profondément"),
            ("a." * 5000 + "b = 1\n" + original, 1, "clé pointée"),
            (original.replace('heuristic = "', 'heuristic = "' + "-" * 900),
             original[: original.index('heuristic = "')].count("\n") + 1, "niveaux")):
        area.set_value(text).run()
        no_exception(at)
        assert any("1 problème(s)" in e.value for e in at.error), words
        frames = _frames(at)
        assert words in frames and f"ligne {line}" in frames
        save = next(b for b in at.button if b.key == "ga_rules_save_pushluck")
        assert save.disabled
    assert (rules_env / "pushluck.toml").read_text(encoding="utf-8") == saved


def test_a_misspelt_field_of_the_editions_cards_is_a_problem_with_a_guess(rules_env: Path) -> None:
    """15 en un tour takes its cards from its edition (in the database): « card.multiplyer » read
    None for every card and showed only in trial games; now a problem with its line and a guess,
    and the file is not saved."""
    at = _page()
    area = _area(at)
    saved = area.value
    area.set_value(saved.replace('card = "card.multiplier != None"', 'card = "card.multiplyer != None"')).run()
    no_exception(at)
    assert any("1 problème(s)" in e.value for e in at.error)
    frames = _frames(at)
    assert "clé triggers[2].card" in frames and "« multiplyer »" in frames
    assert "Vouliez-vous dire « multiplier » ?" in frames
    assert next(b for b in at.button if b.key == "ga_rules_save_pushluck").disabled
    with pytest.raises(Exception, match="multiplyer"):
        from cardbase.catalog.rules_files import save_rules
        from cardbase.playtest.cards import figures_of
        from cardbase.ui.playtest_shared import game_cards

        access.enforce(False)
        save_rules("pushluck", area.value, "x", card_fields=lambda c: figures_of(game_cards("pushluck"), c))
    assert (rules_env / "pushluck.toml").read_text(encoding="utf-8") == saved


def test_a_formula_that_fails_in_play_is_shown_with_its_line_and_key(rules_env: Path) -> None:
    """A text added to a number passes the reading but fails when a card is turned: the panel's
    search meets it and shows it as the problems read from the file are, its line, key and fix."""
    at = _page()
    area = _area(at)
    broken = area.value.replace('do = [{ add = "points", value = "card.value" }]',
                                'do = [{ add = "points", value = "card.name" }]')
    line = next(k for k, x in enumerate(broken.splitlines(), 1) if 'value = "card.name"' in x)
    area.set_value(broken).run()
    no_exception(at)
    assert any("Règles valables" in s.value for s in at.success)
    assert any("une expression échoue en cours de partie" in e.value for e in at.error)
    frames = _frames(at)
    assert f"ligne {line}, clé triggers[1].do[1].value" in frames
    assert "« card.name » donne" in frames and "nombre entier" in frames
