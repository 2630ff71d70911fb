"""Playtest views shared by the box games (OVERKILL, and every box game with an engine).

:func:`render` is the generic view of a box game that has an engine but no table of its own yet:
batches only. :func:`batch` is that batch form and its charts, for any registered box game, through
``cardbase.playtest.games.simulate``: win rate per seat with its Wilson 95 % interval, each card's
impact (win rate of the seats that held it against the others, both with their interval), how the
games ended and how many rounds they lasted. :func:`no_engine` speaks for a game without an engine.

Only plain values are kept in the session: the report as a dict and the rounds of each game.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from cardbase import i18n
from cardbase.errors import CardbaseError
from cardbase.ui.common import lang, localized, num, pct, session, show_error, t
from cardbase.ui.playtest_shared import (  # noqa: F401 - the tables' helpers, re-exported
    bot_label,
    bot_labels,
    bots_until,
    ending_label,
    game_cards,
)


def team_label(name: str) -> str:
    """A team of a batch report (its stable machine name, ``Terror``) as the game's table names it."""
    return i18n.find(lang(), f"ctterror_page.team_{name}") or name


def no_engine(code: str) -> None:
    """A game without an engine: say so, and what it can do today — its cards, editions and
    decks (with their counts), deck building where it has deck rules, and printing."""
    from sqlmodel import func, select

    from cardbase.games import registry
    from cardbase.storage.models import Card, Deck, Edition, Game

    with session() as s:
        names = {g.code: g.name for g in s.exec(select(Game))}
        game = s.exec(select(Game).where(Game.code == code)).first()
        editions = cards = saved = 0
        deck_size = None
        if game is not None:
            editions = s.exec(select(func.count()).select_from(Edition).where(Edition.game_id == game.id)).one()
            cards = s.exec(select(func.count()).select_from(Card).join(Edition)
                           .where(Edition.game_id == game.id)).one()
            saved = s.exec(select(func.count()).select_from(Deck).where(Deck.game_id == game.id)).one()
            deck_size = getattr(game, "deck_size", None)
    engines = [names.get(c, c) for c, spec in registry.REGISTRY.items() if spec.engine]
    st.info(t("games_page.no_engine", engines=", ".join(engines)), icon=":material/construction:")
    st.markdown(t("games_page.what_exists"))
    lines = [f"- [{t('nav.cards')}](cards) — {t('games_page.link_cards_count', cards=cards, editions=editions)}"]
    if deck_size:
        lines.append(f"- [{t('nav.decks')}](decks) — {t('games_page.link_decks', size=deck_size, saved=saved)}")
    lines.append(f"- [{t('nav.print')}](print) — {t('games_page.link_print')}")
    lines.append(f"- [{t('games_admin.nav')}](games) — {t('games_page.link_games')}")
    st.markdown("\n".join(lines))


def render(code: str) -> None:
    """A game with an engine but no view of its own: batches of bot games (box games)."""
    from cardbase.games import registry

    spec = registry.get(code)
    if spec.material != "box":
        st.info(t("games_page.no_view"), icon=":material/construction:")
        return
    if getattr(spec, "rules_file", None):  # a game written as data: its table, then its batches
        from cardbase.ui import playtest_rules

        mode = st.segmented_control(t("playtest.mode"), ["table", "batch"], key=f"prt_{code}_mode",
                                    default="table", format_func=lambda m: t(f"rulesdata.table.mode_{m}"),
                                    label_visibility="collapsed", required=True) or "table"
        if mode == "table":
            playtest_rules.table(code)
            return
    else:
        st.caption(t("games_page.no_table"))
    batch(code, prefix=f"pgb_{code}")


# --------------------------------------------------------------------------- batches

def _progress_bar():
    bar = st.progress(0.0, text=t("playtest.running"))

    def update(done: int, total: int) -> None:
        bar.progress(min(1.0, done / max(total, 1)), text=t("playtest.progress", done=done, total=total))

    return update


