"""Cards page: search in the query language plus filters, results as a table or a gallery, and
the page of one card (image, fields, sticker code, decks that use it).

The app's first page: the catalog is imported by the functions that read (:func:`facets`,
:func:`search_cards`…), so that the page's title is drawn before those imports are done, and they
read through :func:`cardbase.ui.common.read` — the read-only snapshot of a seeded SQLite file with
the standard library's ``sqlite3``, so that the server's process needs neither SQLAlchemy nor
SQLModel for this page (issue 29). The results open as a light list (:func:`results_html`: plain
HTML, which the browser draws with no script of its own to fetch), the interactive table (sorting, a click on a row shows
the card; built without pandas, :func:`results_table`) one click away (issue 29)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import streamlit as st

from cardbase import i18n
from cardbase.errors import CardbaseError, QueryError
from cardbase.storage.schema import database_url
from cardbase.text import fold
from cardbase.ui.common import MAIN_GAME, card_image, lang, plain, read, show_error, t, tp

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

RESULT_LIMIT = 500
GALLERY_LIMIT = 24
CARD_DPI = 110  # the card shown beside the results
VIEWS = ["list", "table", "gallery"]  # the results as a light list (first), the interactive table, images


# --------------------------------------------------------------------------- pure helpers

def quote_term(value: str) -> str:
    """A filter value as a query-language term value (quoted when it holds spaces or quotes)."""
    if value and all(ch.isalnum() or ch in "-_'" for ch in value):
        return value
    return '"' + value.replace('"', "") + '"'


def filters_to_query(*, colours: list[str] = (), rarities: list[str] = (),  # type: ignore[assignment]
                     keywords: list[str] = ()) -> str:  # type: ignore[assignment]
    """The filter widgets as query-language terms: alternatives of a filter joined with ``or``,
    filters joined with ``and`` (e.g. ``(c:rouge or c:bleu) k:foule``)."""
    parts: list[str] = []
    for key, values in (("c", colours), ("r", rarities)):
        terms = [f"{key}:{quote_term(v)}" for v in values]
        if len(terms) == 1:
            parts.append(terms[0])
        elif terms:
            parts.append("(" + " or ".join(terms) + ")")
    parts += [f"k:{quote_term(k)}" for k in keywords]  # every chosen keyword must be present
    return " ".join(parts)


def combine_queries(text: str, extra: str) -> str:
    text, extra = (text or "").strip(), (extra or "").strip()
    if text and extra:
        return f"({text}) {extra}"
    return text or extra


# --------------------------------------------------------------------------- data

def facets(game: str | None, url: str) -> dict[str, list[str]]:
    """Games, editions, colours, rarities and keywords present in the database (for the filters):
    kept while a SQLite file is unchanged (a card edited in the app or by a command shows in the
    filters at the next run of the page), for 30 seconds on another database."""
    from cardbase.storage import readonly

    return _facets(game, url, readonly.change_stamp(url))


@st.cache_data(ttl=30, max_entries=64, show_spinner=False)
def _facets(game: str | None, url: str, stamp: tuple[int, ...] | None) -> dict[str, list[str]]:
    """:func:`facets`, read; ``stamp`` (:func:`cardbase.storage.readonly.change_stamp`) is part of
    the cache's key only."""
    from cardbase.catalog import reads
    from cardbase.catalog.fields import declared_fields

    game_rows, edition_rows, card_rows = read(lambda s: reads.facet_rows(s, game))
    games = [g.code for g in game_rows]
    names = {g.code: g.name for g in game_rows}
    labels = {g.code: {d.name: {lg: d.label_in(lg) for lg in i18n.LANGUAGES} for d in declared_fields(g)}
              for g in game_rows}  # by language: the cache is shared by both
    editions = [e for e, g in edition_rows if not game or g == game]
    colours: dict[str, str] = {}
    rarities: dict[str, str] = {}
    keywords: dict[str, str] = {}
    for colour, rarity, kws in card_rows:
        if colour:
            colours.setdefault(fold(colour), colour)
        if rarity:
            rarities.setdefault(fold(rarity), rarity)
        for k in kws or []:
            keywords.setdefault(fold(k), k)
    return {"games": games, "names": names, "labels": labels, "editions": editions,
            "colours": sorted(colours.values(), key=fold),
            "rarities": sorted(rarities.values(), key=fold), "keywords": sorted(keywords.values(), key=fold)}


def search_cards(query: str, *, game: str | None = None, edition: str | None = None,
                 limit: int = RESULT_LIMIT) -> tuple[list[dict[str, Any]], float]:
    """Cards matching ``query`` (the query language) and the seconds the search took."""
    from cardbase.catalog import reads

    start = time.perf_counter()
    rows = read(lambda s: reads.card_dicts(s, query=query or None, game=game, edition=edition, limit=limit))
    return rows, time.perf_counter() - start


