"""Playtest « Équilibre »: one card's figure tried over a range, on common random numbers.

The page calls :func:`cardbase.playtest.sweep.sweep` (the same service as ``cardbase sim sweep``):
every value plays the same deals, so the curve's differences are the card's and not luck's. The
result is a curve of the swept deck's win rate (or, alone, its mean score) with its 95 % band, and
the value where the win rate crosses 50 %; then the measures of a good game at every value (the
same deals), each with its interval and what it means. Only plain values are kept in
``st.session_state``.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from cardbase.errors import CardbaseError
from cardbase.ui.common import localized, num, num_columns, show_error, t

ALONE = "__alone__"
FIELDS = ("value", "copies", "score")
RESULT_KEY = "ptw_result"
MEASURES_GAMES = 100  # games of the measures of a good game at every value, at most


def balance_view(choices: dict[str, str], deck_cards: Any, progress_bar: Any) -> None:
    """The form, the run and the curve. ``deck_cards(key)`` gives a deck's CardDefs."""
    st.caption(t("balance.intro"))
    a, b = st.columns(2, vertical_alignment="bottom")
    keys = list(choices)
    mine = a.selectbox(t("balance.deck"), keys, format_func=choices.get, key="ptw_deck")
    other = b.selectbox(t("balance.against"), [ALONE, *keys], key="ptw_against",
                        format_func=lambda k: t("balance.alone") if k == ALONE else choices[k])
    try:
        cards = deck_cards(mine)
    except CardbaseError as exc:
        show_error(exc)
        return
    distinct: dict[str, str] = {}
    for c in cards:
        distinct.setdefault(c.ref, f"{c.ref} — {c.name}")
    c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
    ref = c1.selectbox(t("balance.card"), list(distinct), format_func=distinct.get, key="ptw_card")
    field = c2.selectbox(t("balance.field"), FIELDS, key="ptw_field",
                         format_func=lambda f: t(f"balance.field_{f}"))
    card = next(c for c in cards if c.ref == ref)
    start = {"value": card.value or 0, "copies": 1, "score": 1}[field]
    r1, r2, r3, r4, r5 = st.columns(5, vertical_alignment="bottom")
    lo = r1.number_input(t("balance.from"), -99, 99, max(0, start - 3) if field != "score" else -3, key="ptw_lo")
    hi = r2.number_input(t("balance.to"), -99, 99, start + 3 if field != "copies" else 2, key="ptw_hi")
    step = r3.number_input(t("balance.step"), 1, 50, 1, key="ptw_step")
    games = r4.number_input(t("balance.games"), 10, 100_000, 200, 50, key="ptw_games")
    seed = r5.number_input(t("playtest.seed"), 0, 10**9, 0, key="ptw_seed")
    values = list(range(int(lo), int(hi) + 1, int(step)))
    st.caption(t("balance.plan", n=len(values), games=int(games), total=len(values) * int(games)))
    measured = min(int(games), MEASURES_GAMES)
    with_measures = st.checkbox(t("measures.ui.with_measures", games=measured), value=True, key="ptw_measures")
    if st.button(t("playtest.run"), key="ptw_go", type="primary", disabled=not values):
        from cardbase.playtest.sweep import sweep

        try:
            against = None if other == ALONE else deck_cards(other)
            result = sweep(cards, card=ref, field=field, values=values, against=against,
                           games=int(games), seed=int(seed), progress=progress_bar(),
                           deck_name=choices[mine], measures_games=measured if with_measures else 0)
        except CardbaseError as exc:
            show_error(exc)
            return
        st.session_state[RESULT_KEY] = {"points": result["points"], "crossing": result.get("crossing"),
                                        "alone": other == ALONE, "card": distinct[ref], "field": field}
    shown = st.session_state.get(RESULT_KEY)
    if shown:
        _curve(shown)
        from cardbase.ui.measures_view import measures_table

        points = [p for p in shown["points"] if p.get("measures")]
        if points:
            measures_table(points, head=t("measures.sweep_head", games=points[0]["measures"]["games"]))


def points_frame(points: list[dict[str, Any]], *, alone: bool) -> pd.DataFrame:
    """The sweep's points as a table: value, the figure (win rate or mean score) and its band."""
    rows = []
    for p in points:
        lo, hi = p["ci95"]
        y = p["mean_score"] if alone else p["win_rate"]
        rows.append({"value": p["value"], "y": y, "lo": lo, "hi": hi, "mean_score": p["mean_score"]})
    return pd.DataFrame(rows)


def _curve(shown: dict[str, Any]) -> None:
    import altair as alt

    alone = shown["alone"]
    df = points_frame(shown["points"], alone=alone)
    field_label = t(f"balance.field_{shown['field']}")
    y_title = t("balance.mean_score") if alone else t("balance.win_rate")
    axis = alt.Axis(format=".0%") if not alone else alt.Axis()
    scale = alt.Scale(domain=[0, 1]) if not alone else alt.Scale(zero=False)
    base = alt.Chart(df).encode(x=alt.X("value:Q", title=field_label, axis=alt.Axis(tickMinStep=1)))
    band = base.mark_area(opacity=0.25, color="#4c78a8").encode(y=alt.Y("lo:Q", title=y_title, axis=axis, scale=scale),
                                                                 y2="hi:Q")
    line = base.mark_line(point=True, color="#1f4e79").encode(
        y=alt.Y("y:Q", title=y_title, axis=axis, scale=scale),
        tooltip=[alt.Tooltip("value:Q", title=field_label),
                 alt.Tooltip("y:Q", title=y_title, format=".1%" if not alone else ".2f"),
                 alt.Tooltip("lo:Q", format=".1%" if not alone else ".2f"),
                 alt.Tooltip("hi:Q", format=".1%" if not alone else ".2f")])
    layers = [band, line]
    if not alone:
        layers.append(alt.Chart(pd.DataFrame({"y": [0.5]})).mark_rule(strokeDash=[4, 4], color="#888")
                      .encode(y="y:Q"))
    st.markdown(f"**{t('balance.title', card=shown['card'])}**")
    st.altair_chart(localized(alt.layer(*layers)), width="stretch")  # numbers as the language writes them
    crossing = shown.get("crossing")
    if not alone:
        st.caption(t("balance.crossing", value=num(crossing, 1)) if crossing is not None
                   else t("balance.no_crossing"))
    table = df.drop(columns=["mean_score"]) if alone else df  # alone, the figure is the mean score
    # Streamlit's own number display always writes a dot: the figures go as text of the language
    table = num_columns(table, 2, percent=() if alone else ("y", "lo", "hi"))
    st.dataframe(table.rename(columns={"value": field_label, "y": y_title, "lo": t("balance.lo"),
                                       "hi": t("balance.hi"), "mean_score": t("balance.mean_score")}),
                 hide_index=True, width="stretch")
