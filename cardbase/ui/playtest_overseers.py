"""Overseers' Playtest view: a table with bots in the other seats, and batches (``playtest_box``).

The table shows what your seat knows — the engine's ``observation`` — phase by phase: the
characters (yours with its power text), the draft (the hand in front of you as cards to click, what
you kept), the discard, the placement (you tick the cards of your bottom row), the vote (a button
per other player, the Leader marked), the judgment (admit or deny), the steal, the count and the
reveal. Every player's top row is shown once everyone has placed; your own face-down cards are
marked; the other players' face-down cards are backs until the reveal. Points stay hidden until the
end (ruling OV10): you see your own, the others' only in the final totals. The bots play their
decisions at once, until it is your decision again; the event log says in words what you may know.

A game is kept as plain values — its seed, the player count, your seat, the bots' strength, the
rules options and the actions played — and replayed by the engine on each run (deterministic).
"""

from __future__ import annotations

import html
import random
from typing import Any

import streamlit as st

from cardbase import i18n
from cardbase.errors import CardbaseError
from cardbase.ui.common import lang, plain, show_error, t, tp
from cardbase.ui.playtest_box import batch, bot_label, bot_labels, bots_until, game_cards

CODE = "overseers"
KEY = "ovs_game"  # {"seed", "actions", "bot", "players", "seat", "options"}
COLOUR_HEX = {"rouge": "#c0392b", "orange": "#e67e22", "violet": "#8e44ad", "bleu": "#2e6fb7",
              "vert": "#2e8b57", "gris": "#7f8c8d"}
_GAMES: dict[tuple, Any] = {}


# --------------------------------------------------------------------------- the game

def engine_game(players: int, options: dict[str, Any] | None = None):
    """The Overseers game built from the database's cards (cached per cards, players and options)."""
    from cardbase.games import registry

    cards = tuple(game_cards(CODE))
    key = (cards, players, tuple(sorted((options or {}).items())))
    game = _GAMES.get(key)
    if game is None:
        if len(_GAMES) > 8:
            _GAMES.clear()
        game = _GAMES[key] = registry.playable(CODE).build(cards, players, **(options or {}))
    return game


def new_game(bot: str, players: int, seat: int, *, seed: int | None = None,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"seed": seed if seed is not None else random.randrange(10**9), "actions": [], "bot": bot,
            "players": int(players), "seat": int(seat), "options": dict(options or {})}


def replay_state(record: dict[str, Any]):
    from cardbase.games.overseers.state import replay

    return replay(engine_game(record["players"], record.get("options")), record["seed"], record["actions"])



def play(record: dict[str, Any], action: int | None) -> dict[str, Any]:
    """Your action (None: only let the bots open), then the bots' decisions, as a new record."""
    state = replay_state(record)
    actions = list(record["actions"])
    if action is not None:
        state.apply_action(action)
        actions.append(action)
    actions += bots_until(state, human=record["seat"], bot=record["bot"], seed=record["seed"],
                          played=len(actions))
    return {**record, "actions": actions}


# --------------------------------------------------------------------------- words

def seat_name(q: int, me: int) -> str:
    return t("overseers_page.you_seat", seat=q + 1) if q == me else t("overseers_page.seat", seat=q + 1)


def card_name(state, k: int) -> str:
    c = state.game.box.cards[k]
    return f"{c.name} ({c.value})"


