"""The Streamlit app under AppTest: every page renders, and its main action works."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from cardbase import access, i18n
from cardbase.ui.cards import combine_queries, filters_to_query, quote_term

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "streamlit_app.py")
PASSWORD = "secret-éditeur"
# Page logic does not depend on the backend (the services are tested on both); the app tests that
# write or search also run on PostgreSQL, the others on SQLite only to keep the suite fast.
SQLITE = pytest.mark.sqlite_only("page rendering does not depend on the database backend")


@pytest.fixture
def app_env(db_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DATABASE_URL", db_url)
    monkeypatch.setenv(access.PASSWORD_ENV, PASSWORD)
    yield db_url
    access.enforce(False)


def page_test(page: str, *, editor: bool = False, lang: str = "fr") -> AppTest:
    """A single page run on its own (no navigation), optionally in editor mode."""
    script = f"""
from cardbase import access
from cardbase.ui import common, {page} as page
access.enforce()
with access.editor_context(common.editor_token()):
    page.render()
"""
    at = AppTest.from_string(script, default_timeout=60)
    at.session_state["lang"] = lang
    if editor:
        at.session_state["editor_token"] = access.unlock(PASSWORD)
    return at


def shown(markdown: str) -> str:
    """The text a Markdown string shows (user text is backslash-escaped by ``common.plain``)."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def texts(at: AppTest) -> str:
    parts = []
    for kind in ("markdown", "caption", "error", "warning", "success", "info", "title", "subheader", "code"):
        parts += [shown(str(e.value)) for e in getattr(at, kind)]
    return "\n".join(parts)


def no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


# --------------------------------------------------------------------------- translations

UI_FILES = sorted((ROOT / "cardbase" / "ui").glob("*.py")) + [ROOT / "streamlit_app.py"]
_KEY = re.compile(r"""\bt\(\s*f?["']([a-z_]+\.[a-z0-9_.{}]+)["']""")


def test_every_interface_string_exists_in_both_languages() -> None:
    used = set()
    for path in UI_FILES:
        used |= {k for k in _KEY.findall(path.read_text(encoding="utf-8")) if "{" not in k}
    assert used, "no t('…') calls found"
    for lang in i18n.LANGUAGES:
        missing = used - i18n.keys(lang)
        assert not missing, f"{lang}: missing {sorted(missing)}"
    assert i18n.keys("fr") == i18n.keys("en")


def test_translate_formats_and_falls_back(monkeypatch) -> None:
    monkeypatch.setenv("CARDBASE_I18N_STRICT", "0")
    assert i18n.translate("fr", "cards.count", count=3, ms="5") == "3 carte(s) en 5 ms"
    assert i18n.translate("en", "cards.count", count=3, ms="5") == "3 card(s) in 5 ms"
    assert i18n.translate("xx", "nav.cards") == "Cartes"
    assert i18n.translate("en", "no.such.key") == "no.such.key"


# --------------------------------------------------------------------------- filters → query

def test_filters_become_query_terms() -> None:
    assert filters_to_query() == ""
    assert filters_to_query(colours=["rouge"]) == "c:rouge"
    assert filters_to_query(colours=["rouge", "bleu"], keywords=["Foule"]) == "(c:rouge or c:bleu) k:Foule"
    assert filters_to_query(rarities=["très rare"]) == 'r:"très rare"'
    assert quote_term('a"b c') == '"ab c"'
    assert combine_queries("v>=3 or k:foule", "c:rouge") == "(v>=3 or k:foule) c:rouge"
    assert combine_queries("", "c:rouge") == "c:rouge"


# --------------------------------------------------------------------------- whole app

