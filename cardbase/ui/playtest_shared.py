"""What every game table of the Playtest page shares: the game's cards, the bots' turn loop
(:func:`bots_until`, one seeding rule for every game) and the bots' names in words.
"""

from __future__ import annotations

import time

import streamlit as st

from cardbase import i18n
from cardbase.catalog import cards as catalog
from cardbase.ui.common import lang, session, t

# a generic search bot (mc, ismcts) thinks at most this long a decision at a table, where a person
# waits for it: at six seats of Enchères d'équipe an unbounded decision took 13 s (mc) to 31 s
# (ismcts) on the shared 2-core machine, a click up to five of them. Batches have no limit.
TABLE_THINK_MS = 1000.0


def game_cards(code: str) -> list:
    """The game's cards from the database (every edition's cards with their copies); none for a
    game written as data that describes its own cards (data/rules/<code>.toml)."""
    from cardbase.games import registry

    spec = registry.REGISTRY.get(code)
    if spec is not None and spec.own_cards:
        return []
    with session() as s:
        return catalog.card_defs(s, game=code)


def bots_until(state, *, human: int, bot: str, seed: int, played: int) -> list[int]:
    """The bots play until it is seat ``human``'s decision again (or the game is over); their
    actions. The bot of action ``i`` of the game is seeded ``seed + i`` (``played`` actions were
    played before); a search bot thinks at most ``TABLE_THINK_MS`` a decision, so its move may
    depend on the machine's speed — the record keeps the moves, and a replay plays them."""
    from cardbase.playtest.games import seat_bot

    done: list[int] = []
    if state.is_terminal() or state.current_player() == human:
        return done
    # the search bots may think for a while at large tables: the page says so, with the time spent
    # and the moves played so far. Writing that count is also where the run notices a stop or a new
    # click (Streamlit stops a run only when it writes to the page), so a long bot turn can be
    # cancelled between two moves; the cancelled click is then not kept.
    with st.spinner(t("playtest.bots_thinking", bot=bot_label(bot)), show_time=True):
        count = st.empty()
        shown = time.monotonic()
        while not state.is_terminal() and state.current_player() != human:
            a = seat_bot(bot, seed + played + len(done), state.game, max_ms=TABLE_THINK_MS).step(state)
            state.apply_action(a)
            done.append(a)
            if time.monotonic() - shown > 0.25:
                count.caption(t("playtest.bots_moves", n=len(done)))
                shown = time.monotonic()
        count.empty()
    return done


def bot_label(name: str, language: str | None = None) -> str:
    """A bot's name in words (``language``: the app's by default)."""
    return i18n.find(language or lang(), f"playtest.bot_{name}") or name


def bot_labels():
    """A ``format_func`` naming bots in the language of this run (it may be called after it)."""
    language = lang()
    return lambda name: bot_label(name, language)


def ending_label(key: str, code: str | None = None) -> str:
    """How a game ended, in words: a rules file's ending by its label (game ``code``), a known
    ending by its text, else its code."""
    from cardbase.playtest.coverage import ending_words

    return ending_words(key, code, lang())