def event_lines(state, me: int) -> list[str]:
    """The event log in words. Only what seat ``me`` may know: the others' picks, discards and
    face-down cards never appear; points of a count are yours only (OV10)."""
    chars = state.game.characters
    out: list[str] = []
    tops: tuple = ()

    def who(q: int) -> str:
        return seat_name(q, me)

    def name(k: int) -> str:
        return card_name(state, k)

    for ev in state.events or []:
        kind = ev[0]
        if kind == "round":
            out.append(t("overseers_page.ev_round", round=ev[1], leader=who(ev[2])))
        elif kind == "characters":
            out.append(t("overseers_page.ev_characters", chars=", ".join(
                f"{who(q)} : {chars[c].name}" for q, c in enumerate(ev[1]))))
        elif kind == "character":
            out.append(t("overseers_page.ev_character", seat=who(ev[1]), name=chars[ev[2]].name))
        elif kind == "deal":
            out.append(t("overseers_page.ev_deal", n=len(ev[1][me])))
        elif kind == "pick":
            if ev[1] == me:
                out.append(t("overseers_page.ev_pick_you", card=name(ev[2])))
        elif kind == "last_card":  # OV3: the last card of the hand, kept without a choice
            if ev[1] == me:
                out.append(t("overseers_page.ev_last_card_you", card=name(ev[2])))
        elif kind == "discard":
            out.append(t("overseers_page.ev_discard_you", card=name(ev[2])) if ev[1] == me
                       else t("overseers_page.ev_discard", seat=who(ev[1])))
        elif kind == "place":
            if ev[1] == me:
                out.append(t("overseers_page.ev_place_you", up=", ".join(map(name, ev[2])),
                             down=", ".join(map(name, ev[3]))))
        elif kind == "tops":
            tops = ev[1]
            out.append(t("overseers_page.ev_tops"))
        elif kind == "spy":
            out.append(t("overseers_page.ev_spy_you", seat=who(ev[2]), card=name(ev[3])) if ev[1] == me
                       else t("overseers_page.ev_spy", seat=who(ev[1]), other=who(ev[2])))
        elif kind == "votes":
            out.append(t("overseers_page.ev_votes", votes=", ".join(
                f"{who(q)} → {who(v)}" for q, v in enumerate(ev[1]))))
        elif kind == "leader_choice":
            _, what, q, arg = ev
            if what == "penalty":
                out.append(t("overseers_page.ev_leader_penalty_yes", seat=who(q)) if arg
                           else t("overseers_page.ev_leader_penalty_no", seat=who(q)))
            else:
                out.append(t(f"overseers_page.ev_leader_{what}", seat=who(q), other=who(arg)))
        elif kind == "accused":
            out.append(t("overseers_page.ev_accused", seat=who(ev[1])))
        elif kind == "judgment":
            out.append(t(f"overseers_page.ev_{ev[2]}", seat=who(ev[1])))
        elif kind == "shed":
            q, k = ev[1], ev[2]
            public = q == me or (q < len(tops) and k in tops[q])  # a top-row card was seen leaving
            out.append(t("overseers_page.ev_shed_card", seat=who(q), card=name(k)) if public
                       else t("overseers_page.ev_shed_hidden", seat=who(q)))
        elif kind == "reveal":
            out.append(t("overseers_page.ev_reveal"))
        elif kind == "penalty":
            out.append(t("overseers_page.ev_penalty", seat=who(ev[1]), cards=", ".join(map(name, ev[2]))))
        elif kind == "take":
            out.append(t("overseers_page.ev_take", seat=who(ev[1]), card=name(ev[2])))
        elif kind == "thief":
            out.append(t("overseers_page.ev_thief", seat=who(ev[1])))
        elif kind == "victim":
            out.append(t("overseers_page.ev_victim", seat=who(ev[1]), other=who(ev[2])))
        elif kind == "give":
            out.append(t("overseers_page.ev_give", seat=who(ev[1]), other=who(ev[2]), card=name(ev[3])))
        elif kind == "count":
            out.append(t("overseers_page.ev_count", round=ev[1], points=ev[2][me]))
        elif kind == "end":
            out.append(t("overseers_page.ev_end", totals=", ".join(
                f"{who(q)} {v}" for q, v in enumerate(ev[1])), winners=", ".join(map(who, ev[2]))))
    return out


def reveals(state) -> list[tuple[int, tuple]]:
    """Every reveal of the game so far: (round, each player's cards face up)."""
    out = []
    rnd = 0
    for ev in state.events or []:
        if ev[0] == "round":
            rnd = ev[1]
        elif ev[0] == "reveal":
            out.append((rnd, ev[1]))
    return out


# --------------------------------------------------------------------------- drawing

