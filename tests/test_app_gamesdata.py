"""Games as data in the app: the Jeux page creates and edits games, the card editor shows a game's
declared fields as typed inputs, and a game without deck rules offers its box on the Decks page."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from streamlit.testing.v1 import AppTest

from cardbase import access
from tests.test_app import PASSWORD, no_exception, page_test, texts


@pytest.fixture
def app_env(db_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DATABASE_URL", db_url)
    monkeypatch.setenv(access.PASSWORD_ENV, PASSWORD)
    access.reset_attempts()
    yield db_url
    access.enforce(False)
    access.reset_attempts()


@contextmanager
def _db(db_url: str):
    from cardbase.storage import db

    eng = db.make_engine(db_url)
    try:
        with access.editor_context(access.unlock(PASSWORD)), db.session_scope(eng) as s:
            yield s
    finally:
        eng.dispose()


def _game(db_url: str, code: str) -> dict | None:
    from sqlmodel import select

    from cardbase.catalog import gamesdata
    from cardbase.storage.models import Game

    with _db(db_url) as s:
        game = s.exec(select(Game).where(Game.code == code)).first()
        return gamesdata.game_dict(game) if game else None


def _new_game_page(db_url: str) -> AppTest:
    at = page_test("games_admin", editor=True)
    at.session_state["ga_mode"] = "new"
    return at.run()


# --------------------------------------------------------------------------- Jeux page

def test_games_page_lists_the_games_read_only_without_editor_mode(app_env: str) -> None:
    at = page_test("games_admin").run()
    no_exception(at)
    table = at.dataframe[0].value
    assert {"nespanini", "ctterror", "pushluck"} <= set(table["Code"])
    row = table.set_index("Code").loc["nespanini"]
    assert row["Règles de deck"] == "20 cartes, 2 exemplaires max, foule ≤ 4"
    assert row["Moteur"] == "✓"
    assert table.set_index("Code").loc["ctterror"]["Règles de deck"] == "boîte fixe (pas de deck)"
    # declared fields by their French label, their type in words (not « damage:int:0..1000 »)
    assert "Dégâts (nombre 0–1\u202f000)" in table.set_index("Code").loc["ctterror"]["Champs de carte"]
    assert "Lecture seule" in texts(at)
    assert not [b for b in at.button if b.key in ("ga_create", "ga_save")]


def test_create_a_game_from_the_games_page(app_env: str) -> None:
    at = _new_game_page(app_env)
    no_exception(at)
    at.text_input(key="gan_code").input("duel")
    at.text_input(key="gan_name").input("Duel de sorciers")
    at.number_input(key="gan_min_players").set_value(2)
    at.number_input(key="gan_max_players").set_value(2)
    at.selectbox(key="gan_template").select("poker")
    at.checkbox(key="gan_has_deck").check()
    # the declared fields start from these rows of the table editor
    at.session_state["gan_rows"] = [
        {"name": "force", "type": "int", "min": 0, "max": 10, "choices": "", "required": True, "label": ""},
        {"name": "ecole", "type": "choice", "min": None, "max": None, "choices": "feu | glace",
         "required": False, "label": "École"},
    ]
    at.run()
    no_exception(at)
    assert "Modèle : poker" in texts(at)  # the preview follows the chosen template
    assert at.get("image"), "no preview image"
    at.number_input(key="gan_deck_size").set_value(30)
    at.number_input(key="gan_copy_limit").set_value(3).run()
    at.button(key="ga_create").click().run()
    no_exception(at)
    game = _game(app_env, "duel")
    assert game is not None
    assert (game["name"], game["min_players"], game["max_players"]) == ("Duel de sorciers", 2, 2)
    assert (game["deck_size"], game["copy_limit"], game["template"]) == (30, 3, "poker")
    assert game["fields"] == [{"name": "force", "type": "int", "min": 0, "max": 10, "required": True},
                              {"name": "ecole", "type": "choice", "choices": ["feu", "glace"], "label": "École"}]
    # the page now edits the new game, and lists it
    assert at.session_state["ga_pick"] == "duel"
    assert "duel" in set(at.dataframe[0].value["Code"])


def test_a_bad_declaration_is_refused_with_every_problem(app_env: str) -> None:
    at = _new_game_page(app_env)
    at.text_input(key="gan_code").input("nespanini")  # taken
    at.text_input(key="gan_name").input("Encore")
    at.number_input(key="gan_min_players").set_value(5)
    at.number_input(key="gan_max_players").set_value(2)
    at.session_state["gan_rows"] = [
        {"name": "Force!", "type": "int", "min": 5, "max": 1, "choices": "", "required": False, "label": ""},
        {"name": "camp", "type": "choice", "min": None, "max": None, "choices": "", "required": False,
         "label": ""},
    ]
    at.run()
    at.button(key="ga_create").click().run()
    no_exception(at)
    assert at.error, "no refusal shown"
    box = at.error[0].value
    assert "Jeu non créé" in box
    # every problem at once: the taken code, the players, the field name, its range, the choices
    assert box.count("\n- ") >= 5, box
    assert "nespanini" in box
    assert _game(app_env, "nespanini")["name"] == "NesPanini"
    assert at.text_input(key="gan_name").value == "Encore"  # the input is kept


def test_edit_a_game_and_a_stale_edit_is_refused_keeping_the_input(app_env: str) -> None:
    from cardbase.catalog import gamesdata

    at = page_test("games_admin", editor=True)
    at.session_state["ga_mode"] = "edit"
    at.run()
    at.selectbox(key="ga_pick").select("pushluck").run()
    version = _game(app_env, "pushluck")["version"]
    at.text_input(key="gae_name").input("15 en un tour").run()
    assert "Modifications non enregistrées : Nom" in texts(at)
    at.button(key="ga_save").click().run()
    no_exception(at)
    assert _game(app_env, "pushluck")["name"] == "15 en un tour"
    assert _game(app_env, "pushluck")["version"] == version + 1
    # someone else saves the same game meanwhile
    at.text_area(key="gae_description").input("Ma description").run()
    with _db(app_env) as s:
        gamesdata.update_game(s, code="pushluck", expected_version=version + 1, changes={"max_players": 5})
    at.button(key="ga_save").click().run()
    no_exception(at)
    assert "modifié par quelqu'un d'autre" in texts(at)
    assert at.text_area(key="gae_description").value == "Ma description"  # nothing typed is lost
    saved = _game(app_env, "pushluck")
    assert saved["max_players"] == 5 and saved["description"] != "Ma description"
    at.button(key="ga_stale_mine").click().run()  # knowingly apply mine on top of theirs
    no_exception(at)
    saved = _game(app_env, "pushluck")
    assert saved["description"] == "Ma description" and saved["max_players"] == 5


# --------------------------------------------------------------------------- card editor

def _card(db_url: str, ref: str) -> dict:
    from cardbase.catalog import cards as catalog

    with _db(db_url) as s:
        c = catalog.get_card(s, ref)
        return catalog.card_dicts(s, ids=[c.id])[0]


def _open(at: AppTest, db_url: str, ref: str) -> dict:
    card = _card(db_url, ref)
    at.selectbox(key="ed_pick_edition").select(card["edition"]).run()
    at.selectbox(key="ed_pick_card").select(card["id"]).run()
    return card


def test_editor_shows_declared_fields_as_typed_inputs_and_saves_them(app_env: str) -> None:
    at = page_test("editor", editor=True).run()
    card = _open(at, app_env, "CTT-001")
    no_exception(at)
    keys = {w.key for w in at.number_input}
    assert {"edf_x_damage", "edf_x_armour", "edf_x_life"} <= keys
    assert not [w for w in at.text_input if w.key == "edf_stats"]  # no raw JSON for a declaring game
    damage = at.number_input(key="edf_x_damage")
    # the declared range is told, not put on the widget (which would turn 1001 into no value)
    assert damage.value == 20 and "de 0 à 1000" in damage.help
    damage.set_value(35).run()
    assert "Modifications non enregistrées : Dégâts" in texts(at)  # the field's label
    at.button(key="ed_save").click().run()
    no_exception(at)
    saved = _card(app_env, "CTT-001")
    assert saved["stats"]["damage"] == 35 and saved["damage"] == 35
    assert saved["version"] == card["version"] + 1
    assert at.number_input(key="edf_x_damage").value == 35


def test_editor_offers_a_choice_field_and_the_service_checks_the_value(app_env: str) -> None:
    from cardbase.catalog import cards as catalog
    from cardbase.catalog import gamesdata

    with _db(app_env) as s:
        gamesdata.create_game(s, code="duel", name="Duel", min_players=2, max_players=2,
                              fields=["force:int:0..10:required", "ecole:choice(feu|glace)", "devise:text"])
        catalog.create_edition(s, game="duel", code="DU1", name="Duel 1", set_size=2)
        catalog.create_card(s, edition="DU1", fields={"number": 1, "name": "Mage", "force": 4})
    at = page_test("editor", editor=True).run()
    _open(at, app_env, "DU1-001")
    no_exception(at)
    assert at.selectbox(key="edf_x_ecole").options == ["—", "feu", "glace"]
    at.selectbox(key="edf_x_ecole").select("glace")
    at.text_input(key="edf_x_devise").input("Par le givre")
    at.number_input(key="edf_x_force").set_value(None).run()  # a required field emptied
    at.button(key="ed_save").click().run()
    no_exception(at)
    assert at.error and "force" in at.error[0].value  # refused by the service, every problem shown
    assert _card(app_env, "DU1-001")["stats"] == {"force": 4}
    assert at.selectbox(key="edf_x_ecole").value == "glace"  # the input is kept
    at.number_input(key="edf_x_force").set_value(9).run()
    at.button(key="ed_save").click().run()
    no_exception(at)
    assert _card(app_env, "DU1-001")["stats"] == {"force": 9, "ecole": "glace", "devise": "Par le givre"}


def test_editor_stale_edit_of_a_declared_field_keeps_the_input(app_env: str) -> None:
    from cardbase.catalog import cards as catalog

    at = page_test("editor", editor=True).run()
    card = _open(at, app_env, "CTT-002")
    with _db(app_env) as s:  # another editor saves the same card meanwhile
        catalog.update_card(s, card["id"], expected_version=card["version"], changes={"damage": 50})
    at.number_input(key="edf_x_damage").set_value(25).run()
    at.button(key="ed_save").click().run()
    no_exception(at)
    assert "modifiée par quelqu'un d'autre" in texts(at)
    assert at.number_input(key="edf_x_damage").value == 25
    assert _card(app_env, "CTT-002")["damage"] == 50
    at.button(key="ed_stale_mine").click().run()
    no_exception(at)
    assert _card(app_env, "CTT-002")["damage"] == 25


def test_editor_creates_and_duplicates_a_card_with_declared_fields(app_env: str) -> None:
    at = page_test("editor", editor=True)
    at.session_state["ed_mode"] = "new"
    at.run()
    at.selectbox(key="ed_new_edition").select("CTT").run()
    no_exception(at)
    assert not [w for w in at.text_input if w.key == "edf_stats"]
    at.text_input(key="edf_name").input("Casque lourd")
    at.number_input(key="edf_x_armour").set_value(7)
    at.number_input(key="edf_x_life").set_value(2).run()
    assert "de 1 à" in at.number_input(key="edf_x_life").help  # the declared range
    at.button(key="ed_create").click().run()
    no_exception(at)
    assert at.text_input(key="edf_name").value == "Casque lourd"  # now editing the new card
    card = _card(app_env, at.session_state["ed_card"]["ref"])
    assert card["stats"] == {"armour": 7, "life": 2}
    at.button(key="ed_dup").click().run()
    no_exception(at)
    copy = _card(app_env, at.session_state["ed_card"]["ref"])
    assert copy["name"] == "Casque lourd (copie)" and copy["stats"] == {"armour": 7, "life": 2}


def test_editor_new_card_with_a_number_outside_the_range_is_refused_not_dropped(app_env: str) -> None:
    """Éditeur → Nouvelle carte, force 12 in a game declaring force:int:0..10: the card is not
    created without its force; the message says why, the input stays, and 7 then saves."""
    from sqlmodel import select

    from cardbase.catalog import cards as catalog
    from cardbase.catalog import gamesdata
    from cardbase.storage.models import Card, Edition

    with _db(app_env) as s:
        gamesdata.create_game(s, code="duel", name="Duel", min_players=2, max_players=2,
                              fields=["force:int:0..10"])
        catalog.create_edition(s, game="duel", code="DU1", name="Duel 1", set_size=5)
    at = page_test("editor", editor=True)
    at.session_state["ed_mode"] = "new"
    at.run()
    at.selectbox(key="ed_new_edition").select("DU1").run()
    at.text_input(key="edf_name").input("Colosse")
    at.number_input(key="edf_x_force").set_value(12).run()
    assert at.number_input(key="edf_x_force").value == 12  # kept as typed, not emptied
    at.button(key="ed_create").click().run()
    no_exception(at)
    assert "Carte créée." not in [str(t.value) for t in at.toast]
    assert at.error and "force vaut 12, hors de 0..10" in texts(at)
    with _db(app_env) as s:
        assert not s.exec(select(Card).join(Edition).where(Edition.code == "DU1")).all()
    assert at.number_input(key="edf_x_force").value == 12 and at.text_input(key="edf_name").value == "Colosse"
    at.number_input(key="edf_x_force").set_value(7).run()
    at.button(key="ed_create").click().run()
    no_exception(at)
    assert _card(app_env, "DU1-001")["stats"] == {"force": 7}


def test_editor_edit_with_a_number_outside_the_range_is_refused_not_dropped(app_env: str) -> None:
    at = page_test("editor", editor=True).run()
    card = _open(at, app_env, "CTT-001")
    at.number_input(key="edf_x_damage").set_value(5000).run()
    assert "Modifications non enregistrées : Dégâts" in texts(at)  # the field's label
    at.button(key="ed_save").click().run()
    no_exception(at)
    assert "damage vaut 5000, hors de 0..1000" in texts(at)
    assert _card(app_env, "CTT-001")["damage"] == card["damage"]
    assert at.number_input(key="edf_x_damage").value == 5000


def test_editions_page_refuses_a_negative_set_size_instead_of_saving_zero(app_env: str) -> None:
    """A set size typed below 0 reaches the service and is refused; nothing is created."""
    from cardbase.catalog import cards as catalog
    from cardbase.errors import NotFoundError

    at = page_test("editions", editor=True).run()
    next(ti for ti in at.text_input if ti.label == "Code").input("NP7")
    [ti for ti in at.text_input if ti.label == "Nom"][-1].input("Septième")
    [n for n in at.number_input if n.label == "Taille du set"][-1].set_value(-5)
    next(b for b in at.button if b.label == "Créer l'édition").click().run()
    no_exception(at)
    assert at.error and "-5" in texts(at)
    with _db(app_env) as s, pytest.raises(NotFoundError):
        catalog.get_edition(s, "NP7")


# --------------------------------------------------------------------------- decks page

def test_a_game_without_deck_rules_offers_its_box_on_the_decks_page(app_env: str) -> None:
    at = page_test("decks").run()
    no_exception(at)
    picker = at.selectbox(key="deck_game")
    assert picker.value == "nespanini" and "CT vs Terror" in picker.options  # games by name
    picker.select("ctterror").run()
    no_exception(at)
    assert "CT vs Terror est une boîte fixe" in texts(at)
    assert not [w for w in at.text_input if w.key == "deck_q"]  # no deck builder
    assert at.selectbox(key="deck_box_edition").value == "CTT"
    at.button(key="deck_box_print").click().run()
    no_exception(at)
    assert (at.session_state["pr_source"], at.session_state["pr_edition"]) == ("edition", "CTT")
    at.selectbox(key="deck_game").select("nespanini").run()
    assert [w for w in at.text_input if w.key == "deck_q"]  # the deck builder is back



def test_the_games_form_survives_the_other_mode_being_shown(app_env: str) -> None:
    at = page_test("games_admin", editor=True)
    at.session_state["ga_mode"] = "edit"
    at.run()
    at.selectbox(key="ga_pick").select("overkill").run()
    at.text_input(key="gae_name").input("OVERKILL !").run()
    at.session_state["ga_mode"] = "new"
    at.run()
    for key in ("gae_name", "gae_min_players", "ga_pick"):  # as Streamlit forgets widgets not drawn
        if key in at.session_state:
            del at.session_state[key]
    at.session_state["ga_mode"] = "edit"
    at.run()
    no_exception(at)
    assert at.text_input(key="gae_name").value == "OVERKILL !"
    assert at.number_input(key="gae_min_players").value == 2
    assert "Modifications non enregistrées : Nom" in texts(at)


def test_the_games_page_in_english(app_env: str) -> None:
    at = page_test("games_admin", editor=True, lang="en")
    at.session_state["ga_mode"] = "new"
    at.run()
    no_exception(at)
    assert at.title[0].value == "Games"
    assert at.selectbox(key="gan_template").value == ""  # shown as "(default)"
    assert "fixed box (no decks)" in set(at.dataframe[0].value["Deck rules"])
    at.text_input(key="gan_code").input("ctterror").run()
    at.button(key="ga_create").click().run()
    no_exception(at)
    box = at.error[0].value
    assert "Game not created" in box and "already taken" in box and "no name" in box


def test_a_row_added_but_left_untouched_is_ignored() -> None:
    """The table editor's « + » adds a row with its type filled in: left as is, it is an empty row
    (« Une ligne vide est ignorée »), not a field without a name."""
    from cardbase.ui.games_admin import FIELD_COLUMNS, rows_to_fields

    untouched = {k: None for k in FIELD_COLUMNS} | {"type": "int", "required": False}
    force = {k: None for k in FIELD_COLUMNS} | {"name": "force", "type": "int", "min": 1, "max": 10}
    assert rows_to_fields([force, untouched]) == [{"name": "force", "type": "int", "min": 1, "max": 10}]
