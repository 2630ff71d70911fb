"""What the catalog tells printing about each game, filled when cards are read for printing
(:func:`cardbase.catalog.cards.card_defs`): the template the game chose and the labels of its
declared card fields. Printing reads these tables (it is the layer above); the catalog never
imports printing to fill them.
"""

from __future__ import annotations

# Game code → the template the game chose (Game.template).
GAME_TEMPLATES: dict[str, str] = {}

# The labels a game declares for its card fields (data/games.toml, Jeux page), by game code, then
# field, then language.
STAT_LABELS: dict[str, dict[str, dict[str, str | None]]] = {}