def _tile(state, k: int | None, *, mine_down: bool = False) -> str:
    """A card as a small tile: its colour, name and value; a back for a card you cannot see."""
    base = ("display:inline-block;min-width:5.2em;padding:.3em .45em;margin:.15em;border-radius:7px;"
            "text-align:center;font-weight:700;line-height:1.2;vertical-align:top;")
    if k is None:
        return (f'<span title="{html.escape(t("overseers_page.back"))}" style="{base}color:#fff;'
                f'background:repeating-linear-gradient(45deg,#3b4a6b,#3b4a6b 4px,#55668c 4px,#55668c 8px);'
                f'border:2px solid #2a3550">?<br><span style="font-size:.7em">'
                f'{html.escape(t("overseers_page.back_short"))}</span></span>')
    from cardbase.games.overseers.rules import COLOURS

    c = state.game.box.cards[k]
    hue = COLOUR_HEX.get(COLOURS[c.colour], "#1f2328")
    vol = f' <span style="font-size:.7em">{html.escape(t("overseers_page.vol"))}</span>' if c.vol else ""
    label = f'{html.escape(c.name)}<br><span style="font-size:1.25em">{int(c.value)}</span>{vol}'
    if mine_down:
        return (f'<span title="{html.escape(t("overseers_page.face_down"))}" style="{base}color:{hue};'
                f'background:#fff;border:2px dashed {hue}">{label}<br><span style="font-size:.65em">'
                f'{html.escape(t("overseers_page.face_down_short"))}</span></span>')
    return f'<span style="{base}color:#fff;background:{hue};border:2px solid {hue}">{label}</span>'


def _tiles(state, cards, **kw) -> str:
    return "".join(_tile(state, k, **kw) for k in cards) or "—"


def _act(record: dict[str, Any], action: int) -> None:
    try:
        st.session_state[KEY] = play(record, action)
    except CardbaseError as exc:
        show_error(exc)
        return
    st.rerun()


# --------------------------------------------------------------------------- page

def render(code: str = CODE) -> None:
    language = lang()  # format functions may be called after this run: its language, fixed
    mode = st.segmented_control(t("playtest.mode"), ["table", "batch"], key="ovs_mode", default="table",
                                format_func=lambda m: i18n.translate(language, f"overseers_page.mode_{m}"),
                                label_visibility="collapsed", required=True) or "table"
    if mode == "batch":
        batch(code, prefix="ovsb")
    else:
        table()


def table() -> None:
    from cardbase.games import registry

    spec = registry.get(CODE)
    cols = st.columns([1, 1, 2, 1], vertical_alignment="bottom")
    players = int(cols[0].selectbox(t("overseers_page.players"), list(range(spec.min_players, spec.max_players + 1)),
                                    index=1, key="ovs_players"))
    language = lang()  # format functions may be called after this run: its language, fixed
    seat = int(cols[1].selectbox(t("overseers_page.your_seat"), list(range(players)), key="ovs_seat",
                                 format_func=lambda q: i18n.translate(language, "overseers_page.seat", seat=q + 1)))
    level = cols[2].selectbox(t("overseers_page.level"), spec.bots, index=spec.bots.index("greedy"),
                              key="ovs_level", format_func=bot_labels())
    with st.expander(t("overseers_page.variants")):
        alternate = st.checkbox(t("overseers_page.alternate"), key="ovs_alternate")
        choice = st.checkbox(t("overseers_page.character_choice"), key="ovs_choice")
    if cols[3].button(t("playtest.new_game"), key="ovs_new", type="primary", width="stretch"):
        options = {k: True for k, on in (("alternate_direction", alternate), ("character_choice", choice)) if on}
        try:
            st.session_state[KEY] = play(new_game(level, players, seat, options=options), None)
        except CardbaseError as exc:
            show_error(exc)
            return
    record = st.session_state.get(KEY)
    if not record:
        st.info(t("overseers_page.press_new"))
        return
    try:
        state = replay_state(record)
    except CardbaseError as exc:
        show_error(exc)
        return
    _board(state, record)