def _result_columns(rows: list[dict[str, Any]], names: dict[str, str] | None = None
                    ) -> list[tuple[str, list[Any], str]]:
    """The results table's columns in order: ``(header, values, "text" | "int")``. Headers in the
    interface language, games by name; no value column when none of the cards has a value (a game
    such as CT vs Terror has none: a column of blanks says nothing)."""
    names = names or {}
    columns: list[tuple[str, list[Any], str]] = [
        (t("field.ref"), [r["ref"] for r in rows], "text"), (t("field.name"), [r["name"] for r in rows], "text"),
    ]
    if any(r["value"] is not None for r in rows):
        columns.append((t("field.value"), [None if r["value"] is None else int(r["value"]) for r in rows], "int"))
    columns += [
        (t("field.colour"), [r["colour"] or "" for r in rows], "text"),
        (t("field.rarity"), [r["rarity"] or "" for r in rows], "text"),
        (t("field.keywords"), [", ".join(r["keywords"]) for r in rows], "text"),
        (t("field.effect_text"), [r["effect_text"] or "" for r in rows], "text"),
        (t("field.game"), [names.get(r["game"], r["game"]) for r in rows], "text"),
    ]
    return columns


def results_frame(rows: list[dict[str, Any]], names: dict[str, str] | None = None) -> pd.DataFrame:
    """The results table as a pandas frame: one type per column (values are whole numbers or
    empty), see :func:`_result_columns`."""
    import pandas as pd

    return pd.DataFrame({header: pd.array(values, dtype="Int64" if kind == "int" else "string")
                         for header, values, kind in _result_columns(rows, names)})


def results_table(rows: list[dict[str, Any]], names: dict[str, str] | None = None) -> pa.Table:
    """The table the page draws: :func:`results_frame`'s columns, types and values as an Arrow
    table (what Streamlit sends to the browser) built without pandas, whose import the first page
    does not wait for (issue 29). Text is ``large_string`` and values ``int64`` with nulls, as
    pandas' ``string`` and ``Int64`` columns become in Arrow. Read by Arrow's JSON reader with the
    schema given: ``pyarrow.array`` imports pandas on its first call, the reader does not."""
    import json

    import pyarrow as pa
    from pyarrow import json as pa_json

    columns = _result_columns(rows, names)
    schema = pa.schema([(header, pa.int64() if kind == "int" else pa.large_string())
                        for header, _values, kind in columns])
    if not rows:
        return schema.empty_table()
    lines = "\n".join(json.dumps({header: values[i] for header, values, _kind in columns}, ensure_ascii=False)
                      for i in range(len(rows)))
    options = pa_json.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error")
    return pa_json.read_json(pa.BufferReader(lines.encode()), parse_options=options).combine_chunks()


# The list's look: the interactive table's (row height, borders, header), in a box of its height
# whose header stays in view; a long text is cut on one line and shown whole when hovered.
_LIST_STYLE = (
    "<style>"
    ".cb-cards{max-height:520px;overflow:auto;border:1px solid rgba(49,51,63,.12);border-radius:.5rem}"
    ".cb-cards table{border-collapse:separate;border-spacing:0;width:100%;margin:0;font-size:.875rem;"
    "line-height:1.2}"
    ".cb-cards th{position:sticky;top:0;z-index:1;background:#f8f9fb;color:rgba(49,51,63,.75);"
    "font-weight:400;text-align:left;white-space:nowrap;padding:.55rem .6rem;"
    "border-bottom:1px solid rgba(49,51,63,.12)}"
    ".cb-cards td{padding:.5rem .6rem;border-bottom:1px solid rgba(49,51,63,.07);white-space:nowrap;"
    "max-width:18rem;overflow:hidden;text-overflow:ellipsis}"
    ".cb-cards .n{text-align:right}"
    ".cb-cards tbody tr:hover td{background:rgba(49,51,63,.04)}"
    "</style>")


