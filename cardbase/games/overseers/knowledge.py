"""What a seat knows in an Overseers game: its observation, its belief about hidden cards, and a
resample of the state consistent with it (a mixin of :class:`.state.State`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .actions import (
    P_CHARACTER,
    P_DISCARD,
    P_DRAFT,
    P_PLACE,
    P_SPY,
    P_TAKE,
    P_VOTE,
    PHASES,
    PUBLIC,
    TERMINAL,
)

if TYPE_CHECKING:
    from .state import State


@dataclass(slots=True, frozen=True)
class Observation:
    """What one player knows. Cards are box indices; ``None`` marks what is hidden from them."""

    player: int
    current_player: int
    round: int
    phase: str
    leader: int
    led: tuple[int, ...]  # seats that have led a round (the final tie-break, OV11)
    characters: tuple[int, ...]  # each seat's character this round (-1 before the choice)
    offered: tuple[int, ...]  # characters still to choose from (variant, OV22)
    hand: tuple[int, ...]  # the draft hand in front of the player
    kept: tuple[int, ...]  # the player's own cards (draft picks, then the placed cards)
    seen: tuple[tuple[int, ...], ...]  # every draft hand the player has seen this round
    tops: tuple[tuple[int, ...] | None, ...]  # top rows once everyone has placed
    bottoms: tuple[int | tuple[int, ...], ...]  # own bottom row; others': how many cards
    peeks: tuple[tuple[int, int], ...]  # (seat, card) seen with a spy power this round
    my_vote: int
    votes: tuple[int, ...] | None  # everyone's vote once all have voted
    accused: int
    judgment: str
    table: tuple[tuple[int, ...], ...] | None  # every player's cards after the reveal
    discard_size: int
    known_discard: tuple[int, ...]  # the cards of the discard the player knows
    thief: int
    victim: int
    my_points: tuple[int, ...]  # own points per finished round (tokens face down, OV10)
    totals: tuple[int, ...] | None  # everyone's total, at the end only
    terminal: bool


class Knowledge:
    """Observation, belief and resample, as methods of the state."""

    __slots__ = ()

    def observation(self, player: int) -> Observation:
        n, p = self.n, player
        terminal = self.player == TERMINAL
        if self.placed:
            tops = tuple(tuple(sorted(self.top[q])) for q in range(n))
            bottoms = tuple(tuple(sorted(self.bottom[q])) if q == p else len(self.bottom[q])
                            for q in range(n))
        else:  # before everyone has placed, only one's own rows are known (OV5)
            tops = tuple((tuple(sorted(self.top[q])) if self.top[q] else None) if q == p else None
                         for q in range(n))
            bottoms = tuple(tuple(sorted(self.bottom[q])) if q == p else 0 for q in range(n))
        everyone_voted = self.phase not in (P_VOTE, P_SPY, P_PLACE, P_DISCARD, P_DRAFT, P_CHARACTER)
        return Observation(
            player=p, current_player=self.player, round=self.round, phase=PHASES[self.phase],
            leader=self.leader, led=tuple(sorted(self.led)), characters=tuple(self.chars),
            offered=tuple(sorted(self.offered)) if self.phase == P_CHARACTER else (),
            hand=tuple(sorted(self.hands[p])) if self.phase == P_DRAFT else (),
            kept=tuple(sorted(self.cards_of(p))), seen=tuple(self.seen[p]), tops=tops,
            bottoms=bottoms, peeks=tuple(self.peeks[p]), my_vote=self.votes[p],
            votes=tuple(self.votes) if everyone_voted else None, accused=self.accused,
            judgment=self.judgment,
            table=tuple(tuple(sorted(self.cards_of(q))) for q in range(n)) if self.revealed else None,
            discard_size=len(self.discard),
            known_discard=tuple(sorted(k for k in self.known_discard[p] if k in self.discard)),
            thief=self.thief, victim=self.victim, my_points=tuple(self.points[p]),
            totals=tuple(self.totals) if terminal else None, terminal=terminal,
        )

    def belief(self, player: int) -> dict[int, frozenset[int]]:
        """Where ``player`` knows each card it saw in the draft, and does not hold, must be.

        A card last seen in the hand ``player`` passed at step ``t`` went on in that hand: it was
        picked (or is still held) by the player ``j`` seats further in the passing direction,
        with ``1 <= j <= min(step - t, n - 1)`` — had it gone round to ``player`` again, it would
        have been seen again (OV16). The answer maps such a card to the seats that may have
        drafted it; a seat's drafted cards are its hand, kept cards, rows and what it threw into
        the discard. Cards never seen are not in the map: they may be anywhere hidden, the set
        aside included. Empty once everything is revealed.
        """
        if self.revealed or self.player == TERMINAL:
            return {}
        n, d = self.n, self._direction()
        last: dict[int, int] = {}
        for t, hand in enumerate(self.seen[player]):
            for k in hand:
                last[k] = t
        mine = set(self.hands[player]) | set(self.kept[player]) | set(self.top[player])
        mine |= set(self.bottom[player]) | self.known_discard[player]
        out: dict[int, frozenset[int]] = {}
        for k, t in last.items():
            if k in mine:
                continue
            reach = min(self.step - t, n - 1)
            out[k] = frozenset((player + j * d) % n for j in range(1, reach + 1))
        return out

    def resample(self, player: int, rng: random.Random) -> State:
        """A clone where what ``player`` cannot know is drawn again, consistently with its belief.

        The result depends only on what ``player`` knows and on ``rng`` (OV16): two states that
        ``player`` cannot tell apart give the same world for the same ``rng``. Drawn again:

        - the other players' draft hands and kept cards, their bottom rows (except a card seen
          with a spy power, while its seat has thrown no face-down card), the cards set aside and
          the unknown part of the discard. A card ``player`` saw in the draft is dealt only to a
          seat :meth:`belief` allows (in the discard: only among the cards that seat threw), never
          set aside; the cards never seen go anywhere hidden. The deal is a random matching of
          cards to places, mixed by random allowed swaps;
        - the votes already cast while the vote is on (OV6), uniformly among the legal ones;
        - the rows of the players who placed while the placement is on, the Menteur's choice of
          two or three face-down cards included (OV5);
        - what the other spies looked at (OV14), and what the others saw in the draft (their
          ``seen`` becomes empty hands: the world does not model their memory) and know of the
          discard (their own cards and the public ones, in the new deal).

        Characters, top rows once placed, the accused and the judgment, the table after the reveal,
        everyone's points (each reveal shows every card, OV10) stay. The clone gets a fresh seed
        and random generator from ``rng`` and no history (it is not a replay of the game).
        """
        s = self.clone()
        seed = rng.getrandbits(64)
        s.rng = random.Random(seed)
        s.seed = seed
        s.history = []
        n = self.n
        hidden = not (self.revealed or self.player == TERMINAL)
        others = [q for q in range(n) if q != player]
        for q in others:
            s.seen[q] = [()] * len(self.seen[q])
        if self.phase == P_VOTE:  # OV6: nobody sees a vote before all have voted
            for q in others:
                if s.votes[q] >= 0:
                    s.votes[q] = rng.choice([r for r in range(n) if r != q])
        if self.phase == P_PLACE:  # OV5: the rows are revealed once everyone has placed
            for q in others:
                if s.top[q] or s.bottom[q]:
                    mixed = sorted(s.top[q] + s.bottom[q])
                    size = rng.choice((2, 3)) if self.character(q).bottom == 3 else 2
                    s.bottom[q], s.top[q] = mixed[:size], mixed[size:]

        allowed = dict(self.belief(player))
        seen = {k for hand in self.seen[player] for k in hand}
        pinned: set[int] = set()
        if hidden:
            for r, k in self.peeks[player]:
                if self.discard_from.count(r) <= 1:  # r threw no face-down card since (OV7)
                    pinned.add(k)
                else:  # r may have thrown it away: it is in r's bottom row or among r's discards
                    allowed[k] = frozenset((r,))
                    seen.add(k)
        ASIDE = -2
        slots: list[tuple[list[int], int]] = []
        owner: list[int] = []
        cards: list[int] = []
        if hidden:
            for q in others:
                lists = (s.bottom[q],) if s.placed else (s.hands[q], s.kept[q], s.top[q], s.bottom[q])
                for lst in lists:
                    keep = sorted(k for k in lst if k in pinned)
                    cards.extend(k for k in lst if k not in pinned)
                    lst[:] = keep + [-1] * (len(lst) - len(keep))
                    for i in range(len(keep), len(lst)):
                        slots.append((lst, i))
                        owner.append(q)
        known = self.known_discard[player]
        if self.phase == P_TAKE and self.player == player:
            known = set(self.discard)  # the taker is looking through the discard (OV8)
        for i, k in enumerate(s.discard):
            if k not in known:
                slots.append((s.discard, i))
                owner.append(s.discard_from[i])
                cards.append(k)
        for i, k in enumerate(s.aside):
            slots.append((s.aside, i))
            owner.append(ASIDE)
            cards.append(k)
        cards.sort()

        def fits(k: int, o: int) -> bool:
            if o == ASIDE:
                return k not in seen  # a card seen in the draft was not set aside
            a = allowed.get(k)
            return a is None or o in a

        # the seen cards first, by augmenting paths (a matching exists: the true deal is one)
        m = len(slots)
        at: list[int] = [-1] * m  # slot -> index in ``cards``
        order = list(range(m))
        rng.shuffle(order)
        constrained = [c for c in range(len(cards)) if cards[c] in seen]
        rng.shuffle(constrained)

        def place(c: int, visited: set[int]) -> bool:
            k = cards[c]
            for j in order:
                if j in visited or not fits(k, owner[j]):
                    continue
                visited.add(j)
                if at[j] < 0 or place(at[j], visited):
                    at[j] = c
                    return True
            return False

        for c in constrained:
            if not place(c, set()):  # pragma: no cover - impossible: the true deal fits
                raise RuntimeError("inconsistent belief")
        free = [c for c in range(len(cards)) if cards[c] not in seen]
        rng.shuffle(free)
        it = iter(free)
        for j in range(m):
            if at[j] < 0:
                at[j] = next(it)
        # mix: random swaps that keep every card where it may be
        for _ in range(2 * m):
            a, b = rng.randrange(m), rng.randrange(m)
            ka, kb = cards[at[a]], cards[at[b]]
            if fits(ka, owner[b]) and fits(kb, owner[a]):
                at[a], at[b] = at[b], at[a]
        for j, (lst, i) in enumerate(slots):
            lst[i] = cards[at[j]]
        s.aside.sort()
        if hidden:
            for q in others:
                for lst in (s.hands[q], s.kept[q], s.top[q], s.bottom[q]):
                    lst.sort()
        # what the others know of the discard: their own face-down cards and the public ones
        for q in others:
            if q == self.looked or (self.phase == P_TAKE and self.player == q):
                s.known_discard[q] = set(s.discard)
            else:
                s.known_discard[q] = {k for k, o in zip(s.discard, s.discard_from) if o in (PUBLIC, q)}
        # what the other spies looked at (OV14): a card of a bottom row, drawn again
        for q in others:
            if self.peeks[q]:
                looks = []
                for _ in self.peeks[q]:
                    targets = [r for r in range(n) if r != q and s.bottom[r]]
                    if targets:
                        r = rng.choice(targets)
                        looks.append((r, rng.choice(sorted(s.bottom[r]))))
                s.peeks[q] = looks
        return s
