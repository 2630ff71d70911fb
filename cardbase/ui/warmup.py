"""The first page's work, started by the server before any browser asks (issue 29).

Streamlit runs the app's script only when a browser session connects, and a browser spends about
two seconds loading Streamlit's own page before it connects. ``streamlit_app.py`` is therefore
also served as an ``st.App`` whose lifespan (:func:`lifespan`) starts :func:`warm_up` in a
background thread as the server starts: the imports of the first page, the database's creation
and seeding, the filters' values, the search and the first card's image are ready, or under way,
when the first session's script asks for them.

On a SQLite file already created, migrated and seeded, the first page reads through the
read-only path (:func:`cardbase.ui.common.read`, the standard library's ``sqlite3``), and the
warm-up does not import SQLAlchemy nor SQLModel either; a new file is created and seeded here, in
the server's process, as before (a process of its own was tried: slower on a shared 2-core
machine, docs/app.md).

Nothing here is shown to anyone and nothing is decided here: each step fills the cache the page
itself reads (the import system, :func:`cardbase.storage.db.get_engine`, the page's
``st.cache_data`` functions), with the same arguments, so the page draws exactly what it drew
without it. Two first runs at once still seed once (``get_engine``'s lock and its re-check under
the database lock); a failure here is only logged, and the page meets it again and shows its
message in the app's language.
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
        # in the order the first script run needs them. The tab's icon: ``st.set_page_config``
        # reads an image file through Streamlit's image code, which imports NumPy and Pillow (0.1 s
        # of CPU, before anything of the page is sent). The sidebar's language switch: « Français »
        # is not ASCII, so Streamlit looks for a leading emoji in it, with a pattern of every emoji
        # compiled when ``streamlit.emojis`` is first read.
        import numpy  # noqa: F401
        import streamlit.emojis  # noqa: F401
        from PIL import Image  # noqa: F401

        from cardbase import i18n
        from cardbase.storage.schema import database_url
        from cardbase.ui import cards

        url = database_url()
        if not _read_only_ready(url):  # a seeded SQLite file is read with sqlite3: no SQLAlchemy
            from cardbase.storage import db

            db.get_engine(url)  # created, migrated and seeded once per server (its own lock)
        with i18n.use_language(i18n.DEFAULT):  # a new session's language
            cards.warm_first_page(url)
    except Exception as exc:  # the page meets the same error and shows its message
        _LOG.info("warm-up stopped: %s", type(exc).__name__)


def _read_only_ready(url: str) -> bool:
    """Whether the first page's reads take the read-only path (a SQLite file created, migrated and
    seeded already, :mod:`cardbase.storage.readonly`)."""
    from cardbase.storage import readonly

    snapshot = readonly.open_read_only(url)
    if snapshot is None:
        return False
    snapshot.close()
    return True


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
