"""The Jeux page's rules panel: a game's playable rules file (``data/rules/<code>.toml``,
docs/rules-language.md) shown, checked at every change of the text (every problem with its line,
key and fix, as ``cardbase games check`` lists them) and saved only when it passes."""

from __future__ import annotations

import os
import tempfile

import streamlit as st

from cardbase import access
from cardbase.errors import CardbaseError
from cardbase.ui.common import is_editor, problems_table, show_error, t, tp


def check_text(code: str, text: str) -> tuple[object | None, list]:
    """The rules read from ``text`` (None when it does not pass) and its problems."""
    from cardbase.errors import Problem
    from cardbase.games.rulesdata.language import MAX_FILE_BYTES, RulesFileError, parse_rules_text
    from cardbase.i18n import tr

    name = f"{code}.toml"
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        return None, [Problem("rules-file", tr("rulesdata.too_big", file=name, limit=MAX_FILE_BYTES),
                              tr("rulesdata.ui.too_big_fix"), name)]
    try:
        rules = parse_rules_text(text, name)
    except RulesFileError as exc:
        return None, list(exc.problems)
    if rules.code != code:
        return None, [Problem("rules-file", tr("rulesdata.ui.code_mismatch", code=rules.code, game=code),
                              tr("rulesdata.ui.code_mismatch_fix", game=code), name)]
    return rules, []


def save_text(code: str, text: str) -> None:
    """Write the rules file whole or not at all (a temporary file renamed over it)."""
    from cardbase.games.rulesdata.register import rules_path

    access.require_editor(action="save a rules file")
    rules, problems = check_text(code, text)
    if rules is None:
        raise CardbaseError(t("rulesdata.ui.not_saved"), problems)
    path = rules_path(code)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{code}.", suffix=".toml")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


SEARCH_STATES = 500  # positions of the panel's bounded search (one deal), kept small: it runs at every change


def _search(code: str, rules) -> None:
    """The bounded search of ``cardbase games check`` on one deal: a game proved unable to end is
    shown as a problem; an ending found, in a caption."""
    from cardbase.playtest.measures import search_ending

    cards = []
    if rules.source == "edition":
        from cardbase.ui.playtest_box import game_cards

        cards = list(game_cards(code))
        if not cards:
            return
    elif rules.source != "generated":  # a game played with decks: checked by the CLI with --deck
        return
    try:
        found = search_ending(rules, cards, seeds=1, most_states=SEARCH_STATES)
    except CardbaseError:
        return  # a formula failing in play: the CLI's check names it
    deal = found["deals"][0]
    if found["verdict"] == "cannot_end":
        st.error(tp("rulesdata.cli.search_cannot_end", deals=1, states=deal["states"]))
    elif found["verdict"] == "ending":
        st.caption(tp("rulesdata.cli.search_ending", condition=deal["condition"], moves=deal["moves"],
                      seed=deal["seed"], states=deal["states"]))


def render(code: str) -> None:
    """The panel of the game ``code``."""
    from cardbase.games.rulesdata.register import rules_path

    path = rules_path(code)
    st.subheader(t("rulesdata.ui.title"))
    st.caption(tp("rulesdata.ui.help", path=f"data/rules/{code}.toml"))
    saved = path.read_text(encoding="utf-8") if path.is_file() else ""
    key = f"ga_rules_{code}"
    if key not in st.session_state:
        st.session_state[key] = saved
    text = st.text_area(t("rulesdata.ui.text"), key=key, height=360, disabled=not is_editor())
    if not text.strip():
        st.info(t("rulesdata.ui.empty"))
        return
    rules, problems = check_text(code, text)
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
                save_text(code, text)
            except CardbaseError as exc:
                show_error(exc, title=t("rulesdata.ui.not_saved"))
            else:
                st.toast(tp("rulesdata.ui.saved", path=f"data/rules/{code}.toml"),
                         icon=":material/check_circle:")
