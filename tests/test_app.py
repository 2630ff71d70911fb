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
    access.reset_attempts()
    yield db_url
    access.enforce(False)
    access.reset_attempts()


def page_test(page: str, *, editor: bool = False, lang: str = "fr") -> AppTest:
    """A single page run on its own (no navigation), optionally in editor mode."""
    script = f"""
from cardbase import access
from cardbase.ui import common, {page} as page
access.enforce()
common.apply_language()
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
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown).replace("\u2060", "")


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
    assert i18n.translate("fr", "cards.count", count=3, ms="5") == "3 cartes en 5 ms"
    assert i18n.translate("en", "cards.count", count=3, ms="5") == "3 cards in 5 ms"
    assert i18n.translate("fr", "cards.count", count=1, ms="5") == "1 carte en 5 ms"
    assert i18n.translate("en", "cards.count", count=1, ms="5") == "1 card in 5 ms"
    assert i18n.translate("fr", "cards.count", count=0, ms="5") == "0 carte en 5 ms"
    assert i18n.translate("en", "cards.count", count=0, ms="5") == "0 cards in 5 ms"
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
    assert re.search(r"\d+ cartes? en", texts(at))


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
    caption = next(c.value for c in at.caption if re.search(r"cartes? en", c.value))
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
    assert "· c:rouge" in texts(at)
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
    from cardbase.catalog import cards as catalog
    from cardbase.storage import db

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
    from cardbase import access
    from cardbase.catalog import cards as catalog
    from cardbase.storage import db

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
    diff = at.dataframe[0].value  # only the fields someone changed: mine (name), theirs (flavour)
    assert sorted(diff.iloc[:, 0]) == ["Nom", "Texte d'ambiance"], diff
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
    assert "ligne 2, colonne value" in problems and "ZZZ" in problems
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
    assert "64 cartes à exporter" in texts(at)


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
    assert problems.count("\n- ") >= 2  # every problem at once: too many copies, too few cards
    assert "au plus 4" in problems and "ajoutez 15 cartes" in problems


@SQLITE
def test_deck_builder_paste_a_legal_list_stats_and_code(app_env: str) -> None:
    at = page_test("decks").run()
    at.text_area(key="deck_paste").input(STARTER).run()
    at.button(key="deck_load_list").click().run()
    no_exception(at)
    assert any("Deck légal : 20 cartes" in s.value for s in [*at.success, *at.error, *at.info])
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
    assert "64 cartes à imprimer" in texts(at)
    assert at.get("image")  # the first sheet
    at.button(key="pr_go").click().run()
    no_exception(at)
    assert "Prêt : 8 pages, 64 cartes" in texts(at)
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
    assert any("Partie terminée" in s.value for s in [*at.success, *at.error, *at.info])
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
    finals = [(kind, s.value) for kind, box in (("success", at.success), ("error", at.error), ("info", at.info))
              for s in box if any(w in s.value for w in ("Gagné", "Perdu", "Égalité"))]
    assert finals
    for kind, text in finals:  # a lost game is never shown in a green box
        expected = "success" if text.startswith("Gagné") else "error" if text.startswith("Perdu") else "info"
        assert kind == expected, (kind, text)
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
    # the measures of a good game of the duel's two decks, on demand
    at.number_input(key="ptd_games").set_value(6).run()
    at.button(key="ptd_measures").click().run()
    no_exception(at)
    frame = at.table[-1].value
    assert "Changements de meneur" in set(frame["Mesure"]) and "hasard décide" in frame.to_string()
    m = at.session_state["ptd_measures_result"]
    assert m["game"] == "nespanini" and m["games"] == 6 and m["lead_changes"]["mean"] > 0


# --------------------------------------------------------------------------- one language

@SQLITE
def test_service_messages_follow_the_app_language(app_env: str) -> None:
    """The language switch sets the services' current language for the whole script run."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    for lang, expected in (("en", "Too many wrong passwords"), ("fr", "Trop de mots de passe incorrects")):
        access.reset_attempts()
        at.session_state["lang"] = lang
        at.run()
        for _ in range(access.CLIENT_FREE_ATTEMPTS + 1):
            at.text_input(key="editor_password").input("wrong")
            at.button[0].click().run()
        no_exception(at)
        assert expected in texts(at), texts(at)
    assert i18n.current_language() == "fr"  # the test process itself is left alone


