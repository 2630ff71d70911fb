"""CT vs Terror: two teams of 1 to 4 players, attacks answered by defences, bombs, gas and flashes.

- ``rules``: constants and options (each default a ruling of ``docs/rulings/ctterror.md``);
- ``material``: the box (characters, life cards, the draw pile's kinds) built from the edition's cards;
- ``state``: the game state (legal actions, apply, observation, resample, clone, replay);
- ``bots``: the greedy heuristic (it reads only what its player sees).
"""

from __future__ import annotations

from cardbase.games import frame

from . import bots as _bots

frame.register(__name__, greedy=_bots.greedy_action, playout=_bots.play_greedy)
