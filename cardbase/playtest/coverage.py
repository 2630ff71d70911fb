"""Rule coverage: how often each rule of a game came up, and how often the players used it.

A game's state counts, while it is played (its fast greedy play-out included), for each *rule key*
— a kind of decision, an answer window, an atout or card effect, an ending — how many times the rule
*could* be used (``occasions``) and how many times it *was* (``used``)::

    state.coverage() -> {"deny": [occasions, used], "atout:overseer": [12, 3], …}

Keys are the game's own; the game's ``rulings`` module names them in ``COVERAGE`` (a label in each
language, the occasion it is counted over, and ``rulebook``: whether the rulebook names this rule).
A batch adds the games' counts up (:func:`merge`), reports them (:func:`as_json`) and warns
(:func:`warnings`) when a rule the rulebook names is used in under 1 % of its occasions: the
figures then describe a game played almost without that rule.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping
from typing import Any

from cardbase.i18n import current_language, tr, translate

RARE = 0.01  # a rulebook rule used in under 1 % of its occasions is reported
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")  # a value in an action's label


def merge(counts: Iterable[Mapping[str, Any] | None]) -> dict[str, list[int]]:
    """The sum of several games' ``coverage()`` (None: a game that counted nothing)."""
    total: dict[str, list[int]] = {}
    for one in counts:
        for key, (occasions, used) in (one or {}).items():
            slot = total.setdefault(key, [0, 0])
            slot[0] += int(occasions)
            slot[1] += int(used)
    return dict(sorted(total.items()))


def labels(code: str) -> dict[str, dict[str, Any]]:
    """The game's ``COVERAGE`` table (empty when it has none)."""
    try:
        module = importlib.import_module(f"cardbase.games.{code}.rulings")
    except ModuleNotFoundError:
        return _rules_file_labels(code)
    return dict(getattr(module, "COVERAGE", {}))


def _rules_file_labels(code: str) -> dict[str, dict[str, Any]]:
    """A game written as data: its actions and endings by the labels of its rules file (« Couper »,
    not ``couper``); empty when it has no file or the file does not pass the checker."""
    from cardbase.games.rulesdata.register import valid_rules

    rules = valid_rules(code)
    if rules is None:
        return {}
    # every action is a rule of the game: one the bots almost never play when they may is reported
    occasion = {lang: translate(lang, "coverage.action_occasion") for lang in ("fr", "en")}
    # a label with values (« Annoncer {count('chosen')} × … ») said without them: « Annoncer … × … »
    out = {a.name: {**{k: _PLACEHOLDER.sub("…", v) for k, v in dict(a.label).items()}, "rulebook": True,
                    "occasion": occasion} for a in rules.actions}
    # [[coverage]]: a rule counted each time its action is played (a bluff)
    for t in rules.tallies:
        action = out.get(t.action, {})
        out[t.name] = {**(t.label or {"fr": t.name}), "rulebook": True, "tally": True, "occasion": {
            lang: translate(lang, "coverage.tally_occasion", action=action.get(lang) or action.get("fr") or t.action)
            for lang in ("fr", "en")}}
    return out | {f"ending:{e.name}": dict(e.label) for e in rules.endings if e.label}


def _label(meta: Mapping[str, Any], key: str, lang: str) -> str:
    """A rule key in words; an ending the game does not name (``ending:rounds``) by the words the
    batches use for it (« Fin des manches »), the key itself as a last resort."""
    if meta.get(lang) or meta.get("fr"):
        return meta.get(lang) or meta.get("fr")
    kind, _, rest = key.partition(":")
    if kind == "ending" and rest:
        from cardbase import i18n

        ending = i18n.find(lang, f"games.ended.{rest}")
        if ending:
            return ending
    return key


def ending_words(key: str, code: str | None = None, lang: str | None = None) -> str:
    """How a game ended, in words: the game ``code``'s own label for the ending (a rules file's
    ``[[end.conditions]] label``, a hand-written game's ``COVERAGE``), else the batches' text for a
    known ending, else its code."""
    lang = lang or current_language()
    meta = (labels(code).get(f"ending:{key}") or {}) if code else {}
    words = _label(meta, f"ending:{key}", lang)
    return key if words == f"ending:{key}" else words


def as_json(code: str, total: Mapping[str, list[int]], games: int) -> dict[str, Any]:
    """JSON ``coverage``: per key its occasions, uses, rate, uses per game and label."""
    meta = labels(code)
    lang = current_language()
    out: dict[str, Any] = {}
    for key, (occasions, used) in total.items():
        m = meta.get(key, {})
        out[key] = {"label": _label(m, key, lang), "occasions": occasions, "used": used,
                    "rate": used / occasions if occasions else None,
                    "per_game": used / games if games else 0.0,
                    "rulebook": bool(m.get("rulebook", False))}
    return out


def warnings(code: str, total: Mapping[str, list[int]]) -> list[str]:
    """One line per rulebook rule used in under 1 % of its occasions (current language)."""
    return _lines(code, total, "coverage.rare", lambda m, rate: bool(m.get("rulebook")) and rate < RARE)


def tallies(code: str, total: Mapping[str, list[int]]) -> list[str]:
    """One line per ``[[coverage]]`` rule of a rules file: how often it was used when it could be
    (« Bluff : 12,3 % des fois où « Poser » a été jouée (45 sur 366) »), in the current language."""
    return _lines(code, total, "coverage.tally_line", lambda m, rate: bool(m.get("tally")))


def _lines(code: str, total: Mapping[str, list[int]], message: str, keep: Any) -> list[str]:
    """The message ``message`` for each rule key of ``total`` with occasions that ``keep(meta, rate)``
    selects: the rule in words, its rate, its occasion, its counts."""
    meta = labels(code)
    lang = current_language()
    lines = []
    for key, (occasions, used) in total.items():
        m = meta.get(key)
        if not m or occasions <= 0 or not keep(m, used / occasions):
            continue
        occasion = m.get("occasion", {})
        lines.append(tr(message, rule=_label(m, key, lang), rate=_rate(used / occasions, lang),
                        occasion=occasion.get(lang) or occasion.get("fr") or "", used=used,
                        occasions=occasions))
    return lines


def _rate(x: float, lang: str) -> str:
    text = f"{100 * x:.1f}"
    return (text.replace(".", ",") if lang == "fr" else text) + " %"
