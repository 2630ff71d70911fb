"""Linter: unknown names, colours, banners and keywords; filters no card can match; conditions
that can never (or always) hold; words that have no effect where they are written."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from cardbase.errors import Problem
from cardbase.games.effects.ast import (
    AttrTerm,
    Comparison,
    Count,
    Effect,
    Filter,
    Recover,
    Swap,
    ValueTerm,
    Zone,
)
from cardbase.i18n import tr
from cardbase.text import canonical_colour, fold

HAND_SIZE = 5  # cards in a hand when the game is scored


def _keys(values: Iterable[str] | None, *, colour: bool = False) -> frozenset[str] | None:
    if values is None:
        return None
    return frozenset(canonical_colour(v) if colour else fold(v) for v in values)


def lint_effect(
    effect: Effect,
    known_names: Iterable[str] | None = None,
    known_colours: Iterable[str] | None = None,
    known_banners: Iterable[str] | None = None,
    known_keywords: Iterable[str] | None = None,
) -> list[Problem]:
    """Every problem of an effect that parses; a ``None`` list skips that check."""
    known = {
        "name": _keys(known_names), "colour": _keys(known_colours, colour=True),
        "banner": _keys(known_banners), "keyword": _keys(known_keywords),
    }
    problems: list[Problem] = []

    def check_filter(filt: Filter, where: str, zone: Zone | None) -> None:
        lo: int | None = None
        hi: int | None = None
        positives: dict[str, set[str]] = {}
        negatives: dict[str, set[str]] = {}
        for term in filt.terms:
            if isinstance(term, ValueTerm):
                if term.min is not None and term.max is not None and term.min > term.max:
                    problems.append(Problem(
                        "impossible-filter", tr("effects.lint.reversed", lo=term.min, hi=term.max),
                        tr("effects.lint.reversed_fix"), where))
                if term.min is not None:
                    lo = term.min if lo is None else max(lo, term.min)
                if term.max is not None:
                    hi = term.max if hi is None else min(hi, term.max)
                continue
            assert isinstance(term, AttrTerm)
            kn = known[term.attr]
            for value in term.values:
                key = fold(value)
                if kn is not None and key not in kn:
                    problems.append(Problem(
                        f"unknown-{term.attr}", tr("effects.lint.unknown", attr=term.attr, value=value),
                        _hint(key, kn, term.attr), where))
            if term.negated:
                negatives.setdefault(term.attr, set()).update(term.keys)
            elif term.attr in positives and term.attr != "keyword":
                both = positives[term.attr] & term.keys
                if not both:
                    problems.append(Problem(
                        "impossible-filter",
                        tr("effects.lint.one_only", attr=term.attr,
                           values=", ".join(sorted(positives[term.attr] | term.keys))),
                        tr("effects.lint.one_only_fix", attr=term.attr), where))
                positives[term.attr] = both
            else:
                positives.setdefault(term.attr, set()).update(term.keys)
        reversed_range = any(isinstance(t, ValueTerm) and t.min is not None and t.max is not None
                             and t.min > t.max for t in filt.terms)
        if lo is not None and hi is not None and lo > hi and not reversed_range:
            problems.append(Problem("impossible-filter",
                                    tr("effects.lint.no_value", lo=lo, hi=hi),
                                    tr("effects.lint.no_value_fix"), where))
        for attr, pos in positives.items():
            if pos and pos <= negatives.get(attr, set()):
                problems.append(Problem("impossible-filter",
                                        tr("effects.lint.required_excluded", attr=attr,
                                           values=", ".join(sorted(pos))),
                                        tr("effects.lint.required_excluded_fix"), where))
        if filt.other and zone is not Zone.HAND:
            problems.append(Problem(
                "no-effect", tr("effects.lint.other_useless", zone=zone.value if zone else tr("effects.lint.this_action")),
                tr("effects.lint.other_useless_fix"), where))

    def check_count(count: Count, where: str) -> None:
        check_filter(count.filter, where, count.zone)

    def check_comparison(cond: Comparison, where: str) -> None:
        check_count(cond.count, where)
        op, n = cond.op, cond.value
        most = HAND_SIZE - (1 if cond.count.filter.other else 0) \
            if cond.count.zone is Zone.HAND else None
        never = (op in ("<", "<=") and (n < 0 if op == "<=" else n <= 0)) or (op == "=" and n < 0)
        if most is not None and ((op == ">=" and n > most) or (op == ">" and n >= most)
                                 or (op == "=" and n > most)):
            never = True
        if never:
            problems.append(Problem("impossible-condition",
                                    tr("effects.lint.never", op=op, n=n), tr("effects.lint.never_fix"), where))
        if (op == ">=" and n <= 0) or (op == ">" and n < 0):
            problems.append(Problem("always-true", tr("effects.lint.always", op=op, n=n),
                                    tr("effects.lint.always_fix"), where))

    for i, rule in enumerate(effect.score, start=1):
        where = tr("effects.lint.score_rule", n=i)
        if rule.per is not None:
            check_count(rule.per, where)
        for cond in rule.conditions:
            check_comparison(cond, where)
    for i, action in enumerate(effect.on_discard, start=1):
        where = tr("effects.lint.discard_action", n=i)
        if isinstance(action, (Recover, Swap)):
            check_filter(action.filter, where, None if action.filter.other else action.zone)
    return problems


def _hint(key: str, known: frozenset[str], attr: str) -> str:
    close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
    if close:
        return tr("effects.parse.did_you_mean", word=close[0])
    return tr("effects.lint.use_existing", attr=attr)
