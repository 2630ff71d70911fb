"""The rulings in the app's batch views: choose the readings, see which ones a figure rests on,
each contested ruling's weight (« Poids des arbitrages ») and the rule coverage of a batch.

The same services as the command line: ``cardbase.games.rulings`` (the rulings and their options),
``cardbase.playtest.weights.weigh`` (``cardbase sim rulings``) and the report's ``coverage``.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from cardbase import i18n
from cardbase.errors import CardbaseError
from cardbase.games import rulings as rulings_data
from cardbase.games.rulings import Ruling
from cardbase.ui.common import lang, show_error, t, tp

MEASURES_GAMES = 100  # games of the measures of a good game under every reading, at most


def pct(x: float | None, digits: int = 1, signed: bool = False) -> str:
    """A rate as the interface language writes it (« 3,5 % » in French)."""
    return "—" if x is None else i18n.fmt_pct(x, digits, signed=signed, lang=lang())


def _value_text(v: Any, option: str | None = None) -> str:
    """An option's value in words (« 5 tours chacun »); the code is what ``--rule`` takes."""
    from cardbase import i18n

    if isinstance(v, bool):
        return t("rulings_view.yes") if v else t("rulings_view.no")
    if option:
        return i18n.find(lang(), f"rulings.value.{option}.{v}") or str(v)
    return str(v)


def _help(r: Ruling) -> str:
    """The ruling's text as a tooltip, option names shown as code, and what --rule takes."""
    import re

    codes = {str(v).lower() for v in r.allowed} | {"true", "false"} | ({r.option} if r.option else set())
    codes = {c for c in codes if re.fullmatch(r"[a-z_]+", c)}

    def code(m: re.Match) -> str:
        word = m.group(1)
        return f"`{word}`" if "_" in word or word.lower() in codes else word

    # the names an option and its values have on the command line are shown as code
    text = re.sub(r"(?<![`\w])([A-Za-z][A-Za-z_]*)(?![`\w])", code, r.text_in(lang()))
    return f"{text}\n\n`--rule {r.option}=…`" if r.option else text


def _widget(r: Ruling, key: str) -> Any:
    label = f"{r.code} — {r.title_in(lang())}" + (f" ({t('rulings_view.contested')})" if r.contested else "")
    if isinstance(r.default, bool):
        return st.checkbox(label, value=r.default, key=key, help=_help(r))
    if r.allowed:
        return st.selectbox(label, list(r.allowed), index=list(r.allowed).index(r.default), key=key,
                            format_func=lambda v: _value_text(v, r.option), help=_help(r))
    if isinstance(r.default, int):
        lo, hi = r.bounds or (0, 10**6)
        return int(st.number_input(label, lo, hi, r.default, key=key, help=_help(r)))
    return st.text_input(label, value=str(r.default), key=key, help=_help(r))


def rule_options(code: str, prefix: str) -> dict[str, Any]:
    """The rulings' options of a batch, chosen in an expander (contested ones first); only the
    options that differ from the default are returned."""
    rulings = [r for r in rulings_data.game_rulings(code) if r.option]
    if not rulings:
        return {}
    rulings.sort(key=lambda r: (not r.contested, r.code))
    out: dict[str, Any] = {}
    with st.expander(t("rulings_view.expander", count=len(rulings),
                       contested=sum(1 for r in rulings if r.contested))):
        st.caption(t("rulings_view.expander_caption"))
        for r in rulings:
            value = _widget(r, f"{prefix}_rule_{r.option}")
            if value != r.default:
                out[r.option] = value
    return out


def rulings_caption(rulings: list[dict[str, Any]]) -> None:
    """Which contested or changed rulings the figures above rest on."""
    parts = [f"{r['code']} : {_value_text(r['value'], r['option'])}" + (" *" if r["changed"] else "")
             for r in rulings if r["contested"] or r["changed"]]
    if parts:
        st.caption(t("rulings_view.rests_on", rulings=", ".join(parts)))


def show_coverage(rep: dict[str, Any]) -> None:
    """The batch's rule coverage: a warning per rulebook rule the bots almost never used, and
    the whole table in an expander."""
    for line in rep.get("coverage_warnings") or []:
        st.warning(line, icon=":material/rule:")
    cov = rep.get("coverage") or {}
    if not cov:
        return
    with st.expander(t("rulings_view.coverage_title")):
        st.dataframe(pd.DataFrame([{
            t("rulings_view.rule"): v["label"], t("rulings_view.occasions"): v["occasions"],
            t("rulings_view.used"): v["used"], t("rulings_view.rate"): pct(v["rate"]),
            t("rulings_view.per_game"): f"{v['per_game']:.2f}".replace(".", "," if lang() == "fr" else "."),
            t("rulings_view.rulebook"): t("rulings_view.yes") if v["rulebook"] else ""}
            for v in cov.values()]), hide_index=True, width="stretch")


def weights_panel(code: str, *, prefix: str, players: int, bots: list[str], games: int, seed: int,
                  progress_bar, cards) -> None:
    """« Poids des arbitrages »: the same games under every reading of each contested ruling
    (``cards(code)``: the game's cards, given by the page that shows the panel)."""
    from cardbase.games.rulings import contested
    from cardbase.playtest.weights import weigh

    weighed = contested(code)
    st.markdown(f"**{t('rulings_view.weights_title')}**")
    if not weighed:
        st.caption(t("rulings_view.no_contested"))
        return
    runs = sum(len(r.variants()) for r in weighed)
    st.caption(t("rulings_view.weights_caption", rulings=", ".join(r.code for r in weighed),
                 games=games * (1 + runs)))
    if st.button(t("rulings_view.weights_run"), key=f"{prefix}_weigh"):
        try:
            res = weigh(code, cards(code), players=players, bots=bots, games=games, seed=seed,
                        workers=1, progress=progress_bar(), measures_games=min(games, MEASURES_GAMES))
        except CardbaseError as exc:
            show_error(exc)
            return
        st.session_state[f"{prefix}_weights"] = res
    res = st.session_state.get(f"{prefix}_weights")
    if not res or res.get("game") != code:
        return
    weights_table(res)


