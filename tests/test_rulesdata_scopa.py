"""Scopa written as a rules file from docs/rules-language.md alone (`tests/data/rules/scopa.toml`,
rulings SC1–SC11): whole seeded games — random, greedy and mixed, 2 and 4 players, both readings
of SC2 — refereed move by move against the rules of Scopa:

- a card is played, then the only legal moves are: the table cards of its value (one of them, the
  player's choice) when there are any; else every distinct set of table cards whose values add up
  to its value (and laying it only under SC2 « facoltativa »); else laying it on the table;
- a capture takes exactly the cards named, plus the card played, into the player's pile; a sweep of
  the table is a scopa except on the hand's last play (SC6);
- three more cards each when the hands are empty, none left over; the 40 cards are all somewhere;
- at the hand's end the last player who captured takes the rest (SC5), and each side scores most
  cards, most coins, the sette bello, the primiera (SC3, SC4) and its scope — recomputed here from
  the cards, not read from the file's counters;
- the game ends when a side has at least 11 points and more than the other (SC7).

The count compares the sides with ``others_total``, whose sums are checked at 3 to 6 players in
three teams at the end."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import parse_rules_text
from cardbase.i18n import use_language

TEXT = (Path(__file__).resolve().parent / "data" / "rules" / "scopa.toml").read_text(encoding="utf-8")
PRIMIERA = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12}
SUITS = ("denari", "coppe", "spade", "bastoni")
PLAY, TAKE, SUM, LAY = "Jouer", "Prendre la carte de même valeur", "Prendre la somme", "Poser sur la table"


def value(card: str) -> int:
    return int(card.split()[0])


def suit(card: str) -> str:
    return card.split()[1]


def make(players: int, **options) -> Game:
    return Game(parse_rules_text(TEXT, "scopa.toml", options=options), [], players)


def sums(table: list[str], v: int) -> set[tuple[str, ...]]:
    """Every set of two table cards or more whose values add up to ``v``."""
    small = [c for c in table if value(c) < v]
    return {tuple(sorted(s)) for k in range(2, len(small) + 1)
            for s in itertools.combinations(small, k) if sum(map(value, s)) == v}


def hand_points(piles: list[list[str]], scope: list[int]) -> list[int]:
    """Each side's points for a hand: its captured cards (``piles[side]``) and its scope."""
    cards = [len(p) for p in piles]
    coins = [sum(suit(c) == "denari" for c in p) for p in piles]
    prim = []
    for p in piles:
        best = [max((PRIMIERA.get(value(c), 10) for c in p if suit(c) == s), default=0) for s in SUITS]
        prim.append(sum(best) if all(best) else 0)
    points = []
    for side in (0, 1):
        other = 1 - side
        points.append((cards[side] > cards[other]) + (coins[side] > coins[other])
                      + ("7 denari" in piles[side]) + (prim[side] > prim[other]) + scope[side])
    return points


