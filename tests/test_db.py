"""Database set-up: migrations agree with the models, seeding is idempotent, SQLite pragmas."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlmodel import Session, SQLModel, func, select

import cardbase.models  # noqa: F401
from cardbase import db
from cardbase.models import Card, Edition, Game


def test_migrations_match_models(empty_engine):
    with empty_engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        diff = compare_metadata(ctx, SQLModel.metadata)
    assert diff == [], f"models and migrations disagree; write a migration: {diff}"


def test_migration_head_is_current(empty_engine):
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(db.alembic_config(empty_engine)).get_current_head()
    assert db.current_revision(empty_engine) == head


@pytest.mark.sqlite_only("checks SQLite connection PRAGMAs")
def test_sqlite_pragmas(engine):
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 10000


def test_foreign_keys_enforced(engine):
    import pytest
    from sqlalchemy.exc import IntegrityError

    with Session(engine) as s:
        s.add(Card(edition_id=99999, number=1, name="orpheline"))
        with pytest.raises(IntegrityError):
            s.commit()


def test_seed_is_idempotent_and_keeps_edits(engine):
    with Session(engine) as s:
        n_cards = s.exec(select(func.count()).select_from(Card)).one()
        card = s.exec(select(Card)).first()
        card.name = "Nom changé par un designer"
        s.add(card)
        s.commit()
        card_id = card.id
    counts = db.init_db(engine)
    assert all(v == 0 for v in counts.values()), counts
    with Session(engine) as s:
        assert s.exec(select(func.count()).select_from(Card)).one() == n_cards
        assert s.get(Card, card_id).name == "Nom changé par un designer"


def test_first_use_creates_and_seeds(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'fresh' / 'cardbase.db'}"
    engine = db.get_engine(url)
    try:
        with Session(engine) as s:
            games = set(s.exec(select(Game.code)).all())
            assert {"nespanini", "overkill", "pushluck", "ctterror", "overseers"} <= games
            assert s.exec(select(func.count()).select_from(Edition)).one() >= 4
        assert "card" in inspect(engine).get_table_names()
    finally:
        db.dispose_engines()


def test_unique_number_per_edition(engine):
    import pytest
    from sqlalchemy.exc import IntegrityError

    with Session(engine) as s:
        card = s.exec(select(Card)).first()
        s.add(Card(edition_id=card.edition_id, number=card.number, name="doublon"))
        with pytest.raises(IntegrityError):
            s.commit()


def test_database_url_env(monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:p@h/db")
    assert db.database_url() == "postgresql+psycopg://u:p@h/db"
    monkeypatch.delenv("DATABASE_URL")
    assert db.database_url().startswith("sqlite:///")
    with db.make_engine(f"sqlite:///{tmp_path}/x.db").connect() as conn:
        assert conn.execute(text("select 1")).scalar() == 1
