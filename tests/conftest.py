"""Shared fixtures: real SQLite database files, migrated and seeded like a first run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sqlmodel import Session

from cardbase import db

_TEMPLATE: dict[str, Path] = {}


def _seeded_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build one migrated + seeded database per test session; tests get a copy of it."""
    if "path" not in _TEMPLATE:
        path = tmp_path_factory.mktemp("template") / "seeded.db"
        engine = db.make_engine(f"sqlite:///{path}")
        db.init_db(engine)
        with engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        engine.dispose()
        _TEMPLATE["path"] = path
    return _TEMPLATE["path"]


@pytest.fixture
def db_url(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """URL of a fresh copy of the seeded database, in this test's own temporary directory."""
    target = tmp_path / "cardbase.db"
    shutil.copyfile(_seeded_template(tmp_path_factory), target)
    return f"sqlite:///{target}"


@pytest.fixture
def engine(db_url: str):
    eng = db.make_engine(db_url)
    yield eng
    eng.dispose()


@pytest.fixture
def session(engine):
    with Session(engine, expire_on_commit=False) as s:
        yield s


@pytest.fixture
def empty_engine(tmp_path: Path):
    """A migrated database with no data at all."""
    eng = db.make_engine(f"sqlite:///{tmp_path / 'empty.db'}")
    db.init_db(eng, seed=False)
    yield eng
    eng.dispose()


@pytest.fixture
def cli_env(db_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """Point the command line at the test database (DATABASE_URL) and forget cached engines."""
    monkeypatch.setenv("DATABASE_URL", db_url)
    db.dispose_engines()
    yield db_url
    db.dispose_engines()
