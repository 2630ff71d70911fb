"""OVERKILL, two players: the state of one game (OpenSpiel-shaped, like NesPanini's).

Cards are small integers: ``0 … n-1`` index the draw pile's cards of the box (copies expanded),
``n`` and ``n+1`` the two 99s. Each player has two colour lines, ``lines[p][RED]`` and
``lines[p][BLACK]``; the first card of a line is the face-down one (seen by its owner only).

Actions (integers): ``DRAW``, ``PASS``, and ``PLAY + 8*k + choice`` to play the atout ``k`` of the
box (``choice``: the colour line for the atouts that pick one, or the rank of the opponent's
passive atout for Remover). Chance is sampled: the state owns a seeded ``random.Random`` and every
shuffle or random draw comes from it, so ``seed`` replays a game exactly.
"""

from __future__ import annotations

import _random
import random
from dataclasses import dataclass
from typing import Any, NamedTuple

from cardbase.errors import CardbaseError
from cardbase.games.shuffles import shuffle
from cardbase.games import frame
from cardbase.games.frame import IllegalActionError, replay  # noqa: F401 - one for every game
from cardbase.i18n import tr

from .material import Box
from .rules import (
    ATOUTS_DEALT,
    BET,
    BLACK,
    COLOUR_CHOICE,
    COLOURS,
    DEALT_PER_COLOUR,
    GIFTER,
    HELPERS,
    INITIAL_OBJECTIVE,
    NEXT_CARD_ANSWERS,
    OBJECTIVE,
    OVERSEER,
    PATCHER,
    RED,
    REMOVER,
    RETRACER,
    REWINDER,
    SAVER,
    SNAKE_EYE,
    SPY,
    SWITCHER,
    YOINKER,
    Rules,
)

DRAW, PASS, PLAY = 0, 1, 2
# random.Random(seed) with an int seed seeds the C generator twice (its __new__ and its
# __init__), the same way: a new unseeded generator (random.Random.__new__ of the subclass leaves
# it unseeded) then the C seeding once, the same state (a test compares getstate())
_new_random = random.Random.__new__
_seed_int = _random.Random.seed
TERMINAL = -1




def sample(rng: random.Random, population: list, k: int) -> list:
    """``rng.sample(population, k)`` with its draws inlined for a population of at most 21 and
    ``k`` at most 5 (Python's list algorithm: the same picks from the same generator state; a test
    compares it with :meth:`random.Random.sample`); other sizes go to ``rng.sample``."""
    n = len(population)
    if n > 21 or not 0 <= k <= min(n, 5):
        return rng.sample(population, k)
    getrandbits = rng.getrandbits
    pool = list(population)
    out = []
    for i in range(k):
        m = n - i
        bits = m.bit_length()
        j = getrandbits(bits)
        while j >= m:
            j = getrandbits(bits)
        out.append(pool[j])
        pool[j] = pool[m - 1]  # the last candidate takes the place of the one picked
    return out




class Card(NamedTuple):
    """A number card as Retracer names it (OK12): its value and its colour."""

    value: int
    colour: int

    def __str__(self) -> str:
        return tr("overkill.text.card", value=self.value,
                  colour=tr(f"overkill.colour.{COLOURS[self.colour]}"))


# Rule coverage (cardbase.playtest.coverage): the keys every game counts, then one per atout name.
COVERAGE_BASE = ("draw", "stand", "end:passes", "end:overkill", "end:timer", "game:score",
                 "game:round_limit")
_DRAW, _STAND, _ENDS, _GAME_ENDS = 0, 2, 4, 10  # offsets in State.cov (occasions, used)
_END_AT = {"passes": 4, "overkill": 6, "timer": 8, "score": 10, "round_limit": 12}


def coverage_key(name: str) -> str:
    """The coverage key of an atout: ``atout:`` and its name folded (``atout:mistake_patcher``)."""
    from cardbase.text import fold

    return "atout:" + "_".join(fold(name).split())


@dataclass(slots=True, frozen=True)
class Observation:
    """What one player knows: their own lines in full, the opponent's face-up cards."""

    player: int
    current_player: int
    round: int
    scores: tuple[int, ...]
    bet: int
    stake: int
    objective: int
    timers: tuple[int, ...]
    pile_size: int
    removed: tuple[int, ...]  # values of the cards taken out of the round, face up
    lines: tuple[tuple[tuple[int | None, ...], ...], ...]  # values; None = a face-down card not yours
    atouts: tuple[str, ...]  # your atouts in hand (names)
    atout_counts: tuple[int, ...]
    active: tuple[tuple[str, ...], ...]  # passive atouts in play, per player
    info: tuple[tuple[str, Any], ...]  # what your Helpers tell you this turn
    terminal: bool
    # per player and colour, how many dealt cards still open the line (the others were drawn, OK8)
    dealt: tuple[tuple[int, ...], ...] = ((2, 2), (2, 2))


