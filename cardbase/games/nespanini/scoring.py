"""Score rules compiled to work on card indices, and the per-game score cache.

:func:`cardbase.effects.compile_score` evaluates a rule on CardDef sequences. The engine keeps
cards as integers, so here every filter of a rule becomes a 0/1 mask over the card table and every
"colours" count a colour index per card: counting is then a sum over a few small integers. The
result is the same number (tests compare the two on random zones).

A hand's score depends only on the multisets of the zones its rules read, so it is memoised per
game under a key made of those zones only.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

from cardbase.domain import CardDef

#: (self kind, hand, own discards, opponent discards, deck) -> bonus
IntScoreFn = Callable[[int, Sequence[int], Sequence[int], Sequence[int], Sequence[int]], int]

OPS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge, "<=": operator.le, "=": operator.eq, "!=": operator.ne,
    ">": operator.gt, "<": operator.lt,
}

HAND, DISCARDS, OPP, CIM, DECK = "hand", "discards", "opponent_discards", "cimetiere", "deck"


def _zone_reader(zone: str) -> Callable[..., Sequence[int]]:
    if zone == HAND:
        return lambda h, d, o, k: h
    if zone == DISCARDS:
        return lambda h, d, o, k: d
    if zone == OPP:
        return lambda h, d, o, k: o
    if zone == CIM:
        return lambda h, d, o, k: list(d) + list(o)
    return lambda h, d, o, k: k


def _compile_count(count: Any, defs: Sequence[CardDef]) -> Callable[..., int]:
    zone = str(count.zone.value if hasattr(count.zone, "value") else count.zone)
    flt = count.filter
    mask = tuple(1 if flt.matches(c) else 0 for c in defs)
    other = bool(flt.other) and zone == HAND
    read = _zone_reader(zone)
    if count.kind == "cards":
        if zone == CIM:
            def cards_cim(me, h, d, o, k):
                return sum([mask[x] for x in d]) + sum([mask[x] for x in o])
            return cards_cim
        if other:
            def cards_other(me, h, d, o, k):
                return sum([mask[x] for x in read(h, d, o, k)]) - mask[me]
            return cards_other

        def cards(me, h, d, o, k):
            return sum([mask[x] for x in read(h, d, o, k)])
        return cards
    colour_ids: dict[str, int] = {}
    colour = tuple(
        (colour_ids.setdefault(c.colour, len(colour_ids)) if (c.colour and mask[i]) else -1)
        for i, c in enumerate(defs)
    )

    def colours(me, h, d, o, k):
        seen = [colour[x] for x in read(h, d, o, k)]
        if other and colour[me] >= 0:
            seen.remove(colour[me])
        s = set(seen)
        s.discard(-1)
        return len(s)
    return colours


def _compile_rule(rule: Any, defs: Sequence[CardDef]) -> Callable[..., int]:
    amount = rule.amount
    conds = [(_compile_count(c.count, defs), OPS[c.op], c.value) for c in rule.conditions]
    per = _compile_count(rule.per, defs) if rule.per is not None else None
    cap = rule.cap

    def run(me, h, d, o, k):
        for read, op, v in conds:
            if not op(read(me, h, d, o, k), v):
                return 0
        if per is None:
            return amount
        n = per(me, h, d, o, k)
        if cap is not None and n > cap:
            n = cap
        return amount * n
    return run


def compile_int_score(effect: Any, defs: Sequence[CardDef]) -> IntScoreFn | None:
    """The score rules of ``effect`` as a function on card indices (None when it has none)."""
    rules = [_compile_rule(r, defs) for r in getattr(effect, "score", ())]
    if not rules:
        return None
    if len(rules) == 1:
        return rules[0]
    return lambda me, h, d, o, k: sum(r(me, h, d, o, k) for r in rules)


def zones_read(effect: Any) -> frozenset[str]:
    """The zones the score rules of ``effect`` count in."""
    out: set[str] = set()
    for rule in getattr(effect, "score", ()):
        counts = [c.count for c in rule.conditions] + ([rule.per] if rule.per is not None else [])
        for c in counts:
            out.add(str(c.zone.value if hasattr(c.zone, "value") else c.zone))
    return frozenset(out)
