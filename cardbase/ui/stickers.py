"""Sticker codes page: the legend of every value sticker and colour symbol, and a converter."""

from __future__ import annotations

import io

import pandas as pd
import streamlit as st
from PIL import Image

from cardbase import access
from cardbase.catalog import stickers
from cardbase.errors import CardbaseError
from cardbase.ui.common import editor_gate, plain, session, show_error, t, tp

LEGEND = [  # (sticker, value, French name as the rules write it)
    (stickers.Sticker.dot(), 1, "point"),
    (stickers.Sticker.circle(), 5, "rond pointé"),
    (stickers.Sticker.square(1), 10, "carré pointé"),
    (stickers.Sticker.square(2), 20, "carré pointé à 2 points"),
    (stickers.Sticker.square(3), 30, "carré pointé à 3 points"),
]


def strip_png(items: list[stickers.Sticker], symbol: str | None, height: int = 44) -> bytes | None:
    """The stickers drawn as on a printed card (PNG), or None when the drawing code is absent."""
    try:
        from cardbase.outputs.printing.sticker_art import strip_for
    except ImportError:
        return None
    if not items and not symbol:
        return None
    try:
        image = strip_for(items, symbol, height, height * 12)
    except CardbaseError:
        return None
    buf = io.BytesIO()
    background = Image.new("RGBA", image.size, (255, 255, 255, 255))
    background.alpha_composite(image)
    background.convert("RGB").save(buf, format="PNG")
    return buf.getvalue()


def render() -> None:
    st.title(t("stickers.title"))
    st.caption(t("stickers.intro"))

    conv, legend = st.columns([1, 1], gap="large")
    with conv:
        st.subheader(t("stickers.converter"))
        value = st.number_input(t("stickers.value"), min_value=0, max_value=9999, value=17, step=1,
                                key="stk_value")
        items = stickers.encode(int(value))
        st.markdown(f"**{stickers.format_stickers(items)}** — `{stickers.format_stickers(items, compact=True)}`"
                    f" — {t('stickers.count', n=len(items))}")
        png = strip_png(items, None)
        if png:
            st.image(png)
        text = st.text_input(t("stickers.decode"), value="un carré pointé + un rond pointé + deux points",
                             key="stk_text", help=t("stickers.decode_help"))
        if text.strip():
            try:
                st.success(t("stickers.decoded", value=stickers.decode(text)))
            except CardbaseError as exc:
                st.error(plain(exc))
        with session() as s:
            table = stickers.colour_table(s)
        colour = st.text_input(t("stickers.colour"), value="bleu", key="stk_colour")
        if colour.strip():
            try:
                symbol = stickers.colour_symbol(colour, table)
                st.success(tp("stickers.colour_is", colour=colour, symbol=stickers.SYMBOLS.get(symbol, symbol)))
                png = strip_png([], symbol)
                if png:
                    st.image(png)
            except CardbaseError as exc:
                st.error(plain(exc))

    with legend:
        st.subheader(t("stickers.legend_values"))
        for sticker, val, name in LEGEND:
            c1, c2 = st.columns([1, 3])
            png = strip_png([sticker], None, 36)
            if png:
                c1.image(png)
            c2.markdown(f"**{name}** = {val}")
        st.subheader(t("stickers.legend_colours"))
        rows = []
        for colour_key, symbol in table.items():
            rows.append({t("field.colour"): colour_key, t("stickers.symbol"): stickers.SYMBOLS.get(symbol, symbol)})
        for colour_key, symbol in table.items():
            c1, c2 = st.columns([1, 3])
            png = strip_png([], symbol, 32)
            if png:
                c1.image(png)
            c2.markdown(f"**{plain(colour_key)}** — {plain(stickers.SYMBOLS.get(symbol, symbol))}")
        st.download_button(t("stickers.download_table"), pd.DataFrame(rows).to_csv(index=False),
                           file_name="stickers-couleurs.csv", mime="text/csv", key="stk_dl")

    st.divider()
    st.subheader(t("stickers.add_colour"))
    if editor_gate():
        with st.form("stk_add", enter_to_submit=False):
            a, b = st.columns(2)
            new_colour = a.text_input(t("field.colour"), key="stk_new_colour")
            new_symbol = b.selectbox(t("stickers.symbol"), list(stickers.SYMBOLS), key="stk_new_symbol",
                                     format_func=lambda k: stickers.SYMBOLS[k])
            if st.form_submit_button(t("common.add")):
                try:
                    access.require_editor(action="add a sticker colour")
                    with session() as s:
                        stickers.add_colour(s, new_colour, new_symbol)
                        users = stickers.symbol_users(s, new_symbol)
                    st.success(tp("stickers.added", colour=new_colour))
                    if len(users) > 1:
                        st.warning(tp("stickers.shared_symbol", colours=", ".join(users)))
                except CardbaseError as exc:
                    show_error(exc)
