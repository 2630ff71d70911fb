"""The rules language's ``next_turn`` operation and ``count_if`` function (docs/rules-language.md,
« Operations », « Expressions »): who plays the next turn of the round, and the cards of a zone that
pass a test. Atout (`data/rules/atout.toml`) says « the trick's winner leads » with it; its former
file (`tests/data/rules/atout_prochain.toml`, a counter ``prochain`` and empty turns for the seats
between) must play the very same games — same cards in the same order, same scores and winners —
with no empty turn left. A small game of leaps checks whole seeded games turn by turn: a card's
value sends the turn that many seats on, in seat order and in a team order, from a round's start
too; the checker refuses what gives no seat, every problem at once, in French and English."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardbase.errors import CardbaseError
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import RulesFileError, parse_rules_text
from cardbase.i18n import use_language

ROOT = Path(__file__).resolve().parent.parent
NEW = (ROOT / "data" / "rules" / "atout.toml").read_text(encoding="utf-8")
OLD = (ROOT / "tests" / "data" / "rules" / "atout_prochain.toml").read_text(encoding="utf-8")


def _play(game: Game, seed: int, greedy: bool) -> tuple:
    s = game.new_state(seed)
    rng = random.Random(seed)
    cards = []
    while not s.is_terminal():
        a = s.greedy_action() if greedy else rng.choice(s.legal_actions())
        cards.append((s.current_player(), s.action_to_string(a)))
        s.apply_action(a)
    empty = sum(1 for e in s.events if e[0] == "no_move")
    return cards, [c["points"] for c in s.counters], s.winners, s.returns(), s.ended_by, s.turns, empty


@pytest.mark.parametrize("players", [2, 3, 4])
def test_atout_with_next_turn_plays_the_same_games_as_with_the_prochain_counter(players: int) -> None:
    assert "prochain" in OLD and "prochain" not in NEW and 'next_turn = "best_seat(\'force\')"' in NEW
    for couper in ("libre", "obligatoire"):
        for compte in ("plis", "cartes"):
            opts = {"couper": couper, "compte": compte}
            old, new = (Game(parse_rules_text(t, options=opts), [], players) for t in (OLD, NEW))
            for seed, greedy in ((0, False), (1, False), (2, False), (3, True), (4, True)):
                a, b = _play(old, seed, greedy), _play(new, seed, greedy)
                assert a[:5] == b[:5], (players, couper, compte, seed, greedy)
                assert b[4] == "donnes_jouees"
                played = len(b[0])
                assert played == 2 * players * players * (31 // players)  # every card dealt is played
                assert b[5] == played and b[6] == 0  # one turn a card: no empty turn
                assert a[5] > played and a[6] == a[5] - played  # the old file's empty turns


LEAPS = """[game]
code = "sauts"
players = [3, 4]
default_players = 4
{teams}
[material]
source = "generated"
colours = ["rouge", "vert", "bleu", "noir"]
values = [1, 6]
into = "pioche"

[[zones]]
name = "pioche"
visible = "nobody"

[[zones]]
name = "main"
owner = "player"
ordered = false
visible = "owner"

[[zones]]
name = "pile"
visible = "everyone"

[counters]
points = {{}}
rouges = {{}}

[setup]
do = [{{ shuffle = "pioche" }}, {{ deal = "pioche", to = "main", count = "24 // players" }}]

[round]
start = [{{ next_turn = "round % players + 1" }}]

[[actions]]
name = "jouer"
label = {{ fr = "Jouer", en = "Play" }}
move = {{ from = "main", to = "pile" }}
pick = "choice"
ends_turn = true
then = [
  {{ add = "points", value = "card.value" }},
  {{ set = "rouges", value = "count_if('pile', 'card.colour == \\"rouge\\" and card.value >= points - points')" }},
  {{ if = "card.value % 2 == 1", then = [{{ next_turn = "(seat - 1 + card.value) % players + 1" }}] }},
]

