"""Overseers, 3 to 6 players: the state of one game (OpenSpiel-shaped, like OVERKILL's).

Cards are small integers: ``0 … n-1`` index the Vertu & Vice cards of the box (copies expanded);
characters are indices into ``box.characters``. Seats are ``0 … players-1`` clockwise; the left
neighbour of seat ``p`` is ``p + 1`` (OV3).

Simultaneous choices (draft picks, discards, placements, votes) are sequential decisions taken in
seat order from the Leader; what one player chose stays out of the others' observations until the
step is over (and, for cards, until the reveal). Actions are integers ``kind * 1000 + argument``
(see the ``PICK`` … constants). Chance is sampled: the state owns a seeded ``random.Random``, so
``seed`` replays a game exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from cardbase.errors import CardbaseError
from cardbase.i18n import tr

from .material import Box, check_box, draw, groups
from .rules import ACTIONS, COLOURS, DEALT, PENALTY_CARDS, ROUNDS, SPLIT, Rules

# action kinds (action = kind * K + argument; every argument is below K, OV19)
K = ACTIONS
PICK, DISCARD, PLACE, SPY_ON, VOTE, CHOOSE, JUDGE, SHED, TAKE, VICTIM, GIVE, CHARACTER, PENALTY = (
    1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 8)
ADMIT, DENY = JUDGE * K, JUDGE * K + 1
PENALIZE, SPARE = PENALTY * K, PENALTY * K + 1

# phases
(P_CHARACTER, P_DRAFT, P_DISCARD, P_PLACE, P_SPY, P_VOTE, P_VOTE_TIE, P_JUDGE, P_SHED, P_PENALTY,
 P_TAKE, P_THIEF_TIE, P_VICTIM, P_GIVE, P_SUCCESSOR, P_END) = range(16)
PHASES = ("character", "draft", "discard", "place", "spy", "vote", "vote_tie", "judge", "shed",
          "penalty", "take", "thief_tie", "victim", "give", "successor", "end")
TERMINAL = -1
PUBLIC = -1  # discard_from: a card everyone saw going into the discard


class IllegalActionError(CardbaseError):
    """An action that is not legal in this state."""


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


class Game:
    """An Overseers box, a player count and the rules options; states are dealt from it."""

    min_players = 3
    max_players = 6

    def __init__(self, box: Box, players: int, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()
        bad = self.rules.problems()
        if bad:
            raise CardbaseError(tr("overseers.rules.bad", options=", ".join(bad)))
        if not self.min_players <= players <= self.max_players:
            raise CardbaseError(tr("overseers.rules.players", players=players))
        check_box(box, players, self.rules.character_choice)
        self.box = box
        self.num_players = players
        self.value = [c.value for c in box.cards]
        self.colour = [c.colour for c in box.cards]
        self.vol = [c.vol for c in box.cards]
        self.characters = box.characters
        # worth[ch][card]: what the card is worth to a holder of character ``ch`` (bonus included)
        self.worth = [[c.value + ch.bonus[c.colour] for c in box.cards] for ch in box.characters]
        self.by_colour = [[i for i, c in enumerate(box.cards) if c.colour == col]
                          for col in range(len(COLOURS))]
        # OV19: each card's entries and true number of copies, per colour; the Personnages'
        self.colour_groups = [[g for g in groups(box.cards) if box.cards[g[0][0]].colour == col]
                              for col in range(len(COLOURS))]
        self.character_groups = groups(box.characters)
        # the powers the coverage watches (OV13), per character
        self.colour_power = [any(ch.bonus) or any(ch.fixed) for ch in box.characters]
        self.weighted = [ch.vote != 1 for ch in box.characters]
        self.split = SPLIT[players]

    def new_state(self, seed: int | None = None, *, log: bool = True) -> State:
        return State(self, seed, log=log)

    def analytics(self, records: Sequence[Any]) -> dict[str, Any]:
        """The batch report's Overseers figures: ``leader`` and ``colours`` (see analysis.py)."""
        from .analysis import batch_figures

        return batch_figures(records, self.num_players)

    def analytics_text(self, figures: dict[str, Any]) -> list[str]:
        from .analysis import figures_text

        return figures_text(figures)

    def make_bot(self, name: str, seed: int | None = None) -> Any:
        """Overseers' own bots: ``belief`` (OV18); ``None`` for the generic ones."""
        if name.strip().lower() == "belief":
            from .bots import BeliefBot

            return BeliefBot(seed=seed)
        return None


