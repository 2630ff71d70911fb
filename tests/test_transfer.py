"""Card import/export: every problem with row and column, dry runs, all-or-nothing writes."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Session, func, select

from cardbase import i18n
from cardbase.catalog import cards as catalog
from cardbase.catalog import transfer
from cardbase.errors import ImportError_
from cardbase.storage.models import Card


def _count(engine) -> int:
    with Session(engine) as s:
        return s.exec(select(func.count()).select_from(Card)).one()


def test_export_then_import_is_unchanged(session, tmp_path):
    for suffix in ("csv", "json"):
        path = tmp_path / f"cards.{suffix}"
        n = transfer.export_file(session, path, edition="OVK")
        assert n == 39
        plan = transfer.import_file(session, path, dry_run=True)
        assert plan.problems == []
        assert plan.counts == {"new": 0, "updated": 0, "unchanged": 39}


def test_dry_run_shows_new_and_updated_and_writes_nothing(engine, tmp_path):
    before = _count(engine)
    csv_text = (
        "edition,number,name,value,colour,keywords\n"
        "OVK,1,Un rouge renommé,1,rouge,\n"
        "OVK,50,Nouvelle carte,4,noir,Passif; Rare\n"
    )
    path = tmp_path / "in.csv"
    path.write_text(csv_text, encoding="utf-8")
    with Session(engine) as s:
        plan = transfer.import_file(s, path, dry_run=True)
        s.commit()
    assert plan.counts == {"new": 1, "updated": 1, "unchanged": 0}
    updated = next(r for r in plan.rows if r.action == "updated")
    assert "name" in updated.changes and updated.row == 2
    assert _count(engine) == before
    with Session(engine) as s:
        transfer.import_file(s, path)
        s.commit()
    assert _count(engine) == before + 1
    with Session(engine) as s:
        card = catalog.get_card(s, "OVK-050")
        assert card.keywords == ["Passif", "Rare"] and card.value == 4


def test_every_problem_reported_with_row_and_column_and_nothing_written(engine, tmp_path):
    before = _count(engine)
    path = tmp_path / "bad.csv"
    path.write_text(
        "edition,number,name,value,stats\n"
        "OVK,60,Bonne carte,3,\n"          # fine on its own
        "ZZZ,1,Edition inconnue,2,\n"       # row 3: unknown edition
        "OVK,abc,Numéro faux,2,\n"          # row 4: bad number
        "OVK,61,,x,\n"                      # row 5: no name, bad value
        'OVK,62,Stats,1,"{oops"\n'          # row 6: bad stats JSON
        "OVK,60,Doublon,1,\n",              # row 7: duplicate of row 2
        encoding="utf-8")
    with Session(engine) as s:
        with pytest.raises(ImportError_) as info:
            transfer.import_file(s, path)
        s.rollback()
    wheres = [p.where for p in info.value.problems]
    assert "bad.csv, ligne 3, colonne edition" in wheres
    assert "bad.csv, ligne 4, colonne number" in wheres
    assert "bad.csv, ligne 5, colonne name" in wheres
    assert "bad.csv, ligne 5, colonne value" in wheres
    assert "bad.csv, ligne 6, colonne stats" in wheres
    assert "bad.csv, ligne 7, colonne number" in wheres
    assert "rien n'a été importé" in str(info.value)
    assert _count(engine) == before


def test_unknown_header_column(session, tmp_path):
    path = tmp_path / "h.csv"
    path.write_text("edition,number,nom\nOVK,1,x\n", encoding="utf-8")
    with pytest.raises(ImportError_) as info:
        transfer.import_file(session, path)
    text = str(info.value)
    assert "colonne 'nom' inconnue" in text and "ligne 1 (en-tête), colonne 3" in text
    assert "la colonne 'name' manque" in text


def test_stale_version_in_import_is_refused(engine, tmp_path):
    with Session(engine) as s:
        records = transfer.export_records(s, edition="OVK")
        card = catalog.get_card(s, "OVK-001")
        catalog.update_card(s, card.id, expected_version=card.version, changes={"value": 8})
        s.commit()
    records[0]["name"] = "Modif hors ligne"
    path = tmp_path / "stale.json"
    path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    with Session(engine) as s:
        with pytest.raises(ImportError_, match="exportée à la version 1"):
            transfer.import_file(s, path)
        s.rollback()
    with Session(engine) as s:
        assert catalog.get_card(s, "OVK-001").value == 8


def test_malformed_json_and_encoding(session, tmp_path):
    path = tmp_path / "x.json"
    path.write_text("[{", encoding="utf-8")
    with pytest.raises(ImportError_, match="JSON invalide à la ligne 1"):
        transfer.import_file(session, path)
    path.write_bytes(b"edition,number,name\nOVK,1,\xff\n")
    with pytest.raises(ImportError_, match="pas du texte UTF-8"):
        transfer.import_cards(session, path.read_bytes(), fmt="csv", source="x.csv")
    with pytest.raises(ImportError_, match="utilisez .csv ou .json"):
        transfer.import_file(session, tmp_path / "cards.xlsx")


@pytest.mark.parametrize("version", [float("inf"), 2.5, True, -1, "1e9", 2**40, "deux"])
def test_bad_version_values_are_reported(session, version):
    rows = [{"edition": "OVK", "number": 1, "name": "Un", "version": version}]
    plan = transfer.import_cards(session, json.dumps(rows), fmt="json", dry_run=True)
    assert [p.where for p in plan.problems] == ["<upload>, élément 1, colonne version"]


# --------------------------------------------------------------------------- strict CSV

def test_an_unclosed_quote_is_refused_with_its_line(engine, tmp_path):
    """Four rows in: before, the open quote swallowed rows 3-4 into one field and imported two."""
    before = _count(engine)
    path = tmp_path / "quote.csv"
    path.write_text("edition,number,name,value\n"
                    "OVK,70,Première,1\n"
                    'OVK,71,"Deuxième,2\n'
                    "OVK,72,Troisième,3\n"
                    "OVK,73,Quatrième,4\n", encoding="utf-8")
    with Session(engine) as s:
        with pytest.raises(ImportError_) as info:
            transfer.import_file(s, path, dry_run=True)
    assert "guillemet ouvert à la ligne 3" in str(info.value)
    assert _count(engine) == before


def test_a_quote_closed_in_the_wrong_place_is_refused(session, tmp_path):
    path = tmp_path / "q.csv"
    path.write_text('edition,number,name\nOVK,70,"Nom"x\nOVK,71,B\n', encoding="utf-8")
    with pytest.raises(ImportError_, match="CSV mal formé à la ligne 2"):
        transfer.import_file(session, path, dry_run=True)


def test_multi_line_cells_keep_their_line_numbers(session, tmp_path):
    path = tmp_path / "m.csv"
    path.write_text('edition,number,name,flavour\nOVK,70,A,"deux\nlignes"\nOVK,71,,x\n', encoding="utf-8")
    plan = transfer.import_file(session, path, dry_run=True)
    assert [p.where for p in plan.problems] == ["m.csv, ligne 4, colonne name"]


def test_more_values_than_columns_lists_every_line(session, tmp_path):
    path = tmp_path / "w.csv"
    path.write_text("edition,number,name\nOVK,70,A,x\nOVK,71,B\nOVK,72,C,y,z\n", encoding="utf-8")
    with pytest.raises(ImportError_) as info:
        transfer.import_file(session, path, dry_run=True)
    assert [p.where for p in info.value.problems] == ["w.csv, ligne 2", "w.csv, ligne 4"]


def test_cli_import_of_a_broken_csv_is_exit_2_in_french(cli_env, tmp_path):
    from typer.testing import CliRunner

    from cardbase.cli import app

    path = tmp_path / "quote.csv"
    path.write_text('edition,number,name\nOVK,70,"A\nOVK,71,B\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["cards", "import", str(path)])
    assert result.exit_code == 2
    assert "ligne 2" in result.output and "Traceback" not in result.output
    good = tmp_path / "good.csv"
    good.write_text("edition,number,name\nOVK,70,Nouvelle\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["cards", "import", str(good), "--dry-run"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ESSAI — rien n'a été écrit")
    assert "+ ligne 2 : OVK-070 « Nouvelle »" in result.output
    with i18n.use_language("en"):
        result = CliRunner().invoke(app, ["--lang", "en", "cards", "import", str(good), "--dry-run"])
    assert "DRY RUN" in result.output and "1 new" in result.output


# --------------------------------------------------------------------------- CSV injection

TRICKY = ["=HYPERLINK(\"http://x\")", "+33 6 12", "-moins", "@SUM(A1)", "\tTabulé", "\rRetour",
          "'=déjà échappé", "'Tis", "''", "'", "''=", "ordinaire"]


def test_formula_cells_are_neutralised_and_read_back_exactly(engine, tmp_path):
    with Session(engine) as s:
        for i, text in enumerate(TRICKY):
            # CT vs Terror declares no range for its cards' value: "-1" tests a formula-like cell
            catalog.create_card(s, edition="CTT", fields={
                "number": 80 + i, "name": f"Carte {i}", "flavour": text, "banner": text.strip() or "x",
                "keywords": [text.strip() or "x"], "value": -1 - i})
        s.commit()
    path = tmp_path / "out.csv"
    with Session(engine) as s:
        transfer.export_file(s, path, edition="CTT")
    import csv as _csv

    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(_csv.reader(fh))
    header = rows[0]
    for row in rows[1:]:
        for name, cell in zip(header, row, strict=True):
            if name in ("number", "value", "copies", "version", "damage", "team_damage", "armour",
                        "life", "life_step"):  # the figures CT vs Terror declares as int
                assert cell == "" or int(cell) is not None  # numbers stay numbers, "-1" included
                continue
            assert not cell or cell[0] not in "=+-@\t\r", (name, cell)
    values = {int(r[1]): r for r in rows[1:]}
    assert values[80][header.index("value")] == "-1"
    assert values[80][header.index("flavour")] == "'=HYPERLINK(\"http://x\")"
    assert values[87][header.index("flavour")] == "'Tis"  # no formula character: left as it is
    with Session(engine) as s:
        plan = transfer.import_file(s, path, dry_run=True)
    assert plan.problems == [] and plan.counts["new"] == 0 and plan.counts["updated"] == 0
    # Changing the file in between shows that the values read back are the originals.
    path.write_bytes(path.read_bytes().replace(b"Carte 0,", "Carte zéro,".encode()))
    with Session(engine) as s:
        transfer.import_file(s, path)
        s.commit()
    with Session(engine) as s:
        for i, text in enumerate(TRICKY):
            card = catalog.get_card(s, f"CTT-{80 + i:03d}")
            assert card.flavour == text and card.value == -1 - i
    assert catalog_name(engine, "CTT-080") == "Carte zéro"


def catalog_name(engine, ref: str) -> str:
    with Session(engine) as s:
        return catalog.get_card(s, ref).name


# --------------------------------------------------------------------------- odd input

@pytest.mark.parametrize("column, value", [
    ("number", "²"), ("number", "٣"), ("value", "١٢"), ("copies", "³"), ("version", "²"), ("version", "٣"),
])
def test_non_ascii_digits_are_a_listed_problem(session, column, value):
    row = {"edition": "OVK", "number": 90, "name": "Chiffres", column: value}
    for fmt, text in (("json", json.dumps([row])),
                      ("csv", "edition,number,name,value,copies,version\n" + ",".join(
                          str(row.get(c, "")) for c in ("edition", "number", "name", "value", "copies",
                                                        "version")) + "\n")):
        plan = transfer.import_cards(session, text, fmt=fmt, dry_run=True)
        assert column in plan.problems[0].where, plan.problems
        assert len(plan.problems) == 1


def test_deep_nesting_and_huge_numbers_in_json(session):
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(ImportError_, match="imbrique trop"):
        transfer.import_cards(session, deep, fmt="json", dry_run=True)
    nested = '[{"edition": "OVK", "number": 91, "name": "Nid", "stats": ' + '{"a": ' * 40 + "1" + "}" * 40 + "}]"
    plan = transfer.import_cards(session, nested, fmt="json", dry_run=True)
    assert [p.where for p in plan.problems] == ["<upload>, élément 1, colonne stats"]
    huge = '[{"edition": "OVK", "number": ' + "9" * 5000 + ', "name": "Grand"}]'
    with pytest.raises(ImportError_, match="nombre du JSON est trop long"):
        transfer.import_cards(session, huge, fmt="json", dry_run=True)
    big = json.dumps([{"edition": "OVK", "number": 10**30, "name": "Grand", "value": -(10**300),
                       "copies": 10**20}])
    plan = transfer.import_cards(session, big, fmt="json", dry_run=True)
    assert sorted(p.where.rsplit(" ", 1)[-1] for p in plan.problems) == ["copies", "number", "value"]


def test_text_longer_than_its_column_is_listed_on_every_backend(engine):
    rows = [{"edition": "OVK", "number": 92, "name": "N" * 121, "banner": "b" * 81, "rarity": "r" * 41,
             "type": "t" * 81, "colour": "c" * 41, "art": "a" * 301 + ".png",
             "keywords": ["k" * 301]}]
    with Session(engine) as s:
        with pytest.raises(ImportError_) as info:
            transfer.import_cards(s, json.dumps(rows), fmt="json")
        s.rollback()
    columns = sorted(p.where.rsplit(" ", 1)[-1] for p in info.value.problems)
    assert columns == ["art", "banner", "colour", "keywords", "name", "rarity", "type"]


def test_a_file_over_the_size_limit_is_refused_unread(session, tmp_path, monkeypatch):
    monkeypatch.setattr(transfer, "MAX_FILE_BYTES", 1000)
    path = tmp_path / "big.json"
    path.write_text(json.dumps([{"edition": "OVK", "number": i, "name": "x"} for i in range(1, 100)]))
    with pytest.raises(ImportError_, match="limite de 0 Mo"):
        transfer.import_file(session, path, dry_run=True)


# --------------------------------------------------------------------------- bulk writes

def test_bulk_import_writes_like_the_catalog(engine, tmp_path):
    with Session(engine) as s:
        records = transfer.export_records(s, edition="OVK")
    records[0]["name"] = "Écume Étrange"
    records[0]["keywords"] = ["Foule", "Défausse"]
    new = dict(records[1], number=200, name="Toute Nouvelle", version=None, colour="Rouge")
    path = tmp_path / "bulk.json"
    path.write_text(json.dumps([records[0], new], ensure_ascii=False), encoding="utf-8")
    with Session(engine) as s:
        plan = transfer.import_file(s, path)
        s.commit()
    assert plan.counts == {"new": 1, "updated": 1, "unchanged": 0}
    with Session(engine) as s:
        first = catalog.get_card(s, records[0]["ref"] if "ref" in records[0] else "OVK-001")
        assert first.name == "Écume Étrange" and first.version == records[0]["version"] + 1
        assert first.name_key == "ecume etrange" and first.keywords_key == "|foule|defausse|"
        fresh = catalog.get_card(s, "OVK-200")
        assert fresh.version == 1 and fresh.colour_key == "rouge" and fresh.updated_at is not None
        assert [c["ref"] for c in catalog.card_dicts(s, query="ecume")] == ["OVK-001"]


def test_a_column_named_twice_is_refused(session, tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("edition,number,name,value,value\nOVK,70,A,1,2\n", encoding="utf-8")
    with pytest.raises(ImportError_) as info:
        transfer.import_file(session, path, dry_run=True)
    assert [p.where for p in info.value.problems] == ["d.csv, ligne 1 (en-tête), colonne 5"]


def test_stale_rows_are_listed_with_the_other_problems(engine, tmp_path):
    with Session(engine) as s:
        records = transfer.export_records(s, edition="OVK")[:2]
        card = catalog.get_card(s, "OVK-001")
        catalog.update_card(s, card.id, expected_version=card.version, changes={"value": 8})
        s.commit()
    records[1]["value"] = "x"
    records.append({"edition": "OVK", "number": 120, "name": "Nouvelle"})
    with Session(engine) as s:
        plan = transfer.import_cards(s, json.dumps(records, ensure_ascii=False), fmt="json", dry_run=True)
    assert sorted(p.code for p in plan.problems) == ["invalid-field", "stale"]
    assert [(r.ref, r.action) for r in plan.rows] == [("OVK-120", "new")]


def test_a_card_saved_during_the_import_refuses_all_of_it(engine, tmp_path, monkeypatch):
    """Another editor saves a card the import changes, between the import's checks and its write:
    never both. On PostgreSQL the save lands (cards are locked by their version, not by the
    import) and the import is refused whole; on SQLite the import holds the write lock from its
    first check, so the save waits and is then refused as stale."""
    import threading

    from cardbase.errors import StaleEditError

    with Session(engine) as s:
        records = transfer.export_records(s, edition="OVK")[:3]
    for r in records:
        r["flavour"] = "importé"
    records.append({"edition": "OVK", "number": 130, "name": "Nouvelle"})
    planned = transfer.plan_import
    other: dict[str, object] = {}

    def save_value_9() -> None:
        try:
            with Session(engine) as s:
                card = catalog.get_card(s, "OVK-002")
                catalog.update_card(s, card.id, expected_version=card.version, changes={"value": 9})
                s.commit()
            other["result"] = "saved"
        except Exception as exc:  # looked at below
            other["result"] = exc

    def plan_then_someone_saves(session, rows, **kw):
        plan = planned(session, rows, **kw)
        thread = threading.Thread(target=save_value_9)  # another editor saves one of the cards meanwhile
        other["thread"] = thread
        thread.start()
        thread.join(1.5)  # done, or waiting for this import's lock
        return plan

    monkeypatch.setattr(transfer, "plan_import", plan_then_someone_saves)
    before = _count(engine)
    with Session(engine) as s:
        try:
            transfer.import_cards(s, json.dumps(records), fmt="json", source="c.json")
            s.commit()
            imported = True
        except ImportError_ as exc:
            assert "rien n'a été importé" in str(exc)
            s.rollback()
            imported = False
    other["thread"].join(30)
    with Session(engine) as s:
        flavour = catalog.get_card(s, "OVK-001").flavour
        value = catalog.get_card(s, "OVK-002").value
    if imported:
        assert isinstance(other["result"], StaleEditError), other["result"]
        assert engine.dialect.name == "sqlite"
        assert _count(engine) == before + 1 and flavour == "importé" and value != 9
    else:
        assert other["result"] == "saved"
        assert _count(engine) == before and flavour != "importé" and value == 9
