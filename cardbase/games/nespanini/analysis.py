"""What a NesPanini deck can do before a game is played: can it reach the end of the rules?

The rules end a game when the Cimetière holds 10 cards (5 per player, 5 alone in goldfish). Only
non-Légendaire cards ever reach a discard pile (ruling R8), so a deck with fewer than 5 of them
cannot discard its share: alone it never ends by the Cimetière, and against a deck like it the two
cannot reach 10. Such games end by ruling R10 (docs/rulings/nespanini.md), and ``cardbase deck validate``
warns about the deck (:func:`deck_warnings`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cardbase.i18n import tr
from cardbase.text import fold

from .cards import LEGENDARY
from .state import TURNS_PER_PLAYER

GAME = "nespanini"


@dataclass(slots=True, frozen=True)
class DeckWarning:
    """Something legal but worth knowing: ``code`` is stable, ``message`` and ``fix`` are text."""

    code: str
    message: str
    fix: str

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "fix": self.fix}

    def line(self) -> str:
        """The warning as one line of text (formatted in the current language)."""
        return tr("engine.warn.line", code=self.code, message=self.message, fix=self.fix)


def discardable_count(entries: Iterable[tuple[Iterable[str], int]]) -> int:
    """Copies of non-Légendaire cards among ``(keywords, copies)`` pairs."""
    return sum(n for keywords, n in entries if LEGENDARY not in {fold(k) for k in keywords or ()})


def ending_warnings(entries: Iterable[tuple[Iterable[str], int]]) -> list[DeckWarning]:
    """Warnings about the end of the game for a deck given as ``(keywords, copies)`` pairs."""
    entries = list(entries)
    n = discardable_count(entries)
    if n >= TURNS_PER_PLAYER:
        return []
    return [DeckWarning(
        "cimetiere-out-of-reach",
        tr("engine.warn.out_of_reach", count=n, need=TURNS_PER_PLAYER, total=2 * TURNS_PER_PLAYER),
        tr("engine.warn.out_of_reach_fix", missing=TURNS_PER_PLAYER - n),
    )]


# ----------------------------------------------------------------------------- goldfish blind spots

#: why goldfish cannot judge a card (ruling R7): its score counts the opponent's discard pile
#: (always empty alone) or the whole Cimetière (only the own pile alone); its Défausse effect acts
#: on the opponent (does nothing alone) or takes from the Cimetière (only the own pile alone)
BLIND_REASONS = ("score-opponent", "score-cimetiere", "effect-opponent", "effect-cimetiere")


def _zones_of(node: Any, out: set[str]) -> None:
    """Every zone named anywhere in an effect's tree (score rules, their counts and conditions)."""
    from cardbase.games.effects.ast import Zone

    if isinstance(node, Zone):
        out.add(str(node))
    elif isinstance(node, (tuple, list)):
        for x in node:
            _zones_of(x, out)
    elif hasattr(node, "__dataclass_fields__"):
        for name in node.__dataclass_fields__:
            _zones_of(getattr(node, name), out)


def goldfish_blind(card: Any) -> tuple[str, ...]:
    """The reasons (:data:`BLIND_REASONS`) why a goldfish batch does not judge ``card`` (a
    ``CardDef``); empty when goldfish sees all it does. A Défausse effect counts only on a card
    with the Défausse keyword (a ``defausse:`` part without it never fires)."""
    from .cards import DISCARD_KEYWORD, _effect_parts

    if not card.effect or not card.effect.strip():
        return ()
    effect, _, actions = _effect_parts(card)
    reasons: list[str] = []
    zones: set[str] = set()
    _zones_of(getattr(effect, "score", ()), zones)
    if "opponent_discards" in zones:
        reasons.append("score-opponent")
    if "cimetiere" in zones:
        reasons.append("score-cimetiere")
    if DISCARD_KEYWORD in card.keyword_keys:
        for act in actions:
            name = type(act).__name__
            zone = str(getattr(act, "zone", ""))
            if (name in ("ForceDiscard", "Reveal") or (name == "Bury" and act.opponent)
                    or zone == "opponent_discards"):
                if "effect-opponent" not in reasons:
                    reasons.append("effect-opponent")
            elif zone == "cimetiere" and "effect-cimetiere" not in reasons:
                reasons.append("effect-cimetiere")
    return tuple(reasons)
