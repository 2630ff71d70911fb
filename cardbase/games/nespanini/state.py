"""NesPanini rules engine: a :class:`Game` (decks and card table) and its mutable :class:`State`.

The interface follows the OpenSpiel shape so the bots work on any game that speaks it:
``current_player``, ``legal_actions``, ``apply_action``, ``is_terminal``, ``scores``, ``returns``,
``clone``, ``observation`` and ``resample``.

Cards are integers (indices into :class:`CardTable`); an action is an integer too. At the
step-2 discard an action is the kind of the card to discard (two copies of the same card are one
action). Choices inside a Défausse effect are actions as well (see :mod:`cardbase.games.effects.resolve`), so a human, a
bot and a replay all drive the game through :meth:`State.apply_action`.

Decks keep their top card at the end of the list (``deck.pop()`` draws). The rulings for what the
rules leave open are in ``docs/rulings/nespanini.md``; the constants below name them.
"""

from __future__ import annotations

import _random
import random
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardbase.domain import CardDef
from cardbase.errors import CardbaseError
from cardbase.games import frame
from cardbase.games.frame import IllegalActionError, replay  # noqa: F401 - one for every game
from cardbase.games.shuffles import deal, shuffle
from cardbase.i18n import tr

from .cards import CardTable
from cardbase.games.effects.resolve import (
    COV_EFFECT,
    EFFECT_KINDS,
    apply_decision,
    decision_action_to_string,
    decision_actions,
    decision_view,
    start_effect,
)

HAND_SIZE = 5
TURNS_PER_PLAYER = 5  # the Cimetière ends the game at 5 discards per player (10 for two players)
TURN_LIMIT = 60  # ruling R6: a safety net against effects that keep emptying the Cimetière
STALEMATE_ROUNDS = 10  # ruling R10: rounds without a new Cimetière maximum that end a game (0: off)
ENDINGS = ("cimetiere", "empty-deck", "unreachable", "stalled", "turn-limit", "turns")  # State.ended_by
# ruling R1 (docs/rulings/nespanini.md): what ends a game — the Cimetière holding 10 cards (the
# default), each player having played 5 turns, or whichever comes first
END_RULES = ("cimetiere", "turns", "first")
# ruling R9: what the search bots know of the opponent's deck — its exact list (public, the
# default), or only the card pool (hidden: a re-deal draws the unseen cards from the pool)
DECK_LISTS = ("public", "hidden")
# rule coverage (State.coverage): the counters of State.cov, in order. Step 2: decisions, Défausse
# card discardable, Défausse card discarded, Légendaire card in hand, R4; then per Défausse
# action kind: resolved, did something.
EFFECT_KEYS = ("draw", "look", "recover", "swap", "force_discard", "reveal", "bury")
COV_STEP, COV_DEF_OCC, COV_DEF_USED, COV_LEG, COV_R4 = 0, 1, 2, 3, 4
COV_SIZE = 5 + 2 * len(EFFECT_KINDS)
TERMINAL = -4  # OpenSpiel's terminal player id


class _LocalRng(threading.local):
    def __init__(self) -> None:
        self.rng = random.Random()


_RNG = _LocalRng()  # one generator per thread, re-seeded for every deal
# what random.Random.seed does with an int seed: the C generator's own seeding (its other
# work concerns str / bytes seeds and gauss(), never used here)
_SEED_INT = _random.Random.seed


@dataclass(slots=True, frozen=True)
class CardScore:
    """One card of a final hand with its part of the score."""

    card: CardDef
    value: int
    bonus: int

    @property
    def points(self) -> int:
        return self.value + self.bonus


@dataclass(slots=True, frozen=True)
class Observation:
    """What one player can see: own hand, both discards, the sizes of what is hidden."""

    player: int
    current_player: int
    hand: tuple[CardDef, ...]
    discards: tuple[tuple[CardDef, ...], ...]
    deck_sizes: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    revealed: tuple[tuple[CardDef, ...], ...]  # opponent cards known to be in their hand
    cimetiere: int
    decision: str  # "discard" or the name of the effect choice being made
    choices: tuple[CardDef, ...]  # cards offered by the pending effect choice (own choice only)
    terminal: bool


