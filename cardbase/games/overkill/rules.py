"""OVERKILL's constants and the options a designer may change.

Every default below is a numbered ruling of ``docs/rulings/overkill.md`` (cited as ``OK<n>``): the
rules text (``000_018393eb38a1d79c.txt``) is silent or ambiguous there, so the choice is written down
and, where designers could disagree, made an option.
"""

from __future__ import annotations

from dataclasses import dataclass

RED, BLACK = 0, 1
COLOURS = ("rouge", "noir")
INITIAL_OBJECTIVE = 21  # "1 objectif initialisé à 21"
DEALT_PER_COLOUR = 2  # "2 cartes rouges et 2 cartes noires … dont une rouge et une noire retournée"
ATOUTS_DEALT = 3  # "3 atouts chacun"

# Atout classes as the rules name them (card type / banner in the data).
HELPERS, CHALLENGERS, NEGOCIATERS, OFFENSIVES, DEFENSIVES = (
    "helpers", "challengers", "negociaters", "offensives", "defensives")
PASSIVE_CLASSES = frozenset({HELPERS, CHALLENGERS, NEGOCIATERS})

# What each named atout does. Challengers and Negociaters take their figure from the card data
# (stats ``objectif`` / ``pari``), so a designer can add or change one without code.
SNAKE_EYE, OVERSEER, RETRACER, SPY = "snake_eye", "overseer", "retracer", "spy"
GIFTER, YOINKER, REMOVER, REWINDER = "gifter", "yoinker", "remover", "rewinder"
SAVER, PATCHER, SWITCHER = "saver", "patcher", "switcher"
OBJECTIVE, BET = "objective", "bet"

NAMED_EFFECTS = {
    "snake eye": SNAKE_EYE, "overseer": OVERSEER, "retracer": RETRACER, "spy": SPY,
    "gifter": GIFTER, "yoinker": YOINKER, "remover": REMOVER, "rewinder": REWINDER,
    "saver": SAVER, "mistake patcher": PATCHER, "switcher": SWITCHER,
}
# Effects that pick one of the two colour lines.
COLOUR_CHOICE = frozenset({YOINKER, REWINDER, SAVER, PATCHER, SWITCHER})

POINTS_MODES = ("lines_under", "all", "best_line")
BET_GROWTH = ("won_round", "every_round")
# What a Helper says about the next card (OK12): withdrawn once that card is drawn.
NEXT_CARD_ANSWERS = (SNAKE_EYE, OVERSEER, SPY, "_spy_values")
FIRST_PLAYER_MODES = ("alternate", "loser", "fixed")


@dataclass(slots=True, frozen=True)
class Rules:
    """Options of one OVERKILL game (defaults: the rulings of docs/rulings/overkill.md)."""

    initial_score: int = 10  # OK1: "1 score initial identique" gives no number
    initial_bet: int = 1  # OK2: "1 pari" gives no number
    bet_growth: str = "won_round"  # OK2: the bet grows after a won round, or "every_round" (ties too)
    timer: int = 10  # OK3: the real-time timer as a budget of a player's own actions per round
    points: str = "lines_under"  # OK5: a line over the objective is worth nothing
    reset_keeps: int = 2  # OK8: "Reset une couleur" keeps the dealt cards of the line
    min_stake: int = 0  # OK6: Negociaters never make a round's stake negative
    first_player: str = "alternate"  # OK9: who starts each round
    max_rounds: int = 200  # OK11: safety net, reported as ended_by = "round_limit"
    pile_copies: int = 1  # OK13: each number card of the data this many times in the pile


    def problems(self) -> list[str]:
        out = []
        if self.initial_score < 1:
            out.append("initial_score")
        if self.initial_bet < 0:
            out.append("initial_bet")
        if self.timer < 1:
            out.append("timer")
        if self.points not in POINTS_MODES:
            out.append("points")
        if not 0 <= self.reset_keeps <= DEALT_PER_COLOUR:
            out.append("reset_keeps")
        if self.first_player not in FIRST_PLAYER_MODES:
            out.append("first_player")
        if self.max_rounds < 1:
            out.append("max_rounds")
        if self.bet_growth not in BET_GROWTH:
            out.append("bet_growth")
        if not 1 <= self.pile_copies <= 4:
            out.append("pile_copies")
        return out
