"""OVERKILL: a 21-style duel with two colour lines, a growing bet and 19 atouts.

- ``rules``: constants and options (each default a ruling of ``docs/rulings/overkill.md``);
- ``material``: the box (number cards, the two 99s, atouts) built from the edition's cards;
- ``state``: the game state (legal actions, apply, observation, resample, clone, replay);
- ``bots``: the greedy heuristic (it reads only what its player sees).
"""

from __future__ import annotations

from cardbase.games import frame

from . import fast as _fast

# the greedy heuristic of bots.py, at speed (fast.py makes the same decisions)
frame.register(__name__, greedy=_fast.greedy_action, playout=_fast.play_greedy)
