"""15 en un tour's constants and the options a designer may change.

Every default below is a numbered ruling of ``docs/rulings/pushluck.md`` (cited as ``PL<n>``): the
rules text (``001_34dae21ce50be98a.txt``) is silent or ambiguous there, so the choice is written
down and, where designers could disagree, made an option.
"""

from __future__ import annotations

from dataclasses import dataclass

TARGET = 15  # "atteindre ou dépasser 15 points en un seul tour"

# Card kinds (material.Card.kind).
ADD, MUL, PROTECTION, LOSE = "add", "mul", "protection", "lose"

TIE_MODES = ("first", "shared")


@dataclass(slots=True, frozen=True)
class Rules:
    """Options of one game (defaults: the rulings of docs/rulings/pushluck.md)."""

    target: int = TARGET  # PL6: the score that ends the game (15 in the rules)
    tie: str = "first"  # PL7: equal best scores: the first to reach it wins ("first") or "shared"
    solo_rounds: int = 10  # PL8: rounds ("manches") of a solo game
    max_rounds: int = 1000  # PL10: safety net, reported as ended_by = "round_limit"
    # PL6 (contested): False: a turn that *ends* with the target or more counts, the player may
    # flip on past it; True: the turn stops as soon as its points reach the target
    stop_at_target: bool = False
    # PL14: "tour complet" of the end condition is the round: the later seats still play (True);
    # False: the game ends at once, the first turn ending at the target or more wins
    finish_round: bool = True

    def problems(self) -> list[str]:
        out = []
        if self.target < 1:
            out.append("target")
        if self.tie not in TIE_MODES:
            out.append("tie")
        if self.solo_rounds < 1:
            out.append("solo_rounds")
        if self.max_rounds < 1:
            out.append("max_rounds")
        if not isinstance(self.stop_at_target, bool):
            out.append("stop_at_target")
        if not isinstance(self.finish_round, bool):
            out.append("finish_round")
        return out
