"""The read-only path of the SQLite default: the standard library's ``sqlite3`` and plain rows,
for the commands that only read (``cards search``, ``cards show``, ``deck validate``,
``deck stats``, the cards of a batch of games, of a print and of a render) and start without loading SQLAlchemy, SQLModel or
pydantic.

It is taken only when nothing but reading is left to do: the database is a SQLite file that
exists, in WAL mode, stamped with the newest schema revision and seeded from ``data/``
(:mod:`cardbase.storage.schema`). In every other case — no file yet, a migration or the first
seeding pending, PostgreSQL or another ``DATABASE_URL``, a database locked or changed while it was
read, ``CARDBASE_FAST_READS=0`` — :func:`read` runs the same work on a SQLAlchemy session
(:func:`cardbase.storage.db.session_scope`), exactly as before, so what a command prints never
depends on the path it took.

The file is opened read-only (``file:…?mode=ro``) and read in one transaction, so that every
query of a command sees the same snapshot. Rows are :class:`GameRow`, :class:`EditionRow` and
:class:`CardRow`: the attributes of the SQLModel tables (:mod:`cardbase.storage.models`) with the
values SQLAlchemy gives (JSON decoded, booleans, dates), so that the code above reads either kind
alike. ``tests/test_readonly.py`` checks the columns against the tables and every read-only command
against the full path, byte for byte.

The SQL is written as SQLAlchemy writes it for these tables (same columns, same clauses, same
order), so that rows without an ``ORDER BY`` come in the same order too.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import quote, unquote

from cardbase.storage.schema import SEED_MARKER, database_url, head_revision

__all__ = ["CARD_COLUMNS", "EDITION_COLUMNS", "FAST_READS_ENV", "GAME_COLUMNS", "CardRow",
           "EditionRow", "GameRow", "ReadOnlyDB", "applies", "change_stamp", "in_marks", "open_read_only", "read", "sqlite_path"]

T = TypeVar("T")

# ``CARDBASE_FAST_READS=0`` (or off, no, false): every read goes through SQLAlchemy.
FAST_READS_ENV = "CARDBASE_FAST_READS"


# --------------------------------------------------------------------------- rows

@dataclass(slots=True, eq=False)
class GameRow:
    """A row of ``game`` (:class:`cardbase.storage.models.Game`)."""

    id: int
    code: str
    name: str
    min_players: int | None
    max_players: int | None
    deck_size: int | None
    copy_limit: int | None
    keyword_limits: dict[str, int]
    rules_file: str | None
    description: str | None
    template: str | None
    fields: list[dict[str, Any]]
    version: int
    origin: str | None


@dataclass(slots=True, eq=False)
class EditionRow:
    """A row of ``edition`` (:class:`cardbase.storage.models.Edition`)."""

    id: int
    game_id: int
    code: str
    name: str
    release_date: dt.date | None
    set_size: int
    symbol: str | None
    description: str | None
    sample: bool
    version: int
    origin: str | None


@dataclass(slots=True, eq=False)
class CardRow:
    """A row of ``card`` (:class:`cardbase.storage.models.Card`), search keys included."""

    id: int
    edition_id: int
    number: int
    name: str
    value: int | None
    colour: str | None
    banner: str | None
    rarity: str | None
    card_type: str | None
    keywords: list[str]
    effect: str | None
    effect_text: str | None
    flavour: str | None
    art: str | None
    copies: int
    stats: dict[str, Any]
    sample: bool
    version: int
    updated_at: dt.datetime
    origin: str | None
    name_key: str
    text_key: str
    colour_key: str
    banner_key: str
    rarity_key: str
    type_key: str
    keywords_key: str


def _json(value: Any) -> Any:
    return None if value is None else json.loads(value)


def _bool(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _date(value: Any) -> dt.date | None:
    return None if value is None else dt.date.fromisoformat(value)


def _utc_datetime(value: Any) -> dt.datetime | None:
    """SQLModel's ``UTCDateTime``: stored without an offset, read back as UTC."""
    if value is None:
        return None
    moment = dt.datetime.fromisoformat(value)
    return moment.replace(tzinfo=dt.UTC) if moment.utcoffset() is None else moment.astimezone(dt.UTC)


# The columns in the tables' order, and how SQLAlchemy turns a stored value into Python's.
GAME_COLUMNS = ("id", "code", "name", "min_players", "max_players", "deck_size", "copy_limit",
                "keyword_limits", "rules_file", "description", "template", "fields", "version",
                "origin")