class Game:
    """An OVERKILL box and its rules options; states are dealt from it."""

    num_players = 2
    min_players = 2
    max_players = 2

    def __init__(self, box: Box, rules: Rules | None = None) -> None:
        self.box = box
        self.rules = rules or Rules()
        bad = self.rules.problems()
        if bad:
            raise CardbaseError(tr("overkill.rules.bad", options=", ".join(bad)))
        # OK13: the pile holds each number card of the data ``pile_copies`` times
        numbers = [c for c in box.numbers for _ in range(self.rules.pile_copies)]
        n = len(numbers)
        self.n_numbers = n
        self.value = [c.value for c in numbers] + [c.value for c in box.nines]
        self.colour = [c.colour for c in numbers] + [c.colour for c in box.nines]
        self.nines = list(range(n, n + len(box.nines)))
        self.cards = [Card(v, c) for v, c in zip(self.value, self.colour)]  # as Retracer names them
        self.distinct_values = sorted({c.value for c in box.numbers})  # Overseer's choices (OK12)
        self.atouts = box.atouts
        keys = list(COVERAGE_BASE)
        self.atout_cov = []  # per atout: its offset in State.cov
        for a in box.atouts:
            key = coverage_key(a.name)
            if key not in keys:
                keys.append(key)
            self.atout_cov.append(2 * keys.index(key))
        self.cov_keys = tuple(keys)
        # per atout, when it has a legal use: 0 always, 1 with a pile, 2 with an opponent's passive
        # atout in play, 3 with a line it may act on (State._usable; rule coverage's speed)
        self.legal_kind = [1 if a.effect == GIFTER else 2 if a.effect == REMOVER
                           else 3 if a.effect in COLOUR_CHOICE else 0 for a in box.atouts]
        # per atout, what it adds to the bet in play (a Negociater's figure, else 0; OK6)
        self.bet_figure = [a.figure if a.effect == BET else 0 for a in box.atouts]

    def new_state(self, seed: int | None = None, *, log: bool = True) -> State:
        return State(self, seed, log=log)


