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

from cardbase import access, decks, i18n
from cardbase.catalog import backup
from cardbase.catalog import cards as catalog
from cardbase.storage import db
from cardbase.cli import app
from cardbase.errors import ArtError, PermissionDenied
from cardbase.storage.models import Card, DeckVersion

runner = CliRunner()


@pytest.fixture
def english():
    """Messages in English for the tests that match English text."""
    with i18n.use_language("en"):
        yield


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


def _dump(url: str, path: Path, art_dir: Path | None = None, force: bool = False) -> backup.BackupReport:
    engine = db.make_engine(url)
    try:
        return backup.dump_database(engine, path, art_dir=art_dir, force=force)
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
        _dump(url, tmp_path / "again.zip", force=True)
        assert (tmp_path / "again.zip").read_bytes() == (tmp_path / "a.zip").read_bytes()


def test_restore_refuses_a_database_with_data(english, backend, make_db, tmp_path):
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
def test_damaged_archives_write_nothing(english, backend, make_db, tmp_path, damage, message):
    _dump(make_db(backend), tmp_path / "a.zip")
    _rewrite(tmp_path / "a.zip", tmp_path / "bad.zip", damage)
    engine = db.make_engine(make_db(backend, seeded=False))
    with pytest.raises(backup.BackupError, match=message):
        backup.restore_database(engine, tmp_path / "bad.zip")
    assert not any(backup.row_counts(engine).values())
    engine.dispose()


def test_not_an_archive(english, tmp_path, empty_engine):
    (tmp_path / "x.zip").write_text("hello")
    with pytest.raises(backup.BackupError, match="not a cardbase archive"):
        backup.restore_database(empty_engine, tmp_path / "x.zip")
    with pytest.raises(backup.BackupError, match="no such file"):
        backup.restore_database(empty_engine, tmp_path / "missing.zip")