def results_html(rows: list[dict[str, Any]], names: dict[str, str] | None = None) -> str:
    """The results as a light HTML list: :func:`results_table`'s headers and values, every text
    escaped (shown exactly as written, never as markup), values right-aligned, a long text cut with
    its whole text as the cell's tooltip. Plain HTML: the browser draws it at once, where the
    interactive table first fetches and runs its own scripts (issue 29)."""
    from html import escape

    columns = _result_columns(rows, names)
    head = "".join(f'<th class="n">{escape(header)}</th>' if kind == "int" else f"<th>{escape(header)}</th>"
                   for header, _values, kind in columns)
    body = []
    for i in range(len(rows)):
        cells = []
        for _header, values, kind in columns:
            raw = "" if values[i] is None else " ".join(str(values[i]).split())  # one line
            text = escape(raw)
            if kind == "int":
                cells.append(f'<td class="n">{text}</td>')
            else:
                cells.append(f'<td title="{text}">{text}</td>' if len(raw) > 30 else f"<td>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f'{_LIST_STYLE}<div class="cb-cards"><table><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')


def warm_first_page(url: str) -> None:
    """Fill the caches the page reads when it opens (no query, no filter, on its first game, as a
    list): the filters' values, the search, then the results' first card image. Called by the
    server before the first browser asks (:mod:`cardbase.ui.warmup`). The interactive table's
    imports (pyarrow) wait for a click on it: the first page does not need them."""
    all_facets = facets(None, url)
    game = MAIN_GAME if MAIN_GAME in all_facets["games"] else None
    facets(game, url)
    rows, _ = search_cards("", game=game)
    if rows:  # last: the page draws it after the list
        card_image(rows[0], dpi=CARD_DPI)


# --------------------------------------------------------------------------- page

def _pick_from_table() -> None:
    """A click on a row, or on any cell of it (its name…), shows that card."""
    state = st.session_state.get("cards_table")
    rows = st.session_state.get("cards_result_ids") or []
    selection = getattr(state, "selection", None) or (state or {}).get("selection", {})
    picked = list(_get(selection, "rows") or [])
    picked += [cell[0] for cell in (_get(selection, "cells") or [])]
    if picked and picked[0] < len(rows):
        st.session_state["cards_pick"] = rows[picked[0]]


def _get(selection: Any, key: str) -> Any:
    return selection.get(key) if isinstance(selection, dict) else getattr(selection, key, None)


def render() -> None:
    st.title(t("cards.title"))
    st.caption(t("cards.intro"))

    query = st.text_input(t("cards.search"), key="cards_q", placeholder=t("cards.search_placeholder"),
                          help=t("cards.search_help"))
    url = database_url()
    f1, f2, f3, f4, f5 = st.columns([1, 1, 1.2, 1.2, 1.4])
    all_facets = facets(None, url)
    names = all_facets["names"]
    if "cards_game" not in st.session_state and MAIN_GAME in all_facets["games"]:
        st.session_state["cards_game"] = MAIN_GAME  # the page opens on the game designers work on
    game = f1.selectbox(t("field.game"), [None, *all_facets["games"]], key="cards_game",
                        format_func=lambda g: t("common.all") if g is None else names.get(g, g))
    fac = facets(game, url)
    edition = f2.selectbox(t("field.edition"), [None, *fac["editions"]], key="cards_edition",
                           format_func=lambda e: t("common.all_f") if e is None else e)
    colours = f3.multiselect(t("field.colour"), fac["colours"], key="cards_colours",
                               placeholder=t("common.choose"))
    rarities = f4.multiselect(t("field.rarity"), fac["rarities"], key="cards_rarities",
                               placeholder=t("common.choose"))
    keywords = f5.multiselect(t("field.keywords"), fac["keywords"], key="cards_keywords",
                               placeholder=t("common.choose"))

    full_query = combine_queries(query, filters_to_query(colours=colours, rarities=rarities,
                                                         keywords=keywords))
    try:
        rows, seconds = search_cards(full_query, game=game, edition=edition)
    except QueryError as exc:
        st.error(tp("cards.query_error", message=str(exc).split("\n", 1)[0]))
        st.code(f"{exc.query}\n{' ' * exc.position}^", language=None)
        return
    except CardbaseError as exc:
        show_error(exc)
        return

    more = t("cards.limited", limit=RESULT_LIMIT) if len(rows) >= RESULT_LIMIT else ""
    st.caption(t("cards.count", count=len(rows), ms=f"{seconds * 1000:.0f}") + more
               + (f" · {plain(full_query)}" if full_query else ""))
    st.session_state["cards_result_ids"] = [r["id"] for r in rows]
    if not rows:
        st.info(t("cards.none"))
        return

    # the list first: it shows at once, the interactive table fetches and runs its own scripts
    view = st.segmented_control(t("cards.view"), VIEWS, key="cards_view",
                                default=VIEWS[0], format_func=lambda v: t(f"cards.view_{v}"),
                                label_visibility="collapsed", required=True) or VIEWS[0]
    left, right = st.columns([3, 2], gap="large")
    with left:
        if view == "gallery":
            _gallery(rows)
        elif view == "list":
            with st.container(key="cards_list"):
                st.html(results_html(rows, names))
        else:
            st.dataframe(results_table(rows, names), hide_index=True, width="stretch", height=520,
                         key="cards_table", on_select=_pick_from_table,
                         selection_mode=["single-row", "single-cell"],
                         column_config={t("field.effect_text"): st.column_config.TextColumn(width="large")})
    with right:
        by_id = {r["id"]: r for r in rows}
        ids = list(by_id)
        if st.session_state.get("cards_pick") not in by_id:
            st.session_state["cards_pick"] = ids[0]
        pick = st.selectbox(t("cards.show"), ids, key="cards_pick",
                            format_func=lambda i: f"{by_id[i]['ref']} — {by_id[i]['name']}")
        card_detail(by_id[pick], names=names, labels=all_facets["labels"])


def _gallery(rows: list[dict[str, Any]]) -> None:
    shown = rows[:GALLERY_LIMIT]
    if len(rows) > GALLERY_LIMIT:
        st.caption(t("cards.gallery_limited", n=GALLERY_LIMIT))
    cols = st.columns(4)
    for i, card in enumerate(shown):
        with cols[i % 4]:
            png = card_image(card, dpi=80)
            if png:
                st.image(png, caption=card["ref"], width="stretch")
            else:
                _text_card(card)
            if st.button(t("cards.open"), key=f"gal_{card['id']}", width="stretch"):
                st.session_state["cards_pick"] = card["id"]
                st.rerun()


def _text_card(card: dict[str, Any]) -> None:
    with st.container(border=True):
        value = "" if card["value"] is None else f" · **{plain(card['value'])}**"
        st.markdown(f"**{plain(card['name'])}**{value}")
        st.caption(plain(" · ".join(x for x in (card["colour"], card["rarity"], ", ".join(card["keywords"])) if x)
                         or card["ref"]))


def sticker_line(card: dict[str, Any], table: dict[str, str] | None = None) -> str:
    """The sticker code of a card (value then colour symbol) in the interface language."""
    from cardbase.catalog import stickers

    parts = []
    if card.get("value") is not None:
        try:
            parts.append(stickers.format_stickers(stickers.encode(int(card["value"]))))
        except CardbaseError as exc:
            parts.append(str(exc).split(" — ")[0])
    if card.get("colour"):
        try:
            symbol = stickers.colour_symbol(card["colour"], table)
            parts.append(stickers.SYMBOLS.get(symbol, symbol))
        except CardbaseError:
            parts.append(t("cards.no_symbol", colour=card["colour"]))
    return " · ".join(parts)


def card_detail(card: dict[str, Any], *, names: dict[str, str] | None = None,
                labels: dict[str, dict[str, dict[str, str]]] | None = None) -> None:
    """One card: image, fields (declared ones by their label, as printed), sticker code, the
    decks that use it."""
    from cardbase.catalog import reads, stickers
    from cardbase.outputs.printing.card import stat_label

    own = (labels or {}).get(card["game"], {})
    with st.container(border=True):
        st.subheader(plain(card["name"]), anchor=False)
        st.caption(plain(f"{card['ref']} · {card['numbering']} · {(names or {}).get(card['game'], card['game'])}")
                   + (" · " + t("cards.sample") if card.get("sample") else ""))
        png = card_image(card, dpi=CARD_DPI)
        if png:
            st.image(png, width=260)
        fields = [(t("field.value"), card["value"]), (t("field.colour"), card["colour"]),
                  (t("field.banner"), card["banner"]), (t("field.rarity"), card["rarity"]),
                  (t("field.type"), card["type"]), (t("field.keywords"), ", ".join(card["keywords"])),
                  (t("field.copies"), card["copies"])]
        fields += [((own.get(k) or {}).get(lang()) or stat_label(k), v) for k, v in (card.get("stats") or {}).items()]
        st.markdown("\n".join(f"- **{plain(k)}** : {plain(v)}" for k, v in fields if v not in (None, "", [])))
        if card.get("effect_text"):
            from cardbase.ui.richview import (  # styled, never interpreted
                game_keywords,
                rich_markdown,
            )

            keywords = game_keywords(card["game"], card.get("type"))  # bold as on the card image
            st.markdown(f"**{t('field.effect_text')}** — {rich_markdown(card['effect_text'], keywords)}")
        if card.get("effect"):
            st.code(card["effect"], language=None)
        if card.get("flavour"):
            st.markdown(f"*{plain(card['flavour'])}*")
        try:
            table, decks = read(lambda s: (stickers.colour_table(s), reads.decks_using_card(s, card["id"])))
        except CardbaseError:
            table, decks = None, []
        st.markdown(f"**{t('cards.stickers')}** : {plain(sticker_line(card, table) or '—')}")
        st.markdown(f"**{t('cards.decks')}** : " + (plain(", ".join(decks)) if decks else t("cards.no_decks")))
        st.caption(t("cards.version", version=card["version"]))
