"""CT vs Terror's constants and the options a designer may change.

Every default below is a numbered ruling of ``docs/rulings/ctterror.md`` (cited as ``CT<n>``): the
rules text (``002_f9687a8de05e1ba9.txt``, machine-translated from Portuguese) is silent or ambiguous
there, so the choice is written down and, where designers could disagree, made an option.
"""

from __future__ import annotations

from dataclasses import dataclass

TERROR, CT = 0, 1
TEAMS = ("Terror", "CT")  # stable machine names (reports, JSON); Terror starts (CT1)
HAND = 5  # "each player receives 5 cards"
DRAW = 2  # "The player gets two cards"

# What a kind of card of the draw pile does (read from its name or type, see material.py).
BOMB, GAS, DEFUSE, DODGE, FRIENDLY, FLASH, HEADSHOT, RENFORT, RICOCHET = (
    "bomb", "gas", "defuse", "dodge", "friendly", "flash", "headshot", "renfort", "ricochet")
ARMOUR, MASK, WEAPON = "armour", "mask", "weapon"

NAMED_EFFECTS = {
    "bombe": BOMB, "grenade a gaz": GAS, "desamorcage": DEFUSE, "esquive": DODGE,
    "tir ami": FRIENDLY, "grenade flash": FLASH, "tir a la tete": HEADSHOT, "renfort": RENFORT,
    "ricochet": RICOCHET, "masque": MASK,
}

ODD_EXTRA = ("CT", "Terror")
FRIENDLY_FIRE = ("card", "attack")
RICOCHET_POOL = ("all", "others")
DEAL_BOMB = ("after_deal", "on_receipt")


@dataclass(slots=True, frozen=True)
class Rules:
    """Options of one CT vs Terror game (defaults: the rulings of docs/rulings/ctterror.md)."""

    odd_extra: str = "CT"  # CT1: with an odd count, the team that does not start has one more
    deal_bomb_teammates: bool = True  # CT3: a Bombe on the deal also hits the teammates (20 each)
    deal_bomb: str = "after_deal"  # CT3: Bombes of the deal go off after it, or "on_receipt"
    friendly_fire: str = "card"  # CT8: Tir ami deals the card's 20, or "attack": the attack's damage
    ricochet_pool: str = "all"  # CT9: the hand game's loser among all living players, or "others"
    flash_teammates: bool = True  # CT14: the Grenade flash blinds the thrower's teammates too
    max_turns: int = 400  # CT18: safety net, reported as ended_by = "turn_limit"

    def problems(self) -> list[str]:
        out = []
        if self.odd_extra not in ODD_EXTRA:
            out.append("odd_extra")
        if self.friendly_fire not in FRIENDLY_FIRE:
            out.append("friendly_fire")
        if self.ricochet_pool not in RICOCHET_POOL:
            out.append("ricochet_pool")
        if self.deal_bomb not in DEAL_BOMB:
            out.append("deal_bomb")
        if not isinstance(self.max_turns, int) or self.max_turns < 1:
            out.append("max_turns")
        return out