def test_conflicting_art_refused_before_any_write(english, backend, make_db, tmp_path):
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
    assert result.exit_code == 2 and "n'est pas vide" in result.output
    monkeypatch.setenv("DATABASE_URL", make_db(backend, seeded=False))
    db.dispose_engines()
    result = runner.invoke(app, ["db", "restore", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("restauré")


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


# --------------------------------------------------------------------------- dump onto a file

def test_dump_refuses_an_existing_file_unless_forced(cli_env, tmp_path):
    out = tmp_path / "dump.zip"
    out.write_bytes(b"older archive")
    result = runner.invoke(app, ["db", "dump", str(out), "--art-dir", str(tmp_path / "none")])
    assert result.exit_code == 2
    assert "existe déjà" in result.output and "--force" in result.output
    assert "Traceback" not in result.output
    assert out.read_bytes() == b"older archive"
    result = runner.invoke(app, ["db", "dump", str(out), "--art-dir", str(tmp_path / "none"), "--force"])
    assert result.exit_code == 0, result.output
    assert zipfile.is_zipfile(out)
    result = runner.invoke(app, ["db", "dump", str(tmp_path), "--art-dir", str(tmp_path / "none")])
    assert result.exit_code == 2 and "dossier" in result.output


def test_a_dump_stopped_half_way_leaves_the_old_archive_whole(backend, make_db, tmp_path, monkeypatch):
    url = make_db(backend)
    (tmp_path / "out").mkdir()
    out = tmp_path / "out" / "dump.zip"
    _dump(url, out)
    before = out.read_bytes()
    written = []

    def dying_entry(zf, name, data):
        written.append(name)
        if len(written) == 3:
            raise KeyboardInterrupt("killed")  # the process stops in the middle of the archive
        zf.writestr(name, data)

    monkeypatch.setattr(backup, "_zip_entry", dying_entry)
    with pytest.raises(KeyboardInterrupt):
        _dump(url, out, force=True)
    assert out.read_bytes() == before
    assert sorted(p.name for p in out.parent.iterdir()) == ["dump.zip"]  # no temporary file left


# --------------------------------------------------------------------------- hostile archives

def _forge(src: Path, dst: Path, *, rows=None, manifest=None, art: dict[str, bytes] | None = None,
           drop: tuple[str, ...] = (), raw: dict[str, bytes] | None = None) -> None:
    """Rewrite an archive as a careful attacker would: checksums and counts made to match.

    ``rows(table, list_of_dicts)`` changes a table's rows; ``art`` adds art files (listed in the
    manifest); ``drop`` removes tables (member and manifest entry); ``manifest(dict)`` edits the
    manifest last; ``raw`` adds members as given (not listed).
    """
    import hashlib
    import json

    with zipfile.ZipFile(src) as zin:
        man = json.loads(zin.read("manifest.json"))
        members = {i.filename: zin.read(i) for i in zin.infolist() if i.filename != "manifest.json"}
    for name in drop:
        members.pop(f"tables/{name}.jsonl")
        man["tables"].pop(name)
    for name in list(man["tables"]):
        data = members[f"tables/{name}.jsonl"]
        if rows is not None:
            lines = [json.loads(line) for line in data.splitlines()]
            lines = rows(name, lines)
            data = b"".join(json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in lines)
        members[f"tables/{name}.jsonl"] = data
        man["tables"][name] = {"rows": data.count(b"\n"), "sha256": hashlib.sha256(data).hexdigest()}
    for rel, data in (art or {}).items():
        members[f"art/{rel}"] = data
        man["art"][rel] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    if manifest is not None:
        man = manifest(man)
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        zout.writestr("manifest.json", man if isinstance(man, bytes) else json.dumps(man))
        for name, data in {**members, **(raw or {})}.items():
            zout.writestr(name, data)


def _restore_refused(backend: str, make_db, archive: Path, art_dir: Path) -> backup.BackupError:
    engine = db.make_engine(make_db(backend, seeded=False))
    try:
        with pytest.raises(backup.BackupError) as info:
            backup.restore_database(engine, archive, art_dir=art_dir)
        assert not any(backup.row_counts(engine).values())
    finally:
        engine.dispose()
    assert not art_dir.exists() or not any(art_dir.rglob("*"))
    assert "Traceback" not in str(info.value)
    return info.value


@pytest.fixture
def good_archive(make_db, backend, tmp_path) -> Path:
    path = tmp_path / "good.zip"
    _dump(make_db(backend), path)
    return path


def _set(table: str, line: int, column: str, value):
    def change(name, rows):
        if name == table:
            rows[line - 1][column] = value
        return rows
    return change


def test_a_zip_bomb_art_member_is_refused_unread(backend, make_db, good_archive, tmp_path):
    import hashlib
    import json

    zeros = b"\0" * (1024 * 1024)
    digest = hashlib.sha256()
    for _ in range(200):
        digest.update(zeros)
    with zipfile.ZipFile(good_archive) as zin:
        man = json.loads(zin.read("manifest.json"))
        members = {i.filename: zin.read(i) for i in zin.infolist() if i.filename != "manifest.json"}
    # The manifest lists the 200 MB file with its true size and checksum.
    man["art"]["np1/001.png"] = {"bytes": 200 * 1024 * 1024, "sha256": digest.hexdigest()}
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zout:
        zout.writestr("manifest.json", json.dumps(man))
        for name, data in members.items():
            zout.writestr(name, data)
        with zout.open("art/np1/001.png", "w") as fh:
            for _ in range(200):
                fh.write(zeros)
    assert bomb.stat().st_size < 1024 * 1024
    error = _restore_refused(backend, make_db, bomb, tmp_path / "art")
    assert [p.code for p in error.problems] == ["art-too-big"]
    assert error.problems[0].where == "art/np1/001.png"
    assert "bombe zip" in error.problems[0].message


def test_the_total_uncompressed_budget_is_counted_while_reading(backend, make_db, good_archive, tmp_path,
                                                                monkeypatch):
    monkeypatch.setattr(backup, "MAX_ARCHIVE_BYTES", 20_000)  # smaller than the tables together
    error = _restore_refused(backend, make_db, good_archive, tmp_path / "art")
    assert "Mo décompressés" in str(error) and "tables/" in str(error)


def test_every_problem_of_a_forged_archive_is_listed_at_once(backend, make_db, good_archive, tmp_path):
    def change(name, rows):
        if name == "card":
            rows[0]["keywords"] = 5                  # wrong JSON type
            rows[1]["name"] = "x" * 200              # longer than its column
            rows[2]["stats"] = ["not", "a", "table"]
            rows[3]["value"] = 2**40                 # out of INTEGER range
            rows[4]["updated_at"] = "hier"
            rows[5]["edition_id"] = 9999             # refers to nothing
            rows[6]["flavour"] = "a\x00b"            # PostgreSQL cannot store it
        if name == "deck_entry":
            rows[1]["id"] = rows[0]["id"]            # duplicate primary key
        return rows

    bad = tmp_path / "bad.zip"
    _forge(good_archive, bad, rows=change, drop=("deck",),
           art={"np1/001.png": b"not an image", "../evil.png": _png(), "np1/002.jpg": _png()})
    error = _restore_refused(backend, make_db, bad, tmp_path / "art")
    wheres = {p.where: p for p in error.problems}
    assert "tables/card.jsonl, ligne 1, colonne keywords" in wheres
    assert "il faut une liste" in wheres["tables/card.jsonl, ligne 1, colonne keywords"].message
    assert "tables/card.jsonl, ligne 2, colonne name" in wheres
    assert "tables/card.jsonl, ligne 3, colonne stats" in wheres
    assert "tables/card.jsonl, ligne 4, colonne value" in wheres
    assert "tables/card.jsonl, ligne 5, colonne updated_at" in wheres
    assert "tables/card.jsonl, ligne 6, colonne edition_id" in wheres
    assert "tables/card.jsonl, ligne 7, colonne flavour" in wheres
    assert "tables/deck_entry.jsonl, ligne 2, colonne id" in wheres
    assert any(p.code == "missing-table" and "deck" in p.message for p in error.problems)
    assert "art/np1/001.png" in wheres and "art/../evil.png" in wheres and "art/np1/002.jpg" in wheres
    assert "rien n'a été restauré" in str(error)


@pytest.mark.parametrize("manifest, message", [
    (lambda m: [m], "ce n'est pas une archive cardbase"),
    (lambda m: {**m, "tables": "all"}, "ne liste pas les tables"),
    (lambda m: {**m, "tables": {**m["tables"], "card": {"rows": "many"}}}, "table card"),
    (lambda m: {**m, "art": ["np1/001.png"]}, "illustrations du manifeste"),
    (lambda m: {**m, "art": {"a.png": {"bytes": -1, "sha256": "x"}}}, "illustration a.png"),
    (lambda m: {**m, "schema_revision": 7}, "révision de schéma"),
    (lambda m: {**m, "format_version": [1]}, "format version"),
    (lambda m: b"\xff\xfe", "n'est pas du JSON"),
    (lambda m: b"[" * 100_000 + b"]" * 100_000, "n'est pas du JSON"),
    (lambda m: {**m, "tables": {**m["tables"], "secrets": m["tables"]["card"]}}, "secrets"),
])
def test_a_malformed_manifest_is_a_clear_refusal(backend, make_db, good_archive, tmp_path, manifest, message):
    bad = tmp_path / "bad.zip"
    _forge(good_archive, bad, manifest=manifest)
    error = _restore_refused(backend, make_db, bad, tmp_path / "art")
    assert message in str(error)


def test_a_line_that_is_not_json_names_member_and_line(backend, make_db, good_archive, tmp_path):
    import hashlib
    import json

    bad = tmp_path / "bad.zip"
    _forge(good_archive, bad)
    with zipfile.ZipFile(bad) as zin:
        members = {i.filename: zin.read(i) for i in zin.infolist()}
    lines = members["tables/game.jsonl"].splitlines(keepends=True)
    lines[1] = b"[" * 50_000 + b"\n"
    data = b"".join(lines)
    man = json.loads(members["manifest.json"])
    man["tables"]["game"]["sha256"] = hashlib.sha256(data).hexdigest()
    members["tables/game.jsonl"] = data
    members["manifest.json"] = json.dumps(man).encode()
    with zipfile.ZipFile(bad, "w") as zout:
        for name, content in members.items():
            zout.writestr(name, content)
    error = _restore_refused(backend, make_db, bad, tmp_path / "art")
    assert [p.where for p in error.problems] == ["tables/game.jsonl, ligne 2"]


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
def test_store_art_refuses_bad_uploads(english, tmp_path, name, data, message):
    art = tmp_path / "art"
    art.mkdir()
    with pytest.raises(ArtError, match=message):
        backup.store_art(name, data, art_dir=art)
    assert not any(tmp_path.rglob("*.png"))


def test_store_art_refuses_a_link_out_of_the_folder(english, tmp_path):
    art = tmp_path / "art"
    art.mkdir()
    (art / "out").symlink_to(tmp_path)
    with pytest.raises(ArtError, match="outside the art folder"):
        backup.store_art("out/evil.png", _png(), art_dir=art)
    assert not (tmp_path / "evil.png").exists()


def test_store_art_keeps_an_existing_file(english, tmp_path):
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