def _masks(n: int, sizes: tuple[int, ...]) -> list[int]:
    return [m for m in range(1 << n) if bin(m).count("1") in sizes]


_MASKS: dict[tuple[int, tuple[int, ...]], list[int]] = {}


def place_masks(n: int, sizes: tuple[int, ...]) -> list[int]:
    key = (n, sizes)
    m = _MASKS.get(key)
    if m is None:
        m = _MASKS[key] = _masks(n, sizes)
    return m


class State:
    """One Overseers game in progress. Mutable; :meth:`clone` is a cheap hand-written copy."""

    __slots__ = (
        "accused",
        "aside",
        "bottom",
        "cards",
        "chars",
        "counted",
        "cov",
        "discard",
        "discard_from",
        "ended_by",
        "events",
        "game",
        "hands",
        "held",
        "history",
        "judgment",
        "kept",
        "known_discard",
        "leader",
        "leaders",
        "led",
        "looked",
        "n",
        "offered",
        "peeks",
        "phase",
        "placed",
        "player",
        "points",
        "queue",
        "revealed",
        "rng",
        "round",
        "rules",
        "seed",
        "seen",
        "shed_left",
        "spy_left",
        "step",
        "stolen",
        "thief",
        "top",
        "totals",
        "turns",
        "victim",
        "votes",
        "winners",
    )

    def __init__(self, game: Game, seed: int | None, *, log: bool = True) -> None:
        self.game = game
        self.rules = game.rules
        if seed is None:
            seed = random.randrange(2**63)
        self.seed = seed
        self.rng = rng = random.Random(seed)
        n = self.n = game.num_players
        self.history: list[int] = []
        self.events: list[tuple] | None = [] if log else None
        self.ended_by = ""
        self.turns = 0
        self.winners: list[int] = []
        self.points: list[list[int]] = [[] for _ in range(n)]
        self.totals = [0] * n
        self.held: list[set[int]] = [set() for _ in range(n)]
        self.counted = [[0] * len(COLOURS) for _ in range(n)]  # cards of each colour counted
        self.cov: dict[str, list[int]] = {}  # rule coverage: key -> [occasions, used]
        # OV1: the cards of each colour used at this player count, taken once for the game (drawn
        # among every copy of the box, OV19)
        cards: list[int] = []
        for col, name in enumerate(COLOURS):
            need = game.split[name]
            if self.rules.split == "random":
                cards.extend(draw(rng, game.colour_groups[col], need))
            else:
                cards.extend(game.by_colour[col][:need])
        self.cards = sorted(cards)
        self.leader = rng.randrange(n)  # OV15: "donnez la carte … de Leader à un joueur aléatoirement"
        self.led: set[int] = set()
        self.leaders: list[int] = []  # the Leader of each round played
        self.round = 0
        self._log("setup", tuple(self.cards), self.leader)
        self._start_round()

    # ------------------------------------------------------------------ copying

    def clone(self, *, log: bool = False) -> State:
        s = State.__new__(State)
        s.game, s.rules, s.seed, s.n = self.game, self.rules, self.seed, self.n
        s.rng = random.Random()
        s.rng.setstate(self.rng.getstate())
        s.round, s.leader, s.led = self.round, self.leader, set(self.led)
        s.leaders = self.leaders[:]
        s.phase, s.player, s.queue = self.phase, self.player, self.queue[:]
        s.chars, s.offered = self.chars[:], self.offered[:]
        s.held = [set(h) for h in self.held]
        s.cards, s.aside = self.cards, self.aside[:]
        s.hands = [h[:] for h in self.hands]
        s.kept = [h[:] for h in self.kept]
        s.seen = [h[:] for h in self.seen]
        s.step = self.step
        s.discard = self.discard[:]
        s.discard_from = self.discard_from[:]
        s.looked, s.stolen = self.looked, self.stolen
        s.known_discard = [set(k) for k in self.known_discard]
        s.top = [h[:] for h in self.top]
        s.bottom = [h[:] for h in self.bottom]
        s.placed = self.placed
        s.peeks = [h[:] for h in self.peeks]
        s.spy_left = self.spy_left[:]
        s.votes = self.votes[:]
        s.accused, s.judgment, s.shed_left = self.accused, self.judgment, self.shed_left
        s.revealed, s.thief, s.victim = self.revealed, self.thief, self.victim
        s.points = [h[:] for h in self.points]
        s.totals = self.totals[:]
        s.history = self.history[:]
        s.events = self.events[:] if (log and self.events is not None) else None
        s.ended_by, s.turns, s.winners = self.ended_by, self.turns, self.winners[:]
        s.counted = [c[:] for c in self.counted]
        s.cov = {k: v[:] for k, v in self.cov.items()}
        return s

    # ------------------------------------------------------------------ the interface

    @property
    def num_players(self) -> int:
        return self.n

    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def order(self) -> list[int]:
        """Seats from the Leader, clockwise: the order of simultaneous decisions (OV3)."""
        n, lead = self.n, self.leader
        return [(lead + i) % n for i in range(n)]

    def character(self, p: int):
        return self.game.characters[self.chars[p]]

    def cards_of(self, p: int) -> list[int]:
        """The player's cards: kept (draft), then placed in the two rows (one of them is empty)."""
        return self.kept[p] + self.top[p] + self.bottom[p]

    def score_cards(self, cards: Sequence[int], ch: int) -> int:
        """Points of ``cards`` for a holder of character ``ch`` (OV8, OV13)."""
        worth = self.game.worth[ch]
        total = 0
        for k in cards:
            total += worth[k]
        fixed = self.game.characters[ch].fixed
        if any(fixed):
            colour = self.game.colour
            for col, figure in enumerate(fixed):
                if figure:
                    low = [worth[k] for k in cards if colour[k] == col]
                    if low:
                        total += max(0, figure - min(low))
        return total

    def score(self, p: int) -> int:
        cards = self.cards_of(p)
        k = self.stolen
        if k >= 0 and p == self.thief and self.rules.stolen_value == "printed" and k in cards:
            # OV9: "la carte retrouve sa valeur d'origine entre les mains du voleur"
            return self.score_cards([c for c in cards if c != k], self.chars[p]) + self.game.value[k]
        return self.score_cards(cards, self.chars[p])

    # ------------------------------------------------------------------ rule coverage

    def _cov(self, key: str, used: bool) -> None:
        slot = self.cov.get(key)
        if slot is None:
            slot = self.cov[key] = [0, 0]
        slot[0] += 1
        if used:
            slot[1] += 1

    def _use(self, key: str) -> None:
        slot = self.cov.setdefault(key, [0, 0])
        slot[1] += 1

    def coverage(self) -> dict[str, list[int]]:
        """Each rule's ``[occasions, used]`` so far (keys named in ``rulings.COVERAGE``)."""
        return {k: v[:] for k, v in sorted(self.cov.items())}

    def legal_actions(self, player: int | None = None) -> list[int]:
        p = self.player
        if p == TERMINAL or (player is not None and player != p):
            return []
        ph = self.phase
        if ph == P_DRAFT:
            return [PICK * K + k for k in sorted(self.hands[p])]
        if ph == P_DISCARD:
            return [DISCARD * K + k for k in sorted(self.kept[p])]
        if ph == P_PLACE:
            ch = self.character(p)
            sizes = (2, 3) if ch.bottom == 3 else (2,)
            return [PLACE * K + m for m in place_masks(len(self.kept[p]), sizes)]
        if ph == P_SPY:
            return [SPY_ON * K + q for q in range(self.n) if q != p and self.bottom[q]]
        if ph == P_VOTE:
            return [VOTE * K + q for q in range(self.n) if q != p]
        if ph in (P_VOTE_TIE, P_THIEF_TIE, P_SUCCESSOR):
            return [CHOOSE * K + q for q in self.offered]
        if ph == P_JUDGE:
            return [ADMIT, DENY]
        if ph == P_SHED:
            return [SHED * K + k for k in sorted(self.cards_of(p))]
        if ph == P_PENALTY:
            return [PENALIZE, SPARE]
        if ph == P_TAKE:
            return [TAKE * K + k for k in sorted(self.discard)]
        if ph == P_VICTIM:
            return [VICTIM * K + q for q in range(self.n) if q != p and self.cards_of(q)]
        if ph == P_GIVE:
            return [GIVE * K + k for k in sorted(self.cards_of(p))]
        if ph == P_CHARACTER:
            return [CHARACTER * K + c for c in sorted(self.offered)]
        return []

    def _is_legal(self, p: int, action: int) -> bool:
        kind, arg = divmod(action, K)
        ph = self.phase
        if ph == P_DRAFT:
            return kind == PICK and arg in self.hands[p]
        if ph == P_DISCARD:
            return kind == DISCARD and arg in self.kept[p]
        if ph == P_VOTE:
            return kind == VOTE and 0 <= arg < self.n and arg != p
        if ph == P_PLACE:
            return (kind == PLACE and arg < 1 << len(self.kept[p])
                    and arg.bit_count() in ((2, 3) if self.character(p).bottom == 3 else (2,)))
        return action in self.legal_actions()

    def apply_action(self, action: int) -> None:
        p = self.player
        if p == TERMINAL:
            raise IllegalActionError(tr("overseers.illegal.over"))
        if not self._is_legal(p, action):
            raise IllegalActionError(tr("overseers.illegal.action", player=p + 1,
                                        action=self.action_to_string(action),
                                        legal=", ".join(self.action_to_string(a)
                                                        for a in self.legal_actions())))
        self.history.append(action)
        self.turns += 1
        arg = action % K
        ph = self.phase
        if ph == P_DRAFT:
            self.hands[p].remove(arg)
            self.kept[p].append(arg)
            self._log("pick", p, arg)
            self._next_in_step(self._end_draft_step)
        elif ph == P_DISCARD:
            self.kept[p].remove(arg)
            self.discard.append(arg)
            self.discard_from.append(p)
            self.known_discard[p].add(arg)
            self._log("discard", p, arg)
            self._next_in_step(self._start_place)
        elif ph == P_PLACE:
            if self.character(p).bottom == 3:
                self._cov("power:rangee_bas", arg.bit_count() == 3)
            cards = sorted(self.kept[p])
            self.bottom[p] = [k for i, k in enumerate(cards) if arg >> i & 1]
            self.top[p] = [k for i, k in enumerate(cards) if not arg >> i & 1]
            self.kept[p] = []
            self._log("place", p, tuple(self.top[p]), tuple(self.bottom[p]))
            self._next_in_step(self._end_place)
        elif ph == P_SPY:
            seen = self.rng.choice(sorted(self.bottom[arg]))  # OV14: one face-down card at random
            self.peeks[p].append((arg, seen))
            self._use("power:espion")
            self._log("spy", p, arg, seen)
            self.spy_left[p] -= 1
            if self.spy_left[p] <= 0:
                self.queue.pop(0)
            self._next_spy()
        elif ph == P_VOTE:
            self.votes[p] = arg
            self._next_in_step(self._end_vote)
        elif ph == P_VOTE_TIE:
            if p in self.offered:  # the Leader among the tied may name themself
                self._cov("leader_self:vote", arg == p)
            self._log("leader_choice", "vote", p, arg)
            self._accuse(arg)
        elif ph == P_JUDGE:
            self._judge(action == ADMIT)
        elif ph == P_SHED:
            public = arg in self.top[p]
            self._remove_card(p, arg, to_discard=True)
            for q, known in enumerate(self.known_discard):
                if public or q == p:  # a top-row card was seen leaving; a bottom one was not
                    known.add(arg)
            self._log("shed", p, arg)
            self.shed_left -= 1
            if self.shed_left <= 0 or not self.cards_of(p):
                self._reveal()
        elif ph == P_PENALTY:
            self._cov("leader_penalty", action == PENALIZE)
            self._log("leader_choice", "penalty", p, action == PENALIZE)
            if action == PENALIZE:
                self._penalize(self.accused)
            self._start_steal()
        elif ph == P_TAKE:
            self.known_discard[p].update(self.discard)  # OV8: the taker looks through the discard
            self.looked = p
            i = self.discard.index(arg)
            del self.discard[i], self.discard_from[i]
            self._use("compensation")
            for known in self.known_discard:
                known.discard(arg)
            self.top[p].append(arg)
            self._log("take", p, arg)
            self._start_steal()
        elif ph == P_THIEF_TIE:
            if p in self.offered:  # the Leader among the tied may name themself
                self._cov("leader_self:thief", arg == p)
            self._log("leader_choice", "thief", p, arg)
            self._set_thief(arg)
        elif ph == P_VICTIM:
            self.victim = arg
            self._log("victim", p, arg)
            self._to(P_GIVE, arg)
        elif ph == P_GIVE:
            self._remove_card(p, arg, to_discard=False)
            self.top[self.thief].append(arg)
            self.stolen = arg  # OV9: worth its printed value to the thief (option stolen_value)
            self._use("steal")
            self._cov("stolen_value", self.game.worth[self.chars[self.thief]][arg] != self.game.value[arg]
                      or self.game.worth[self.chars[p]][arg] != self.game.value[arg])
            self._log("give", p, self.thief, arg)
            self._count()
        elif ph == P_SUCCESSOR:
            if p in self.offered:  # the Leader among the tied may name themself
                self._cov("leader_self:successor", arg == p)
            self._log("leader_choice", "successor", p, arg)
            self._next_round(arg)
        elif ph == P_CHARACTER:
            self.offered.remove(arg)
            self.chars[p] = arg
            self.held[p].add(arg)
            self._log("character", p, arg)
            self.queue.pop(0)
            if self.queue:
                self.player = self.queue[0]
            else:
                self.offered = []
                self._deal()

    # ------------------------------------------------------------------ steps

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

    # ------------------------------------------------------------------ results

    def scores(self) -> list[int]:
        return self.totals[:]

    def returns(self) -> list[float]:
        """+1 to each winner (a shared win gives +1 to each), 0 to the others (OV11)."""
        if self.player != TERMINAL:
            return [0.0] * self.n
        w = set(self.winners)
        return [1.0 if p in w else 0.0 for p in range(self.n)]

    def greedy_action(self) -> int:
        """The greedy heuristic's choice for the player to act (see :mod:`.bots`)."""
        from .bots import greedy_action

        return greedy_action(self)

    def play_greedy(self) -> State:
        from .bots import greedy_action

        while self.player != TERMINAL:
            self.apply_action(greedy_action(self))
        return self

    def heuristic(self, player: int) -> float:
        return float(self.totals[player] - max(self.totals[q] for q in range(self.n) if q != player))

    def held_cards(self, seat: int) -> set[str]:
        """Refs of the characters the seat played, any round (a card's impact is a character's)."""
        chars = self.game.characters
        return {chars[c].ref for c in self.held[seat]}

    def record_facts(self) -> tuple:
        """What a batch keeps of a finished game: the first Leader and each seat's colour counts."""
        return (self.leaders[0] if self.leaders else -1, tuple(tuple(c) for c in self.counted))

    # ------------------------------------------------------------------ hidden information

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

    # ------------------------------------------------------------------ text

    def _seat(self, q: int) -> str:
        return tr("overseers.seat", seat=q + 1)

    def _card(self, k: int) -> str:
        cards = self.game.box.cards
        if not 0 <= k < len(cards):
            return "?"
        c = cards[k]
        return tr("overseers.card", name=c.name, value=c.value)

    def action_to_string(self, action: int) -> str:
        kind, arg = divmod(action, K)
        if action == ADMIT:
            return tr("overseers.action.admit")
        if action == DENY:
            return tr("overseers.action.deny")
        if action == PENALIZE:
            return tr("overseers.action.penalize", seat=self._seat(self.accused))
        if action == SPARE:
            return tr("overseers.action.spare", seat=self._seat(self.accused))
        if kind in (PICK, DISCARD, SHED, TAKE, GIVE):
            key = {PICK: "overseers.action.pick", DISCARD: "overseers.action.discard",
                   SHED: "overseers.action.shed", TAKE: "overseers.action.take",
                   GIVE: "overseers.action.give"}[kind]
            return tr(key, card=self._card(arg))
        if kind == PLACE:
            p = self.player if self.player >= 0 else 0
            cards = sorted(self.kept[p]) if not self.placed else []
            down = [self._card(k) for i, k in enumerate(cards) if arg >> i & 1]
            up = [self._card(k) for i, k in enumerate(cards) if not arg >> i & 1]
            return tr("overseers.action.place", up=", ".join(up) or "?", down=", ".join(down) or "?")
        if kind in (SPY_ON, VOTE, CHOOSE, VICTIM) and 0 <= arg < self.n:
            key = {SPY_ON: "overseers.action.spy", VOTE: "overseers.action.vote",
                   CHOOSE: "overseers.action.choose", VICTIM: "overseers.action.victim"}[kind]
            return tr(key, seat=self._seat(arg))
        if kind == CHARACTER and 0 <= arg < len(self.game.characters):
            return tr("overseers.action.character", name=self.game.characters[arg].name)
        return tr("overseers.action.unknown", action=action)

    def _log(self, *event: Any) -> None:
        if self.events is not None:
            self.events.append(event)

    def __str__(self) -> str:
        rows = [tr("overseers.text.header", round=self.round, leader=self.leader + 1,
                   phase=PHASES[self.phase])]
        chars = self.game.characters
        for p in range(self.n):
            name = chars[self.chars[p]].name if self.chars[p] >= 0 else "?"
            cards = " ".join(self._card(k) for k in sorted(self.cards_of(p)))
            rows.append(f"{self._seat(p)} ({name}) : {cards}")
        return "\n".join(rows)


def replay(game: Game, seed: int, actions: Sequence[int]) -> State:
    """Play ``actions`` from the deal of ``seed``; the result has the same event log."""
    s = game.new_state(seed)
    for a in actions:
        s.apply_action(a)
    return s
