"""Overseers' box as plain values, built from the edition's cards (figures from the data).

Vertu & Vice cards are the cards with a value and one of the six colours (``copies`` copies each);
Personnages are the cards of type ``Personnage``, whose powers are read from their integer
``stats`` (the power language of ruling OV13, ``docs/rulings/overseers.md``). A card the engine
cannot read is a clear error naming the card; every problem is listed at once.

Copies (OV19): a game never uses more cards of a colour than the split's largest line asks
(``CAP``), nor more Personnages than players plus one, so the box keeps at most that many entries of
each card and remembers its true number of ``copies``; the game draws from the true counts
(:func:`draw`), as if every copy were in the box. A box of a million copies costs a few entries.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from random import Random

from cardbase.domain import CardDef
from cardbase.errors import CardbaseError, Problem
from cardbase.i18n import tr
from cardbase.text import fold

from .rules import ACTIONS, ADMIT, BONUS, BOTTOM, COLOURS, FIXED, POWER_KEYS, SPLIT, SPY, VOL, VOTE

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
    vol: bool  # a Vol card (OV21)
    copies: int = 1  # copies of this card in the box (the box keeps at most CAP entries, OV19)


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
    copies: int = 1  # copies of this Personnage in the box (at most CHARACTER_CAP entries, OV19)


# OV19: the most entries of one card a game can use: its colour's largest split line; Personnages:
# one per player plus one (the character choice variant)
CAP = {colour: max(line[colour] for line in SPLIT.values()) for colour in COLOURS}
CHARACTER_CAP = max(SPLIT) + 1


@dataclass(slots=True, frozen=True)
class Box:
    cards: tuple[Card, ...]  # one entry per usable copy (at most CAP of each card, OV19)
    characters: tuple[Character, ...]  # likewise, at most CHARACTER_CAP of each


def groups(entries: Sequence[Card | Character]) -> list[tuple[list[int], int]]:
    """The entries of each card of the box, in order, with the card's true number of copies."""
    runs: list[list[int]] = []
    last = None
    for i, e in enumerate(entries):
        if e is last:
            runs[-1].append(i)
        else:
            runs.append([i])
            last = e
    return [(run, max(entries[run[0]].copies, len(run))) for run in runs]


def draw(rng: Random, among: Sequence[tuple[list[int], int]], k: int) -> list[int]:
    """``k`` entries drawn at random among every copy of the cards ``among`` (OV19).

    The same as ``rng.sample`` over the expanded copies (the same draws of ``rng`` when every card
    has one copy), without expanding them: a drawn copy is the next unused entry of its card."""
    starts: list[int] = []
    total = 0
    for _, copies in among:
        starts.append(total)
        total += copies
    used = [0] * len(among)
    out = []
    for pos in rng.sample(range(total), k):
        g = bisect_right(starts, pos) - 1
        out.append(among[g][0][used[g]])
        used[g] += 1
    return out


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
            if ch is not None and c.copies > 0:
                ch = replace(ch, copies=c.copies)
                chars.extend([ch] * min(c.copies, CHARACTER_CAP))
            continue
        if c.value is None or c.colour not in COLOURS:
            problems.append(Problem("overseers-card", tr("overseers.material.bad_card", name=c.name),
                                    tr("overseers.material.bad_card_fix",
                                       colours=", ".join(COLOURS)), c.ref))
            continue
        if c.copies > 0:
            vv.extend([Card(c.ref, c.name, int(c.value), COLOURS.index(c.colour),
                            c.has_keyword(vol_keyword), c.copies)] * min(c.copies, CAP[c.colour]))
    if len(vv) >= ACTIONS or len(chars) >= ACTIONS:  # OV19: an action names an entry below ACTIONS
        problems.append(Problem("overseers-size", tr("overseers.material.too_many",
                                                      cards=len(vv) + len(chars), limit=ACTIONS - 1),
                                tr("overseers.material.too_many_fix"), ""))
    if problems:
        raise MaterialError(tr("overseers.material.title"), problems)
    return Box(tuple(vv), tuple(chars))


def check_box(box: Box, players: int, character_choice: bool) -> None:
    """The player count's split (OV1) and enough Personnages must fit in the box."""
    problems: list[Problem] = []
    line = SPLIT[players]
    for i, colour in enumerate(COLOURS):
        have = sum(copies for entries, copies in groups(box.cards) if box.cards[entries[0]].colour == i)
        if have < line[colour]:
            problems.append(Problem("overseers-split", tr("overseers.material.short_colour",
                                                           colour=colour, have=have,
                                                           need=line[colour], players=players),
                                    tr("overseers.material.short_colour_fix"), ""))
    need = players + (1 if character_choice else 0)
    have = sum(copies for _, copies in groups(box.characters))
    if have < need:
        problems.append(Problem("overseers-characters", tr("overseers.material.few_characters",
                                                            have=have, need=need),
                                tr("overseers.material.few_characters_fix"), ""))
    if problems:
        raise MaterialError(tr("overseers.material.title"), problems)
