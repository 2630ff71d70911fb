"""Writes ``sqlite_head.sql`` (:mod:`cardbase.storage.sqlite_schema`) from the migrations: run
``python -m cardbase.storage.schema_snapshot`` after adding a migration (``tests/test_sqlite_schema.py``
says when the file is behind)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from cardbase.storage import db, sqlite_schema


def migrated_statements() -> tuple[str | None, list[str]]:
    """The head revision and the statements of a new SQLite database brought there by the
    migrations (a temporary file)."""
    with tempfile.TemporaryDirectory(prefix="cardbase-schema-") as tmp:
        engine = db.make_engine(f"sqlite:///{Path(tmp) / 'migrated.db'}")
        try:
            db.upgrade(engine)
            with engine.connect() as conn:
                return db.current_revision(engine), sqlite_schema.dump(conn)
        finally:
            engine.dispose()


def main() -> None:
    """Write ``sqlite_head.sql`` from the migrations (after adding a migration)."""
    revision, statements = migrated_statements()
    sqlite_schema.SNAPSHOT.write_text(sqlite_schema.render(revision or "", statements), encoding="utf-8")
    print(f"{sqlite_schema.SNAPSHOT}: {len(statements)} statements at revision {revision}")


if __name__ == "__main__":
    main()
