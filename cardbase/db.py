"""Database engine, sessions, migrations and first-run seeding.

``DATABASE_URL`` selects the database (any SQLAlchemy URL; ``postgresql+psycopg://…`` for a team).
Without it cardbase uses a SQLite file under ``data/`` that is created, migrated and seeded from the
files in ``data/`` on first use.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import event, inspect
from sqlalchemy.engine import Engine, make_url
from sqlmodel import Session, create_engine

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_DIR = PACKAGE_DIR.parent
DATA_DIR = Path(os.environ.get("CARDBASE_DATA_DIR", PROJECT_DIR / "data"))
DEFAULT_DB_PATH = DATA_DIR / "cardbase.db"
MIGRATIONS_DIR = PACKAGE_DIR / "migrations"

_engines: dict[str, Engine] = {}
_lock = threading.Lock()


def database_url(url: str | None = None) -> str:
    if url:
        return url
    env = os.environ.get("DATABASE_URL")
    if env:
        # Heroku-style URLs name the old driver; psycopg 3 is the one we ship.
        if env.startswith("postgres://"):
            env = "postgresql+psycopg://" + env[len("postgres://"):]
        elif env.startswith("postgresql://"):
            env = "postgresql+psycopg://" + env[len("postgresql://"):]
        return env
    return f"sqlite:///{DEFAULT_DB_PATH}"


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    try:
        cur.execute("PRAGMA journal_mode=WAL")
    except Exception:
        pass
    cur.close()


def make_engine(url: str | None = None) -> Engine:
    """A new engine for ``url`` (or ``DATABASE_URL``, or the default SQLite file)."""
    url = database_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 10})
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        engine = create_engine(url, pool_pre_ping=True)
    return engine


def get_engine(url: str | None = None, *, init: bool = True) -> Engine:
    """The shared engine for ``url``; migrated and seeded on first use when ``init`` is true."""
    url = database_url(url)
    with _lock:
        engine = _engines.get(url)
        if engine is None:
            engine = make_engine(url)
            if init:
                init_db(engine)
            _engines[url] = engine
    return engine


def dispose_engines() -> None:
    with _lock:
        for engine in _engines.values():
            engine.dispose()
        _engines.clear()


@contextmanager
def session_scope(engine: Engine | None = None) -> Iterator[Session]:
    """A session in one transaction: committed on success, rolled back on any error."""
    engine = engine or get_engine()
    with Session(engine, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


def alembic_config(engine: Engine):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    cfg.attributes["engine"] = engine
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to ``revision`` with the Alembic migrations."""
    from alembic import command

    command.upgrade(alembic_config(engine), revision)


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def init_db(engine: Engine, *, seed: bool = True, reset: bool = False) -> dict[str, int]:
    """Migrate to the newest schema and seed what is missing from ``data/``. Idempotent."""
    if reset:
        drop_all(engine)
    upgrade(engine)
    if not seed:
        return {}
    from cardbase.seed import seed_database

    return seed_database(engine)


def drop_all(engine: Engine) -> None:
    """Drop every table, the Alembic version table included."""
    from sqlmodel import SQLModel

    import cardbase.models  # noqa: F401 - registers the tables

    SQLModel.metadata.drop_all(engine)
    with engine.begin() as conn:
        if inspect(conn).has_table("alembic_version"):
            conn.exec_driver_sql("DROP TABLE alembic_version")
