"""Database engine, sessions, migrations and first-run seeding.

``DATABASE_URL`` selects the database (any SQLAlchemy URL; ``postgresql+psycopg://…`` for a team).
Without it cardbase uses a SQLite file under ``data/`` that is created, migrated and seeded from the
files in ``data/`` on first use.

Start-up (:func:`init_db`) never bricks a database:

- a quick read checks whether the schema is at the newest revision and whether the database
  was seeded from ``data/`` (once: see :mod:`cardbase.catalog.seed`); most starts stop there and take no
  lock;
- otherwise migrating and seeding run in **one transaction** under an exclusive lock
  (``BEGIN IMMEDIATE`` on SQLite, ``pg_advisory_xact_lock`` on PostgreSQL), re-checking after the
  lock is taken: several first runs at once wait for each other, and a process killed half-way
  leaves the database as it was. On SQLite the start-up connection turns pysqlite's own
  transaction handling off so that DDL is transactional too (SQLAlchemy's SQLite dialect notes,
  "Serializable isolation / Savepoints / Transactional DDL");
- a lock that persists becomes a clear message after ``CARDBASE_DB_LOCK_TIMEOUT`` seconds (30);
  a server that cannot be reached becomes one line naming host and port after
  ``CARDBASE_DB_CONNECT_TIMEOUT`` seconds (5). Messages never show a password;
- Alembic gets the connection itself, never the URL text.
- a new SQLite file is not migrated step by step: it gets the schema the migrations make, stored
  as its statements (:mod:`cardbase.storage.sqlite_schema`), and the head revision's stamp.
"""

from __future__ import annotations

import importlib
import os
import threading
import weakref
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, inspect, text
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.pool import NullPool
from sqlmodel import Session, create_engine

from cardbase import config
from cardbase.errors import CardbaseError
from cardbase.i18n import tr
from cardbase.storage.schema import (  # noqa: F401 - where the database is, its newest schema
    DATA_DIR,
    DEFAULT_DB_PATH,
    MIGRATIONS_DIR,
    SEED_MARKER,
    database_url,
    head_revision,
    revision_graph,
)

BUSY_TIMEOUT_MS = 10_000  # an ordinary SQLite write waits this long for another writer

# Key of the PostgreSQL advisory lock held while a database is migrated and seeded.
INIT_LOCK_KEY = zlib.crc32(b"cardbase start-up") & 0x7FFFFFFF

_engines: dict[str, Engine] = {}
# How long each engine's connections wait for a lock (seconds), for the "busy" message.
_waits: weakref.WeakKeyDictionary[Engine, float] = weakref.WeakKeyDictionary()
_init_reports: dict[str, InitReport] = {}
_lock = threading.Lock()


class DatabaseError(CardbaseError):
    """The database cannot be opened or used (unreachable, busy, not a database)."""


class DatabaseUnavailable(DatabaseError):
    """The database cannot be reached or opened."""


class DatabaseBusy(DatabaseError):
    """Another process holds the database lock for longer than cardbase waits."""


class InitReport(dict):
    """What start-up added (``{"games": 0, "editions": 2, …}``) and the warnings of seeding."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.warnings: list[str] = []
        self.migrated_from: str | None = None
        self.migrated: bool = False


def lock_timeout() -> float:
    """Seconds start-up waits for another process's lock before giving up with a message."""
    return _env_seconds("CARDBASE_DB_LOCK_TIMEOUT", 30.0)


def connect_timeout() -> int:
    """Seconds to wait for a database server to answer."""
    return max(1, int(_env_seconds("CARDBASE_DB_CONNECT_TIMEOUT", 5.0)))


