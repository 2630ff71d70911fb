"""Playtest page: a game selector, then the chosen game's view.

Views are chosen through :data:`VIEWS` (one line per game, ``"module:function"``); a game of the
registry without a line gets the generic box view (batches through ``cardbase.playtest.games``) when
it has an engine, and a note linking to its cards and printing when it has none. This module holds
NesPanini's view: an interactive goldfish game, a game against a bot (its hand hidden), and
batches (goldfish, duel, round robin, bot ladder) run by the playtest services; every batch says
how its games ended (ruling R10).

A game in progress is kept as its seed, the decks' card ids and the list of actions played; each
run replays it with the engine (fast and exactly reproducible), so nothing but plain values lives
in the session.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from cardbase import decks
from cardbase.catalog import cards as catalog
from cardbase.storage import db
from cardbase.domain import CardDef
from cardbase.errors import CardbaseError
from cardbase.ui.common import (
    MAIN_GAME,
    card_png,
    num,
    num_columns,
    pct,
    plain,
    session,
    show_error,
    t,
    tp,
)

GAME = "nespanini"
BOTS = ("random", "greedy", "mc", "ismcts")

# The Playtest view of each game: ``"module:function"``, the function taking the game's code.
# A game of the registry missing here gets GENERIC_VIEW with an engine, NO_ENGINE_VIEW without.
VIEWS: dict[str, str] = {
    "nespanini": "cardbase.ui.playtest:nespanini_view",
    "overkill": "cardbase.ui.playtest_overkill:render",
    "overseers": "cardbase.ui.playtest_overseers:render",
    "pushluck": "cardbase.ui.playtest_pushluck:render",
    "ctterror": "cardbase.ui.playtest_ctterror:render",
}
GENERIC_VIEW = "cardbase.ui.playtest_box:render"
NO_ENGINE_VIEW = "cardbase.ui.playtest_box:no_engine"
GAME_KEY = "pt_gamecode"


# --------------------------------------------------------------------------- decks

def deck_choices() -> dict[str, str]:
    """Saved NesPanini decks (and the deck being built) by key → label."""
    with session() as s:
        saved = decks.list_decks(s, game=GAME)
        out = {f"deck:{d.id}": d.name for d in saved}
    builder = st.session_state.get("deck") or {}
    if builder and st.session_state.get("deck_for", GAME) == GAME:
        out["builder"] = t("playtest.builder_deck", n=sum(builder.values()))
    return out


def deck_cards(key: str) -> list[CardDef]:
    """The cards of a deck, one CardDef per copy; a card that no longer exists is an error."""
    from cardbase.playtest import deck_defs_from_db, resolved_deck_defs

    with session() as s:
        if key == "builder":
            builder = st.session_state.get("deck") or {}
            text = "\n".join(f"{n} {ref}" for ref, n in builder.items()) or "# vide"
            resolved = decks.resolve_deck(s, decks.parse_deck_list(text), game=GAME)
            return list(resolved_deck_defs(s, resolved, where=t("playtest.builder_deck", n=sum(builder.values()))))
        return deck_defs_from_db(s, int(key.split(":", 1)[1]))


# --------------------------------------------------------------------------- games

def new_game(deck_keys: list[str], *, seed: int | None = None, bot: str | None = None) -> dict[str, Any]:
    """A game record: plain values only (seed, deck card ids, actions)."""
    cards = [[c.id for c in deck_cards(k)] for k in deck_keys]
    return {"decks": cards, "keys": deck_keys, "seed": seed if seed is not None else random.randrange(10**9),
            "actions": [], "bot": bot}


def _engine_game(card_ids: tuple[tuple[int, ...], ...]):
    from cardbase.games.nespanini import Game

    with session() as s:
        defs = {c.id: c for c in catalog.card_defs(s, ids={i for d in card_ids for i in d})}
    return Game([[defs[i] for i in d] for d in card_ids])


def replay_state(record: dict[str, Any]):
    from cardbase.games.nespanini import replay

    game = _engine_game(tuple(tuple(d) for d in record["decks"]))
    return replay(game, record["seed"], record["actions"])


def play(record: dict[str, Any], action: int, *, human: int = 0) -> dict[str, Any]:
    """Apply the human's action, then let the bot play until it is the human's turn again (the
    same loop as every box game's table: the bot of action ``i`` is seeded ``seed + i``)."""
    from cardbase.ui.playtest_shared import bots_until

    state = replay_state(record)
    state.apply_action(action)
    actions = [*record["actions"], action]
    if record.get("bot"):
        actions += bots_until(state, human=human, bot=record["bot"], seed=record["seed"],
                              played=len(actions))
    return {**record, "actions": actions}


def start(record: dict[str, Any], *, human: int = 0) -> dict[str, Any]:
    """Let the bot open when it plays first."""
    from cardbase.ui.playtest_shared import bots_until

    state = replay_state(record)
    actions = list(record["actions"])
    if record.get("bot"):
        actions += bots_until(state, human=human, bot=record["bot"], seed=record["seed"],
                              played=len(actions))
    return {**record, "actions": actions}


def event_lines(state, human: int = 0) -> list[str]:
    """The event log in words. What the bot alone sees stays hidden: its draws, the cards it looks
    at or takes, the card it puts under its deck during an effect (under ruling R4 its hand is
    shown, so that card is named)."""
    defs = state.table.defs

    def who(p: int) -> str:
        return "you" if p == human else "bot"

    def name(k: int) -> str:
        return defs[k].name

    out = []
    for ev in state.events or []:
        kind = ev[0]
        if kind == "setup":
            out.append(t(f"playtest.ev_setup_{who(ev[2])}"))
        elif kind == "draw":
            out.append(t("playtest.ev_draw_you", card=name(ev[2])) if ev[1] == human
                       else t("playtest.ev_draw_bot"))
        elif kind == "discard":
            out.append(t(f"playtest.ev_discard_{who(ev[1])}", card=name(ev[2])))
        elif kind == "legendary-bottom":  # R4: the hand was shown
            out.append(t(f"playtest.ev_bottom_{who(ev[1])}", card=name(ev[2])))
        elif kind == "bottom":  # during an effect: only its owner knows the card
            out.append(t("playtest.ev_bottom_you", card=name(ev[2])) if ev[1] == human
                       else t("playtest.ev_bottom_bot_hidden"))
        elif kind == "effect":
            out.append(t("playtest.ev_effect", card=name(ev[2])))
        elif kind == "look":
            out.append(t("playtest.ev_look_you", cards=", ".join(name(k) for k in ev[2]) or "—")
                       if ev[1] == human else t("playtest.ev_look_bot", n=len(ev[2])))
        elif kind == "take":
            out.append(t("playtest.ev_take_you", card=name(ev[2])) if ev[1] == human
                       else t("playtest.ev_take_bot"))
        elif kind == "reveal":
            out.append(t("playtest.ev_reveal_you", cards=", ".join(name(k) for k in ev[2]))
                       if ev[1] == human else t("playtest.ev_reveal_bot"))
        elif kind == "reveal-top":  # shown to the effect's owner only
            out.append(t("playtest.ev_reveal_top_you", card=name(ev[2])) if ev[1] == human
                       else t("playtest.ev_reveal_top_bot"))
        elif kind == "pick":
            pile = t("playtest.pile_yours" if ev[3] == human else "playtest.pile_bots")
            out.append(t(f"playtest.ev_pick_{who(ev[1])}", card=name(ev[2]), pile=pile))
        elif kind in ("give", "forced", "bury"):
            out.append(t(f"playtest.ev_{kind}_{who(ev[1])}", card=name(ev[2])))
        elif kind == "end":
            out.append(t("playtest.ev_end", reason=ending_label(ev[1])))
        else:
            out.append(" ".join(map(str, ev)))
    return out


def ending_label(code: str) -> str:
    """How a game ended, in words (codes: cardbase.games.nespanini.ENDINGS)."""
    from cardbase.games.nespanini import ENDINGS

    return t(f"engine.ending.{code}") if code in ENDINGS else code


def _ended_by(ended_by: dict[str, int] | None, games: int) -> None:
    """How the games of a batch ended; a warning when some did not end by the Cimetière."""
    if not ended_by:
        return
    detail = ", ".join(t("engine.sim.ending_count", n=n, ending=ending_label(k))
                       for k, n in ended_by.items() if n)
    st.markdown(f"**{t('playtest.ended_by')}** : {detail}")
    off = sum(n for k, n in ended_by.items() if k != "cimetiere")
    if off:
        st.warning(t("playtest.not_cimetiere", n=off, games=games), icon=":material/warning:")


# --------------------------------------------------------------------------- page

def view_for(code: str) -> Callable[[str], None]:
    """The function that draws the Playtest view of the game ``code`` (through :data:`VIEWS`)."""
    from cardbase.games import registry

    spec = registry.REGISTRY.get(code)
    if spec is None:  # a game of the database only (created in the Jeux page): no engine yet
        target = NO_ENGINE_VIEW
    else:
        target = VIEWS.get(spec.code) or (GENERIC_VIEW if spec.engine else NO_ENGINE_VIEW)
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def game_names() -> dict[str, str]:
    """Every game — of the registry and of the database (a game created in the Jeux page has no
    engine yet, but it is listed) — the main one first, by code → name."""
    from sqlmodel import select

    from cardbase.games import registry
    from cardbase.storage.models import Game

    with session() as s:
        names = {g.code: g.name for g in s.exec(select(Game))}
    for code, spec in registry.REGISTRY.items():  # a game written as data, not in the database
        if code not in names and getattr(spec, "title", None):
            names[code] = spec.title
    codes = sorted(set(registry.REGISTRY) | set(names),
                   key=lambda c: (c != MAIN_GAME, names.get(c, c).lower()))
    return {c: names.get(c, c) for c in codes}


def render() -> None:
    st.title(t("playtest.title"))
    try:
        games = game_names()
    except CardbaseError as exc:
        show_error(exc)
        return
    codes = list(games)
    if st.session_state.get(GAME_KEY) not in codes:
        st.session_state[GAME_KEY] = MAIN_GAME if MAIN_GAME in codes else codes[0]
    code = st.selectbox(t("games_page.game"), codes, key=GAME_KEY, format_func=games.get)
    view_for(code)(code)


def nespanini_view(code: str = GAME) -> None:
    """NesPanini: goldfish and bot games, batches, duels and the bot ladder."""
    mode = st.segmented_control(t("playtest.mode"), ["goldfish", "bot", "batch", "duel", "ladder", "balance"],
                                key="pt_mode",
                                default="goldfish", format_func=lambda m: t(f"playtest.mode_{m}"),
                                label_visibility="collapsed", required=True) or "goldfish"
    try:
        choices = deck_choices()
    except CardbaseError as exc:
        show_error(exc)
        return
    if not choices:
        st.info(t("playtest.no_decks"))
        return
    if mode == "goldfish":
        _interactive(choices, vs_bot=False)
    elif mode == "bot":
        _interactive(choices, vs_bot=True)
    elif mode == "batch":
        _goldfish_batch(choices)
    elif mode == "ladder":
        _ladder(choices)
    elif mode == "balance":
        from cardbase.ui.playtest_balance import balance_view

        balance_view(choices, deck_cards, _progress_bar)
    else:
        _duels(choices)
        _duel_weights(choices)


def _interactive(choices: dict[str, str], *, vs_bot: bool) -> None:
    key = "pt_bot_game" if vs_bot else "pt_game"
    keys = list(choices)
    cols = st.columns([2, 2, 1, 1] if vs_bot else [3, 1, 1], vertical_alignment="bottom")
    mine = cols[0].selectbox(t("playtest.your_deck"), keys, format_func=choices.get, key=f"{key}_deck")
    theirs = level = None
    if vs_bot:
        theirs = cols[1].selectbox(t("playtest.bot_deck"), keys, format_func=choices.get, key=f"{key}_bdeck",
                                   index=min(1, len(keys) - 1))
        level = cols[2].selectbox(t("playtest.level"), BOTS, index=1, key=f"{key}_level",
                                  format_func=lambda b: t(f"playtest.bot_{b}"))
    if cols[-1].button(t("playtest.new_game"), key=f"{key}_new", type="primary", width="stretch"):
        try:
            record = new_game([mine, theirs] if vs_bot else [mine], bot=level if vs_bot else None)
            st.session_state[key] = start(record)
        except CardbaseError as exc:
            show_error(exc)
    record = st.session_state.get(key)
    if not record:
        st.info(t("playtest.press_new"))
        return
    try:
        state = replay_state(record)
    except CardbaseError as exc:
        show_error(exc)
        return
    _board(state, record, key)


def _card_tile(card: CardDef, *, dpi: int = 70) -> None:
    png = card_png(card.id, card.version, dpi, db.database_url())
    if png:
        st.image(png, width="stretch")
    else:
        st.markdown(f"**{plain(card.name)}** ({plain(card.value)})")


def _board(state, record: dict[str, Any], key: str) -> None:
    human = 0
    obs = state.observation(human)
    n = state.n
    a, b, c, d = st.columns(4)
    a.metric(t("playtest.turn"), state.turn + (0 if state.is_terminal() else 1))
    b.metric(t("playtest.cimetiere"), f"{obs.cimetiere}/{state.game.end_at}")
    c.metric(t("playtest.deck_left"), obs.deck_sizes[human])
    d.metric(t("playtest.seed"), record["seed"])
    st.caption(t("playtest.actions", n=len(record["actions"])))
    if n > 1:
        st.markdown(f"**{t('playtest.bot_hand')}** " + ":material/crop_portrait: " * obs.hand_sizes[1]
                    + f" — {t('playtest.bot_deck_left', n=obs.deck_sizes[1])}")
        if obs.revealed[1]:
            st.caption(tp("playtest.revealed", cards=", ".join(x.name for x in obs.revealed[1])))

    if state.is_terminal():
        _final(state, n)
    else:
        legal = state.legal_actions(human) if state.current_player() == human else []
        if obs.decision == "discard":
            st.markdown(f"**{t('playtest.choose_discard')}**")
        else:
            from cardbase.games.effects.resolve import decision_label

            label = decision_label(state.decision[0]) if state.decision else obs.decision
            st.markdown(f"**{t('playtest.choose_effect')}** — {label}")
        _hand(state, obs, legal, record, key)
        if state.decision is not None and legal:
            _choices(state, legal, record, key)

    st.markdown(f"**{t('playtest.discards')}**")
    cols = st.columns(n)
    for p in range(n):
        with cols[p]:
            who = t("playtest.you") if p == human else t("playtest.bot")
            names = [x.name for x in obs.discards[p]]
            st.caption(f"{who} : " + (plain(", ".join(names)) if names else t("common.none_f")))
    with st.expander(t("playtest.log")):
        st.text("\n".join(event_lines(state, human)))


def _hand(state, obs, legal: list[int], record: dict[str, Any], key: str) -> None:
    st.markdown(f"**{t('playtest.your_hand')}**")
    cols = st.columns(max(len(obs.hand), 5))
    kinds = list(state.hands[0])
    discard_phase = state.decision is None
    for i, (card, kind) in enumerate(zip(obs.hand, kinds, strict=True)):
        with cols[i]:
            _card_tile(card)
            if discard_phase:
                ok = kind in legal
                label = t("playtest.discard") if ok else t("playtest.legendary")
                if st.button(label, key=f"{key}_discard_{i}", disabled=not ok, width="stretch"):
                    st.session_state[key] = play(record, kind)
                    st.rerun()


def _choices(state, legal: list[int], record: dict[str, Any], key: str) -> None:
    for i, action in enumerate(legal):
        if st.button(plain(state.action_to_string(action)), key=f"{key}_choice_{i}"):
            st.session_state[key] = play(record, action)
            st.rerun()


def _final(state, n: int) -> None:
    scores = state.scores()
    if n == 1:
        st.success(t("playtest.final_goldfish", score=scores[0]), icon=":material/flag:")
    else:
        outcome = "win" if scores[0] > scores[1] else "loss" if scores[0] < scores[1] else "tie"
        box = {"win": st.success, "loss": st.error, "tie": st.info}[outcome]  # a loss is never green
        box(t(f"playtest.final_{outcome}", me=scores[0], bot=scores[1]), icon=":material/flag:")
    st.caption(t("playtest.ev_end", reason=ending_label(state.ended_by)))
    cols = st.columns(n)
    for p in range(n):
        with cols[p]:
            st.markdown(f"**{t('playtest.breakdown')} — {t('playtest.you') if p == 0 else t('playtest.bot')}**")
            breakdown = state.score_breakdown(p)
            rows = [{t("field.name"): cs.card.name, t("field.value"): cs.value, t("playtest.bonus"): cs.bonus,
                     t("playtest.points"): cs.points} for cs in breakdown]
            rows.append({t("field.name"): t("playtest.total"),
                         t("field.value"): sum(cs.value for cs in breakdown),
                         t("playtest.bonus"): sum(cs.bonus for cs in breakdown),
                         t("playtest.points"): scores[p]})
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


# --------------------------------------------------------------------------- batches

def _progress_bar(per_step: int = 1, unit: str = "progress"):
    """A progress bar counting games; ``per_step``: games per unit the batch reports (a duel
    reports pairs of games, each deal played from both seats)."""
    bar = st.progress(0.0, text=t("playtest.running"))

    def update(done: int, total: int) -> None:
        bar.progress(min(1.0, done / max(total, 1)),
                     text=t(f"playtest.{unit}", done=done * per_step, total=total * per_step))

    return update


def _batch_rules(prefix: str) -> dict[str, Any]:
    """The rulings of a NesPanini batch, in a folded section of its form: the contested readings
    (R1 the end of the game, R9 public deck lists), ruling R10's number of rounds (0: off), and
    whether an illegal deck may be played (said in the report). Returns the batch functions'
    keywords (``stalemate_rounds``, ``rules``) and ``allow_illegal``, ``options`` (for the report)."""
    from cardbase.games.nespanini import STALEMATE_ROUNDS
    from cardbase.games.rulings import game_rulings
    from cardbase.ui.rulings_view import _widget

    options: dict[str, Any] = {}
    with st.expander(t("playtest.rules_options")):
        rounds = int(st.number_input(t("playtest.stalemate_rounds"), 0, 60, STALEMATE_ROUNDS, 1,
                                     key=f"{prefix}_stalemate", help=t("playtest.stalemate_help")))
        for r in game_rulings(GAME):
            if r.option and r.option != "stalemate_rounds":
                value = _widget(r, f"{prefix}_rule_{r.option}")
                if value != r.default:
                    options[r.option] = value
        allow = st.checkbox(t("playtest.allow_illegal"), key=f"{prefix}_allow_illegal",
                            help=t("playtest.allow_illegal_help"))
    rules = dict(options)
    if rules.get("deck_lists") == "hidden":  # R9: the re-deals draw from the NesPanini cards
        from cardbase.catalog import cards as catalog

        with session() as s:
            rules["pool"] = catalog.card_defs(s, game=GAME)
    return {"stalemate_rounds": rounds, "rules": rules, "allow_illegal": allow,
            "options": {**options, "stalemate_rounds": rounds}}


def _legality(named: dict[str, Any], allow_illegal: bool) -> dict[str, list[str]]:
    """The decks' legality: an illegal deck refuses the batch (a CardbaseError listing every
    problem) unless it is allowed; then its problems, for the report."""
    from cardbase.playtest.decks import batch_legality, deck_rules

    with session() as s:
        rules = deck_rules(s)
    return batch_legality(named, allow_illegal=allow_illegal, rules=rules)


def _batch_notes(summary: dict[str, Any]) -> None:
    """Under a batch's figures: the decks played though illegal, the rulings they rest on, and the
    rule coverage (warnings, then the table)."""
    from cardbase.ui import rulings_view

    for name, problems in (summary.get("illegal_decks") or {}).items():
        st.error(tp("playtest.illegal_played", deck=name, problems="; ".join(problems)),
                 icon=":material/gpp_maybe:")
    rulings_view.rulings_caption(summary.get("rulings") or [])
    rulings_view.show_coverage(summary)


def _report_extras(report: Any, opts: dict[str, Any]) -> dict[str, Any]:
    """What a NesPanini report says beside its figures, as plain values: the rulings in force, the
    rule coverage and its warnings, the decks played though illegal."""
    from cardbase.games.rulings import in_force

    data = report.to_dict() if hasattr(report, "to_dict") else {}
    summary = data.get("summary", data) if isinstance(data, dict) else {}
    out = {"rulings": in_force(GAME, opts["options"])}
    for key in ("coverage", "coverage_warnings", "illegal_decks"):
        if key in summary:
            out[key] = summary[key]
        elif key in data:
            out[key] = data[key]
    return out


def _goldfish_batch(choices: dict[str, str]) -> None:
    from cardbase.playtest.batch import goldfish

    a, b, c, d = st.columns([3, 1, 1, 1], vertical_alignment="bottom")
    key = a.selectbox(t("playtest.your_deck"), list(choices), format_func=choices.get, key="ptb_deck")
    games = b.number_input(t("playtest.games"), 10, 100_000, 1000, 100, key="ptb_games")
    bot = c.selectbox(t("playtest.level"), ("random", "greedy"), index=1, key="ptb_bot",
                      format_func=lambda x: t(f"playtest.bot_{x}"))
    seed = d.number_input(t("playtest.seed"), 0, 10**9, 0, key="ptb_seed")
    opts = _batch_rules("ptb")
    if st.button(t("playtest.run"), key="ptb_go", type="primary"):
        try:
            cards = deck_cards(key)
            illegal = _legality({choices[key]: cards}, opts["allow_illegal"])
            report = goldfish(cards, games=int(games), bot=bot, seed=int(seed),
                              swap_games=min(200, int(games)), oracle_games=min(10, int(games)),
                              progress=_progress_bar(), stalemate_rounds=opts["stalemate_rounds"],
                              rules=opts["rules"], illegal=illegal)
        except CardbaseError as exc:
            show_error(exc)
            return
        st.session_state["ptb_result"] = {"summary": {**report.summary, **_report_extras(report, opts)},
                                          "scores": report.records["score"].tolist(),
                                          "cards": report.cards.to_dict(orient="records")}
        st.session_state.pop("ptb_measures_result", None)  # the measures of the batch before
    result = st.session_state.get("ptb_result")
    if not result:
        return
    summ = result["summary"]
    m = st.columns(5)
    m[0].metric(t("playtest.games"), summ["games"])
    m[1].metric(t("playtest.mean"), num(summ["mean"]))
    m[2].metric(t("playtest.std"), num(summ["std"]))
    m[3].metric("min / max", f"{summ['min']} / {summ['max']}")
    gap = summ.get("oracle_mean_gap")
    m[4].metric(t("playtest.oracle_gap"), num(gap))
    _ended_by(summ.get("ended_by"), summ["games"])
    _batch_notes(summ)
    left, right = st.columns([3, 2])
    with left:
        st.markdown(f"**{t('playtest.histogram')}**")
        counts = pd.Series(result["scores"]).value_counts().sort_index()
        st.bar_chart(pd.DataFrame({t("playtest.score"): counts.index, t("playtest.games"): counts.values}),
                     x=t("playtest.score"), y=t("playtest.games"), height=260)
    with right:
        st.markdown(f"**{t('playtest.percentiles')}**")
        st.dataframe(pd.DataFrame([{t("engine.col.percentile"): k, t("playtest.score"): num(v, 1)}
                                   for k, v in summ["percentiles"].items()]), hide_index=True, width="stretch")
    st.markdown(f"**{t('playtest.per_card')}**")
    cards_df = pd.DataFrame(result["cards"])
    if "goldfish_judged" in cards_df:  # ruling R7: what goldfish cannot see, said in words
        from cardbase import i18n

        cards_df["goldfish_judged"] = [
            t("engine.sim.yes") if ok else "; ".join(i18n.translate(i18n.current_language(), f"nespanini.blind.{r}")
                                                   for r in why)
            for ok, why in zip(cards_df["goldfish_judged"], cards_df.get("goldfish_blind", [()] * len(cards_df)),
                               strict=False)]
        cards_df = cards_df.drop(columns=["goldfish_blind"], errors="ignore")
    per_card = num_columns(cards_df, percent=("kept_rate", "discarded_rate"),
                           signed=("swap_delta",))  # numbers written for the interface language
    st.dataframe(per_card, hide_index=True, width="stretch", column_config={
        "card": st.column_config.TextColumn(t("engine.col.card")),
        "ref": st.column_config.TextColumn(t("engine.col.ref")),
        "copies": st.column_config.NumberColumn(t("engine.col.copies")),
        "value": st.column_config.NumberColumn(t("engine.col.value")),
        "kept_rate": st.column_config.TextColumn(t("playtest.kept")),
        "discarded_rate": st.column_config.TextColumn(t("playtest.discarded")),
        "avg_points": st.column_config.TextColumn(t("playtest.avg_points")),
        "swap_delta": st.column_config.TextColumn(t("playtest.swap"), help=t("playtest.swap_help")),
        "goldfish_judged": st.column_config.TextColumn(t("playtest.goldfish_judged"),
                                                       help=t("playtest.goldfish_judged_help")),
    })
    _measures("ptb", [key], choices, opts, bots=[bot], games=int(games), seed=int(seed))


def _duels(choices: dict[str, str]) -> None:
    from cardbase.playtest.batch import duel, roundrobin

    picked = st.multiselect(t("playtest.decks"), list(choices), default=list(choices)[:2],
                            format_func=choices.get, key="ptd_decks",
                            placeholder=t("common.choose"))
    a, b, c, d = st.columns(4, vertical_alignment="bottom")
    games = a.number_input(t("playtest.games_per_pair"), 2, 100_000, 400, 100, key="ptd_games")
    bot_a = b.selectbox(t("playtest.bot_a"), ("random", "greedy"), index=1, key="ptd_bot_a",
                        format_func=lambda x: t(f"playtest.bot_{x}"))
    bot_b = c.selectbox(t("playtest.bot_b"), ("random", "greedy"), index=1, key="ptd_bot_b",
                        format_func=lambda x: t(f"playtest.bot_{x}"))
    seed = d.number_input(t("playtest.seed"), 0, 10**9, 0, key="ptd_seed")
    opts = _batch_rules("ptd")
    if st.button(t("playtest.run"), key="ptd_go", type="primary", disabled=len(picked) < 2):
        try:
            named = {choices[k]: deck_cards(k) for k in picked}
            illegal = _legality(named, opts["allow_illegal"])
            np_kw = {"stalemate_rounds": opts["stalemate_rounds"], "rules": opts["rules"], "illegal": illegal}
            if len(named) == 2:
                (na, da), (nb, dbk) = named.items()
                rep = duel(da, dbk, games=int(games), bots=(bot_a, bot_b), seed=int(seed), names=(na, nb),
                           progress=_progress_bar(per_step=2), **np_kw)
                st.session_state["ptd_result"] = {"duel": {**rep.summary, **_report_extras(rep, opts)},
                                                  "keys": list(picked)}
                st.session_state.pop("ptd_measures_result", None)  # the measures of the batch before
            else:
                rr = roundrobin(named, games=int(games), bots=(bot_a, bot_b), seed=int(seed),
                                progress=_progress_bar(unit="progress_pairs"), **np_kw)
                st.session_state["ptd_result"] = {"matrix": rr.matrix.to_dict(),
                                                  "ratings": rr.ratings.to_dict(orient="records"),
                                                  "ended_by": rr.ended_by, **_report_extras(rr, opts),
                                                  "keys": list(picked)}
                st.session_state.pop("ptrr_measures_result", None)
        except CardbaseError as exc:
            show_error(exc)
            return
    result = st.session_state.get("ptd_result")
    if not result:
        return
    if "duel" in result:
        s = result["duel"]
        lo, hi = s["ci95"]
        m = st.columns(4)
        m[0].metric(t("playtest.win_rate", deck=s["decks"][0]), pct(s["win_rate"]), help=f"95 % : {pct(lo)} – {pct(hi)}")
        m[1].metric(t("playtest.wtl"), f"{s['wins']} / {s['ties']} / {s['losses']}")
        fp = s["first_player"]  # over decided games, ties apart (ruling R5)
        m[2].metric(t("nespanini.playtest.first_player"),
                    "—" if fp["win_rate"] is None else pct(fp["win_rate"]),
                    help=t("nespanini.playtest.first_player_help", wins=fp["wins"], decided=fp["decided"],
                           lo=pct(fp["ci95"][0]), hi=pct(fp["ci95"][1]), ties=fp["ties"]))
        m[3].metric(t("playtest.margin"), num(s["mean_margin"], signed=True))
        st.caption(t("playtest.ci", lo=pct(lo), hi=pct(hi), games=s["games"]))
        _ended_by(s.get("ended_by"), s["games"])
        _batch_notes(s)
        # the measures of a good game of the duel's two decks (deck A in seat 1)
        keys = [k for k in result.get("keys", picked) if k in choices]
        if len(keys) == 2:
            _measures("ptd", keys, choices, opts, bots=[bot_a, bot_b], games=int(games), seed=int(seed))
    else:
        ended = result.get("ended_by") or {}
        _ended_by(ended, sum(ended.values()))
        st.markdown(f"**{t('playtest.matrix')}**")
        st.dataframe(matrix_table(result["matrix"]), width="stretch")
        st.markdown(f"**{t('playtest.ratings')}**")
        ratings = num_columns(pd.DataFrame(result["ratings"]), {"rating": 1}, percent=("points_rate",))
        st.dataframe(ratings, hide_index=True, width="stretch", column_config={
            "deck": st.column_config.TextColumn(t("engine.col.deck")),
            "rating": st.column_config.TextColumn(t("engine.col.rating")),
            "points_rate": st.column_config.TextColumn(t("engine.col.points_rate")),
        })
        _batch_notes(result)
        # the measures of the tournament: its games spread over every pair, both seat orders
        keys = [k for k in result.get("keys", picked) if k in choices]
        _measures("ptrr", keys, choices, opts, bots=[bot_a, bot_b],
                  games=int(games) * len(keys) * (len(keys) - 1) // 2, seed=int(seed), both_orders=True)

def _measures(prefix: str, keys: list[str], choices: dict[str, str], opts: dict[str, Any], *,
              bots: list[str], games: int, seed: int, both_orders: bool = False) -> None:
    """The measures of a good game of a batch's decks, on demand: one deck alone (goldfish), two
    (a duel, the first in seat 1; the ladder's mirror match), or — ``both_orders`` — every pair
    in both seat orders (a round robin); the batch's rulings in force."""
    from cardbase.playtest.batch import measured_games
    from cardbase.ui.measures_view import measures_panel

    if not keys:
        return

    def build() -> list:
        return measured_games([deck_cards(k) for k in keys], stalemate_rounds=opts["stalemate_rounds"],
                              rules=opts["rules"], both_orders=both_orders)

    n = len(keys)
    measures_panel(GAME, prefix=prefix, players=min(n, 2), bots=bots, games=games, seed=seed, options={},
                   build=build, decks=[choices[k] for k in keys], pool=n * (n - 1) // 2 if both_orders else 0)


def _duel_weights(choices: dict[str, str]) -> None:
    """« Poids des arbitrages » of the two decks picked for a duel (R1, R9 on the same deals)."""
    from cardbase.ui import rulings_view

    picked = st.session_state.get("ptd_decks") or []
    try:
        named = {choices[k]: deck_cards(k) for k in picked if k in choices}
    except CardbaseError as exc:
        show_error(exc)
        return
    bots = (st.session_state.get("ptd_bot_a", "greedy"), st.session_state.get("ptd_bot_b", "greedy"))
    rulings_view.duel_weights_panel(named, prefix="ptd", bots=bots, games=int(st.session_state.get("ptd_games", 400)),
                                    seed=int(st.session_state.get("ptd_seed", 0)),
                                    stalemate_rounds=int(st.session_state.get("ptd_stalemate", 10)),
                                    progress_bar=lambda: _progress_bar(per_step=2))


def matrix_table(matrix: dict[str, dict[str, float | None]]) -> pd.DataFrame:
    """The round-robin matrix as text: percentages, « — » where a deck meets itself (or no game)."""
    df = pd.DataFrame(matrix)
    return df.apply(lambda col: col.map(lambda v: "—" if v is None or pd.isna(v) else pct(v, 0)))


def _ladder(choices: dict[str, str]) -> None:
    from cardbase.playtest.batch import LADDER, ladder

    a, b, c, d = st.columns([2, 3, 1, 1], vertical_alignment="bottom")
    key = a.selectbox(t("playtest.ladder_deck"), list(choices), format_func=choices.get, key="ptl_deck")
    levels = b.multiselect(t("playtest.ladder_levels"), LADDER, default=list(LADDER[:3]), key="ptl_levels",
                           format_func=lambda x: t(f"playtest.bot_{x}"), placeholder=t("common.choose"))
    games = c.number_input(t("playtest.games_per_rung"), 2, 10_000, 20, 10, key="ptl_games")
    seed = d.number_input(t("playtest.seed"), 0, 10**9, 0, key="ptl_seed")
    ordered = [x for x in LADDER if x in levels]
    opts = _batch_rules("ptl")
    if st.button(t("playtest.run"), key="ptl_go", type="primary", disabled=len(ordered) < 2):
        try:
            cards = deck_cards(key)
            illegal = _legality({choices[key]: cards}, opts["allow_illegal"])
            df = ladder(cards, games=int(games), seed=int(seed), levels=ordered,
                        progress=_progress_bar(), stalemate_rounds=opts["stalemate_rounds"],
                        rules=opts["rules"], illegal=illegal)
        except CardbaseError as exc:
            show_error(exc)
            return
        st.session_state["ptl_result"] = df.to_dict(orient="records")
        st.session_state.pop("ptl_measures_result", None)
    rows = st.session_state.get("ptl_result")
    if not rows:
        return
    total: dict[str, int] = {}
    for row in rows:
        for k, n in row["ended_by"].items():
            total[k] = total.get(k, 0) + n
    _ended_by(total, sum(total.values()))
    shown = [{t("engine.col.level"): t(f"playtest.bot_{r['level']}"),
              t("engine.col.against"): t(f"playtest.bot_{r['against']}"),
              t("engine.col.games"): r["games"],
              t("playtest.wtl"): f"{r['wins']} / {r['ties']} / {r['losses']}",
              t("engine.col.points_rate"): pct(r["points_rate"]),
              t("playtest.ladder_interval"): f"{pct(r['points_ci_low'])} – {pct(r['points_ci_high'])}",
              t("engine.col.mean_margin"): num(r["mean_margin"], signed=True),
              t("engine.col.beats_lower"): t("engine.sim.yes") if r["beats_lower"] else t("engine.sim.no"),
              t("engine.col.ended_by"): ", ".join(
                  t("engine.sim.ending_count", n=n, ending=ending_label(k))
                  for k, n in r["ended_by"].items() if n)}
             for r in rows]
    st.dataframe(pd.DataFrame(shown), hide_index=True, width="stretch")
    # the measures of the mirror match, greedy in both seats (the rungs above are the skill gap)
    _measures("ptl", [key, key], {key: choices[key]}, opts, bots=["greedy", "greedy"], games=int(games),
              seed=int(seed))
