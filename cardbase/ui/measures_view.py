"""The measures of a good game in the app (cardbase/playtest/measures.py): a panel under every batch
view — the box games' batches, NesPanini's goldfish batch, duel, round robin and bot ladder, and the
balance (sweep) view — computed on demand, shown as a table where each measure has its value, its
95 % interval and a sentence saying what it means. A solo game (NesPanini's goldfish, 15 en un
tour alone) gets the measures that apply to it, and a row for each of the others saying why not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from cardbase.errors import CardbaseError
from cardbase.ui.common import num, pct, show_error, t
from cardbase.ui.playtest_shared import bot_label, game_cards

MEASURES_MOST = 2000  # games of the measures panel at most
SKILL_MOST = 200  # and of its skill gap
OUTCOME_MOST = 20  # and of the games whose decisions are replayed


def _span(ci: list | None, f: Callable[[Any], str]) -> str:
    return "" if not ci else f"{f(ci[0])} – {f(ci[1])}"


def measures_rows(m: dict[str, Any]) -> list[dict[str, Any]]:
    """The measures of a good game (``cardbase.playtest.measures.measures``) as table rows:
    the measure, its value, its 95 % interval and what it means."""
    solo = bool(m.get("solo"))

    def row(name: str, value: str, ci: str, meaning: str) -> dict[str, Any]:
        return {t("measures.ui.col_measure"): name, t("measures.ui.col_value"): value,
                t("measures.ui.col_ci"): ci, t("measures.ui.col_meaning"): meaning}

    def num1(x: Any) -> str:
        return num(x, 1)

    ln, dv, dc = m["length"], m["decisiveness"], m["decisions"]
    rows = []
    if not solo:
        fp = m["first_player"]
        rows.append(row(t("measures.ui.first"), pct(fp["rate"]), _span(fp["ci95"], pct),
                        t("measures.means.first_secret" if fp.get("secret_choices") else "measures.means.first")))
        seats = m.get("seats") or {}
        for s in seats.get("seats", []):
            rows.append(row(t("measures.ui.seat", seat=s["seat"], bot=bot_label(s["bot"])), pct(s["rate"]),
                            _span(s["ci95"], pct), t("measures.means.seat", fair=pct(seats["fair"]))))
    rows.append(row(t("measures.ui.length"), num1(ln["mean"]), _span(ln["ci95"], num1),
                    t("measures.means.length", sd=num1(ln["sd"]), min=ln["min"], max=ln["max"])))
    if not solo:
        lc, cb = m["lead_changes"], m["comebacks"]
        rows.append(row(t("measures.ui.leads"), num(lc["mean"], 2), _span(lc["ci95"], lambda x: num(x, 2)),
                        t("measures.means.leads")))
        rows.append(row(t("measures.ui.comebacks"), pct(cb["rate"]), _span(cb["ci95"], pct),
                        t("measures.means.comebacks")))
        rows.append(row(t("measures.ui.gap"), num1(cb["mean_gap"]), _span(cb.get("gap_ci95"), num1),
                        t("measures.means.gap")))
    rows.append(row(t("measures.ui.settled" if solo else "measures.ui.decisive"), pct(dv["mean"]),
                    _span(dv["ci95"], pct), t("measures.means.settled" if solo else "measures.means.decisive")))
    for key, name in (("skill_gap", "skill"), ("search_gap", "search")):
        g = m.get(key)
        if not g:
            continue
        if g.get("basis") == "score":
            rows.append(row(t(f"measures.ui.{name}"), t("measures.ui.points", value=num(g["diff"], 1, signed=True)),
                            _span(g["ci95"], lambda x: num(x, 1, signed=True)),
                            t(f"measures.means.{name}_solo", strong=num1(g["strong_mean"]), weak=num1(g["weak_mean"]))))
        else:
            rows.append(row(t(f"measures.ui.{name}"), pct(g["rate"]), _span(g["ci95"], pct),
                            t(f"measures.means.{name}")))
    rows.append(row(t("measures.ui.decisions"), num1(dc["per_game"]), _span(dc.get("ci95"), num1),
                    t("measures.means.decisions", options=num1(dc["options"]),
                      distinct=num1(dc.get("distinct_options", dc["options"])))))
    oc = m.get("outcome")
    if oc and oc["decisions"]:
        rows.append(row(t("measures.ui.outcome"), pct(oc["rate"]), _span(oc["ci95"], pct),
                        t("measures.means.outcome_solo" if solo else "measures.means.outcome")))
    for key, why in (m.get("not_applicable") or {}).items():  # solo: what does not apply, and why
        rows.append(row(_capital(t(f"measures.na_name.{key}")), t("measures.ui.not_applicable"), "",
                        _capital(t(f"measures.why.{why}")) + "."))
    return rows


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def measures_panel(code: str, *, prefix: str, players: int, bots: list[str], games: int, seed: int,
                   options: dict[str, Any], build: Callable[[], Any] | None = None,
                   decks: list[str] | None = None, pool: int = 0) -> None:
    """The measures of a good game (written as data or hand-written), on demand, under a batch;
    ``build``: makes the game (or the list of games played in turn) measured — NesPanini's decks —
    else the registry's box game with ``options``. ``decks``: their names, kept in the result;
    ``pool``: the pairs of decks a round robin's games are spread over."""
    from cardbase.games import registry
    from cardbase.playtest.measures import measures

    st.markdown(f"**{t('measures.ui.title')}**")
    n = min(games, MEASURES_MOST)
    if st.button(t("measures.ui.run", games=n, skill=min(games, SKILL_MOST), outcome=min(games, OUTCOME_MOST)),
                 key=f"{prefix}_measures"):
        try:
            with st.spinner(t("playtest.running")):
                game = build() if build is not None else \
                    registry.playable(code).build(tuple(game_cards(code)), players, **options)
                m = measures(game, games=n, seed=seed, bots=bots, skill_games=min(games, SKILL_MOST),
                             outcome_games=min(games, OUTCOME_MOST), code=code)
        except CardbaseError as exc:
            show_error(exc)
            return
        if pool:
            m["pool"] = pool
        if decks:
            m["decks"] = list(decks)
        st.session_state[f"{prefix}_measures_result"] = m
    m = st.session_state.get(f"{prefix}_measures_result")
    if m:
        if m.get("pool"):
            st.caption(t("measures.ui.pool", pool=m["pool"]))
        # a static table: the sentences wrap and are read whole, not cut at a column's edge
        st.table(pd.DataFrame(measures_rows(m)), hide_index=True)


def measures_table(points: list[dict[str, Any]], *, head: str, row_key: str = "value") -> None:
    """Measures side by side — one row a point (``value``: a swept value, a ruling's reading) —
    each figure with its interval, then what each column means (and, alone, what does not apply
    and why)."""
    from cardbase.playtest.measures import sweep_table

    cols, rows, meanings = sweep_table(points, num=lambda x, d, signed=False: num(x, d, signed=signed),
                                       pct=lambda x, unit=True: pct(x) if unit else num(100 * x, 1), row_key=row_key)
    st.markdown(f"**{head}**")
    st.dataframe(pd.DataFrame(rows, columns=[t(f"measures.col.{c}") for c in cols]), hide_index=True,
                 width="stretch")
    lines = [f"- **{t(f'measures.col.{c}')}** : {t(f'measures.means.{key}')}" for c, key in meanings]
    na = points[0]["measures"].get("not_applicable") or {}
    lines += [f"- **{t(f'measures.na_name.{k}')}** : {t('measures.ui.not_applicable')} — {t(f'measures.why.{w}')}"
              for k, w in na.items()]
    st.caption(t("measures.sweep_legend").strip() + "\n" + "\n".join(lines))
