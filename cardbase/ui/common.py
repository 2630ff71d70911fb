"""Helpers shared by the pages: language, database, editor mode, messages, card images, and the
one way to show what users wrote (:func:`plain`).

Nothing stored in ``st.session_state`` is an ORM object or a session: only ids, versions, plain
dicts and strings. Every page opens a short ``session()`` for each read or write; the first page
reads through :func:`read` (the read-only snapshot of the SQLite file when it is ready).
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import streamlit as st

from cardbase import access, i18n
from cardbase.errors import CardbaseError, PermissionDenied
from cardbase.storage.schema import database_url

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine
    from sqlmodel import Session

T = TypeVar("T")

# The database stack (SQLAlchemy, SQLModel, ``cardbase.storage.db``) is imported by the functions
# that use it: a page draws its title before that import is done (issue 29, the first page).


def _streamlit_secret(name: str) -> Any:
    return st.secrets.get(name)


access.secret_reader = _streamlit_secret  # the editor password may come from Streamlit's secrets

LANG_KEY = "lang"
TOKEN_KEY = "editor_token"
MAIN_GAME = "nespanini"  # the game pages open on


# --------------------------------------------------------------------------- language

def lang() -> str:
    value = st.session_state.get(LANG_KEY, i18n.DEFAULT)
    return value if value in i18n.LANGUAGES else i18n.DEFAULT


def t(key: str, /, **values: Any) -> str:
    """The interface string ``key`` in the current language."""
    return i18n.translate(lang(), key, **values)


def tp(key: str, /, **values: Any) -> str:
    """Like :func:`t` for a string shown as Markdown: every value is user text, shown literally."""
    return i18n.translate(lang(), key, **{k: plain(v) for k, v in values.items()})


def apply_language() -> str:
    """Make the app's language the services' current language for this script run.

    Called at the start of every run (``streamlit_app.py``), so that messages built by the services
    (legality problems, import problems, query errors, effect problems) come in the app's language.
    """
    return i18n.set_language(lang())


# --------------------------------------------------------------------------- numbers

NBSP = "\u202f"  # the narrow no-break space French puts between digit groups


def num(value: Any, digits: int = 2, *, signed: bool = False) -> str:
    """A number as the interface language writes it: « 3,48 » and « 12 345 » in French, « 3.48 »
    and « 12,345 » in English; ``digits`` decimals (an int stays an int), « — » for nothing."""
    if value is None or (isinstance(value, float) and value != value):
        return "—"
    if isinstance(value, bool):
        return str(int(value))
    spec = ("+" if signed else "") + ("," + (f".{digits}f" if not isinstance(value, int) else "d"))
    text = format(value, spec)
    if lang() == "fr":
        text = text.replace(",", NBSP).replace(".", ",")
    return text


def pct(rate: Any, digits: int = 1, *, signed: bool = False) -> str:
    """A rate (0.0348) as a percentage: « 3,5 % » in French, « 3.5% » in English."""
    if rate is None or (isinstance(rate, float) and rate != rate):
        return "—"
    text = num(100 * float(rate), digits, signed=signed)
    return f"{text}\u00a0%" if lang() == "fr" else f"{text}%"


def num_columns(frame: Any, digits: dict[str, int] | int = 2, *, percent: tuple[str, ...] = (),
                signed: tuple[str, ...] = ()) -> Any:
    """A copy of a table whose decimal columns are text written for the interface language
    (Streamlit's own number display always uses a dot). ``percent``: columns of rates."""
    out = frame.copy()
    for col in out.columns:
        series = out[col]
        if col not in percent and not str(series.dtype).startswith("float"):
            continue
        d = digits.get(col, 2) if isinstance(digits, dict) else digits
        if col in percent:
            out[col] = series.map(lambda v, d=d, s=col in signed: pct(v, 1 if d == 2 else d, signed=s))
        else:
            out[col] = series.map(lambda v, d=d, s=col in signed: num(v, d, signed=s))
    return out


def chart_locale() -> dict[str, Any]:
    """The number format of the charts (vega's d3 locale) for the interface language."""
    if lang() == "fr":
        return {"decimal": ",", "thousands": NBSP, "grouping": [3], "currency": ["", "\u00a0€"],
                "percent": "\u00a0%"}
    return {"decimal": ".", "thousands": ",", "grouping": [3], "currency": ["$", ""]}


def localized(chart: Any) -> Any:
    """An altair chart whose axes and tooltips write numbers as the interface language does."""
    return chart.configure(locale={"number": chart_locale()})


# --------------------------------------------------------------------------- user text

# Every ASCII punctuation character may be backslash-escaped in Markdown (CommonMark); Streamlit
# adds its own directives (``:red[…]``, ``:material/icon:``, emoji shortcodes, ``$…$``), all built
# from these characters too.
_MD_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")
_AUTOLINK = re.compile(r"(?i)(?::/|www\.|@.)")
WORD_JOINER = "\u2060"


def plain(text: Any) -> str:
    """User text (card names, effect and flavour texts, deck names and notes, messages that quote
    them) as Markdown that shows exactly that text: no emphasis, no link, no image, no HTML, no
    Streamlit directive. The one place the app escapes what users wrote; every page uses it."""
    if text is None:
        return ""
    # bare addresses become links after unescaping (GFM autolink literals): an invisible word
    # joiner breaks ``://``, ``www.`` and ``@``, so they show but never link
    s = _AUTOLINK.sub(lambda m: m.group(0)[:-1] + WORD_JOINER + m.group(0)[-1], str(text))
    s = _MD_PUNCT.sub(r"\\\1", s)
    # a line break stays a line break; leading spaces would start a code block
    return "  \n".join(line.lstrip() for line in s.splitlines()) if "\n" in s or s[:1].isspace() else s


def safe_filename(name: Any, default: str = "deck", *, max_length: int = 80) -> str:
    """A file name (without extension) from user text: accents dropped, one ``-`` between words,
    only letters, digits, ``-`` and ``_`` (``"Feu & Glace !"`` → ``"Feu-Glace"``)."""
    folded = unicodedata.normalize("NFKD", str(name or "")).encode("ascii", "ignore").decode("ascii")
    out = re.sub(r"[^A-Za-z0-9_]+", "-", folded).strip("-_")[:max_length].strip("-_")
    return out or default


def colour_hex(game: str, colour: str | None) -> str:
    """The hue a card colour prints with (the game's template), as ``#rrggbb``."""
    from PIL import ImageColor

    try:
        from cardbase.outputs.printing import template_for

        value = template_for(game).colour_of(colour)
        r, g, b = ImageColor.getrgb(value)[:3]
    except (CardbaseError, ValueError, OSError, ImportError):
        return "#5b6b7f"
    return f"#{r:02x}{g:02x}{b:02x}"


# --------------------------------------------------------------------------- database

@st.cache_resource(show_spinner=False)
def _engine(url: str) -> Engine:
    from cardbase.storage import db

    return db.get_engine(url)


def engine() -> Engine:
    """The database engine, created (migrated, seeded) once per server and database URL.

    A database that cannot be reached or stays locked stops the page with its message (no
    traceback, no URL, no password); the next rerun tries again.
    """
    from cardbase.storage import db

    try:
        return _engine(database_url())
    except db.DatabaseError as exc:
        show_error(exc)
        st.stop()
        raise


@contextmanager
def session() -> Iterator[Session]:
    """A short transaction on the app's database."""
    from cardbase.storage import db

    with db.session_scope(engine()) as s:
        yield s


def read(work: Callable[[Any], T]) -> T:
    """``work(source)``, which only reads: on the read-only snapshot of the SQLite file when it is
    ready to read (:mod:`cardbase.storage.readonly`: no SQLAlchemy, no SQLModel); else on a
    :func:`session`, which creates, migrates and seeds the database if need be and shows its
    errors as messages. ``work`` asks the same questions both ways (:mod:`cardbase.catalog.reads`)."""
    from cardbase.storage import readonly

    return readonly.read(work, database_url(), session=session)


# --------------------------------------------------------------------------- editor mode

def client_id() -> str:
    """Who is using the app, for slowing down password guesses: the Streamlit session."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        if ctx is not None and ctx.session_id:
            return str(ctx.session_id)
    except ImportError:
        pass
    return "app"


def editor_token() -> str | None:
    token = st.session_state.get(TOKEN_KEY)
    return token if access.is_valid(token) else None


def is_editor() -> bool:
    return editor_token() is not None


def editor_gate() -> bool:
    """True in editor mode; otherwise shows why the page is read-only and returns False."""
    if is_editor():
        return True
    if access.is_configured():
        st.info(t("access.locked_hint"), icon=":material/lock:")
    else:
        st.warning(t("access.not_configured", env=access.PASSWORD_ENV), icon=":material/lock:")
    return False


def sidebar_controls() -> None:
    """Language switch and editor-mode unlock, shown on every page."""
    with st.sidebar:
        st.segmented_control(
            t("app.language"), options=list(i18n.LANGUAGES), key=LANG_KEY,
            format_func=lambda code: i18n.LANGUAGES[code], default=lang(),
            selection_mode="single", label_visibility="collapsed", required=True)
        if st.session_state.get(LANG_KEY) is None:  # a click on the selected option clears it
            st.session_state[LANG_KEY] = i18n.DEFAULT
        if is_editor():
            st.success(t("access.unlocked"), icon=":material/edit:")
            if st.button(t("access.lock"), key="editor_lock"):
                st.session_state.pop(TOKEN_KEY, None)
                st.rerun()
        elif not access.is_configured():
            st.caption(":material/lock: " + t("access.not_configured", env=access.PASSWORD_ENV))
        else:
            # no Enter-to-submit: Streamlit would add its own English hint under the field
            with st.form("editor_unlock", clear_on_submit=True, border=False, enter_to_submit=False):
                attempt = st.text_input(t("access.password"), type="password", key="editor_password")
                if st.form_submit_button(t("access.unlock")):
                    try:
                        token = access.unlock(attempt or "", client=client_id())
                    except access.TooManyAttempts as exc:
                        st.error(str(exc), icon=":material/timer:")
                    else:
                        if token:
                            st.session_state[TOKEN_KEY] = token
                            st.rerun()
                        st.error(t("access.wrong_password"))


# --------------------------------------------------------------------------- messages

def show_error(exc: BaseException, *, title: str | None = None) -> None:
    """A cardbase error as a readable box: the message, then each problem with its fix.

    A write refused for want of editor mode is said in the app's own words (sidebar unlock)."""
    if isinstance(exc, PermissionDenied) and not isinstance(exc, access.TooManyAttempts):
        text = (t("access.locked_hint") if access.is_configured()
                else t("access.not_configured", env=access.PASSWORD_ENV))
        st.error(f"**{plain(title)}**\n\n{plain(text)}" if title else plain(text), icon=":material/lock:")
        return
    if isinstance(exc, CardbaseError) and exc.problems:
        head = str(exc).split("\n", 1)[0]
        lines = [f"**{plain(title or head)}**"] + [f"- {plain(p)}" for p in exc.problems]
        st.error("\n".join(lines))
    else:
        text = plain(str(exc))
        st.error(f"**{plain(title)}**\n\n{text}" if title else text)


def problems_table(problems: Sequence[Any]) -> None:
    """Problems (objects with where/message/fix) as a table."""
    import pandas as pd

    rows = [{t("common.where"): getattr(p, "where", "") or "",
             t("common.problem"): getattr(p, "message", str(p)),
             t("common.fix"): getattr(p, "fix", "") or ""} for p in problems]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


# --------------------------------------------------------------------------- card images

def render_def_png(card: Any, *, dpi: int = 110, sticker_table: dict[str, str] | None = None) -> bytes:
    """A card definition (saved or not) drawn with its game's template, as PNG bytes."""
    from cardbase.outputs.printing import RenderOptions, render_card, template_for

    template = template_for(card.game, card.card_type)
    image = render_card(card, template, RenderOptions(dpi=dpi, sticker_table=sticker_table))
    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="PNG")
    return buf.getvalue()