def batch(code: str, *, prefix: str) -> None:
    """The batch form (games, seed, players, a bot per seat), its progress bar and its charts."""
    from cardbase.games import registry
    from cardbase.playtest.games import simulate

    spec = registry.playable(code)
    cols = st.columns(3, vertical_alignment="bottom")
    games = cols[0].number_input(t("games_page.games"), 1, 100_000, 200, 50, key=f"{prefix}_games")
    seed = cols[1].number_input(t("playtest.seed"), 0, 10**9, 0, key=f"{prefix}_seed")
    if spec.max_players > spec.min_players:
        default = getattr(spec, "default_players", None) or spec.min_players
        players = int(cols[2].number_input(t("games_page.players"), spec.min_players, spec.max_players,
                                           default, 1, key=f"{prefix}_players"))
    else:
        players = spec.min_players
        cols[2].metric(t("games_page.players"), players)
    seat_cols = st.columns(min(players, 4))
    bots = []
    for p in range(players):
        default = spec.bots.index("greedy") if "greedy" in spec.bots else 0
        bots.append(seat_cols[p % len(seat_cols)].selectbox(
            t("games_page.seat_bot", seat=p + 1), spec.bots, index=default, key=f"{prefix}_bot_{p}",
            format_func=bot_labels()))
    if any(b in ("mc", "ismcts") for b in bots):
        st.caption(t("games_page.slow_bots"))
    from cardbase.ui import rulings_view

    options = rulings_view.rule_options(code, prefix)
    if st.button(t("playtest.run"), key=f"{prefix}_go", type="primary"):
        try:
            rep, records = simulate(code, game_cards(code), players=players, bots=bots, games=int(games),
                                    seed=int(seed), workers=1, progress=_progress_bar(), options=options)
        except CardbaseError as exc:
            show_error(exc)
            return
        st.session_state[f"{prefix}_result"] = {"report": rep.as_dict(),
                                                "rounds": [r.rounds for r in records],
                                                "lines": list(rep.extra_lines)}
    result = st.session_state.get(f"{prefix}_result")
    if result:
        show_report(result["report"], result["rounds"], result.get("lines"))
        rulings_view.rulings_caption(result["report"].get("rulings") or [])
        rulings_view.show_coverage(result["report"])
    rulings_view.weights_panel(code, prefix=prefix, players=players, bots=bots, games=int(games),
                               seed=int(seed), progress_bar=_progress_bar, cards=game_cards)
    # every game, a solo one too (its measures are those that apply to it)
    from cardbase.ui.measures_view import measures_panel

    measures_panel(code, prefix=prefix, players=players, bots=bots, games=int(games), seed=int(seed),
                   options=options)


