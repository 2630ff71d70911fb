"""Backups: the whole database and its art folder in one portable archive, and back.

An archive is a zip file:

- ``manifest.json`` — format name and version, the schema revision (Alembic), and for every table
  its row count and the SHA-256 of its file; for every art file its size and SHA-256;
- ``tables/<table>.jsonl`` — one JSON object per row, columns in model order, rows in primary-key
  order; dates and times as ISO 8601 text in UTC, JSON columns as JSON;
- ``art/<path>`` — the files of the art folder, as they are.

The archive is *deterministic*: the same data gives the same bytes (no timestamps, fixed zip entry
dates, sorted entries), whichever backend it was read from, so "restore then dump again" can be
checked byte for byte. A dump reads one consistent snapshot of the database.

A restore goes into an **empty** database only (a database that holds any row is refused, so a
backup never merges into or overwrites someone's work). Everything is checked before anything is
written — manifest, checksums, row counts, columns, art paths and conflicts — and the rows land in
one transaction; PostgreSQL sequences are moved past the restored ids.

The module also owns the **art folder** (``CARDBASE_ART_DIR``, default ``data/art``): the checks an
uploaded image must pass and the one function that stores it (:func:`store_art`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import os
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    Integer,
    Table,
    TypeDecorator,
    func,
    inspect,
    select,
    text,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from cardbase import db
from cardbase.errors import ArtError, CardbaseError

FORMAT = "cardbase-dump"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
MAX_MEMBER_BYTES = 2 * 1024**3  # a zip member that claims more is refused (zip bomb)


class BackupError(CardbaseError):
    """A dump that cannot be written or an archive that cannot be restored."""


@dataclass(slots=True, frozen=True)
class BackupReport:
    path: Path
    schema_revision: str
    rows: dict[str, int]
    art_files: int
    bytes: int

    @property
    def total_rows(self) -> int:
        return sum(self.rows.values())

    def summary(self) -> str:
        counts = ", ".join(f"{n} {t}" for t, n in self.rows.items() if n)
        return (f"{self.path}: schema {self.schema_revision}; {counts or 'no rows'}; "
                f"{self.art_files} art file(s); {self.bytes:,} bytes")


# --------------------------------------------------------------------------- art folder

def default_art_dir() -> Path:
    """The art folder: ``CARDBASE_ART_DIR``, else ``data/art``. Card ``art`` paths are relative to it."""
    env = os.environ.get("CARDBASE_ART_DIR")
    return Path(env) if env else db.DATA_DIR / "art"


def safe_art_path(art_dir: Path, name: str) -> Path:
    """``art_dir / name`` when ``name`` is a plain relative path that stays inside ``art_dir``."""
    if not isinstance(name, str) or not name.strip():
        raise ArtError("the art file has no name — give a file name such as np1-012.png")
    if "\x00" in name or "\\" in name:
        raise ArtError(f"art file name {name!r} contains a backslash or a NUL character — "
                       "use a plain file name such as np1-012.png")
    pure = PurePosixPath(name)
    if pure.is_absolute() or (len(name) > 1 and name[1] == ":"):
        raise ArtError(f"art path {name!r} is absolute — give a path relative to the art folder")
    if any(part in ("..", "") for part in name.split("/")) or any(p.startswith(".") for p in pure.parts):
        raise ArtError(f"art path {name!r} tries to leave the art folder or names a hidden file — "
                       "give a plain relative path such as np1/012.png")
    root = Path(art_dir).resolve()
    target = (root / pure).resolve()
    if target != root and root not in target.parents:
        raise ArtError(f"art path {name!r} leads outside the art folder {root} (through a link?) — "
                       "give a plain relative path")
    return target


ART_FORMATS = {"PNG": ".png", "JPEG": ".jpg", "WEBP": ".webp"}
MAX_UPLOAD_BYTES = 20 * 1024 * 1024
MAX_UPLOAD_PIXELS = 40_000_000


def check_art_bytes(data: bytes, *, name: str = "upload") -> tuple[str, tuple[int, int]]:
    """Check an uploaded image fully before it is stored: type, size, dimensions, integrity.

    Returns ``(format, (width, height))``; raises :class:`ArtError` with the reason otherwise.
    """
    if not isinstance(data, (bytes, bytearray)) or not data:
        raise ArtError(f"{name}: the file is empty — upload a PNG, JPEG or WebP image")
    if len(data) > MAX_UPLOAD_BYTES:
        raise ArtError(f"{name}: the file is {len(data) // (1024 * 1024)} MB — upload an image under "
                       f"{MAX_UPLOAD_BYTES // (1024 * 1024)} MB")
    from cardbase.printing.art import decode_image

    with decode_image(io.BytesIO(data), what=name, max_pixels=MAX_UPLOAD_PIXELS) as im:
        fmt = im.format or "?"
        w, h = im.size
    if fmt not in ART_FORMATS:
        raise ArtError(f"{name}: a {fmt} file is not accepted as card art — upload a PNG, JPEG "
                       "or WebP image")
    return fmt, (w, h)


def store_art(name: str, data: bytes, *, art_dir: Path | None = None, replace: bool = False,
              editor: str | None = None) -> str:
    """Check an uploaded image and store it in the art folder; returns the path to put on the card.

    Refused (``ArtError``) when the bytes are not a complete PNG/JPEG/WebP image of sane size, when
    the name leaves the art folder, or when a different file already has that name and ``replace``
    is false. Needs editor rights where the process enforces them (the app).
    """
    from cardbase import access

    access.require_editor(editor, action="upload card art")
    art_dir = Path(art_dir) if art_dir is not None else default_art_dir()
    target = safe_art_path(art_dir, name)
    fmt, _size = check_art_bytes(data, name=name)
    if target.suffix.lower() not in {ART_FORMATS[fmt], ".jpeg" if fmt == "JPEG" else ART_FORMATS[fmt]}:
        raise ArtError(f"{name}: the file is a {fmt} image but its name ends in "
                       f"{target.suffix or '(nothing)'} — name it …{ART_FORMATS[fmt]}")
    if target.exists() and not replace and target.read_bytes() != bytes(data):
        raise ArtError(f"{name}: another art file already has this name — choose another name or "
                       "replace it explicitly")
    target.parent.mkdir(parents=True, exist_ok=True)
    _atomic_write(target, bytes(data))
    return PurePosixPath(name).as_posix()


def _atomic_write(target: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=target.suffix)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _art_files(art_dir: Path | None) -> list[tuple[str, Path]]:
    if art_dir is None or not Path(art_dir).is_dir():
        return []
    root = Path(art_dir).resolve()
    out = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if any(part.startswith(".") for part in rel.split("/")):
            continue
        if path.is_symlink() or not path.is_file():
            continue
        out.append((rel, path))
    return out


# --------------------------------------------------------------------------- rows ⇄ JSON

def _tables() -> list[Table]:
    from sqlmodel import SQLModel

    import cardbase.models  # noqa: F401 - registers the tables

    return list(SQLModel.metadata.sorted_tables)


def _base(column_type: Any) -> Any:
    return column_type.impl if isinstance(column_type, TypeDecorator) else column_type


def _to_json(value: Any, column_type: Any) -> Any:
    column_type = _base(column_type)
    if value is None:
        return None
    if isinstance(column_type, DateTime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.UTC).replace(tzinfo=None)
        return value.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if isinstance(column_type, Date):
        return value.isoformat()
    if isinstance(column_type, Boolean):
        return bool(value)
    return value


def _from_json(value: Any, column_type: Any, where: str) -> Any:
    column_type = _base(column_type)
    if value is None:
        return None
    try:
        if isinstance(column_type, DateTime):
            if not isinstance(value, str) or not value.endswith("Z"):
                raise ValueError("not an ISO date-time in UTC")
            parsed = dt.datetime.strptime(value, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=dt.UTC)
            return parsed if column_type.timezone else parsed.replace(tzinfo=None)
        if isinstance(column_type, Date):
            return dt.date.fromisoformat(value)
        if isinstance(column_type, Boolean):
            if not isinstance(value, bool):
                raise TypeError("not true or false")
            return value
        if isinstance(column_type, Integer):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError("not a whole number")
            return value
        if isinstance(column_type, JSON):
            return value
        if not isinstance(value, str):
            raise TypeError("not text")
        return value
    except (TypeError, ValueError) as exc:
        raise BackupError(f"{where}: value {value!r} is unusable ({exc}) — the archive is damaged") from None


def _line(row: dict[str, Any]) -> bytes:
    return (json.dumps(row, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n").encode()


@contextmanager
def _snapshot(engine: Engine) -> Iterator[Connection]:
    """A connection reading one consistent snapshot of the whole database."""
    with engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                conn.execute(text("SET TRANSACTION READ ONLY"))
                yield conn
        else:
            if conn.dialect.name == "sqlite":
                conn.exec_driver_sql("BEGIN")  # deferred: the snapshot starts at the first read
            try:
                yield conn
            finally:
                conn.rollback()


def table_lines(engine: Engine) -> dict[str, bytes]:
    """Every table as its archive file would hold it (JSON lines, primary-key order)."""
    out: dict[str, bytes] = {}
    with _snapshot(engine) as conn:
        _read_tables(conn, out)
    return out


def _read_tables(conn: Connection, out: dict[str, bytes]) -> None:
    for table in _tables():
        order = [c for c in table.primary_key.columns] or list(table.columns)
        buf = io.BytesIO()
        for row in conn.execute(select(table).order_by(*order)).mappings():
            buf.write(_line({c.name: _to_json(row[c.name], c.type) for c in table.columns}))
        out[table.name] = buf.getvalue()


# --------------------------------------------------------------------------- dump

def _zip_entry(zf: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    zf.writestr(info, data, compresslevel=6)


def _require_current_schema(engine: Engine) -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(db.alembic_config(engine)).get_current_head()
    current = db.current_revision(engine)
    if current is None:
        raise BackupError(f"{_where(engine)} has no cardbase schema — nothing to dump "
                          "(check DATABASE_URL)")
    if current != head:
        raise BackupError(f"{_where(engine)} is at schema {current}, this cardbase expects {head} — "
                          "run `cardbase db upgrade` first, then dump")
    return current


def _where(engine: Engine) -> str:
    return f"database {engine.url.render_as_string(hide_password=True)}"


def dump_database(engine: Engine, path: str | Path, *, art_dir: Path | None = None) -> BackupReport:
    """Write the whole database (and the art folder, when given) to the archive ``path``."""
    path = Path(path)
    revision = _require_current_schema(engine)
    tables = table_lines(engine)
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "schema_revision": revision,
        "tables": {},
        "art": {},
    }
    rows: dict[str, int] = {}
    for name, data in tables.items():
        rows[name] = data.count(b"\n")
        manifest["tables"][name] = {"rows": rows[name], "sha256": hashlib.sha256(data).hexdigest()}
    art = [(rel, p.read_bytes()) for rel, p in _art_files(art_dir)]
    for rel, data in art:
        manifest["art"][rel] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".dump-", suffix=".zip")
    try:
        with os.fdopen(fd, "wb") as fh, zipfile.ZipFile(fh, "w") as zf:
            _zip_entry(zf, MANIFEST, (json.dumps(manifest, ensure_ascii=False, indent=1) + "\n").encode())
            for name, data in tables.items():
                _zip_entry(zf, f"tables/{name}.jsonl", data)
            for rel, data in art:
                _zip_entry(zf, f"art/{rel}", data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return BackupReport(path, revision, rows, len(art), path.stat().st_size)


# --------------------------------------------------------------------------- restore

@dataclass(slots=True)
class _Archive:
    manifest: dict[str, Any]
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    art: dict[str, bytes] = field(default_factory=dict)


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, source: str) -> bytes:
    if info.file_size > MAX_MEMBER_BYTES:
        raise BackupError(f"{source}: {info.filename} claims {info.file_size:,} bytes — refused")
    try:
        return zf.read(info)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as exc:
        raise BackupError(f"{source}: {info.filename} cannot be read ({exc}) — the archive is damaged") from None


def read_archive(path: str | Path) -> _Archive:
    """Read and check a whole archive (manifest, checksums, counts, JSON); writes nothing."""
    path = Path(path)
    source = str(path)
    try:
        zf = zipfile.ZipFile(path)
    except FileNotFoundError:
        raise BackupError(f"{source}: no such file — give the path of a `cardbase db dump` archive") from None
    except (zipfile.BadZipFile, OSError) as exc:
        raise BackupError(f"{source}: not a cardbase archive ({exc}) — give a file written by "
                          "`cardbase db dump`") from None
    with zf:
        members = {i.filename: i for i in zf.infolist()}
        if MANIFEST not in members:
            raise BackupError(f"{source}: no {MANIFEST} — this is not a `cardbase db dump` archive")
        try:
            manifest = json.loads(_read_member(zf, members[MANIFEST], source))
        except (ValueError, UnicodeDecodeError) as exc:
            raise BackupError(f"{source}: {MANIFEST} is not JSON ({exc}) — the archive is damaged") from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise BackupError(f"{source}: not a cardbase archive (format {manifest.get('format') if isinstance(manifest, dict) else None!r})")
        if manifest.get("format_version") != FORMAT_VERSION:
            raise BackupError(f"{source}: archive format version {manifest.get('format_version')!r}; "
                              f"this cardbase reads version {FORMAT_VERSION} — use a matching cardbase")
        archive = _Archive(manifest)
        known = {t.name: t for t in _tables()}
        declared = manifest.get("tables")
        if not isinstance(declared, dict):
            raise BackupError(f"{source}: the manifest lists no tables — the archive is damaged")
        unknown = sorted(set(declared) - set(known))
        if unknown:
            raise BackupError(f"{source}: tables {', '.join(unknown)} are unknown to this cardbase — "
                              "restore with the cardbase version that wrote the archive")
        for name, meta in declared.items():
            member = members.get(f"tables/{name}.jsonl")
            if member is None:
                raise BackupError(f"{source}: tables/{name}.jsonl is missing — the archive is damaged")
            data = _read_member(zf, member, source)
            if hashlib.sha256(data).hexdigest() != meta.get("sha256"):
                raise BackupError(f"{source}: tables/{name}.jsonl does not match its checksum — "
                                  "the archive is damaged or was edited")
            table = known[name]
            columns = [c.name for c in table.columns]
            rows = []
            for lineno, raw in enumerate(data.splitlines(), start=1):
                where = f"{source}: tables/{name}.jsonl line {lineno}"
                try:
                    obj = json.loads(raw)
                except (ValueError, UnicodeDecodeError) as exc:
                    raise BackupError(f"{where}: not JSON ({exc})") from None
                if not isinstance(obj, dict) or list(obj) != columns:
                    raise BackupError(f"{where}: columns {list(obj) if isinstance(obj, dict) else obj!r} "
                                      f"are not those of table {name} ({', '.join(columns)})")
                rows.append({c.name: _from_json(obj[c.name], c.type, f"{where} column {c.name}")
                             for c in table.columns})
            if len(rows) != meta.get("rows"):
                raise BackupError(f"{source}: table {name} has {len(rows)} rows, the manifest says "
                                  f"{meta.get('rows')} — the archive is damaged")
            archive.tables[name] = rows
        art = manifest.get("art") or {}
        for rel, meta in sorted(art.items()):
            member = members.get(f"art/{rel}")
            if member is None:
                raise BackupError(f"{source}: art/{rel} is missing — the archive is damaged")
            data = _read_member(zf, member, source)
            if hashlib.sha256(data).hexdigest() != meta.get("sha256"):
                raise BackupError(f"{source}: art/{rel} does not match its checksum — the archive is damaged")
            archive.art[rel] = data
    return archive


def row_counts(engine: Engine) -> dict[str, int]:
    """Rows in every cardbase table that exists in the database."""
    with engine.connect() as conn:
        existing = set(inspect(conn).get_table_names())
        return {t.name: conn.execute(select(func.count()).select_from(t)).scalar_one()
                for t in _tables() if t.name in existing}


def restore_database(engine: Engine, path: str | Path, *, art_dir: Path | None = None) -> BackupReport:
    """Restore the archive ``path`` into the EMPTY database of ``engine`` (and its art into ``art_dir``).

    A blank database gets the schema first. A database holding any row is refused. Nothing is
    written until the whole archive has been checked; the rows land in one transaction.
    """
    from cardbase import access

    access.require_editor(action="restore a backup")
    path = Path(path)
    archive = read_archive(path)
    revision = archive.manifest["schema_revision"]
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(db.alembic_config(engine)).get_current_head()
    if revision != head:
        raise BackupError(f"{path}: archive written at schema {revision}, this cardbase is at {head} — "
                          "restore it with the cardbase version that wrote it, run `cardbase db "
                          "upgrade`, then dump again")
    counts = {k: v for k, v in row_counts(engine).items() if v}
    if counts:
        shown = ", ".join(f"{v} {k}" for k, v in counts.items())
        raise BackupError(f"{_where(engine)} is not empty ({shown}) — a restore never merges into "
                          "existing data: create a new empty database (a new SQLite file, or "
                          "`createdb` on PostgreSQL), point DATABASE_URL at it and restore again")

    # Art: check every path and conflict before writing anything.
    art_targets: list[tuple[Path, bytes]] = []
    if archive.art:
        if art_dir is None:
            art_dir = default_art_dir()
        conflicts = []
        for rel, data in archive.art.items():
            try:
                target = safe_art_path(art_dir, rel)
            except ArtError as exc:
                raise BackupError(f"{path}: {exc}") from None
            if target.exists():
                if target.read_bytes() != data:
                    conflicts.append(rel)
                continue
            art_targets.append((target, data))
        if conflicts:
            raise BackupError(f"{path}: the art folder {art_dir} already has different files named "
                              f"{', '.join(conflicts[:10])}{'…' if len(conflicts) > 10 else ''} — "
                              "restore into an empty art folder (CARDBASE_ART_DIR)")

    db.upgrade(engine)  # a blank database gets the schema; an empty migrated one is unchanged
    written: list[Path] = []
    try:
        with engine.begin() as conn:
            by_name = {t.name: t for t in _tables()}
            for table in _tables():
                rows = archive.tables.get(table.name, [])
                if rows:
                    conn.execute(by_name[table.name].insert(), rows)
            if conn.dialect.name == "postgresql":
                _reset_sequences(conn)
            for target, data in art_targets:
                target.parent.mkdir(parents=True, exist_ok=True)
                _atomic_write(target, data)
                written.append(target)
    except SQLAlchemyError as exc:
        for target in written:
            target.unlink(missing_ok=True)
        raise BackupError(f"{path}: the rows could not be written ({exc.__class__.__name__}: "
                          f"{str(exc).splitlines()[0]}); nothing was restored") from exc
    except BaseException:
        for target in written:
            target.unlink(missing_ok=True)
        raise
    rows = {name: len(r) for name, r in archive.tables.items()}
    return BackupReport(path, revision, rows, len(archive.art), path.stat().st_size)


def _reset_sequences(conn: Connection) -> None:
    """Move each id sequence past the restored ids, so the next insert does not collide."""
    for table in _tables():
        pk = list(table.primary_key.columns)
        if len(pk) != 1 or not isinstance(pk[0].type, Integer):
            continue
        seq = conn.execute(text("SELECT pg_get_serial_sequence(:t, :c)"),
                           {"t": table.name, "c": pk[0].name}).scalar()
        if not seq:
            continue
        conn.execute(text(f'SELECT setval(:s, COALESCE((SELECT MAX("{pk[0].name}") FROM "{table.name}"), 1), '
                          f'(SELECT COUNT(*) > 0 FROM "{table.name}"))'), {"s": seq})


def archive_digest(path: str | Path) -> str:
    """SHA-256 of an archive file (identical data gives identical archives)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


__all__ = [
    "BackupError",
    "BackupReport",
    "archive_digest",
    "check_art_bytes",
    "default_art_dir",
    "dump_database",
    "read_archive",
    "restore_database",
    "row_counts",
    "safe_art_path",
    "store_art",
    "table_lines",
]
