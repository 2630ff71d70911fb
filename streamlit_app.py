"""cardbase — the app. Run with ``streamlit run streamlit_app.py``.

Each page is a module of ``cardbase.ui`` with a ``render()`` function, imported when the page is
first shown; this script only builds the navigation, the language switch and editor mode, then runs
the chosen page.

``streamlit run`` first imports this file as a module to serve it (``app`` below, an ``st.App``
whose lifespan starts the first page's work — imports, database, filters — while the first browser
is still loading Streamlit's page, see ``cardbase/ui/warmup.py``); each browser session then runs it
as its script (``__name__ == "__main__"``), which draws the page.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import streamlit as st

HOME = "cards"  # the first page, served at the root and at its own URL


def _home_by_its_own_url() -> None:
    """``/cards`` opens the first page: Streamlit serves the default page only at the root."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        pages = get_script_run_ctx().pages_manager
        if pages.intended_page_name == HOME and not pages.intended_page_script_hash:
            pages.set_script_intent("", "")
    except AttributeError:  # no script context (bare mode) or another Streamlit layout
        pass


def _page(module: str):
    """A page's ``render`` that imports its module when the page is shown: the first page does not
    wait for the imports of the others (pandas charts, printing, the engines…)."""

    def render() -> None:
        importlib.import_module(f"cardbase.ui.{module}").render()

    render.__name__ = render.__qualname__ = f"render_{module}"
    return render


def _pages(t) -> list:
    return [
        st.Page(_page("cards"), title=t("nav.cards"), icon=":material/search:", url_path=HOME, default=True),
        st.Page(_page("editor"), title=t("nav.editor"), icon=":material/edit:", url_path="editor"),
        st.Page(_page("editions"), title=t("nav.editions"), icon=":material/library_books:", url_path="editions"),
        st.Page(_page("games_admin"), title=t("games_admin.nav"), icon=":material/extension:", url_path="games"),
        st.Page(_page("decks"), title=t("nav.decks"), icon=":material/style:", url_path="decks"),
        st.Page(_page("printing"), title=t("nav.print"), icon=":material/print:", url_path="print"),
        st.Page(_page("playtest"), title=t("nav.playtest"), icon=":material/casino:", url_path="playtest"),
        st.Page(_page("stickers"), title=t("nav.stickers"), icon=":material/radio_button_checked:",
                url_path="stickers"),
    ]


def main() -> None:
    """One run of the app's script: the page a browser session asked for."""
    from cardbase import access
    from cardbase.ui import common

    # the tab's icon is a file of the app's own: a Material icon here would make every visitor's
    # browser fetch it from an outside font host
    st.set_page_config(page_title="cardbase", layout="wide",
                       page_icon=str(Path(__file__).resolve().parent / "cardbase" / "ui" / "icon.png"))
    access.enforce()  # every write in this server needs editor mode, in the services too
    common.apply_language()  # service messages (problems, errors) in the app's language
    _home_by_its_own_url()
    page = st.navigation(_pages(common.t))
    common.sidebar_controls()
    with access.editor_context(common.editor_token()):
        page.run()


if __name__ == "__main__":  # a browser session's run of the script
    main()
else:  # imported by `streamlit run` to serve the app: the first page's work starts with the server
    from cardbase.ui import warmup

    app = st.App(__file__, lifespan=warmup.lifespan)
