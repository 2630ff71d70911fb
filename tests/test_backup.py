"""Dump and restore: one archive, same bytes back, whichever backend is on either side."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import func
from sqlmodel import Session, select
from typer.testing import CliRunner

from cardbase import access, backup, catalog, db, decks
from cardbase.cli import app
from cardbase.errors import ArtError, PermissionDenied
from cardbase.models import Card, DeckVersion

runner = CliRunner()


def _png(size: tuple[int, int] = (8, 6), colour: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, colour).save(buf, "PNG")
    return buf.getvalue()


def _enrich(url: str, art_dir: Path) -> None:
    """Give a seeded database what a months-old one has: edits, a deck with history, art."""
    engine = db.make_engine(url)
    with db.session_scope(engine) as s:
        card = catalog.get_card(s, "NP1-001")
        catalog.update_card(s, card.id, expected_version=card.version,
                            changes={"flavour": "Une ligne\navec « guillemets » et des accents : éèàç",
                                     "art": "np1/001.png", "stats": {"z": 1, "a": [1.5, None]}})
        deck = decks.save_deck(s, game="nespanini", name="Sauvegarde", entries=decks.parse_deck_list("2 NP1-001"),
                               note="première")
        decks.save_deck(s, game="nespanini", name="Sauvegarde",
                        entries=decks.parse_deck_list("1 NP1-001\n2 NP1-002"), expected_version=deck.version,
                        note="seconde")
    engine.dispose()
    (art_dir / "np1").mkdir(parents=True, exist_ok=True)
    (art_dir / "np1" / "001.png").write_bytes(_png())
    (art_dir / "dos.png").write_bytes(_png((4, 4), "blue"))


def _dump(url: str, path: Path, art_dir: Path | None = None) -> backup.BackupReport:
    engine = db.make_engine(url)
    try:
        return backup.dump_database(engine, path, art_dir=art_dir)
    finally:
        engine.dispose()


def _restore(url: str, path: Path, art_dir: Path | None = None) -> backup.BackupReport:
    engine = db.make_engine(url)
    try:
        return backup.restore_database(engine, path, art_dir=art_dir)
    finally:
        engine.dispose()


def test_round_trip_same_backend_byte_for_byte(backend, make_db, tmp_path):
    src = make_db(backend)
    art = tmp_path / "art"
    _enrich(src, art)
    first = _dump(src, tmp_path / "a.zip", art)
    assert first.rows["card"] > 100 and first.rows["deck_version"] >= 2 and first.art_files == 2

    target = make_db(backend, seeded=False)
    art2 = tmp_path / "art2"
    restored = _restore(target, tmp_path / "a.zip", art2)
    assert restored.rows == first.rows
    assert (art2 / "np1" / "001.png").read_bytes() == (art / "np1" / "001.png").read_bytes()

    second = _dump(target, tmp_path / "b.zip", art2)
    assert (tmp_path / "a.zip").read_bytes() == (tmp_path / "b.zip").read_bytes()
    assert second.rows == first.rows

    # The restored data is usable: the deck history and the edited card are there, and new rows
    # get fresh ids (sequences moved past the restored ones on PostgreSQL).
    engine = db.make_engine(target)
    with db.session_scope(engine) as s:
        card = catalog.get_card(s, "NP1-001")
        assert card.flavour.startswith("Une ligne\navec « guillemets »")
        assert card.stats == {"z": 1, "a": [1.5, None]}
        deck = decks.get_deck(s, "Sauvegarde")
        assert [v.note for v in decks.deck_history(s, deck.id)] in (["première", "seconde"],
                                                                    ["seconde", "première"])
        new = catalog.create_card(s, edition="NP1", fields={"number": 999, "name": "Nouvelle"})
        assert new.id > max(c for c in s.exec(select(Card.id).where(Card.id != new.id)).all())
        decks.save_deck(s, game="nespanini", name="Sauvegarde", entries=decks.parse_deck_list("1 NP1-003"),
                        expected_version=deck.version)
    engine.dispose()


def test_sqlite_to_postgresql_to_sqlite(make_db, tmp_path):
    src = make_db("sqlite")
    art = tmp_path / "art"
    _enrich(src, art)
    _dump(src, tmp_path / "1.zip", art)
    pg = make_db("postgresql", seeded=False)
    _restore(pg, tmp_path / "1.zip", tmp_path / "art-pg")
    _dump(pg, tmp_path / "2.zip", tmp_path / "art-pg")
    back = make_db("sqlite", seeded=False)
    _restore(back, tmp_path / "2.zip", tmp_path / "art-back")
    _dump(back, tmp_path / "3.zip", tmp_path / "art-back")
    one, two, three = ((tmp_path / f"{i}.zip").read_bytes() for i in (1, 2, 3))
    assert one == two == three


def test_restore_into_a_blank_database_creates_the_schema(pg_cluster, tmp_path, make_db):
    src = make_db("sqlite")
    _dump(src, tmp_path / "a.zip")
    for url in (f"sqlite:///{tmp_path / 'blank.db'}", pg_cluster.url(pg_cluster.create_database())):
        report = _restore(url, tmp_path / "a.zip")
        assert report.rows["card"] > 100
        _dump(url, tmp_path / "again.zip")
        assert (tmp_path / "again.zip").read_bytes() == (tmp_path / "a.zip").read_bytes()


def test_restore_refuses_a_database_with_data(backend, make_db, tmp_path):
    src = make_db(backend)
    _dump(src, tmp_path / "a.zip")
    engine = db.make_engine(src)
    before = backup.row_counts(engine)
    with pytest.raises(backup.BackupError, match="is not empty .* new empty database"):
        backup.restore_database(engine, tmp_path / "a.zip")
    assert backup.row_counts(engine) == before
    engine.dispose()


def _rewrite(src: Path, dst: Path, change) -> None:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            data = change(info.filename, zin.read(info))
            if data is not None:
                zout.writestr(info.filename, data)


@pytest.mark.parametrize("damage, message", [
    (lambda n, d: d.replace(b'"name":"', b'"name":"X', 1) if n == "tables/card.jsonl" else d, "checksum"),
    (lambda n, d: None if n == "tables/deck.jsonl" else d, "missing"),
    (lambda n, d: None if n == "manifest.json" else d, "not a `cardbase db dump` archive"),
    (lambda n, d: d.replace(b'"format_version": 1', b'"format_version": 9') if n == "manifest.json" else d,
     "format version"),
    (lambda n, d: d.replace(b'"schema_revision": "', b'"schema_revision": "old') if n == "manifest.json" else d,
     "schema"),
])
def test_damaged_archives_write_nothing(backend, make_db, tmp_path, damage, message):
    _dump(make_db(backend), tmp_path / "a.zip")
    _rewrite(tmp_path / "a.zip", tmp_path / "bad.zip", damage)
    engine = db.make_engine(make_db(backend, seeded=False))
    with pytest.raises(backup.BackupError, match=message):
        backup.restore_database(engine, tmp_path / "bad.zip")
    assert not any(backup.row_counts(engine).values())
    engine.dispose()


def test_not_an_archive(tmp_path, empty_engine):
    (tmp_path / "x.zip").write_text("hello")
    with pytest.raises(backup.BackupError, match="not a cardbase archive"):
        backup.restore_database(empty_engine, tmp_path / "x.zip")
    with pytest.raises(backup.BackupError, match="no such file"):
        backup.restore_database(empty_engine, tmp_path / "missing.zip")


def test_conflicting_art_refused_before_any_write(backend, make_db, tmp_path):
    src = make_db(backend)
    art = tmp_path / "art"
    _enrich(src, art)
    _dump(src, tmp_path / "a.zip", art)
    other = tmp_path / "other"
    (other / "np1").mkdir(parents=True)
    (other / "np1" / "001.png").write_bytes(_png(colour="green"))
    engine = db.make_engine(make_db(backend, seeded=False))
    with pytest.raises(backup.BackupError, match="already has different files named np1/001.png"):
        backup.restore_database(engine, tmp_path / "a.zip", art_dir=other)
    assert not any(backup.row_counts(engine).values())
    assert not (other / "dos.png").exists()
    engine.dispose()


def test_cli_dump_and_restore(cli_env, make_db, backend, tmp_path, monkeypatch):
    out = tmp_path / "dump.zip"
    result = runner.invoke(app, ["db", "dump", str(out), "--art-dir", str(tmp_path / "none"), "--json"])
    assert result.exit_code == 0, result.output
    assert '"card"' in result.stdout and out.exists()
    # Into the same (non-empty) database: refused with exit code 2.
    result = runner.invoke(app, ["db", "restore", str(out)])
    assert result.exit_code == 2 and "not empty" in result.output
    monkeypatch.setenv("DATABASE_URL", make_db(backend, seeded=False))
    db.dispose_engines()
    result = runner.invoke(app, ["db", "restore", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("restored")


def test_dump_is_one_snapshot_of_timezone_free_times(backend, make_db, tmp_path):
    url = make_db(backend)
    engine = db.make_engine(url)
    with Session(engine) as s:
        times = s.exec(select(func.count()).select_from(DeckVersion)).one()
    assert times >= 0
    lines = backup.table_lines(engine)
    assert b'"saved_at":"' in lines["deck_version"] or times == 0
    for raw in lines["deck"].splitlines():
        assert raw.count(b'Z"') >= 2  # created_at, updated_at in UTC
    engine.dispose()


# --------------------------------------------------------------------------- art uploads

def _gif() -> bytes:
    buf = io.BytesIO()
    Image.new("P", (2, 2)).save(buf, "GIF")
    return buf.getvalue()


def _bomb_png(width: int = 60_000, height: int = 60_000) -> bytes:
    """A tiny PNG whose header claims a huge size (a decompression bomb)."""
    data = bytearray(_png((1, 1)))
    ihdr = data.index(b"IHDR")
    data[ihdr + 4:ihdr + 12] = struct.pack(">II", width, height)
    crc = zlib.crc32(bytes(data[ihdr:ihdr + 17])) & 0xFFFFFFFF
    data[ihdr + 17:ihdr + 21] = struct.pack(">I", crc)
    return bytes(data)


def test_store_art_accepts_a_good_image(tmp_path):
    assert backup.store_art("np1/012.png", _png(), art_dir=tmp_path) == "np1/012.png"
    assert (tmp_path / "np1" / "012.png").read_bytes() == _png()


@pytest.mark.parametrize("name, data, message", [
    ("a.png", b"not an image at all", "not an image"),
    ("a.png", _png()[:40], "truncated|cannot be decoded|not an image"),
    ("a.png", _bomb_png(), "decompression bomb"),
    ("a.gif", _gif(),
     "GIF file is not accepted"),
    ("a.png", b"", "empty"),
    ("a.jpg", _png(), "name it …\\.png"),
    ("../evil.png", _png(), "leave the art folder"),
    ("np1/../../evil.png", _png(), "leave the art folder"),
    ("/etc/evil.png", _png(), "absolute"),
    ("C:evil.png", _png(), "absolute"),
    ("a\\..\\evil.png", _png(), "backslash"),
    (".hidden.png", _png(), "hidden"),
])
def test_store_art_refuses_bad_uploads(tmp_path, name, data, message):
    art = tmp_path / "art"
    art.mkdir()
    with pytest.raises(ArtError, match=message):
        backup.store_art(name, data, art_dir=art)
    assert not any(tmp_path.rglob("*.png"))


def test_store_art_refuses_a_link_out_of_the_folder(tmp_path):
    art = tmp_path / "art"
    art.mkdir()
    (art / "out").symlink_to(tmp_path)
    with pytest.raises(ArtError, match="outside the art folder"):
        backup.store_art("out/evil.png", _png(), art_dir=art)
    assert not (tmp_path / "evil.png").exists()


def test_store_art_keeps_an_existing_file(tmp_path):
    backup.store_art("a.png", _png(), art_dir=tmp_path)
    with pytest.raises(ArtError, match="already has this name"):
        backup.store_art("a.png", _png(colour="blue"), art_dir=tmp_path)
    assert backup.store_art("a.png", _png(colour="blue"), art_dir=tmp_path, replace=True) == "a.png"


def test_viewer_cannot_upload_art(tmp_path, monkeypatch):
    monkeypatch.setenv(access.PASSWORD_ENV, "s3cret")
    access.enforce(True)
    try:
        with pytest.raises(PermissionDenied, match="locked"):
            backup.store_art("a.png", _png(), art_dir=tmp_path)
        token = access.unlock("s3cret")
        assert backup.store_art("a.png", _png(), art_dir=tmp_path, editor=token) == "a.png"
    finally:
        access.enforce(False)


def test_viewer_cannot_restore(tmp_path, make_db, monkeypatch):
    _dump(make_db("sqlite"), tmp_path / "a.zip")
    engine = db.make_engine(make_db("sqlite", seeded=False))
    monkeypatch.setenv(access.PASSWORD_ENV, "s3cret")
    access.enforce(True)
    try:
        with pytest.raises(PermissionDenied):
            backup.restore_database(engine, tmp_path / "a.zip")
        assert not any(backup.row_counts(engine).values())
    finally:
        access.enforce(False)
        engine.dispose()
