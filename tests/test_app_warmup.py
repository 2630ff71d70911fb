"""The first page's work started by the server (``cardbase/ui/warmup.py``, issue 29): the page it
leads to is the page drawn without it, a database is seeded once however the warm-up and the first
sessions meet, and a failure is left to the page, which says it in French."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import func
from sqlmodel import Session, select
from streamlit.testing.v1 import AppTest

from cardbase import access
from cardbase.storage import db, readonly
from cardbase.storage.models import Card, Edition
from cardbase.ui import common, warmup
from cardbase.ui import preparation as prepare

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "streamlit_app.py")
pytestmark = pytest.mark.sqlite_only("the warm-up calls the same services on both backends")


@pytest.fixture
def fresh_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A database that does not exist yet: the app's first run creates and seeds it."""
    url = f"sqlite:///{tmp_path / 'first-run.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.delenv("CARDBASE_EDITOR_PASSWORD", raising=False)
    db.dispose_engines()
    yield url
    access.enforce(False)
    db.dispose_engines()
    prepare._preparations.pop(url, None)


def first_page(url: str) -> dict:
    """What the first page shows: its title, texts, the cards list and the card beside it."""
    at = AppTest.from_file(APP, default_timeout=120).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    captions = [re.sub(r"\d+ ms\b", "… ms", e.value) for e in at.caption]  # the search's own time
    return {"title": [e.value for e in at.title], "captions": captions,
            "markdown": [e.value for e in at.markdown], "subheaders": [e.value for e in at.subheader],
            "selects": [(e.label, e.value) for e in at.selectbox],
            "list": [h.value for h in at.html], "tables": len(at.dataframe)}


def counts(url: str) -> tuple[int, int]:
    engine = db.make_engine(url)
    try:
        with Session(engine) as s:
            return (s.exec(select(func.count()).select_from(Card)).one(),
                    s.exec(select(func.count()).select_from(Edition)).one())
    finally:
        engine.dispose()