def duel_weights_panel(named: dict[str, Any], *, prefix: str, bots: tuple[str, str], games: int, seed: int,
                       stalemate_rounds: int, progress_bar) -> None:
    """NesPanini's « Poids des arbitrages »: one duel under every reading of R1 and R9."""
    from cardbase.games.rulings import contested
    from cardbase.playtest.weights import weigh_duel

    weighed = contested("nespanini")
    st.markdown(f"**{t('rulings_view.weights_title')}**")
    runs = sum(len(r.variants()) for r in weighed)
    st.caption(t("rulings_view.weights_caption", rulings=", ".join(r.code for r in weighed),
                 games=games * (1 + runs)))
    if len(named) != 2:
        st.caption(t("rulings_view.two_decks"))
        return
    if st.button(t("rulings_view.weights_run"), key=f"{prefix}_weigh"):
        from cardbase.catalog import cards as catalog
        from cardbase.ui.common import session

        (na, da), (nb, db) = named.items()
        try:
            with session() as s:
                pool = catalog.card_defs(s, game="nespanini")
            res = weigh_duel(da, db, names=(na, nb), bots=bots, games=games, seed=seed, pool=pool,
                             stalemate_rounds=stalemate_rounds, workers=1, progress=progress_bar(),
                             measures_games=min(games, MEASURES_GAMES))
        except CardbaseError as exc:
            show_error(exc)
            return
        st.session_state[f"{prefix}_weights"] = res
    res = st.session_state.get(f"{prefix}_weights")
    if res and res.get("decks") == list(named):
        weights_table(res)


def weights_table(res: dict[str, Any]) -> None:
    """The readings ranked by effect: each side's win rate, its difference and interval."""
    team = res.get("teams")
    rows = []
    from cardbase.games.rulesdata.register import rounds_go_around

    rounds_key = "rulings_view.rounds_around" if rounds_go_around(res["game"]) else "rulings_view.rounds"
    for v in res["variants"]:
        for side in v["seats"]:
            lo, hi = side["delta_ci95"]
            rows.append({
                t("rulings_view.ruling"): f"{v['ruling']} — {v['title']}",
                t("rulings_view.reading"): _value_text(v["value"], v["option"]),
                t("rulings_view.side"): _side_label(side["side"], team),
                t("rulings_view.win_rate"): pct(side["win_rate"]),
                t("rulings_view.delta"): pct(side["delta"], signed=True),
                t("rulings_view.ci95"): f"{pct(lo, signed=True)} ; {pct(hi, signed=True)}",
                t("rulings_view.significant"): t("rulings_view.yes") if side.get("significant") else t("rulings_view.no"),
                t(rounds_key): i18n.fmt_num(v["mean_rounds"], 2, lang=lang()),
                t("rulings_view.same"): "" if v.get("same_games") is None else f"{v['same_games']} / {res['games']}",
                t("rulings_view.other_outcome"): "" if v.get("same_games") is None
                else f"{v.get('same_moves_other_outcome') or 0} / {res['games']}"})
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.caption(t("rulings_view.weights_note", games=res["games"], seed=res["seed"],
                 tests=(res.get("correction") or {}).get("tests", 0)))
    from cardbase.playtest.verdict import verdict_text

    st.markdown(f"**{t('rulings_view.verdicts_title')}**")
    for v in res["variants"]:  # what each reading moves, sides and measures, or « pas d'effet démontré »
        st.markdown("- " + tp("rulings_view.verdict", ruling=v["ruling"], reading=_value_text(v["value"], v["option"]),
                              verdict=verdict_text(v, res, lang=lang())))
    for v in res["variants"]:  # a reading the bots never brought into play is a finding, said aloud
        same, other = v.get("same_games"), v.get("same_moves_other_outcome") or 0
        if same is not None and same == res["games"]:
            hint = "" if all(b == "random" for b in res["bots"]) else t("rulings_view.never_played_hint")
            st.warning(t("rulings_view.never_played", ruling=v["ruling"], games=res["games"], hint=hint,
                         reading=_value_text(v["value"], v["option"])))
        elif same is not None and other and same + other == res["games"]:
            st.info(t("rulings_view.outcome_only", ruling=v["ruling"], games=res["games"], other=other,
                      reading=_value_text(v["value"], v["option"])))
    if res["baseline"].get("measures"):  # the measures of a good game under every reading
        from cardbase.ui.measures_view import measures_table

        points = [{"value": t("measures.reading_default"), "measures": res["baseline"]["measures"]}] + [
            {"value": f"{v['ruling']} — {_value_text(v['value'], v['option'])}", "measures": v["measures"]}
            for v in res["variants"] if v.get("measures")]
        measures_table(points, row_key="reading",
                       head=t("measures.readings_head", games=res["baseline"]["measures"]["games"]))


def _side_label(side: str, team: bool) -> str:
    if side == "first":
        return t("rulings_view.first_player")
    if team:
        return t("rulings_view.team", side=side)
    return t("rulings_view.seat", side=side) if side.isdigit() else side