def test_field_names_and_table_headers_are_translated(app_env: str) -> None:
    from cardbase.ui import cards, editor

    rows = [{"ref": "NP1-001", "name": "A", "value": 3, "colour": "rouge", "rarity": None, "keywords": [],
             "effect_text": None, "game": "nespanini"}]
    import streamlit as st

    try:
        for lang, ref, kind in (("fr", "Réf.", "Type"), ("en", "Ref.", "Type")):
            st.session_state["lang"] = lang
            assert cards.results_frame(rows).columns[0] == ref
            assert editor.field_label("card_type") == kind
            assert editor.field_label("copies") == i18n.translate(lang, "field.copies")
    finally:
        st.session_state["lang"] = "fr"


# --------------------------------------------------------------------------- user text is text

@pytest.mark.parametrize("text", [
    "Braisillon _petit_ *rouge*", "![x](http://host.invalid/pixel.png)", "[Clique ici](http://host.invalid/)",
    "<img src=x onerror=alert(1)>", ":red[rouge] :material/home: $x^2$ `code`", "# titre", "1. liste",
    "- tiret", "> citation", "a  \\ b", "www.host.invalid http://host.invalid", "&amp; &lt;", "~~barré~~",
    "| a | b |", "ligne 1\nligne 2",
])
def test_plain_shows_user_text_literally(text: str) -> None:
    from markdown_it import MarkdownIt

    from cardbase.ui.common import plain

    html = MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(plain(text))
    for tag in ("<em", "<strong", "<a ", "<img", "<h1", "<ol", "<ul", "<blockquote", "<code", "<s>", "<del",
                "<table"):
        assert tag not in html, (text, html)
    import html as htmllib

    visible = htmllib.unescape(re.sub(r"<[^>]+>", "", html)).replace("\u2060", "")
    assert visible.replace("\n", " ").split() == text.replace("\n", " ").split()
    assert not re.search(r"(?i)(https?://|www\.|@\w)", htmllib.unescape(html))  # GFM would link these


def test_safe_file_names_from_deck_names() -> None:
    from cardbase.ui.common import safe_filename

    assert safe_filename("Braises ardentes") == "Braises-ardentes"
    assert safe_filename("Été / ../../etc ** « feu »") == "Ete-etc-feu"
    assert safe_filename("***") == "deck"
    assert len(safe_filename("x" * 500)) == 80


def test_cards_table_has_one_type_per_column() -> None:
    """The value column mixed text and numbers: pyarrow refused it on every render."""
    import pyarrow as pa

    from cardbase.ui.cards import results_frame

    rows = [{"ref": f"X-{i}", "name": "A", "value": v, "colour": None, "rarity": None, "keywords": ["Foule"],
             "effect_text": None, "game": "g"} for i, v in enumerate([3, None, 0])]
    frame = results_frame(rows)
    table = pa.Table.from_pandas(frame)  # raised ArrowTypeError / ArrowInvalid with "" next to ints
    assert pa.types.is_integer(table.schema.field(i18n.translate("fr", "field.value")).type)
    assert frame[i18n.translate("fr", "field.value")].isna().tolist() == [False, True, False]



