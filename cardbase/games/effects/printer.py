"""Canonical printer: AST → source text, so that ``parse_effect(format_effect(e)) == e``."""

from __future__ import annotations

from cardbase.games.effects.ast import (
    AttrTerm,
    Bury,
    Comparison,
    Count,
    Draw,
    Effect,
    Filter,
    ForceDiscard,
    Look,
    Recover,
    Reveal,
    ScoreRule,
    Swap,
    Term,
    ValueTerm,
)
from cardbase.games.effects.parser import RESERVED, WORD_RE
from cardbase.text import fold


def _value(text: str) -> str:
    if WORD_RE.match(text) and fold(text) not in RESERVED and text == text.strip():
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _term(term: Term) -> str:
    if isinstance(term, ValueTerm):
        lo, hi = term.min, term.max
        if lo is not None and hi is not None:
            return f"value = {lo}" if lo == hi else f"value in {lo}..{hi}"
        if lo is not None:
            return f"value >= {lo}"
        if hi is not None:
            return f"value <= {hi}"
        raise ValueError("a value term needs a lower or an upper bound")
    assert isinstance(term, AttrTerm)
    if len(term.values) == 1:
        return f"{term.attr} {'!=' if term.negated else '='} {_value(term.values[0])}"
    inside = ", ".join(_value(v) for v in term.values)
    return f"{term.attr} {'not in' if term.negated else 'in'} ({inside})"


def format_filter(filt: Filter) -> str:
    parts = (["other"] if filt.other else []) + [_term(t) for t in filt.terms]
    return " and ".join(parts)


def _selection(zone_value: str, filt: Filter) -> str:
    return zone_value + (f" where {format_filter(filt)}" if not filt.is_empty else "")


def _count(count: Count) -> str:
    fn = "count" if count.kind == "cards" else "colours"
    return f"{fn}({_selection(count.zone.value, count.filter)})"


def _comparison(c: Comparison) -> str:
    return f"{_count(c.count)} {c.op} {c.value}"


def format_rule(rule: ScoreRule) -> str:
    out = f"score: {rule.amount:+d}"
    if rule.per is not None:
        kind = "card" if rule.per.kind == "cards" else "colour"
        out += f" per {kind} in {_selection(rule.per.zone.value, rule.per.filter)}"
        if rule.cap is not None:
            out += f" max {rule.cap}"
    if rule.conditions:
        out += " if " + " and ".join(_comparison(c) for c in rule.conditions)
    return out


def format_action(action: object) -> str:
    if isinstance(action, Draw):
        body = f"draw {action.n}"
    elif isinstance(action, Look):
        body = f"look {action.n} take {action.take}"
    elif isinstance(action, Recover):
        body = f"recover from {_selection(action.zone.value, action.filter)}"
    elif isinstance(action, Swap):
        body = f"swap with {_selection(action.zone.value, action.filter)}"
    elif isinstance(action, ForceDiscard):
        body = f"force_discard {action.n}"
    elif isinstance(action, Reveal):
        body = f"reveal {action.target}"
    elif isinstance(action, Bury):
        body = f"bury {action.n}" + (" opponent" if action.opponent else "")
    else:
        raise TypeError(f"not an action: {action!r}")
    return "defausse: " + body


def format_effect(effect: Effect) -> str:
    """The canonical source: score rules first, then Défausse actions, one a line, no final newline."""
    lines = [format_rule(r) for r in effect.score] + [format_action(a) for a in effect.on_discard]
    return "\n".join(lines)
