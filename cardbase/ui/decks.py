"""Deck builder: pick a game, add and remove cards from search results, legality checked live
with every problem and its fix, statistics as charts, deck list paste/download, deck codes, save
to the database with the history of every version and a diff.

Search results come a page of :data:`SEARCH_LIMIT` at a time, with the total count. A saved deck
is confirmed on the page, which stays on the tab it was saved from.

The deck under construction lives in ``st.session_state["deck"]`` as ``{collector ref: count}``;
every check goes through the deck-list text of those references, so the page uses exactly the
parser, resolver, legality checker and statistics of the command line.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st
from sqlmodel import select

from cardbase import access, decks
from cardbase.catalog import cards as catalog
from cardbase.errors import CardbaseError, QueryError, StaleEditError
from cardbase.storage.models import Card, Edition, Game
from cardbase.ui.common import (
    MAIN_GAME,
    colour_hex,
    editor_gate,
    game_name,
    game_names,
    is_editor,
    num,
    pct,
    plain,
    safe_filename,
    session,
    show_error,
    t,
    tp,
)

DECK = "deck"  # {ref: count}
NAMES = "deck_names"  # {ref: name} for display
LOADED = "deck_loaded"  # {"id", "name", "version"} of the saved deck being edited
SEARCH_LIMIT = 40  # search results on one page
PAGE = "deck_search_page"  # {"for": (game, query), "page": 0-based page number}
SAVED_FLASH = "deck_saved_flash"  # confirmation shown on the run after a save
CONFLICT = "deck_name_conflict"  # {"name", "version", "suggestion"}: the name is another deck's


# --------------------------------------------------------------------------- pure helpers

def deck_text(entries: dict[str, int], *, name: str | None = None, game: str | None = None) -> str:
    """The deck as deck-list text with collector references (``2 NP1-012``)."""
    head = []
    if name:
        head.append(f"# name: {name}")
    if game:
        head.append(f"# game: {game}")
    return "\n".join(head + [f"{n} {ref}" for ref, n in entries.items() if n > 0]) + "\n"


def readable_text(entries: dict[str, int], names: dict[str, str], *, name: str | None,
                  game: str | None) -> str:
    """The deck list as players write it (``2 Nom de la carte``), for download."""
    head = [f"# name: {name}"] if name else []
    if game:
        head.append(f"# game: {game}")
    lines = [f"{n} {names.get(ref, ref)}" for ref, n in entries.items() if n > 0]
    return "\n".join(head + lines) + "\n"


def add_card(entries: dict[str, int], ref: str, delta: int) -> dict[str, int]:
    out = dict(entries)
    out[ref] = max(0, out.get(ref, 0) + delta)
    if out[ref] == 0:
        del out[ref]
    return out


# --------------------------------------------------------------------------- services

def games_with_decks() -> list[str]:
    with session() as s:
        rows = s.exec(select(Game.code, Game.deck_size).order_by(Game.code)).all()
    with_rules = [code for code, size in rows if size]
    return with_rules or [code for code, _ in rows]


def box_games() -> dict[str, list[str]]:
    """Games without deck rules (a fixed box: its cards are played as they are) → their editions."""
    with session() as s:
        rows = s.exec(select(Game.code, Edition.code).join(Edition, Edition.game_id == Game.id, isouter=True)
                      .where(Game.deck_size.is_(None)).order_by(Game.code, Edition.code)).all()
    out: dict[str, list[str]] = {}
    for game, edition in rows:
        out.setdefault(game, [])
        if edition:
            out[game].append(edition)
    return out


def evaluate(entries: dict[str, int], game: str) -> dict[str, Any]:
    """Legality and statistics of the deck, as plain values."""
    with session() as s:
        deck_list = decks.parse_deck_list(deck_text(entries, game=game), source="deck")
        legality = decks.check_deck(s, deck_list, game)
        stats = decks.deck_stats(s, deck_list, game) if entries else None
        g = s.exec(select(Game).where(Game.code == game)).first()
        size = g.deck_size if g else None
    return {"legal": legality.legal, "count": legality.count, "problems": legality.problems,
            "stats": stats, "size": size}


def resolve_text(text: str, game: str) -> tuple[dict[str, int], dict[str, str], list[Any]]:
    """A pasted deck list → ({ref: count}, {ref: name}, problems)."""
    with session() as s:
        deck_list = decks.parse_deck_list(text, source="liste")
        resolved = decks.resolve_deck(s, deck_list, game=game)
        entries: dict[str, int] = {}
        names: dict[str, str] = {}
        for e in resolved.entries:
            entries[e.ref] = entries.get(e.ref, 0) + e.count
            names[e.ref] = e.card.name
    return entries, names, list(resolved.problems)


def count_cards(query: str | None, game: str) -> int:
    """How many cards of ``game`` match ``query`` (the same filter as ``catalog.card_dicts``)."""
    from sqlalchemy import func

    stmt = (select(func.count()).select_from(Card).join(Edition, Card.edition_id == Edition.id)
            .join(Game, Edition.game_id == Game.id).where(Game.code == game))
    if query and query.strip():
        from cardbase.catalog.search import parse_query, to_sql

        stmt = stmt.where(to_sql(parse_query(query)))
    with session() as s:
        return int(s.exec(stmt).one())


def search_page(query: str | None, game: str, page: int) -> tuple[list[dict[str, Any]], int]:
    """The cards of result page ``page`` (0-based) and the total number of results."""
    total = count_cards(query, game)
    last = max(0, (total - 1) // SEARCH_LIMIT)
    page = min(max(0, page), last)
    with session() as s:
        rows = catalog.card_dicts(s, query=query or None, game=game, limit=(page + 1) * SEARCH_LIMIT)
    return rows[page * SEARCH_LIMIT:], total


def _set_deck(entries: dict[str, int], names: dict[str, str]) -> None:
    st.session_state[DECK] = dict(entries)
    st.session_state.setdefault(NAMES, {}).update(names)


def _pending(**changes: Any) -> None:
    """Apply ``changes`` at the top of the next run, before the widgets they touch are drawn."""
    st.session_state["deck_pending"] = changes
    st.rerun()


def _apply_pending() -> None:
    p = st.session_state.pop("deck_pending", None)
    if not p:
        return
    if "game" in p:
        st.session_state["deck_game"] = st.session_state["deck_for"] = p["game"]
    if "name" in p:
        st.session_state["deck_name"] = p["name"]
    if "entries" in p:
        _set_deck(p["entries"], p.get("names", {}))
    if "loaded" in p:
        st.session_state[LOADED] = p["loaded"]
        st.session_state["deck_pick"] = p["loaded"]["id"]


def _entries() -> dict[str, int]:
    return dict(st.session_state.get(DECK) or {})


# --------------------------------------------------------------------------- page

def render() -> None:
    st.title(t("decks.title"))
    games = games_with_decks()
    if not games:
        st.info(t("decks.no_games"))
        return
    _apply_pending()
    boxes = {code: eds for code, eds in box_games().items() if code not in games}
    if st.session_state.get("deck_game") not in [*games, *boxes]:
        st.session_state["deck_game"] = MAIN_GAME if MAIN_GAME in games else games[0]
    top = st.columns([1, 2, 1], vertical_alignment="bottom")
    names = game_names()
    game = top[0].selectbox(t("field.game"), [*games, *boxes], key="deck_game",
                            format_func=lambda c: names.get(c, c))
    if game in boxes:  # a fixed box: no deck to build, its editions print as they are
        _box_panel(game, boxes[game])
        return
    if st.session_state.get("deck_for") != game:  # a deck belongs to one game
        st.session_state["deck_for"] = game
        st.session_state[DECK] = {}
        st.session_state.pop(LOADED, None)
    loaded = st.session_state.get(LOADED)
    top[1].text_input(t("decks.name"), key="deck_name", placeholder=t("decks.name_placeholder"))
    if top[2].button(t("decks.clear"), key="deck_clear", width="stretch"):
        st.session_state[DECK] = {}
        st.session_state.pop(LOADED, None)
        st.rerun()
    if loaded:
        st.caption(tp("decks.editing_saved", name=loaded["name"], version=loaded["version"]))

    entries = _entries()
    result = evaluate(entries, game)
    left, right = st.columns([3, 2], gap="large")
    with left:
        _search_panel(game, entries)
    with right:
        _legality_box(result)
        _deck_panel(entries)

    # keyed: the open tab stays open when the page is redrawn (after a save, a load…)
    tabs = st.tabs([t("decks.tab_stats"), t("decks.tab_list"), t("decks.tab_code"), t("decks.tab_save")],
                   key="deck_tab", on_change="rerun")
    with tabs[0]:
        _stats(result, game)
    with tabs[1]:
        _list_tab(entries, game)
    with tabs[2]:
        _code_tab(entries, game)
    with tabs[3]:
        _save_tab(entries, game, result)


def _box_panel(game: str, editions: list[str]) -> None:
    st.info(tp("games_admin.box_game", game=game_name(game)), icon=":material/inventory_2:")
    if not editions:
        return
    st.caption(tp("games_admin.box_editions", editions=", ".join(editions)))
    a, b = st.columns([1, 3], vertical_alignment="bottom")
    edition = a.selectbox(t("field.edition"), editions, key="deck_box_edition")
    if b.button(t("games_admin.box_print"), key="deck_box_print", icon=":material/print:"):
        st.session_state["pr_source"] = "edition"
        st.session_state["pr_edition"] = edition
        try:  # the Impression page, opened on this edition
            from cardbase.ui import printing

            st.switch_page(st.Page(printing.render, url_path="print"))
        except st.errors.StreamlitAPIException:  # the page alone, without the app's navigation
            st.caption(t("nav.print"))


def _legality_box(result: dict[str, Any]) -> None:
    size = result["size"]
    count = result["count"]
    if not count and not result["legal"]:
        st.info(t("decks.empty"), icon=":material/style:")
        return
    if result["legal"]:
        st.success(t("decks.legal", count=count), icon=":material/check_circle:")
        return
    head = t("decks.illegal", count=count, size=size if size else "?")
    lines = [f"- {plain(p.message)}" + (f" — *{plain(p.fix)}*" if p.fix else "") for p in result["problems"]]
    st.error(head + "\n\n" + "\n".join(lines), icon=":material/warning:")


def _search_panel(game: str, entries: dict[str, int]) -> None:
    query = st.text_input(t("decks.search"), key="deck_q", placeholder="k:foule v>=3",
                          help=t("cards.search_help"))
    state = st.session_state.get(PAGE) or {}
    if state.get("for") != (game, query):  # a new search starts on its first page
        state = {"for": (game, query), "page": 0}
    try:
        rows, total = search_page(query, game, state["page"])
    except QueryError as exc:
        st.error(tp("cards.query_error", message=str(exc).split("\n", 1)[0]))
        return
    except CardbaseError as exc:
        show_error(exc)
        return
    pages = max(1, -(-total // SEARCH_LIMIT))
    page = min(state["page"], pages - 1)
    st.session_state[PAGE] = {"for": (game, query), "page": page}
    first = page * SEARCH_LIMIT
    c1, c2, c3 = st.columns([4, 1, 1], vertical_alignment="center")
    c1.caption(t("decks.results", n=total) + (" · " + t("decks.results_page", first=first + 1,
                                                           last=first + len(rows), page=page + 1, pages=pages)
                                              if total > SEARCH_LIMIT else ""))
    if c2.button("", icon=":material/chevron_left:", key="deck_prev", disabled=page == 0,
                 help=t("decks.previous"), width="stretch"):
        st.session_state[PAGE] = {"for": (game, query), "page": page - 1}
        st.rerun()
    if c3.button("", icon=":material/chevron_right:", key="deck_next", disabled=page >= pages - 1,
                 help=t("decks.next"), width="stretch"):
        st.session_state[PAGE] = {"for": (game, query), "page": page + 1}
        st.rerun()
    names = st.session_state.setdefault(NAMES, {})
    with st.container(height=520, border=True):
        for card in rows:
            ref = card["ref"]
            names[ref] = card["name"]
            in_deck = entries.get(ref, 0)
            c1, c2, c3, c4 = st.columns([5, 1, 1, 1], vertical_alignment="center")
            kws = ", ".join(card["keywords"])
            value = "" if card["value"] is None else f" **{plain(card['value'])}**"
            c1.markdown(f"{plain(card['name'])}{value} · {plain(card['colour'] or '')}"
                        + (f" · *{plain(kws)}*" if kws else "") + f"  \n:gray[{plain(ref)}]"
                        + (f" :gray[— {plain(card['effect_text'])}]" if card["effect_text"] else ""))
            c2.markdown(f"**×{in_deck}**" if in_deck else "")
            if c3.button("", icon=":material/add:", key=f"add_{ref}", help=t("decks.add_one")):
                st.session_state[DECK] = add_card(entries, ref, +1)
                st.rerun()
            if c4.button("", icon=":material/remove:", key=f"sub_{ref}", disabled=not in_deck, help=t("decks.remove_one")):
                st.session_state[DECK] = add_card(entries, ref, -1)
                st.rerun()


def _deck_panel(entries: dict[str, int]) -> None:
    names = st.session_state.get(NAMES, {})
    st.markdown(f"**{t('decks.in_deck', n=sum(entries.values()))}**")
    if not entries:
        st.caption(t("decks.empty"))
        return
    with st.container(height=360, border=True):
        for ref, count in sorted(entries.items(), key=lambda kv: names.get(kv[0], kv[0])):
            c1, c2, c3 = st.columns([4, 1, 1], vertical_alignment="center")
            c1.markdown(f"**{count}×** {plain(names.get(ref, ref))} :gray[{plain(ref)}]")
            if c2.button("", icon=":material/add:", key=f"dadd_{ref}"):
                st.session_state[DECK] = add_card(entries, ref, +1)
                st.rerun()
            if c3.button("", icon=":material/remove:", key=f"dsub_{ref}"):
                st.session_state[DECK] = add_card(entries, ref, -1)
                st.rerun()


def colour_chart(colours: dict[str, int], game: str, *, height: int = 220) -> Any:
    """Cards by colour as horizontal bars, each bar in the colour the cards print with."""
    import altair as alt

    names = list(colours)
    frame = pd.DataFrame({"colour": names, "cards": [int(colours[c]) for c in names]})
    scale = alt.Scale(domain=names, range=[colour_hex(game, c) for c in names])
    return (alt.Chart(frame, height=height)
            .mark_bar(stroke="#555555", strokeWidth=0.5)
            .encode(y=alt.Y("colour:N", sort=names, title=None),
                    x=alt.X("cards:Q", title=t("decks.cards"), axis=alt.Axis(tickMinStep=1)),
                    color=alt.Color("colour:N", scale=scale, legend=None),
                    tooltip=[alt.Tooltip("colour:N", title=t("field.colour")),
                             alt.Tooltip("cards:Q", title=t("decks.cards"))]))


def _stats(result: dict[str, Any], game: str) -> None:
    stats = result["stats"]
    if stats is None or not stats.count:
        st.info(t("decks.no_stats"))
        return
    a, b, c = st.columns(3)
    a.metric(t("decks.cards"), stats.count)
    b.metric(t("decks.total_value"), stats.total_value)
    c.metric(t("decks.mean_value"), num(stats.mean_value))
    c1, c2, c3 = st.columns(3)
    with c1:
        st.markdown(f"**{t('decks.curve')}**")
        curve = pd.DataFrame({t("field.value"): list(stats.value_curve), t("decks.cards"): list(stats.value_curve.values())})
        if not curve.empty:
            st.bar_chart(curve, x=t("field.value"), y=t("decks.cards"), height=220)
    with c2:
        st.markdown(f"**{t('field.colour')}**")
        if stats.colours:
            st.altair_chart(colour_chart(dict(stats.colours), game), width="stretch")
    with c3:
        st.markdown(f"**{t('field.keywords')}**")
        if stats.keywords:
            st.bar_chart(pd.DataFrame({t("field.keywords"): list(stats.keywords), t("decks.cards"): list(stats.keywords.values())}),
                         x=t("field.keywords"), y=t("decks.cards"), height=220, horizontal=True)
        else:
            st.caption(t("common.none"))
    if stats.draw_odds and stats.draw_plan:
        st.markdown(f"**{t('decks.draw_odds')}**")
        plan = stats.draw_plan
        cols = [t("decks.turn", n=i) if i else t("decks.opening") for i in range(plan.turns + 1)]
        frame = pd.DataFrame([[o.name, o.copies] + [pct(float(p), 0) for p in o.by_turn] for o in stats.draw_odds],
                             columns=[t("field.name"), t("field.copies"), *cols])  # « 45 % » in French
        st.caption(t("decks.draw_odds_help", opening=plan.opening, per_turn=plan.per_turn))
        st.dataframe(frame, hide_index=True, width="stretch")


def _tts_zip(text: str, name: str, game: str, *, disabled: bool) -> None:
    """The deck for Tabletop Simulator: the same zip as ``cardbase tts export`` (saved object and
    face sheets; image addresses are files of the folder the zip is unpacked to, on the player's
    computer: no default, the server's own folders mean nothing there)."""
    from cardbase.outputs import tts
    from cardbase.i18n import tr
    from cardbase.ui.printing import folder_url

    folder = st.text_input(tr("tts.ui.folder"), key="deck_tts_dir",
                           placeholder=tr("tts.ui.folder_placeholder", folder=tts.slug(name)),
                           help=tr("tts.ui.folder_help", folder=tts.slug(name)))
    images_at = folder_url(folder)
    if not images_at:
        st.caption(tr("tts.ui.folder_needed"))
    if st.button(t("decks.tts_make"), key="deck_tts_go", disabled=disabled or not images_at,
                 help=t("decks.tts_help")):
        try:
            with session() as s:
                resolved = decks.resolve_deck(s, decks.parse_deck_list(text), game=game)
                source = tts.TtsSource(name, "file", tts._defs_of(s, resolved, name))
                symbols = tts.edition_symbols(s, source.cards)
            data, result = tts.export_zip(source, base_url=images_at, edition_symbols=symbols)
            st.session_state["deck_tts"] = {"text": text, "zip": data, "name": result.object.stem,
                                            "cards": result.cards}
        except CardbaseError as exc:
            show_error(exc)
    made = st.session_state.get("deck_tts")
    if made and made.get("text") == text:
        st.download_button(t("decks.tts_download", cards=made["cards"]), made["zip"],
                           file_name=f"{made['name']}-tts.zip", mime="application/zip", key="deck_tts_dl")


def _list_tab(entries: dict[str, int], game: str) -> None:
    names = st.session_state.get(NAMES, {})
    name = st.session_state.get("deck_name") or None
    text = readable_text(entries, names, name=name, game=game)
    a, b = st.columns(2, gap="large")
    with a:
        st.code(text, language=None)
        st.download_button(t("decks.download"), text, file_name=f"{safe_filename(name, 'deck')}.txt",
                           mime="text/plain", key="deck_dl", disabled=not entries)
        _tts_zip(text, name or t("decks.tts_default_name"), game, disabled=not entries)
    with b:
        pasted = st.text_area(t("decks.paste"), key="deck_paste", height=200, placeholder=t("decks.paste_placeholder"))
        if st.button(t("decks.load_list"), key="deck_load_list", disabled=not pasted.strip()):
            try:
                new, new_names, problems = resolve_text(pasted, game)
            except CardbaseError as exc:
                show_error(exc)
                return
            _set_deck(new, new_names)
            if problems:
                st.session_state["deck_paste_problems"] = [str(p) for p in problems]
            else:
                st.session_state.pop("deck_paste_problems", None)
            st.rerun()
        for line in st.session_state.get("deck_paste_problems", []):
            st.warning(plain(line))


def _code_tab(entries: dict[str, int], game: str) -> None:
    a, b = st.columns(2, gap="large")
    with a:
        if entries:
            try:
                with session() as s:
                    code = decks.encode_deck_code(s, decks.parse_deck_list(deck_text(entries, game=game)), game)
                st.markdown(t("decks.share"))
                st.code(code, language=None)
            except CardbaseError as exc:
                show_error(exc)
        else:
            st.caption(t("decks.empty"))
    with b:
        code_in = st.text_input(t("decks.code_in"), key="deck_code_in")
        if st.button(t("decks.load_code"), key="deck_load_code", disabled=not code_in.strip()):
            try:
                with session() as s:
                    decoded = decks.decode_deck_code(s, code_in.strip())
                    new = {e.ref: e.count for e in decoded.entries if e.card is not None}
                    new_names = {e.ref: e.card.name for e in decoded.entries if e.card is not None}
                    problems = [str(p) for p in decoded.problems]
                    code_game = decoded.game
            except CardbaseError as exc:
                show_error(exc)
                return
            st.session_state["deck_code_problems"] = problems
            _pending(game=code_game, entries=new, names=new_names)
        for line in st.session_state.get("deck_code_problems", []):
            st.warning(plain(line))


def _save_tab(entries: dict[str, int], game: str, result: dict[str, Any]) -> None:
    loaded = st.session_state.get(LOADED)
    a, b = st.columns(2, gap="large")
    with a:
        st.markdown(f"**{t('decks.save_title')}**")
        flash = st.session_state.pop(SAVED_FLASH, None)
        if flash:
            st.success(tp("decks.saved", name=flash["name"], version=flash["version"]),
                       icon=":material/check_circle:")
        note = st.text_input(t("decks.note"), key="deck_note")
        name = (st.session_state.get("deck_name") or "").strip()
        if st.button(t("decks.save"), key="deck_save", type="primary", disabled=not (entries and name)):
            expected = loaded["version"] if loaded and loaded["name"] == name else None
            st.session_state.pop(CONFLICT, None)
            _save(entries, game, name, expected, note)
        _conflict(entries, game, note)
        if not name:
            st.caption(t("decks.need_name"))
        if not result["legal"] and entries:
            st.caption(t("decks.save_illegal"))
    with b:
        st.markdown(f"**{t('decks.saved_decks')}**")
        with session() as s:
            saved_decks = [(d.id, d.name, d.version) for d in decks.list_decks(s, game=game)]
        if not saved_decks:
            st.caption(t("common.none"))
            return
        by_id = {d[0]: d for d in saved_decks}
        pick = st.selectbox(t("decks.open"), list(by_id), key="deck_pick",
                            format_func=lambda i: f"{by_id[i][1]} (v{by_id[i][2]})")
        c1, c2 = st.columns(2)
        if c1.button(t("decks.open_button"), key="deck_open"):
            open_saved(pick)
        if is_editor() and c2.button(t("common.delete"), key="deck_delete"):
            try:
                access.require_editor(action="delete a deck")
                with session() as s:
                    decks.delete_deck(s, pick)
                st.rerun()
            except CardbaseError as exc:
                show_error(exc)
        _history(pick)
    if not is_editor():
        with st.expander(t("decks.delete_needs_editor")):
            editor_gate()


def _save(entries: dict[str, int], game: str, name: str, expected: int | None, note: str) -> None:
    """Save the deck as ``name`` from version ``expected`` (None: a new deck). A name that another
    deck already has, and that you did not open, is a conflict to settle: save under another name
    or replace it (from the version shown to you, so a save made since is still refused)."""
    try:
        with session() as s:
            text = deck_text(entries, name=name, game=game)
            saved = decks.save_deck(s, game=game, name=name, entries=decks.parse_deck_list(text),
                                    expected_version=expected, note=note or None)
            loaded = {"id": saved.id, "name": saved.name, "version": saved.version}
        st.session_state.pop(CONFLICT, None)
        st.session_state[SAVED_FLASH] = {"name": name, "version": loaded["version"]}
        _pending(loaded=loaded, name=name)
    except StaleEditError as exc:
        current = exc.current.get("version")
        if expected is None and current is not None:  # the name is taken: not a stale edit
            with session() as s:
                suggestion = decks.free_deck_name(s, game, name)
            st.session_state[CONFLICT] = {"name": name, "version": current, "suggestion": suggestion}
        else:
            st.session_state.pop(CONFLICT, None)
            st.error(tp("decks.stale", name=name) + "\n\n" + plain(exc))
    except CardbaseError as exc:
        show_error(exc)


def _conflict(entries: dict[str, int], game: str, note: str) -> None:
    """« Ce nom est déjà pris » : save under another name, or replace the deck of that name."""
    c = st.session_state.get(CONFLICT)
    if not c:
        return
    st.warning(tp("decks.name_taken", name=c["name"], version=c["version"]), icon=":material/warning:")
    if st.session_state.get("deck_save_as_for") != c["name"]:
        st.session_state["deck_save_as"] = c["suggestion"]
        st.session_state["deck_save_as_for"] = c["name"]
    other = st.text_input(t("decks.save_as_name"), key="deck_save_as").strip()
    left, right = st.columns(2)
    if left.button(t("decks.save_as"), key="deck_save_as_go", disabled=not other or other == c["name"]):
        _save(entries, game, other, None, note)
    if right.button(tp("decks.replace", name=c["name"]), key="deck_replace"):
        _save(entries, game, c["name"], c["version"], note)


def open_saved(deck_id: int) -> None:
    from cardbase.storage.models import Deck

    with session() as s:
        deck = s.get(Deck, deck_id)
        resolved = decks.deck_entries(s, deck)
        new = {e.ref: e.count for e in resolved.entries}
        names = {e.ref: e.card.name for e in resolved.entries}
        loaded = {"id": deck.id, "name": deck.name, "version": deck.version}
        game = s.get(Game, deck.game_id).code
    _pending(game=game, name=loaded["name"], entries=new, names=names, loaded=loaded)


def _history(deck_id: int) -> None:
    with session() as s:
        versions = [(v.number, v.saved_at, v.note, list(v.entries)) for v in decks.deck_history(s, deck_id)]
    if not versions:
        return
    st.markdown(f"**{t('decks.history')}**")
    st.dataframe(pd.DataFrame([{t("decks.version"): n, t("decks.saved_at"): at.strftime("%Y-%m-%d %H:%M"),
                                 t("decks.note"): note or "", t("decks.cards"): sum(int(e["count"]) for e in ents)}
                                for n, at, note, ents in versions]), hide_index=True, width="stretch")
    if len(versions) < 2:
        return
    numbers = [v[0] for v in versions]
    c1, c2 = st.columns(2)
    va = c1.selectbox(t("decks.from"), numbers, index=len(numbers) - 2, key=f"deck_va_{deck_id}")
    vb = c2.selectbox(t("decks.to"), numbers, index=len(numbers) - 1, key=f"deck_vb_{deck_id}")
    ea = next(v[3] for v in versions if v[0] == va)
    eb = next(v[3] for v in versions if v[0] == vb)
    diff = decks.diff_versions(ea, eb)
    if not diff:
        st.caption(t("decks.no_diff"))
    else:
        st.code("\n".join(diff.lines()), language="diff")
