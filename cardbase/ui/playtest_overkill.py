"""OVERKILL's Playtest view: a table against a bot, and batches (``cardbase.ui.playtest_box``).

The table shows what seat 1 (you) knows — the engine's ``observation`` —: your two colour lines
with the face-down card marked, the bot's face-up cards (its face-down ones as a back), your atouts
with their text and one button per way to play them, draw and stand, the objective, the stake and
the bet, both scores and timers, what your Helpers say, the cards taken out of the round, the
passive atouts in play and the event log in words. When a round ends, its last lines are shown
face up (the table's reveal).

A game is kept as plain values — its seed, the rules options and the actions played — and replayed
by the engine on each run (``replay`` is deterministic).
"""

from __future__ import annotations

import html
import random
from typing import Any

import streamlit as st

from cardbase.errors import CardbaseError
from cardbase.ui.common import plain, show_error, t, tp
from cardbase.ui.playtest_box import batch, bot_label, bot_labels, bots_until, game_cards

CODE = "overkill"
KEY = "ok_game"  # the game in progress: {"seed", "actions", "bot", "options"}
HUMAN, BOT = 0, 1
RED_HEX, BLACK_HEX = "#c0392b", "#1f2328"
_GAMES: dict[tuple, Any] = {}


# --------------------------------------------------------------------------- the game

def engine_game(options: dict[str, Any] | None = None):
    """The OVERKILL game built from the database's cards (cached per cards and options)."""
    from cardbase.games import registry

    cards = tuple(game_cards(CODE))
    key = (cards, tuple(sorted((options or {}).items())))
    game = _GAMES.get(key)
    if game is None:
        if len(_GAMES) > 8:
            _GAMES.clear()
        game = _GAMES[key] = registry.playable(CODE).build(cards, 2, **(options or {}))
    return game


def new_game(bot: str, *, seed: int | None = None, options: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"seed": seed if seed is not None else random.randrange(10**9), "actions": [], "bot": bot,
            "options": dict(options or {})}



def play(record: dict[str, Any], action: int | None) -> dict[str, Any]:
    """Your action (None: only let the bot open), then the bot's answers, as a new record."""
    from cardbase.games.overkill.state import replay

    state = replay(engine_game(record.get("options")), record["seed"], record["actions"])
    actions = list(record["actions"])
    if action is not None:
        state.apply_action(action)
        actions.append(action)
    if not state.is_terminal() and state.current_player() == BOT:
        slow = record["bot"] in ("mc", "ismcts")
        with st.spinner(t("overkill_page.bot_thinking", bot=bot_label(record["bot"])), show_time=slow):
            actions += bots_until(state, human=HUMAN, bot=record["bot"], seed=record["seed"],
                                  played=len(actions))
    return {**record, "actions": actions}


def replay_table(record: dict[str, Any]):
    """The state, each action's text as it was played, and the face-up lines of every ended round."""
    from cardbase.games.overkill.state import PASS

    state = engine_game(record.get("options")).new_state(record["seed"])
    texts: list[str] = []
    reveals: list[dict[str, Any]] = []
    for a in record["actions"]:
        rnd = state.round
        texts.append(state.action_to_string(a))
        prev = state.clone()
        passes = state.passes
        state.apply_action(a)
        if state.round != rnd or state.is_terminal():
            reveals.append(_round_end_lines(prev, a, ended_by_passes=a == PASS and passes + 1 >= 2))
    return state, texts, reveals


def _round_end_lines(prev, action: int, *, ended_by_passes: bool) -> dict[str, Any]:
    """The lines at the end of a round, face up: ``prev`` (a clone before the last action) with that
    action done and, when the next player's timer ran out, both 99s added (rule OK3)."""
    from cardbase.games.overkill.state import DRAW, PASS, PLAY

    s = prev
    p = s.player
    s.timers[p] -= 1
    nxt = 1 - p
    if action == DRAW:
        s._draw(p)
    elif action != PASS:
        k, choice = divmod(action - PLAY, 8)
        s._play(p, k, choice)
        nxt = p
    if not ended_by_passes and s.overkills(0) < 2 and s.overkills(1) < 2 and s.timers[nxt] <= 0:
        for k in s.game.nines:
            s.lines[nxt][s.game.colour[k]].append(k)
    value = s.game.value
    return {"round": s.round, "objective": s.objective(),
            "lines": [[[value[k] for k in s.lines[q][c]] for c in (0, 1)] for q in (0, 1)],
            "points": [s.points(0), s.points(1)], "overkills": [s.overkills(0), s.overkills(1)]}


