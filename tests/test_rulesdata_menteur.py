"""Menteur (data/rules/menteur.toml) refereed move by move on whole seeded games.

The referee keeps its own model of the table — each hand, the cards being laid, the face-down pile,
the asked rank, whose turn it is and who is asked in the « Menteur ! » window — from what the rules
(docs/rulings/menteur.md, MN1–MN11) say, and checks it against the game after every move: the legal
actions (every distinct set of 1 to 4 cards, announced « Annoncer n × Rang »), the zones as each
seat sees them (no hidden card shown; the cards a call revealed shown to all where they went), the
counters, the seat logs (a card laid and not called is never named to another seat; a card revealed
by a call is named to all), the ending, the winner and the returns. Random and greedy bots, every
player count, every reading of the contested rulings and the smaller decks.
"""

import functools
import random
import re
from collections import Counter

import pytest

from cardbase.games import registry

RANKS = {"As": 1, "Deux": 2, "Trois": 3, "Quatre": 4, "Cinq": 5, "Six": 6, "Sept": 7, "Huit": 8,
         "Neuf": 9, "Dix": 10, "Valet": 11, "Dame": 12, "Roi": 13}
WORDS = {v: r for r, v in RANKS.items()}
ANNOUNCE, CALL, SILENT = "Annoncer", "Menteur !", "Ne pas répondre"
LOG_TURNS = 40   # each game's first turns: the seat logs read (a whole log is rebuilt per read), every legal set named


def rank(name):
    return RANKS[name]


def deck(rangs):  # MN11: four alike cards of each rank, no colours
    return sorted(r for r, v in RANKS.items() if v <= rangs for _ in range(4))


@functools.lru_cache(maxsize=256)
def multisets(hand, most):
    """Every distinct set of 1 to ``most`` cards of the hand, as sorted tuples of names."""
    kinds = sorted(Counter(hand).items())
    out = set()

    def rec(j, acc):
        if acc:
            out.add(tuple(sorted(acc)))
        if j == len(kinds) or len(acc) == most:
            return
        name, k = kinds[j]
        for x in range(0, min(k, most - len(acc)) + 1):
            rec(j + 1, acc + [name] * x)

    rec(0, [])
    return out


def parse(text):
    """« Annoncer 2 × Dame : Dame, Six » → (2, "Dame", ("Dame", "Six"))."""
    label, cards = text.split(" : ")
    m = re.fullmatch(r"Annoncer (\d+) × (\w+)", label)
    assert m, text
    return int(m.group(1)), m.group(2), tuple(sorted(cards.split(", ")))


def names_in(text, cards):
    """The card names of ``cards`` written in ``text`` (whole words; the announcement's own line
    — « Annoncer 2 × Dame », the window's — names the asked rank, not a card)."""
    lines = [x for x in text.split("\n") if "Annoncer" not in x]
    return {c for c in cards if re.search(rf"\b{c}\b", "\n".join(lines))}


def zone(s, seat, name, owner=0):
    return s.observation(seat)["zones"][name][owner]