def _win_chart(df: pd.DataFrame, order: list[str], cols: tuple[str, str, str, str, str], cards: int) -> None:
    """Each card's win rate with and without it (or when taken and not), a point and its interval
    per side; ``cols``: the frame's card, side, rate, interval low and high columns."""
    import altair as alt

    name_col, held_col, win_col, lo_col, hi_col = cols
    base = alt.Chart(df).encode(
        y=alt.Y(f"{name_col}:N", sort=order, title=None),
        yOffset=alt.YOffset(f"{held_col}:N"),
        color=alt.Color(f"{held_col}:N", title=None, legend=alt.Legend(orient="top"),
                        scale=alt.Scale(range=["#e45756", "#9a9a9a"])))
    points = base.mark_point(filled=True, size=60).encode(
        x=alt.X(f"{win_col}:Q", title=win_col, axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
        tooltip=[name_col, held_col, alt.Tooltip(f"{win_col}:Q", format=".1%"),
                 alt.Tooltip(f"{lo_col}:Q", format=".1%"), alt.Tooltip(f"{hi_col}:Q", format=".1%"), "n"])
    rules = base.mark_rule().encode(x=alt.X(f"{lo_col}:Q", title=win_col), x2=f"{hi_col}:Q")
    st.altair_chart(localized((rules + points).properties(height=34 * cards + 40)), width="stretch")


def _show_choices(cards: list[dict[str, Any]]) -> None:
    """A rules file's cards: how often the bots took each one when offered, and the win rate of the
    seats that took it against the others (a side no seat was on is left out of the chart)."""
    order = sorted(cards, key=lambda c: (c["effect"] is None, -(c["effect"] or 0.0), c["name"]))
    name_col, held_col, win_col = t("games_page.card"), t("games_page.held"), t("games_page.win_rate")
    lo_col, hi_col = t("games_page.ci_low"), t("games_page.ci_high")
    st.markdown(f"**{t('games_page.choices_title')}**")
    st.caption(t("games_page.choices_caption"))
    rows = []
    for c in order:
        for side, rate, ci, n in (("games_page.taken_yes", c["win_rate_held"], c["ci95_held"], c["games_held"]),
                                  ("games_page.taken_no", c["win_rate_not_held"], c["ci95_not_held"],
                                   c["games_not_held"])):
            if n:
                rows.append({name_col: c["name"], held_col: t(side), win_col: rate, lo_col: ci[0],
                             hi_col: ci[1], "n": n})
    if rows:
        _win_chart(pd.DataFrame(rows), [c["name"] for c in order], (name_col, held_col, win_col, lo_col, hi_col),
                   len(cards))

    def interval(ci: list[float]) -> str:
        return f"{pct(ci[0])} – {pct(ci[1])}"

    st.dataframe(pd.DataFrame([{
        name_col: c["name"], t("games_page.offered"): c["offered"], t("games_page.taken"): c["taken"],
        t("games_page.take_rate"): pct(c["take_rate"]), t("games_page.take_ci"): interval(c["ci95_take"]),
        t("games_page.rate_taken"): pct(c["win_rate_held"]) if c["games_held"] else "—",
        t("games_page.taken_ci"): interval(c["ci95_held"]) if c["games_held"] else "—",
        t("games_page.rate_not_taken"): pct(c["win_rate_not_held"]) if c["games_not_held"] else "—",
        t("games_page.not_taken_ci"): interval(c["ci95_not_held"]) if c["games_not_held"] else "—",
        t("games_page.delta"): pct(c["effect"], signed=True) if c["effect"] is not None else "—"}
        for c in order]), hide_index=True, width="stretch")


def show_report(rep: dict[str, Any], rounds: list[int], lines: list[str] | None = None) -> None:
    """A batch's figures and charts (plain values: ``GameReport.as_dict()`` and rounds per game).
    A game that says its seats' win rates mean nothing (``seat_win_rates: False``: 15 en un tour
    alone) shows its own figures (``lines``, from ``game.analytics_text``) instead."""
    import altair as alt

    from cardbase.playtest.stats import wilson

    n = rep["games"]
    if rep.get("seat_win_rates") is False:
        st.metric(t("games_page.games"), n)
        for line in lines or []:
            st.markdown(line)
        return
    m = st.columns(4)
    m[0].metric(t("games_page.games"), n)
    m[1].metric(t("games_page.ties"), rep["ties"])
    m[2].metric(t("games_page.mean_turns"), num(rep["mean_turns"], 1))
    from cardbase.games.rulesdata.register import rounds_go_around

    around = rounds_go_around(rep.get("game") or "")
    m[3].metric(t("games_page.mean_rounds_around" if around else "games_page.mean_rounds"), num(rep["mean_rounds"], 2))

    seat_col, win_col = t("games_page.seat"), t("games_page.win_rate")
    lo_col, hi_col = t("games_page.ci_low"), t("games_page.ci_high")
    seats = pd.DataFrame([{seat_col: t("games_page.seat_label", seat=s["seat"], bot=bot_label(s["bot"])),
                           win_col: s["win_rate"], lo_col: s["ci95"][0], hi_col: s["ci95"][1],
                           t("games_page.wins"): s["wins"]} for s in rep["seats"]])
    st.markdown(f"**{t('games_page.seats_title')}**")
    # one band per seat, with room between them: two seats never merge into one block
    base = alt.Chart(seats).encode(y=alt.Y(f"{seat_col}:N", title=None, sort=None,
                                           scale=alt.Scale(paddingInner=0.35, paddingOuter=0.2),
                                           axis=alt.Axis(labelLimit=260)))
    bars = base.mark_bar(color="#4c78a8").encode(
        x=alt.X(f"{win_col}:Q", title=win_col, axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
        tooltip=[seat_col, alt.Tooltip(f"{win_col}:Q", format=".1%"), alt.Tooltip(f"{lo_col}:Q", format=".1%"),
                 alt.Tooltip(f"{hi_col}:Q", format=".1%")])
    rules = base.mark_rule(color="#222", strokeWidth=2).encode(x=alt.X(f"{lo_col}:Q", title=win_col),
                                                               x2=f"{hi_col}:Q")
    # the fair share: a seat of a team game wins with its team, so its share is one team's
    sides = len(rep["teams"]) if rep.get("teams") else len(seats)
    fair = alt.Chart(pd.DataFrame({"x": [1 / max(sides, 1)]})).mark_rule(
        color="#888", strokeDash=[4, 4]).encode(x="x:Q")
    st.altair_chart(localized((bars + rules + fair).properties(height=48 * len(seats) + 50)), width="stretch")
    st.caption(t("games_page.seats_caption_teams" if rep.get("teams") else "games_page.seats_caption"))
    if rep["ties"] and not rep.get("teams") and rep["seats"] and rep["seats"][0].get("decided"):
        st.caption(t("games_page.decided", ties=rep["ties"], decided=rep["seats"][0]["decided"], seats=" · ".join(
            t("games_page.decided_seat", seat=s["seat"], rate=pct(s["win_rate_decided"]),
              lo=pct(s["ci95_decided"][0]), hi=pct(s["ci95_decided"][1])) for s in rep["seats"])))
    if rep.get("teams"):
        st.markdown(f"**{t('games_page.teams_title')}**")
        st.dataframe(pd.DataFrame([{t("games_page.team"): team_label(name), t("games_page.wins"): v["wins"],
                                    win_col: pct(v["win_rate"]),
                                    t("games_page.ci95"): f"{pct(v['ci95'][0])} – {pct(v['ci95'][1])}"}
                                   for name, v in rep["teams"].items()]), hide_index=True, width="stretch")

    if rep.get("cards") and "offered" in rep["cards"][0]:  # a rules file's game: the cards chosen
        _show_choices(rep["cards"])
    elif rep.get("cards"):
        per_seat_games = n * len(rep["seats"])
        rows = []
        name_col, held_col = t("games_page.card"), t("games_page.held")
        for c in rep["cards"]:
            held = c["games_held"]
            other = per_seat_games - held
            won_other = round(c["win_rate_not_held"] * other)
            olo, ohi = wilson(won_other, other)
            rows.append({name_col: c["name"], held_col: t("games_page.held_yes"), win_col: c["win_rate_held"],
                         lo_col: c["ci95_held"][0], hi_col: c["ci95_held"][1], "n": held})
            rows.append({name_col: c["name"], held_col: t("games_page.held_no"), win_col: c["win_rate_not_held"],
                         lo_col: olo, hi_col: ohi, "n": other})
        df = pd.DataFrame(rows)
        order = [c["name"] for c in sorted(rep["cards"], key=lambda c: -(c["win_rate_held"] - c["win_rate_not_held"]))]
        st.markdown(f"**{t('games_page.cards_title')}**")
        _win_chart(df, order, (name_col, held_col, win_col, lo_col, hi_col), len(rep["cards"]))
        st.caption(t("games_page.cards_caption"))
        table = pd.DataFrame([{
            t("field.ref"): c["ref"], name_col: c["name"], held_col: c["games_held"],
            t("games_page.rate_held"): pct(c["win_rate_held"]),
            t("games_page.ci95"): f"{pct(c['ci95_held'][0])} – {pct(c['ci95_held'][1])}",
            t("games_page.rate_not_held"): pct(c["win_rate_not_held"]),
            t("games_page.delta"): pct(c["win_rate_held"] - c["win_rate_not_held"], signed=True)}
            for c in sorted(rep["cards"], key=lambda c: -(c["win_rate_held"] - c["win_rate_not_held"]))])
        with st.expander(t("games_page.cards_table")):
            st.dataframe(table, hide_index=True, width="stretch")

    left, right = st.columns(2)
    with left:
        st.markdown(f"**{t('games_page.ended_title')}**")
        how, count = t("games_page.ending"), t("games_page.games")
        ended = pd.DataFrame([{how: ending_label(k, rep.get("game")), count: v} for k, v in rep["ended_by"].items()])
        bars = alt.Chart(ended).encode(x=alt.X(f"{count}:Q"), y=alt.Y(f"{how}:N", title=None))
        chart = bars.mark_bar(color="#72b7b2", size=26) + bars.mark_text(align="left", dx=4).encode(
            text=f"{count}:Q")
        st.altair_chart(localized(chart.properties(height=max(110, 44 * len(ended) + 60))), width="stretch")
        off = sum(v for k, v in rep["ended_by"].items() if k.endswith("_limit"))
        if off:
            st.warning(t("games_page.safety_net", n=off, games=n), icon=":material/warning:")
    with right:
        st.markdown(f"**{t('games_page.rounds_around_title' if around else 'games_page.rounds_title')}**")
        rcol = t("games_page.rounds_around" if around else "games_page.rounds")
        counts = pd.Series(rounds).value_counts()
        # every value between the shortest and the longest game, empty ones included
        span = range(int(min(rounds)), int(max(rounds)) + 1) if rounds else range(0)
        hist = pd.DataFrame({rcol: list(span), count: [int(counts.get(r, 0)) for r in span]})
        st.altair_chart(localized(alt.Chart(hist).mark_bar(color="#f58518").encode(
            x=alt.X(f"{rcol}:O", axis=alt.Axis(labelAngle=0)), y=alt.Y(f"{count}:Q")).properties(height=220)),
            width="stretch")