EDITION_COLUMNS = ("id", "game_id", "code", "name", "release_date", "set_size", "symbol",
                   "description", "sample", "version", "origin")
CARD_COLUMNS = ("id", "edition_id", "number", "name", "value", "colour", "banner", "rarity",
                "card_type", "keywords", "effect", "effect_text", "flavour", "art", "copies",
                "stats", "sample", "version", "updated_at", "origin", "name_key", "text_key",
                "colour_key", "banner_key", "rarity_key", "type_key", "keywords_key")
_CONVERT: dict[str, Callable[[Any], Any]] = {
    "keyword_limits": _json, "fields": _json, "keywords": _json, "stats": _json,
    "sample": _bool, "release_date": _date, "updated_at": _utc_datetime,
}


class _Table:
    """How one table is read: its SELECT list and the row class it gives."""

    def __init__(self, name: str, columns: tuple[str, ...], row: type) -> None:
        self.name, self.columns, self.row = name, columns, row
        self.select = ", ".join(f"{name}.{c}" for c in columns)
        self.width = len(columns)
        self.converters = tuple((i, _CONVERT[c]) for i, c in enumerate(columns) if c in _CONVERT)

    def make(self, values: Sequence[Any]) -> Any:
        out = list(values)
        for i, convert in self.converters:
            out[i] = convert(out[i])
        return self.row(*out)


GAME = _Table("game", GAME_COLUMNS, GameRow)
EDITION = _Table("edition", EDITION_COLUMNS, EditionRow)
CARD = _Table("card", CARD_COLUMNS, CardRow)


# --------------------------------------------------------------------------- the database

class ReadOnlyDB:
    """One read-only snapshot of a SQLite database: every query of one read transaction.

    ``where``, ``order`` and ``params`` are SQL text and its ``?`` values, written by the layers
    above as they write SQLAlchemy clauses over the tables; the columns are named ``table.column``.
    """

    def __init__(self, connection: sqlite3.Connection, path: str) -> None:
        self._conn = connection
        self.path = path

    # a context manager: the transaction ends and the file is closed on exit
    def __enter__(self) -> ReadOnlyDB:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        try:
            self._conn.close()
        except sqlite3.Error:
            pass

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of any SELECT, as the driver gives them (JSON text, 0/1 for booleans)."""
        return self._conn.execute(sql, tuple(params)).fetchall()

    @staticmethod
    def json(value: Any) -> Any:
        """A JSON column's value as SQLAlchemy gives it (None stays None)."""
        return _json(value)

    def _select(self, table: _Table, where: str, params: Sequence[Any], order: str,
                limit: int | None, join: str = "") -> list[Any]:
        sql, args = _sql(f"SELECT {table.select} FROM {table.name}{join}", where, params, order, limit)
        return [table.make(r) for r in self._conn.execute(sql, args)]

    def games(self, where: str = "", params: Sequence[Any] = (), *, order: str = "",
              limit: int | None = None) -> list[GameRow]:
        return self._select(GAME, where, params, order, limit)

    def editions(self, where: str = "", params: Sequence[Any] = (), *, order: str = "",
                 limit: int | None = None) -> list[EditionRow]:
        return self._select(EDITION, where, params, order, limit)

    def cards(self, where: str = "", params: Sequence[Any] = (), *, order: str = "",
              limit: int | None = None, join_edition: bool = False) -> list[CardRow]:
        """Cards; ``join_edition``: the clause may name ``edition`` columns too."""
        join = " JOIN edition ON edition.id = card.edition_id" if join_edition else ""
        return self._select(CARD, where, params, order, limit, join)

    def card_rows(self, where: str = "", params: Sequence[Any] = (), *, order: str = "",
                  limit: int | None = None) -> list[tuple[CardRow, EditionRow, GameRow]]:
        """Cards with their edition and game (the clause may name the three tables)."""
        sql, args = _sql(f"SELECT {CARD.select}, {EDITION.select}, {GAME.select} FROM card "
                         "JOIN edition ON card.edition_id = edition.id "
                         "JOIN game ON edition.game_id = game.id", where, params, order, limit)
        a, b = CARD.width, CARD.width + EDITION.width
        return [(CARD.make(r[:a]), EDITION.make(r[a:b]), GAME.make(r[b:]))
                for r in self._conn.execute(sql, args)]