def _board(state, record: dict[str, Any]) -> None:
    me = record["seat"]
    obs = state.observation(me)
    chars = state.game.characters
    m = st.columns([2, 3, 4, 3])  # the phase gets room for its longest name (« Jugement (à tort) »)
    m[0].metric(t("overseers_page.round"), f"{obs.round}/3")
    m[1].metric(t("overseers_page.leader"), seat_name(obs.leader, me))
    m[2].metric(t("overseers_page.phase"), t(f"overseers_page.phase_{obs.phase}"))
    m[3].metric(t("overseers_page.my_points"), " + ".join(map(str, obs.my_points)) or "—",
                help=t("overseers_page.my_points_help"))
    st.caption(t("overseers_page.caption", players=record["players"], seed=record["seed"],
                 n=len(record["actions"]), bot=bot_label(record["bot"])))
    if obs.characters[me] >= 0:
        ch = chars[obs.characters[me]]
        st.markdown(f"**{t('overseers_page.your_character')}** : {plain(ch.name)}"
                    + (f" — {plain(ch.text)}" if ch.text else ""))

    if state.is_terminal():
        _final(state, obs, me)

    _your_turn(state, obs, record)
    _seats(state, obs, me)

    a, b = st.columns(2)
    a.caption(t("overseers_page.discard", n=obs.discard_size,
                known=", ".join(card_name(state, k) for k in obs.known_discard) or t("common.none_f")))
    if obs.peeks:
        b.caption(t("overseers_page.peeks", cards=", ".join(
            f"{seat_name(q, me)} : {card_name(state, k)}" for q, k in obs.peeks)))
    for rnd, table in reversed(reveals(state)):
        with st.expander(t("overseers_page.reveal", round=rnd),
                         expanded=rnd == obs.round and obs.table is not None):
            rows = "".join(f'<div style="margin:.1em 0"><span style="display:inline-block;width:7em;'
                           f'font-weight:600">{html.escape(seat_name(q, me))}</span>{_tiles(state, cards)}</div>'
                           for q, cards in enumerate(table))
            st.markdown(rows, unsafe_allow_html=True)
    with st.expander(t("overseers_page.log")):
        st.text("\n".join(event_lines(state, me)))


def _seats(state, obs, me: int) -> None:
    """Every player: character, Leader, top row (once placed), face-down cards, vote."""
    chars = state.game.characters
    st.markdown(f"**{t('overseers_page.table')}**")
    rows = []
    for q in range(state.n):
        name = chars[obs.characters[q]].name if obs.characters[q] >= 0 else "?"
        marks = []
        if q == obs.leader:
            marks.append(f'<b style="color:#b8860b">{html.escape(t("overseers_page.leader_mark"))}</b>')
        if q == obs.accused:
            marks.append(f'<b style="color:#b00020">{html.escape(t("overseers_page.accused_mark"))}</b>')
        if q == obs.thief:
            marks.append(f'<b>{html.escape(t("overseers_page.thief_mark"))}</b>')
        if obs.votes is not None:
            marks.append(html.escape(t("overseers_page.voted_for", seat=seat_name(obs.votes[q], me))))
        head = (f'<b>{html.escape(seat_name(q, me))}</b> · {html.escape(name)}'
                + (" · " + " · ".join(marks) if marks else ""))
        if obs.table is not None:  # after the reveal every card is face up
            cards = _tiles(state, obs.table[q])
        elif q == me:
            top = obs.tops[q] or ()
            down = obs.bottoms[q]
            cards = _tiles(state, top) if top or down else "—"
            if down:
                cards += " " + _tiles(state, down, mine_down=True)
            if not top and not down and obs.kept:
                cards = _tiles(state, obs.kept)
        else:
            top = obs.tops[q]
            hidden = obs.bottoms[q] if isinstance(obs.bottoms[q], int) else 0
            cards = (_tiles(state, top) if top is not None else
                     f'<i>{html.escape(t("overseers_page.not_placed"))}</i>')
            if hidden:
                cards += " " + "".join(_tile(state, None) for _ in range(hidden))
        rows.append(f'<div style="margin:.25em 0;padding:.3em .5em;border:1px solid #ddd;border-radius:8px">'
                    f'<div>{head}</div><div>{cards}</div></div>')
    st.markdown("".join(rows), unsafe_allow_html=True)
    st.caption(t("overseers_page.table_note"))