def test_the_script_served_by_streamlit_run_is_an_app_that_warms_up_and_draws_nothing() -> None:
    """``streamlit run`` finds ``app`` (an ``st.App``) and imports the file as a module: that import
    draws nothing and imports none of the pages (the server answers at once)."""
    from streamlit.web.server.app_discovery import discover_asgi_app

    assert discover_asgi_app(Path(APP)).import_string == "streamlit_app:app"
    probe = ("import sys, streamlit_app\n"
             "print(type(streamlit_app.app).__name__, streamlit_app.app._user_lifespan.__module__,\n"
             "      sorted(m for m in sys.modules if m.startswith('cardbase.ui.') and m != 'cardbase.ui.warmup'),\n"
             "      'sqlmodel' in sys.modules, 'pandas' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["App", "cardbase.ui.warmup", "[]", "False", "False"]


def test_the_lifespan_does_not_wait_for_the_warm_up(monkeypatch: pytest.MonkeyPatch) -> None:
    release, entered = threading.Event(), threading.Event()

    def slow() -> None:
        entered.set()
        release.wait(30)

    monkeypatch.setattr(warmup, "warm_up", slow)
    monkeypatch.setattr(warmup, "_thread", None)

    async def serve() -> bool:
        async with warmup.lifespan(None):
            return release.is_set()  # the server serves while the warm-up still runs

    assert asyncio.run(serve()) is False
    assert entered.wait(30)
    thread = warmup.start()  # once per process: a second start is the same thread
    assert thread is warmup._thread and thread.is_alive()
    release.set()
    thread.join(30)
    assert not thread.is_alive()


def test_the_warmed_page_is_the_page_drawn_without_warm_up(fresh_url: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    cold = first_page(fresh_url)
    cold_counts = counts(fresh_url)

    other = f"sqlite:///{tmp_path / 'warmed.db'}"
    monkeypatch.setenv("DATABASE_URL", other)
    db.dispose_engines()
    warmup.warm_up()
    # created, migrated and seeded before any session, by a process of its own: this one made no
    # engine, and the file is ready for the read-only path
    assert other not in db._engines and other in prepare._preparations
    assert readonly.open_read_only(other) is not None
    assert counts(other) == cold_counts

    def no_second_start(*_a, **_k):
        raise AssertionError("the page did again what the warm-up did")

    monkeypatch.setattr(db, "init_db", no_second_start)
    monkeypatch.setattr(common, "render_def_png", no_second_start)  # the card's image: drawn once, kept
    assert first_page(other) == cold
    assert cold["tables"] == 0 and "NP1-001" in cold["list"][0]  # the cards as a list first


def test_a_warm_up_beside_first_sessions_seeds_once(fresh_url: str, make_db) -> None:
    seeded = counts(make_db("sqlite", seeded=True))
    thread = threading.Thread(target=warmup.warm_up)
    thread.start()
    pages = [first_page(fresh_url) for _ in range(2)]
    thread.join(120)
    assert not thread.is_alive()
    assert pages[0] == pages[1]
    assert counts(fresh_url) == seeded


def test_a_failed_warm_up_leaves_the_message_to_the_page(fresh_url: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    broken = tmp_path / "not-a-database.db"
    broken.write_bytes(b"these bytes are not a SQLite database " * 200)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{broken}")
    db.dispose_engines()
    with caplog.at_level("INFO", logger="cardbase.ui.warmup"):
        warmup.warm_up()  # does not raise
    assert "warm-up stopped" in caplog.text
    at = AppTest.from_file(APP, default_timeout=120).run()
    assert not at.exception, [e.value for e in at.exception]
    message = re.sub(r"\\(.)", r"\1", " ".join(e.value for e in at.error))  # Markdown escapes off
    assert message and "Traceback" not in message
    assert "n'est pas une base de données cardbase lisible" in message  # the page's own French message



HEAVY = ("sqlalchemy", "sqlmodel", "pydantic", "alembic", "pyarrow", "pandas")


def _first_page_probe(url: str, *, warm: bool = True, env: dict[str, str] | None = None) -> list[str]:
    """In a fresh interpreter, as a server does: the warm-up, then a first session's page; what
    the page shows (title, cards listed) and which of :data:`HEAVY` were imported."""
    probe = ("import sys\n"
             "from streamlit.testing.v1 import AppTest\n"
             "from cardbase.ui import warmup\n"
             f"if {warm}: warmup.warm_up()\n"
             f"at = AppTest.from_file({APP!r}, default_timeout=120).run()\n"
             "assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]\n"
             "print(at.title[0].value, at.html[0].value.count('<tr>'),\n"
             f"      *(name in sys.modules for name in {HEAVY!r}))\n")
    env = {**__import__("os").environ, "DATABASE_URL": url, "PYTHONPATH": str(ROOT), **(env or {})}
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=240, env=env)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_the_first_page_on_a_new_database_loads_no_database_stack_nor_table_code(tmp_path: Path) -> None:
    """The first page opens on the list of a new SQLite file: the server's process imports
    neither SQLAlchemy, SQLModel nor pydantic (the file is created and seeded by a process of its
    own, then read with sqlite3), nor Alembic, pyarrow or pandas. The next start on the same file
    needs no preparation either; with ``CARDBASE_FAST_READS=0`` the page takes the usual path."""
    url = f"sqlite:///{tmp_path / 'new.db'}"
    first = _first_page_probe(url)
    assert first[0] == "Cartes" and int(first[1]) > 10  # the header row and the cards
    assert first[2:] == ["False"] * len(HEAVY)
    assert _first_page_probe(url, warm=False) == first  # a seeded file: read at once
    full = _first_page_probe(url, env={"CARDBASE_FAST_READS": "0"})
    assert full[:2] == first[:2] and full[2:4] == ["True", "True"]


def _rows_of(url: str) -> dict[str, object]:
    """Every table of a SQLite file row by row (its schema too), the moments aside."""
    import sqlite3

    moments = {"updated_at", "created_at", "saved_at", "pulled_at"}
    con = sqlite3.connect(readonly.sqlite_path(url))
    try:
        out: dict[str, object] = {"schema": con.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall()}
        for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall():
            columns = [row[1] for row in con.execute(f'PRAGMA table_info("{table}")')]
            out[table] = [tuple("<moment>" if c in moments and v is not None else v for c, v in zip(columns, row))
                          for row in con.execute(f'SELECT * FROM "{table}" ORDER BY rowid')]
        out["journal"] = con.execute("PRAGMA journal_mode").fetchone()
    finally:
        con.close()
    return out


def test_a_database_prepared_apart_is_the_one_seeded_by_the_server_row_for_row(fresh_url: str, tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    db.get_engine(fresh_url)  # as the server's own process seeds it (PostgreSQL, fast reads off)
    db.dispose_engines()
    apart = f"sqlite:///{tmp_path / 'apart.db'}"
    monkeypatch.setenv("DATABASE_URL", apart)
    prep = prepare.start_preparing(apart)
    assert prep is not None and prep.finish()
    assert prepare.start_preparing(apart) is None  # ready now, and once per process anyway
    rows = _rows_of(apart)
    assert len(rows["card"]) > 100 and rows["deck"] and rows["seed_item"]
    assert rows == _rows_of(fresh_url)


def test_what_is_prepared_apart_and_what_is_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a SQLite file that the read-only path takes: PostgreSQL and fast reads off keep the
    usual path in the server's process."""
    monkeypatch.delenv(readonly.FAST_READS_ENV, raising=False)
    assert prepare.start_preparing("postgresql+psycopg://user:secret@db.example:5432/cards") is None
    assert prepare.start_preparing("sqlite://") is None  # in memory
    monkeypatch.setenv(readonly.FAST_READS_ENV, "0")
    assert prepare.start_preparing(f"sqlite:///{tmp_path / 'off.db'}") is None
    assert not (tmp_path / "off.db").exists()


def test_a_relative_sqlite_path_is_prepared_where_the_server_runs(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    url = "sqlite:///here/relative.db"
    prep = prepare.start_preparing(url)
    try:
        assert prep is not None and prep.finish()
        assert readonly.open_read_only(url) is not None and (tmp_path / "here" / "relative.db").is_file()
    finally:
        prepare._preparations.pop(url, None)


def test_a_preparation_killed_half_way_shows_nothing_half_seeded_and_the_next_start_seeds(
        fresh_url: str, make_db, monkeypatch: pytest.MonkeyPatch) -> None:
    seeded = counts(make_db("sqlite", seeded=True))
    path = Path(readonly.sqlite_path(fresh_url))
    for delay in (0.0, 0.05, 0.2):  # killed as it opens the file, and later
        prep = prepare.start_preparing(fresh_url)
        assert prep is not None
        deadline = time.monotonic() + 60
        while not path.exists() and prep.proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        time.sleep(delay)
        prep.proc.kill()
        assert prep.finish() in (False, True)
        if prep.proc.returncode == 0:  # done before the kill: nothing left to check
            break
        assert readonly.open_read_only(fresh_url) is None  # never read as if complete
        monkeypatch.setattr(prepare, "_preparations", {})  # the next start of the server
    warmup.warm_up()
    assert readonly.open_read_only(fresh_url) is not None
    assert counts(fresh_url) == seeded
    assert first_page(fresh_url)["list"][0].count("<tr>") > 10
