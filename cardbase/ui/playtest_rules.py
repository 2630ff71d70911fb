"""The table of a game written as data (data/rules/<code>.toml): you play seat 1 against bots,
the zones drawn from what seat 1 sees (a hidden card is « ? »), every legal action a button, the
counters and the game's log. A game is kept as plain values (seed, actions, bot, players) and
replayed on each run, like the other tables."""

from __future__ import annotations

import random
from typing import Any

import pandas as pd
import streamlit as st

from cardbase.errors import CardbaseError
from cardbase.ui.common import show_error, t, tp
from cardbase.ui.playtest_shared import bot_labels, bots_until, ending_label, game_cards

HUMAN = 0
RECENT_LINES = 24  # of the last moves, shown above your choices


def _game(code: str, players: int):
    from cardbase.games import registry

    return registry.playable(code).build(tuple(game_cards(code)), players)


def replay(code: str, record: dict[str, Any]):
    state = _game(code, record["players"]).new_state(record["seed"])
    for a in record["actions"]:
        state.apply_action(a)
    return state


def play(code: str, record: dict[str, Any], action: int | None) -> dict[str, Any]:
    """Your action (None: the bots open), then the bots' moves, as a new record."""
    state = replay(code, record)
    actions = list(record["actions"])
    mine = len(actions)  # what follows is told as « since your last action »
    if action is not None:
        state.apply_action(action)
        actions.append(action)
    actions += bots_until(state, human=HUMAN, bot=record["bot"], seed=record["seed"], played=len(actions))
    return {**record, "actions": actions, "mine": mine}


def since_your_action(code: str, record: dict[str, Any], state) -> list[str]:
    """Your last action and what the other seats did after it (from the start when the bots
    opened), as seat 1's log tells it: nothing seat 1 cannot know."""
    mine = record.get("mine", 0)
    before = replay(code, {**record, "actions": record["actions"][:mine]})
    return state.log_lines(HUMAN)[len(before.log_lines(HUMAN)):]


def zones_frame(state) -> pd.DataFrame:
    """Every zone as seat 1 sees it: one row per zone and owner, its cards (« ? » for a hidden one)."""
    obs = state.observation(HUMAN)
    teams = getattr(state, "team_of", None)  # a team game: each seat's team beside it
    rows = []
    for name, piles in obs["zones"].items():
        per = state.rules.zones[name].per_player
        for owner, pile in enumerate(piles):
            seat = (t("rulesplay.table.team", seat=owner + 1, team=teams(owner)) if teams is not None
                    else t("rulesdata.table.seat", seat=owner + 1))
            rows.append({t("rulesdata.table.zone"): name,
                         t("rulesdata.table.owner"): seat if per else t("rulesdata.table.shared"),
                         t("rulesdata.table.count"): len(pile),
                         t("rulesdata.table.cards"): ", ".join("?" if c is None else str(c) for c in pile)})
    return pd.DataFrame(rows)


def counters_line(state) -> str:
    """The counters as seat 1 sees them, on one line: those of the table once (« table : annonce
    12 »), then each seat's; a counter marked ``show = false`` (bookkeeping) is left out."""
    rules = state.rules.counters
    rows = state.observation(HUMAN)["counters"]
    shown = {k for k, c in rules.items() if c.show}
    table = [k for k in shown if rules[k].owner == "table"]
    parts = []
    if table and rows:
        parts.append(tp("rulesdata.table.counters_table",
                        values=", ".join(f"{k} {v}" for k, v in rows[0] if k in table)))
    for p, row in enumerate(rows):
        values = [f"{k} {v}" for k, v in row if k in shown and k not in table]
        if values:
            parts.append(tp("rulesdata.table.counters", seat=p + 1, values=", ".join(values)))
    return " · ".join(parts)


def structure_lines(state) -> list[str]:
    """What seat 1 is told of an answer window (who acted, who may answer) and of the round's
    secret choices (its own; of the others, only that they have chosen)."""
    obs = state.observation(HUMAN)
    lines = []
    window = obs.get("window")
    if window is not None:  # the action by its label (« Annoncer »), not its name in the file
        actor, _name, asked, answered = window
        so_far = (t("rulesplay.table.answers_none") if answered == 0 else
                  t("rulesplay.table.answers_one") if answered == 1 else
                  t("rulesplay.table.answers_many", n=answered))
        lines.append(tp("rulesplay.table.window", actor=actor + 1, action=state.window_label(),
                        asked=asked + 1, answered=so_far))
    secret = obs.get("secret")
    if secret:
        chosen = [tp("rulesplay.table.secret_mine", choice=text) if seat == HUMAN
                  else t("rulesplay.table.secret_other", seat=seat + 1) for seat, text in secret]
        lines.append(t("rulesplay.table.secret", chosen=", ".join(chosen)))  # each part made plain
    return lines


def table(code: str) -> None:
    from cardbase.games import registry

    spec = registry.get(code)
    key = f"prt_{code}"
    a, b, c = st.columns([1, 2, 1], vertical_alignment="bottom")
    lo, hi = spec.min_players, spec.max_players
    players = a.number_input(t("rulesdata.table.players"), lo, hi, spec.default_players or lo,
                             key=f"{key}_players")
    bot = b.selectbox(t("rulesdata.table.bots"), spec.bots, key=f"{key}_bot", format_func=bot_labels())
    try:
        if c.button(t("rulesdata.table.new"), key=f"{key}_new", type="primary") or key not in st.session_state:
            record = {"seed": random.randrange(10**9), "actions": [], "bot": bot, "players": int(players)}
            st.session_state[key] = play(code, record, None)
        record = st.session_state[key]
        state = replay(code, record)
    except CardbaseError as exc:
        show_error(exc)
        return
    st.dataframe(zones_frame(state), hide_index=True, width="stretch")
    for line in structure_lines(state):  # an answer window, the round's secret choices
        st.caption(line)
    counters = counters_line(state)
    if counters:
        st.caption(counters)
    if state.is_terminal():
        winners = [p + 1 for p in range(state.num_players) if p in state.winners]
        st.success(tp("rulesdata.table.over", reason=ending_label(state.ended_by, code),
                      winners=", ".join(map(str, winners)) or "—"))
    else:
        recent = since_your_action(code, record, state)
        if recent:  # what the bots did is seen without opening the log
            with st.container(border=True):
                st.caption(t("rulesdata.table.since"))
                st.text("\n".join(recent[-RECENT_LINES:]))
        st.markdown(tp("rulesdata.table.your_turn"))
        # identical cards (three Miels in a hand) are one button, « ×3 »: any of them plays the same
        choices: dict[str, list[int]] = {}
        for act in state.legal_actions():
            choices.setdefault(state.action_to_string(act), []).append(act)
        cols = st.columns(min(len(choices), 4) or 1)
        for i, (label, acts) in enumerate(choices.items()):
            act = acts[0]
            shown = label if len(acts) == 1 else tp("rulesdata.table.times", action=label, n=len(acts))
            if cols[i % len(cols)].button(shown, key=f"{key}_a{act}"):
                try:
                    st.session_state[key] = play(code, record, act)
                except CardbaseError as exc:
                    show_error(exc)
                    return
                st.rerun()
    with st.expander(t("rulesdata.table.log"), expanded=state.is_terminal()):
        st.text("\n".join(state.log_lines(HUMAN)[-60:]))