# --------------------------------------------------------------------------- drawing

def _tile(value: int | None, colour: int, *, hidden_mine: bool = False) -> str:
    """A card as a small tile: its value, or a back for a card you cannot see."""
    hue = RED_HEX if colour == 0 else BLACK_HEX
    base = ("display:inline-block;min-width:2.6em;padding:.35em .45em;margin:.15em;border-radius:7px;"
            "text-align:center;font-weight:700;font-size:1.15em;line-height:1.15;vertical-align:top;")
    if value is None:
        return (f'<span title="{html.escape(t("overkill_page.back"))}" style="{base}color:#fff;'
                f'background:repeating-linear-gradient(45deg,#3b4a6b,#3b4a6b 4px,#55668c 4px,#55668c 8px);'
                f'border:2px solid #2a3550">?</span>')
    if hidden_mine:
        return (f'<span title="{html.escape(t("overkill_page.face_down"))}" style="{base}color:{hue};'
                f'background:#fff;border:2px dashed {hue}">{int(value)}<br>'
                f'<span style="font-size:.55em;font-weight:600">{html.escape(t("overkill_page.face_down_short"))}'
                f'</span></span>')
    return f'<span style="{base}color:#fff;background:{hue};border:2px solid {hue}">{int(value)}</span>'


def _line_html(values, colour: int, *, down_mine: bool, objective: int, mine: bool) -> str:
    tiles = "".join(_tile(v, colour, hidden_mine=down_mine and i == 0) for i, v in enumerate(values))
    known = sum(v for v in values if v is not None)
    hidden = any(v is None for v in values)
    total = f"{known} + ?" if hidden else str(known)
    over = not hidden and known > objective
    label = t(f"overkill_page.line_{'red' if colour == 0 else 'black'}")
    flag = (f' <span style="color:#fff;background:#b00020;border-radius:4px;padding:0 .35em;'
            f'font-size:.8em;white-space:nowrap">{html.escape(t("overkill_page.overkill"))}</span>') if over else ""
    # one line a colour, never wrapped: a badge that wrapped would sit above the next colour's line
    # as if it were that line's (a narrow column scrolls sideways instead)
    return (f'<div style="margin:.1em 0;white-space:nowrap;overflow-x:auto"><span style="display:inline-block;'
            f'width:6.5em;font-weight:600">{html.escape(label)}</span>{tiles or "—"}'
            f' <span style="margin-left:.6em">= <b>{html.escape(total)}</b></span>{flag}</div>')


def _lines_block(lines, *, down: tuple[bool, bool] | None, objective: int, mine: bool) -> None:
    rows = "".join(_line_html(lines[c], c, down_mine=bool(down and down[c]), objective=objective, mine=mine)
                   for c in (0, 1))
    st.markdown(rows, unsafe_allow_html=True)


def info_lines(info) -> list[str]:
    """What your Helpers say this turn, in words (keys: cardbase.games.overkill.rules)."""
    from cardbase.games.overkill.rules import COLOURS, OVERSEER, RETRACER, SNAKE_EYE, SPY

    out = []
    for key, value in info:
        if key == SNAKE_EYE:
            out.append(t("overkill_page.info_snake", colour=t(f"overkill.colour.{COLOURS[value]}")))
        elif key == OVERSEER:
            out.append(t("overkill_page.info_overseer", values=", ".join(map(str, value))))
        elif key == SPY:
            out.append(t("overkill_page.info_spy_yes" if value else "overkill_page.info_spy_no"))
        elif key == RETRACER:
            out.append(t("overkill_page.info_retracer", values=", ".join(map(str, value)) or "—"))
    return out