class Zones:
    """The zones a score effect looks at, from one player's side, as CardDef sequences."""

    __slots__ = ("cimetiere", "deck", "discards", "hand", "opponent_discards")

    def __init__(self, hand, discards, opponent_discards, deck) -> None:
        self.hand = hand
        self.discards = discards
        self.opponent_discards = opponent_discards
        self.cimetiere = tuple(discards) + tuple(opponent_discards)
        self.deck = deck


class Game:
    """A NesPanini game definition: one deck (goldfish) or two (duel), compiled once.

    ``Game`` is immutable and picklable; :meth:`new_state` deals a fresh game from a seed.
    """

    def __init__(
        self,
        decks: Sequence[Sequence[CardDef]],
        *,
        table: CardTable | None = None,
        compile_effects: bool = True,
        stalemate_rounds: int = STALEMATE_ROUNDS,
        end_rule: str = "cimetiere",
        deck_lists: str = "public",
        pool: Sequence[CardDef] | None = None,
    ) -> None:
        if len(decks) not in (1, 2):
            raise CardbaseError(tr("engine.error.deck_count", count=len(decks)))
        for i, d in enumerate(decks):
            if len(d) < HAND_SIZE:
                raise CardbaseError(tr("engine.error.deck_too_small", deck=i + 1, count=len(d),
                                       need=HAND_SIZE))
        if end_rule not in END_RULES:
            raise CardbaseError(tr("nespanini.error.end_rule", value=repr(end_rule),
                                   allowed=", ".join(END_RULES)))
        if deck_lists not in DECK_LISTS:
            raise CardbaseError(tr("nespanini.error.deck_lists", value=repr(deck_lists),
                                   allowed=", ".join(DECK_LISTS)))
        # R9 hidden: the pool's cards join the table after the decks' (their kinds do not move)
        self.pool = tuple(pool) if (pool and deck_lists == "hidden") else ()
        self.table = table or CardTable.build(
            [c for d in decks for c in d] + list(self.pool), compile_effects=compile_effects
        )
        self.end_rule = end_rule
        self.by_cimetiere = end_rule != "turns"  # ruling R1
        self.by_turns = end_rule != "cimetiere"
        self.deck_lists = deck_lists
        self.decks: tuple[tuple[int, ...], ...] = tuple(tuple(self.table.kinds(d)) for d in decks)
        self.num_players = len(decks)
        self.end_at = TURNS_PER_PLAYER * self.num_players
        # ruling R10 (docs/rulings/nespanini.md): games that cannot, or no longer, end by the Cimetière
        if not isinstance(stalemate_rounds, int) or stalemate_rounds < 0:
            raise CardbaseError(tr("engine.error.stalemate_rounds", value=repr(stalemate_rounds)))
        self.stalemate_rounds = stalemate_rounds
        self.stall_turns = stalemate_rounds * self.num_players
        leg = self.table.legendary
        discardable = sum(1 for d in self.decks for k in d if not leg[k])
        self.unreachable = bool(stalemate_rounds) and discardable < self.end_at and self.by_cimetiere
        self.rules_turns = TURNS_PER_PLAYER * self.num_players
        # R9 hidden: the kinds a re-deal may draw for an opponent, each with its copy limit
        # (the deck rules: 2, 4 for a Foule card)
        index = self.table.index
        kinds = sorted({index[c] for c in self.pool if c in index} if self.pool
                       else {k for d in self.decks for k in d})
        self.pool_kinds = tuple(kinds)
        self.pool_limits = tuple(4 if "foule" in self.table.defs[k].keyword_keys else 2 for k in kinds)
        # rule coverage of the Foule keyword: decks holding a Foule card, decks using more than 2
        # copies of one
        foule = [Counter(k for k in d if "foule" in self.table.defs[k].keyword_keys)
                 for d in self.decks]
        self.foule = (sum(1 for c in foule if c), sum(1 for c in foule if c and max(c.values()) > 2))

    def options(self) -> dict[str, Any]:
        """The rulings' options of this game (the keywords of ``Game`` they are passed as)."""
        return {"end_rule": self.end_rule, "deck_lists": self.deck_lists,
                "stalemate_rounds": self.stalemate_rounds}

    def new_state(self, seed: int | None = None, *, log: bool = True) -> State:
        return State(self, seed, log=log)

    def __getstate__(self) -> dict[str, Any]:
        return {"defs": [[self.table.defs[k] for k in d] for d in self.decks], "eff": True,
                "stalemate_rounds": self.stalemate_rounds, "end_rule": self.end_rule,
                "deck_lists": self.deck_lists, "pool": list(self.pool)}

    def __setstate__(self, st: dict[str, Any]) -> None:
        self.__init__(st["defs"], stalemate_rounds=st.get("stalemate_rounds", STALEMATE_ROUNDS),  # type: ignore[misc]
                      end_rule=st.get("end_rule", "cimetiere"),
                      deck_lists=st.get("deck_lists", "public"), pool=st.get("pool") or None)