class State:
    """One OVERKILL game in progress. Mutable; :meth:`clone` is a cheap hand-written copy."""

    __slots__ = (
        "active",
        "atout_pile",
        "bet",
        "cov",
        "dealt",
        "down",
        "ended_by",
        "events",
        "game",
        "hands",
        "held",
        "history",
        "info",
        "lines",
        "objectives",
        "passes",
        "pile",
        "player",
        "removed",
        "rng",
        "round",
        "round_first",
        "round_winners",
        "rules",
        "scores_",
        "seed",
        "timers",
        "turns",
    )

    def __init__(self, game: Game, seed: int | None, *, log: bool = True) -> None:
        self.game = game
        self.rules = game.rules
        if seed is None:
            seed = random.randrange(2**63)
        self.seed = seed
        if type(seed) is int:  # random.Random(seed) seeded once, by the generator's own seeding
            rng = self.rng = _new_random(random.Random)
            _seed_int(rng, seed)
            rng.gauss_next = None
        else:
            self.rng = random.Random(seed)
        self.scores_ = [self.rules.initial_score] * 2
        self.bet = self.rules.initial_bet
        self.round = 0
        self.round_first = 0
        self.history: list[int] = []
        self.events: list[tuple] | None = [] if log else None
        self.ended_by = ""
        self.round_winners: list[int] = []  # per round: the winner's seat, or -1 for a tie
        self.held: list[set[int]] = [set(), set()]  # every atout dealt to each seat in the game
        self.turns = 0  # draws and stands (the decisions that pass the turn)
        self.cov = [0] * (2 * len(game.cov_keys))  # rule coverage: occasions, used per key
        self._start_round()

    # ------------------------------------------------------------------ copying

    def clone(self, *, log: bool = False) -> State:
        s = State.__new__(State)
        s.game = self.game
        s.rules = self.rules
        s.seed = self.seed
        s.rng = random.Random.__new__(random.Random)  # no seeding from the system: set below
        s.rng.setstate(self.rng.getstate())
        s.scores_ = self.scores_[:]
        s.bet = self.bet
        s.round = self.round
        s.round_first = self.round_first
        s.player = self.player
        s.pile = self.pile[:]
        s.lines = [[self.lines[0][0][:], self.lines[0][1][:]], [self.lines[1][0][:], self.lines[1][1][:]]]
        s.down = [self.down[0][:], self.down[1][:]]
        s.dealt = [self.dealt[0][:], self.dealt[1][:]]
        s.cov = self.cov[:]
        s.removed = self.removed[:]
        s.hands = [self.hands[0][:], self.hands[1][:]]
        s.active = [self.active[0][:], self.active[1][:]]
        s.objectives = self.objectives[:]
        s.timers = self.timers[:]
        s.passes = self.passes
        s.info = [dict(self.info[0]), dict(self.info[1])]
        s.history = self.history[:]
        s.events = self.events[:] if (log and self.events is not None) else None
        s.ended_by = self.ended_by
        s.atout_pile = self.atout_pile[:]
        s.round_winners = self.round_winners[:]
        s.held = [set(self.held[0]), set(self.held[1])]
        s.turns = self.turns
        return s

    # ------------------------------------------------------------------ the interface

    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def objective(self) -> int:
        """The latest Challenger in play sets the objective (OK7), else 21."""
        return self.objectives[-1][1] if self.objectives else INITIAL_OBJECTIVE

    def stake(self) -> int:
        """This round's bet: the bet plus the Negociaters in play, never below ``min_stake`` (OK6)."""
        bet = self.game.bet_figure.__getitem__
        active = self.active
        extra = sum(map(bet, active[0])) + sum(map(bet, active[1]))
        return max(self.rules.min_stake, self.bet + extra)

    def line_sum(self, p: int, c: int) -> int:
        return sum(map(self.game.value.__getitem__, self.lines[p][c]))

    def overkills(self, p: int) -> int:
        obj = self.objective()
        return (self.line_sum(p, RED) > obj) + (self.line_sum(p, BLACK) > obj)

    def points(self, p: int) -> int:
        """A player's points in the round (OK5, option ``points``)."""
        obj = self.objective()
        r, b = self.line_sum(p, RED), self.line_sum(p, BLACK)
        mode = self.rules.points
        if mode == "all":
            return r + b
        under = [x for x in (r, b) if x <= obj]
        if mode == "best_line":
            return max(under, default=0)
        return sum(under)

    def legal_actions(self, player: int | None = None) -> list[int]:
        p = self.player
        if p == TERMINAL or (player is not None and player != p):
            return []
        out = [PASS]
        if self.pile:
            out.insert(0, DRAW)
        for k in sorted(set(self.hands[p])):
            out.extend(self._atout_actions(p, k))
        return out

    def _is_legal(self, p: int, action: int) -> bool:
        if action == DRAW:
            return bool(self.pile)
        if action == PASS:
            return True
        k = (action - PLAY) >> 3
        return k in self.hands[p] and action in self._atout_actions(p, k)

    def drawn(self, p: int, c: int) -> list[int]:
        """The cards of a line that joined it after the deal (drawn, given by a Gifter or a
        Switcher), oldest first: the only cards "piochées" (OK8)."""
        return self.lines[p][c][self.dealt[p][c]:]

    def _colour_ok(self, effect: str, p: int, c: int) -> bool:
        """May the atout ``effect`` of player ``p`` act on the colour line ``c`` (OK8)?

        Yoinker, Mistake Patcher and Switcher need a drawn card in the line(s) they take it from;
        a reset needs a card beyond those it keeps (the dealt ones, at most ``reset_keeps``)."""
        lines, dealt = self.lines, self.dealt
        q = 1 - p
        if effect == YOINKER:
            return len(lines[q][c]) > dealt[q][c]
        if effect == PATCHER:
            return len(lines[p][c]) > dealt[p][c]
        if effect == SWITCHER:
            return len(lines[p][c]) > dealt[p][c] and len(lines[q][c]) > dealt[q][c]
        who = q if effect == REWINDER else p
        return len(lines[who][c]) > min(self.rules.reset_keeps, dealt[who][c])

    def _usable(self, p: int, k: int) -> bool:
        """Has the atout ``k`` in ``p``'s hand a legal use now?"""
        effect = self.game.atouts[k].effect
        if effect in COLOUR_CHOICE:  # _colour_ok on either line, inlined (rule coverage's speed)
            lines, dealt = self.lines, self.dealt
            q = 1 - p
            if effect == YOINKER or effect == PATCHER:
                who = q if effect == YOINKER else p
                line, d = lines[who], dealt[who]
                return len(line[0]) > d[0] or len(line[1]) > d[1]
            if effect == SWITCHER:
                mine, md, theirs, td = lines[p], dealt[p], lines[q], dealt[q]
                return ((len(mine[0]) > md[0] and len(theirs[0]) > td[0])
                        or (len(mine[1]) > md[1] and len(theirs[1]) > td[1]))
            who = q if effect == REWINDER else p
            line, d = lines[who], dealt[who]
            keep = self.rules.reset_keeps
            return len(line[0]) > min(keep, d[0]) or len(line[1]) > min(keep, d[1])
        if effect == REMOVER:
            return bool(self.active[1 - p])
        if effect == GIFTER:
            return bool(self.pile)
        return True

    def _count_occasions(self, p: int) -> None:
        """Rule coverage: one decision of ``p``, with what was legal in it."""
        cov = self.cov
        if self.pile:
            cov[_DRAW] += 1
        cov[_STAND] += 1
        game = self.game
        at, legal_kind = game.atout_cov, game.legal_kind
        for k in self.hands[p]:
            lk = legal_kind[k]
            if (not lk or (lk == 1 and self.pile) or (lk == 2 and self.active[1 - p])
                    or (lk == 3 and self._usable(p, k))):
                cov[at[k]] += 1

    def coverage(self) -> dict[str, list[int]]:
        """Rule coverage (``cardbase.playtest.coverage``): per key, [occasions, used]: each
        decision that could draw / stand / play an atout, each round's and the game's ending."""
        cov = self.cov
        return {key: [cov[2 * i], cov[2 * i + 1]] for i, key in enumerate(self.game.cov_keys)}

    def _atout_actions(self, p: int, k: int) -> list[int]:
        effect = self.game.atouts[k].effect
        base = PLAY + 8 * k
        q = 1 - p
        if effect in COLOUR_CHOICE:
            return [base + c for c in (RED, BLACK) if self._colour_ok(effect, p, c)]
        if effect == REMOVER:
            return [base + i for i in range(len(self.active[q]))]
        if effect == GIFTER:
            return [base] if self.pile else []
        return [base]

    def apply_action(self, action: int) -> None:
        p = self.player
        if p == TERMINAL:
            raise IllegalActionError(tr("overkill.illegal.over"))
        if not self._is_legal(p, action):
            raise IllegalActionError(tr("overkill.illegal.action", player=p + 1,
                                        action=self.action_to_string(action),
                                        legal=", ".join(self.action_to_string(a)
                                                        for a in self.legal_actions())))
        self._count_occasions(p)
        self.history.append(action)
        self.timers[p] -= 1  # OK3: every decision of the player spends one unit of their timer
        if action <= PASS:
            self.turns += 1
        if action == DRAW:
            self.cov[_DRAW + 1] += 1
            self.passes = 0
            self._draw(p)
            if not self._check_round_end():
                self._next_player(1 - p)
            return
        if action == PASS:
            self.cov[_STAND + 1] += 1
            self.passes += 1
            self._log("pass", p)
            if self.passes >= 2:  # "les deux joueurs ont posé à la suite"
                self._end_round("passes")
                return
            self._next_player(1 - p)
            return
        k, choice = divmod(action - PLAY, 8)
        self.cov[self.game.atout_cov[k] + 1] += 1
        self._play(p, k, choice)
        if not self._check_round_end():
            self._next_player(p, turn=False)  # OK4: playing an atout does not end the turn

    # ------------------------------------------------------------------ the round

    def _start_round(self) -> None:
        game, rng = self.game, self.rng
        self.round += 1
        if self.round == 1 or self.rules.first_player == "fixed":
            self.round_first = 0
        elif self.rules.first_player == "alternate":
            self.round_first = 1 - self.round_first
        else:  # "loser": the loser of the last round starts; a tie keeps the order
            last = self.round_winners[-1] if self.round_winners else -1
            if last >= 0:
                self.round_first = 1 - last
        pile = list(range(game.n_numbers))
        shuffle(rng, pile)
        # The deal (OK10): each player in turn takes the first red and black cards of the
        # shuffled pile, face-down card first; the pile's top is its end.
        lines: list[list[list[int]]] = [[[], []], [[], []]]
        colour = game.colour
        # the last red and black cards, from the top: the cards the deal takes (the others
        # above the last one taken stay in the pile, in their order)
        need = 2 * DEALT_PER_COLOUR
        taken: list[list[int]] = [[], []]
        left: list[int] = []
        wanted = 2 * need
        i = len(pile)
        while wanted and i:
            i -= 1
            k = pile[i]
            got = taken[colour[k]]
            if len(got) < need:
                got.append(k)
                wanted -= 1
            else:
                left.append(k)
        if not wanted:
            first = self.round_first
            for c in (RED, BLACK):
                got = taken[c]
                lines[first][c] = got[:DEALT_PER_COLOUR]
                lines[1 - first][c] = got[DEALT_PER_COLOUR:]
            del pile[i:]
            pile.extend(reversed(left))
        else:  # too few cards of a colour: the deal card by card
            for p in (self.round_first, 1 - self.round_first):
                for c in (RED, BLACK):
                    for _ in range(DEALT_PER_COLOUR):
                        for i in range(len(pile) - 1, -1, -1):
                            if colour[pile[i]] == c:
                                lines[p][c].append(pile.pop(i))
                                break
        self.pile = pile
        self.lines = lines
        self.down = [[True, True], [True, True]]  # is the first card of each line face down?
        self.dealt = [[DEALT_PER_COLOUR] * 2, [DEALT_PER_COLOUR] * 2]  # OK8: dealt cards per line
        self.removed: list[int] = []
        atouts = list(range(len(game.atouts)))
        shuffle(rng, atouts)
        first = self.round_first
        if len(atouts) >= 2 * ATOUTS_DEALT:  # three each from the top, the first player first
            deal = atouts[-1:-2 * ATOUTS_DEALT - 1:-1]
            del atouts[-2 * ATOUTS_DEALT:]
            self.hands = [deal[1::2], deal[::2]] if first else [deal[::2], deal[1::2]]
        else:
            self.hands = [[], []]
            for _ in range(ATOUTS_DEALT):
                for p in (first, 1 - first):
                    if atouts:
                        self.hands[p].append(atouts.pop())
        self.atout_pile = atouts  # untouched during the round
        self.held[0].update(self.hands[0])
        self.held[1].update(self.hands[1])
        self.active = [[], []]
        self.objectives: list[tuple[int, int]] = []  # (atout, objective) in the order played
        self.timers = [self.rules.timer, self.rules.timer]
        self.passes = 0
        self.info = [{}, {}]
        if self.events is not None:
            self.events.append(("round", self.round, self.round_first, self.bet, tuple(self.scores_)))
        first = self.round_first
        if self.timers[first] > 0:  # _next_player: nothing in play yet, no Helper answers
            self.player = first
        else:
            self._next_player(first)

    def _next_player(self, p: int, *, turn: bool = True) -> None:
        """Hand the decision to ``p`` (``turn``: their turn begins; else it goes on after an
        atout): an empty timer gives them both 99s (OK3); a new turn, their Helpers' answers for
        the whole turn (OK12)."""
        self.player = p
        if self.timers[p] <= 0:
            for k in self.game.nines:
                self.lines[p][self.game.colour[k]].append(k)
            self._log("timer", p)
            self._end_round("timer")
            return
        if turn:
            self._refresh_info(p)

    def _forget_next_card(self) -> None:
        """The next card was drawn: what the Helpers said about it is over (OK12)."""
        for info in self.info:
            if info:
                for key in NEXT_CARD_ANSWERS:
                    info.pop(key, None)

    def _draw(self, p: int) -> None:
        k = self.pile.pop()
        self.lines[p][self.game.colour[k]].append(k)
        if self.info[0] or self.info[1]:
            self._forget_next_card()
        if self.events is not None:
            self.events.append(("draw", p, k))

    def _check_round_end(self) -> bool:
        """Two overkills end the round at once (also after an objective change)."""
        if self.overkills(0) >= 2 or self.overkills(1) >= 2:
            self._end_round("overkill")
            return True
        return False

    def _end_round(self, reason: str) -> None:
        # overkills() and points() of both players, from the four line sums counted once
        value = self.game.value.__getitem__
        obj = self.objectives[-1][1] if self.objectives else INITIAL_OBJECTIVE
        (red0, black0), (red1, black1) = self.lines
        r0, b0 = sum(map(value, red0)), sum(map(value, black0))
        r1, b1 = sum(map(value, red1)), sum(map(value, black1))
        o0 = (r0 > obj) + (b0 > obj)
        o1 = (r1 > obj) + (b1 > obj)
        if o0 != o1:
            winner = 0 if o0 < o1 else 1
        else:
            mode = self.rules.points
            if mode == "all":
                p0, p1 = r0 + b0, r1 + b1
            elif mode == "best_line":
                p0 = max([x for x in (r0, b0) if x <= obj], default=0)
                p1 = max([x for x in (r1, b1) if x <= obj], default=0)
            else:
                p0 = (r0 if r0 <= obj else 0) + (b0 if b0 <= obj else 0)
                p1 = (r1 if r1 <= obj else 0) + (b1 if b1 <= obj else 0)
            winner = -1 if p0 == p1 else (0 if p0 > p1 else 1)  # OK5: equal points: a tie
        stake = self.stake()
        if winner >= 0:
            self.scores_[winner] += stake
            self.scores_[1 - winner] -= stake
        self.round_winners.append(winner)
        if self.events is not None:  # self._log, inline (once a round)
            self.events.append(("round_end", self.round, reason, winner, stake, tuple(self.scores_)))
        cov = self.cov
        cov[_ENDS] += 1
        cov[_ENDS + 2] += 1
        cov[_ENDS + 4] += 1
        cov[_END_AT[reason] + 1] += 1
        # "Quand un joueur gagne une manche, … le pari augmente de un" (OK2: after a won round;
        # option bet_growth = "every_round": after a tie too)
        if winner >= 0 or self.rules.bet_growth == "every_round":
            self.bet += 1
        if min(self.scores_) <= 0:
            self._finish("score")
        elif self.round >= self.rules.max_rounds:
            self._finish("round_limit")  # OK11: the safety net, always reported
        else:
            self._start_round()

    def _finish(self, reason: str) -> None:
        self.player = TERMINAL
        self.ended_by = reason
        self.cov[_GAME_ENDS] += 1
        self.cov[_GAME_ENDS + 2] += 1
        self.cov[_END_AT[reason] + 1] += 1
        self._log("end", reason, tuple(self.scores_))

    # ------------------------------------------------------------------ atouts

    def _play(self, p: int, k: int, choice: int) -> None:
        atout = self.game.atouts[k]
        q = 1 - p
        self.hands[p].remove(k)
        if self.events is not None:  # self._log, inline (at each atout played)
            self.events.append(("atout", p, k, choice))
        effect = atout.effect
        if atout.passive:
            if effect == OBJECTIVE:
                # "Retire la dernière carte objectif jouée" (OK7): the previous Challenger leaves play.
                if self.objectives:
                    prev, _ = self.objectives.pop()
                    for who in (0, 1):
                        if prev in self.active[who]:
                            self.active[who].remove(prev)
                self.objectives.append((k, atout.figure))
            self.active[p].append(k)
            if atout.cls == HELPERS:  # it answers at once, and that answer holds for the turn
                self._refresh_info(p, only=effect)
            return
        mine, theirs = self.lines[p], self.lines[q]
        if effect == GIFTER:
            self._draw(q)
        elif effect == YOINKER:
            self.removed.append(theirs[choice].pop())
        elif effect == PATCHER:
            self.removed.append(mine[choice].pop())
        elif effect == REWINDER:
            self._reset(q, choice)
        elif effect == SAVER:
            self._reset(p, choice)
        elif effect == SWITCHER:
            mine[choice][-1], theirs[choice][-1] = theirs[choice][-1], mine[choice][-1]
        elif effect == REMOVER:
            target = self.active[q].pop(choice)
            for i, (a, _) in enumerate(self.objectives):
                if a == target:
                    del self.objectives[i]
                    break

    def _reset(self, p: int, c: int) -> None:
        """OK8: the line loses every drawn card and keeps its dealt ones, at most ``reset_keeps``."""
        keep = min(self.rules.reset_keeps, self.dealt[p][c])
        line = self.lines[p][c]
        self.removed.extend(line[keep:])
        del line[keep:]
        self.dealt[p][c] = keep
        if keep == 0:
            self.down[p][c] = False  # the face-down card left the table (shown, OK8)

    def _refresh_info(self, p: int, only: str | None = None) -> None:
        """What the Helpers in play tell their owner (OK12): all of them when the owner's turn
        begins, or the one just played (``only``, added to the turn's answers). An answer holds
        for the whole turn: Overseer's two other values are drawn once a turn, not at each
        decision (asking again would single out the true value)."""
        if only is None and not self.active[p]:
            self.info[p] = {}
            return
        info: dict[str, Any] = {} if only is None else self.info[p]
        game = self.game
        if only is None:
            helpers = [game.atouts[k].effect for k in self.active[p] if game.atouts[k].cls == HELPERS]
        else:
            helpers = [only]
        if helpers and self.pile:
            top = self.pile[-1]
            value, colour = game.value[top], game.colour[top]
            for effect in helpers:
                if effect == SNAKE_EYE:
                    info[SNAKE_EYE] = colour
                elif effect == OVERSEER:
                    others = [v for v in game.distinct_values if v != value]
                    extra = sample(self.rng, others, min(2, len(others)))
                    info[OVERSEER] = tuple(sorted([value, *extra]))
                elif effect == SPY:
                    mine = {game.value[k] for line in self.lines[p] for k in line}
                    info[SPY] = value in mine
                    info["_spy_values"] = frozenset(mine)  # what the answer was about
        if RETRACER in helpers:
            q = 1 - p
            hidden = list(self.pile) + [self.lines[q][c][0] for c in (RED, BLACK) if self.lines[q][c]
                                        and self._face_down(q, c)]
            cards = game.cards
            info[RETRACER] = tuple(sorted([cards[k] for k in hidden]))
        self.info[p] = info

    def _face_down(self, p: int, c: int) -> bool:
        """Is the first card of the line the face-down one dealt to it?"""
        return self.down[p][c] and bool(self.lines[p][c])

    # ------------------------------------------------------------------ results

    def scores(self) -> list[int]:
        return self.scores_[:]

    def returns(self) -> list[float]:
        """+1 to the higher score, -1 to the lower, 0 each on equal scores."""
        if self.player != TERMINAL:
            return [0.0, 0.0]
        a, b = self.scores_
        if a == b:
            return [0.0, 0.0]
        return [1.0, -1.0] if a > b else [-1.0, 1.0]

    def greedy_action(self) -> int:
        """The greedy heuristic's choice for the player to act (:mod:`.bots`, at speed: :mod:`.fast`)."""
        return frame.greedy(self)

    def play_greedy(self, horizon: int | None = None) -> State:
        """Play with the greedy heuristic for both players, in place: to the end, or to the end of
        round ``horizon`` (a mark of :meth:`search_horizon`)."""
        return frame.play_greedy(self, horizon)

    # ------------------------------------------------------------------ search horizon

    def search_horizon(self) -> int:
        """Search looks as far as the end of the round in play (docs/bots.md): its mark."""
        return self.round

    def horizon_utilities(self, horizon: int) -> list[float] | None:
        """``None`` before the end of round ``horizon``; then each player's chance to win the game
        from the scores and the bet (:func:`game_value`) on a -1 … +1 scale, or the returns when
        the game is over."""
        if self.player == TERMINAL:
            return self.returns()
        if self.round <= horizon:
            return None
        v = 2.0 * game_value(self.scores_[0], self.scores_[0] + self.scores_[1], self.bet) - 1.0
        return [v, -v]

    def heuristic(self, player: int) -> float:
        """The player's score lead (what a one-step look-ahead compares)."""
        return float(self.scores_[player] - self.scores_[1 - player])

    def held_cards(self, seat: int) -> set[str]:
        """Refs of the atouts dealt to ``seat`` at any round (for a card's impact)."""
        return {self.game.atouts[k].ref for k in self.held[seat]}

    def winner(self) -> int:
        r = self.returns()
        return 0 if r[0] > 0 else (1 if r[1] > 0 else -1)

    # ------------------------------------------------------------------ hidden information

    def observation(self, player: int) -> Observation:
        game = self.game
        lines = []
        for q in (0, 1):
            lq = []
            for c in (RED, BLACK):
                line = self.lines[q][c]
                vals: list[int | None] = [game.value[k] for k in line]
                if q != player and self._face_down(q, c):
                    vals[0] = None
                lq.append(tuple(vals))
            lines.append(tuple(lq))
        names = [a.name for a in game.atouts]
        return Observation(
            player=player, current_player=self.player, round=self.round,
            scores=tuple(self.scores_), bet=self.bet, stake=self.stake(),
            objective=self.objective(), timers=tuple(self.timers), pile_size=len(self.pile),
            removed=tuple(game.value[k] for k in self.removed),
            lines=tuple(lines), atouts=tuple(names[k] for k in self.hands[player]),
            atout_counts=(len(self.hands[0]), len(self.hands[1])),
            active=tuple(tuple(names[k] for k in self.active[q]) for q in (0, 1)),
            info=tuple(sorted((k, v) for k, v in self.info[player].items() if not k.startswith("_"))),
            terminal=self.player == TERMINAL,
            dealt=(tuple(self.dealt[0]), tuple(self.dealt[1])),
        )

    def information_key(self, player: int) -> tuple:
        o = self.observation(player)
        return (o.current_player, o.round, o.scores, o.lines, o.dealt, tuple(sorted(self.hands[player])),
                o.atout_counts, tuple(tuple(a) for a in self.active), o.info, o.timers,
                tuple(self.objectives))

    def resample(self, player: int, rng: random.Random) -> State:
        """A clone where what ``player`` cannot see is dealt again at random.

        Hidden from ``player``: the opponent's face-down cards, the pile's order, the opponent's
        atouts in hand (redrawn from the atouts ``player`` has not seen). The next card stays
        consistent with what ``player``'s Helpers said this turn.
        """
        s = self.clone()
        game = self.game
        q = 1 - player
        down = [c for c in (RED, BLACK) if self._face_down(q, c)]
        pool = sorted(s.pile + [s.lines[q][c][0] for c in down])
        rng.shuffle(pool)
        top = None
        info = self.info[player]
        if info and s.pile:
            # the next card first, among the cards that fit what the Helpers said (and that leave
            # enough cards of each colour for the opponent's face-down ones)
            count = [sum(1 for k in pool if game.colour[k] == c) for c in (RED, BLACK)]
            ok = [i for i, k in enumerate(pool) if self._consistent(player, k, info)
                  and count[game.colour[k]] - 1 >= (game.colour[k] in down)]
            if ok:
                top = pool.pop(ok[rng.randrange(len(ok))])
        for c in down:  # a face-down card keeps its colour
            for i, k in enumerate(pool):
                if game.colour[k] == c:
                    s.lines[q][c][0] = pool.pop(i)
                    break
        if top is not None:
            pool.append(top)
        s.pile = pool
        if s.hands[q]:
            unseen = sorted(s.hands[q] + s.atout_pile)
            rng.shuffle(unseen)
            n = len(s.hands[q])
            s.hands[q], s.atout_pile = unseen[:n], unseen[n:]
        return s

    def _consistent(self, player: int, k: int, info: dict[str, Any]) -> bool:
        game = self.game
        if SNAKE_EYE in info and game.colour[k] != info[SNAKE_EYE]:
            return False
        if OVERSEER in info and game.value[k] not in info[OVERSEER]:
            return False
        if SPY in info:
            if (game.value[k] in info["_spy_values"]) != info[SPY]:
                return False
        return True

    # ------------------------------------------------------------------ text

    def action_to_string(self, action: int) -> str:
        if action == DRAW:
            return tr("overkill.action.draw")
        if action == PASS:
            return tr("overkill.action.pass")
        k, choice = divmod(action - PLAY, 8)
        if not 0 <= k < len(self.game.atouts):
            return tr("overkill.action.unknown", action=action)
        atout = self.game.atouts[k]
        if atout.effect in COLOUR_CHOICE:
            return tr("overkill.action.atout_colour", name=atout.name,
                      colour=tr(f"overkill.colour.{COLOURS[choice % 2]}"))
        if atout.effect == REMOVER:
            q = 1 - self.player if self.player >= 0 else 0
            target = self.active[q][choice] if choice < len(self.active[q]) else None
            name = self.game.atouts[target].name if target is not None else "?"
            return tr("overkill.action.atout_target", name=atout.name, target=name)
        return tr("overkill.action.atout", name=atout.name)

    def _log(self, *event: Any) -> None:
        if self.events is not None:
            self.events.append(event)

    def __str__(self) -> str:
        game = self.game
        rows = [tr("overkill.text.header", round=self.round, objective=self.objective(),
                   stake=self.stake(), s0=self.scores_[0], s1=self.scores_[1])]
        for p in (0, 1):
            lines = " | ".join(f"{COLOURS[c]}: {' '.join(str(game.value[k]) for k in self.lines[p][c])}"
                               for c in (RED, BLACK))
            rows.append(f"J{p + 1}: {lines}")
        return "\n".join(rows)



TIE_RATE = 0.05  # share of tied rounds between two greedy players, measured (docs/bots.md)
_VALUES: dict[tuple[int, int, int], float] = {}


def game_value(score: int, total: int, bet: int) -> float:
    """The chance that the player with ``score`` (of ``total`` for both) wins the game when the
    next round is played for ``bet`` and every round is a coin flip (tied with ``TIE_RATE``).

    Being ahead is worth more when the bet is small: once the bet reaches both scores, the next
    decided round ends the game whatever the scores (a half).
    """
    key = (score, total, bet)
    v = _VALUES.get(key)
    if v is not None:
        return v
    other = total - score
    if score <= 0:
        v = 0.0
    elif other <= 0:
        v = 1.0
    elif bet <= 0:
        v = game_value(score, total, bet + 1)
    elif bet >= score and bet >= other:
        v = 0.5
    else:
        v = (TIE_RATE * game_value(score, total, bet + 1) + (1 - TIE_RATE) / 2
             * (game_value(score + bet, total, bet + 1) + game_value(score - bet, total, bet + 1)))
    if len(_VALUES) > 100_000:
        _VALUES.clear()
    _VALUES[key] = v
    return v
