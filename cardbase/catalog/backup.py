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
import zlib
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

from cardbase.storage import db
from cardbase.errors import ArtError, CardbaseError, Problem
from cardbase.i18n import tr
from cardbase.storage.art import default_art_dir, safe_art_path  # the art folder lives with the art

FORMAT = "cardbase-dump"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


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
        return tr("backup.summary", path=self.path, revision=self.schema_revision,
                  rows=counts or tr("backup.no_rows"), art=self.art_files, bytes=f"{self.bytes:,}")


# --------------------------------------------------------------------------- art folder

ART_FORMATS = {"PNG": ".png", "JPEG": ".jpg", "WEBP": ".webp"}
MAX_UPLOAD_BYTES = 20 * 1024 * 1024
MAX_UPLOAD_PIXELS = 40_000_000


def check_art_bytes(data: bytes, *, name: str = "upload") -> tuple[str, tuple[int, int]]:
    """Check an uploaded image fully before it is stored: type, size, dimensions, integrity.

    Returns ``(format, (width, height))``; raises :class:`ArtError` with the reason otherwise.
    """
    if not isinstance(data, (bytes, bytearray)) or not data:
        raise ArtError(tr("backup.art_empty", name=name))
    if len(data) > MAX_UPLOAD_BYTES:
        raise ArtError(tr("backup.art_big", name=name, size=len(data) // (1024 * 1024),
                          max=MAX_UPLOAD_BYTES // (1024 * 1024)))
    from cardbase.storage.art import decode_image

    with decode_image(io.BytesIO(data), what=name, max_pixels=MAX_UPLOAD_PIXELS) as im:
        fmt = im.format or "?"
        w, h = im.size
    if fmt not in ART_FORMATS:
        raise ArtError(tr("backup.art_format", name=name, format=fmt))
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
        raise ArtError(tr("backup.art_upload_suffix", name=name, format=fmt,
                          suffix=target.suffix or "—", expected=ART_FORMATS[fmt]))
    if target.exists() and not replace and target.read_bytes() != bytes(data):
        raise ArtError(tr("backup.art_exists", name=name))
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

    import cardbase.storage.models  # noqa: F401 - registers the tables

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


def _from_json(value: Any, column_type: Any, nullable: bool = True) -> Any:
    """The Python value of one archive cell; ``TypeError``/``ValueError`` with the reason otherwise."""
    column_type = _base(column_type)
    if value is None:
        if not nullable:
            raise ValueError(tr("backup.reason_null"))
        return None
    if isinstance(column_type, DateTime):
        if not isinstance(value, str) or not value.endswith("Z"):
            raise ValueError(tr("backup.reason_datetime"))
        try:
            parsed = dt.datetime.strptime(value, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=dt.UTC)
        except ValueError:
            raise ValueError(tr("backup.reason_datetime")) from None
        return parsed if column_type.timezone else parsed.replace(tzinfo=None)
    if isinstance(column_type, Date):
        if not isinstance(value, str):
            raise TypeError(tr("backup.reason_date"))
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            raise ValueError(tr("backup.reason_date")) from None
    if isinstance(column_type, Boolean):
        if not isinstance(value, bool):
            raise TypeError(tr("backup.reason_bool"))
        return value
    if isinstance(column_type, Integer):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(tr("backup.reason_int"))
        if not _INT_RANGE[0] <= value <= _INT_RANGE[1]:
            raise ValueError(tr("backup.reason_int_range"))
        return value
    if isinstance(column_type, JSON):
        return value
    if not isinstance(value, str):
        raise TypeError(tr("backup.reason_text"))
    return value


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
        raise BackupError(tr("backup.no_schema", where=_where(engine)))
    if current != head:
        raise BackupError(tr("backup.old_schema", where=_where(engine), current=current, head=head))
    return current


def _where(engine: Engine) -> str:
    return tr("backup.where_database", url=engine.url.render_as_string(hide_password=True))


def dump_database(engine: Engine, path: str | Path, *, art_dir: Path | None = None,
                  force: bool = False) -> BackupReport:
    """Write the whole database (and the art folder, when given) to the archive ``path``.

    An existing ``path`` is refused unless ``force``. The archive is written to a temporary file
    next to ``path`` and moved over it in one step: a dump stopped half-way never leaves a partial
    archive at ``path`` (an older archive there stays whole).
    """
    path = Path(path)
    if path.is_dir():
        raise BackupError(tr("backup.dump_is_directory", path=path))
    if (path.exists() or path.is_symlink()) and not force:
        raise BackupError(tr("backup.dump_exists", path=path))
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
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".dump-", suffix=".zip")
    except OSError as exc:
        raise BackupError(tr("backup.dump_cannot_write", path=path, error=exc.strerror or exc)) from None
    try:
        with os.fdopen(fd, "wb") as fh, zipfile.ZipFile(fh, "w") as zf:
            _zip_entry(zf, MANIFEST, (json.dumps(manifest, ensure_ascii=False, indent=1) + "\n").encode())
            for name, data in tables.items():
                _zip_entry(zf, f"tables/{name}.jsonl", data)
            for rel, data in art:
                _zip_entry(zf, f"art/{rel}", data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise BackupError(tr("backup.dump_cannot_write", path=path, error=exc.strerror or exc)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return BackupReport(path, revision, rows, len(art), path.stat().st_size)


# --------------------------------------------------------------------------- restore

MAX_MANIFEST_BYTES = 16 * 1024 * 1024
MAX_ARCHIVE_BYTES = 2 * 1024**3  # total uncompressed budget of one restore, read as it comes
_INT_RANGE = (-(2**31), 2**31 - 1)  # INTEGER on every backend


@dataclass(slots=True)
class _Archive:
    manifest: dict[str, Any]
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    art: dict[str, bytes] = field(default_factory=dict)
    lines: dict[str, list[int]] = field(default_factory=dict)  # archive line of each kept row


class _TooBig(Exception):
    """A member that outgrew its own limit while being read (the rest of the archive goes on)."""


class _Budget:
    """The bytes a restore may still decompress, whatever the zip headers claim."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.left = total


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, source: str, *, limit: int,
                 budget: _Budget) -> bytes:
    """The member's bytes, read in chunks against ``limit`` and the restore's running budget.

    Raises :class:`_TooBig` past ``limit``; :class:`BackupError` past the whole budget or when the
    member cannot be read. The sizes written in the zip headers are never trusted.
    """
    chunks: list[bytes] = []
    size = 0
    try:
        with zf.open(info) as fh:
            while True:
                chunk = fh.read(min(1024 * 1024, limit - size + 1, budget.left - size + 1))
                if not chunk:
                    break
                size += len(chunk)
                if size > limit:
                    budget.left -= size
                    raise _TooBig(size)
                if size > budget.left:
                    raise BackupError(tr("backup.budget", source=source, member=info.filename,
                                         budget=_mb(budget.total)))
                chunks.append(chunk)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError,
            NotImplementedError, RuntimeError, zlib.error) as exc:
        raise BackupError(tr("backup.member_unreadable", source=source, member=info.filename,
                             error=exc)) from None
    budget.left -= size
    return b"".join(chunks)


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):,.0f}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _is_sha(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _models() -> dict[str, Any]:
    """For every table, a plain pydantic model with its model's fields and constraints.

    The same annotations and constraints (text lengths…) as the SQLModel class, without the
    database instrumentation that makes validating through the table class itself slow.
    """
    from typing import Annotated

    from pydantic import create_model
    from sqlmodel import SQLModel

    import cardbase.storage.models  # noqa: F401 - registers the tables

    out = {}
    for mapper in SQLModel._sa_registry.mappers:
        model = mapper.class_
        fields: dict[str, Any] = {}
        for name, info in model.model_fields.items():
            constraints = [m for m in info.metadata if type(m).__module__.startswith("annotated_types")]
            annotation = Annotated[(info.annotation, *constraints)] if constraints else info.annotation
            fields[name] = (annotation, ...)
        out[model.__tablename__] = create_model(f"{model.__name__}Row", **fields)
    return out


def _has_nul(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


_PYDANTIC_EXPECTED = {
    "list_type": "backup.expect_list", "dict_type": "backup.expect_object",
    "string_type": "backup.expect_text", "int_type": "backup.expect_int",
    "bool_type": "backup.expect_bool", "float_type": "backup.expect_number",
    "datetime_type": "backup.expect_datetime", "date_type": "backup.expect_date",
}


def _check_row(model: Any, values: dict[str, Any], where: Any, problems: list[Problem]) -> None:
    """The model's own validation of one row (types inside JSON columns, text lengths…)."""
    from pydantic import ValidationError as PydanticError

    try:
        model.model_validate(values, strict=True)
    except PydanticError as exc:
        seen = set()
        for err in exc.errors():
            column = str(err["loc"][0]) if err["loc"] else "?"
            if column in seen:
                continue
            seen.add(column)
            value = values.get(column)
            if err["type"] == "string_too_long":
                message = tr("backup.too_long", length=len(value) if isinstance(value, str) else "?",
                             max=err.get("ctx", {}).get("max_length", "?"))
            elif err["type"] in _PYDANTIC_EXPECTED:
                message = tr("backup.wrong_type", value=_short(value),
                             expected=tr(_PYDANTIC_EXPECTED[err["type"]]))
            else:
                message = tr("backup.invalid_value", value=_short(value), reason=err["msg"])
            problems.append(Problem("invalid-value", message, tr("backup.fix_damaged"), where(column)))


def _manifest_problems(manifest: Any, source: str) -> list[Problem]:
    """Everything wrong with the manifest's shape (the format and version are checked before)."""
    problems: list[Problem] = []
    where = tr("backup.where_member", member=MANIFEST)

    def bad(message: str) -> None:
        problems.append(Problem("manifest", message, tr("backup.fix_damaged"), where))

    if not isinstance(manifest.get("schema_revision"), str) or not manifest["schema_revision"]:
        bad(tr("backup.manifest_no_revision"))
    tables = manifest.get("tables")
    if not isinstance(tables, dict):
        bad(tr("backup.manifest_no_tables"))
    else:
        for name, meta in tables.items():
            if not isinstance(meta, dict) or not _count(meta.get("rows")) or not _is_sha(meta.get("sha256")):
                bad(tr("backup.manifest_bad_table", table=name))
    art = manifest.get("art", {})
    if not isinstance(art, dict):
        bad(tr("backup.manifest_bad_art_list"))
    else:
        for rel, meta in art.items():
            if not isinstance(meta, dict) or not _count(meta.get("bytes")) or not _is_sha(meta.get("sha256")):
                bad(tr("backup.manifest_bad_art", name=rel))
    return problems


def read_archive(path: str | Path) -> _Archive:
    """Read and check a whole archive; writes nothing and lists every problem at once.

    Checked: the manifest's shape; every table of the format present, its checksum and row count;
    every row's columns and every value's type (the models' own validation, text lengths, whole
    numbers in range, no NUL characters); primary keys, unique columns and references between the
    archive's tables; every art file's name (inside the art folder), checksum, size and that it is
    a real PNG/JPEG/WebP image of sane dimensions — the checks of an upload. Members are read
    against a running byte budget (:data:`MAX_ARCHIVE_BYTES`; an art file stops at the upload
    limit), never trusting the sizes the zip claims.
    """
    path = Path(path)
    source = str(path)
    try:
        zf = zipfile.ZipFile(path)
    except FileNotFoundError:
        raise BackupError(tr("backup.no_file", source=source)) from None
    except IsADirectoryError:
        raise BackupError(tr("backup.not_archive", source=source, error=tr("backup.is_directory"))) from None
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise BackupError(tr("backup.not_archive", source=source, error=exc)) from None
    budget = _Budget(MAX_ARCHIVE_BYTES)
    with zf:
        members = {i.filename: i for i in zf.infolist()}
        if MANIFEST not in members:
            raise BackupError(tr("backup.no_manifest", source=source, manifest=MANIFEST))
        try:
            manifest = json.loads(_read_member(zf, members[MANIFEST], source,
                                               limit=MAX_MANIFEST_BYTES, budget=budget))
        except _TooBig:
            raise BackupError(tr("backup.manifest_too_big", source=source, manifest=MANIFEST,
                                 max=_mb(MAX_MANIFEST_BYTES))) from None
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            raise BackupError(tr("backup.manifest_not_json", source=source, manifest=MANIFEST,
                                 error=exc)) from None
        fmt = manifest.get("format") if isinstance(manifest, dict) else None
        if fmt != FORMAT:
            raise BackupError(tr("backup.wrong_format", source=source, format=_short(fmt)))
        if manifest.get("format_version") != FORMAT_VERSION:
            raise BackupError(tr("backup.format_version", source=source,
                                 version=_short(manifest.get("format_version")), expected=FORMAT_VERSION))
        problems = _manifest_problems(manifest, source)
        if problems:
            raise BackupError(tr("backup.refused", source=source, count=len(problems)), problems)
        archive = _Archive(manifest)
        known = {t.name: t for t in _tables()}
        models = _models()
        declared: dict[str, Any] = manifest["tables"]
        incomplete: set[str] = set()  # tables with refused rows: references to them are not judged
        for name in sorted(set(declared) - set(known)):
            problems.append(Problem("unknown-table", tr("backup.unknown_table", table=name),
                                    tr("backup.fix_version"), tr("backup.where_member", member=MANIFEST)))
        for name in [t for t in known if t not in declared]:
            incomplete.add(name)
            problems.append(Problem("missing-table", tr("backup.missing_table", table=name),
                                    tr("backup.fix_damaged"), tr("backup.where_member", member=MANIFEST)))
        for name, table in known.items():
            if name not in declared:
                continue
            meta = declared[name]
            member_name = f"tables/{name}.jsonl"
            member = members.get(member_name)
            if member is None:
                problems.append(Problem("missing-member", tr("backup.missing_member", member=member_name),
                                        tr("backup.fix_damaged"), tr("backup.where_member", member=member_name)))
                continue
            try:
                data = _read_member(zf, member, source, limit=budget.total, budget=budget)
            except _TooBig:  # only past the whole budget, which raises first
                continue
            before = len(problems)
            archive.tables[name], archive.lines[name] = _read_table(data, meta, table, models.get(name),
                                                                    member_name, problems)
            if len(problems) > before:
                incomplete.add(name)
        _check_keys(archive, known, incomplete, problems)
        _read_art(zf, members, manifest.get("art") or {}, source, budget, archive, problems)
    if problems:
        raise BackupError(tr("backup.refused", source=source, count=len(problems)), problems)
    return archive


def _read_table(data: bytes, meta: dict[str, Any], table: Table, model: Any, member: str,
                problems: list[Problem]) -> tuple[list[dict[str, Any]], list[int]]:
    if hashlib.sha256(data).hexdigest() != meta["sha256"]:
        problems.append(Problem("checksum", tr("backup.checksum", member=member), tr("backup.fix_edited"),
                                tr("backup.where_member", member=member)))
    columns = [c.name for c in table.columns]
    rows: list[dict[str, Any]] = []
    kept: list[int] = []
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for lineno, raw in enumerate(lines, start=1):
        def where(column: str | None = None, _line: int = lineno) -> str:
            if column is None:
                return tr("backup.where_line", member=member, line=_line)
            return tr("backup.where_cell", member=member, line=_line, column=column)

        try:
            obj = json.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            problems.append(Problem("not-json", tr("backup.line_not_json", error=exc),
                                    tr("backup.fix_damaged"), where()))
            continue
        if not isinstance(obj, dict) or list(obj) != columns:
            got = ", ".join(map(str, obj)) if isinstance(obj, dict) else _short(obj)
            problems.append(Problem("columns", tr("backup.wrong_columns", got=got, table=table.name,
                                                  columns=", ".join(columns)),
                                    tr("backup.fix_damaged"), where()))
            continue
        values: dict[str, Any] = {}
        row_ok = True
        for c in table.columns:
            try:
                values[c.name] = _from_json(obj[c.name], c.type, c.nullable)
            except (TypeError, ValueError, OverflowError) as exc:
                problems.append(Problem("invalid-value", tr("backup.bad_value", value=_short(obj[c.name]),
                                                            reason=exc),
                                        tr("backup.fix_damaged"), where(c.name)))
                row_ok = False
                continue
            value = values[c.name]
            if ("\x00" in value) if isinstance(value, str) else (isinstance(value, (dict, list))
                                                                  and _has_nul(value)):
                problems.append(Problem("invalid-value", tr("backup.nul"), tr("backup.fix_damaged"),
                                        where(c.name)))
                row_ok = False
        if row_ok and model is not None:
            before = len(problems)
            _check_row(model, values, where, problems)
            row_ok = len(problems) == before
        if row_ok:
            rows.append(values)
            kept.append(lineno)
    if len(lines) != meta["rows"]:
        problems.append(Problem("row-count", tr("backup.row_count", table=table.name, count=len(lines),
                                                expected=meta["rows"]),
                                tr("backup.fix_damaged"), tr("backup.where_member", member=member)))
    return rows, kept


def _check_keys(archive: _Archive, known: dict[str, Table], incomplete: set[str],
                problems: list[Problem]) -> None:
    """Primary keys and unique columns hold no duplicates; references point at restored rows."""
    from sqlalchemy import PrimaryKeyConstraint, UniqueConstraint

    tables = archive.tables
    keys: dict[tuple[str, str], set[Any]] = {}
    for name, rows in tables.items():
        table = known[name]
        member = f"tables/{name}.jsonl"
        groups = [tuple(c.name for c in con.columns) for con in table.constraints
                  if isinstance(con, (PrimaryKeyConstraint, UniqueConstraint))]
        groups += [tuple(c.name for c in ix.columns) for ix in table.indexes if ix.unique]
        for cols in groups:
            seen: dict[tuple[Any, ...], int] = {}
            for lineno, row in zip(archive.lines[name], rows, strict=True):
                value = tuple(row[c] for c in cols)
                if any(v is None for v in value):
                    continue
                if value in seen:
                    problems.append(Problem("duplicate", tr("backup.duplicate", columns=", ".join(cols),
                                                            value=_short(value if len(value) > 1 else value[0]),
                                                            first=seen[value]),
                                            tr("backup.fix_damaged"),
                                            tr("backup.where_cell", member=member, line=lineno, column=cols[0])))
                else:
                    seen[value] = lineno
    for table in known.values():
        for fk in table.foreign_keys:
            target = (fk.column.table.name, fk.column.name)
            if target not in keys:
                keys[target] = {row[target[1]] for row in tables.get(target[0], [])}
    for name, rows in tables.items():
        table = known[name]
        member = f"tables/{name}.jsonl"
        for fk in table.foreign_keys:
            target = (fk.column.table.name, fk.column.name)
            if target[0] in incomplete:
                continue
            present = keys.get(target, set())
            for lineno, row in zip(archive.lines[name], rows, strict=True):
                value = row[fk.parent.name]
                if value is not None and value not in present:
                    problems.append(Problem("reference", tr("backup.reference", value=_short(value),
                                                            table=target[0]),
                                            tr("backup.fix_damaged"),
                                            tr("backup.where_cell", member=member, line=lineno,
                                               column=fk.parent.name)))


def _read_art(zf: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo], art: dict[str, Any], source: str,
              budget: _Budget, archive: _Archive, problems: list[Problem]) -> None:
    probe = Path(tempfile.gettempdir()) / "cardbase-art-check"
    for rel, meta in sorted(art.items()):
        member_name = f"art/{rel}"
        where = tr("backup.where_member", member=member_name)
        try:
            safe_art_path(probe, rel)
        except ArtError as exc:
            problems.append(Problem("art-path", str(exc), tr("backup.fix_damaged"), where))
            continue
        member = members.get(member_name)
        if member is None:
            problems.append(Problem("missing-member", tr("backup.missing_member", member=member_name),
                                    tr("backup.fix_damaged"), where))
            continue
        try:
            data = _read_member(zf, member, source, limit=MAX_UPLOAD_BYTES, budget=budget)
        except _TooBig:
            problems.append(Problem("art-too-big", tr("backup.art_too_big", max=_mb(MAX_UPLOAD_BYTES)),
                                    tr("backup.fix_art"), where))
            continue
        if len(data) != meta["bytes"] or hashlib.sha256(data).hexdigest() != meta["sha256"]:
            problems.append(Problem("checksum", tr("backup.checksum", member=member_name),
                                    tr("backup.fix_edited"), where))
            continue
        try:
            fmt, _size = check_art_bytes(data, name=member_name)
        except ArtError as exc:
            problems.append(Problem("art", str(exc), tr("backup.fix_art"), where))
            continue
        suffix = PurePosixPath(rel).suffix.lower()
        if suffix not in {ART_FORMATS[fmt], ".jpeg" if fmt == "JPEG" else ART_FORMATS[fmt]}:
            problems.append(Problem("art", tr("backup.art_suffix", format=fmt, suffix=suffix or "—",
                                              expected=ART_FORMATS[fmt]), tr("backup.fix_art"), where))
            continue
        archive.art[rel] = data


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
        raise BackupError(tr("backup.schema_mismatch", source=path, revision=revision, head=head))
    counts = {k: v for k, v in row_counts(engine).items() if v}
    if counts:
        shown = ", ".join(f"{v} {k}" for k, v in counts.items())
        raise BackupError(tr("backup.not_empty", where=_where(engine), rows=shown))

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
                raise BackupError(f"{path}: {exc}") from None  # checked by read_archive already
            if target.exists():
                if target.read_bytes() != data:
                    conflicts.append(rel)
                continue
            art_targets.append((target, data))
        if conflicts:
            raise BackupError(tr("backup.art_conflict", source=path, art_dir=art_dir,
                                 names=", ".join(conflicts[:10]) + ("…" if len(conflicts) > 10 else "")))

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
        raise BackupError(tr("backup.write_failed", source=path, error=exc.__class__.__name__,
                             detail=str(exc).splitlines()[0])) from exc
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
