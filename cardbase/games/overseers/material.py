"""Overseers' box as plain values, built from the edition's cards (figures from the data).

Vertu & Vice cards are the cards with a value and one of the six colours (``copies`` copies each);
Personnages are the cards of type ``Personnage``, whose powers are read from their integer
``stats`` (the power language of ruling OV13, ``docs/rulings/overseers.md``). A card the engine
cannot read is a clear error naming the card; every problem is listed at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cardbase.domain import CardDef
from cardbase.errors import CardbaseError, Problem
from cardbase.i18n import tr
from cardbase.text import fold

from .rules import ADMIT, BONUS, BOTTOM, COLOURS, FIXED, POWER_KEYS, SPLIT, SPY, VOL, VOTE

CHARACTER_TYPE = "personnage"


class MaterialError(CardbaseError):
    """Overseers cards the engine cannot play with."""


@dataclass(slots=True, frozen=True)
class Card:
    """One physical Vertu & Vice card."""

    ref: str
    name: str
    value: int
    colour: int  # index in rules.COLOURS
    vol: bool  # a Vol card (OV9)


@dataclass(slots=True, frozen=True)
class Character:
    """One Personnage and its powers (OV13)."""

    ref: str
    name: str
    text: str = ""
    vote: int = 1
    vol: int = 0
    bottom: int = 2
    admit: int = 2
    spy: int = 0
    bonus: tuple[int, ...] = (0, 0, 0, 0, 0, 0)  # per colour
    fixed: tuple[int, ...] = (0, 0, 0, 0, 0, 0)  # per colour, 0 = none


@dataclass(slots=True, frozen=True)
class Box:
    cards: tuple[Card, ...]  # one entry per physical card (copies expanded)
    characters: tuple[Character, ...]


def _power(c: CardDef, problems: list[Problem]) -> Character | None:
    figures = {VOTE: 1, VOL: 0, BOTTOM: 2, ADMIT: 2, SPY: 0}
    bonus = [0] * len(COLOURS)
    fixed = [0] * len(COLOURS)
    bad = False
    for key, val in c.stats:
        k = fold(key).replace(" ", "_")
        if not isinstance(val, int) or isinstance(val, bool):
            problems.append(Problem("overseers-power", tr("overseers.material.bad_figure",
                                                           name=c.name, key=key, value=val),
                                    tr("overseers.material.power_fix"), c.ref))
            bad = True
            continue
        if k in POWER_KEYS:
            figures[k] = val
        elif k.startswith(BONUS) and k[len(BONUS):] in COLOURS:
            bonus[COLOURS.index(k[len(BONUS):])] = val
        elif k.startswith(FIXED) and k[len(FIXED):] in COLOURS:
            fixed[COLOURS.index(k[len(FIXED):])] = val
        else:
            problems.append(Problem("overseers-power", tr("overseers.material.unknown_power",
                                                           name=c.name, key=key),
                                    tr("overseers.material.power_fix"), c.ref))
            bad = True
    if figures[VOTE] < 0 or figures[BOTTOM] not in (2, 3) or not 0 <= figures[ADMIT] <= 5 \
            or figures[SPY] < 0 or figures[VOL] < 0:
        problems.append(Problem("overseers-power", tr("overseers.material.out_of_range", name=c.name),
                                tr("overseers.material.power_fix"), c.ref))
        bad = True
    if bad:
        return None
    return Character(c.ref, c.name, c.effect_text or "", figures[VOTE], figures[VOL],
                     figures[BOTTOM], figures[ADMIT], figures[SPY], tuple(bonus), tuple(fixed))


def box_from_cards(cards: Iterable[CardDef], vol_keyword: str = "Vol") -> Box:
    """The box of an Overseers edition; every unreadable card is listed at once."""
    vv: list[Card] = []
    chars: list[Character] = []
    problems: list[Problem] = []
    for c in cards:
        if fold(c.card_type or "") == CHARACTER_TYPE:
            ch = _power(c, problems)
            if ch is not None:
                chars.extend([ch] * max(c.copies, 0))
            continue
        if c.value is None or c.colour not in COLOURS:
            problems.append(Problem("overseers-card", tr("overseers.material.bad_card", name=c.name),
                                    tr("overseers.material.bad_card_fix",
                                       colours=", ".join(COLOURS)), c.ref))
            continue
        vv.extend([Card(c.ref, c.name, int(c.value), COLOURS.index(c.colour),
                        c.has_keyword(vol_keyword))] * max(c.copies, 0))
    if problems:
        raise MaterialError(tr("overseers.material.title"), problems)
    return Box(tuple(vv), tuple(chars))


def check_box(box: Box, players: int, character_choice: bool) -> None:
    """The player count's split (OV1) and enough Personnages must fit in the box."""
    problems: list[Problem] = []
    line = SPLIT[players]
    for i, colour in enumerate(COLOURS):
        have = sum(1 for c in box.cards if c.colour == i)
        if have < line[colour]:
            problems.append(Problem("overseers-split", tr("overseers.material.short_colour",
                                                           colour=colour, have=have,
                                                           need=line[colour], players=players),
                                    tr("overseers.material.short_colour_fix"), ""))
    need = players + (1 if character_choice else 0)
    if len(box.characters) < need:
        problems.append(Problem("overseers-characters", tr("overseers.material.few_characters",
                                                            have=len(box.characters), need=need),
                                tr("overseers.material.few_characters_fix"), ""))
    if problems:
        raise MaterialError(tr("overseers.material.title"), problems)
