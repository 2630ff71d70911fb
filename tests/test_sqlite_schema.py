"""A new SQLite database gets the head schema from ``sqlite_head.sql`` instead of running the
migrations (issue 29): the schema so created is exactly the one the migrations make — statements,
tables, columns, types, defaults, keys, indexes, constraints — and so is what seeding puts in it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import inspect
from sqlalchemy.engine import Engine

from cardbase.storage import db, schema_snapshot, sqlite_schema
from cardbase.storage.schema import head_revision

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.sqlite_only("the schema file is SQLite's; PostgreSQL runs the migrations")
TIMES = {"updated_at", "created_at", "saved_at", "pulled_at"}  # the moment of seeding differs


@pytest.fixture
def two_new_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """``make(name, migrations=…)``: a new SQLite database started the way ``init_db`` starts it,
    through the schema file or (``migrations=True``) through the migrations."""
    engines: list[Engine] = []

    def make(name: str, *, migrations: bool, seed: bool = False) -> Engine:
        engine = db.make_engine(f"sqlite:///{tmp_path / name}")
        engines.append(engine)
        with monkeypatch.context() as m:
            if migrations:
                m.setattr(db, "_create_sqlite_head", lambda _conn: False)
            used: list[bool] = []
            real = sqlite_schema.create
            m.setattr(sqlite_schema, "create", lambda conn: used.append(real(conn)) or used[-1])
            report = db.init_db(engine, seed=seed)
        assert report.migrated and report.migrated_from is None
        assert used == ([] if migrations else [True])  # the path asked for is the path taken
        return engine

    yield make
    for engine in engines:
        engine.dispose()


def _schema(engine: Engine) -> dict:
    """Everything SQLAlchemy and SQLite say of a schema, table by table, columns in their order."""
    out: dict = {}
    with engine.connect() as conn:
        insp = inspect(conn)
        for table in sorted(insp.get_table_names()):
            out[table] = {
                "columns": [(c["name"], str(c["type"]), c["nullable"], c.get("default"), c.get("autoincrement"))
                            for c in insp.get_columns(table)],
                "primary_key": insp.get_pk_constraint(table),
                "foreign_keys": sorted(insp.get_foreign_keys(table), key=repr),
                "indexes": sorted(insp.get_indexes(table), key=lambda i: i["name"]),
                "unique": sorted(insp.get_unique_constraints(table), key=repr),
                "checks": sorted(insp.get_check_constraints(table), key=repr),
                "pragma_columns": conn.exec_driver_sql(f"PRAGMA table_info('{table}')").all(),
                "pragma_indexes": sorted(conn.exec_driver_sql(f"PRAGMA index_list('{table}')").all()),
                "pragma_foreign_keys": conn.exec_driver_sql(f"PRAGMA foreign_key_list('{table}')").all(),
            }
        out["sqlite_master"] = conn.exec_driver_sql(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all()
        out["stamp"] = conn.exec_driver_sql("SELECT version_num FROM alembic_version").all()
    return out


def test_the_schema_file_is_what_the_migrations_make_today() -> None:
    revision, statements = schema_snapshot.migrated_statements()
    assert revision == head_revision()
    assert sqlite_schema.read() == (revision, statements), (
        "cardbase/storage/migrations/sqlite_head.sql is out of date: run python -m cardbase.storage.schema_snapshot")
    assert len(statements) > 10 and any(s.startswith("CREATE UNIQUE INDEX") for s in statements)


def test_a_new_file_gets_exactly_the_migrated_schema(two_new_files) -> None:
    direct = _schema(two_new_files("direct.db", migrations=False))
    migrated = _schema(two_new_files("migrated.db", migrations=True))
    assert direct.keys() == migrated.keys() and len(direct) > 8
    for part in direct:
        assert direct[part] == migrated[part], part
    assert direct["stamp"] == [(head_revision(),)]
    assert direct["card"]["foreign_keys"] and direct["card"]["unique"] and direct["game"]["columns"]


def test_both_schemas_hold_the_same_seeded_data(two_new_files) -> None:
    engines = [two_new_files("direct.db", migrations=False, seed=True),
               two_new_files("migrated.db", migrations=True, seed=True)]
    contents = []
    for engine in engines:
        with engine.connect() as conn:
            tables = sorted(inspect(conn).get_table_names())
            content = {}
            for table in tables:
                columns = [c["name"] for c in inspect(conn).get_columns(table) if c["name"] not in TIMES]
                content[table] = conn.exec_driver_sql(
                    f"SELECT {', '.join(columns)} FROM {table} ORDER BY id" if "id" in columns
                    else f"SELECT {', '.join(columns)} FROM {table}").all()
            contents.append(content)
    assert contents[0] == contents[1]
    assert len(contents[0]["card"]) > 100 and contents[0]["game"]


def test_a_schema_file_behind_the_migrations_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _revision, statements = sqlite_schema.read()
    stale = tmp_path / "sqlite_head.sql"
    stale.write_text(sqlite_schema.render("0002", statements[:3]), encoding="utf-8")
    monkeypatch.setattr(sqlite_schema, "SNAPSHOT", stale)
    engine = db.make_engine(f"sqlite:///{tmp_path / 'new.db'}")
    try:
        with engine.connect() as conn, conn.begin():
            assert sqlite_schema.create(conn) is False
            assert not conn.exec_driver_sql("SELECT count(*) FROM sqlite_master").scalar()
        db.init_db(engine, seed=False)  # the migrations, then
        assert db.current_revision(engine) == head_revision()
        assert set(inspect(engine).get_table_names()) >= {"card", "deck", "edition", "game", "seed_item"}
    finally:
        engine.dispose()


def test_a_database_with_tables_is_left_to_the_migrations(tmp_path: Path) -> None:
    engine = db.make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    try:
        with engine.connect() as conn, conn.begin():
            conn.exec_driver_sql("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
            assert sqlite_schema.create(conn) is False
            assert [r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master")] == ["notes"]
    finally:
        engine.dispose()


def test_a_first_run_on_a_new_file_does_not_load_alembic(tmp_path: Path) -> None:
    script = ("import sys\n"
              "from cardbase.storage import db\n"
              f"db.get_engine('sqlite:///{tmp_path / 'first.db'}')\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] == 'alembic'))\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