def _your_turn(state, obs, record: dict[str, Any]) -> None:
    from cardbase.games.overseers.state import (
        CHARACTER,
        CHOOSE,
        DISCARD,
        GIVE,
        PICK,
        SHED,
        TAKE,
        VOTE,
        K,
    )

    if state.is_terminal():
        return
    me = record["seat"]
    if state.current_player() != me:  # cannot happen once the bots have played; said plainly
        st.info(t("overseers_page.waiting", seat=seat_name(state.current_player(), me)))
        return
    legal = state.legal_actions(me)
    phase = obs.phase
    box = st.container(border=True)
    box.markdown(f"**{t(f'overseers_page.do_{phase}')}**")
    if phase == "draft":
        box.caption(t("overseers_page.kept", cards=", ".join(card_name(state, k) for k in obs.kept)
                      or t("common.none_f")))
    if phase == "place":
        _placement(state, obs, legal, record, box)
        return
    if phase == "judge":
        box.caption(t("overseers_page.judge_help"))
    if phase in ("vote_tie", "thief_tie", "successor"):
        box.caption(t(f"overseers_page.help_{phase}"))
    card_kinds = (PICK, DISCARD, SHED, TAKE, GIVE)
    if legal and legal[0] // K in card_kinds:  # cards to click, drawn as cards
        cols = box.columns(max(len(legal), 6))
        for i, a in enumerate(legal):
            with cols[i % len(cols)]:
                st.markdown(_tile(state, a % K), unsafe_allow_html=True)
                label = t(f"overseers_page.button_{phase}")
                if st.button(label, key=f"ovs_a_{i}", width="stretch", help=state.action_to_string(a)):
                    _act(record, a)
        return
    cols = box.columns(min(max(len(legal), 1), 6))
    for i, a in enumerate(legal):
        kind, arg = divmod(a, K)
        label = state.action_to_string(a)
        if kind in (VOTE, CHOOSE) and arg == obs.leader:
            label += " " + t("overseers_page.leader_tag")
        if kind == CHARACTER:
            text = state.game.characters[arg].text
            if text:
                label += f" — {text}"
        if cols[i % len(cols)].button(label, key=f"ovs_a_{i}", width="stretch"):
            _act(record, a)


def _placement(state, obs, legal: list[int], record: dict[str, Any], box) -> None:
    """Tick the cards of your bottom row (face down); the others go to the top row."""
    from cardbase.games.overseers.state import PLACE, K

    cards = sorted(state.kept[record["seat"]])
    sizes = sorted({bin(a % K).count("1") for a in legal})
    box.caption(t("overseers_page.place_help", sizes=" / ".join(map(str, sizes))))
    cols = box.columns(len(cards))
    mask = 0
    for i, k in enumerate(cards):
        with cols[i]:
            st.markdown(_tile(state, k), unsafe_allow_html=True)
            if st.checkbox(t("overseers_page.bottom_row"), key=f"ovs_down_{len(record['actions'])}_{i}"):
                mask |= 1 << i
    action = PLACE * K + mask
    ok = action in legal
    if box.button(t("overseers_page.place_go"), key="ovs_place", type="primary", disabled=not ok):
        _act(record, action)
    if not ok:
        box.caption(t("overseers_page.place_count", n=bin(mask).count("1")))


def _final(state, obs, me: int) -> None:
    winners = state.winners
    names = ", ".join(seat_name(q, me) for q in winners)
    key = "win" if winners == [me] else "shared" if len(winners) > 1 else "loss"
    box = {"win": st.success, "shared": st.info, "loss": st.error}[key]  # a loss is never green
    box(t(f"overseers_page.final_{key}", winners=names), icon=":material/flag:")
    totals = obs.totals or ()
    st.markdown(tp("overseers_page.totals", totals=", ".join(
        f"{seat_name(q, me)} {v}" for q, v in enumerate(totals))))
