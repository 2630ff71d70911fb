"""The constructs Menteur (data/rules/menteur.toml) asked for, on whole seeded games: a counter of
the table, a counter the table does not show, a label with values and a names table, ``answerer``,
a set action that opens an answer window, and ``reveal`` — the cards shown to every seat, in the
observations, the logs and the bots' re-deals. And their problems when the file is read (line,
key, fix, in French and English)."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import RulesFileError, parse_rules_text
from cardbase.i18n import set_language

ROOT = Path(__file__).resolve().parent.parent
MENTEUR = (ROOT / "data" / "rules" / "menteur.toml").read_text(encoding="utf-8")
WORDS = {1: "As", 2: "Deux", 3: "Trois", 4: "Quatre", 5: "Cinq", 6: "Six", 7: "Sept", 8: "Huit",
         9: "Neuf", 10: "Dix", 11: "Valet", 12: "Dame", 13: "Roi"}


def _game(text: str = MENTEUR, players: int = 4) -> Game:
    return Game(parse_rules_text(text, "menteur.toml"), (), players)


def _problems(text: str) -> list[str]:
    with pytest.raises(RulesFileError) as exc:
        parse_rules_text(text, "f.toml")
    return [str(p) for p in exc.value.problems]


def _swap(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def _play(s, rng, greedy=False, moves=10**5):
    for _ in range(moves):
        if s.is_terminal():
            return
        s.apply_action(s.greedy_action() if greedy else rng.choice(s.legal_actions()))


def test_the_table_counter_is_one_value_and_the_label_says_it_as_a_word() -> None:
    """Whole random games: ``annonce`` (owner = "table") is the same for every seat after every
    move and goes up by one a turn; each lay is offered and logged « Annoncer n × <rank word> »
    with n the cards of the set; the window line says the same words."""
    set_language("fr")
    for players, seed in ((3, 0), (5, 1), (6, 2)):
        s = _game(players=players).new_state(seed)
        rng = random.Random(seed)
        asked, turns = 1, 0
        while not s.is_terminal():
            values = {c["annonce"] for c in s.counters}
            assert values == {asked}, values
            legal = s.legal_actions()
            if s.window is None:
                for a in legal[:50]:
                    label, cards = s.action_to_string(a).split(" : ")
                    assert label == f"Annoncer {len(cards.split(', '))} × {WORDS[asked]}"
            a = rng.choice(legal)
            text = s.action_to_string(a)
            s.apply_action(a)
            if s.turns != turns:
                turns, asked = s.turns, asked % 13 + 1
            if text.startswith("Annoncer") and turns < 30:  # (a whole log is rebuilt per read)
                log = s.log_lines()
                said = text.split(" : ")[0]
                # one line a move: « Joueur 3 : Annoncer 4 × As — <cards> — les autres peuvent répondre »
                assert any(line.startswith("Joueur ") and (line.endswith(f": {said}") or f": {said} — " in line)
                           for line in log[-12:]), log[-12:]
                if s.window is not None:
                    assert any(f"{said} — " in line for line in log[-3:]), log[-3:]
        assert turns > 5


def test_the_label_in_english_and_a_number_without_a_word() -> None:
    """The word in the player's language ({ fr, en } in [names]); a number the table has no word
    for is written as the number."""
    text = _swap(MENTEUR, '1 = "As", 2 = "Deux"', '1 = { fr = "As", en = "Ace" }')
    s = _game(text).new_state(0)
    set_language("en")
    try:
        first = s.action_to_string(s.legal_actions()[0])
        assert first.startswith("Announce 1 × Ace: "), first
        s.counters[s.player]["annonce"] = 2
        s._legal = None
        assert s.action_to_string(s.legal_actions()[0]).startswith("Announce 1 × 2: ")
    finally:
        set_language("fr")


def test_answerer_names_the_caller_and_the_truth_goes_to_them() -> None:
    """Whole games at 6 players: after a call, the truth's cards and the pile go to the seat that
    called (``answerer``, no bookkeeping counter), a lie's to the layer; ``answerer`` is 0 outside
    the window's close."""
    takes = {"caller": 0, "layer": 0}
    for seed in range(6):
        s = _game(players=6).new_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            assert s.answerer == 0 or s.window is not None
            if s.window is not None:
                actor = s.window[0]
                a = rng.choice(s.legal_actions())
                caller = s.player
                called = s.action_to_string(a) == "Menteur !"
                laid = list(s.zones["pose"][actor])
                hands = [len(h) for h in s.zones["main"]]
                pile = len(s.zones["tas"][0])
                asked = s.counters[0]["annonce"]
                s.apply_action(a)
                if called:
                    lie = any(s.game.cards[c].value != asked for c in laid)
                    taker = actor if lie else caller
                    takes["layer" if lie else "caller"] += 1
                    assert len(s.zones["main"][taker]) == hands[taker] + len(laid) + pile
                    assert set(laid) <= set(s.zones["main"][taker])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
    assert takes["caller"] > 0 and takes["layer"] > 0, takes


