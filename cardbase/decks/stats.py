"""Statistics of a deck: curve, colours, the odds of drawing a card by a turn (:func:`deck_stats`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any

from cardbase.errors import Problem
from cardbase.text import fold

from .lists import DeckList, ResolvedDeck, ResolvedEntry
from .resolve import _as_resolved

if TYPE_CHECKING:  # pragma: no cover
    from sqlmodel import Session

    from cardbase.storage.models import Game
    from cardbase.storage.readonly import ReadOnlyDB

# --------------------------------------------------------------------------- statistics


@dataclass(slots=True, frozen=True)
class DrawPlan:
    """How many cards a player has seen by each turn: opening hand, then draws."""

    opening: int = 5
    per_turn: int = 1
    turns: int = 5

    def seen(self, turn: int) -> int:
        return self.opening + self.per_turn * turn


NESPANINI_DRAWS = DrawPlan(5, 1, 5)
DRAW_PLANS: dict[str, DrawPlan] = {"nespanini": NESPANINI_DRAWS}


def prob_at_least_one(deck_size: int, copies: int, seen: int) -> Fraction:
    """Exact probability of holding at least one of ``copies`` cards among ``seen`` drawn from
    ``deck_size`` without replacement (hypergeometric)."""
    if not 0 <= copies <= deck_size or seen < 0:
        raise ValueError(f"bad draw: {copies} copies, {seen} seen, deck of {deck_size}")
    seen = min(seen, deck_size)
    return 1 - Fraction(comb(deck_size - copies, seen), comb(deck_size, seen))


@dataclass(slots=True, frozen=True)
class CardOdds:
    name: str
    ref: str
    copies: int
    by_turn: tuple[Fraction, ...]  # index 0: opening hand; index t: after turn t's draw

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ref": self.ref, "copies": self.copies,
                "by_turn": [round(float(p), 6) for p in self.by_turn]}


@dataclass(slots=True, frozen=True)
class DeckStats:
    count: int
    total_value: int
    mean_value: float | None
    value_curve: dict[int, int]
    colours: dict[str, int]
    keywords: dict[str, int]
    rarities: dict[str, int]
    draw_plan: DrawPlan | None
    draw_odds: tuple[CardOdds, ...]
    problems: tuple[Problem, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "total_value": self.total_value,
            "mean_value": None if self.mean_value is None else round(self.mean_value, 4),
            "value_curve": {str(k): v for k, v in self.value_curve.items()},
            "colours": self.colours,
            "keywords": self.keywords,
            "rarities": self.rarities,
            "seen_by_turn": [self.draw_plan.seen(t) for t in range(self.draw_plan.turns + 1)]
            if self.draw_plan else [],
            "draw_odds": [o.as_dict() for o in self.draw_odds],
            "problems": [p.as_dict() for p in self.problems],
        }


def deck_stats(session: Session | ReadOnlyDB, deck: DeckList | ResolvedDeck | Sequence[Any],
               game: str | Game | None = None, *, plan: DrawPlan | None = None) -> DeckStats:
    """Value curve, colours, keywords, rarities and exact draw odds of the cards that resolve.

    Odds are by card name (printings together), over the cards found: deck size is the number of
    resolved cards. The draw plan is the game's (NesPanini: 5 in hand, then 1 a turn for 5 turns).
    """
    resolved = _as_resolved(session, deck, game)
    entries = resolved.entries
    n = sum(e.count for e in entries)
    curve: Counter[int] = Counter()
    colours: Counter[str] = Counter()
    keywords: Counter[str] = Counter()
    rarities: Counter[str] = Counter()
    total = 0
    valued = 0
    for e in entries:
        c = e.card
        if c.value is not None:
            curve[c.value] += e.count
            total += c.value * e.count
            valued += e.count
        colours[c.colour or "—"] += e.count
        rarities[c.rarity or "—"] += e.count
        for kw in c.keywords or []:
            keywords[kw] += e.count
    if plan is None and resolved.game is not None:
        plan = DRAW_PLANS.get(resolved.game.code)
    odds: list[CardOdds] = []
    if plan is not None and n:
        groups: dict[str, list[ResolvedEntry]] = {}
        for e in entries:
            groups.setdefault(e.card.name_key or fold(e.card.name), []).append(e)
        for group in groups.values():
            k = sum(e.count for e in group)
            odds.append(CardOdds(
                group[0].card.name, group[0].ref, k,
                tuple(prob_at_least_one(n, k, plan.seen(t)) for t in range(plan.turns + 1))))
    return DeckStats(
        count=n,
        total_value=total,
        mean_value=(total / valued) if valued else None,
        value_curve=dict(sorted(curve.items())),
        colours=dict(colours.most_common()),
        keywords=dict(keywords.most_common()),
        rarities=dict(rarities.most_common()),
        draw_plan=plan,
        draw_odds=tuple(odds),
        problems=resolved.problems,
    )
