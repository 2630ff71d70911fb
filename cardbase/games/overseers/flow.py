"""The round flow of an Overseers game: deal, draft, discard, place, spy, vote, judge, shed and
penalty, steal, the count and the next round (a mixin of :class:`.state.State`, which holds the
slots these methods read and write).
"""

from __future__ import annotations

from itertools import combinations

from .actions import (
    P_CHARACTER,
    P_DISCARD,
    P_DRAFT,
    P_END,
    P_JUDGE,
    P_PENALTY,
    P_PLACE,
    P_SHED,
    P_SPY,
    P_SUCCESSOR,
    P_TAKE,
    P_THIEF_TIE,
    P_VICTIM,
    P_VOTE,
    P_VOTE_TIE,
    PUBLIC,
    TERMINAL,
)
from .rules import DEALT, PENALTY_CARDS, ROUNDS


class RoundFlow:
    """The phases of a round, as methods of the state."""

    __slots__ = ()

    def _to(self, phase: int, player: int) -> None:
        self.phase = phase
        self.player = player

    def _next_in_step(self, done) -> None:
        q = self.queue
        q.pop(0)
        if q:
            self.player = q[0]
        else:
            done()

    def _start_round(self) -> None:
        n, rng, game = self.n, self.rng, self.game
        self.round += 1
        self.led.add(self.leader)
        self.leaders.append(self.leader)
        self.offered: list[int] = []
        self.chars = [-1] * n
        self.hands = [[] for _ in range(n)]
        self.kept = [[] for _ in range(n)]
        self.seen = [[] for _ in range(n)]
        self.top = [[] for _ in range(n)]
        self.bottom = [[] for _ in range(n)]
        self.peeks = [[] for _ in range(n)]
        self.spy_left = [0] * n
        self.votes = [-1] * n
        self.discard: list[int] = []
        self.discard_from: list[int] = []  # who threw each discard card face down; PUBLIC if seen
        self.looked = -1  # the seat that looked through the discard (OV8)
        self.stolen = -1  # the card given at the steal (OV9)
        self.known_discard = [set() for _ in range(n)]
        self.aside = list(self.cards)  # gathered, to be shuffled and dealt (OV2)
        self.placed = False
        self.revealed = False
        self.accused = self.thief = self.victim = -1
        self.judgment = ""
        self.shed_left = 0
        self.step = 0
        self._log("round", self.round, self.leader)
        nchars = len(game.characters)
        if self.rules.character_choice and self.round > 1:
            # OV22: players + 1 characters; choose by ascending points of the last round, ties in
            # seat order from the Leader
            self.offered = rng.sample(range(nchars), n + 1)
            last = [self.points[p][-1] for p in range(n)]
            self.queue = sorted(self.order(), key=lambda p: last[p])
            self._to(P_CHARACTER, self.queue[0])
            return
        self.chars = rng.sample(range(nchars), n)  # OV2: shuffled again each round, one each
        for p in range(n):
            self.held[p].add(self.chars[p])
        self._log("characters", tuple(self.chars))
        self._deal()

    def _deal(self) -> None:
        n = self.n
        pile = list(self.cards)
        self.rng.shuffle(pile)  # OV2: all the game's Vertu & Vice cards, shuffled each round
        for p in range(n):
            self.hands[p] = pile[p * DEALT:(p + 1) * DEALT]
        self.aside = pile[n * DEALT:]  # "mises de côté pour cette manche"
        self._log("deal", tuple(tuple(h) for h in self.hands))
        self._start_draft_step()

    def _start_draft_step(self) -> None:
        for p in range(self.n):
            self.seen[p].append(tuple(sorted(self.hands[p])))
        if len(self.hands[0]) == 1:  # OV3: the last card of a hand goes to its holder
            for p in range(self.n):
                self.kept[p].append(self.hands[p].pop())
                self._log("last_card", p, self.kept[p][-1])
            self.phase = P_DISCARD
            self.queue = self.order()
            self.player = self.queue[0]
            return
        self.phase = P_DRAFT
        self.queue = self.order()
        self.player = self.queue[0]

    def _direction(self) -> int:
        if self.rules.alternate_direction and self.round == 2:
            return -1  # variant: "Pour la seconde manche, donnez-le à votre voisin de droite"
        return 1  # left = the next seat (OV3)

    def _end_draft_step(self) -> None:
        n, d = self.n, self._direction()
        hands = [None] * n
        for p in range(n):
            hands[(p + d) % n] = self.hands[p]
        self.hands = hands
        self.step += 1
        self._start_draft_step()

    def _start_place(self) -> None:
        self.phase = P_PLACE
        self.queue = self.order()
        self.player = self.queue[0]

    def _end_place(self) -> None:
        self.placed = True  # the top rows are revealed together (OV5)
        self._log("tops", tuple(tuple(t) for t in self.top))
        spies = [p for p in self.order() if self.character(p).spy > 0]
        for p in spies:
            # OV14: never more looks than the other players' face-down cards (any figure plays)
            looks = min(self.character(p).spy,
                        sum(len(self.bottom[q]) for q in range(self.n) if q != p))
            self.spy_left[p] = looks
            self.cov.setdefault("power:espion", [0, 0])[0] += looks
        self.queue = spies
        self.phase = P_SPY
        self._next_spy()

    def _next_spy(self) -> None:
        while self.queue:
            p = self.queue[0]
            if any(self.bottom[q] for q in range(self.n) if q != p):
                self.player = p
                return
            self.queue.pop(0)
        self.phase = P_VOTE
        self.queue = self.order()
        self.player = self.queue[0]

    def _end_vote(self) -> None:
        n = self.n
        count = [0] * n
        for p in range(n):
            count[self.votes[p]] += self.character(p).vote  # OV13: the token's weight
        self._log("votes", tuple(self.votes), tuple(count))
        top = max(count)
        tied = [q for q in range(n) if count[q] == top]
        self._cov("vote_tie", len(tied) > 1)
        if len(tied) == 1:
            self._accuse(tied[0])
        else:  # OV6: the Leader chooses among the tied, themself included
            self.offered = tied
            self._to(P_VOTE_TIE, self.leader)

    def _accuse(self, q: int) -> None:
        self.offered = []
        self.accused = q
        weighted = self.game.weighted
        for p in range(self.n):
            if weighted[self.chars[p]]:  # OV13: a weighted vote token
                self._cov("power:vote", self.votes[p] == q)
        self._log("accused", q)
        self._to(P_JUDGE, q)

    def _judge(self, admit: bool) -> None:
        q = self.accused
        self.judgment = "admit" if admit else "deny"
        self._cov("admit", admit)
        self._cov("deny", not admit)
        if admit:
            scores = [self.score(p) for p in range(self.n)]
            self._cov("admit_not_best", scores[q] < max(scores))
        if self.character(q).admit != 2:
            self._cov("power:admettre", admit)
        self._log("judgment", q, self.judgment)
        if admit:
            self.shed_left = min(self.character(q).admit, len(self.cards_of(q)))  # OV7
            if self.shed_left > 0:
                self._to(P_SHED, q)
                return
        self._reveal()

    def _remove_card(self, p: int, k: int, *, to_discard: bool, public: bool = False) -> None:
        """Take ``k`` from ``p``'s rows; into the discard, face down (thrown by ``p``) unless
        ``public`` or taken from the top row (seen by everyone)."""
        if k in self.top[p]:
            self.top[p].remove(k)
            public = True
        else:
            self.bottom[p].remove(k)
        if to_discard:
            self.discard.append(k)
            self.discard_from.append(PUBLIC if public else p)

    def _reveal(self) -> None:
        self.revealed = True
        n = self.n
        scores = [self.score(p) for p in range(n)]
        self._log("reveal", tuple(tuple(sorted(self.cards_of(p))) for p in range(n)), tuple(scores))
        if self.judgment != "deny":
            self._start_steal()
            return
        q = self.accused
        best = max(scores)
        self.cov.setdefault("penalty", [0, 0])[0] += 1
        self.cov.setdefault("compensation", [0, 0])[0] += 1
        if scores[q] == best:
            if scores.count(best) == 1:
                self._penalize(q)
                self._start_steal()
            else:  # OV8: a tie for the best score is the Leader's call
                self._to(P_PENALTY, self.leader)
            return
        if self.discard:  # wrongly accused: one card of their choice from the discard
            self._to(P_TAKE, q)
        else:
            self._start_steal()

    def _penalize(self, q: int) -> None:
        """The greedy one loses the two cards whose loss costs the most points (OV8)."""
        cards = sorted(self.cards_of(q))
        ch = self.chars[q]
        if len(cards) <= PENALTY_CARDS:
            lost = cards
        else:
            best, lost = None, []
            for pair in combinations(cards, PENALTY_CARDS):
                rest = [k for k in cards if k not in pair]
                v = self.score_cards(rest, ch)
                if best is None or v < best:
                    best, lost = v, list(pair)
        self._use("penalty")
        for k in lost:
            self._remove_card(q, k, to_discard=True, public=True)
            for known in self.known_discard:
                known.add(k)  # face up when lost: everyone saw them
        self._log("penalty", q, tuple(lost))

    def _start_steal(self) -> None:
        n = self.n
        vol = self.game.vol
        real = [sum(1 for k in self.cards_of(p) if vol[k]) for p in range(n)]
        self.cov.setdefault("steal", [0, 0])[0] += 1
        if not any(real):  # "Si personne ne possède de carte Vol, alors cette phase est ignorée"
            self._count()
            return
        count = [real[p] + self.character(p).vol for p in range(n)]  # OV9
        top = max(count)
        tied = [p for p in range(n) if count[p] == top]
        self._cov("thief_tie", len(tied) > 1)
        for p in range(n):
            if self.character(p).vol:  # OV13: Vol cards counted in addition lift p to the top
                self._cov("power:vol", p in tied)
        if len(tied) == 1:
            self._set_thief(tied[0])
        else:
            self.offered = tied
            self._to(P_THIEF_TIE, self.leader)

    def _set_thief(self, p: int) -> None:
        self.offered = []
        self.thief = p
        self._log("thief", p)
        if any(self.cards_of(q) for q in range(self.n) if q != p):
            self._to(P_VICTIM, p)
        else:
            self._count()

    def _count(self) -> None:
        n = self.n
        scores = [self.score(p) for p in range(n)]
        colour = self.game.colour
        for p in range(n):
            self.points[p].append(scores[p])
            counted = self.counted[p]
            for k in self.cards_of(p):
                counted[colour[k]] += 1
            self.totals[p] += scores[p]
        self._log("count", self.round, tuple(scores))
        self._count_powers()
        low = min(scores)
        tied = [p for p in range(n) if scores[p] == low]
        if self.round >= ROUNDS:  # no round follows the third count: no successor to name
            self._finish()
            return
        self._cov("successor_tie", len(tied) > 1)
        if len(tied) == 1:
            self._next_round(tied[0])
        else:  # OV10: the Leader names the successor among the tied, themself included
            self.offered = tied
            self._to(P_SUCCESSOR, self.leader)

    def _count_powers(self) -> None:
        """Coverage of the colour powers at the count: did the bonus or the fixed figure count?"""
        value, colour, watched = self.game.value, self.game.colour, self.game.colour_power
        for p in range(self.n):
            if not watched[self.chars[p]]:
                continue
            ch = self.character(p)
            cards = [k for k in self.cards_of(p) if not (k == self.stolen and p == self.thief
                                                         and self.rules.stolen_value == "printed")]
            if any(ch.bonus):
                self._cov("power:bonus", any(ch.bonus[colour[k]] for k in cards))
            if any(ch.fixed):
                self._cov("power:fixe", self.score_cards(cards, self.chars[p])
                          > sum(value[k] + ch.bonus[colour[k]] for k in cards))

    def _next_round(self, leader: int) -> None:
        self.offered = []
        self.leader = leader
        if self.round >= ROUNDS:
            self._finish()
        else:
            self._start_round()

    def _finish(self) -> None:
        totals = self.totals
        best = max(totals)
        tied = [p for p in range(self.n) if totals[p] == best]
        winners = tied
        if len(tied) > 1:  # OV11: who never led a round; then a shared win
            never = [p for p in tied if p not in self.led]
            winners = never or tied
        self.winners = winners
        self._cov("end:alone", len(tied) == 1)
        if len(tied) > 1:  # OV11's tie-breaks can only come up in a tie for the highest total
            self._cov("end:never_led", len(winners) == 1)
            self._cov("end:shared", len(winners) > 1)
        self.phase = P_END
        self.player = TERMINAL
        self.ended_by = "rounds"
        self._log("end", tuple(totals), tuple(winners))
