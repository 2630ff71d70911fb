"""Overseers' action and phase codes (an action is ``kind * K + argument``; every argument is
below ``K``, OV19).
"""

from __future__ import annotations

from .rules import ACTIONS

# action kinds (action = kind * K + argument; every argument is below K, OV19)
K = ACTIONS
PICK, DISCARD, PLACE, SPY_ON, VOTE, CHOOSE, JUDGE, SHED, TAKE, VICTIM, GIVE, CHARACTER, PENALTY = (
    1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 8)
ADMIT, DENY = JUDGE * K, JUDGE * K + 1
PENALIZE, SPARE = PENALTY * K, PENALTY * K + 1

# phases
(P_CHARACTER, P_DRAFT, P_DISCARD, P_PLACE, P_SPY, P_VOTE, P_VOTE_TIE, P_JUDGE, P_SHED, P_PENALTY,
 P_TAKE, P_THIEF_TIE, P_VICTIM, P_GIVE, P_SUCCESSOR, P_END) = range(16)
PHASES = ("character", "draft", "discard", "place", "spy", "vote", "vote_tie", "judge", "shed",
          "penalty", "take", "thief_tie", "victim", "give", "successor", "end")
TERMINAL = -1
PUBLIC = -1  # discard_from: a card everyone saw going into the discard
