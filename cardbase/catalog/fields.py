"""The columns every card has, with their English names (a game's declared fields may not take
one of them; ``cardbase.catalog.gamesdata`` checks it).
"""

from __future__ import annotations

CARD_FIELDS: dict[str, str] = {
    "number": "collector number",
    "name": "name",
    "value": "value",
    "colour": "colour",
    "banner": "banner (fanion)",
    "rarity": "rarity",
    "card_type": "type or class",
    "keywords": "keywords",
    "effect": "effect (effect language)",
    "effect_text": "printed effect text",
    "flavour": "flavour text",
    "art": "art file",
    "copies": "copies in the game",
    "stats": "game-specific figures",
    "sample": "sample-data flag",
}
