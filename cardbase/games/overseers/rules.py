"""Overseers' constants and the options a designer may change.

Every default below is a numbered ruling of ``docs/rulings/overseers.md`` (cited as ``OV<n>``): the
rules text (``004_327650e24949376e.txt``) is silent or ambiguous there, so the choice is written
down and, where designers could disagree, made an option.
"""

from __future__ import annotations

from dataclasses import dataclass

ROUNDS = 3  # "Overseeer est un jeu qui se joue en 3 manches"
DEALT = 6  # "distribuez-en 6 à chaque joueur"
TOP_ROW = 3  # "La rangée du haut avec 3 cartes et la rangée du bas avec 2 cartes"
BOTTOM_ROW = 2
ADMIT_DISCARDS = 2  # "ADMETTRE : Le joueur choisit alors librement 2 de ses cartes et les défausse"
PENALTY_CARDS = 2  # "perdre … les 2 cartes qui lui rapportent le plus de points"

# Actions are integers ``kind * ACTIONS + argument`` (state.K): an argument (a card entry of the
# box, a mask, a seat) stays below ACTIONS, so two actions never share a number (OV19).
ACTIONS = 1_000_000

COLOURS = ("rouge", "orange", "violet", "bleu", "vert", "gris")
# « RÉPARTITION DES CARTES »: cards of each colour used by player count (OV1).
SPLIT = {
    3: {"rouge": 3, "orange": 4, "violet": 5, "bleu": 5, "vert": 5, "gris": 3},
    4: {"rouge": 3, "orange": 4, "violet": 5, "bleu": 5, "vert": 5, "gris": 3},
    5: {"rouge": 4, "orange": 6, "violet": 6, "bleu": 6, "vert": 6, "gris": 4},
    6: {"rouge": 5, "orange": 6, "violet": 7, "bleu": 7, "vert": 7, "gris": 4},
}

# The power language of the Personnages (OV13): integer ``stats`` of the character's card.
VOTE = "vote"  # the weight of the character's vote token (default 1)
VOL = "vol"  # Vol cards added to the character's count at the steal
BOTTOM = "rangee_bas"  # how many cards the character may put in the bottom row (default 2)
ADMIT = "admettre"  # how many cards the character discards on admitting (default 2)
SPY = "espion"  # how many bottom-row cards of another player the character looks at (placement)
BONUS = "bonus_"  # bonus_<colour> = N: each card of that colour is worth N more at the count
FIXED = "fixe_"  # fixe_<colour> = N: one card of that colour is worth N at the count
POWER_KEYS = (VOTE, VOL, BOTTOM, ADMIT, SPY)

SPLIT_MODES = ("random", "first")
STOLEN_VALUES = ("printed", "holder")  # OV9: a stolen card's worth to the thief


@dataclass(slots=True, frozen=True)
class Rules:
    """Options of one Overseers game (defaults: the rulings of docs/rulings/overseers.md)."""

    split: str = "random"  # OV1: which cards of each colour are used (random or the first numbers)
    alternate_direction: bool = False  # variant: pass left, then right, then left again (OV12)
    character_choice: bool = False  # variant: rounds 2-3, choose among players + 1 (OV22)
    vol_keyword: str = "Vol"  # OV21: the keyword that makes a card a Vol card
    # OV9: "la carte retrouve sa valeur d'origine entre les mains du voleur": the stolen card is
    # worth its printed value to the thief ("printed"); "holder": the thief's powers apply to it
    stolen_value: str = "printed"

    def problems(self) -> list[str]:
        out = []
        if self.split not in SPLIT_MODES:
            out.append("split")
        if self.stolen_value not in STOLEN_VALUES:
            out.append("stolen_value")
        if not self.vol_keyword.strip():
            out.append("vol_keyword")
        return out
