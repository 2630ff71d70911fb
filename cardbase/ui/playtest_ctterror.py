"""CT vs Terror's Playtest view: a table for 2 to 8 seats, and batches (``cardbase.ui.playtest_box``).

You play one seat; bots play the others. The table shows what your seat knows — the engine's
``observation`` —: every player with their character, team, life bar, statuses (dead, blinded by a
Grenade flash, held back by a Grenade à gaz) and hand size; your hand as cards with their text; the
attack or Grenade being answered; whenever you must decide (your turn, a Renfort call, a defence or
counter-attack, a Masque), one button per legal action with the engine's French text; and the event
log in words (draws are counts: another player's cards never show until they are played).

A game is kept as plain values — its seed, the player count, your seat, the bots' level and the
actions played — and replayed by the engine on each run (``replay`` is deterministic).
"""

from __future__ import annotations

import random
from typing import Any

import streamlit as st

from cardbase.errors import CardbaseError
from cardbase.ui.common import plain, show_error, t, tp
from cardbase.ui.playtest_box import batch, bot_label, bot_labels, bots_until, game_cards

CODE = "ctterror"
KEY = "ctt_game"  # the game in progress: {"seed", "players", "human", "bot", "actions"}
_GAMES: dict[tuple, Any] = {}
RECENT = 14  # lines of « what happened since your last decision » shown above your choices


# --------------------------------------------------------------------------- the game

def engine_game(players: int):
    """The CT vs Terror game for ``players`` seats, built from the database's cards (cached)."""
    from cardbase.games import registry

    cards = tuple(game_cards(CODE))
    key = (cards, players)
    game = _GAMES.get(key)
    if game is None:
        if len(_GAMES) > 16:
            _GAMES.clear()
        game = _GAMES[key] = registry.playable(CODE).build(cards, players)
    return game


def new_game(players: int, human: int, bot: str, *, seed: int | None = None) -> dict[str, Any]:
    return {"seed": seed if seed is not None else random.randrange(10**9), "players": int(players),
            "human": int(human), "bot": bot, "actions": []}


def replay_state(record: dict[str, Any]):
    from cardbase.games.ctterror.state import replay

    return replay(engine_game(record["players"]), record["seed"], record["actions"])


def replay_table(record: dict[str, Any]):
    """The state, and the index of its first event since your last decision (0 before any)."""
    state = engine_game(record["players"]).new_state(record["seed"])
    since = 0
    for a in record["actions"]:
        if state.current_player() == record["human"]:
            since = len(state.events or [])
        state.apply_action(a)
    return state, since



def play(record: dict[str, Any], action: int | None) -> dict[str, Any]:
    """Your action (None: only let the bots open), then the bots' moves, as a new record."""
    state = replay_state(record)
    actions = list(record["actions"])
    if action is not None:
        state.apply_action(action)
        actions.append(action)
    actions += bots_until(state, human=record["human"], bot=record["bot"], seed=record["seed"],
                          played=len(actions))
    return {**record, "actions": actions}


def event_lines(state) -> list[str]:
    """The event log in words (every event is public: a draw is a count, a Bombe is shown)."""
    return [state.event_to_string(ev) for ev in state.events or []]


def statuses(state, p: int) -> list[str]:
    """What weighs on seat ``p`` now: dead, blinded (Grenade flash), held back by a Grenade à gaz."""
    from cardbase.games.ctterror.rules import FLASH, GAS

    if not state.alive[p]:
        return [t("ctterror_page.status_dead")]
    out = []
    from cardbase.games.ctterror.state import MASKING

    effect = state.game.effect
    last = len(state.table) - 1
    for i, (owner, k, mask) in enumerate(state.table):
        if mask >> p & 1 and state.phase == MASKING and i == last:  # the Masque window is still open
            out.append(t("ctterror_page.status_threatened", owner=state.seat_name(owner),
                         card=state.game.kinds[k].name))
        elif mask >> p & 1 and effect[k] == FLASH:
            out.append(t("ctterror_page.status_blinded", owner=state.seat_name(owner)))
        elif mask >> p & 1 and effect[k] == GAS:
            out.append(t("ctterror_page.status_gassed", owner=state.seat_name(owner)))
        if owner == p:
            out.append(t("ctterror_page.status_thrown", card=state.game.kinds[k].name))
    return out


