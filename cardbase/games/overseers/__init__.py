"""Overseers: draft, hidden cards, accusation and bluff in three rounds, 3 to 6 players.

- ``rules``: constants, the card split by player count and the options (each default a ruling of
  ``docs/rulings/overseers.md``);
- ``material``: the box (Vertu & Vice cards, Personnages and their powers) built from the edition;
- ``state``: the game state (legal actions, apply, observation, resample, clone, replay);
- ``bots``: the greedy heuristic (it reads only what its player sees).
"""

from __future__ import annotations
