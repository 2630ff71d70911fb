"""Marché (`data/rules/marche.toml`, rulings MA1–MA10 in `docs/rulings/marche.md`): a sample game of a
shared face-up market row refilled from a draw pile — take a market card, take the top of the pile
blind, or lay a set (3+ cards of one colour, or a run) for points; 7 cards in hand at most. The file
passes `games check` in French and English; and a referee written from the rulings — reading only
what the table shows and the cards each seat holds, never the interpreter's counters until the
scores are compared — checks whole seeded games move by move: the legal actions of every step, the
market always full while the pile lasts (MA2), the hand limit (MA5), every set laid (MA3, MA4, MA10:
a set is one action — every distinct set of the hand offered once, identical cards counted once)
and its points (MA6), the ending at a round's end with equal turns (MA7, MA8), the winner and the
tie-break by the fewest cards in hand (MA9), under random and greedy bots and every reading of the
contested rulings MA4 and MA7."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.games import registry

ROOT = Path(__file__).resolve().parent.parent
FILE = ROOT / "data" / "rules" / "marche.toml"
runner = CliRunner()

COLOURS = ("rouge", "vert", "bleu", "jaune")
BOX = Counter({f"{v} {c}": 2 for c in COLOURS for v in range(1, 9)})
TAKE, BLIND, DISCARD = "Prendre au marché : ", "Piocher à l'aveugle", "Défausser : "
LAY = "Poser la série : "
HAND, MARKET, LIMIT = 5, 5, 7


def card(name: str) -> tuple[int, str]:
    value, colour = name.split(" ", 1)
    return int(value), colour


def set_points(n: int) -> int:
    """MA6: a set of n cards scores n × (n − 1) / 2."""
    return n * (n - 1) // 2


def one_colour(cards: list[str]) -> bool:
    return len({card(c)[1] for c in cards}) == 1


def is_run(cards: list[str], suite: str) -> bool:
    """MA4: values that follow one another, each once, in any order (the set is laid at once);
    one colour under « couleur »."""
    values = sorted(card(c)[0] for c in cards)
    return all(b == a + 1 for a, b in zip(values, values[1:])) and (suite == "mixte" or one_colour(cards))


def sets_of(hand: Counter, suite: str) -> list[tuple[str, ...]]:
    """MA3, MA4, MA10: every distinct set of the hand that may be laid — 3 cards or more of one
    colour, or a run — each once, however many copies of its cards the hand holds."""
    out = []
    kinds = sorted(hand)
    for counts in itertools.product(*(range(hand[k] + 1) for k in kinds)):
        cards = [k for k, n in zip(kinds, counts) for _ in range(n)]
        if len(cards) >= 3 and (one_colour(cards) or is_run(cards, suite)):
            out.append(tuple(sorted(cards)))
    return out


def label_key(label: str) -> str | tuple[str, ...]:
    """An action's words, a set's cards in any order."""
    if label.startswith(LAY):
        return tuple(sorted(label[len(LAY):].split(", ")))
    return label


class Referee:
    """Plays one game and checks every move against the rulings."""

    def __init__(self, players: int, seed: int, suite: str = "mixte", fin: str = "marche") -> None:
        self.players, self.suite, self.fin = players, suite, fin
        game = registry.get("marche").build([], players, suite=suite, fin=fin)
        self.state = game.new_state(seed)
        self.points = [0] * players
        self.tables: list[Counter] = [Counter() for _ in range(players)]
        self.turns = [0] * players
        self.sets: list[list[str]] = []  # every set laid, in order
        self.discards = 0
        self.offered_sets = 0
        self.duplicate_hands = 0  # turns whose hand held two copies of a card of a set offered
        self.blind_on_empty_checked = False
        zones = self.zones()
        # MA1, MA2: a hand of 5 to each, a market of 5, the rest in the pile
        assert [len(h) for h in zones["main"]] == [HAND] * players
        assert len(zones["marche"][0]) == MARKET and None not in zones["marche"][0]
        assert len(zones["pioche"][0]) == sum(BOX.values()) - HAND * players - MARKET
        self._new_turn()

    def zones(self, seat: int = 0) -> dict:
        return self.state.observation(seat)["zones"]

    def hand(self, seat: int) -> Counter:
        """The seat's hand as it sees it; the other seats see only its size (a hand is secret)."""
        mine = self.state.observation(seat)["zones"]["main"][seat]
        other = self.state.observation((seat + 1) % self.players)["zones"]["main"][seat]
        assert len(other) == len(mine) and set(other) <= {None}, (seat, other)
        return Counter(mine)

    def market(self) -> Counter:
        return Counter(self.zones()["marche"][0])

    def pile(self) -> int:
        return len(self.zones()["pioche"][0])

    def _new_turn(self) -> None:
        s = self.state
        self.seat = s.current_player()
        # MA8: seat 1 opens every round, the others follow in seat order
        assert self.seat == sum(self.turns) % self.players, (self.seat, self.turns)
        self.took = False
        assert sum(self.hand(self.seat).values()) <= LIMIT  # MA5 held at every turn's end
        if self.pile() > 0:  # MA2: the market is full while the pile lasts
            assert sum(self.market().values()) == MARKET

    def expected_legal(self) -> list:
        hand, market = self.hand(self.seat), self.market()
        if self.took:  # MA5: a hand over the limit discards, nothing else
            assert sum(hand.values()) > LIMIT
            return [DISCARD + c for c in hand.elements()]
        legal: list = [TAKE + c for c in market.elements()] + [BLIND] * (self.pile() > 0)
        return legal + sets_of(hand, self.suite)  # MA10: a turn takes a card or lays one set

    def step(self, choose) -> None:
        s, seat = self.state, self.seat
        legal = {a: s.action_to_string(a) for a in s.legal_actions()}
        keys = [label_key(x) for x in legal.values()]
        assert sorted(map(str, keys)) == sorted(map(str, self.expected_legal())), (seat, self.took)
        self.offered_sets += sum(1 for k in keys if isinstance(k, tuple))
        twice = {c for c, n in self.hand(seat).items() if n > 1}
        self.duplicate_hands += any(isinstance(k, tuple) and twice & set(k) for k in keys)
        if self.pile() == 0:
            self.blind_on_empty_checked = True
        action = choose(s, legal, seat)
        label = legal[action]
        hand, market, pile = self.hand(seat), self.market(), self.pile()
        discard_pile = Counter(self.zones()["defausse"][0])
        s.apply_action(action)
        ends = False
        if label.startswith(TAKE):
            taken = label[len(TAKE):]
            self.took = True
            assert self.hand(seat) == hand + Counter([taken])
            new_market = self.market()
            assert not +(market - Counter([taken]) - new_market)  # the other market cards stay
            assert sum(new_market.values()) == sum(market.values()) - (pile == 0)  # MA2: refilled at once
            assert self.pile() == max(pile - 1, 0)
            ends = sum(hand.values()) + 1 <= LIMIT
        elif label == BLIND:
            self.took = True
            assert self.market() == market and self.pile() == pile - 1  # the market is untouched
            assert sum(self.hand(seat).values()) == sum(hand.values()) + 1
            assert not +(hand - self.hand(seat))  # one card more, none less
            ends = sum(hand.values()) + 1 <= LIMIT
        elif label.startswith(DISCARD):
            gone = label[len(DISCARD):]
            self.discards += 1
            assert self.hand(seat) == hand - Counter([gone])
            assert Counter(self.zones()["defausse"][0]) == discard_pile + Counter([gone])  # face up, kept out
            ends = sum(hand.values()) - 1 <= LIMIT
        else:
            assert label.startswith(LAY), label
            laid = list(label_key(label))
            n = len(laid)
            assert n >= 3 and (one_colour(laid) or is_run(laid, self.suite))
            assert not +(Counter(laid) - hand)  # cards of the hand
            assert self.hand(seat) == hand - Counter(laid)  # all of them laid at once
            self.points[seat] += set_points(n)
            self.tables[seat] += Counter(laid)
            self.sets.append(laid)
            ends = True
        if not s.is_terminal():
            assert (s.current_player() != seat) == ends, (label, seat)
        else:
            assert ends
        if ends:
            self._end_turn()

    def _end_turn(self) -> None:
        s = self.state
        assert sum(self.hand(self.seat).values()) <= LIMIT  # MA5
        self.turns[self.seat] += 1
        for seat in range(self.players):
            assert Counter(self.zones()["table"][seat]) == self.tables[seat]
        round_over = self.seat == self.players - 1
        # MA7, MA8: the ending is found at a round's end only, and then as soon as its condition holds
        ended = sum(self.market().values()) < MARKET or (self.fin == "pioche" and self.pile() == 0)
        assert s.is_terminal() == (round_over and ended), (self.turns, self.pile(), self.market())
        if not s.is_terminal():
            self._new_turn()

    def play(self, choose) -> list[float]:
        while not self.state.is_terminal():
            self.step(choose)
        s = self.state
        assert len(set(self.turns)) == 1  # MA8: equal turns
        assert s.ended_by == ("marche_incomplet" if sum(self.market().values()) < MARKET else "pioche_vide")
        # no card lost or doubled
        zones = self.zones()
        assert sum(len(p) for z in ("pioche", "marche", "defausse", "main", "table")
                   for p in zones[z]) == sum(BOX.values())
        assert [s.counters[i]["points"] for i in range(self.players)] == self.points
        # MA9: most points, then the fewest cards in hand; still equal, shared
        key = [(self.points[i], -sum(self.hand(i).values())) for i in range(self.players)]
        best = max(key)
        winners = [i for i, k in enumerate(key) if k == best]
        returns = s.returns()
        assert [i for i, r in enumerate(returns) if r > 0] == (winners if len(winners) < self.players else [])
        self.tie_broken = sum(1 for k in key if k[0] == best[0]) > len(winners)
        return returns