class State:
    """One game in progress. Mutable; :meth:`clone` is a cheap hand-written copy."""

    __slots__ = (
        "cov",
        "decision",
        "decks",
        "discards",
        "ended_by",
        "events",
        "first_player",
        "game",
        "hands",
        "history",
        "n",
        "peak",
        "peak_turn",
        "player",
        "queue",
        "revealed",
        "seed",
        "skipped",
        "table",
        "turn",
    )

    def __init__(self, game: Game, seed: int | None, *, log: bool = True) -> None:
        self.game = game
        self.table = game.table
        n = self.n = game.num_players
        if seed is None:
            seed = random.randrange(2**63)
        self.seed = seed
        rng = _RNG.rng
        if type(seed) is int:
            _SEED_INT(rng, seed)  # the same stream as random.Random(seed)
        else:
            rng.seed(seed)
        if n == 1:
            deck, hand = deal(rng, game.decks[0], HAND_SIZE)  # the hand's top card first
            self.decks, self.hands = [deck], [hand]
        else:
            decks = self.decks = []
            hands = self.hands = []
            for d in game.decks:
                deck, hand = deal(rng, d, HAND_SIZE)
                hands.append(hand)
                decks.append(deck)
        # a game has one or two players (Game checks it)
        self.discards: list[list[int]] = [[]] if n == 1 else [[], []]
        self.first_player = rng.randrange(n) if n > 1 else 0
        self.player = self.first_player
        self.turn = 0
        self.history: list[int] = []
        self.events: list[tuple] | None = [] if log else None
        self.queue: list[tuple] = []  # Défausse actions still to resolve: (player, source, action)
        self.decision: tuple | None = None  # pending effect choice, None at a step-2 discard
        self.revealed: list[list[int]] = [[]] if n == 1 else [[], []]
        self.skipped = [0] * n
        self.peak = 0  # the largest Cimetière so far, and the turn it was reached (ruling R10)
        self.peak_turn = 0
        self.ended_by = ""
        self.cov = [0] * COV_SIZE
        if self.events is not None:
            self.events.append(("setup", seed, self.first_player, tuple(tuple(h) for h in self.hands)))
        self._start_turn()

    # ------------------------------------------------------------------ copying

    def clone(self, *, log: bool = False) -> State:
        """A copy sharing only immutable parts. The event log is dropped unless ``log``."""
        s = State.__new__(State)
        s.game = self.game
        s.table = self.table
        s.n = self.n
        s.seed = self.seed
        s.decks = [d[:] for d in self.decks]
        s.hands = [h[:] for h in self.hands]
        s.discards = [d[:] for d in self.discards]
        s.player = self.player
        s.first_player = self.first_player
        s.turn = self.turn
        s.history = self.history[:]
        s.events = self.events[:] if (log and self.events is not None) else None
        s.queue = self.queue[:]
        s.decision = self.decision
        s.revealed = [r[:] for r in self.revealed]
        s.skipped = self.skipped[:]
        s.peak = self.peak
        s.peak_turn = self.peak_turn
        s.ended_by = self.ended_by
        s.cov = self.cov[:]
        return s

    # ------------------------------------------------------------------ interface

    @property
    def num_players(self) -> int:
        return self.n

    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    @property
    def cimetiere_size(self) -> int:
        return sum(len(d) for d in self.discards)

    def legal_actions(self, player: int | None = None) -> list[int]:
        p = self.player
        if p == TERMINAL or (player is not None and player != p):
            return []
        if self.decision is not None:
            return decision_actions(self)
        leg = self.table.legendary
        hand = self.hands[p]
        acts = {k for k in hand if not leg[k]}
        return sorted(acts) if acts else sorted(set(hand))  # R4: only Légendaire cards

    def apply_action(self, action: int) -> None:
        p = self.player
        if p == TERMINAL:
            raise IllegalActionError(tr("engine.error.game_over"))
        if self.decision is not None:
            self.history.append(action)
            apply_decision(self, action)
            return
        hand = self.hands[p]
        leg = self.table.legendary
        flags = self.table.flags
        fl = 0
        for k in hand:
            fl |= flags[k]
        if action in hand and leg[action] and all(leg[k] for k in hand):
            # R4: a hand of only Légendaire cards puts one of them under the deck instead.
            cov = self.cov
            cov[COV_STEP] += 1
            cov[COV_LEG] += 1
            cov[COV_R4] += 1
            self.history.append(action)
            self.leave_hand(p, action)
            self.decks[p].insert(0, action)
            if self.n == 2:
                # R4/R9: the hand was shown, so its other cards are now known to the opponent
                self.revealed[p] = list(hand)
            self.skipped[p] += 1
            if self.events is not None:
                self.events.append(("legendary-bottom", p, action))  # R4: a shown hand
            self._end_turn()
            return
        if action not in hand or leg[action]:
            raise IllegalActionError(tr(
                "engine.error.cannot_discard", player=p + 1, action=self.action_to_string(action),
                legal=" ; ".join(self.action_to_string(a) for a in self.legal_actions())))
        cov = self.cov
        cov[COV_STEP] += 1
        if fl & 1:
            cov[COV_DEF_OCC] += 1
            if flags[action] & 1:
                cov[COV_DEF_USED] += 1
        if fl & 2:
            cov[COV_LEG] += 1
        self.history.append(action)
        self.leave_hand(p, action)
        self.discards[p].append(action)
        if self.events is not None:
            self.events.append(("discard", p, action))
        if self.table.has_discard_effect[action]:
            start_effect(self, p, action)
            return
        self._end_turn()

    def scores(self) -> list[int]:
        return [self.score(p) for p in range(self.n)]

    def coverage(self) -> dict[str, list[int]]:
        """Rule coverage of this game: per rule key ``[occasions, used]`` (names and labels in
        :data:`cardbase.games.nespanini.rulings.COVERAGE`). Step 2: decisions and discards (the
        others are R4); a Défausse card that could be discarded, and was; a Légendaire card in
        hand (it narrowed the choice), and an R4 hand; per Défausse action kind of the game's
        cards: resolved, and changed something; the Foule keyword: decks with a Foule card, and
        using more than 2 copies of one; each ending that the rulings in force allow: the game,
        and whether it ended so."""
        c = self.cov
        g = self.game
        out = {
            "step2:discard": [c[COV_STEP], c[COV_STEP] - c[COV_R4]],
            "keyword:defausse": [c[COV_DEF_OCC], c[COV_DEF_USED]],
            "keyword:legendaire": [c[COV_STEP], c[COV_LEG]],
            "ruling:R4": [c[COV_LEG], c[COV_R4]],
            "keyword:foule": list(g.foule),
        }
        present = self.table.effect_kinds
        for kind, key in zip(EFFECT_KINDS, EFFECT_KEYS):
            i = COV_EFFECT[kind]
            if kind in present or c[i]:
                out[f"effect:{key}"] = [c[i], c[i + 1]]
        if self.player == TERMINAL:
            for ending in ENDINGS:
                if ((ending == "cimetiere" and not g.by_cimetiere)
                        or (ending == "turns" and not g.by_turns)
                        or (ending in ("unreachable", "stalled") and not g.stalemate_rounds)):
                    continue
                out[f"end:{ending}"] = [1, int(self.ended_by == ending)]
        return out

    def returns(self) -> list[float]:
        """+1 to the higher score, -1 to the lower, 0 each on a tie (ruling R5); goldfish: 0."""
        if self.player != TERMINAL or self.n == 1:
            return [0.0] * self.n
        a, b = self.score(0), self.score(1)
        if a == b:
            return [0.0, 0.0]
        return [1.0, -1.0] if a > b else [-1.0, 1.0]

    def utilities(self) -> list[float]:
        """What the search bots maximise: the return plus a share of the margin (docs/bots.md)."""
        from cardbase.games.bots.base import margin_utilities

        return margin_utilities(self.scores())

    def greedy_action(self) -> int:
        """The greedy policy's choice for the player to act (:mod:`.policy`, through the frame)."""
        return frame.greedy(self)

    def play_greedy(self) -> State:
        """Play to the end with the greedy policy for every player, in place (:mod:`.fast`)."""
        return frame.play_greedy(self)

    def heuristic(self, player: int) -> float:
        """The score ``player``'s hand would have if the game ended now."""
        return float(self.hand_score(player, self.hands[player]))

    def action_to_string(self, action: int) -> str:
        if self.decision is not None:
            return decision_action_to_string(self, action)
        if 0 <= action < self.table.size:
            return tr("engine.action.discard", card=self.table.defs[action].name)
        return tr("engine.action.other", action=action)

    def __str__(self) -> str:
        names = self.table.defs
        lines = [tr("engine.state.head", turn=self.turn,
                    player=self.player + 1 if self.player >= 0 else "—")]
        for p in range(self.n):
            lines.append(tr(
                "engine.state.player", player=p + 1,
                hand=", ".join(names[k].name for k in self.hands[p]),
                discards=", ".join(names[k].name for k in self.discards[p]),
                deck=len(self.decks[p])))
        return "\n".join(lines)

    # ------------------------------------------------------------------ scoring

    def zones(self, player: int, hand: Sequence[int] | None = None) -> Zones:
        defs = self.table.defs
        h = self.hands[player] if hand is None else hand
        opp = self.discards[1 - player] if self.n == 2 else ()
        return Zones(
            tuple(defs[k] for k in h),
            tuple(defs[k] for k in self.discards[player]),
            tuple(defs[k] for k in opp),
            tuple(defs[k] for k in reversed(self.decks[player])),
        )

    def zone_code(self, player: int, discards: Sequence[int] | None = None) -> int:
        """The clamped zone code of ``player``'s side (:mod:`.scoring`); ``discards``: own pile to assume."""
        t = self.table
        m = t.model
        code = 0
        if t.reads_discards:
            dv = m.dv
            code = sum([dv[x] for x in (self.discards[player] if discards is None else discards)])
        if t.reads_opponent and self.n == 2:
            ov = m.ov
            code += sum([ov[x] for x in self.discards[1 - player]])
        if t.reads_deck:
            kv = m.kv
            code += sum([kv[x] for x in self.decks[player]])
        return m.clamp(code) if code else 0

    def score_in(self, hand: Sequence[int], code: int) -> int:
        """The score of ``hand`` when the other zones have the zone code ``code`` (memoised)."""
        return self.score_sorted(tuple(sorted(hand)), code)

    def score_sorted(self, hand: tuple[int, ...], code: int) -> int:
        """:meth:`score_in` of a hand given as a sorted tuple."""
        t = self.table
        info = t.hand_info.get(hand)
        if info is None:
            info = t.hand_info[hand] = _hand_info(t, hand)
        base, fields = info
        if fields < 0:
            return base
        key = (hand, code & fields)
        cache = t.score_cache
        hit = cache.get(key)
        if hit is not None:
            return hit
        f = t.model.decode(code)
        fns = t.iscore
        total = base
        for k in hand:
            fn = fns[k]
            if fn is not None:
                total += fn(k, hand, f)
        if len(cache) > 500_000:
            cache.clear()
        cache[key] = total
        return total

    def hand_score(self, player: int, hand: Sequence[int], discards: Sequence[int] | None = None) -> int:
        """Score ``hand`` as if it were ``player``'s whole hand (``discards``: own pile to assume)."""
        t = self.table
        fns = t.iscore
        for k in hand:
            if fns[k] is not None:
                return self.score_in(hand, self.zone_code(player, discards))
        value = t.value
        return sum([value[k] for k in hand])

    def scored_hand(self, player: int) -> tuple[int, ...]:
        """The cards that count: the whole hand (every action keeps hands at 5 cards)."""
        return tuple(self.hands[player])

    def score(self, player: int) -> int:
        return self.hand_score(player, self.scored_hand(player))

    def card_points(self, player: int) -> tuple[int, ...]:
        """Points of each card of ``player``'s hand, in hand order (memoised; see score_breakdown)."""
        t = self.table
        hand = tuple(self.hands[player])
        key = (hand, self.zone_code(player) if t.has_iscore else 0)
        cache = t.points_cache
        hit = cache.get(key)
        if hit is None:
            hit = tuple(c.points for c in self.score_breakdown(player))
            if len(cache) > 200_000:
                cache.clear()
            cache[key] = hit
        return hit

    def score_breakdown(self, player: int) -> list[CardScore]:
        t = self.table
        hand = self.hands[player]
        f = t.model.decode(self.zone_code(player))
        out = []
        for k in hand:
            fn = t.iscore[k]
            bonus = fn(k, hand, f) if fn is not None else 0
            out.append(CardScore(t.defs[k], t.value[k], bonus))
        return out

    # ------------------------------------------------------------------ turn flow

    def leave_hand(self, player: int, kind: int) -> None:
        """Take one ``kind`` out of ``player``'s hand — the one way a card leaves a hand.

        Every path (step-2 discard, R4, an effect's bottom / give / forced discard, the fast greedy
        path) calls it, so the revealed record (ruling R9) stays a part of the hand: a card shown
        by ``reveal hand`` is forgotten when it leaves, wherever it goes.
        """
        self.hands[player].remove(kind)
        r = self.revealed[player]
        if r and kind in r:
            r.remove(kind)

    def _end_turn(self) -> None:
        """Close the current turn; the game ends when the Cimetière is full, or after 5 turns
        each, as ruling R1's option says (rulings R1, R6, R10).

        The fast greedy path (:mod:`.fast`) closes its turns with the same checks, inline.
        """
        self.turn += 1
        cim = sum(len(d) for d in self.discards)
        g = self.game
        if cim >= g.end_at and g.by_cimetiere:
            self._finish("cimetiere")
            return
        if g.by_turns and self.turn >= g.rules_turns:
            self._finish("turns")
            return
        if g.unreachable and self.turn >= g.rules_turns:
            self._finish("unreachable")
            return
        if cim > self.peak:
            self.peak = cim
            self.peak_turn = self.turn
        elif g.stall_turns and self.turn - self.peak_turn >= g.stall_turns:
            self._finish("stalled")
            return
        if self.turn >= TURN_LIMIT:
            self._finish("turn-limit")
            return
        self.player = (self.player + 1) % self.n
        self._start_turn()

    def _start_turn(self) -> None:
        """Step 1 (draw) is automatic; the state then waits for the step-2 choice (ruling R2)."""
        p = self.player
        deck = self.decks[p]
        if not deck:
            self._finish("empty-deck")
            return
        k = deck.pop()
        self.hands[p].append(k)
        if self.events is not None:
            self.events.append(("draw", p, k))

    def _finish(self, reason: str) -> None:
        self.player = TERMINAL
        self.ended_by = reason
        self.queue.clear()
        self.decision = None
        if self.events is not None:
            self.events.append(("end", reason))

    # ------------------------------------------------------------------ hidden information

    def observation(self, player: int) -> Observation:
        defs = self.table.defs
        choices: tuple[CardDef, ...] = ()
        decision = "discard"
        if self.decision is not None:
            decision, offered = decision_view(self, player)
            choices = tuple(defs[k] for k in offered)
        return Observation(
            player=player,
            current_player=self.player,
            hand=tuple(defs[k] for k in self.hands[player]),
            discards=tuple(tuple(defs[k] for k in d) for d in self.discards),
            deck_sizes=tuple(len(d) for d in self.decks),
            hand_sizes=tuple(len(h) for h in self.hands),
            revealed=tuple(
                tuple(defs[k] for k in (self.revealed[q] if q != player else ())) for q in range(self.n)
            ),
            cimetiere=self.cimetiere_size,
            decision=decision,
            choices=choices,
            terminal=self.player == TERMINAL,
        )

    def information_key(self, player: int) -> tuple:
        """A hashable key of what ``player`` knows (for information-set search)."""
        return (
            self.player,
            tuple(sorted(self.hands[player])),
            tuple(tuple(d) for d in self.discards),
            tuple(len(h) for h in self.hands),
            self.decision if self.player == player else None,
        )

    def resample(self, player: int, rng: random.Random) -> State:
        """A clone where what ``player`` cannot see is dealt again at random.

        Hidden: the order of every deck and the opponent's hand except the cards they revealed.
        Ruling R9: deck lists are public by default (both players know which cards each deck
        holds); with ``Game(deck_lists="hidden")`` the opponent's unseen cards are drawn from the
        card pool instead (:meth:`_redeal_hidden`).
        """
        s = self.clone()
        if self.game.deck_lists == "hidden":
            return self._redeal_hidden(s, player, rng)
        for q in range(self.n):
            # sorted before shuffling: the re-deal depends only on what ``player`` knows
            if q == player:
                s.decks[q].sort()
                shuffle(rng, s.decks[q])
                continue
            hand = s.hands[q]
            known = list(s.revealed[q])
            hidden = hand[:]
            for k in known:
                hidden.remove(k)
            pool = sorted(hidden + s.decks[q])
            shuffle(rng, pool)
            nh = len(hidden)
            s.hands[q] = sorted(known) + pool[:nh]
            s.decks[q] = pool[nh:]
        return s

    def _redeal_hidden(self, s: State, player: int, rng: random.Random) -> State:
        """Ruling R9, hidden deck lists: ``player``'s own deck is shuffled; each opponent's unseen
        cards (hand but the revealed ones, and deck) are dealt from a uniform deck of the pool:
        every kind of the pool as often as the deck rules allow (2 copies, 4 of a Foule card),
        less the copies seen in that opponent's discard pile and revealed hand, drawn without
        replacement (with replacement once that runs out)."""
        g = self.game
        for q in range(self.n):
            if q == player:
                s.decks[q].sort()
                shuffle(rng, s.decks[q])
                continue
            known = list(s.revealed[q])
            seen = Counter(known)
            seen.update(s.discards[q])
            hidden = len(s.hands[q]) - len(known)
            need = hidden + len(s.decks[q])
            bag = [k for k, lim in zip(g.pool_kinds, g.pool_limits)
                   for _ in range(max(0, lim - seen[k]))]
            shuffle(rng, bag)
            drawn = bag[:need]
            while len(drawn) < need:
                drawn.append(g.pool_kinds[rng.randrange(len(g.pool_kinds))])
            s.hands[q] = sorted(known) + drawn[:hidden]
            s.decks[q] = drawn[hidden:]
        return s




def _hand_info(table: CardTable, hand: tuple[int, ...]) -> tuple[int, int]:
    """(sum of values, bit fields its score rules read — or -1 when no card has rules)."""
    fns, value, reads = table.iscore, table.value, table.model.reads
    fields = -1
    for k in hand:
        if fns[k] is not None:
            fields = max(fields, 0) | reads[k]
    return sum(value[k] for k in hand), fields
