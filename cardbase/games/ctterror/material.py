"""CT vs Terror's box as plain values, built from the edition's cards (figures from the data).

- characters: the cards of type ``Personnage``, their team from the banner (``CT`` or
  ``Terroriste``) and their base weapon's ``damage``;
- life cards: type ``Points de vie``, ``life`` (100) and ``life_step`` (20);
- the draw pile: every other card, ``copies`` copies each, its effect read from its name (Bombe,
  Grenade à gaz, Désamorçage, Esquive, Tir ami, Grenade flash, Tir à la tête, Renfort, Ricochet,
  Masque) or its type (``Armure`` with an ``armour`` figure, ``Arme`` with a ``damage`` figure).

A card the engine cannot read, or a figure missing, is a clear error naming the card; every problem
is listed at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cardbase.domain import CardDef
from cardbase.errors import CardbaseError, Problem
from cardbase.i18n import tr
from cardbase.text import fold

from .rules import (
    ARMOUR,
    BOMB,
    CT,
    FRIENDLY,
    NAMED_EFFECTS,
    RICOCHET,
    TERROR,
    WEAPON,
)

TEAM_BANNERS = {"ct": CT, "contre-terroriste": CT, "contre-terroristes": CT, "terroriste": TERROR,
                "terroristes": TERROR, "terror": TERROR, "terrorist": TERROR}


class MaterialError(CardbaseError):
    """CT vs Terror cards the engine cannot play with."""


@dataclass(slots=True, frozen=True)
class Character:
    ref: str
    name: str
    team: int  # rules.TERROR or rules.CT
    damage: int  # the base weapon (".38", 20)


@dataclass(slots=True, frozen=True)
class Kind:
    """One kind of card of the draw pile (one row of the edition, ``copies`` physical cards)."""

    ref: str
    name: str
    effect: str  # rules.* effect name
    copies: int
    figure: int = 0  # damage (weapons, Bombe, Tir ami, Ricochet) or armour reduction
    team_figure: int = 0  # Bombe: the damage to each teammate on the deal (CT3)
    counter: bool = False  # a weapon that may counter-attack (keyword Défense, CT7)


@dataclass(slots=True, frozen=True)
class Box:
    characters: tuple[Character, ...]
    life: int
    life_step: int
    life_cards: int
    kinds: tuple[Kind, ...]

    @property
    def pile_size(self) -> int:
        return sum(k.copies for k in self.kinds)

    @property
    def total(self) -> int:
        """Every card of the box: characters, life cards and the draw pile (68 in the rules)."""
        return len(self.characters) + self.life_cards + self.pile_size


def _figure(c: CardDef, name: str) -> int | None:
    v = c.stat(name)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        return None
    return v


def box_from_cards(cards: Iterable[CardDef]) -> Box:
    """The box of a CT vs Terror edition; every unreadable card is listed at once."""
    characters: list[Character] = []
    kinds: list[Kind] = []
    life = step = None
    life_cards = 0
    problems: list[Problem] = []

    def bad(key: str, c: CardDef, **kw: object) -> None:
        problems.append(Problem("ctterror-card", tr(f"ctterror.material.{key}", name=c.name, **kw),
                                tr(f"ctterror.material.{key}_fix"), c.ref))

    for c in cards:
        ctype = fold(c.card_type or "")
        copies = max(c.copies, 0)
        if ctype == "personnage":
            team = TEAM_BANNERS.get(fold(c.banner or ""))
            damage = _figure(c, "damage")
            if team is None:
                bad("no_team", c)
            elif damage is None:
                bad("no_figure", c, stat="damage")
            else:
                characters.extend([Character(c.ref, c.name, team, damage)] * copies)
            continue
        if ctype == "points de vie":
            lv, st = _figure(c, "life"), _figure(c, "life_step")
            if not lv or not st:
                bad("no_figure", c, stat="life, life_step")
            else:
                life, step = lv, st
                life_cards += copies
            continue
        effect = NAMED_EFFECTS.get(fold(c.name))
        figure = team_figure = 0
        counter = False
        if effect is None and ctype == "armure":
            effect = ARMOUR
        elif effect is None and ctype == "arme":
            effect = WEAPON
        if effect is None:
            bad("unknown", c)
            continue
        need = {WEAPON: "damage", ARMOUR: "armour", BOMB: "damage", FRIENDLY: "damage",
                RICOCHET: "damage"}.get(effect)
        if need:
            f = _figure(c, need)
            if f is None:
                bad("no_figure", c, stat=need)
                continue
            figure = f
        if effect == BOMB:
            tf = _figure(c, "team_damage")
            if tf is None:
                bad("no_figure", c, stat="team_damage")
                continue
            team_figure = tf
        if effect == WEAPON:
            counter = c.has_keyword("Défense")  # CT12: a weapon without it is an explosive
        kinds.append(Kind(c.ref, c.name, effect, copies, figure, team_figure, counter))
    teams = {t: sum(1 for ch in characters if ch.team == t) for t in (TERROR, CT)}
    if not teams[TERROR] or not teams[CT]:
        problems.append(Problem("ctterror-box", tr("ctterror.material.no_characters"),
                                tr("ctterror.material.no_characters_fix"), ""))
    if life is None or not life_cards:
        problems.append(Problem("ctterror-box", tr("ctterror.material.no_life"),
                                tr("ctterror.material.no_life_fix"), ""))
    if sum(k.copies for k in kinds) < 10:
        problems.append(Problem("ctterror-box", tr("ctterror.material.small_pile"),
                                tr("ctterror.material.small_pile_fix"), ""))
    if problems:
        raise MaterialError(tr("ctterror.material.title"), problems)
    assert life is not None and step is not None
    return Box(tuple(characters), life, step, life_cards, tuple(kinds))
