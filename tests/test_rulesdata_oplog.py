"""The log of a game written as data tells what the rules' operations did — the trump turned up, the
deal, the trick taken, the points scored — apart from the events the games' digests read, and the
endings by their labels. Whole seeded games of the shipped files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardbase import i18n
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import RulesFileError, load_rules, parse_rules_text
from cardbase.playtest.cards import load_deck_defs, starter_decks
from cardbase.playtest.coverage import as_json
from cardbase.playtest.games import seat_bot
from tests.rulesdata_helpers import random_games

RULES = Path(__file__).resolve().parent.parent / "data" / "rules"


def _greedy(game: Game, seed: int, log: bool):
    """A game played by greedy bots in every seat, as a batch plays it."""
    s = game.new_state(seed, log=log)
    bots = [seat_bot("greedy", seed * 31 + i, game) for i in range(s.num_players)]
    while not s.is_terminal():
        s.apply_action(bots[s.current_player()].step(s))
    return s


@pytest.mark.parametrize("players", [2, 4])
def test_atouts_log_tells_the_trump_the_deal_every_trick_and_every_point(players: int) -> None:
    game = Game(load_rules(RULES / "atout.toml"), players=players)
    s = _greedy(game, 3, log=True)
    lines = s.log_lines()
    deals = s.round
    assert sum(line == "Mélange : paquet" for line in lines) == deals
    trumps = [line for line in lines if line.endswith(", paquet → atout")]
    assert len(trumps) == deals and all(re.fullmatch(r"Joueur \d : [^,]+, paquet → atout", t) for t in trumps)
    assert sum(line == f"Donne : {31 // players} carte(s) par joueur, paquet → main" for line in lines) == deals
    # every trick: its cards by name (played face up), to the winner's pile, after its point
    tricks = [i for i, line in enumerate(lines) if line.endswith("tapis → levees")]
    assert len(tricks) == deals * (31 // players)
    for i in tricks:
        who, cards = re.fullmatch(r"Joueur (\d) : (.+), tapis → levees", lines[i]).groups()
        assert len(cards.split(", ")) == players
        assert re.fullmatch(rf"Joueur {who} : points \d+ → \d+", lines[i - 1])
    # the points told add up to each seat's final points (the only scoring counter)
    told = [0] * players
    for line in lines:
        m = re.fullmatch(r"Joueur (\d) : points (\d+) → (\d+)", line)
        if m:
            p, old, new = int(m[1]) - 1, int(m[2]), int(m[3])
            assert old == told[p] and new > old
            told[p] = new
    assert told == [c["points"] for c in s.counters]
    assert lines[-1].startswith("Fin de la partie (Toutes les donnes jouées)")
    with i18n.use_language("en"):
        english = s.log_lines()
        assert f"Deal: {31 // players} card(s) per player, paquet → main" in english
        assert english[-1].startswith("End of the game (Every deal played)")


@pytest.mark.parametrize("code", ["atout", "huit", "encheres"])
def test_the_operations_lines_change_no_move_no_event_and_cost_nothing_without_a_log(code: str) -> None:
    game = Game(load_rules(RULES / f"{code}.toml"), players=4)
    for seed in range(3):
        quiet, logged = _greedy(game, seed, log=False), _greedy(game, seed, log=True)
        assert quiet.history == logged.history and quiet.winners == logged.winners
        assert quiet.ops_log is None and logged.ops_log
        assert all(e[0] not in ("move", "deal", "shuffle", "counter") for e in logged.events)
        assert len(logged.log_lines(operations=False)) == len(logged.events)
        assert len(logged.log_lines()) == len(logged.events) + len(logged.ops_log)


def test_a_hand_drawn_by_the_set_up_is_named_to_its_owner_only() -> None:
    decks = {n: load_deck_defs(p) for n, p in starter_decks().items()}
    game = Game(load_rules(RULES / "nespanini.toml"),
                decks=[decks["maree-et-crypte"], decks["braises-ardentes"]])
    s = game.new_state(1)
    first = s.zones["main"][0][:5]  # the set-up's five cards (the sixth: the first turn's draw)
    names = ", ".join(game.cards[c].name for c in first)
    line = f"Joueur 1 : {names}, deck → main"
    assert line in s.log_lines() and line in s.log_lines(0)
    assert "Joueur 1 : 5 cartes cachées, deck → main" in s.log_lines(1)
    assert not any(game.cards[c].name in x for c in first for x in s.log_lines(1)
                   if x.startswith("Joueur 1") and "deck → main" in x)
    with i18n.use_language("en"):
        assert "Player 1: 5 hidden cards, deck → main" in s.log_lines(1)


def test_an_endings_label_is_checked_and_shown_in_the_coverage() -> None:
    text = (RULES / "huit.toml").read_text(encoding="utf-8")
    rules = parse_rules_text(text, "huit.toml")
    assert {e.name: e.label["en"] for e in rules.endings} == {
        "main_vide": "A player has shed every card", "pioche_vide": "Draw pile exhausted"}
    bad = text.replace('label = { fr = "Pioche épuisée", en = "Draw pile exhausted" }', "label = 3")
    with pytest.raises(RulesFileError) as err:
        parse_rules_text(bad, "huit.toml")
    assert "label" in str(err.value)
    plain = parse_rules_text(text.replace('label = { fr = "Pioche épuisée", en = "Draw pile exhausted" }\n', ""),
                        "huit.toml")
    assert Game(plain, players=2).ending_label("pioche_vide") is None  # the name, then
    cov = as_json("huit", {"ending:pioche_vide": [10, 2], "ending:main_vide": [10, 8]}, 10)
    assert cov["ending:pioche_vide"]["label"] == "Pioche épuisée"
    with i18n.use_language("en"):
        assert Game(rules, players=2).ending_label("main_vide") == "A player has shed every card"


def test_every_shipped_ending_has_a_label_in_both_languages() -> None:
    for path in sorted(RULES.glob("*.toml")):
        for e in load_rules(path).endings:
            assert e.label.get("fr") and e.label.get("en"), (path.name, e.name)


def test_filtered_moves_gifts_and_passed_hands_are_told() -> None:
    """The structures' operations: a filtered move (the « Vol » cards, more than 8: counted), a gift
    to the target's pile (named: the pile is face up), the hands passing left."""
    from test_rulesdata_structures import VOTE

    game = Game(parse_rules_text(VOTE, "vote.toml"), (), 3)
    gifts = 0
    for s in random_games(game, range(10)):
        lines = s.log_lines(0)
        assert lines[0] == "9 cartes, boite → vices"
        assert lines.count("Les piles « main » tournent de 1 place(s)") == 2
        told = [x for x in lines if "→ tas du joueur" in x]
        assert len(told) == sum(len(t) for t in s.zones["tas"])  # one card a gift
        for line in told:
            assert re.fullmatch(r"Joueur \d : Vertu, main → tas du joueur \d", line)
            assert all(line in s.log_lines(p) for p in range(3))  # a face-up pile: every seat reads it
        gifts += len(told)
    assert gifts > 0
