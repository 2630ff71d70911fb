"""The first page's work, started by the server before any browser asks (issue 29).

Streamlit runs the app's script only when a browser session connects, and a browser spends about
two seconds loading Streamlit's own page before it connects. ``streamlit_app.py`` is therefore
also served as an ``st.App`` whose lifespan (:func:`lifespan`) starts :func:`warm_up` in a
background thread as the server starts: the imports of the first page, the database's creation
and seeding, the filters' values, the search and the first card's image are ready, or under way,
when the first session's script asks for them.

Nothing here is shown to anyone and nothing is decided here: each step fills the cache the page
itself reads (the import system, :func:`cardbase.storage.db.get_engine`, the page's
``st.cache_data`` functions), with the same arguments, so the page draws exactly what it drew
without it. Two first runs at once still seed once (``get_engine``'s lock and its re-check under
the database lock); a failure here is only logged, and the page meets it again and shows its
message in the app's language.

**The database, in a process of its own.** A SQLite file that is new, or not ready to be read
(a migration or the first seeding pending), is created, migrated and seeded by
``python -m cardbase.storage.prepare`` (:func:`start_preparing`), started first thing: the usual
start-up code with its lock and its single transaction, on the machine's other core, while this
process serves Streamlit's page. The first page then reads the file through the read-only path
(:func:`cardbase.ui.common.read`, the standard library's ``sqlite3``), which takes a file only once
its schema is the newest and its seeding committed — never a half-seeded one — and waits for that
process before it looks (:func:`wait_prepared`): this process imports neither SQLAlchemy nor
SQLModel for the first page, and does not seed. PostgreSQL (``DATABASE_URL``), a file the
read-only path does not take (``CARDBASE_FAST_READS=0``, another URL form) and a process that
failed keep the usual path here, in this process, as before.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

_LOG = logging.getLogger(__name__)
_started = threading.Lock()
_thread: threading.Thread | None = None

# The longest a page waits for the process preparing the database before taking its own path
# (which then waits for the database lock itself and says so when it stays locked).
PREPARE_WAIT_S = 120.0
_preparing = threading.Lock()
_preparations: dict[str, _Preparation] = {}


class _Preparation:
    """The process creating, migrating and seeding one SQLite file."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc

    def finish(self) -> bool:
        """Wait for the process and log its message if it failed; True when the file is ready."""
        try:
            _out, err = self.proc.communicate(timeout=PREPARE_WAIT_S)
        except subprocess.TimeoutExpired:  # left to finish on its own: the page takes its own path
            _LOG.info("warm-up stopped: the database's preparation still runs after %.0f s", PREPARE_WAIT_S)
            return False
        if self.proc.returncode != 0:
            last = (err or b"").decode("utf-8", "replace").strip().splitlines()[-1:]
            _LOG.info("warm-up stopped: the database's preparation ended with %s: %s", self.proc.returncode,
                      " ".join(last))
        return self.proc.returncode == 0

    def wait(self) -> None:
        """Until the process has ended (at most :data:`PREPARE_WAIT_S`)."""
        try:
            self.proc.wait(timeout=PREPARE_WAIT_S)
        except subprocess.TimeoutExpired:
            pass


def _read_only_ready(url: str) -> bool:
    from cardbase.storage import readonly

    snapshot = readonly.open_read_only(url)
    if snapshot is None:
        return False
    snapshot.close()
    return True


def start_preparing(url: str) -> _Preparation | None:
    """Start ``python -m cardbase.storage.prepare`` for ``url`` when it is a SQLite file that the
    read-only path will read once prepared and that is not ready yet; once per process and URL.
    None: nothing to start (ready already, or a database this process prepares itself)."""
    from cardbase.storage import readonly

    if not readonly.applies(url) or _read_only_ready(url):
        return None
    with _preparing:
        if url in _preparations:
            return None
        root = str(Path(__file__).resolve().parents[2])  # this cardbase, whatever the child's path
        env = dict(os.environ, DATABASE_URL=url,
                   PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
        proc = subprocess.Popen([sys.executable, "-m", "cardbase.storage.prepare"], cwd=root, env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        preparation = _preparations[url] = _Preparation(proc)
    return preparation


def wait_prepared(url: str) -> None:
    """Wait for the process preparing ``url``, if one was started and runs: a page reads the
    database once it is done (and takes its own path if it is not ready then)."""
    preparation = _preparations.get(url)
    if preparation is not None:
        preparation.wait()


def warm_up() -> None:
    """Do now what the first page will need: every step is also done by the page when needed."""
    try:
        from cardbase.storage.schema import database_url

        url = database_url()
        preparation = start_preparing(url)  # first: the other core creates and seeds meanwhile
        # in the order the first script run needs them. The tab's icon: ``st.set_page_config``
        # reads an image file through Streamlit's image code, which imports NumPy and Pillow (0.1 s
        # of CPU, before anything of the page is sent). The sidebar's language switch: « Français »
        # is not ASCII, so Streamlit looks for a leading emoji in it, with a pattern of every emoji
        # compiled when ``streamlit.emojis`` is first read.
        import numpy  # noqa: F401
        import streamlit.emojis  # noqa: F401
        from PIL import Image  # noqa: F401

        from cardbase import i18n
        from cardbase.ui import cards

        if preparation is not None:
            if not preparation.finish():
                return  # the page meets the same error on its own path and says it
        elif not _read_only_ready(url):
            from cardbase.storage import db

            db.get_engine(url)  # created, migrated and seeded once per server (its own lock)
        with i18n.use_language(i18n.DEFAULT):  # a new session's language
            cards.warm_first_page(url)
    except Exception as exc:  # the page meets the same error and shows its message
        _LOG.info("warm-up stopped: %s", type(exc).__name__)


def start() -> threading.Thread:
    """:func:`warm_up` in a background thread, once per process."""
    global _thread
    with _started:
        if _thread is None:
            _thread = threading.Thread(target=warm_up, name="cardbase-warm-up", daemon=True)
            _thread.start()
    return _thread


@asynccontextmanager
async def lifespan(_app: Any) -> AsyncIterator[None]:
    """``st.App`` lifespan: the warm-up starts and the server answers at once, without waiting."""
    start()
    yield