@pytest.mark.parametrize("values", [[3, None, 0], [None, None, None], [12, 7, 1]])
def test_cards_table_is_the_frame_built_without_pandas(values: list) -> None:
    """The page draws ``results_table`` (Arrow, no pandas import on the first page): the same
    columns, types and values as ``results_frame`` converted to Arrow."""
    import pyarrow as pa

    from cardbase.ui.cards import results_frame, results_table

    rows = [{"ref": f"X-{i}", "name": f"Carte « {i} »", "value": v, "colour": ["rouge", None, "bleu"][i],
             "rarity": [None, "rare", "commune"][i], "keywords": [["Foule"], [], ["Foule", "Rapide"]][i],
             "effect_text": [None, "Piochez 1 carte.", ""][i], "game": ["g", "h", "x"][i]}
            for i, v in enumerate(values)]
    names = {"g": "Jeu G", "h": "Jeu H"}
    table = results_table(rows, names)
    expected = pa.Table.from_pandas(results_frame(rows, names), preserve_index=False)
    assert table.equals(expected.replace_schema_metadata(None))
    assert table.column(table.column_names[-1]).to_pylist() == ["Jeu G", "Jeu H", "x"]
    assert (i18n.translate("fr", "field.value") in table.column_names) == any(v is not None for v in values)



def test_cards_table_is_the_frame_for_every_seeded_card(app_env: str) -> None:
    """Every card of the seeded catalog, each game and all games at once: the Arrow table the page
    draws holds what ``results_frame`` holds."""
    import pyarrow as pa

    from cardbase.ui import cards

    facets = cards.facets(None, app_env)
    checked = 0
    for game in [None, *facets["games"]]:
        rows, _ = cards.search_cards("", game=game)
        table = cards.results_table(rows, facets["names"])
        expected = pa.Table.from_pandas(cards.results_frame(rows, facets["names"]), preserve_index=False)
        assert table.equals(expected.replace_schema_metadata(None)), game
        checked += table.num_rows
    assert checked >= 2 * len(cards.search_cards("")[0]) > 0

