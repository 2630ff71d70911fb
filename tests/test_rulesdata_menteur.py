"""Menteur (data/rules/menteur.toml) refereed move by move on whole seeded games.

The referee keeps its own model of the table — each hand, the cards being laid, the face-down pile,
the asked rank, whose turn it is and who is asked in the « Menteur ! » window — from what the rules
(docs/rulings/menteur.md, MN1–MN10) say, and checks it against the game after every move: the legal
actions, the zones as each seat sees them (no hidden card shown), the counters, the seat logs (a
card laid and not called is never named to another seat; a card revealed by a call is named to
all), the ending, the winner and the returns. Random and greedy bots, every player count, every
reading of the contested rulings and the smaller decks.
"""

import random

import pytest

from cardbase.games import registry

RANKS = {"As": 1, "Deux": 2, "Trois": 3, "Quatre": 4, "Cinq": 5, "Six": 6, "Sept": 7, "Huit": 8,
         "Neuf": 9, "Dix": 10, "Valet": 11, "Dame": 12, "Roi": 13}
COLOURS = ["cœur", "carreau", "trèfle", "pique"]
LAY = "Poser face cachée : "
ANNOUNCE, CALL, SILENT = "Annoncer", "Menteur !", "Ne pas répondre"
LOG_TURNS = 40   # the seat logs are read in each game's first turns (a whole log is rebuilt per read)


def rank(name):
    return RANKS[name.split(" de ")[0]]


def deck(rangs):
    return sorted(f"{r} de {c}" for c in COLOURS for r, v in RANKS.items() if v <= rangs)


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
        assert len(set(dealt)) == len(dealt) and set(dealt) <= set(deck(rangs))
        self.pile = sorted(set(deck(rangs)) - set(dealt))
        assert len(self.pile) == (4 * rangs) % players
        assert len(zone(s, 0, "tas")) == len(self.pile)
        assert sorted(zone(s, 0, "boite")) == sorted(set(f"{r} de {c}" for c in COLOURS
                                                         for r, v in RANKS.items() if v > rangs))
        assert zone(s, 0, "pioche") == ()
        self.asked = 1                      # MN3: the first turn asks for Aces
        self.actor = s.current_player()     # MN2: drawn at random
        self.laid, self.window, self.turns = [], None, 0
        self.lies = [0] * players
        self.taken = [0] * players
        self.log_mark = [len(s.log_lines(p)) for p in range(players)]
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
                else:              # another's: only how many
                    assert all(c is None for c in hand) and len(hand) == len(self.hands[p])
                    assert all(c is None for c in pose)
                    assert len(pose) == (len(self.laid) if p == self.actor else 0)
            tas = o["zones"]["tas"][0]
            assert all(c is None for c in tas) and len(tas) == len(self.pile)  # MN8: face down
            assert o["zones"]["revele"][0] == ()       # MN7: revealed cards leave it at once
            for p in range(n):                          # MN3: one asked rank for all
                assert s.counters[p]["annonce"] == self.asked
                assert s.counters[p]["mensonges"] == self.lies[p]
                assert s.counters[p]["ramasse"] == self.taken[p]
                assert s.counters[p]["appel"] == 0
        # no card lost or doubled
        every = sorted(c for h in self.hands for c in h) + sorted(self.laid) + sorted(self.pile)
        assert sorted(every) == deck(self.rangs)

    def expected_legal(self):
        if self.window is None:   # the actor's turn: lay (MN4), announce once a card is down
            legal = set()
            if len(self.laid) < self.max_pose:
                legal |= {LAY + c for c in self.hands[self.actor]}
            if self.laid:
                legal.add(ANNOUNCE)
            return legal
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
        strings = [s.action_to_string(x) for x in legal]
        assert len(strings) == len(set(strings)) and set(strings) == self.expected_legal(), strings
        text = s.action_to_string(a)
        s.apply_action(a)
        if text.startswith(LAY):
            card = text[len(LAY):]
            self.hands[self.actor].remove(card)
            self.laid.append(card)
        elif text == ANNOUNCE:
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
        else:
            self.taken[taker] += 1
            self.hands[taker] = sorted(self.hands[taker] + self.laid + self.pile)
            self.pile = []
        self.laid = []
        for p in range(self.n if self.turns < LOG_TURNS else 0):   # named to every seat's log
            new = "\n".join(self.s.log_lines(p)[self.log_mark[p]:])
            for c in shown:
                assert c in new, (p, c)

    def hidden_to_others(self, cards):
        for p in range(self.n if self.turns < LOG_TURNS else 0):
            if p == self.actor:
                continue
            new = "\n".join(self.s.log_lines(p)[self.log_mark[p]:])
            for c in cards:
                assert c not in new, (p, c, new)

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
    """The file's heuristic: the greedy bot lays every card of the asked rank it holds and lies
    (one card) only when it holds none; it calls only a claim its own hand proves false, or one
    that would otherwise end the game."""
    for players in (3, 4, 5, 6):
        for seed in range(5):
            game = registry.get("menteur").build([], players)
            s = game.new_state(seed)
            ref = Referee(s, players)
            laid_turn = []
            while not s.is_terminal():
                a = s.greedy_action()
                text = s.action_to_string(a)
                if ref.window is None:
                    hand = ref.hands[ref.actor]
                    of_rank = [c for c in hand if rank(c) == ref.asked]
                    if text.startswith(LAY):
                        laid_turn.append(text[len(LAY):])
                    else:
                        assert text == ANNOUNCE
                        truthful = [c for c in laid_turn if rank(c) == ref.asked]
                        if truthful:
                            # every card of the rank down (up to the limit), no lie beside them
                            assert len(truthful) == len(laid_turn)
                            assert not of_rank or len(laid_turn) == 4
                        else:
                            assert len(laid_turn) == 1
                        laid_turn = []
                elif text == CALL:
                    caller = ref.window
                    mine = sum(rank(c) == ref.asked for c in ref.hands[caller])
                    assert mine + len(ref.laid) > 4 or not ref.hands[ref.actor]
                ref.play(a)