def event_lines(state, texts: list[str]) -> list[str]:
    """The event log in words. Only what you may know: the bot's face-down cards never appear."""
    from cardbase.games.overkill.rules import COLOURS
    from cardbase.games.overkill.state import PLAY

    game = state.game
    atout_texts = iter(text for text, a in zip(texts, state.history, strict=False) if a >= PLAY)

    def who(p: int) -> str:
        return "you" if p == HUMAN else "bot"

    out = []
    for ev in state.events or []:
        kind = ev[0]
        if kind == "round":
            _, rnd, first, bet, scores = ev
            out.append(t("overkill_page.ev_round", round=rnd, first=t(f"overkill_page.starts_{who(first)}"),
                         bet=bet, you=scores[HUMAN], bot=scores[BOT]))
        elif kind == "draw":
            k = ev[2]
            out.append(t(f"overkill_page.ev_draw_{who(ev[1])}", value=game.value[k],
                         colour=t(f"overkill.colour.{COLOURS[game.colour[k]]}")))
        elif kind == "pass":
            out.append(t(f"overkill_page.ev_pass_{who(ev[1])}"))
        elif kind == "atout":
            out.append(t(f"overkill_page.ev_atout_{who(ev[1])}", action=next(atout_texts, game.atouts[ev[2]].name)))
        elif kind == "timer":
            out.append(t(f"overkill_page.ev_timer_{who(ev[1])}"))
        elif kind == "round_end":
            _, rnd, reason, winner, stake, scores = ev
            result = (t("overkill_page.tie") if winner < 0
                      else t(f"overkill_page.round_won_{who(winner)}", stake=stake))
            out.append(t("overkill_page.ev_round_end", round=rnd, reason=t(f"overkill_page.reason_{reason}"),
                         result=result, you=scores[HUMAN], bot=scores[BOT]))
        elif kind == "end":
            out.append(t("overkill_page.ev_end", reason=_ending(ev[1])))
    return out


def _ending(key: str) -> str:
    from cardbase.ui.playtest_box import ending_label

    return ending_label(key)


# --------------------------------------------------------------------------- page

def render(code: str = CODE) -> None:
    mode = st.segmented_control(t("playtest.mode"), ["table", "batch"], key="ok_mode", default="table",
                                format_func=lambda m: t(f"overkill_page.mode_{m}"),
                                label_visibility="collapsed", required=True) or "table"
    if mode == "batch":
        batch(code, prefix="okb")
    else:
        table()


def table() -> None:
    from cardbase.games import registry
    from cardbase.games.overkill.rules import Rules

    spec = registry.get(CODE)
    defaults = Rules()
    cols = st.columns([2, 1, 1, 1], vertical_alignment="bottom")
    level = cols[0].selectbox(t("overkill_page.level"), spec.bots, index=spec.bots.index("greedy"),
                              key="ok_level", format_func=bot_labels())
    score = cols[1].number_input(t("overkill_page.initial_score"), 1, 100, defaults.initial_score, 1,
                                 key="ok_initial_score", help=t("overkill_page.initial_score_help"))
    timer = cols[2].number_input(t("overkill_page.timer"), 1, 60, defaults.timer, 1, key="ok_timer",
                                 help=t("overkill_page.timer_help"))
    if cols[3].button(t("playtest.new_game"), key="ok_new", type="primary", width="stretch"):
        options = {}
        if int(score) != defaults.initial_score:
            options["initial_score"] = int(score)
        if int(timer) != defaults.timer:
            options["timer"] = int(timer)
        try:
            st.session_state[KEY] = play(new_game(level, options=options), None)
        except CardbaseError as exc:
            show_error(exc)
            return
    if level in ("mc", "ismcts"):
        st.caption(t("overkill_page.slow_bot"))
    record = st.session_state.get(KEY)
    if not record:
        st.info(t("overkill_page.press_new"))
        return
    try:
        state, texts, reveals = replay_table(record)
    except CardbaseError as exc:
        show_error(exc)
        return
    _board(state, texts, reveals, record)


def _act(record: dict[str, Any], action: int) -> None:
    try:
        st.session_state[KEY] = play(record, action)
    except CardbaseError as exc:
        show_error(exc)
        return
    st.rerun()