def _headshot(state) -> bool:
    """A head shot is waiting for its answer (CT15: only the Esquive saves the target)."""
    from cardbase.games.ctterror.state import DEFEND, HEADSHOT_MODE

    return state.phase == DEFEND and state.att is not None and state.att[4] == HEADSHOT_MODE


def action_label(state, action: int) -> str:
    """An action's button text: the engine's, except where it would hide what it means."""
    from cardbase.games.ctterror.state import PASS

    if action == PASS and _headshot(state):  # not defending a head shot is death, say so
        return t("ctterror_page.pass_headshot")
    return state.action_to_string(action)


def situation(state) -> str:
    """What you are deciding now, in words (Markdown: card and character names are escaped). The
    bots play until it is your decision, so outside the end of a game the decision is yours."""
    from cardbase.games.ctterror.state import CALLED, DEFEND, MASKING

    if state.phase == DEFEND and state.att is not None:
        a, target, dmg, kind, _mode, helper = state.att
        card = state.game.kinds[kind].name if kind >= 0 else t("ctterror_page.own_weapon")
        if _headshot(state):
            return tp("ctterror_page.sit_headshot", attacker=state.seat_name(a), target=state.seat_name(target),
                      card=card)
        key = "ctterror_page.sit_defend_helper" if helper >= 0 else "ctterror_page.sit_defend"
        return tp(key, attacker=state.seat_name(a), target=state.seat_name(target), card=card,
                  damage=dmg)
    if state.phase == CALLED:
        return tp("ctterror_page.sit_called", caller=state.seat_name(state.caller))
    if state.phase == MASKING and state.table:
        owner, k, _mask = state.table[-1]
        return tp("ctterror_page.sit_mask", owner=state.seat_name(owner), card=state.game.kinds[k].name)
    return t("ctterror_page.sit_turn")


# --------------------------------------------------------------------------- page

def render(code: str = CODE) -> None:
    mode = st.segmented_control(t("playtest.mode"), ["table", "batch"], key="ctt_mode", default="table",
                                format_func=lambda m: t(f"ctterror_page.mode_{m}"),
                                label_visibility="collapsed", required=True) or "table"
    if mode == "batch":
        batch(code, prefix="cttb")
    else:
        table()


def table() -> None:
    from cardbase.games import registry

    spec = registry.get(CODE)
    cols = st.columns([1, 2, 2, 1], vertical_alignment="bottom")
    players = int(cols[0].number_input(t("ctterror_page.players"), spec.min_players, spec.max_players, 4, 1,
                                       key="ctt_players"))
    try:
        game = engine_game(players)
    except CardbaseError as exc:
        show_error(exc)
        return
    seats = list(range(players))
    if st.session_state.get("ctt_seat") not in seats:
        st.session_state["ctt_seat"] = 0
    labels = {p: t("ctterror_page.seat_choice", seat=p + 1, team=t(f"ctterror_page.team_{game.team_of(p)}"))
              for p in seats}  # formatted now, in this run's language
    seat = cols[1].selectbox(t("ctterror_page.your_seat"), seats, key="ctt_seat",
                             help=t("ctterror_page.your_seat_help"), format_func=labels.get)
    level = cols[2].selectbox(t("ctterror_page.level"), spec.bots,
                              index=spec.bots.index("greedy") if "greedy" in spec.bots else 0,
                              key="ctt_level", format_func=bot_labels())
    if cols[3].button(t("playtest.new_game"), key="ctt_new", type="primary", width="stretch"):
        try:
            st.session_state[KEY] = play(new_game(players, seat, level), None)
        except CardbaseError as exc:
            show_error(exc)
            return
    record = st.session_state.get(KEY)
    if not record:
        st.info(t("ctterror_page.press_new"))
        return
    try:
        state, since = replay_table(record)
    except CardbaseError as exc:
        show_error(exc)
        return
    _board(state, record, since)


def _act(record: dict[str, Any], action: int) -> None:
    try:
        st.session_state[KEY] = play(record, action)
    except CardbaseError as exc:
        show_error(exc)
        return
    st.rerun()


