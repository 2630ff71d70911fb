"""The Jeux page's rules panel: a game's playable rules file (``data/rules/<code>.toml``,
docs/rules-language.md) shown, checked at every change of the text (every problem with its line,
key and fix, as ``cardbase games check`` lists them) and saved only when it passes."""

from __future__ import annotations

import functools

import streamlit as st

from cardbase.catalog.rules_files import check_text, read_rules, save_rules
from cardbase.errors import CardbaseError, StaleEditError
from cardbase.ui.common import is_editor, problems_table, show_error, t, tp


SEARCH_STATES = 500  # positions of the panel's bounded search (one deal), kept small: it runs at every change


def _search(code: str, rules) -> None:
    """The bounded search of ``cardbase games check`` on one deal at every player count the file
    allows (the counts said in a caption): a game proved unable to end at a count is shown as a
    problem naming it; the endings found, in a caption."""
    from cardbase.playtest.measures import player_counts, search_counts

    cards = []
    if rules.source == "edition":
        from cardbase.ui.playtest_box import game_cards

        cards = list(game_cards(code))
        if not cards:
            return
    elif rules.source != "generated":  # a game played with decks: checked by the CLI with --deck
        return
    from cardbase.games.rulesdata.language import RulesRuntimeError

    counts = player_counts(rules)
    try:
        found = search_counts(rules, cards, counts, seeds=1, most_states=SEARCH_STATES)
    except RulesRuntimeError as exc:  # a formula failing in play: its line, key and fix, as read-time problems
        st.error(tp("rulesdata.ui.runtime"))
        problems_table([exc.problem] if exc.problem is not None else [exc])
        return
    except CardbaseError:
        return  # the game cannot be dealt here (its cards): the CLI's check says why
    # numbers only: shown as they are (tp would escape the commas)
    st.caption(t("rulesdata.ui.counts", counts=", ".join(map(str, counts)), min=rules.min_players,
                 max=rules.max_players))
    many = len(counts) > 1
    for one in found["by_players"]:
        at = tp("rulesdata.cli.at_players", players=one["players"]) if many else ""
        deal = one["deals"][0]
        if one["verdict"] == "cannot_end":
            st.error(at + tp("rulesdata.cli.search_cannot_end", deals=1, states=deal["states"]))
        elif one["verdict"] == "ending":
            st.caption(at + tp("rulesdata.cli.search_ending", condition=deal["condition"],
                               moves=deal["moves"], seed=deal["seed"], states=deal["states"]))


def _figures(code: str, game: str) -> set[str] | None:
    """The figures of the game's cards in the database (None when it has none: a game that
    describes its own cards, or whose cards are not in yet)."""
    from cardbase.playtest.cards import figures_of
    from cardbase.ui.playtest_shared import game_cards

    return figures_of(game_cards(code), game) if game == code else None


def render(code: str) -> None:
    """The panel of the game ``code``."""
    st.subheader(t("rulesdata.ui.title"))
    st.caption(tp("rulesdata.ui.help", path=f"data/rules/{code}.toml"))
    try:
        saved, version = read_rules(code)
    except CardbaseError as exc:
        show_error(exc)
        return
    key = f"ga_rules_{code}"
    started = f"ga_rules_version_{code}"  # the version the text being edited started from
    if key not in st.session_state or started not in st.session_state:
        st.session_state[key] = saved
        st.session_state[started] = version
    text = st.text_area(t("rulesdata.ui.text"), key=key, height=360, disabled=not is_editor())
    if not text.strip():
        st.info(t("rulesdata.ui.empty"))
        return
    fields = functools.partial(_figures, code)  # a misspelt card.field: a problem, as in games check
    rules, problems = check_text(code, text, card_fields=fields)
    if problems:
        st.error(tp("rulesdata.ui.problems", count=len(problems)))
        problems_table(problems)
    else:
        st.success(tp("rulesdata.ui.ok", zones=len(rules.zones), actions=len(rules.actions)))
        _search(code, rules)
    if is_editor():
        if st.button(t("rulesdata.ui.save"), key=f"ga_rules_save_{code}", disabled=bool(problems)
                     or text == saved):
            try:
                st.session_state[started] = save_rules(code, text, st.session_state[started],
                                                               card_fields=fields)
            except StaleEditError as exc:
                show_error(exc, title=t("rulesdata.ui.not_saved"))
                st.session_state[f"ga_rules_stale_{code}"] = True
            except CardbaseError as exc:
                show_error(exc, title=t("rulesdata.ui.not_saved"))
            else:
                st.session_state[f"ga_rules_stale_{code}"] = False
                st.toast(tp("rulesdata.ui.saved", path=f"data/rules/{code}.toml"),
                         icon=":material/check_circle:")
        if st.session_state.get(f"ga_rules_stale_{code}"):
            st.button(t("rulesfiles.reload"), key=f"ga_rules_reload_{code}", on_click=_reload, args=(code,))


def _reload(code: str) -> None:
    """Drop the text being edited: the next run shows the file as saved now, with its version."""
    for k in (f"ga_rules_{code}", f"ga_rules_version_{code}", f"ga_rules_stale_{code}"):
        st.session_state.pop(k, None)
