"""Card services: validation, creation, stale-edit refusal, deletion, editions, data-file round trip."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from cardbase import catalog, datafiles
from cardbase.db import DATA_DIR
from cardbase.errors import NotFoundError, StaleEditError, ValidationError
from cardbase.models import Card, Deck, DeckEntry, Game


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
    with pytest.raises(ValidationError, match="already has a card number 40"):
        catalog.create_card(session, edition="OVK", fields={"number": 40, "name": "Autre"})


def test_stale_edit_is_refused_and_nothing_is_lost(engine):
    with Session(engine) as a, Session(engine) as b:
        card_a = catalog.get_card(a, "OVK-001")
        card_b = catalog.get_card(b, "OVK-001")
        v = card_a.version
        catalog.update_card(a, card_a.id, expected_version=v, changes={"name": "Un (édité par A)"})
        a.commit()
        with pytest.raises(StaleEditError) as info:
            catalog.update_card(b, card_b.id, expected_version=v, changes={"name": "Un (édité par B)"})
        b.rollback()
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
    with pytest.raises(ValidationError, match="Test deck"):
        catalog.delete_card(session, card.id, expected_version=card.version)
    other = catalog.get_card(session, "OVK-004")
    catalog.delete_card(session, other.id, expected_version=other.version)
    with pytest.raises(NotFoundError):
        catalog.get_card(session, "OVK-004")


def test_get_card_errors(session):
    with pytest.raises(NotFoundError, match="edition OVK has no number 999"):
        catalog.get_card(session, "OVK-999")
    with pytest.raises(NotFoundError, match="no edition 'ZZZ'"):
        catalog.get_edition(session, "ZZZ")


def test_edition_report_finds_numbering_gaps(session):
    ed = catalog.create_edition(session, game="overkill", code="OVX", name="Extension", set_size=5)
    for n in (1, 2, 7):
        catalog.create_card(session, edition="OVX", fields={"number": n, "name": f"Carte {n}"})
    report = {r["code"]: r for r in catalog.edition_report(session)}
    assert report["OVX"]["cards"] == 3 and not report["OVX"]["numbering_ok"]
    text = " ".join(report["OVX"]["numbering_issues"])
    assert "[7]" in text and "3 number(s) missing: 3, 4, 5" in text
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
    from cardbase import access, stickers, transfer
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
