"""End-of-game score modifiers: a plain interpreter and a compiled fast path.

``zones`` is any object with the attributes ``hand``, ``discards``, ``opponent_discards``,
``cimetiere`` and ``deck`` (sequences of CardDef) seen from the card's owner; ``hand`` contains
the scored card itself.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from cardbase.games.effects.ast import (
    AttrTerm,
    Comparison,
    Count,
    Effect,
    Filter,
    ScoreRule,
    Term,
    ValueTerm,
    Zone,
    folded,
)

if TYPE_CHECKING:
    from cardbase.domain import CardDef


class Zones(Protocol):
    hand: Sequence[CardDef]
    discards: Sequence[CardDef]
    opponent_discards: Sequence[CardDef]
    cimetiere: Sequence[CardDef]
    deck: Sequence[CardDef]


OPS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge, "<=": operator.le, "=": operator.eq, "!=": operator.ne,
    ">": operator.gt, "<": operator.lt,
}


# --------------------------------------------------------------------------- interpreter

def count_value(count: Count, card: CardDef, zones: Any) -> int:
    """The number a Count reads, for the card ``card`` (used by ``other``)."""
    cards = getattr(zones, count.zone.value)
    filt = count.filter
    exclude_self = filt.other and count.zone is Zone.HAND and filt.matches(card)
    if count.kind == "cards":
        n = sum(1 for c in cards if filt.matches(c))
        return n - 1 if exclude_self else n
    seen: dict[str, int] = {}
    for c in cards:
        if c.colour and filt.matches(c):
            seen[c.colour] = seen.get(c.colour, 0) + 1
    if exclude_self and card.colour:
        seen[card.colour] -= 1
    return sum(1 for v in seen.values() if v > 0)


def rule_bonus(rule: ScoreRule, card: CardDef, zones: Any) -> int:
    for cond in rule.conditions:
        if not OPS[cond.op](count_value(cond.count, card, zones), cond.value):
            return 0
    if rule.per is None:
        return rule.amount
    n = count_value(rule.per, card, zones)
    if rule.cap is not None and n > rule.cap:
        n = rule.cap
    return rule.amount * n


def score_bonus(effect: Effect, card: CardDef, zones: Any) -> int:
    """Bonus (or malus, negative) the card adds to its base value at the end of the game."""
    return sum(rule_bonus(rule, card, zones) for rule in effect.score)


# --------------------------------------------------------------------------- compiled fast path

def _compile_term(term: Term) -> Callable[[Any], bool]:
    if isinstance(term, ValueTerm):
        lo, hi = term.min, term.max
        if lo is not None and hi is not None:
            return lambda c: c.value is not None and lo <= c.value <= hi
        if lo is not None:
            return lambda c: c.value is not None and c.value >= lo
        if hi is not None:
            return lambda c: c.value is not None and c.value <= hi
        return lambda c: c.value is not None
    assert isinstance(term, AttrTerm)
    keys = term.keys
    neg = term.negated
    if term.attr == "keyword":
        if neg:
            return lambda c: keys.isdisjoint(c.keyword_keys)
        return lambda c: not keys.isdisjoint(c.keyword_keys)
    getter = {"colour": operator.attrgetter("colour"), "banner": operator.attrgetter("banner"),
              "name": operator.attrgetter("name")}[term.attr]
    if term.attr == "colour":  # CardDef.colour is already the canonical folded key
        if neg:
            return lambda c: c.colour not in keys
        return lambda c: c.colour in keys
    if neg:
        return lambda c: folded(getter(c)) not in keys
    return lambda c: folded(getter(c)) in keys


def compile_filter(filt: Filter) -> Callable[[Any], bool] | None:
    """A predicate for the filter's terms (None when it has none: every card matches)."""
    preds = [_compile_term(t) for t in filt.terms]
    if not preds:
        return None
    if len(preds) == 1:
        return preds[0]
    if len(preds) == 2:
        a, b = preds
        return lambda c: a(c) and b(c)
    return lambda c: all(p(c) for p in preds)


def _compile_count(count: Count) -> Callable[[Any, Any], int]:
    get = operator.attrgetter(count.zone.value)
    pred = compile_filter(count.filter)
    other = count.filter.other and count.zone is Zone.HAND
    if count.kind == "cards":
        if pred is None:
            if other:
                return lambda card, z: len(get(z)) - 1
            return lambda card, z: len(get(z))
        if other:
            return lambda card, z: sum(1 for c in get(z) if pred(c)) - (1 if pred(card) else 0)
        return lambda card, z: sum(1 for c in get(z) if pred(c))

    def colours(card: Any, z: Any) -> int:
        tally: dict[str, int] = {}
        for c in get(z):
            col = c.colour
            if col and (pred is None or pred(c)):
                tally[col] = tally.get(col, 0) + 1
        if other and card.colour and (pred is None or pred(card)):
            tally[card.colour] -= 1
            return sum(1 for v in tally.values() if v > 0)
        return len(tally)

    return colours


def _compile_condition(cond: Comparison) -> Callable[[Any, Any], bool]:
    read = _compile_count(cond.count)
    op = OPS[cond.op]
    value = cond.value
    return lambda card, z: op(read(card, z), value)


def _compile_rule(rule: ScoreRule) -> Callable[[Any, Any], int]:
    amount = rule.amount
    conds = [_compile_condition(c) for c in rule.conditions]
    if rule.per is None:
        base: Callable[[Any, Any], int] = lambda card, z: amount
    else:
        read = _compile_count(rule.per)
        cap = rule.cap
        if cap is None:
            base = lambda card, z: amount * read(card, z)
        else:
            base = lambda card, z: amount * min(read(card, z), cap)
    if not conds:
        return base
    if len(conds) == 1:
        cond = conds[0]
        return lambda card, z: base(card, z) if cond(card, z) else 0
    return lambda card, z: base(card, z) if all(c(card, z) for c in conds) else 0


def _zero(card: Any, zones: Any) -> int:
    return 0


@functools.lru_cache(maxsize=4096)
def compile_score(effect: Effect) -> Callable[[Any, Any], int]:
    """Build once a function ``(card, zones) -> bonus`` equal to ``score_bonus(effect, …)``."""
    rules = [_compile_rule(r) for r in effect.score]
    if not rules:
        return _zero
    if len(rules) == 1:
        return rules[0]
    if len(rules) == 2:
        a, b = rules
        return lambda card, z: a(card, z) + b(card, z)
    return lambda card, z: sum(r(card, z) for r in rules)
