"""The app's first page read with sqlite3 (``cardbase.ui.common.read``, issue 29) on the files a
user may bring: an older cardbase's file (an older schema, seeded in part), a file whose seeding
did not finish, a card edited in the app then the page loaded again, and PostgreSQL — where the
read-only path must not be taken, or must show what the database holds now."""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from seed_support import older_database
from streamlit.testing.v1 import AppTest

from cardbase import access
from cardbase.storage import db, readonly
from cardbase.ui import warmup

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "streamlit_app.py")
PASSWORD = "secret-éditeur"


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv(readonly.FAST_READS_ENV, raising=False)
    monkeypatch.delenv("CARDBASE_EDITOR_PASSWORD", raising=False)
    db.dispose_engines()
    yield
    access.enforce(False)
    access.reset_attempts()
    db.dispose_engines()


def server_start(url: str, monkeypatch: pytest.MonkeyPatch, *, fast: bool = True) -> dict:
    """A server started on ``url``: its warm-up, then a first session's page (what it shows)."""
    monkeypatch.setenv("DATABASE_URL", url)
    if fast:
        monkeypatch.delenv(readonly.FAST_READS_ENV, raising=False)
    else:
        monkeypatch.setenv(readonly.FAST_READS_ENV, "0")
    db.dispose_engines()
    warmup.warm_up()
    return first_page()


def first_page() -> dict:
    at = AppTest.from_file(APP, default_timeout=120).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return {"title": [e.value for e in at.title],
            "captions": [re.sub(r"\d+ ms\b", "… ms", e.value) for e in at.caption],  # the search's own time
            "markdown": [e.value for e in at.markdown], "subheaders": [e.value for e in at.subheader],
            "filters": [(e.label, list(e.options)) for e in at.multiselect],
            "list": [h.value for h in at.html]}


def _older_file(path: Path) -> None:
    """A file an older cardbase made: schema 0002, one OVERKILL card of a user's, nothing else."""
    engine = db.make_engine(f"sqlite:///{path}")
    try:
        older_database(engine, game="overkill", game_name="OVERKILL", edition="OVK", set_size=39, number=28,
                       name="Maximiser", stats='{"objectif": 27}')
    finally:
        engine.dispose()


def _half_seeded_file(path: Path, seeded: str) -> None:
    """The newest schema with a seeding that did not finish: a part of the cards, no seed mark."""
    shutil.copyfile(readonly.sqlite_path(seeded), path)
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM seed_item WHERE kind = 'data'")
        conn.execute("DELETE FROM deck_entry WHERE card_id IN (SELECT id FROM card WHERE id % 2 = 0)")
        conn.execute("DELETE FROM card WHERE id % 2 = 0")
    conn.close()


@pytest.mark.sqlite_only("the read-only path reads SQLite files only")
@pytest.mark.parametrize("kind", ["older schema", "half seeded"])
def test_a_file_not_ready_is_brought_up_to_date_before_any_fast_read(kind, make_db, tmp_path, monkeypatch, spy):
    """The warm-up and the first page do not read such a file with sqlite3: the full path migrates
    and seeds it first, and the page is the one drawn with fast reads off on the same file; the
    next server start reads the file, now ready, with sqlite3 and draws the same page."""
    files = [tmp_path / f"{name}.db" for name in ("fast", "full")]
    for path in files:
        if kind == "older schema":
            _older_file(path)
        else:
            _half_seeded_file(path, make_db("sqlite"))
        assert readonly.open_read_only(f"sqlite:///{path}") is None
    spy.clear()
    fast_url, full_url = (f"sqlite:///{path}" for path in files)
    shown = server_start(fast_url, monkeypatch)
    assert spy[0] is False  # the warm-up found the file not ready
    assert any(spy[1:])  # the page read it with sqlite3 once the warm-up had brought it up to date
    assert shown["title"] == ["Cartes"] and "NP1-001" in shown["list"][0]
    if kind == "older schema":  # the user's card kept beside the cards seeded
        with sqlite3.connect(files[0]) as conn:
            assert conn.execute("SELECT count(*) FROM card WHERE name = 'Maximiser'").fetchone() == (1,)
        conn.close()
    assert db.current_revision(db.get_engine(fast_url)) == db.head_revision()
    spy.clear()
    assert server_start(full_url, monkeypatch, fast=False) == shown
    assert not any(spy)
    spy.clear()
    assert server_start(fast_url, monkeypatch) == shown
    assert spy and all(spy)