def test_a_reveal_shows_the_cards_to_every_seat_until_a_player_lays_them() -> None:
    """Whole games: after a call, every seat's observation names the revealed cards in the hand
    that took them, and every seat's log names them; once their holder lays cards, a card laid is
    no longer named to the others; the other hands' unrevealed cards are never named."""
    set_language("fr")
    seen_after = 0
    for seed in range(4):
        s = _game(players=4).new_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            a = rng.choice(legal)
            called = s.window is not None and s.action_to_string(a) == "Menteur !"
            actor = s.window[0] if s.window is not None else s.player
            laid = list(s.zones["pose"][actor])
            mark = [len(s.log_lines(p)) for p in range(4)] if called and seen_after < 12 else None
            s.apply_action(a)
            for p in range(4):
                o = s.observation(p)
                for q in range(4):
                    for c, name in zip(s.zones["main"][q], o["zones"]["main"][q]):
                        if q != p:  # a card of another's hand is named only when it was shown
                            assert (name is not None) == (c in s.shown), (p, q, name)
            if called and mark is not None:
                names = [s.game.cards[c].name for c in laid]
                for p in range(4):
                    assert all(c in s.shown for c in laid)
                    new = "\n".join(s.log_lines(p)[mark[p]:])
                    assert f"montre à tous (pose) : {', '.join(names)}" in new, new
                seen_after += 1
            if s.window is None and not s.is_terminal():
                # a lay moves the cards by a player's action: none of them stays shown
                assert not set(s.zones["pose"][s.player]) & s.shown
    assert seen_after > 5


def test_the_bots_redeals_keep_the_revealed_cards_where_they_are() -> None:
    """Resampling (mc, ismcts), the greedy bot's deals and its undealt position: a card shown by a
    reveal stays in the hand that took it in every re-deal, while the unseen cards move."""
    s = _game(players=4).new_state(3)
    rng = random.Random(3)
    while not s.shown and not s.is_terminal():
        legal = s.legal_actions()
        calls = [a for a in legal if s.action_to_string(a) == "Menteur !"]
        s.apply_action(calls[0] if calls else rng.choice(legal))
    assert s.shown
    holder = next(q for q in range(4) if set(s.zones["main"][q]) & s.shown)
    viewer = (holder + 1) % 4
    mine = set(s.zones["main"][holder]) & s.shown
    moved = 0
    for k in range(20):
        r = s.resample(viewer, random.Random(k))
        assert mine <= set(r.zones["main"][holder])
        assert r.zones["main"][viewer] == s.zones["main"][viewer]
        hidden = set(s.zones["main"][holder]) - mine
        moved += hidden != set(r.zones["main"][holder]) - mine
    assert moved > 0  # the unseen cards are dealt again
    base = s._undealt_base(viewer)
    kept = [c for c in base.zones["main"][holder] if isinstance(c, int)]
    assert Counter(kept) == Counter(c for c in s.zones["main"][holder] if c in s.shown)
    _play(s, rng, greedy=True, moves=60)  # the greedy bot plays on with shown cards around


def test_a_counter_of_the_table_is_shown_once_and_bookkeeping_not_at_all() -> None:
    from cardbase.ui.playtest_rules import counters_line

    s = _game().new_state(0)
    line = counters_line(s)
    assert line.startswith("table : annonce 1") and "douteux" not in line
    assert len(re.findall(r"annonce", line)) == 1 and "joueur 4 : mensonges 0" in line


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_read_time_problems_of_the_new_constructs(lang: str) -> None:
    set_language(lang)
    label = "label = { fr = \"Annoncer {count('chosen')} × {name('rang', annonce)}\""
    cases = [
        # (what is changed, the key, a word of the message)
        ((label, label.replace("name('rang', annonce)", "name('rangs', annonce)")), "actions[1].label",
         {"fr": "table de noms inconnue", "en": "unknown names table"}),
        ((label, label.replace("{count('chosen')}", "{count('choisies')}")), "actions[1].label",
         {"fr": "choisies", "en": "choisies"}),
        ((label, label.replace("annonce)}", "annonces)}")), "actions[1].label",
         {"fr": "annonces", "en": "annonces"}),
        ((label, label.replace("{count('chosen')}", "{count('chosen')")), "actions[1].label",
         {"fr": "accolade", "en": "brace"}),
        (('1 = "As", 2 = "Deux"', 'un = "As", 2 = "Deux"'), "names.rang.un",
         {"fr": "nombre entier", "en": "whole number"}),
        (('annonce = { start = 1, owner = "table" }', 'annonce = { start = 1, owner = "tout" }'),
         "counters.annonce", {"fr": "tout", "en": "tout"}),
        (('douteux = { show = false }', 'douteux = { show = "non" }'), "counters.douteux",
         {"fr": "show", "en": "show"}),
        (('{ reveal = "pose" },\n      { if = "count_if(\'pose\', \'card.value != annonce\') > 0", then = [\n          # a lie',
          '{ reveal = "posee" },\n      { if = "count_if(\'pose\', \'card.value != annonce\') > 0", then = [\n          # a lie'),
         "actions[1].then", {"fr": "posee", "en": "posee"}),
    ]
    try:
        for (old, new), key, word in cases:
            problems = _problems(_swap(MENTEUR, old, new))
            hit = [p for p in problems if key in p]
            assert hit and any(word[lang] in p for p in hit), (old, new, problems)
            assert all(("ligne" if lang == "fr" else "line") in p for p in hit), hit
    finally:
        set_language("fr")


def test_a_table_counter_reset_each_turn_is_reset_for_every_seat() -> None:
    """A counter of the table with reset = "turn", raised by the answer: every seat's copy holds the
    same value after every move, back to its start at each turn."""
    text = _swap(MENTEUR, 'douteux = { show = false }',
                 'douteux = { show = false }\nappels = { owner = "table", reset = "turn" }')
    text = _swap(text, 'then = [{ add = "douteux"', 'then = [{ add = "appels", value = "1" }, { add = "douteux"')
    text = _swap(text, 'until = "first" }', 'until = "all" }')  # the window stays open after a call
    s = _game(text, players=5).new_state(4)
    rng = random.Random(4)
    raised = 0
    while not s.is_terminal():
        turns = s.turns
        s.apply_action(rng.choice(s.legal_actions()))
        values = {c["appels"] for c in s.counters}
        assert len(values) == 1, values
        raised += values == {1}
        if s.turns != turns and not s.is_terminal():
            assert values == {0}
    assert raised > 0
