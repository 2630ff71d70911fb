"""A benchmark fixture: distinct NesPanini cards with long effect texts, as a large real set has.

``long_text_cards(500)`` gives 500 cards (data-file fields: number, name, value, colour, banner,
rarity, type, keywords, effect_text, flavour), every one different, each effect text 380 to 620
characters long, with the rich-text markup of real cards (bold keywords, colour discs, sticker
symbols). The same seed always gives the same cards, so that prints before and after a change can
be compared byte for byte. Every text fits the NesPanini template at 300 dpi (some grow into the
art, as long texts do).

    python benchmarks/long_text_cards.py [N]   # the first cards, as TOML, on standard output
"""

from __future__ import annotations

import random
import sys

COLOURS = [("rouge", "Les Braises"), ("bleu", "La Marée"), ("vert", "Le Bosquet"),
           ("violet", "La Crypte"), ("jaune", "La Cour")]
RARITIES = ["commune", "commune", "peu commune", "rare", "légendaire"]
TYPES = [("Personnage", []), ("Créature", ["Foule"]), ("Lieu", []), ("Objet", ["Défausse"]),
         ("Créature", ["Foule", "Défausse"])]
NAMES = ["Forgeronne", "Pêcheur", "Goule", "Héraut", "Marchande", "Villageois", "Druide",
         "Fossoyeur", "Capitaine", "Jongleuse", "Sentinelle", "Apprenti", "Bateleur", "Brasier"]
EPITHETS = ["des Braises", "de la Marée", "du Bosquet", "de la Crypte", "de la Cour", "errant",
            "ancien", "masqué", "de Nespa", "au long cours", "des foires", "du port"]
SENTENCES = [
    "**Défausse** : Regardez les {n} premières cartes de votre deck, prenez-en 1 en main, puis "
    "placez sous votre deck les autres et 1 carte de votre main.",
    "+1 pour chaque autre carte {c} dans votre main ({n} cartes au plus).",
    "-{n} si votre main contient au plus 1 autre carte {c}.",
    "**Défausse** : Votre adversaire défausse 1 carte non **Légendaire** de son choix, puis en "
    "pioche autant.",
    "+{n} pour chaque carte **Foule** dans votre défausse, *même* si elle est {{{c}}}.",
    "Si votre main contient au moins {n} cartes de valeur {{sticker:{v}}} ou plus, piochez une "
    "carte, puis placez une carte de votre main sous votre deck.",
    "**Défausse** : Échangez une carte non **Légendaire** de votre main avec une carte de valeur "
    "{n} ou plus de la défausse adverse ; la vôtre va dans votre défausse.",
    "Tant que cette carte est dans le Cimetière, chaque carte {{{c}}} de votre main vaut 1 de "
    "plus (au plus {n} cartes).",
    "-2 si votre main ne contient aucune autre carte **Foule**, et -{n} de plus si la défausse "
    "adverse contient une carte nommée « Goule ».",
    "Quand vous piochez cette carte, montrez-la : votre adversaire place les {n} premières "
    "cartes de son deck dans sa défausse (une carte **Légendaire** va sous le deck).",
    "+{n} si votre défausse contient au moins 3 cartes de couleurs différentes, dont une {c}.",
    "À la fin du tour, si vous avez joué une carte {{{c}}} et une carte **Foule**, prenez en main "
    "une carte de votre défausse.",
]
FLAVOURS = ["Une étincelle ne fait pas un incendie. Trois, si.",
            "À la foire de Nespa, tout se vend, même les promesses.",
            "On dit qu'elle a compté chaque grain de sable du port.",
            None, None]


def _text(rng: random.Random, colour: str, low: int, high: int) -> str:
    parts: list[str] = []
    while sum(len(p) + 1 for p in parts) < low:
        s = rng.choice(SENTENCES).format(n=rng.randint(1, 4), c=colour, v=rng.choice([6, 8, 12]))
        if sum(len(p) + 1 for p in parts) + len(s) > high:
            break
        parts.append(s)
    return " ".join(parts)


def long_text_cards(count: int = 500, *, seed: int = 2026) -> list[dict]:
    """``count`` distinct cards, numbered from 1, each with an effect text of 380–620 chars."""
    rng = random.Random(seed)
    cards = []
    for i in range(1, count + 1):
        colour, banner = COLOURS[i % len(COLOURS)]
        card_type, keywords = TYPES[rng.randrange(len(TYPES))]
        text = _text(rng, colour, 380, 620)
        while len(text) < 380:  # a long sentence drawn last: draw again
            text = _text(rng, colour, 380, 620)
        card = {"number": i, "name": f"{rng.choice(NAMES)} {rng.choice(EPITHETS)} {i}",
                "value": rng.randint(1, 9), "colour": colour, "banner": banner,
                "rarity": rng.choice(RARITIES), "type": card_type, "keywords": keywords,
                "effect_text": text}
        flavour = rng.choice(FLAVOURS)
        if flavour:
            card["flavour"] = flavour
        cards.append(card)
    return cards


def seed(code: str = "LNG", count: int = 500) -> None:
    """Add the cards as a new NesPanini edition ``code`` to the database of ``DATABASE_URL``."""
    from sqlmodel import select

    from cardbase.catalog.cards import apply_keys
    from cardbase.storage.db import session_scope
    from cardbase.storage.models import Card, Edition, Game

    with session_scope() as s:
        game = s.exec(select(Game).where(Game.code == "nespanini")).one()
        edition = Edition(game_id=game.id, code=code, name="Textes longs", set_size=count)
        s.add(edition)
        s.flush()
        for data in long_text_cards(count):
            fields = dict(data, card_type=data.pop("type"))
            s.add(apply_keys(Card(edition_id=edition.id, **fields)))
        s.commit()


if __name__ == "__main__":
    import json

    for card in long_text_cards(int(sys.argv[1]) if len(sys.argv) > 1 else 500):
        print("[[cards]]")
        for key, value in card.items():
            print(f"{key} = {json.dumps(value, ensure_ascii=False)}")
        print()
