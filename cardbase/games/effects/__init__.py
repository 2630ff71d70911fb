"""The NesPanini effect language: effects are data (source text stored with the card).

Public API::

    parse_effect(src) -> Effect            # raises EffectError (line, column, every problem)
    format_effect(effect) -> str           # canonical source, parse(format(e)) == e
    effect_to_french(effect) -> str        # the text printed on the card
    effect_to_english(effect) -> str       # the same text in English (ruling R13 for game terms)
    lint_effect(effect, known_names, known_colours, known_banners, known_keywords) -> list[Problem]
    score_bonus(effect, card, zones) -> int
    compile_score(effect) -> Callable[[card, zones], int]

The AST (what the engine interprets) is in ``cardbase.games.effects.ast``; docs/effects.md is the
reference.
"""

from __future__ import annotations

from cardbase.games.effects.ast import (
    ACTION_TYPES,
    EMPTY_EFFECT,
    PILE_ZONES,
    Action,
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
    ValueTerm,
    Zone,
)
from cardbase.games.effects.english import effect_to_english
from cardbase.games.effects.evaluate import compile_filter, compile_score, count_value, score_bonus
from cardbase.games.effects.french import effect_to_french
from cardbase.games.effects.lint import lint_effect
from cardbase.games.effects.parser import parse_effect
from cardbase.games.effects.printer import format_effect

__all__ = [
    "ACTION_TYPES", "EMPTY_EFFECT", "PILE_ZONES", "Action", "AttrTerm", "Bury", "Comparison",
    "Count", "Draw", "Effect", "Filter", "ForceDiscard", "Look", "Recover", "Reveal", "ScoreRule",
    "Swap", "ValueTerm", "Zone", "compile_filter", "compile_score", "count_value",
    "effect_to_english", "effect_to_french", "format_effect", "lint_effect", "parse_effect", "score_bonus",
]