@SQLITE
def test_app_starts_in_french_on_the_cards_page(app_env: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    no_exception(at)
    assert at.title[0].value == "Cartes"
    assert "carte(s) en" in texts(at)


@SQLITE
def test_language_switch_to_english(app_env: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.session_state["lang"] = "en"
    at.run()
    no_exception(at)
    assert at.title[0].value == "Cards"


@SQLITE
def test_editor_unlock_with_password(app_env: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.text_input(key="editor_password").input("wrong")
    at.button[0].click()  # the form's submit button
    at.run()
    assert "Mot de passe incorrect" in texts(at)
    at.text_input(key="editor_password").input(PASSWORD)
    at.button[0].click()
    at.run()
    no_exception(at)
    assert access.is_valid(at.session_state["editor_token"])
    assert "Mode éditeur actif" in texts(at)


# --------------------------------------------------------------------------- cards page

def test_cards_search_returns_cards(app_env: str) -> None:
    at = page_test("cards").run()
    no_exception(at)
    at.text_input(key="cards_q").input("k:foule").run()
    no_exception(at)
    caption = next(c.value for c in at.caption if "carte(s) en" in c.value)
    assert int(caption.split()[0]) >= 8
    assert "Foule" in texts(at)


@SQLITE
def test_cards_bad_query_points_at_the_position(app_env: str) -> None:
    at = page_test("cards").run()
    at.text_input(key="cards_q").input("v>>3").run()
    no_exception(at)
    assert at.error and "Requête incorrecte" in at.error[0].value
    assert "^" in at.code[0].value


@SQLITE
def test_cards_filters_and_detail(app_env: str) -> None:
    at = page_test("cards").run()
    at.selectbox(key="cards_game").select("nespanini").run()
    at.multiselect(key="cards_colours").select("rouge").run()
    no_exception(at)
    assert "`c:rouge`" in texts(at)
    shown = at.selectbox(key="cards_pick")
    assert shown.value is not None
    body = texts(at)
    assert "Code stickers" in body and "Couleur" in body


# --------------------------------------------------------------------------- stickers page

@SQLITE
def test_sticker_page_converts(app_env: str) -> None:
    at = page_test("stickers").run()
    no_exception(at)
    assert "un carré pointé + un rond pointé + deux points" in texts(at)
    at.number_input(key="stk_value").set_value(23).run()
    assert "un carré pointé à 2 points + trois points" in texts(at)
    at.text_input(key="stk_text").input("deux points").run()
    assert "Valeur : 2" in texts(at)
    at.text_input(key="stk_colour").input("gris").run()
    assert at.error  # gris has no symbol in the rules


def test_sticker_colour_needs_editor_mode(app_env: str) -> None:
    at = page_test("stickers").run()
    assert "Lecture seule" in texts(at)
    at = page_test("stickers", editor=True).run()
    at.text_input(key="stk_new_colour").input("gris")
    at.selectbox(key="stk_new_symbol").select("lune")
    at.button[0].click().run()
    no_exception(at)
    assert "Couleur gris ajoutée" in texts(at)


# --------------------------------------------------------------------------- card editor

def _open_np1_card(at: AppTest, db_url: str, number: int = 2) -> None:
    at.selectbox(key="ed_pick_edition").select("NP1").run()
    at.selectbox(key="ed_pick_card").select(_card(db_url, f"NP1-{number:03d}")["id"]).run()


def _card(db_url: str, ref: str) -> dict:
    from cardbase import catalog, db

    eng = db.make_engine(db_url)
    try:
        with db.session_scope(eng) as s:
            c = catalog.get_card(s, ref)
            return catalog.card_dicts(s, ids=[c.id])[0]
    finally:
        eng.dispose()


def test_editor_is_read_only_without_editor_mode(app_env: str) -> None:
    at = page_test("editor").run()
    no_exception(at)
    assert "Lecture seule" in texts(at)
    assert at.text_input(key="edf_name").disabled
    assert not [b for b in at.button if b.key == "ed_save"]


def test_editor_saves_a_change(app_env: str) -> None:
    at = page_test("editor", editor=True).run()
    _open_np1_card(at, app_env)
    before = _card(app_env, "NP1-002")
    at.text_input(key="edf_flavour").input("Un nouveau texte d'ambiance.").run()
    assert "Modifications non enregistrées" in texts(at)
    at.button(key="ed_save").click().run()
    no_exception(at)
    after = _card(app_env, "NP1-002")
    assert after["flavour"] == "Un nouveau texte d'ambiance."
    assert after["version"] == before["version"] + 1


def test_editor_refuses_a_stale_edit_and_keeps_the_input(app_env: str) -> None:
    from cardbase import access, catalog, db

    at = page_test("editor", editor=True).run()
    _open_np1_card(at, app_env, 3)
    card = _card(app_env, "NP1-003")
    eng = db.make_engine(app_env)  # another editor saves the same card meanwhile
    with access.editor_context(access.unlock(PASSWORD)), db.session_scope(eng) as s:
        catalog.update_card(s, card["id"], expected_version=card["version"], changes={"flavour": "Leur version"})
    eng.dispose()
    at.text_input(key="edf_name").input("Mon nouveau nom").run()
    at.button(key="ed_save").click().run()
    no_exception(at)
    assert "modifiée par quelqu'un d'autre" in texts(at)
    assert at.text_input(key="edf_name").value == "Mon nouveau nom"  # nothing typed is lost
    saved = _card(app_env, "NP1-003")
    assert saved["name"] == card["name"] and saved["flavour"] == "Leur version"
    at.button(key="ed_stale_mine").click().run()  # knowingly apply mine on top of theirs
    no_exception(at)
    saved = _card(app_env, "NP1-003")
    assert saved["name"] == "Mon nouveau nom" and saved["flavour"] == "Leur version"


def test_editor_checks_the_effect_as_you_type(app_env: str) -> None:
    at = page_test("editor", editor=True).run()
    _open_np1_card(at, app_env)
    at.text_area(key="edf_effect").input("score: +1 per card in hand where colour = rouge\nbidule").run()
    no_exception(at)
    assert any(re.search(r"(line|ligne) 2, col", shown(e.value)) for e in at.error)
    at.text_area(key="edf_effect").input("defausse: draw 1").run()
    assert any("Effet valide" in shown(s.value) for s in at.success)


def test_editor_creates_and_duplicates(app_env: str) -> None:
    at = page_test("editor", editor=True).run()
    at.session_state["ed_mode"] = "new"
    at.run()
    at.selectbox(key="ed_new_edition").select("NP1").run()
    at.text_input(key="edf_name").input("Carte Neuve")
    at.text_input(key="edf_value").input("3")
    at.text_input(key="edf_colour").input("rouge").run()
    at.button(key="ed_create").click().run()
    no_exception(at)
    assert at.text_input(key="edf_name").value == "Carte Neuve"  # now editing the new card
    at.button(key="ed_dup").click().run()
    no_exception(at)
    assert at.text_input(key="edf_name").value == "Carte Neuve (copie)"


def test_import_report_lists_every_problem_before_writing(app_env: str) -> None:
    csv = ("edition,number,name,value\nNP1,1,Renommée,abc\nNP1,999,Nouvelle carte,2\nZZZ,1,X,1\n")
    script = f"""
from cardbase import access
from cardbase.ui import common, editor
access.enforce()
with access.editor_context(common.editor_token()):
    editor.show_import_report({csv.encode()!r}, fmt="csv", source="cartes.csv")
"""
    at = AppTest.from_string(script, default_timeout=60)
    at.session_state["editor_token"] = access.unlock(PASSWORD)
    at.run()
    no_exception(at)
    body = texts(at)
    assert "rien ne sera importé" in body
    frames = [df.value for df in at.dataframe]
    problems = frames[0].to_string()
    assert "row 2 column value" in problems and "ZZZ" in problems
    assert not [b for b in at.button if b.key == "ed_import_go"]


@SQLITE
def test_import_clean_file_then_apply(app_env: str) -> None:
    csv = "edition,number,name,value,colour\nNP1,200,Carte importée,2,bleu\n"
    script = f"""
from cardbase import access
from cardbase.ui import common, editor
access.enforce()
with access.editor_context(common.editor_token()):
    editor.show_import_report({csv.encode()!r}, fmt="csv", source="cartes.csv")
"""
    at = AppTest.from_string(script, default_timeout=60)
    at.session_state["editor_token"] = access.unlock(PASSWORD)
    at.run()
    assert [m.value for m in at.metric][:2] == ["1", "0"]
    at.button(key="ed_import_go").click().run()
    no_exception(at)
    assert "Import terminé" in texts(at)
    assert _card(app_env, "NP1-200")["name"] == "Carte importée"


@SQLITE
def test_export_offers_a_download(app_env: str) -> None:
    at = page_test("editor").run()
    at.session_state["ed_mode"] = "export"
    at.run()
    at.text_input(key="ed_export_q").input("e:NP1").run()
    no_exception(at)
    assert "64 carte(s) à exporter" in texts(at)


# --------------------------------------------------------------------------- editions

@SQLITE
def test_editions_page_reports_counts_and_creates(app_env: str) -> None:
    at = page_test("editions", editor=True).run()
    no_exception(at)
    table = at.dataframe[0].value
    assert "NP1" in table.iloc[:, 0].tolist()
    form_inputs = [ti for ti in at.text_input if ti.label == "Code"]
    form_inputs[0].input("NP2")
    [ti for ti in at.text_input if ti.label == "Nom"][-1].input("Deuxième édition")
    next(b for b in at.button if b.label == "Créer l'édition").click().run()
    no_exception(at)
    assert "NP2" in at.dataframe[0].value.iloc[:, 0].tolist()


# --------------------------------------------------------------------------- deck builder

STARTER = (ROOT / "data" / "decks" / "braises-ardentes.txt").read_text(encoding="utf-8")


def test_deck_builder_shows_every_problem_of_an_illegal_deck(app_env: str) -> None:
    at = page_test("decks").run()
    no_exception(at)
    at.text_input(key="deck_q").input("k:foule").run()
    add = next(b for b in at.button if b.key and b.key.startswith("add_"))
    for _ in range(5):
        at.button(key=add.key).click().run()
    no_exception(at)
    problems = at.error[0].value
    assert "5/20" in problems
    assert "at most 4" in problems and "add 15 cards" in problems


@SQLITE
def test_deck_builder_paste_a_legal_list_stats_and_code(app_env: str) -> None:
    at = page_test("decks").run()
    at.text_area(key="deck_paste").input(STARTER).run()
    at.button(key="deck_load_list").click().run()
    no_exception(at)
    assert any("Deck légal : 20 cartes" in s.value for s in at.success)
    assert next(m.value for m in at.metric) == "20"  # statistics tab
    code = next(c.value for c in at.code if len(c.value) > 40 and " " not in c.value.strip())
    at.button(key="deck_clear").click().run()
    assert not at.session_state["deck"]
    at.text_input(key="deck_code_in").input(code).run()
    at.button(key="deck_load_code").click().run()
    no_exception(at)
    assert sum(at.session_state["deck"].values()) == 20


def test_deck_builder_save_history_and_diff(app_env: str) -> None:
    at = page_test("decks").run()
    at.text_area(key="deck_paste").input(STARTER).run()
    at.button(key="deck_load_list").click().run()
    at.text_input(key="deck_name").input("Mon deck d'essai").run()
    at.button(key="deck_save").click().run()
    no_exception(at)
    assert at.session_state["deck_loaded"]["version"] == 1
    ref = next(iter(at.session_state["deck"]))
    at.button(key=f"dsub_{ref}").click().run()
    at.button(key="deck_save").click().run()
    no_exception(at)
    assert at.session_state["deck_loaded"]["version"] == 2
    diff = [c.value for c in at.code if c.language == "diff"]
    assert diff and diff[0].startswith("-1 ")


# --------------------------------------------------------------------------- print

@SQLITE
def test_print_page_previews_and_makes_a_pdf(app_env: str) -> None:
    at = page_test("printing").run()
    no_exception(at)
    assert "64 carte(s) à imprimer" in texts(at)
    assert at.get("image")  # the first sheet
    at.button(key="pr_go").click().run()
    no_exception(at)
    assert "Prêt : 8 page(s), 64 carte(s)" in texts(at)
    assert "Télécharger le PDF" in [b.proto.label for b in at.get("download_button")]


# --------------------------------------------------------------------------- playtest

def _play_to_the_end(at: AppTest, key: str) -> None:
    for _ in range(60):
        buttons = [b for b in at.button if b.key and b.key.startswith((f"{key}_discard_", f"{key}_choice_"))
                   and not b.disabled]
        if not buttons:
            return
        buttons[0].click().run()
        no_exception(at)
    raise AssertionError("the game did not end")


@SQLITE
def test_goldfish_game_to_the_end_with_the_score_breakdown(app_env: str) -> None:
    at = page_test("playtest").run()
    no_exception(at)
    at.button(key="pt_game_new").click().run()
    _play_to_the_end(at, "pt_game")
    assert any("Partie terminée" in s.value for s in at.success)
    breakdown = at.dataframe[0].value
    assert len(breakdown) == 6  # five cards and the total
    assert breakdown.iloc[-1, -1] == breakdown.iloc[:5, -1].sum()


def test_game_against_a_bot_hides_its_hand(app_env: str) -> None:
    at = page_test("playtest")
    at.session_state["pt_mode"] = "bot"
    at.run()
    at.button(key="pt_bot_game_new").click().run()
    no_exception(at)
    assert ":material/crop_portrait:" in texts(at)
    _play_to_the_end(at, "pt_bot_game")
    assert any(w in s.value for s in at.success for w in ("Gagné", "Perdu", "Égalité"))
    log = "\n".join(str(x.value) for x in at.text)
    bot_draws = [ln for ln in log.splitlines() if ln.startswith("Le bot pioche")]
    assert bot_draws and all(ln == "Le bot pioche une carte." for ln in bot_draws)
    assert "Vous piochez" in log


@SQLITE
def test_goldfish_batch_shows_histogram_percentiles_and_cards(app_env: str) -> None:
    at = page_test("playtest")
    at.session_state["pt_mode"] = "batch"
    at.run()
    at.number_input(key="ptb_games").set_value(60).run()
    at.button(key="ptb_go").click().run()
    no_exception(at)
    assert next(m.value for m in at.metric) == "60"
    cards = at.dataframe[-1].value
    assert {"kept_rate", "swap_delta"} <= set(cards.columns) and len(cards) >= 10


@SQLITE
def test_duel_batch_shows_win_rate_with_interval(app_env: str) -> None:
    at = page_test("playtest")
    at.session_state["pt_mode"] = "duel"
    at.run()
    at.number_input(key="ptd_games").set_value(40).run()
    at.button(key="ptd_go").click().run()
    no_exception(at)
    assert "Intervalle de confiance à 95 %" in texts(at)
