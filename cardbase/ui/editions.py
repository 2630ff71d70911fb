"""Editions page: every edition with its card count and numbering check; create and edit editions;
download an edition as its data file."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st
from sqlmodel import select

from cardbase import access
from cardbase.catalog import cards as catalog
from cardbase.errors import CardbaseError
from cardbase.storage.models import Game
from cardbase.ui.common import MAIN_GAME, editor_gate, game_names, plain, session, show_error, t, tp

FLASH = "edn_flash"  # the confirmation of the last write, shown once after the page reloads


def report_frame(report: list[dict], names: dict[str, str] | None = None) -> pd.DataFrame:
    names = names or {}
    return pd.DataFrame([{
        t("field.edition"): r["code"], t("field.name"): r["name"], t("field.game"): names.get(r["game"], r["game"]),
        t("editions.cards"): r["cards"], t("editions.set_size"): r["set_size"],
        t("editions.numbering"): "OK" if r["numbering_ok"] else "⚠ " + "; ".join(r["numbering_issues"]),
        t("editions.date"): r["release_date"], t("editions.symbol"): r["symbol"] or "",
        t("editions.sample"): "✓" if r["sample"] else "", t("editions.version"): r["version"],
    } for r in report])


def render() -> None:
    st.title(t("editions.title"))
    if "edn_pick_next" in st.session_state:  # set before the selectbox exists in this run
        st.session_state["edn_pick"] = st.session_state.pop("edn_pick_next")
    flash = st.session_state.pop(FLASH, None)
    if flash:
        st.success(flash, icon=":material/check_circle:")
    with session() as s:
        report = catalog.edition_report(s)
        games = list(s.exec(select(Game.code).order_by(Game.code)).all())
    bad = [r for r in report if not r["numbering_ok"]]
    a, b, c = st.columns(3)
    a.metric(t("editions.count"), len(report))
    b.metric(t("editions.total_cards"), sum(r["cards"] for r in report))
    c.metric(t("editions.numbering_problems"), len(bad))
    st.dataframe(report_frame(report, game_names()), hide_index=True, width="stretch")
    for r in bad:
        st.warning(f"**{plain(r['code'])}** — " + plain("; ".join(r["numbering_issues"])))

    codes = [r["code"] for r in report]
    editor = editor_gate()
    left, right = st.columns(2, gap="large")
    with left:
        st.subheader(t("editions.edit"))
        if codes:
            code = st.selectbox(t("field.edition"), codes, key="edn_pick")
            current = next(r for r in report if r["code"] == code)
            with session() as s:
                data_file = catalog.export_edition_text(s, code)
            st.download_button(t("editions.download", code=code), data_file, file_name=f"{code}.toml",
                               mime="application/toml", key="edn_dl")
            if editor:
                _edit_form(current)
    with right:
        if editor:
            st.subheader(t("editions.new"))
            _create_form(games)


def _edit_form(current: dict) -> None:
    with st.form(f"edn_edit_{current['code']}", enter_to_submit=False):
        name = st.text_input(t("field.name"), value=current["name"])
        a, b, c = st.columns(3)
        # no min_value: Streamlit would turn a number below it into the default, saved silently;
        # the service refuses it with a message instead
        set_size = a.number_input(t("editions.set_size"), value=int(current["set_size"]), step=1)
        symbol = b.text_input(t("editions.symbol"), value=current["symbol"] or "")
        date = c.date_input(t("editions.date"), value=current["release_date"], format="YYYY-MM-DD")
        if st.form_submit_button(t("common.save"), type="primary"):
            changes = {"name": name.strip(), "set_size": int(set_size), "symbol": symbol.strip() or None,
                       "release_date": date if isinstance(date, dt.date) else None}
            try:
                access.require_editor(action="change an edition")
                with session() as s:
                    catalog.update_edition(s, current["code"], expected_version=current["version"],
                                           changes=changes)
                st.session_state[FLASH] = tp("editions.saved", code=current["code"])
                st.rerun()
            except CardbaseError as exc:
                show_error(exc)


def _create_form(games: list[str]) -> None:
    with st.form("edn_new", enter_to_submit=False):
        a, b = st.columns(2)
        names = game_names()
        game = a.selectbox(t("field.game"), games, index=games.index(MAIN_GAME) if MAIN_GAME in games else 0,
                           format_func=lambda c: names.get(c, c))
        code = b.text_input(t("editions.code"), placeholder="NP2")
        name = st.text_input(t("field.name"))
        c, d = st.columns(2)
        set_size = c.number_input(t("editions.set_size"), value=0, step=1)  # checked by the service
        symbol = d.text_input(t("editions.symbol"))
        if st.form_submit_button(t("editions.create"), type="primary"):
            try:
                access.require_editor(action="create an edition")
                with session() as s:
                    catalog.create_edition(s, game=game, code=code, name=name, set_size=int(set_size),
                                           symbol=symbol.strip() or None, release_date=dt.date.today())
                st.session_state[FLASH] = tp("editions.created", code=code.strip().upper())
                st.session_state["edn_pick_next"] = code.strip().upper()  # the new edition, ready to edit
                st.rerun()
            except CardbaseError as exc:
                show_error(exc)
