"""Each seat's log of a game written as data tells nothing that seat cannot know: a card another
seat draws from a hidden pile into its hand is « une carte cachée », another seat's draws, looks and
takes during a NesPanini effect are told without their cards. The referee's log (no seat) still
names every card. Checked on the shipped rules files by random play, against what each seat's
observations showed it up to that moment."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from cardbase import i18n
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import load_rules
from cardbase.playtest.cards import load_deck_defs, starter_decks

RULES = Path(__file__).resolve().parent.parent / "data" / "rules"
DECKS = {n: load_deck_defs(p) for n, p in starter_decks().items()}


def _game(code: str, players: int) -> Game:
    if code == "nespanini":
        return Game(load_rules(RULES / "nespanini.toml"),
                    decks=[DECKS["maree-et-crypte"], DECKS["braises-ardentes"]])
    return Game(load_rules(RULES / f"{code}.toml"), players=players)


def _seen_in(obs: dict) -> set[str]:
    """Every card name an observation shows its seat."""
    names = {c for piles in obs["zones"].values() for pile in piles for c in pile if c is not None}
    names.update(obs.get("decision", ((), ()))[1])
    for shown in obs.get("revealed", ()):
        names.update(shown)
    return names


def _named(line: str, names: list[str]) -> set[str]:
    """The card names a log line contains (the longest first: « Roi » is not read in « Roi des
    Marées »)."""
    found = set()
    for name in names:
        pattern = rf"(?<!\w){re.escape(name)}(?!\w)"
        if re.search(pattern, line):
            found.add(name)
            line = re.sub(pattern, " ", line)
    return found


@pytest.mark.parametrize(("code", "players"), [("huit", 2), ("huit", 4), ("encheres", 4), ("nespanini", 2),
                                                    ("atout", 4)])
def test_a_seats_log_names_only_cards_that_seat_has_seen(code: str, players: int) -> None:
    game = _game(code, players)
    names = sorted({c.name for c in game.cards}, key=len, reverse=True)
    checked = hidden = op_lines = 0
    for seed in range(3 if code == "atout" else 25):  # an Atout game is long: 28 deals at four
        rng = random.Random(seed)
        s = game.new_state(seed)
        n = s.num_players
        seen = [_seen_in(s.observation(q)) for q in range(n)]
        told = [0] * n
        events = 0
        while True:
            for q in range(n):
                seen[q] |= _seen_in(s.observation(q))
                # a card played face up and put out of sight by the same move's operations (the
                # last card of an Atout deal) was seen when played: its move's event says so
                seen[q].update(s.game.cards[s.events[j][2]].name for j in range(events, len(s.events))
                               if s.events[j][0] == "card" and not s.unseen.get(j, 0) >> q & 1)
                lines = s.log_lines(q)
                for line in lines[told[q]:]:
                    # a line about another seat's move: the cards it names, this seat has seen
                    other = re.match(r"Joueur (\d+)", line)
                    if other and int(other.group(1)) != q + 1:
                        unknown = _named(line, names) - seen[q]
                        assert not unknown, (code, seed, q + 1, line, unknown)
                        checked += 1
                        hidden += "cachée" in line or "une carte" in line or re.search(r"\d+ cartes?\b", line) is not None
                    if "→" in line:  # what an operation moved, whoever's turn it was
                        unknown = _named(line, names) - seen[q]
                        assert not unknown, (code, seed, q + 1, line, unknown)
                        op_lines += 1
                told[q] = len(lines)
            events = len(s.events)
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
        referee = s.log_lines()
        assert all(len(s.log_lines(q)) == len(referee) for q in range(n))
    assert checked > 100
    if code in ("huit", "nespanini"):  # hidden draws happen in these games, and were told hidden
        assert hidden > 0
    if code != "nespanini":  # the set-up's and the rounds' operations are told
        assert op_lines > 25


def test_a_hidden_draw_is_named_in_the_referees_log_and_in_its_owners_only() -> None:
    game = _game("huit", 2)
    for seed in range(50):
        s = game.new_state(seed)
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[-1])  # « Piocher » comes before « Passer »: draws happen
        if s.unseen:
            break
    assert s.unseen, "no hidden draw in 50 games"
    # one line a move: a draw is « Joueur 1 : Piocher — 5 cœur » to the referee and its owner,
    # « Joueur 1 : Piocher — une carte cachée » to the other seat; no other line differs
    for lang, hidden in (("fr", "une carte cachée"), ("en", "a hidden card")):
        with i18n.use_language(lang):
            referee, first, second = (s.log_lines(q, operations=False) for q in (None, 0, 1))
            assert len(referee) == len(first) == len(second) < len(s.events)
            for q, lines in enumerate((first, second)):
                drawn = [i for i, mask in sorted(s.unseen.items()) if mask >> q & 1]
                differ = [x for x in range(len(referee)) if lines[x] != referee[x]]
                assert len(differ) == len(drawn) > 0
                for x, i in zip(differ, drawn):
                    kind, p, cid = s.events[i]
                    assert kind == "card" and p != q and s.events[i - 1][:2] == ("action", p)
                    action = s.event_to_string(s.events[i - 1])  # « Joueur 1 : Piocher »
                    assert referee[x] == f"{action} — {s.game.cards[cid].name}"
                    assert lines[x] == f"{action} — {hidden}"


def test_a_clone_keeps_which_cards_were_hidden() -> None:
    game = _game("huit", 2)
    s = game.new_state(3)
    for _ in range(40):
        if s.is_terminal():
            break
        s.apply_action(s.legal_actions()[-1])
    c = s.clone(log=True)
    assert c.unseen == s.unseen and c.log_lines(0) == s.log_lines(0)
    assert c.ops_log == s.ops_log and c.ops_log is not s.ops_log  # the operations' lines too
    assert s.clone().ops_log is None
    assert s.clone().unseen == {}  # a copy without its log keeps no marks either


def test_an_effects_reveal_is_not_read_as_the_secret_choices_reveal() -> None:
    """Both modules write a « reveal » event: the structures' one (the round's secret choices
    shown) has no argument, an effect's names its seat and the cards it saw."""
    s = _game("nespanini", 2).new_state(1)
    a, b = s.zones["main"][1][:2]
    s.events.extend([("reveal", 0, (a, b)), ("reveal",)])
    names = f"{s.game.cards[a].name}, {s.game.cards[b].name}"
    assert s.log_lines()[-2] == f"Joueur 1 : voit la main adverse : {names}"
    assert s.log_lines(0)[-2] == s.log_lines()[-2]  # its player saw them
    assert s.log_lines(1)[-2] == "Joueur 1 : voit une main adverse"
    assert s.log_lines(1)[-1] == s.log_lines()[-1] == "Les choix simultanés sont révélés :"