def _edit_in_the_app(url: str, ref: str, **changes: str) -> None:
    """The card's fields changed and saved in the app's editor, in editor mode."""
    from cardbase.catalog import cards as catalog

    engine = db.make_engine(url)
    try:
        with db.session_scope(engine) as s:
            card = catalog.get_card(s, ref)
            card_id, edition = card.id, card.edition_id
        with db.session_scope(engine) as s:
            from cardbase.storage.models import Edition

            edition_code = s.get(Edition, edition).code
    finally:
        engine.dispose()
    script = ("from cardbase import access\nfrom cardbase.ui import common, editor as page\n"
              "access.enforce()\ncommon.apply_language()\n"
              "with access.editor_context(common.editor_token()):\n    page.render()\n")
    at = AppTest.from_string(script, default_timeout=60)
    at.session_state["lang"] = "fr"
    at.session_state["editor_token"] = access.unlock(PASSWORD)
    at.run()
    at.selectbox(key="ed_pick_edition").select(edition_code).run()
    at.selectbox(key="ed_pick_card").select(card_id).run()
    for field, value in changes.items():
        at.text_input(key=f"edf_{field}").input(value).run()
    at.button(key="ed_save").click().run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]


@pytest.mark.sqlite_only("the read-only path reads SQLite files only")
def test_a_card_edited_in_the_app_shows_when_the_first_page_is_loaded_again(make_db, monkeypatch, spy):
    """The first page read with sqlite3, a card's name, text and colour changed in the editor of
    the same server, the page loaded again: the list, the card beside it and the colour filter
    show the change at once, still read with sqlite3 (a snapshot a read, no copy kept)."""
    url = make_db("sqlite")
    monkeypatch.setenv(access.PASSWORD_ENV, PASSWORD)
    access.reset_attempts()
    before = server_start(url, monkeypatch)
    assert spy and all(spy)
    assert "NP1-001" in before["list"][0] and "Forgeronne éditée" not in before["list"][0]
    _edit_in_the_app(url, "NP1-001", name="Forgeronne éditée", flavour="Un texte changé dans l'app.",
                     colour="Turquoise")
    spy.clear()
    after = first_page()
    assert spy and all(spy)  # read with sqlite3 after the edit too
    assert "Forgeronne éditée" in after["list"][0]
    shown = "\n".join(after["markdown"] + after["subheaders"])
    assert "Forgeronne éditée" in shown and "Un texte changé dans l" in shown  # the card beside the list
    colours = dict(after["filters"])["Couleur"]  # a colour is stored in lower case
    assert "turquoise" in colours and "turquoise" not in dict(before["filters"])["Couleur"]


def test_postgresql_never_takes_the_read_only_path(make_db, monkeypatch, spy):
    """``DATABASE_URL`` naming PostgreSQL: the warm-up and every read of the first page go through
    SQLAlchemy, and the page is the one a SQLite file of the same data shows."""
    url = make_db("postgresql")
    assert not readonly.applies(url) and readonly.change_stamp(url) is None
    shown = server_start(url, monkeypatch)
    assert spy and not any(spy)
    assert url in db._engines  # the warm-up opened the database stack for it
    assert shown["title"] == ["Cartes"] and "NP1-001" in shown["list"][0]
    spy.clear()
    assert server_start(make_db("sqlite"), monkeypatch) == shown
    assert spy and all(spy)