def referee(players: int, seed: int, bots: tuple[str, ...], **options) -> dict:
    """Plays one whole game, checking every move; returns what the game showed."""
    game = make(players, **options)
    facoltativa = options.get("somma") == "facoltativa"
    s, rng = game.new_state(seed), random.Random(seed)
    side = [seat % 2 for seat in range(players)]
    seen = {"sums": 0, "scope": 0, "hands": 0, "equal_choices": 0, "sum_choices": 0, "rest": 0}
    last = None              # the seat that captured last in this hand
    scope = [0, 0]           # the scope of this hand, counted here
    punti_start = [0, 0]
    while not s.is_terminal():
        p = s.current_player()
        pub = s.observation(p)["zones"]
        table = list(pub["tavolo"][0])
        hands = pub["mano"]
        played = list(pub["giocata"][p])
        in_deck = len(pub["mazzo"][0])
        cards = in_deck + len(table) + sum(len(h) for h in hands) + sum(map(len, pub["giocata"])) \
            + sum(map(len, pub["prese"]))
        assert cards == 40
        assert None not in hands[p] and all(c is None for q, h in enumerate(hands) if q != p for c in h)
        legal = s.legal_actions()
        words = [s.action_to_string(a) for a in legal]
        if not played:
            assert sum(map(len, pub["giocata"])) == 0
            assert hands[p], "a seat to play always holds a card"   # 3 more each when all are empty
            assert sorted(words) == sorted(f"{PLAY} : {c}" for c in hands[p])
        else:
            v = value(played[0])
            equal = [c for c in table if value(c) == v]
            found = sums(table, v)
            if equal:
                assert sorted(words) == sorted(f"{TAKE} : {c}" for c in equal)
                seen["equal_choices"] += len(equal) > 1
            elif found:
                offered = {tuple(sorted(w.split(" : ")[1].split(", "))) for w in words if w.startswith(SUM)}
                assert offered == found
                assert (LAY in words) == facoltativa and len(words) == len(found) + facoltativa
                seen["sum_choices"] += len(found) > 1
            else:
                assert words == [LAY]
        bot = bots[p % len(bots)]
        a = s.greedy_action() if bot == "greedy" else rng.choice(legal)
        w = s.action_to_string(a)
        last_play = played and in_deck == 0 and not any(hands)
        before = [dict(c) for c in s.counters]
        prese = [list(x) for x in pub["prese"]]
        s.apply_action(a)
        if not played:
            continue
        taken = [] if w == LAY else w.split(" : ")[1].split(", ")
        if taken:
            assert all(c in table for c in taken)
            assert sum(map(value, taken)) == value(played[0])
            assert w.startswith(TAKE) == (len(taken) == 1)
            seen["sums"] += len(taken) > 1
            last = p
            prese[p] += taken + played
            table = [c for c in table if c not in taken]
            swept = not table and not last_play
            scope[side[p]] += swept
            seen["scope"] += swept
        else:
            table.append(played[0])
        if not last_play:
            after = s.observation(p)["zones"]
            assert sorted(after["tavolo"][0]) == sorted(table)
            assert sorted(after["prese"][p]) == sorted(prese[p])
            assert s.counters[p]["scope"] - before[p]["scope"] == (bool(taken) and not table)
            continue
        # the hand's last play: the rest to the last capturer, then the count
        seen["hands"] += 1
        if last is not None:
            seen["rest"] += len(table)
            prese[last] += table
        piles = [sum((prese[q] for q in range(players) if side[q] == t), []) for t in (0, 1)]
        expected = hand_points(piles, scope)
        punti = [sum(c["punti"] for q, c in enumerate(s.counters) if side[q] == t) for t in (0, 1)]
        assert [punti[t] - punti_start[t] for t in (0, 1)] == expected, (seed, piles, scope)
        if s.is_terminal():
            final = s.observation(0)["zones"]
            assert [sorted(x) for x in final["prese"]] == [sorted(x) for x in prese]
            assert final["tavolo"][0] == () or last is None
        punti_start, scope, last = punti, [0, 0], None
    assert s.ended_by == "obiettivo"
    target = options.get("obiettivo", 11)
    win = 0 if punti_start[0] > punti_start[1] else 1
    assert punti_start[win] >= target and punti_start[win] > punti_start[1 - win]
    assert [r > 0 for r in s.returns()] == [side[q] == win for q in range(players)]
    seen["winner"] = win
    return seen


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("somma", ["obbligatoria", "facoltativa"])
def test_random_games_follow_the_rules_of_scopa(players: int, somma: str) -> None:
    with use_language("fr"):
        seen = [referee(players, seed, ("random",), somma=somma) for seed in range(12)]
    # the sequences the test is about happened, many times
    assert sum(x["sums"] for x in seen) > 50 and sum(x["scope"] for x in seen) > 5
    assert sum(x["equal_choices"] for x in seen) > 0 and sum(x["sum_choices"] > 0 for x in seen) > 0
    assert sum(x["rest"] for x in seen) > 0 and sum(x["hands"] for x in seen) >= 12 * 2


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_games_capture_sums_make_scope_and_beat_random(players: int) -> None:
    with use_language("fr"):
        greedy = [referee(players, seed, ("greedy",)) for seed in range(4)]
        mixed = [referee(players, seed, ("greedy", "random") if seed % 2 else ("random", "greedy"))
                 for seed in range(8)]
    assert sum(x["sums"] for x in greedy) > 10 and sum(x["scope"] for x in greedy) > 0
    wins = sum(x["winner"] == 1 - seed % 2 for seed, x in enumerate(mixed))   # the greedy side
    assert wins >= 6, wins


def test_one_hand_and_the_target_as_an_option() -> None:
    with use_language("fr"):
        seen = [referee(2, seed, ("random",), obiettivo=1) for seed in range(10)]
    assert all(x["hands"] >= 1 for x in seen) and sum(x["hands"] for x in seen) < 15


OTHERS = """zones = [{ name = "pioche", owner = "shared", ordered = true, visible = "nobody" },
         { name = "main", owner = "player", ordered = false, visible = "owner" }]

[game]
code = "autres"
players = [3, 6]

[teams]
count = 3
seating = "alternate"

[material]
source = "generated"
colours = ["a"]
values = [1, 18]
into = "pioche"

[counters]
pts = {}
autres = {}
miens = {}

[setup]
first_player = "seat1"
do = [{ shuffle = "pioche" }, { deal = "pioche", to = "main", count = "3" }]

[round]
end = [{ each = "player", do = [{ set = "autres", value = "others_total('pts')" }, { set = "miens", value = "team_total('pts')" }] }]

[[actions]]
name = "jouer"
label = { fr = "Jouer", en = "Play" }
move = { from = "main", to = "pioche" }
pick = "choice"
then = [{ add = "pts", value = "card.value" }]
ends_turn = true

[end]
check = "round"

[[end.conditions]]
name = "fin"
game = "count_all('main') == 0"

[end.winner]
by = "pts"
order = "highest"
among = "all"
ties = "shared"
"""


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_others_total_sums_a_counter_over_the_other_teams(players: int) -> None:
    """``others_total('c')``, the mirror of ``team_total``: Scopa's « the side with more cards » in
    one comparison; here three teams seated alternately, each round's totals against the points."""
    game = Game(parse_rules_text(OTHERS, "autres.toml"), [], players)
    for seed in range(5):
        s, rng = game.new_state(seed), random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        pts = [c["pts"] for c in s.counters]
        assert sum(pts) > 0
        for q, c in enumerate(s.counters):
            mine = sum(p for r, p in enumerate(pts) if r % 3 == q % 3)
            assert c["miens"] == mine and c["autres"] == sum(pts) - mine


def test_others_total_names_a_counter() -> None:
    with pytest.raises(Exception) as err:
        parse_rules_text(OTHERS.replace("others_total('pts')", "others_total('ptz')"), "autres.toml")
    assert "ptz" in str(err.value)
