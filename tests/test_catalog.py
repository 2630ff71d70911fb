"""Card services: validation, creation, stale-edit refusal, deletion, editions, data-file round trip."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from cardbase import i18n
from cardbase.catalog import cards as catalog
from cardbase.storage import datafiles
from cardbase.storage.db import DATA_DIR
from cardbase.errors import NotFoundError, StaleEditError, ValidationError
from cardbase.storage.models import Card, Deck, DeckEntry, Game


def test_create_card_reports_every_problem(session):
    with pytest.raises(ValidationError) as info:
        catalog.create_card(session, edition="OVK", fields={"number": 0, "name": "", "value": "abc",
                                                           "copies": -1, "colour_typo": "x"})
    codes = [p.where for p in info.value.problems]
    assert len(info.value.problems) == 5, info.value.problems
    assert any("number" in w for w in codes) and any("value" in w for w in codes)
    assert any("colour_typo" in w for w in codes)


def test_create_and_search_keys(session):
    card = catalog.create_card(session, edition="OVK", fields={
        "number": 40, "name": "Étoile Filante", "value": 7, "colour": "Rouges", "keywords": ["Légendaire"]})
    assert card.colour == "rouge" and card.colour_key == "rouge"
    assert card.name_key == "etoile filante"
    assert card.keywords_key == "|legendaire|"
    with pytest.raises(ValidationError) as info:
        catalog.create_card(session, edition="OVK", fields={"number": 40, "name": "Autre"})
    assert [p.code for p in info.value.problems] == ["duplicate-number"]
    assert "OVK a déjà une carte numéro 40" in str(info.value)


def test_stale_edit_is_refused_and_nothing_is_lost(engine):
    with Session(engine) as a, Session(engine) as b:
        card_a = catalog.get_card(a, "OVK-001")
        card_b = catalog.get_card(b, "OVK-001")
        v = card_a.version
        catalog.update_card(a, card_a.id, expected_version=v, changes={"name": "Un (édité par A)"})
        a.commit()
        with i18n.use_language("en"), pytest.raises(StaleEditError) as info:
            catalog.update_card(b, card_b.id, expected_version=v, changes={"name": "Un (édité par B)"})
        with pytest.raises(StaleEditError) as in_french:
            catalog.update_card(b, card_b.id, expected_version=v, changes={"name": "Un (édité par B)"})
        b.rollback()
        assert "modifiée par quelqu'un d'autre" in str(in_french.value)
        assert "n'ont PAS été enregistrés" in str(in_french.value)
        msg = str(info.value)
        assert "changed by someone else" in msg and "NOT saved" in msg
        assert "Un (édité par A)" in msg and "Un (édité par B)" in msg
        assert info.value.current["name"] == "Un (édité par A)"
    with Session(engine) as c:
        card = catalog.get_card(c, "OVK-001")
        assert card.name == "Un (édité par A)" and card.version == v + 1


def test_update_validates_and_bumps_version(session):
    card = catalog.get_card(session, "OVK-002")
    with pytest.raises(ValidationError):
        catalog.update_card(session, card.id, expected_version=card.version, changes={"value": "beaucoup"})
    updated = catalog.update_card(session, card.id, expected_version=card.version,
                                  changes={"value": 5, "keywords": ["Foule"]})
    assert updated.version == 2 and updated.value == 5 and updated.keywords_key == "|foule|"


def test_delete_refused_when_a_deck_uses_the_card(session):
    card = catalog.get_card(session, "OVK-003")
    game = session.exec(select(Game).where(Game.code == "overkill")).one()
    deck = Deck(game_id=game.id, name="Test deck")
    session.add(deck)
    session.flush()
    session.add(DeckEntry(deck_id=deck.id, card_id=card.id, count=1))
    session.flush()
    with pytest.raises(ValidationError, match="utilisée par 1 deck.*Test deck"):
        catalog.delete_card(session, card.id, expected_version=card.version)
    other = catalog.get_card(session, "OVK-004")
    catalog.delete_card(session, other.id, expected_version=other.version)
    with pytest.raises(NotFoundError):
        catalog.get_card(session, "OVK-004")


def test_get_card_errors(session):
    with i18n.use_language("en"):
        with pytest.raises(NotFoundError, match="edition OVK has no number 999"):
            catalog.get_card(session, "OVK-999")
        with pytest.raises(NotFoundError, match="no edition 'ZZZ'"):
            catalog.get_edition(session, "ZZZ")
    with pytest.raises(NotFoundError, match="l'édition OVK n'a pas de numéro 999"):
        catalog.get_card(session, "OVK-999")
    with pytest.raises(NotFoundError, match="aucune carte d'identifiant 99999999999999999999"):
        catalog.get_card(session, "99999999999999999999")


def test_edition_report_finds_numbering_gaps(session):
    ed = catalog.create_edition(session, game="overkill", code="OVX", name="Extension", set_size=5)
    for n in (1, 2, 7):
        catalog.create_card(session, edition="OVX", fields={"number": n, "name": f"Carte {n}"})
    report = {r["code"]: r for r in catalog.edition_report(session)}
    assert report["OVX"]["cards"] == 3 and not report["OVX"]["numbering_ok"]
    text = " ".join(report["OVX"]["numbering_issues"])
    assert "[7]" in text and "3 numéros manquants : 3, 4, 5" in text
    with i18n.use_language("en"):
        text = " ".join({r["code"]: r for r in catalog.edition_report(session)}["OVX"]["numbering_issues"])
    assert "3 numbers missing: 3, 4, 5" in text
    assert ed.version == 1
    with pytest.raises(StaleEditError):
        catalog.update_edition(session, "OVX", expected_version=7, changes={"name": "x"})
    assert catalog.update_edition(session, "OVX", expected_version=1, changes={"name": "y"}).version == 2


@pytest.mark.parametrize("path", datafiles.edition_files(DATA_DIR), ids=lambda p: p.name)
def test_data_files_round_trip_through_the_database(session, path):
    edition, _cards = datafiles.load_edition_file(path)
    assert catalog.export_edition_text(session, edition["code"]) == path.read_text(encoding="utf-8")


def test_card_defs(session):
    defs = catalog.card_defs(session, edition="OVK")
    assert defs and defs[0].ref == "OVK-001" and defs[0].game == "overkill"
    assert len(defs) == session.exec(select(Card).where(Card.edition_id == catalog.get_edition(session, "OVK").id)).all().__len__()


def test_a_viewer_cannot_write_through_the_services(session, monkeypatch):
    from cardbase import access
    from cardbase.catalog import stickers
    from cardbase.catalog import transfer
    from cardbase.errors import PermissionDenied

    monkeypatch.setenv(access.PASSWORD_ENV, "s3cret")
    card = catalog.get_card(session, "OVK-001")
    writes = [
        lambda: catalog.create_card(session, edition="OVK", fields={"number": 90, "name": "X"}),
        lambda: catalog.update_card(session, card.id, expected_version=card.version, changes={"value": 3}),
        lambda: catalog.delete_card(session, card.id, expected_version=card.version),
        lambda: catalog.create_edition(session, game="overkill", code="ZZ1", name="Z"),
        lambda: catalog.update_edition(session, "OVK", expected_version=1, changes={"name": "Z"}),
        lambda: transfer.import_cards(session, "edition,number,name\nOVK,91,Y\n", fmt="csv"),
        lambda: stickers.add_colour(session, "gris", "lune"),
    ]
    access.enforce(True)
    try:
        with access.editor_context(None):
            for write in writes:
                with pytest.raises(PermissionDenied, match="editor mode is locked"):
                    write()
            # a dry run only reads, so a viewer may check a file
            plan = transfer.import_cards(session, "edition,number,name\nOVK,91,Y\n", fmt="csv", dry_run=True)
            assert plan.counts["new"] == 1
        with access.editor_context(access.unlock("s3cret")):
            catalog.update_card(session, card.id, expected_version=card.version, changes={"value": 3})
    finally:
        access.enforce(False)
    assert catalog.get_card(session, "OVK-001").value == 3


# --------------------------------------------------------------------------- field messages

def test_field_problems_are_french_by_default_and_english_on_request():
    _, problems = catalog.validate_card_fields({"number": "x", "name": "Loup"}, where="f.csv ligne 2")
    assert [(p.code, p.where) for p in problems] == [("invalid-field", "f.csv ligne 2 colonne number")]
    assert "numéro de collection : 'x' n'est pas un nombre entier" in problems[0].message
    with i18n.use_language("en"):
        _, problems = catalog.validate_card_fields({"number": "x", "name": "Loup"}, where="f.csv row 2")
    assert problems[0].where == "f.csv row 2 column number"
    assert problems[0].message == "collector number 'x' is not a whole number"
    with i18n.use_language("en"):
        assert catalog.field_label("card_type") == "type or class"
    assert catalog.field_label("card_type") == "type ou classe"
    assert set(catalog.CARD_FIELDS) == {k for k in catalog.CARD_FIELDS if catalog.field_label(k) != k}


# --------------------------------------------------------------------------- art references

@pytest.mark.parametrize("name", [
    "/etc/passwd", "../../x", "np1/../../x", "..", "./x.png", "C:\\art\\x.png", "c:x.png",
    "art\\x.png", "x.png\x00.txt", "a//b.png", ".hidden.png", "np1/.x.png", "file:///etc/passwd",
    "x\ny.png",
])
def test_art_references_outside_the_art_folder_are_refused(name):
    problem = catalog.check_art_name(name)
    assert problem is not None and problem.code == "unsafe-art", name
    _, problems = catalog.validate_card_fields({"art": name}, partial=True)
    assert [p.code for p in problems] in (["unsafe-art"], ["invalid-field", "unsafe-art"],
                                          ["invalid-field"]), name


@pytest.mark.parametrize("name", ["np1-012.png", "np1/012.png", "Éditions/carte 12.jpg"])
def test_plain_art_names_are_accepted(name):
    assert catalog.check_art_name(name) is None
    clean, problems = catalog.validate_card_fields({"art": name}, partial=True)
    assert problems == [] and clean["art"] == name


def test_an_art_link_leading_out_of_the_art_folder_is_refused(tmp_path, monkeypatch):
    art = tmp_path / "art"
    art.mkdir()
    (tmp_path / "secret.png").write_bytes(b"x")
    (art / "out.png").symlink_to(tmp_path / "secret.png")
    (art / "in.png").write_bytes(b"x")
    (art / "alias.png").symlink_to(art / "in.png")
    monkeypatch.setenv("CARDBASE_ART_DIR", str(art))
    assert catalog.check_art_name("out.png").code == "unsafe-art"
    assert "hors du dossier des illustrations" in catalog.check_art_name("out.png").message
    assert catalog.check_art_name("alias.png") is None


@pytest.mark.parametrize("value", ["/etc/passwd", "../../x"])
def test_edit_and_import_refuse_an_art_path_outside_the_art_folder(session, value):
    from cardbase.catalog import transfer
    from cardbase.errors import ImportError_

    card = catalog.get_card(session, "OVK-001")
    with pytest.raises(ValidationError) as info:
        catalog.update_card(session, card.id, expected_version=card.version, changes={"art": value})
    assert [p.code for p in info.value.problems] == ["unsafe-art"]
    with pytest.raises(ValidationError):
        catalog.create_card(session, edition="OVK", fields={"number": 95, "name": "X", "art": value})
    with pytest.raises(ImportError_) as info:
        transfer.import_cards(session, f"edition,number,name,art\nOVK,96,Y,{value}\n", fmt="csv")
    assert [p.code for p in info.value.problems] == ["unsafe-art"]
    assert catalog.get_card(session, "OVK-001").art is None
    updated = catalog.update_card(session, card.id, expected_version=card.version,
                                  changes={"art": "ovk/001.png"})
    assert updated.art == "ovk/001.png"


# --------------------------------------------------------------------------- Défausse keyword

DISCARD_EFFECT = "defausse: draw 1"


def test_a_defausse_effect_without_the_keyword_is_refused_on_create(session):
    with pytest.raises(ValidationError) as info:
        catalog.create_card(session, edition="NP1", fields={
            "number": 90, "name": "Essai", "value": 2, "effect": DISCARD_EFFECT, "keywords": ["Foule"]})
    assert [p.code for p in info.value.problems] == ["missing-keyword"]
    assert "ajoutez Défausse aux mots-clés" in str(info.value)
    card = catalog.create_card(session, edition="NP1", fields={
        "number": 90, "name": "Essai", "value": 2, "effect": DISCARD_EFFECT,
        "keywords": ["Foule", "Défausse"]})
    assert card.keywords == ["Foule", "Défausse"]


def test_a_defausse_effect_without_the_keyword_is_refused_on_edit(session):
    card = catalog.create_card(session, edition="NP1", fields={
        "number": 91, "name": "Essai", "value": 2, "effect": DISCARD_EFFECT, "keywords": ["défausse"]})
    with pytest.raises(ValidationError) as info:  # taking the keyword off
        catalog.update_card(session, card.id, expected_version=card.version, changes={"keywords": []})
    assert [p.code for p in info.value.problems] == ["missing-keyword"]
    plain = catalog.create_card(session, edition="NP1", fields={"number": 92, "name": "Autre", "value": 1})
    with pytest.raises(ValidationError) as info:  # giving an effect with a defausse: part
        catalog.update_card(session, plain.id, expected_version=plain.version,
                            changes={"effect": DISCARD_EFFECT})
    assert [p.code for p in info.value.problems] == ["missing-keyword"]
    catalog.update_card(session, plain.id, expected_version=plain.version,
                        changes={"effect": DISCARD_EFFECT, "keywords": ["Défausse"]})


def test_a_defausse_effect_without_the_keyword_is_refused_on_import(session):
    from cardbase.catalog import transfer
    from cardbase.errors import ImportError_

    text = f'edition,number,name,value,keywords,effect\nNP1,93,Essai,2,Foule,"{DISCARD_EFFECT}"\n'
    plan = transfer.import_cards(session, text, fmt="csv", dry_run=True)
    assert [p.code for p in plan.problems] == ["missing-keyword"]
    assert "column keywords" in plan.problems[0].where or "colonne keywords" in plan.problems[0].where
    with pytest.raises(ImportError_):
        transfer.import_cards(session, text, fmt="csv")
    ok = text.replace(",Foule,", ",Foule;Défausse,")
    assert transfer.import_cards(session, ok, fmt="csv").counts["new"] == 1


@pytest.mark.parametrize("path", datafiles.edition_files(DATA_DIR), ids=lambda p: p.name)
def test_shipped_cards_have_the_defausse_keyword_where_their_effect_needs_it(path):
    edition, cards = datafiles.load_edition_file(path)
    for card in cards:
        _, problems = catalog.check_effect(edition["game"], card.get("effect"),
                                           keywords=card.get("keywords") or [])
        assert problems == [], (path.name, card.get("number"), problems)
        if card.get("art"):
            assert catalog.check_art_name(card["art"]) is None
