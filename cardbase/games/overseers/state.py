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
from typing import Any

from cardbase.errors import CardbaseError
from cardbase.games import frame
from cardbase.games.frame import IllegalActionError, replay  # noqa: F401 - one for every game
from cardbase.i18n import tr

from .actions import (  # noqa: F401 - the codes, re-exported
    ADMIT,
    CHARACTER,
    CHOOSE,
    DENY,
    DISCARD,
    GIVE,
    JUDGE,
    P_CHARACTER,
    P_DISCARD,
    P_DRAFT,
    P_END,
    P_GIVE,
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
    PENALIZE,
    PENALTY,
    PHASES,
    PICK,
    PLACE,
    PUBLIC,
    SHED,
    SPARE,
    SPY_ON,
    TAKE,
    TERMINAL,
    VICTIM,
    VOTE,
    K,
)
from .flow import RoundFlow
from .knowledge import Knowledge, Observation  # noqa: F401 - re-exported
from .material import Box, check_box, draw, groups
from .rules import COLOURS, SPLIT, Rules


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
        return frame.analytics(self, records)

    def analytics_text(self, figures: dict[str, Any]) -> list[str]:
        return frame.analytics_text(self, figures)

    def make_bot(self, name: str, seed: int | None = None) -> Any:
        """Overseers' own bots: ``belief`` (OV18); ``None`` for the generic ones."""
        return frame.own_bot(self, name, seed)


def _masks(n: int, sizes: tuple[int, ...]) -> list[int]:
    return [m for m in range(1 << n) if bin(m).count("1") in sizes]


_MASKS: dict[tuple[int, tuple[int, ...]], list[int]] = {}


def place_masks(n: int, sizes: tuple[int, ...]) -> list[int]:
    key = (n, sizes)
    m = _MASKS.get(key)
    if m is None:
        m = _MASKS[key] = _masks(n, sizes)
    return m


class State(RoundFlow, Knowledge):
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
        """The greedy heuristic's choice for the player to act (:mod:`.bots`, through the frame)."""
        return frame.greedy(self)

    def play_greedy(self) -> State:
        return frame.play_greedy(self)

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
