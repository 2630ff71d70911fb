"""The first page's work started by the server (``cardbase/ui/warmup.py``, issue 29): the page it
leads to is the page drawn without it, a database is seeded once however the warm-up and the first
sessions meet, and a failure is left to the page, which says it in French."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from sqlalchemy import func
from sqlmodel import Session, select
from streamlit.testing.v1 import AppTest

from cardbase import access
from cardbase.storage import db
from cardbase.storage.models import Card, Edition
from cardbase.ui import common, warmup

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

    # a thread of its own: a test run before this one (the browser's) may leave an event loop
    # running in the main thread, where asyncio.run refuses to start another
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        assert pool.submit(asyncio.run, serve()).result(60) is False
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
    assert other in db._engines  # created, migrated and seeded before any session
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



def test_the_warm_up_loads_no_table_code_nor_alembic(tmp_path: Path) -> None:
    """The first page opens on the list: the warm-up (everything the first page needs on a new
    database) imports neither pyarrow nor pandas, and a new SQLite file needs no Alembic."""
    probe = ("import sys\n"
             "from cardbase.storage import db\n"
             "from cardbase.ui import warmup\n"
             "warmup.warm_up()\n"
             "print(len(db._engines), *(name in sys.modules for name in ('pyarrow', 'pandas', 'alembic')))\n")
    env = {**__import__("os").environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'new.db'}", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=180, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1", "False", "False", "False"]


HEAVY = ("sqlalchemy", "sqlmodel", "pydantic", "alembic", "pyarrow", "pandas")


def _first_page_probe(url: str, env: dict[str, str] | None = None) -> list[str]:
    """In a fresh interpreter, as a server does: the warm-up, then a first session's page; what
    the page shows (title, rows of the list) and which of :data:`HEAVY` were imported."""
    probe = ("import sys\n"
             "from streamlit.testing.v1 import AppTest\n"
             "from cardbase.ui import warmup\n"
             "warmup.warm_up()\n"
             f"at = AppTest.from_file({APP!r}, default_timeout=120).run()\n"
             "assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]\n"
             "print(at.title[0].value, at.html[0].value.count('<tr>'),\n"
             f"      *(name in sys.modules for name in {HEAVY!r}))\n")
    env = {**__import__("os").environ, "DATABASE_URL": url, "PYTHONPATH": str(ROOT), **(env or {})}
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=240, env=env)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_the_first_page_of_a_seeded_file_loads_no_database_stack(tmp_path: Path) -> None:
    """A server started on a SQLite file already seeded reads the first page with sqlite3: its
    process imports neither SQLAlchemy, SQLModel nor pydantic (nor Alembic, pyarrow, pandas); a
    new file is seeded in the process, as before; ``CARDBASE_FAST_READS=0`` takes the usual path
    and the page is the same."""
    url = f"sqlite:///{tmp_path / 'new.db'}"
    first = _first_page_probe(url)  # creates and seeds the file
    assert first[0] == "Cartes" and int(first[1]) > 10  # the header row and the cards
    assert first[2:4] == ["True", "True"]
    again = _first_page_probe(url)
    assert again[:2] == first[:2] and again[2:] == ["False"] * len(HEAVY)
    full = _first_page_probe(url, env={"CARDBASE_FAST_READS": "0"})
    assert full[:2] == first[:2] and full[2:4] == ["True", "True"]
