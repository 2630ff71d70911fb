"""Markup is data (docs/rich-text.md): search reads the text without markup, quoted values are
literal, import/export round-trip it, and markup problems name row, column and character."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Session

from cardbase.catalog import cards as catalog
from cardbase.catalog import transfer
from cardbase.errors import ImportError_, ValidationError
from cardbase.catalog.search import Field, parse_query, search_cards


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


def test_nespanini_value_range_is_checked_on_create_edit_and_import_r12(engine) -> None:
    """NesPanini ruling R12: a value is 0 to 99 (no sticker code for −3); declared as data."""
    from cardbase.catalog import gamesdata
    from cardbase.storage.models import Game

    with Session(engine) as s:
        for value in (-3, 100):
            with pytest.raises(ValidationError) as info:
                catalog.create_card(s, edition="NP1", fields={"number": 910, "name": "X",
                                                              "value": value})
            assert [p.code for p in info.value.problems] == ["out-of-range"]
            assert "value" in info.value.problems[0].where and "0" in info.value.problems[0].fix
        card = catalog.create_card(s, edition="NP1", fields={"number": 910, "name": "X", "value": 99})
        with pytest.raises(ValidationError):
            catalog.update_card(s, card.id, expected_version=card.version, changes={"value": "-3"})
        # the range is data: a game without one accepts any value, as before
        ctt = s.exec(__import__("sqlmodel").select(Game).where(Game.code == "ctterror")).one()
        assert gamesdata.value_decl(ctt) is None
        s.rollback()
    rows = [{"edition": "NP1", "number": 911, "name": "A", "value": -3},
            {"edition": "NP1", "number": 912, "name": "B", "value": 100},
            {"edition": "NP1", "number": 913, "name": "C", "value": 7}]
    with Session(engine) as s, pytest.raises(ImportError_) as info:
        transfer.import_cards(s, json.dumps(rows), fmt="json", source="np.json")
    assert [p.where for p in info.value.problems] == ["np.json, élément 1, colonne value",
                                                      "np.json, élément 2, colonne value"]


def test_value_is_declared_like_a_field_but_is_not_one() -> None:
    from cardbase.catalog import gamesdata
    from cardbase.storage.models import Game

    decl, problems = gamesdata.parse_field_spec("value:int:0..20")
    assert problems == [] and (decl.min, decl.max) == (0, 20)
    assert gamesdata.parse_field_spec("value:text")[0] is None
    game = Game(code="g", name="G", fields=[decl.as_dict(), {"name": "force", "type": "int"}])
    assert [d.name for d in gamesdata.declared_fields(game)] == ["force"]  # not a card figure
    assert gamesdata.value_problem(game, 21).code == "out-of-range"
    assert gamesdata.value_problem(game, 20) is None


def test_html_converts_to_the_markup_and_names_what_it_cannot() -> None:
    from cardbase.catalog.richtext import from_html, parse

    text, left, closed = from_html("<b>Cri de guerre</b> : {0} dégâts.<br/>Pioche&nbsp;1 <span>x</span> 2*3")
    assert text == "**Cri de guerre** : \\{0\\} dégâts.\\nPioche~1 <span>x</span> 2\\*3"
    assert left == ["<span>", "</span>"] and closed == []
    assert parse(text).problems == ()
    assert parse(text).plain == "Cri de guerre : {0} dégâts.\nPioche\u00a01 <span>x</span> 2*3"
    assert from_html("<i>ouvert") == ("*ouvert*", [], ["<i>"])
    # a tag named as left in the text is in the text (a lone </b> used to vanish)
    assert from_html("Un </b> orphelin") == ("Un </b> orphelin", ["</b>"], [])
    assert from_html("<b>a <b>b</b></b>") == ("**a <b>b**</b>", ["<b>", "</b>"], [])
    assert from_html("a &#0; b")[0] == "a &#0; b"  # no control character from an entity


@pytest.mark.sqlite_only("an import check, the same on both databases")
def test_a_thousand_html_cards_convert_or_name_every_tag(session) -> None:
    rows = [{"edition": "NP1", "number": 1000 + i, "name": f"Carte {i}",
             "effect_text": f"<b>Provocation</b> {i}<br><i>Râle</i> : <u>x</u>"} for i in range(1000)]
    plan = transfer.import_cards(session, json.dumps(rows), fmt="json", source="hs.json",
                                 dry_run=True, markup="html")
    assert plan.problems == [] and plan.counts["new"] == 1000
    assert len(plan.warnings) == 1000 and all("<u> </u>" in w for w in plan.warnings)
    assert "élément 1, colonne effect_text" in plan.warnings[0]
    plan = transfer.import_cards(session, json.dumps(rows[:3]), fmt="json", source="hs.json",
                                 dry_run=True)  # without --markup: as is, each card named
    assert plan.problems == [] and len(plan.warnings) == 3 and "--markup html" in plan.warnings[0]


@pytest.mark.sqlite_only("a command-line check")
def test_cli_import_markup_html_and_a_bad_markup(cli_env, tmp_path) -> None:
    from typer.testing import CliRunner

    from cardbase.cli import app

    path = tmp_path / "hs.csv"
    path.write_text("edition,number,name,effect_text\nNP1,950,Brute,<b>Charge</b><br>Pioche\n",
                    encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(app, ["cards", "import", str(path), "--markup", "xml"])
    assert res.exit_code == 2 and "xml" in res.output and "html" in res.output
    res = runner.invoke(app, ["cards", "import", str(path), "--markup", "html", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["warnings"] == []
    res = runner.invoke(app, ["cards", "show", "NP1-950", "--json"])
    assert json.loads(res.output)["effect_text"] == "**Charge**\\nPioche"


@pytest.mark.sqlite_only("a command-line check")
def test_cli_import_lists_every_markup_problem_with_row_and_column_and_exits_2(cli_env,
                                                                               tmp_path) -> None:
    from typer.testing import CliRunner

    from cardbase.cli import app

    path = tmp_path / "bad.csv"
    path.write_text("edition,number,name,value,effect_text\n"
                    "NP1,951,Une,3,**Foule : +1 {pourpre} et {rouge\n"
                    "NP1,952,Deux,-3,Texte } avec *italique\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["cards", "import", str(path)])
    assert res.exit_code == 2, res.output  # bad input: 2, as for an unreadable file (was 1)
    assert "Traceback" not in res.output
    for where in ("ligne 2, colonne effect_text (caractère 1)",
                  "ligne 2, colonne effect_text (caractère 14)",
                  "ligne 2, colonne effect_text (caractère 27)",
                  "ligne 3, colonne effect_text (caractère 7)",
                  "ligne 3, colonne effect_text (caractère 14)", "ligne 3, colonne value"):
        assert where in res.output, where
    res = CliRunner().invoke(app, ["cards", "show", "NP1-951"])
    assert res.exit_code != 0  # nothing written