def _board(state, texts: list[str], reveals: list[dict[str, Any]], record: dict[str, Any]) -> None:
    from cardbase.games.overkill.state import DRAW, PASS, PLAY

    obs = state.observation(HUMAN)
    m = st.columns(6)
    m[0].metric(t("overkill_page.round"), obs.round)
    m[1].metric(t("overkill_page.objective"), obs.objective)
    m[2].metric(t("overkill_page.stake"), obs.stake, help=t("overkill_page.stake_help", bet=obs.bet))
    m[3].metric(t("overkill_page.scores"), f"{obs.scores[HUMAN]} / {obs.scores[BOT]}",
                help=t("overkill_page.scores_help"))
    m[4].metric(t("overkill_page.timers"), f"{obs.timers[HUMAN]} / {obs.timers[BOT]}",
                help=t("overkill_page.timers_help"))
    m[5].metric(t("overkill_page.pile"), obs.pile_size)
    st.caption(t("overkill_page.actions", n=len(record["actions"]), seed=record["seed"],
                 bot=bot_label(record["bot"])))

    if state.is_terminal():
        you, bot = obs.scores[HUMAN], obs.scores[BOT]
        outcome = "win" if you > bot else "loss" if you < bot else "tie"
        box = {"win": st.success, "loss": st.error, "tie": st.info}[outcome]  # a loss is never green
        box(t(f"overkill_page.final_{outcome}", you=you, bot=bot, reason=_ending(state.ended_by)),
            icon=":material/flag:")
    if reveals:
        _reveal(reveals[-1], expanded=state.is_terminal() or _fresh_round(state))

    left, right = st.columns(2, gap="large")
    with left:
        st.markdown(f"**{t('overkill_page.your_lines')}**")
        down = tuple(state._face_down(HUMAN, c) for c in (0, 1))
        _lines_block(obs.lines[HUMAN], down=down, objective=obs.objective, mine=True)
        st.caption(t("overkill_page.face_down_note"))
    with right:
        st.markdown(f"**{t('overkill_page.bot_lines')}** — "
                    + t("overkill_page.bot_atouts", n=obs.atout_counts[BOT]))
        _lines_block(obs.lines[BOT], down=None, objective=obs.objective, mine=False)
        st.caption(t("overkill_page.back_note"))

    info = info_lines(obs.info)
    if info:
        st.info("\n\n".join(info), icon=":material/visibility:")
    a, b = st.columns(2)
    a.caption(t("overkill_page.removed", cards=", ".join(map(str, obs.removed)) or t("common.none_f")))
    active = [tp(f"overkill_page.active_{w}", atouts=", ".join(obs.active[p]) or t("common.none"))
              for p, w in ((HUMAN, "you"), (BOT, "bot"))]
    b.caption("  \n".join(active))

    if not state.is_terminal():
        legal = state.legal_actions(HUMAN) if state.current_player() == HUMAN else []
        c1, c2, _ = st.columns([1, 1, 3])
        if c1.button(state.action_to_string(DRAW), key="ok_draw", type="primary", width="stretch",
                     disabled=DRAW not in legal, icon=":material/add_card:"):
            _act(record, DRAW)
        if c2.button(state.action_to_string(PASS), key="ok_pass", width="stretch",
                     disabled=PASS not in legal, icon=":material/front_hand:"):
            _act(record, PASS)
        _atouts(state, legal, record, PLAY)

    with st.expander(t("overkill_page.log"), expanded=False):
        st.text("\n".join(event_lines(state, texts)))


def _fresh_round(state) -> bool:
    """True while you have not acted yet in the round just dealt."""
    for ev in reversed(state.events or []):
        if ev[0] == "round":
            return True
        if ev[0] in ("draw", "atout", "pass", "timer") and ev[1] == HUMAN:
            return False
    return False


def _reveal(rev: dict[str, Any], *, expanded: bool) -> None:
    with st.expander(t("overkill_page.reveal", round=rev["round"]), expanded=expanded):
        cols = st.columns(2)
        for q, who in ((HUMAN, "you"), (BOT, "bot")):
            with cols[q]:
                st.markdown(f"**{t(f'overkill_page.{who}')}** — "
                            + t("overkill_page.reveal_figures", points=rev["points"][q],
                                overkills=rev["overkills"][q], objective=rev["objective"]))
                _lines_block(rev["lines"][q], down=None, objective=rev["objective"], mine=q == HUMAN)


def _atouts(state, legal: list[int], record: dict[str, Any], play_base: int) -> None:
    game = state.game
    hand = state.hands[HUMAN]
    st.markdown(f"**{t('overkill_page.your_atouts')}**")
    if not hand:
        st.caption(t("overkill_page.no_atouts"))
        return
    by_atout: dict[int, list[int]] = {}
    for a in legal:
        if a >= play_base:
            by_atout.setdefault((a - play_base) >> 3, []).append(a)
    cols = st.columns(max(3, len(hand)))
    for i, k in enumerate(hand):
        atout = game.atouts[k]
        with cols[i].container(border=True):
            st.markdown(f"**{plain(atout.name)}** · {plain(atout.cls.capitalize())}")
            if atout.text:
                st.caption(plain(atout.text))
            actions = by_atout.get(k, [])
            if not actions:
                st.button(t("overkill_page.not_playable"), key=f"ok_atout_{i}_none", disabled=True,
                          width="stretch")
            for j, a in enumerate(actions):
                if st.button(state.action_to_string(a), key=f"ok_atout_{i}_{j}", width="stretch"):
                    _act(record, a)