@pytest.mark.parametrize(("code", "players"), [("menteur", 4), ("menteur", 6), ("huit", 2), ("nespanini", 2),
                                                    ("marche", 3), ("encheres", 4)])
def test_a_log_read_move_by_move_is_the_log_made_anew(code: str, players: int) -> None:
    """The seat logs are kept as the game goes on (a read words only the new moves): after every
    move of seeded games, each seat's log, the referee's and the logs without the operations are
    what a copy of the game (its log made from nothing) reads, in French and in English — a read in
    one language never serves the other's lines — and ``start`` gives the lines from there on."""
    game = _game(code, players)
    moves = 0
    for seed in range(12):
        if moves >= 200:
            break
        rng = random.Random(seed)
        s = game.new_state(seed)
        n = s.num_players
        marks: dict = {}
        for move in range(120):
            lang = ("fr", "en")[move % 2] if move % 5 else ("en", "fr")[move % 2]
            with i18n.use_language(lang):
                fresh = s.clone(log=True)
                for q in (None, *range(n)):
                    for operations in (True, False):
                        lines = s.log_lines(q, operations=operations)
                        assert lines == fresh.log_lines(q, operations=operations), (code, seed, move, q)
                    full, mark = s.log_lines(q), marks.get((q, lang), 0)
                    assert s.log_lines(q, start=mark) == full[mark:]
                    marks[q, lang] = len(full)
                assert ("Tour du joueur" in "\n".join(full)) == (lang == "fr")
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
            moves += 1
    assert moves >= 120
