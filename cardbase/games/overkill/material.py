"""OVERKILL's box as plain values, built from the edition's cards (figures from the data).

Number cards are the cards with a value and a colour (``rouge`` / ``noir``) and ``copies`` copies
each; the two 99s are the cards with the keyword ``Hors pioche`` (outside the draw pile); atouts are
the cards whose type is one of the five classes. A card the engine cannot read is a clear error
naming the card.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cardbase.domain import CardDef
from cardbase.errors import CardbaseError, Problem
from cardbase.i18n import tr
from cardbase.text import fold

from .rules import (
    BET,
    CHALLENGERS,
    COLOURS,
    NAMED_EFFECTS,
    NEGOCIATERS,
    OBJECTIVE,
    PASSIVE_CLASSES,
)

CLASSES = {"helpers": "helpers", "challengers": CHALLENGERS, "negociaters": NEGOCIATERS,
           "offensives": "offensives", "defensives": "defensives"}


class MaterialError(CardbaseError):
    """OVERKILL cards the engine cannot play with."""


@dataclass(slots=True, frozen=True)
class NumberCard:
    ref: str
    name: str
    value: int
    colour: int  # 0 rouge, 1 noir


@dataclass(slots=True, frozen=True)
class Atout:
    ref: str
    name: str
    cls: str  # helpers, challengers, negociaters, offensives, defensives
    effect: str  # one of rules.* effect names
    passive: bool
    figure: int = 0  # the new objective (Challengers) or the change to the bet (Negociaters)
    text: str = ""


@dataclass(slots=True, frozen=True)
class Box:
    """Everything on the table: the draw pile's cards, the two 99s and the atouts."""

    numbers: tuple[NumberCard, ...]  # one entry per physical card (copies expanded)
    nines: tuple[NumberCard, ...]  # the 99s, outside the pile
    atouts: tuple[Atout, ...]

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(c.value for c in self.numbers)


def box_from_cards(cards: Iterable[CardDef]) -> Box:
    """The box of an OVERKILL edition; every unreadable card is listed at once."""
    numbers: list[NumberCard] = []
    nines: list[NumberCard] = []
    atouts: list[Atout] = []
    problems: list[Problem] = []
    for c in cards:
        cls = CLASSES.get(fold(c.card_type or ""))
        if cls is None:
            cls = CLASSES.get(fold(c.banner or ""))
        if cls is not None:
            effect = NAMED_EFFECTS.get(fold(c.name))
            figure = 0
            if cls == CHALLENGERS:
                effect, figure = OBJECTIVE, c.stat("objectif")
            elif cls == NEGOCIATERS:
                effect, figure = BET, c.stat("pari")
            if effect is None or not isinstance(figure, int) or isinstance(figure, bool):
                key = ("overkill.material.no_figure" if cls in (CHALLENGERS, NEGOCIATERS)
                       else "overkill.material.unknown_atout")
                problems.append(Problem("overkill-atout", tr(key, name=c.name),
                                        tr(key + "_fix"), c.ref))
                continue
            for _ in range(max(c.copies, 0)):
                atouts.append(Atout(c.ref, c.name, cls, effect, cls in PASSIVE_CLASSES, figure,
                                    c.effect_text or ""))
            continue
        colour = COLOURS.index(c.colour) if c.colour in COLOURS else -1
        if c.value is None or colour < 0:
            problems.append(Problem("overkill-card", tr("overkill.material.bad_card", name=c.name),
                                    tr("overkill.material.bad_card_fix"), c.ref))
            continue
        card = NumberCard(c.ref, c.name, int(c.value), colour)
        if c.has_keyword("Hors pioche"):
            nines.append(card)
        else:
            numbers.extend([card] * max(c.copies, 0))
    for colour in (0, 1):
        if sum(1 for n in numbers if n.colour == colour) < 4:
            problems.append(Problem("overkill-pile", tr("overkill.material.small_pile",
                                                        colour=COLOURS[colour]),
                                    tr("overkill.material.small_pile_fix"), ""))
    if problems:
        raise MaterialError(tr("overkill.material.title"), problems)
    return Box(tuple(numbers), tuple(nines), tuple(atouts))