[end]
check = "round"

[[end.conditions]]
name = "fin"
game = "round >= 2"

[end.winner]
by = "points"
"""
TEAMS = '[teams]\ncount = 2\nseating = "blocks"\norder = "teams"\n'


@pytest.mark.parametrize(("players", "teams"), [(3, False), (4, False), (4, True)])
def test_a_card_sends_the_turn_on_and_the_order_goes_on_from_there(players: int, teams: bool) -> None:
    game = Game(parse_rules_text(LEAPS.format(teams=TEAMS if teams else "")), [], players)
    order = list(game.team_orders[0]) if teams else list(range(players))
    if teams:
        assert order == [0, 2, 1, 3]
    leaps = plain = 0
    for seed in range(8):
        s = game.new_state(seed)
        rng = random.Random(seed)
        assert s.current_player() == 1 % players  # round 1 opens with seat 2 ([round] start)
        while not s.is_terminal():
            p, r = s.current_player(), s.round
            s.apply_action(rng.choice(s.legal_actions()))
            pile = s.zones["pile"][0]
            card = s.game.cards[pile[-1]]
            reds = sum(1 for c in pile if s.game.cards[c].colour == "rouge")
            assert s.counters[p]["rouges"] == reds  # count_if, over whole games
            if s.is_terminal():
                break
            if s.round != r:  # a new round: the seat [round] start names
                assert s.current_player() == s.round % players
            elif card.value % 2:
                leaps += 1
                assert s.current_player() == (p + card.value) % players
            else:
                plain += 1
                assert s.current_player() == order[(order.index(p) + 1) % players]
        assert s.turns == len(s.history) == 2 * players  # a round is still `players` turns
    assert leaps > 10 and plain > 10


def test_a_seat_out_of_range_in_play_is_a_clear_error() -> None:
    text = LEAPS.format(teams="").replace('"(seat - 1 + card.value) % players + 1"', '"seat + card.value"')
    game = Game(parse_rules_text(text), [], 4)
    with pytest.raises(CardbaseError) as err:
        for seed in range(20):
            s = game.new_state(seed)
            while not s.is_terminal():
                s.apply_action(s.legal_actions()[0])
    assert "seat + card.value" in str(err.value) and "de 1 à 4" in str(err.value)


BAD = LEAPS.format(teams="").replace(
    'start = [{ next_turn = "round % players + 1" }]',
    'start = [{ next_turn = "seat == 1" }, { next_turn = "players + 1" }, { next_turn = "\'deux\'" },\n'
    '         { set = "rouges", value = "count_if(\'main\', \'card.couleur == 1\')" },\n'
    '         { set = "rouges", value = "count_if(\'mains\', \'card.value > 1\')" },\n'
    '         { set = "rouges", value = "count_if(\'main\', 3)" }]\n'
    'end = [{ next_turn = "1" }]')


def test_the_checker_names_every_problem_of_next_turn_and_count_if_at_once() -> None:
    for lang, words in (("fr", ("ne donne pas une place", "vaut 4 à 3 joueurs", "aucun tour",
                                "Vouliez-vous dire « colour »", "texte entre apostrophes", "mains")),
                        ("en", ("does not give a player's seat", "is 4 with 3 players", "no turn",
                                "Did you mean “colour”", "text in apostrophes", "mains"))):
        with use_language(lang), pytest.raises(RulesFileError) as err:
            parse_rules_text(BAD, "sauts.toml")
        text = str(err.value)
        for w in words:
            assert w in text, (lang, w, text)
        assert text.count("round.start[") == 6 and "round.end[1]" in text, text
        assert ("ligne" if lang == "fr" else "line") in text
    secret = LEAPS.format(teams="").replace("ends_turn = true", "simultaneous = true")
    with use_language("en"), pytest.raises(RulesFileError) as err:
        parse_rules_text(secret, "sauts.toml")
    assert "secret choices" in str(err.value) and "actions[1].then" in str(err.value)
