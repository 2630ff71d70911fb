"""A new SQLite database gets the newest schema in one step, without running the migrations.

Running the Alembic migrations on a new SQLite file costs about 0.13 s of CPU (Alembic's import,
its environment, three revisions of which two copy tables in batch mode), the largest fixed cost of
the app's first page after the imports (issue 29). On SQLite a schema *is* the text of its
``CREATE`` statements (``sqlite_master.sql``): ``sqlite_head.sql`` beside this file holds those
statements as the migrations leave them at the head revision, and :func:`create` replays them on a
database that has no table yet, then stamps that revision. ``tests/test_sqlite_schema.py`` checks
that the file is what the migrations make today (same statements, and the same tables, columns,
types, defaults, keys, indexes and constraints read back) and that both schemas hold the same seeded
data.

A file whose revision is not the newest (a migration added without running ``python -m
cardbase.storage.schema_snapshot``) is never used: the migrations run as before. PostgreSQL always runs
the migrations.
"""

from __future__ import annotations

import re
from pathlib import Path

from sqlalchemy.engine import Connection

from cardbase.storage.schema import head_revision

SNAPSHOT = Path(__file__).resolve().parent / "migrations" / "sqlite_head.sql"
_HEADER = re.compile(r"^-- revision: (\S+)$", re.M)
_END = ";\n\n"  # after every statement (no statement of the schema holds it)


def dump(conn: Connection) -> list[str]:
    """The schema's statements in the order SQLite keeps them (creation order: tables before their
    indexes); SQLite's own objects (automatic indexes) have no statement and are made again by them."""
    rows = conn.exec_driver_sql("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL "
                                "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid").all()
    return [row[0] for row in rows]


def render(revision: str, statements: list[str]) -> str:
    """The snapshot file's text for ``statements`` at ``revision``."""
    head = ("-- cardbase's SQLite schema as the migrations make it, replayed on a new database\n"
            "-- (cardbase/storage/sqlite_schema.py). Do not edit: run python -m cardbase.storage.schema_snapshot\n"
            f"-- revision: {revision}\n\n")
    return head + "".join(statement + _END for statement in statements)


def read(path: Path | None = None) -> tuple[str | None, list[str]]:
    """The snapshot's revision and statements (``(None, [])`` when there is no snapshot)."""
    try:
        content = (path or SNAPSHOT).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, []
    found = _HEADER.search(content)
    body = content[content.index("\n\n") + 2:] if "\n\n" in content else ""
    return (found.group(1) if found else None), [s for s in body.split(_END) if s.strip()]


def create(conn: Connection) -> bool:
    """Give a SQLite database that has no table the head schema and stamp it; False (nothing done)
    for another backend, a database with tables, or a snapshot that is not at the head revision.
    Runs in the caller's transaction (the start-up lock of :func:`cardbase.storage.db.init_db`)."""
    if conn.dialect.name != "sqlite":
        return False
    revision, statements = read()
    if revision is None or revision != head_revision() or not statements:
        return False
    if conn.exec_driver_sql("SELECT count(*) FROM sqlite_master").scalar():
        return False
    for statement in statements:
        conn.exec_driver_sql(statement)
    conn.exec_driver_sql("INSERT INTO alembic_version (version_num) VALUES (?)", (revision,))
    return True