def card_png(card_id: int, version: int, dpi: int = 110, url: str = "") -> bytes | None:
    """The printed face of a saved card as PNG bytes (``None`` when it cannot be drawn), cached
    per language: printed figures and texts follow the current language."""
    return _card_png(card_id, version, dpi, url, i18n.current_language())


@st.cache_data(show_spinner=False, max_entries=512)
def _card_png(card_id: int, version: int, dpi: int, url: str, lang: str) -> bytes | None:
    from cardbase.catalog import reads, stickers

    defs, table = read(lambda s: (reads.card_defs(s, ids=[card_id]), stickers.colour_table(s)))
    if not defs:
        return None
    try:
        return render_def_png(defs[0], dpi=dpi, sticker_table=table)
    except CardbaseError:
        return None


def card_image(card: dict[str, Any], *, dpi: int = 110) -> bytes | None:
    return card_png(int(card["id"]), int(card.get("version") or 1), dpi, database_url())


def game_names() -> dict[str, str]:
    """Every game of the database by code → name: a game is shown by its name, its code is for
    commands and files."""
    from sqlmodel import select

    from cardbase.storage.models import Game

    try:
        with session() as s:
            return {g.code: g.name for g in s.exec(select(Game))}
    except CardbaseError:
        return {}


def game_name(code: str | None, names: dict[str, str] | None = None) -> str:
    names = game_names() if names is None else names
    return names.get(code or "", code or "")


def options_index(options: Sequence[Any], value: Any) -> int | None:
    try:
        return list(options).index(value)
    except ValueError:
        return None
