"""OVERKILL: a 21-style duel with two colour lines, a growing bet and 19 atouts.

- ``rules``: constants and options (each default a ruling of ``docs/rulings/overkill.md``);
- ``material``: the box (number cards, the two 99s, atouts) built from the edition's cards;
- ``state``: the game state (legal actions, apply, observation, resample, clone, replay);
- ``bots``: the greedy heuristic (it reads only what its player sees).
"""

from __future__ import annotations