def in_marks(count: int) -> str:
    """The ``?`` of ``column IN (…)`` for ``count`` values; an empty list as SQLAlchemy writes it
    (a sub-select of no row: false, not NULL)."""
    return ", ".join("?" * count) if count else "SELECT 1 FROM (SELECT 1) WHERE 1!=1"


def _sql(head: str, where: str, params: Sequence[Any], order: str, limit: int | None
         ) -> tuple[str, list[Any]]:
    """A SELECT with its clauses as SQLAlchemy writes them (``LIMIT ? OFFSET ?``)."""
    sql, args = head, list(params)
    if where:
        sql += f" WHERE {where}"
    if order:
        sql += f" ORDER BY {order}"
    if limit is not None:
        sql += " LIMIT ? OFFSET ?"
        args += [limit, 0]
    return sql, args


def sqlite_path(url: str) -> str | None:
    """The file of a plain ``sqlite:///PATH`` URL (read as SQLAlchemy reads it); None for any
    other URL: another database, a driver option, an in-memory or ``file:`` database."""
    found = re.fullmatch(r"sqlite(?:\+pysqlite)?:///([^?]*)", url)
    if found is None:
        return None
    path = unquote(found.group(1))
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    return path


def change_stamp(url: str | None = None) -> tuple[int, ...] | None:
    """What changes whenever a plain SQLite file is written (the size and time of the file and of
    its write-ahead log), for a cache to know its copy is out of date; None for another database
    (no such stamp: a cache of it keeps a time limit)."""
    path = sqlite_path(database_url(url))
    if path is None:
        return None
    stamp: list[int] = []
    for name in (path, path + "-wal"):
        try:
            found = os.stat(name)
        except OSError:
            stamp += [-1, -1]
        else:
            stamp += [found.st_mtime_ns, found.st_size]
    return tuple(stamp)


def _fast_reads_off() -> bool:
    return os.environ.get(FAST_READS_ENV, "").strip().lower() in ("0", "off", "no", "false")


def applies(url: str | None = None) -> bool:
    """Whether the read-only path may take this database once it is created, migrated and seeded:
    a plain SQLite file, fast reads not turned off."""
    return not _fast_reads_off() and sqlite_path(database_url(url)) is not None


def open_read_only(url: str | None = None) -> ReadOnlyDB | None:
    """A read-only snapshot of the database when nothing but reading is left to do, else None
    (then the full path must open it: it creates, migrates or seeds it, or says what is wrong)."""
    if not applies(url):
        return None
    path = sqlite_path(database_url(url))
    if path is None or not os.path.isfile(path):
        return None
    try:
        # timeout 0: a lock is the full path's business (it waits, then says so)
        conn = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True,
                               timeout=0, isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        # The full path would switch another journal mode to WAL: a write, left to it.
        ready = conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        if ready:
            conn.execute("BEGIN")  # one snapshot for the checks and every read after them
            revision = conn.execute("SELECT version_num FROM alembic_version").fetchone()
            ready = revision is not None and revision[0] == head_revision() and conn.execute(
                "SELECT 1 FROM seed_item WHERE kind = ? AND origin = ?", SEED_MARKER
            ).fetchone() is not None
    except sqlite3.Error:  # no such table (not migrated), not a database, locked…
        ready = False
    if not ready:
        conn.close()
        return None
    return ReadOnlyDB(conn, path)


def read(work: Callable[[Any], T], url: str | None = None, *,
         session: Callable[[], AbstractContextManager[Any]] | None = None) -> T:
    """``work(source)`` on a :class:`ReadOnlyDB` when the read-only path applies, else on a
    SQLAlchemy session (created, migrated and seeded first if need be; ``session``: the caller's
    own way to open one, e.g. the app's, which shows a database error as a message). ``work`` only
    reads; when the snapshot fails under it (the file locked, replaced or damaged meanwhile) it
    runs again on the full path, which gives the same answer or the usual message."""
    db = open_read_only(url)
    if db is not None:
        try:
            with db:
                return work(db)
        except sqlite3.ProgrammingError:  # a mistake in the SQL of the read path: a bug
            raise
        except sqlite3.DatabaseError:
            pass
    if session is not None:
        with session() as source:
            return work(source)
    from cardbase.storage.db import get_engine, session_scope

    with session_scope(get_engine(url)) as source:
        return work(source)