def _random(seed: int):
    rng = random.Random(seed)
    return lambda s, legal, seat: rng.choice(sorted(legal))


def _greedy(s, legal, seat):
    return s.greedy_action()


def test_marche_passes_games_check_in_french_and_english() -> None:
    res = runner.invoke(app, ["games", "check", str(FILE), "--games", "10", "--search-states", "2000", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["ok"] and data["code"] == "marche"
    assert data["tried"]["ended"] == 10 and data["tried"]["never_legal"] == []
    assert data["search"]["verdict"] == "ending"
    for lang, word in (("fr", "règles valables"), ("en", "valid rules")):
        text = runner.invoke(app, ["--lang", lang, "games", "check", str(FILE), "--games", "2",
                                   "--search-states", "0"])
        assert text.exit_code == 0 and word in text.output, text.output


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_referee_checks_every_move_of_random_and_greedy_games(players: int) -> None:
    discards = sizes = blind_empty = twice = 0
    for seed in range(8):
        ref = Referee(players, seed)
        ref.play(_greedy if seed % 4 == 0 else _random(seed))
        discards += ref.discards
        sizes += len(ref.sets)
        blind_empty += ref.blind_on_empty_checked
        twice += ref.duplicate_hands
    # the hand limit, the sets, a hand holding two copies of a set's card (each set still offered
    # once) and the pile run dry were all met, so the checks were at work
    assert discards > 0 and sizes > 0 and blind_empty > 0 and twice > 0


@pytest.mark.parametrize("suite", ["mixte", "couleur"])
@pytest.mark.parametrize("fin", ["marche", "pioche"])
def test_every_reading_of_the_run_and_the_last_round_is_played_as_written(suite: str, fin: str) -> None:
    """MA4 and MA7 under every reading, 2 and 3 players, random and greedy bots: the referee checks
    every move; a run of mixed colours is laid under « mixte » and never under « couleur »; the
    ending named is the reading's."""
    mixed_runs = 0
    endings = Counter()
    for players in (2, 3):
        for seed in range(6):
            ref = Referee(players, seed, suite=suite, fin=fin)
            ref.play(_greedy if seed == 0 else _random(seed))
            mixed_runs += sum(1 for st in ref.sets if not one_colour(st))
            endings[ref.state.ended_by] += 1
    assert (mixed_runs > 0) == (suite == "mixte")
    if fin == "marche":
        assert set(endings) == {"marche_incomplet"}
    else:
        assert endings["pioche_vide"] > 0


def test_the_tie_break_by_the_fewest_cards_in_hand_decides_some_games() -> None:
    """MA9: seats often score alike; somewhere the hand sizes must have decided a game, and the
    referee checked that winner."""
    broken = 0
    for seed in range(12):
        ref = Referee(2 + seed % 3, seed)
        ref.play(_random(seed))
        broken += ref.tie_broken
    assert broken > 0


def test_the_rules_and_the_rulings_page_name_the_same_rulings(cli_env) -> None:
    import re

    res = runner.invoke(app, ["games", "rulings", "marche", "--json"])
    assert res.exit_code == 0, res.output
    rulings = json.loads(res.stdout)["rulings"]
    page = (ROOT / "docs" / "rulings" / "marche.md").read_text(encoding="utf-8")
    assert [r["code"] for r in rulings] == re.findall(r"^- \*\*(MA\d+) ", page, re.M)
    assert [r["code"] for r in rulings if r["contested"]] == ["MA4", "MA7"]
    res = runner.invoke(app, ["sim", "rulings", "marche", "--players", "2", "--games", "20", "--bots", "random",
                              "--workers", "1", "--measures-games", "0", "--json"])
    assert res.exit_code == 0, res.output
    assert len(json.loads(res.stdout)["variants"]) == 2  # MA4's and MA7's other readings