def _board(state, record: dict[str, Any], since: int = 0) -> None:
    from cardbase.games.ctterror.state import PASS

    human = record["human"]
    obs = state.observation(human)
    m = st.columns(4)
    m[0].metric(t("ctterror_page.round"), obs.round)
    m[1].metric(t("ctterror_page.turns"), obs.turns)
    m[2].metric(t("ctterror_page.pile"), obs.pile_size)
    m[3].metric(t("ctterror_page.discard"), len(obs.discard))
    st.caption(t("ctterror_page.caption", n=len(record["actions"]), seed=record["seed"],
                 bot=bot_label(record["bot"]), seat=human + 1,
                 team=t(f"ctterror_page.team_{obs.teams[human]}")))

    if obs.terminal:
        if obs.winner is None:
            st.warning(t("ctterror_page.final_limit"), icon=":material/flag:")
        else:
            won = obs.winner == obs.teams[human]
            box = st.success if won else st.error  # a loss is never green
            box(t("ctterror_page.final_win" if won else "ctterror_page.final_loss",
                  team=t(f"ctterror_page.winner_{obs.winner}")),
                icon=":material/flag:")

    _seats(state, obs, human)

    recent = event_lines(state)[since:]
    if recent:
        with st.container(border=True, key="ctt_recent"):
            st.markdown(f"**{t('ctterror_page.recent' if since else 'ctterror_page.recent_start')}**")
            shown = recent[-RECENT:]
            if len(recent) > RECENT:
                shown = [t("ctterror_page.recent_more", n=len(recent) - RECENT), *shown]
            st.text("\n".join(shown))
    if not obs.terminal:
        st.info(situation(state), icon=":material/touch_app:")
    if not obs.terminal and obs.current_player == human:
        st.markdown(f"**{t('ctterror_page.your_choice')}**")
        legal = state.legal_actions(human)
        legal = [a for a in legal if a != PASS] + [a for a in legal if a == PASS]  # doing nothing last
        cols = st.columns(2)
        for i, a in enumerate(legal):
            if cols[i % 2].button(plain(action_label(state, a)), key=f"ctt_act_{i}", width="stretch",
                                  icon=":material/block:" if a == PASS else None):
                _act(record, a)
    _hand(state, obs)

    with st.expander(t("ctterror_page.log"), expanded=obs.terminal):
        lines = event_lines(state)
        st.text("\n".join(lines[-400:]))


def _seats(state, obs, human: int) -> None:
    n = state.n
    life_max = state.game.life
    per_row = 4 if n > 4 else n
    for start in range(0, n, per_row):
        cols = st.columns(per_row)
        for p in range(start, min(n, start + per_row)):
            with cols[p - start].container(border=True):
                team = obs.teams[p]
                icon = ":material/shield:" if team == "CT" else ":material/local_fire_department:"
                you = f" — **{t('ctterror_page.you')}**" if p == human else ""
                if obs.current_player == p and not obs.terminal:
                    icon = ":material/hourglass_top:"  # deciding now
                st.markdown(f"{icon} **{tp('ctterror_page.seat', seat=p + 1, name=obs.characters[p])}**{you}")
                st.caption(t(f"ctterror_page.team_{team}"))
                life = obs.life[p]
                st.progress(max(0.0, min(1.0, life / life_max)) if life_max else 0.0,
                            text=t("ctterror_page.life", life=life, max=life_max))
                st.caption(t("ctterror_page.hand_size", n=obs.hand_sizes[p]))
                for s in statuses(state, p):
                    st.markdown(f":orange[{plain(s)}]")


def _hand(state, obs) -> None:
    kinds = state.game.kinds
    held = [(k, n) for k, n in enumerate(obs.hand) if n]
    st.markdown(f"**{t('ctterror_page.your_hand')}** ({sum(n for _, n in held)})")
    if not held:
        st.caption(t("ctterror_page.empty_hand"))
        return
    texts = _card_texts()
    cols = st.columns(5)
    for i, (k, n) in enumerate(held):
        kind = kinds[k]
        with cols[i % len(cols)].container(border=True):
            count = f" ×{n}" if n > 1 else ""
            st.markdown(f"**{plain(kind.name)}**{count}")
            text = texts.get(kind.ref)
            if text:
                st.caption(plain(text))


def _card_texts() -> dict[str, str]:
    """The printed text of the game's cards by ref."""
    return {c.ref: c.effect_text or "" for c in game_cards(CODE)}
