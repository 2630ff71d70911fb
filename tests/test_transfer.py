"""Card import/export: every problem with row and column, dry runs, all-or-nothing writes."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Session, func, select

from cardbase import catalog, i18n, transfer
from cardbase.errors import ImportError_
from cardbase.models import Card


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
    with Session(engine) as s, i18n.use_language("en"):
        with pytest.raises(ImportError_) as info:
            transfer.import_file(s, path)
        s.rollback()
    wheres = [p.where for p in info.value.problems]
    assert any("row 3 column edition" in w for w in wheres)
    assert any("row 4 column number" in w for w in wheres)
    assert any("row 5 column name" in w for w in wheres)
    assert any("row 5 column value" in w for w in wheres)
    assert any("row 6 column stats" in w for w in wheres)
    assert any("row 7 column number" in w for w in wheres)
    assert "nothing was imported" in str(info.value)
    assert _count(engine) == before


def test_unknown_header_column(session, tmp_path):
    path = tmp_path / "h.csv"
    path.write_text("edition,number,nom\nOVK,1,x\n", encoding="utf-8")
    with pytest.raises(ImportError_) as info:
        transfer.import_file(session, path)
    text = str(info.value)
    assert "unknown column 'nom'" in text and "row 1 column 3" in text and "'name' is missing" in text


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
        with pytest.raises(ImportError_, match="exported at version 1"):
            transfer.import_file(s, path)
        s.rollback()
    with Session(engine) as s:
        assert catalog.get_card(s, "OVK-001").value == 8


def test_malformed_json_and_encoding(session, tmp_path):
    path = tmp_path / "x.json"
    path.write_text("[{", encoding="utf-8")
    with pytest.raises(ImportError_, match="not valid JSON at line 1"):
        transfer.import_file(session, path)
    path.write_bytes(b"edition,number,name\nOVK,1,\xff\n")
    with pytest.raises(ImportError_, match="not UTF-8"):
        transfer.import_cards(session, path.read_bytes(), fmt="csv", source="x.csv")
    with pytest.raises(ImportError_, match="use .csv or .json"):
        transfer.import_file(session, tmp_path / "cards.xlsx")


@pytest.mark.parametrize("version", [float("inf"), 2.5, True, -1, "1e9", 2**40, "deux"])
def test_bad_version_values_are_reported(session, version):
    rows = [{"edition": "OVK", "number": 1, "name": "Un", "version": version}]
    plan = transfer.import_cards(session, json.dumps(rows), fmt="json", dry_run=True)
    assert [p.where for p in plan.problems] == ["<upload> item 1 column version"]
