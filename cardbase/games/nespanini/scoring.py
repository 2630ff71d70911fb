"""Score rules compiled to work on card indices, and the per-game score caches.

:func:`cardbase.games.effects.compile_score` evaluates a rule on CardDef sequences. The engine keeps
cards as integers, so here every filter of a rule becomes a 0/1 mask over the card table.

Counts in the hand are read from the hand itself. Every count in another zone (own discards,
opponent's discards, Cimetière, deck) is a *feature*: the number of cards of that zone that match
one mask. A "colours" count outside the hand becomes one feature per colour (the number of
distinct colours is the number of non-zero features). Features are linear in the zones, so all of
them are packed in one integer, the **zone code**: each card kind adds a precomputed integer when
it lies in the own discards (``dv``), the opponent's discards (``ov``) or the deck (``kv``).

A hand's score depends only on the multiset of the hand and on the features its cards read, so
it is memoised per game under ``(sorted hand, zone code & the hand's fields)``; greedy choices use
the same kind of key. A feature is also *clamped* at the count beyond which no rule tells values
apart ("max 3", ">= 2"…). Two positions whose discard piles differ only in what the cards at hand
do not look at share their cache entries.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardbase.domain import CardDef

#: (self kind, hand, features) -> bonus
IntScoreFn = Callable[[int, Sequence[int], Sequence[int]], int]

OPS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge, "<=": operator.le, "=": operator.eq, "!=": operator.ne,
    ">": operator.gt, "<": operator.lt,
}

HAND, DISCARDS, OPP, CIM, DECK = "hand", "discards", "opponent_discards", "cimetiere", "deck"

FEATURE_BITS = 12  # a zone never holds 4096 cards
FEATURE_MASK = (1 << FEATURE_BITS) - 1


def _zone(count: Any) -> str:
    return str(count.zone.value if hasattr(count.zone, "value") else count.zone)


class _Features:
    """Registry of the zone features of one card table while rules are compiled."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.index: dict[tuple[str, tuple[int, ...]], int] = {}
        self.saturation: list[int | None] = []  # None: every value matters
        self.used: set[int] = set()  # features read by the effect being compiled
        self.hand = False  # some rule compiled so far counts cards in the hand

    def get(self, zone: str, mask: tuple[int, ...]) -> int:
        key = (zone, mask)
        i = self.index.get(key)
        if i is None:
            i = self.index[key] = len(self.index)
            self.saturation.append(0)
        self.used.add(i)
        return i

    def used_mask(self) -> int:
        """The bit fields of the features read since ``used`` was last emptied."""
        out = 0
        for i in self.used:
            out |= FEATURE_MASK << (FEATURE_BITS * i)
        return out

    def saturates(self, i: int, at: int | None) -> None:
        """Feature ``i`` only matters up to ``at`` (a rule reads it as min(value, at))."""
        cur = self.saturation[i]
        if cur is not None:
            self.saturation[i] = None if at is None else max(cur, at)

    def contributions(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """Per card kind: what it adds to the zone code in own discards, opponent's, deck."""
        dv, ov, kv = [0] * self.size, [0] * self.size, [0] * self.size
        for (zone, mask), i in self.index.items():
            shift = FEATURE_BITS * i
            for k in range(self.size):
                if not mask[k]:
                    continue
                if zone in (DISCARDS, CIM):
                    dv[k] += 1 << shift
                if zone in (OPP, CIM):
                    ov[k] += 1 << shift
                if zone == DECK:
                    kv[k] += 1 << shift
        return tuple(dv), tuple(ov), tuple(kv)


def _compile_count(count: Any, defs: Sequence[CardDef], feats: _Features,
                   saturation: int | None) -> Callable[..., int]:
    """A reader of ``count``; ``saturation``: the caller reads the count as min(count, this)."""
    zone = _zone(count)
    flt = count.filter
    mask = tuple(1 if flt.matches(c) else 0 for c in defs)
    if zone == HAND:
        feats.hand = True
    if count.kind == "cards":
        if zone != HAND:
            i = feats.get(zone, mask)
            feats.saturates(i, saturation)
            return lambda me, h, f: f[i]
        if flt.other:
            def cards_other(me, h, f):
                return sum([mask[x] for x in h]) - mask[me]
            return cards_other

        def cards(me, h, f):
            return sum([mask[x] for x in h])
        return cards
    colour_ids: dict[str, int] = {}
    colour = tuple(
        (colour_ids.setdefault(c.colour, len(colour_ids)) if (c.colour and mask[i]) else -1)
        for i, c in enumerate(defs)
    )
    if zone != HAND:
        idx = [feats.get(zone, tuple(1 if colour[k] == cid else 0 for k in range(len(defs))))
               for cid in range(len(colour_ids))]
        for i in idx:
            feats.saturates(i, 1)  # only "is there one" matters

        def colours_out(me, h, f):
            return sum(1 for i in idx if f[i])
        return colours_out
    other = bool(flt.other)

    def colours(me, h, f):
        seen = [colour[x] for x in h]
        if other and colour[me] >= 0:
            seen.remove(colour[me])
        s = set(seen)
        s.discard(-1)
        return len(s)
    return colours


def _compile_rule(rule: Any, defs: Sequence[CardDef], feats: _Features) -> Callable[..., int]:
    amount = rule.amount
    # a comparison with v gives the same answer for every count >= v + 1
    conds = [(_compile_count(c.count, defs, feats, max(c.value + 1, 0)), OPS[c.op], c.value)
             for c in rule.conditions]
    per = _compile_count(rule.per, defs, feats, rule.cap) if rule.per is not None else None
    cap = rule.cap

    def run(me, h, f):
        for read, op, v in conds:
            if not op(read(me, h, f), v):
                return 0
        if per is None:
            return amount
        n = per(me, h, f)
        if cap is not None and n > cap:
            n = cap
        return amount * n
    return run


def _compile_effect(effect: Any, defs: Sequence[CardDef], feats: _Features) -> IntScoreFn | None:
    rules = [_compile_rule(r, defs, feats) for r in getattr(effect, "score", ())]
    if not rules:
        return None
    if len(rules) == 1:
        return rules[0]
    return lambda me, h, f: sum(r(me, h, f) for r in rules)


@dataclass(slots=True, frozen=True)
class ScoreModel:
    """The compiled score rules of a card table (see the module text)."""

    rules: tuple[IntScoreFn | None, ...]  # per kind
    dv: tuple[int, ...]  # zone-code contribution of a kind in the own discards
    ov: tuple[int, ...]  # … in the opponent's discards
    kv: tuple[int, ...]  # … in the deck
    features: int
    saturation: tuple[int | None, ...] = ()  # per feature (None: never clamped)
    reads: tuple[int, ...] = ()  # per kind: the bit fields of the features its rules read
    hand_free: bool = False  # no rule counts cards in the hand: see :meth:`points`
    clamp_cache: dict = field(default_factory=dict, compare=False, repr=False)
    points_cache: dict = field(default_factory=dict, compare=False, repr=False)

    def points(self, kind: int, value: int, code: int) -> int:
        """``value`` plus the bonus of ``kind`` at zone code ``code``, when the rules are
        ``hand_free``: then a hand scores the sum of its cards' points (memoised per kind and
        the features it reads)."""
        key = (kind, code & self.reads[kind])
        hit = self.points_cache.get(key)
        if hit is not None:
            return hit
        fn = self.rules[kind]
        out = value + (fn(kind, (), self.decode(code)) if fn is not None else 0)
        self.points_cache[key] = out
        return out

    def clamp(self, code: int) -> int:
        """``code`` with every feature cut at its saturation: rules read both the same.

        Cutting commutes with adding cards (min(f + d, s) = min(min(f, s) + d, s) for d >= 0),
        so a choice computed on the clamped code is the choice on the full code.
        """
        hit = self.clamp_cache.get(code)
        if hit is not None:
            return hit
        out = 0
        for i, sat in enumerate(self.saturation):
            shift = FEATURE_BITS * i
            f = (code >> shift) & FEATURE_MASK
            if sat is not None and f > sat:
                f = sat
            out |= f << shift
        if len(self.clamp_cache) > 100_000:
            self.clamp_cache.clear()
        self.clamp_cache[code] = out
        return out

    @property
    def reads_discards(self) -> bool:
        return any(self.dv)

    @property
    def reads_opponent(self) -> bool:
        return any(self.ov)

    @property
    def reads_deck(self) -> bool:
        return any(self.kv)

    def decode(self, code: int) -> tuple[int, ...]:
        return tuple((code >> (FEATURE_BITS * i)) & FEATURE_MASK for i in range(self.features))

    def code(self, discards: Sequence[int], opponent: Sequence[int], deck: Sequence[int]) -> int:
        dv, ov, kv = self.dv, self.ov, self.kv
        return (sum([dv[x] for x in discards]) + sum([ov[x] for x in opponent])
                + sum([kv[x] for x in deck]))


def compile_model(effects: Sequence[Any], defs: Sequence[CardDef]) -> ScoreModel:
    """Compile the score rules of ``effects`` (one per card of ``defs``, None when none)."""
    feats = _Features(len(defs))
    rules, reads = [], []
    for e in effects:
        feats.used = set()
        rules.append(_compile_effect(e, defs, feats) if e is not None else None)
        reads.append(feats.used_mask())
    dv, ov, kv = feats.contributions()
    return ScoreModel(tuple(rules), dv, ov, kv, len(feats.index), tuple(feats.saturation),
                      tuple(reads), not feats.hand)


def compile_int_score(effect: Any, defs: Sequence[CardDef]) -> Callable[..., int] | None:
    """The score rules of ``effect`` alone, as ``f(me, hand, discards, opponent, deck)``."""
    feats = _Features(len(defs))
    fn = _compile_effect(effect, defs, feats)
    if fn is None:
        return None
    dv, ov, kv = feats.contributions()
    model = ScoreModel((fn,), dv, ov, kv, len(feats.index))

    def run(me, h, d, o, k):
        return fn(me, h, model.decode(model.code(d, o, k)))
    return run