def _env_seconds(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        return default
    return value if value > 0 else default


# --------------------------------------------------------------------------- URLs and engines

def _parse_url(url: str | URL) -> URL:
    if isinstance(url, URL):
        return url
    try:
        return make_url(url)
    except (sa_exc.ArgumentError, ValueError):
        # The text may hold a password: never repeat it.
        raise DatabaseUnavailable(tr("db.bad_url")) from None


def describe(url: str | URL) -> str:
    """Where the database is, for messages: a SQLite path or ``host:port/name``; no password."""
    u = _parse_url(url)
    if u.get_backend_name() == "sqlite":
        return u.database or ":memory:"
    port = u.port or {"postgresql": 5432, "mysql": 3306, "mariadb": 3306}.get(u.get_backend_name(), "")
    where = f"{u.host or 'localhost'}:{port}" if port else (u.host or "localhost")
    return f"{where}/{u.database}" if u.database else where


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    try:
        cur.execute("PRAGMA journal_mode=WAL")
    except Exception:  # another process is switching it at this moment: it is persistent anyway
        pass
    cur.close()


def make_engine(url: str | URL | None = None) -> Engine:
    """A new engine for ``url`` (or ``DATABASE_URL``, or the default SQLite file)."""
    parsed = _parse_url(url if url is not None else database_url())
    backend = parsed.get_backend_name()
    try:
        if backend == "sqlite":
            if parsed.database and parsed.database != ":memory:" and not parsed.database.startswith("file:"):
                try:
                    Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise DatabaseUnavailable(tr("db.sqlite_cannot_open", path=parsed.database,
                                                  detail=exc.strerror or str(exc))) from None
            engine = create_engine(parsed, connect_args={"check_same_thread": False,
                                                         "timeout": BUSY_TIMEOUT_MS / 1000})
            event.listen(engine, "connect", _sqlite_pragmas)
            _waits[engine] = BUSY_TIMEOUT_MS / 1000
        else:
            connect_args: dict[str, Any] = {}
            if backend == "postgresql" and "connect_timeout" not in parsed.query:
                connect_args["connect_timeout"] = connect_timeout()
            engine = create_engine(parsed, pool_pre_ping=True, connect_args=connect_args)
    except (sa_exc.NoSuchModuleError, ImportError) as exc:
        raise DatabaseUnavailable(tr("db.unknown_driver", driver=parsed.drivername,
                                      detail=type(exc).__name__)) from None
    event.listen(engine, "handle_error", _on_db_error)
    return engine


def _on_db_error(context) -> None:
    """Every engine: 'cannot connect', 'locked', 'not a database' become a :class:`DatabaseError`
    wherever they happen (a command, a page, a dump), so none reaches a user as a traceback."""
    if context.is_pre_ping or context.sqlalchemy_exception is None or context.engine is None:
        return
    friendly = friendly_error(context.sqlalchemy_exception, context.engine.url,
                              wait=_waits.get(context.engine))
    if friendly is not None:
        raise friendly


def get_engine(url: str | None = None, *, init: bool = True) -> Engine:
    """The shared engine for ``url``; migrated and seeded on first use when ``init`` is true."""
    url = database_url(url)
    with _lock:
        engine = _engines.get(url)
        if engine is None:
            engine = make_engine(url)
            if init:
                try:
                    _init_reports[url] = init_db(engine)
                except BaseException:
                    engine.dispose()
                    raise
            _engines[url] = engine
    return engine


def init_warnings(url: str | None = None) -> list[str]:
    """The seeding warnings of the last start-up of ``url`` in this process (see ``cardbase init``)."""
    report = _init_reports.get(database_url(url))
    return list(report.warnings) if report else []


def dispose_engines() -> None:
    with _lock:
        for engine in _engines.values():
            engine.dispose()
        _engines.clear()
        _init_reports.clear()


# --------------------------------------------------------------------------- errors

def _scrub(message: str, url: URL) -> str:
    from urllib.parse import quote, quote_plus

    password = url.password
    if password:
        for form in {str(password), quote(str(password), safe=""), quote_plus(str(password))}:
            if form:
                message = message.replace(form, "***")
    return message


def friendly_error(exc: BaseException, url: str | URL, *, wait: float | None = None
                   ) -> DatabaseError | None:
    """The clear message for a database error that is not the user's data (None: a real bug).

    ``wait``: how long the connection waited for a lock (default: the start-up wait)."""
    if not isinstance(exc, sa_exc.DBAPIError):
        return None
    u = _parse_url(url)
    orig = exc.orig
    lines = [ln.strip() for ln in str(orig if orig is not None else exc).strip().splitlines() if ln.strip()]
    detail = _scrub(lines[0] if lines else type(orig).__name__, u)
    low = detail.lower()
    where = describe(u)
    if u.get_backend_name() == "sqlite":
        if "locked" in low or "busy" in low:
            return DatabaseBusy(tr("db.busy", where=where,
                                   seconds=_fmt_seconds(wait if wait is not None else lock_timeout())))
        if "not a database" in low or "malformed" in low or "disk image" in low:
            return DatabaseUnavailable(tr("db.sqlite_not_a_database", path=where, detail=detail))
        if exc.statement is None or "unable to open" in low or "readonly" in low:
            return DatabaseUnavailable(tr("db.sqlite_cannot_open", path=where, detail=detail))
        return None
    sqlstate = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if sqlstate == "55P03" or "lock timeout" in low:
        return DatabaseBusy(tr("db.busy", where=where, seconds=_fmt_seconds(lock_timeout())))
    if exc.statement is None or exc.connection_invalidated or sqlstate in ("28P01", "28000", "3D000"):
        host = f"{u.host or 'localhost'}:{u.port or 5432}"
        return DatabaseUnavailable(tr("db.unreachable", host=host, database=u.database or "",
                                       detail=detail))
    return None


def _fmt_seconds(value: float) -> str:
    return f"{value:g}"


@contextmanager
def translate_errors(url: str | URL, *, wait: float | None = None) -> Iterator[None]:
    """Turn 'cannot connect', 'locked' and 'not a database' into a :class:`DatabaseError`."""
    try:
        yield
    except sa_exc.DBAPIError as exc:
        friendly = friendly_error(exc, url, wait=wait)
        if friendly is None:
            raise
        raise friendly from None


@contextmanager
def session_scope(engine: Engine | None = None) -> Iterator[Session]:
    """A session in one transaction: committed on success, rolled back on any error."""
    engine = engine or get_engine()
    with translate_errors(engine.url, wait=_waits.get(engine)):
        with Session(engine, expire_on_commit=False) as session:
            try:
                yield session
                session.commit()
            except BaseException:
                session.rollback()
                raise


# --------------------------------------------------------------------------- migrations

def alembic_config(engine: Engine | None = None, *, connection: Connection | None = None):
    """The Alembic configuration: the migrations folder and the engine or connection to use.

    The URL never goes into the configuration: its text passes through configparser (a ``%`` in
    a password breaks it) and would be shown in Alembic's messages.
    """
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    if engine is not None:
        cfg.attributes["engine"] = engine
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def _known_revisions() -> set[str]:
    return set(revision_graph())


def _revision_of(conn: Connection) -> str | None:
    """The schema revision stamped in the database (None for a database without one)."""
    if not inspect(conn).has_table("alembic_version"):
        return None
    return conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()


def _check_known(revision: str | None, url: URL) -> None:
    if revision is not None and revision not in _known_revisions():
        raise DatabaseError(tr("db.newer_schema", where=describe(url), revision=revision))


def _upgrade_on(conn: Connection, revision: str = "head") -> None:
    from alembic import command

    command.upgrade(alembic_config(connection=conn), revision)


def _create_sqlite_head(conn: Connection) -> bool:
    from cardbase.storage import sqlite_schema

    return sqlite_schema.create(conn)


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to ``revision`` with the Alembic migrations, in one locked transaction."""
    with translate_errors(engine.url), _init_connection(engine) as conn:
        _check_known(_revision_of(conn), engine.url)
        _upgrade_on(conn, revision)


def current_revision(engine: Engine) -> str | None:
    with translate_errors(engine.url), engine.connect() as conn:
        return _revision_of(conn)


# --------------------------------------------------------------------------- start-up

def _sqlite_init_connect(dbapi_connection, _record) -> None:
    # pysqlite's own transaction handling commits before DDL; turn it off and say BEGIN ourselves
    # (see _sqlite_init_begin), so that CREATE TABLE belongs to the transaction.
    dbapi_connection.isolation_level = None
    cur = dbapi_connection.cursor()
    # Off while migrating, as SQLite's own procedure for schema changes says (a batch migration
    # copies and drops tables; the pragma cannot change inside a transaction): every foreign key
    # is checked before the commit instead (_init_connection).
    cur.execute("PRAGMA foreign_keys=OFF")
    cur.execute(f"PRAGMA busy_timeout={int(lock_timeout() * 1000)}")
    try:
        cur.execute("PRAGMA journal_mode=WAL")
    except Exception:
        pass
    cur.close()


def _sqlite_init_begin(conn: Connection) -> None:
    # IMMEDIATE: take the write lock now, so two first runs never both decide to create tables.
    conn.exec_driver_sql("BEGIN IMMEDIATE")


@contextmanager
def _init_connection(engine: Engine) -> Iterator[Connection]:
    """One transaction holding the start-up lock; committed at the end, rolled back on error."""
    backend = engine.dialect.name
    if backend == "sqlite" and engine.url.database not in (None, "", ":memory:"):
        init_engine = create_engine(engine.url, poolclass=NullPool,
                                    connect_args={"check_same_thread": False,
                                                  "timeout": lock_timeout()})
        event.listen(init_engine, "connect", _sqlite_init_connect)
        event.listen(init_engine, "begin", _sqlite_init_begin)
        event.listen(init_engine, "handle_error", _on_db_error)
        _waits[init_engine] = lock_timeout()
        try:
            with init_engine.connect() as conn, conn.begin():
                yield conn
                broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    tables = ", ".join(sorted({str(row[0]) for row in broken}))
                    raise DatabaseError(tr("db.foreign_keys_broken", where=describe(engine.url),
                                           tables=tables, count=len(broken)))
        finally:
            init_engine.dispose()
        return
    with engine.connect() as conn, conn.begin():
        if backend == "postgresql":
            conn.execute(text(f"SET LOCAL lock_timeout = '{int(lock_timeout() * 1000)}ms'"))
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": INIT_LOCK_KEY})
        yield conn


def _up_to_date(engine: Engine, seed: bool, data_dir: Path | None, report: InitReport) -> bool:
    """True when the schema is current and the database was seeded (a read, no lock)."""
    with engine.connect() as conn:
        revision = _revision_of(conn)
        _check_known(revision, engine.url)
        if revision != head_revision():
            return False
        if not seed:
            return True
        # the seed marker read directly: a start on a seeded database loads no seeding code
        kind, origin = SEED_MARKER
        return conn.execute(text("SELECT 1 FROM seed_item WHERE kind = :kind AND origin = :origin"),
                            {"kind": kind, "origin": origin}).first() is not None


def seeder() -> Any:
    """The seeding service, ``seeder(connection, data_dir) -> InitReport``: the function named by
    :data:`cardbase.config.SEEDER` (the catalog's ``seed_database``). Storage runs it on a database
    never seeded but does not import it: seeding is a service of the layer above."""
    module, _, name = config.SEEDER.partition(":")
    return getattr(importlib.import_module(module), name)


def init_db(engine: Engine, *, seed: bool = True, reset: bool = False,
            data_dir: Path | None = None) -> InitReport:
    """Migrate to the newest schema and seed a database never seeded from ``data/``. Idempotent.

    Safe against a kill at any point (one transaction) and against several processes starting at
    once (a lock, then a second look). Returns the counts of what was added and the warnings.
    """
    report = InitReport()
    with translate_errors(engine.url):
        if not reset:
            check = InitReport()
            if _up_to_date(engine, seed, data_dir, check):
                report.warnings = check.warnings
                if seed:
                    report.update({k: 0 for k in ("games", "sticker_colours", "editions", "decks")})
                return report
        with _init_connection(engine) as conn:
            if reset:
                _drop_all_on(conn)
            before = _revision_of(conn)
            _check_known(before, engine.url)
            if before != head_revision():
                # a new SQLite file gets the head schema in one step (the migrations' own result)
                if before is not None or not _create_sqlite_head(conn):
                    _upgrade_on(conn)
                report.migrated, report.migrated_from = True, before
            if seed:
                seeded = seeder()(conn, data_dir)
                report.update(seeded)
                report.warnings = seeded.warnings
    return report


def _drop_all_on(conn: Connection) -> None:
    from sqlmodel import SQLModel

    import cardbase.storage.models  # noqa: F401 - registers the tables

    SQLModel.metadata.drop_all(conn)
    if inspect(conn).has_table("alembic_version"):
        conn.exec_driver_sql("DROP TABLE alembic_version")


def drop_all(engine: Engine) -> None:
    """Drop every table, the Alembic version table included (one transaction, under the lock)."""
    with translate_errors(engine.url), _init_connection(engine) as conn:
        _drop_all_on(conn)