def list_cells(body: str) -> tuple[list[str], list[list[str]]]:
    """The cards list's headers and rows of cell texts, as a browser reads them (style left out)."""
    from html.parser import HTMLParser

    class Cells(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.headers: list[str] = []
            self.rows: list[list[str]] = []
            self.cell: list[str] | None = None
            self.tags: set[str] = set()

        def handle_starttag(self, tag: str, attrs: list) -> None:
            self.tags.add(tag)
            if tag == "tr" and self.headers:
                self.rows.append([])
            if tag in ("th", "td"):
                self.cell = []

        def handle_endtag(self, tag: str) -> None:
            if tag in ("th", "td") and self.cell is not None:
                (self.rows[-1] if tag == "td" else self.headers).append("".join(self.cell))
                self.cell = None

        def handle_data(self, data: str) -> None:
            if self.cell is not None:
                self.cell.append(data)

    parser = Cells()
    parser.feed(body)
    assert parser.tags <= {"style", "div", "table", "thead", "tbody", "tr", "th", "td"}, parser.tags
    return parser.headers, parser.rows


def test_the_cards_list_shows_what_the_interactive_table_holds(app_env: str) -> None:
    """Every card of the seeded catalog, each game and all games at once: the list (the first view)
    has the interactive table's headers and, cell by cell, its values as text on one line."""
    from cardbase.ui import cards

    facets = cards.facets(None, app_env)
    checked = 0
    for game in [None, *facets["games"]]:
        rows, _ = cards.search_cards("", game=game)
        table = cards.results_table(rows, facets["names"])
        headers, cells = list_cells(cards.results_html(rows, facets["names"]))
        assert headers == table.column_names, game
        expected = [["" if v is None else " ".join(str(v).split()) for v in row.values()] for row in table.to_pylist()]
        assert cells == expected, game
        checked += len(cells)
    assert checked >= 2 * len(cards.search_cards("")[0]) > 0


def test_the_cards_list_shows_user_text_as_text() -> None:
    """A name or text written as HTML or Markdown is shown as written: no tag, no link, no image."""
    from cardbase.ui.cards import results_html

    hostile = {"ref": "X-1", "name": '<img src="http://exemple.invalid/x.png" onerror="alert(1)"> & _petit_',
               "value": None, "colour": "rouge</td><td>", "rarity": None, "keywords": ["<b>Foule</b>"],
               "effect_text": "Ligne 1\n  [lien](http://exemple.invalid) <script>alert(2)</script>" * 2, "game": "g"}
    body = results_html([hostile], {"g": 'Jeu "G"'})
    headers, cells = list_cells(body)  # fails on any tag of the user's
    assert cells == [["X-1", hostile["name"], "rouge</td><td>", "", "<b>Foule</b>",
                      " ".join(hostile["effect_text"].split()), 'Jeu "G"']]
    assert len(headers) == len(cells[0]) and "<script" not in body and "<img" not in body
    assert 'title="Ligne 1 [lien](http://exemple.invalid) &lt;script&gt;' in body  # the whole text on hover


def test_cards_table_needs_no_pandas() -> None:
    """Building the cards table and Streamlit's Arrow bytes for it imports no pandas (~0.3 s of the
    first page on a new server, issue 29)."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from streamlit import dataframe_util\n"
            "from cardbase.ui import cards\n"
            "row = {'ref': 'X-1', 'name': 'A', 'value': 3, 'colour': None, 'rarity': None, 'keywords': [],"
            " 'effect_text': None, 'game': 'g'}\n"
            "data = dataframe_util.convert_arrow_table_to_arrow_bytes(cards.results_table([row]))\n"
            "assert data and 'pandas' not in sys.modules, sorted(m for m in sys.modules if 'pandas' in m)[:5]\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


# --------------------------------------------------------------------------- editor keeps its place

def _away_and_back_script() -> str:
    return """
import streamlit as st
from cardbase import access
from cardbase.ui import common, editor as page
access.enforce()
common.apply_language()
with access.editor_context(common.editor_token()):
    if st.session_state.get("away"):
        st.title("Ailleurs")
    else:
        page.render()
"""


def test_editor_opens_on_the_main_game(app_env: str) -> None:
    at = page_test("editor").run()
    no_exception(at)
    assert at.selectbox(key="ed_pick_edition").value == "NP1"
    assert at.session_state["ed_card"]["game"] == "nespanini"
    at = page_test("editor", editor=True)
    at.session_state["ed_mode"] = "new"
    at.run()
    assert at.selectbox(key="ed_new_edition").value == "NP1"


def test_editor_keeps_the_form_when_the_page_is_left_and_opened_again(app_env: str) -> None:
    at = AppTest.from_string(_away_and_back_script(), default_timeout=60)
    at.session_state["lang"] = "fr"
    at.session_state["editor_token"] = access.unlock(PASSWORD)
    at.run()
    _open_np1_card(at, app_env, 5)
    at.text_input(key="edf_flavour").input("Texte en cours").run()
    before = {k: at.text_input(key=k).value for k in ("edf_name", "edf_value", "edf_flavour")}
    at.session_state["away"] = True
    at.run()  # another page: Streamlit forgets the editor's widgets
    assert "edf_name" not in at.session_state
    at.session_state["away"] = False
    at.run()
    no_exception(at)
    assert at.selectbox(key="ed_pick_card").value == _card(app_env, "NP1-005")["id"]
    assert {k: at.text_input(key=k).value for k in before} == before
    unsaved = [c.value for c in at.caption if "non enregistrées" in c.value]
    assert unsaved == ["Modifications non enregistrées : Texte d'ambiance"]


def test_editor_unsaved_fields_are_named_in_the_interface_language(app_env: str) -> None:
    at = page_test("editor", editor=True, lang="en").run()
    _open_np1_card(at, app_env)
    at.text_input(key="edf_card_type").input("Autre")
    at.text_input(key="edf_copies").input("2").run()
    assert "Unsaved changes: Copies, Type" in texts(at)


# --------------------------------------------------------------------------- deck builder

def test_deck_builder_pages_through_search_results(app_env: str) -> None:
    from cardbase.ui.decks import SEARCH_LIMIT

    at = page_test("decks").run()
    no_exception(at)
    caption = next(c.value for c in at.caption if "résultats" in c.value)
    total = int(caption.split()[0])
    assert total > SEARCH_LIMIT
    assert f"1–{SEARCH_LIMIT}, page 1/" in caption
    first_page = {b.key for b in at.button if b.key and b.key.startswith("add_")}
    assert len(first_page) == SEARCH_LIMIT
    at.button(key="deck_next").click().run()
    no_exception(at)
    caption = next(c.value for c in at.caption if "résultats" in c.value)
    assert f"{SEARCH_LIMIT + 1}–" in caption and "page 2/" in caption
    second_page = {b.key for b in at.button if b.key and b.key.startswith("add_")}
    assert second_page and not second_page & first_page
    at.text_input(key="deck_q").input("k:foule").run()  # a new search starts on its first page
    assert not any("page 2/" in c.value for c in at.caption)


def test_deck_builder_confirms_a_save_and_stays_on_its_tab(app_env: str) -> None:
    at = page_test("decks").run()
    at.text_area(key="deck_paste").input(STARTER).run()
    at.button(key="deck_load_list").click().run()
    save_tab = i18n.translate("fr", "decks.tab_save")
    at.session_state["deck_tab"] = save_tab
    at.text_input(key="deck_name").input("Feu *vif* [x](http://host.invalid)").run()
    at.button(key="deck_save").click().run()
    no_exception(at)
    assert at.session_state["deck_tab"] == save_tab
    confirmed = [shown(s.value) for s in [*at.success, *at.error, *at.info] if "enregistré" in s.value]
    assert confirmed == ["Deck « Feu *vif* [x](http://host.invalid) » enregistré (version 1)."]


def test_colour_chart_uses_the_printed_colours(app_env: str) -> None:
    from cardbase.outputs.printing import template_for
    from cardbase.ui.decks import colour_chart

    spec = colour_chart({"rouge": 5, "bleu": 3}, "nespanini").to_dict()
    scale = spec["encoding"]["color"]["scale"]
    template = template_for("nespanini")
    assert scale["domain"] == ["rouge", "bleu"]
    assert [c.lower() for c in scale["range"]] == [
        "#{:02x}{:02x}{:02x}".format(*__import__("PIL.ImageColor").ImageColor.getrgb(template.colour_of(c))[:3])
        for c in ("rouge", "bleu")]
    assert scale["range"][0] != scale["range"][1]


# --------------------------------------------------------------------------- editor password guesses

@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch):
    now = [1000.0]
    monkeypatch.setattr(access, "_clock", lambda: now[0])
    monkeypatch.setenv(access.PASSWORD_ENV, PASSWORD)
    access.reset_attempts()
    yield now
    access.reset_attempts()


def test_unlock_slows_down_a_client_after_repeated_failures(clock, monkeypatch) -> None:
    monkeypatch.setattr(access, "PROCESS_FREE_ATTEMPTS", 1000)  # this test is about one client
    for _ in range(access.CLIENT_FREE_ATTEMPTS):
        assert access.unlock("faux", client="a") is None
    with pytest.raises(access.TooManyAttempts) as err:
        access.unlock(PASSWORD, client="a")  # not even looked at while waiting
    assert err.value.wait_seconds == access.CLIENT_FIRST_WAIT
    assert "réessayez dans 2 s" in str(err.value)
    assert access.unlock(PASSWORD, client="b")  # another client is not blocked by a's guesses
    clock[0] += access.CLIENT_FIRST_WAIT
    assert access.unlock("faux", client="a") is None  # the wait doubles with each failure
    assert access.wait_before_unlock("a") == 2 * access.CLIENT_FIRST_WAIT
    clock[0] += 1000
    for _ in range(20):
        access.unlock("faux", client="a")
        clock[0] += access.wait_before_unlock("a")
    assert access.wait_before_unlock("a") == 0  # waited out
    access.unlock("faux", client="a")
    assert access.wait_before_unlock("a") == access.CLIENT_MAX_WAIT
    with i18n.use_language("en"), pytest.raises(access.TooManyAttempts, match="try again in 5 min"):
        access.unlock(PASSWORD, client="a")
    clock[0] += access.CLIENT_MAX_WAIT
    assert access.unlock(PASSWORD, client="a")  # the right password resets the count
    assert access.unlock("faux", client="a") is None and access.wait_before_unlock("a") == 0


def test_unlock_slows_down_everyone_after_many_failures_from_many_clients(clock) -> None:
    for i in range(access.PROCESS_FREE_ATTEMPTS):
        assert access.unlock("faux", client=f"tab-{i}") is None  # a new tab for every guess
    with pytest.raises(access.TooManyAttempts):
        access.unlock(PASSWORD, client="new-tab")
    clock[0] += access.PROCESS_FIRST_WAIT
    assert access.unlock(PASSWORD, client="new-tab")


def test_unlock_in_the_app_says_how_long_to_wait(app_env: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    for _ in range(access.CLIENT_FREE_ATTEMPTS):
        at.text_input(key="editor_password").input("wrong")
        at.button[0].click().run()
    at.text_input(key="editor_password").input(PASSWORD)
    at.button[0].click().run()
    no_exception(at)
    assert "réessayez dans" in texts(at)
    assert "editor_token" not in at.session_state


def test_secrets_file_is_not_committed() -> None:
    lines = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "/.streamlit/secrets.toml" in lines


@SQLITE
def test_card_images_are_cached_per_language(app_env: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A printed face may hold translated figures: never serve one language's image in another."""
    from cardbase.ui import common

    drawn: list[str] = []
    real = common.render_def_png
    monkeypatch.setattr(common, "render_def_png",
                        lambda *a, **k: drawn.append(i18n.current_language()) or real(*a, **k))
    common._card_png.clear()
    assert common.card_png(1, 1, 40, app_env)
    with i18n.use_language("en"):
        assert common.card_png(1, 1, 40, app_env)
    assert common.card_png(1, 1, 40, app_env)
    assert drawn == ["fr", "en"]


@pytest.mark.parametrize("lang, expected", [("fr", "Lecture seule"), ("en", "Read-only")])
def test_a_refused_write_is_explained_in_the_app_language(app_env: str, lang: str, expected: str) -> None:
    script = """
from cardbase import access
from cardbase.errors import PermissionDenied
from cardbase.ui import common
common.apply_language()
access.enforce()
try:
    access.require_editor(action="delete a deck")
except PermissionDenied as exc:
    common.show_error(exc)
"""
    at = AppTest.from_string(script, default_timeout=60)
    at.session_state["lang"] = lang
    at.run()
    no_exception(at)
    assert [expected in shown(e.value) for e in at.error] == [True]


def test_parallel_guesses_cannot_slip_past_the_wait(clock) -> None:
    """Checking the wait, comparing and counting happen at once: 40 guesses fired together from
    40 tabs get exactly the free attempts of the process looked at."""
    from concurrent.futures import ThreadPoolExecutor

    def guess(i: int) -> str:
        try:
            return "wrong" if access.unlock("faux", client=f"tab-{i}") is None else "token"
        except access.TooManyAttempts:
            return "wait"

    with ThreadPoolExecutor(max_workers=8) as pool:
        outcomes = list(pool.map(guess, range(40)))
    assert outcomes.count("wrong") == access.PROCESS_FREE_ATTEMPTS
    assert outcomes.count("wait") == 40 - access.PROCESS_FREE_ATTEMPTS


def test_a_deck_saved_under_a_taken_name_offers_save_as_and_replace(app_env: str) -> None:
    """Saving under the name of a deck you did not open is not « someone else's edit »: the page
    says the name is taken and offers another name or replacing it, and the replace still refuses
    to overwrite a version saved since it was shown."""
    from cardbase import decks as deck_service
    from cardbase.storage.db import session_scope

    at = page_test("decks").run()
    at.text_area(key="deck_paste").input(STARTER).run()
    at.button(key="deck_load_list").click().run()
    at.text_input(key="deck_name").input("Mon deck partagé").run()
    at.button(key="deck_save").click().run()
    no_exception(at)

    fresh = page_test("decks").run()  # a new session: nobody opened the saved deck here
    fresh.text_area(key="deck_paste").input(STARTER).run()
    fresh.button(key="deck_load_list").click().run()
    ref = next(iter(fresh.session_state["deck"]))
    fresh.button(key=f"dsub_{ref}").click().run()
    fresh.text_input(key="deck_name").input("Mon deck partagé").run()
    fresh.button(key="deck_save").click().run()
    no_exception(fresh)
    page_text = " ".join(w.value for w in [*fresh.warning, *fresh.error])
    assert "existe déjà (version 1)" in page_text and "quelqu'un d'autre" not in page_text
    assert fresh.text_input(key="deck_save_as").value == "Mon deck partagé (2)"
    fresh.button(key="deck_save_as_go").click().run()
    no_exception(fresh)
    assert fresh.session_state["deck_loaded"]["name"] == "Mon deck partagé (2)"
    assert fresh.session_state["deck_name"] == "Mon deck partagé (2)"

    # replace: from the version shown; a save made since the warning is still refused
    fresh.text_input(key="deck_name").input("Mon deck partagé").run()
    fresh.button(key="deck_save").click().run()
    with session_scope() as s:  # someone saves version 2 meanwhile
        deck = deck_service.get_deck(s, "Mon deck partagé")
        deck_service.save_deck(s, game="nespanini", name="Mon deck partagé",
                               entries=deck_service.parse_deck_list(STARTER), expected_version=deck.version)
    fresh.button(key="deck_replace").click().run()
    no_exception(fresh)
    assert any("rien n'a été écrasé" in e.value for e in fresh.error)
    fresh.button(key="deck_save").click().run()  # shown again: now version 2
    assert any("existe déjà (version 2)" in w.value for w in fresh.warning)
    fresh.button(key="deck_replace").click().run()
    no_exception(fresh)
    assert fresh.session_state["deck_loaded"] == {**fresh.session_state["deck_loaded"], "name": "Mon deck partagé",
                                                  "version": 3}


def test_the_preview_never_prints_an_invalid_effect_raw(app_env: str) -> None:
    from cardbase.ui.editor import preview_def

    card = preview_def({"name": "Essai", "effect": "score: +2 per carde in hand", "value": "3", "colour": "rouge"},
                       game="nespanini", edition="NP1", set_size=64)
    assert "carde" not in (card.effect_text or "")
    assert card.effect_text.startswith("(effet à corriger")
    good = preview_def({"name": "Essai", "effect": "score: +1", "value": "3", "colour": "rouge"},
                       game="nespanini", edition="NP1", set_size=64)
    assert good.effect_text and "score:" not in good.effect_text


def test_the_cards_page_speaks_in_names_and_labels(app_env: str) -> None:
    """The page opens on the main game; a game by its name, not its code; no column of blanks
    (CT vs Terror cards have no value); a declared field by its printed label (« dégâts »)."""
    at = page_test("cards").run()
    no_exception(at)
    assert at.selectbox(key="cards_game").value == "nespanini"
    at.selectbox(key="cards_game").set_value("ctterror").run()
    no_exception(at)
    listed = at.html[0].value  # the list first, then the interactive table: the same columns
    at.segmented_control(key="cards_view").set_value("table").run()
    no_exception(at)
    table = at.dataframe[0].value
    assert "Valeur" not in table.columns and ">Valeur</th>" not in listed
    assert set(table["Jeu"]) == {"CT vs Terror"}
    assert listed.count("<td>CT vs Terror</td>") == len(table) and "ctterror" not in listed
    detail = "\n".join(m.value for m in at.markdown)
    assert "**Dégâts**" in detail and "**damage**" not in detail  # the field's declared French label
    assert all(" · ctterror" not in c.value for c in at.caption)


@SQLITE
def test_nespanini_batches_take_rulings_refuse_illegal_decks_and_show_coverage(app_env: str) -> None:
    """The app's NesPanini batches as the command line's: a contested reading chosen (R1), the
    rulings the figures rest on, the rule coverage, and an illegal deck refused unless allowed."""
    from cardbase import decks as deck_service
    from cardbase.storage.db import session_scope

    at = page_test("playtest")
    at.session_state["pt_mode"] = "duel"
    at.run()
    at.number_input(key="ptd_games").set_value(20).run()
    at.selectbox(key="ptd_rule_end_rule").select("turns").run()
    at.button(key="ptd_go").click().run()
    no_exception(at)
    summary = at.session_state["ptd_result"]["duel"]
    r1 = next(r for r in summary["rulings"] if r["code"] == "R1")
    assert r1["value"] == "turns" and r1["changed"]
    assert summary.get("coverage")
    assert "R1 : 5 tours chacun *" in texts(at)

    with session_scope() as s:  # a saved deck one card short: illegal
        lines = STARTER.splitlines()
        i = next(k for k, ln in enumerate(lines) if ln[:1].isdigit() and int(ln.split()[0]) >= 2)
        count, rest = lines[i].split(" ", 1)
        lines[i] = f"{int(count) - 1} {rest}"
        saved = deck_service.save_deck(s, game="nespanini", name="Trop court",
                                       entries=deck_service.parse_deck_list("\n".join(lines)))
        key = f"deck:{saved.id}"
    at = page_test("playtest")
    at.session_state["pt_mode"] = "batch"
    at.run()
    at.selectbox(key="ptb_deck").set_value(key).run()
    at.number_input(key="ptb_games").set_value(20).run()
    at.button(key="ptb_go").click().run()
    no_exception(at)
    assert "ptb_result" not in at.session_state
    assert at.error and "Trop court" in at.error[0].value
    at.checkbox(key="ptb_allow_illegal").check().run()
    at.button(key="ptb_go").click().run()
    no_exception(at)
    assert at.session_state["ptb_result"]["summary"]["illegal_decks"]
    assert any("Deck illégal joué quand même" in e.value for e in at.error)


def test_card_detail_shows_rich_text_styled_and_literal(app_env: str) -> None:
    """docs/rich-text.md: the card view shows « **Défausse** » bold and a colour as a badge,
    found by o:degats (search reads the text without markup); its characters stay literal."""
    from sqlmodel import Session

    from cardbase.catalog import cards as catalog
    from cardbase.storage import db

    with Session(db.get_engine(app_env)) as s:
        catalog.create_card(s, edition="NP1", fields={
            "number": 990, "name": "_x_", "effect_text": "**Défausse** : 3 **dégâts** {rouge} <b>"})
        s.commit()
    at = page_test("cards").run()
    at.text_input(key="cards_q").input("o:degats n:990").run()
    no_exception(at)
    detail = next(str(m.value) for m in at.markdown if ":red-background[rouge]" in str(m.value))
    assert "**Défausse** \\: 3 **dégâts** :red-background[rouge] \\<b\\>" in detail
    assert "\\_x\\_" in "".join(str(h.value) for h in at.subheader)


@SQLITE
def test_card_detail_bolds_the_games_keywords_as_the_card_image_does(app_env: str) -> None:
    """NesPanini's template makes « Défausse » bold on the card (ruling R11); the card view's text
    used to show it plain beside the image that shows it bold."""
    from sqlmodel import Session

    from cardbase.catalog import cards as catalog
    from cardbase.storage import db

    with Session(db.get_engine(app_env)) as s:
        catalog.create_card(s, edition="NP1", fields={
            "number": 991, "name": "Mot-clé", "effect_text": "Défausse : piochez 1 carte {bleu}."})
        s.commit()
    at = page_test("cards").run()
    at.text_input(key="cards_q").input("n:991").run()
    no_exception(at)
    detail = next(str(m.value) for m in at.markdown if "piochez" in str(m.value))
    assert "**Défausse** \\: piochez 1 carte :blue-background[bleu]" in detail
