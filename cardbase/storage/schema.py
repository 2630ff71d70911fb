"""What a cardbase database is expected to be, in the standard library only: where it is
(``DATABASE_URL`` or the SQLite file under ``data/``), the newest schema revision (read from the
migration files as text) and the row saying it was seeded from ``data/``.

Shared by :mod:`cardbase.storage.db` (SQLAlchemy, migrations, seeding) and
:mod:`cardbase.storage.readonly` (the read-only path of the SQLite default, which must not load
SQLAlchemy): both ask the same questions with the same answers.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from cardbase import config

DATA_DIR = config.DATA_DIR
DEFAULT_DB_PATH = DATA_DIR / "cardbase.db"
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

# The row of ``seed_item`` saying that the database was seeded from ``data/`` (see cardbase.catalog.seed).
SEED_MARKER = ("data", "data/")


def database_url(url: str | None = None) -> str:
    """``url``, else ``DATABASE_URL`` (old PostgreSQL driver names mapped to psycopg 3), else the
    default SQLite file."""
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


_REVISION_LINE = re.compile(r"""^(revision|down_revision)\s*(?::[^=\n]*)?=\s*(?:['"]([^'"]*)['"]|None)""", re.M)
_GRAPH: dict[str, str | None] = {}


def revision_graph() -> dict[str, str | None]:
    """Every schema revision cardbase knows → the one before it, read from the revision files.

    Read as text, without importing Alembic, so that a command on a database already at the newest
    schema starts fast; ``tests/test_db.py`` checks that it agrees with Alembic's own reading.
    """
    if not _GRAPH:
        for path in sorted((MIGRATIONS_DIR / "versions").glob("*.py")):
            found = {m.group(1): m.group(2) for m in _REVISION_LINE.finditer(path.read_text(encoding="utf-8"))}
            if found.get("revision"):
                _GRAPH[found["revision"]] = found.get("down_revision") or None
    return _GRAPH


def head_revision() -> str | None:
    """The newest schema revision this version of cardbase knows."""
    graph = revision_graph()
    heads = set(graph) - {down for down in graph.values() if down}
    return max(heads) if heads else None