class Referee:
    """The table as the rules say it should be, checked against the game after every move."""

    def __init__(self, s, players, rangs=13, max_pose=4, qui_appelle="tous", derniere="libre"):
        self.s, self.n = s, players
        self.rangs, self.max_pose = rangs, max_pose
        self.qui, self.derniere = qui_appelle, derniere
        # MN1, MN5: every card of the kept ranks dealt, the same number to each; the rest starts
        # the pile face down
        self.hands = [sorted(zone(s, p, "main", p)) for p in range(players)]
        dealt = sorted(c for h in self.hands for c in h)
        assert all(len(h) == (4 * rangs) // players for h in self.hands)
        assert not Counter(dealt) - Counter(deck(rangs))
        self.pile = sorted((Counter(deck(rangs)) - Counter(dealt)).elements())
        assert len(self.pile) == (4 * rangs) % players
        assert len(zone(s, 0, "tas")) == len(self.pile)
        assert sorted(zone(s, 0, "boite")) == sorted(r for r, v in RANKS.items() if v > rangs for _ in range(4))
        assert zone(s, 0, "pioche") == ()
        self.asked = 1                      # MN3: the first turn asks for Aces
        self.actor = s.current_player()     # MN2: drawn at random
        self.laid, self.window, self.turns = [], None, 0
        self.known = [Counter() for _ in range(players)]   # cards a call showed, still in that hand
        self.lies = [0] * players
        self.taken = [0] * players
        self.log_mark = [len(s.log_lines(p)) for p in range(players)]
        self.pile_known = Counter()
        self.winner = None
        self.stats = {"calls": 0, "caught": 0, "wrong": 0, "silent": 0, "lies": 0,
                      "revealed_last": 0}
        self.check_table()

    # -- what every seat sees --------------------------------------------------------------
    def check_table(self):
        s, n = self.s, self.n
        for seat in range(n):
            o = s.observation(seat)
            for p in range(n):
                hand, pose = o["zones"]["main"][p], o["zones"]["pose"][p]
                if p == seat:      # one's own hand and own cards laid, seen
                    assert sorted(hand) == self.hands[p], (seat, hand, self.hands[p])
                    assert sorted(pose) == (sorted(self.laid) if p == self.actor else [])
                else:              # another's: only how many, and the cards a call showed
                    assert len(hand) == len(self.hands[p])
                    named = Counter(c for c in hand if c is not None) if self.known[p] else None
                    assert not named or (not named - self.known[p] and not named - Counter(self.hands[p])), \
                        (hand, self.known[p])
                    assert all(c is None for c in pose)
                    assert len(pose) == (len(self.laid) if p == self.actor else 0)
            tas = o["zones"]["tas"][0]
            assert len(tas) == len(self.pile)   # MN8: face down (MN10: the shown ones known)
            assert not self.pile_known or not Counter(c for c in tas if c is not None) - self.pile_known
            for p in range(n):                          # MN3: one asked rank for all
                assert s.counters[p]["annonce"] == self.asked
                assert s.counters[p]["mensonges"] == self.lies[p]
                assert s.counters[p]["ramasse"] == self.taken[p]
        # no card lost or doubled
        every = sorted(c for h in self.hands for c in h) + sorted(self.laid) + sorted(self.pile)
        assert sorted(every) == deck(self.rangs)

    def expected_legal(self):
        if self.window is None:   # the actor's turn: lay 1 to max_pose cards and announce (MN4)
            return multisets(tuple(self.hands[self.actor]), self.max_pose)
        asked = self.window
        may_call = self.qui == "tous" or asked == (self.actor + 1) % self.n   # MN6
        return {CALL, SILENT} if may_call else {SILENT}

    def seat_to_play(self):
        return self.actor if self.window is None else self.window

    # -- one move ------------------------------------------------------------------------
    def play(self, a):
        s = self.s
        assert not s.is_terminal()
        assert s.current_player() == self.seat_to_play()
        legal = s.legal_actions()
        assert a in legal
        text = s.action_to_string(a)
        if self.window is None and self.turns >= LOG_TURNS:  # later turns: how many, and the move
            n, word, cards = parse(text)
            assert n == len(cards) and word == WORDS[self.asked] and cards in self.expected_legal()
            assert len(legal) == len(self.expected_legal())
        elif self.window is None:
            strings = [s.action_to_string(x) for x in legal]
            sets = [parse(x) for x in strings]
            # one action per distinct set, announced as its size and the asked rank's word
            assert all(n == len(cards) and word == WORDS[self.asked] for n, word, cards in sets)
            assert {cards for _n, _w, cards in sets} == self.expected_legal()
            assert len(sets) == len(self.expected_legal())
        else:
            strings = [s.action_to_string(x) for x in legal]
            assert set(strings) == self.expected_legal(), strings
        s.apply_action(a)
        if text.startswith(ANNOUNCE):
            cards = parse(text)[2]
            for c in cards:
                self.hands[self.actor].remove(c)
            self.laid = list(cards)
            # a card laid is no longer known where it is (which copy went is not told)
            self.known[self.actor] &= Counter(self.hands[self.actor])
            assert s.observation(0)["window"][0] == self.actor
            self.window = (self.actor + 1) % self.n     # MN6: asked from the layer's left
        elif text == CALL:
            self.stats["calls"] += 1
            self.reveal(caller=self.window)
            self.end_turn()
        else:
            assert text == SILENT
            nxt = (self.window + 1) % self.n
            if nxt != self.actor:
                self.window = nxt
            else:                                        # everybody stayed silent
                self.stats["silent"] += 1
                if self.derniere == "revelee" and not self.hands[self.actor]:
                    self.stats["revealed_last"] += 1
                    self.reveal(caller=None)             # MN10: the last cards turned over
                else:
                    self.pile += self.laid               # MN8: they join the pile unseen
                    self.hidden_to_others(self.laid)
                    self.laid = []
                self.end_turn()
        if not s.is_terminal():
            self.check_table()

    def reveal(self, caller):
        """MN7: the cards laid turned face up; a lie and the liar takes all, else the caller."""
        lie = any(rank(c) != self.asked for c in self.laid)
        shown = list(self.laid)
        if lie:
            taker = self.actor
            self.lies[taker] += 1
            self.stats["caught"] += 1
        elif caller is not None:
            taker = caller
            self.stats["wrong"] += 1
        else:
            taker = None                                 # MN10: true last cards join the pile
        if lie:
            self.stats["lies"] += 1
        if taker is None:
            self.pile += self.laid
            self.pile_known += Counter(shown)
        else:
            self.taken[taker] += 1
            self.hands[taker] = sorted(self.hands[taker] + self.laid + self.pile)
            self.known[taker] += Counter(shown) + self.pile_known
            self.pile, self.pile_known = [], Counter()
        self.laid = []
        for p in range(self.n):   # MN7: shown to every seat where they went
            if p != taker and taker is not None:
                o = self.s.observation(p)["zones"]["main"][taker]
                assert not Counter(shown) - Counter(c for c in o if c is not None), (p, shown, o)
        for p in range(self.n if self.turns < LOG_TURNS else 0):   # named to every seat's log
            new = "\n".join(self.s.log_lines(p)[self.log_mark[p]:])
            assert names_in(new, shown) == set(shown), (p, shown, new)

    def hidden_to_others(self, cards):
        for p in range(self.n if self.turns < LOG_TURNS else 0):
            if p == self.actor:
                continue
            new = "\n".join(self.s.log_lines(p)[self.log_mark[p]:])
            assert not names_in(new, set(cards) - set(self.pile_known)), (p, cards, new)

    def end_turn(self):
        s = self.s
        self.window = None
        self.turns += 1
        if self.turns < LOG_TURNS:
            self.log_mark = [len(s.log_lines(p)) for p in range(self.n)]
        if not self.hands[self.actor]:                   # MN9: emptied and not caught: wins
            assert s.is_terminal() and s.ended_by == "main_vide"
            self.winner = self.actor
            ret = s.returns()
            assert ret[self.actor] == pytest.approx(1.0)
            assert all(ret[p] == pytest.approx(-1.0 / (self.n - 1))
                       for p in range(self.n) if p != self.actor)
            return
        assert not s.is_terminal()                       # nobody else can have emptied a hand
        assert all(self.hands)
        self.asked = self.asked % self.rangs + 1         # MN3: up by one, King then Ace
        self.actor = (self.actor + 1) % self.n


def play_game(players, seed, bots, max_moves=20000, **options):
    game = registry.get("menteur").build([], players, **options)
    s = game.new_state(seed)
    ref = Referee(s, players, **options)
    rng = random.Random(seed)
    moves = 0
    while not s.is_terminal():
        bot = bots[s.current_player()]
        a = s.greedy_action() if bot == "greedy" else rng.choice(s.legal_actions())
        ref.play(a)
        moves += 1
        assert moves < max_moves, "the game should have ended"
    assert ref.winner is not None
    return ref


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("kind", ["random", "greedy", "mixed"])
def test_menteur_refereed_whole_games(players, kind):
    bots = {"random": ["random"] * players, "greedy": ["greedy"] * players,
            "mixed": ["greedy", "random"] * 3}[kind][:players]
    totals = {"calls": 0, "caught": 0, "wrong": 0, "silent": 0}
    winners = set()
    for seed in range(6):
        ref = play_game(players, seed, bots)
        winners.add(ref.winner)
        for k in totals:
            totals[k] += ref.stats[k]
    # every branch of the window met over the seeds: calls right and wrong, silence
    assert totals["silent"] > 0
    if kind != "greedy":  # greedy seats call only what their hand proves false: rare
        assert totals["caught"] > 0
    if kind == "mixed":   # greedy seats lay the truth, random ones call it
        assert totals["wrong"] > 0
    assert len(winners) >= 2


@pytest.mark.parametrize("options", [
    {"qui_appelle": "suivant"},
    {"derniere": "revelee"},
    {"rangs": 8},
    {"rangs": 4, "max_pose": 2},
    {"max_pose": 1, "qui_appelle": "suivant", "derniere": "revelee"},
])
@pytest.mark.parametrize("players", [3, 6])
def test_menteur_every_reading(players, options):
    revealed_last = 0
    for seed in range(4):
        for bots in (["random"] * players, ["greedy"] * players):
            ref = play_game(players, seed, bots, **options)
            revealed_last += ref.stats["revealed_last"]
    if options.get("derniere") == "revelee":
        assert revealed_last > 0


def test_menteur_greedy_lays_the_truth_and_calls_what_it_knows():
    """The file's heuristic: the greedy bot lays every card of the asked rank it holds (up to the
    limit) and lies (one card) only when it holds none; it calls only a claim its own hand proves
    false, or one that would otherwise end the game — and it always calls a claim its own cards
    prove impossible (it holds 2 Dames and 3 are announced: 5 of a rank of 4), which always catches
    a lie (met over the seeds, so that this can fail)."""
    impossible = 0
    for players in (3, 4, 5, 6):
        for seed in range(5):
            game = registry.get("menteur").build([], players)
            s = game.new_state(seed)
            ref = Referee(s, players)
            while not s.is_terminal():
                a = s.greedy_action()
                text = s.action_to_string(a)
                if ref.window is None:
                    of_rank = [c for c in ref.hands[ref.actor] if rank(c) == ref.asked]
                    laid = parse(text)[2]
                    truthful = [c for c in laid if rank(c) == ref.asked]
                    if of_rank:  # every card of the rank down (up to the limit), no lie beside them
                        assert len(truthful) == len(laid) == min(len(of_rank), 4), (of_rank, laid)
                    else:
                        assert len(laid) == 1
                else:
                    mine = sum(rank(c) == ref.asked for c in ref.hands[ref.window])
                    if text == CALL:
                        assert mine + len(ref.laid) > 4 or not ref.hands[ref.actor]
                    if mine + len(ref.laid) > 4:  # impossible: always called, always a lie
                        impossible += 1
                        assert text == CALL, (players, seed, ref.laid, mine)
                        assert any(rank(c) != ref.asked for c in ref.laid)
                ref.play(a)
    assert impossible > 0

