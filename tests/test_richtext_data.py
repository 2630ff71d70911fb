"""Markup is data (docs/rich-text.md): search reads the text without markup, quoted values are
literal, import/export round-trip it, and markup problems name row, column and character."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Session

from cardbase import catalog, transfer
from cardbase.errors import ImportError_, ValidationError
from cardbase.search import Field, parse_query, search_cards


def test_a_quoted_value_starting_like_an_operator_is_literal_text() -> None:
    assert parse_query('o:"<b>"') == Field("text", ":", "<b>")
    assert parse_query('o:">= 3"') == Field("text", ":", ">= 3")
    assert parse_query('name:"=x"') == Field("name", ":", "=x")


def test_search_matches_the_text_without_markup_and_literal_html(session) -> None:
    catalog.create_card(session, edition="NP1", fields={
        "number": 901, "name": "Marteau", "effect_text": "Inflige 3 **dégâts** à une carte {rouge}."})
    catalog.create_card(session, edition="NP1", fields={
        "number": 902, "name": "Brut", "effect_text": "<b>Gras</b> importé tel quel"})
    session.flush()
    assert [c.name for c in search_cards(session, "o:dégâts e:np1")] == ["Marteau"]
    assert [c.name for c in search_cards(session, '"3 degats a une carte rouge"')] == ["Marteau"]
    assert [c.name for c in search_cards(session, 'o:"<b>"')] == ["Brut"]
    assert search_cards(session, 'o:"**"') == []  # markup characters are not text


def test_create_and_edit_refuse_broken_markup_listing_every_problem(session) -> None:
    with pytest.raises(ValidationError) as info:
        catalog.create_card(session, edition="NP1", fields={
            "number": 903, "name": "Cassée", "effect_text": "**Défausse : {pourpre} et {rouge"})
    wheres = [p.where for p in info.value.problems]
    codes = [p.code for p in info.value.problems]
    assert codes == ["richtext.unclosed_bold", "richtext.unknown_symbol", "richtext.unclosed_brace"]
    assert all("effect_text" in w for w in wheres) and wheres[1].endswith("effect_text (caractère 14)")
    card = catalog.create_card(session, edition="NP1", fields={
        "number": 903, "name": "Bonne", "effect_text": "**Défausse** : {sticker:3}"})
    with pytest.raises(ValidationError):
        catalog.update_card(session, card.id, expected_version=card.version,
                            changes={"effect_text": "*non fermé"})


def test_import_names_row_column_and_character_and_round_trips(engine, tmp_path) -> None:
    rows = [
        {"edition": "NP1", "number": 904, "name": "A", "effect_text": "**Foule** {bleu}~!\\nfin"},
        {"edition": "NP1", "number": 905, "name": "B", "effect_text": "ok {inconnu}"},
        {"edition": "NP1", "number": 906, "name": "C", "effect_text": "*ouvert"},
    ]
    with Session(engine) as s, pytest.raises(ImportError_) as info:
        transfer.import_cards(s, json.dumps(rows), fmt="json", source="cartes.json")
    wheres = [p.where for p in info.value.problems]
    assert len(wheres) == 2, wheres
    assert wheres == ["cartes.json, élément 2, colonne effect_text (caractère 4)",
                      "cartes.json, élément 3, colonne effect_text (caractère 1)"]
    with Session(engine) as s:
        transfer.import_cards(s, json.dumps(rows[:1]), fmt="json", source="cartes.json")
        s.commit()
    for suffix in ("csv", "json"):
        path = tmp_path / f"np1.{suffix}"
        with Session(engine) as s:
            transfer.export_file(s, path, query="e:np1 n:904")
            text = path.read_text(encoding="utf-8")
            assert "**Foule** {bleu}~!\\nfin" in text.replace("\\\\n", "\\n")
            plan = transfer.import_file(s, path, dry_run=True)
        assert plan.problems == [] and plan.counts["unchanged"] == 1
