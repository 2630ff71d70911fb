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
``python -m cardbase.storage.prepare`` (:func:`cardbase.ui.preparation.start_preparing`), started first thing: the usual
start-up code with its lock and its single transaction, on the machine's other core, while this
process serves Streamlit's page. The first page then reads the file through the read-only path
(:func:`cardbase.ui.common.read`, the standard library's ``sqlite3``), which takes a file only once
its schema is the newest and its seeding committed — never a half-seeded one — and waits for that
process before it looks (:func:`cardbase.ui.preparation.wait_prepared`): this process imports neither SQLAlchemy nor
SQLModel for the first page, and does not seed. PostgreSQL (``DATABASE_URL``), a file the
read-only path does not take (``CARDBASE_FAST_READS=0``, another URL form) and a process that
failed keep the usual path here, in this process, as before.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

_LOG = logging.getLogger(__name__)
_started = threading.Lock()
_thread: threading.Thread | None = None

def warm_up() -> None:
    """Do now what the first page will need: every step is also done by the page when needed."""
    try:
        from cardbase.storage.schema import database_url
        from cardbase.ui.preparation import read_only_ready, start_preparing

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
        elif not read_only_ready(url):
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
