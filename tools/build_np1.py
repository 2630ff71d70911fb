"""Build data/editions/NP1.toml (NesPanini, édition de départ) from the card list below.

The printed text of every card is generated from its effect source, so it always says what the
engine does. Run: ``python tools/build_np1.py`` (``--check`` exits 1 if the file is out of date).
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

from cardbase.storage.datafiles import dump_edition
from cardbase.games.effects import effect_to_french, format_effect, parse_effect

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "data" / "editions" / "NP1.toml"

EDITION = {
    "game": "nespanini",
    "code": "NP1",
    "name": "La Foire de Nespa",
    "date": dt.date(2026, 11, 1),
    "symbol": "panier",
    "description": (
        "Édition de départ de NesPanini : cinq fanions se disputent la grande foire de Nespa. "
        "Les Braises (rouge) frappent fort, la Marée (bleu) enchaîne les Défausses, le Bosquet "
        "(vert) vient en Foule, la Crypte (violet) règne sur le Cimetière et la Cour (jaune) "
        "réunit toutes les couleurs."
    ),
}

BANNERS = {
    "rouge": "Les Braises",
    "bleu": "La Marée",
    "vert": "Le Bosquet",
    "violet": "La Crypte",
    "jaune": "La Cour",
}

C, PC, R, M = "commune", "peu commune", "rare", "mythique"
FOULE, DEF, LEG = "Foule", "Défausse", "Légendaire"

# (name, colour, rarity, type, value, keywords, effect source, flavour)
CARDS: list[tuple[str, str, str, str, int, tuple[str, ...], str, str]] = [
    # ------------------------------------------------------------------ rouge : Les Braises
    ("Apprentie forgeronne", "rouge", C, "Personnage", 4, (), "",
     "Elle frappe fort, elle frappe juste, et parfois même sur l'enclume."),
    ("Braisillon", "rouge", C, "Créature", 2, (FOULE,),
     "score: +1 per card in hand where other and colour = rouge max 3",
     "Une étincelle ne fait pas un incendie. Trois, si."),
    ("Forgeron des Braises", "rouge", C, "Personnage", 5, (), "",
     "Chaque lame de la foire sort de son atelier."),
    ("Cri de guerre", "rouge", C, "Évènement", 2, (DEF,), "defausse: force_discard 1",
     "« Pour les Braises ! »"),
    ("Tisonnier", "rouge", C, "Objet", 3, (DEF,), "defausse: draw 1", ""),
    ("Garde de la porte", "rouge", C, "Personnage", 6, (),
     "score: -2 if count(hand where value <= 2) >= 2",
     "Pas de va-nu-pieds à la foire."),
    ("Mercenaire borgne", "rouge", PC, "Personnage", 6, (),
     "score: -1 per card in hand where other and colour != rouge",
     "Il ne se bat qu'aux côtés des siens, et encore."),
    ("Forge ardente", "rouge", PC, "Lieu", 2, (DEF,), "defausse: look 3 take 1", ""),
    ("Marteau-pilon", "rouge", PC, "Objet", 4, (),
     "score: +2 if count(hand where keyword = foule) = 0",
     "Trop lourd pour la piétaille."),
    ("Maîtresse d'armes", "rouge", R, "Personnage", 4, (),
     "score: +1 per card in hand where other and value >= 6 max 3", ""),
    ("Champion de l'arène", "rouge", R, "Personnage", 6, (),
     "score: +1 per card in opponent_discards where value >= 6 max 3",
     "Il compte ses victoires sur les doigts de ses adversaires."),
    ("Dragonne des Braises", "rouge", R, "Créature", 5, (LEG,),
     "score: +1 per card in cimetiere where colour = rouge max 4", ""),
    ("Le Colosse de Fer", "rouge", M, "Créature", 9, (LEG,),
     "score: -4 if count(hand where other and colour = rouge) <= 1",
     "Sans forgerons pour l'entretenir, il rouille sur place."),
    # ------------------------------------------------------------------ bleu : La Marée
    ("Mousse curieux", "bleu", C, "Personnage", 2, (DEF,), "defausse: draw 1", ""),
    ("Vigie", "bleu", C, "Personnage", 3, (DEF,), "defausse: look 3 take 1",
     "« Terre en vue ! » Enfin, peut-être."),
    ("Banc de sardines", "bleu", C, "Créature", 2, (FOULE,),
     'score: +2 if count(hand where other and name = "Banc de sardines") >= 1',
     "Jamais une sans l'autre."),
    ("Navigatrice", "bleu", C, "Personnage", 5, (), "",
     "Elle lit les courants comme d'autres lisent les almanachs."),
    ("Pêcheuse de perles", "bleu", C, "Personnage", 3, (DEF,),
     "defausse: recover from discards where colour = bleu", ""),
    ("Bouteille à la mer", "bleu", C, "Objet", 1, (DEF,), "defausse: draw 2",
     "Le message dit : « Gardez la meilleure. »"),
    ("Cartographe", "bleu", PC, "Personnage", 3, (DEF,),
     "defausse: reveal hand\ndefausse: look 2 take 1", ""),
    ("Tempête", "bleu", PC, "Évènement", 1, (DEF,),
     "defausse: force_discard 1\ndefausse: bury 1 opponent", ""),
    ("Phare", "bleu", PC, "Lieu", 4, (),
     "score: +1 per card in discards where colour = bleu max 3", ""),
    ("Capitaine au long cours", "bleu", R, "Personnage", 5, (),
     "score: +1 per card in discards where keyword = defausse max 3",
     "Chaque escale laisse une histoire derrière elle."),
    ("Sirène du récif", "bleu", R, "Créature", 3, (DEF,),
     "defausse: swap with opponent_discards where value >= 4", ""),
    ("Kraken", "bleu", M, "Créature", 8, (),
     "score: -3 if count(discards where colour = bleu) <= 1",
     "Il a faim, et il n'aime que le poisson bleu."),
    ("Oracle des marées", "bleu", M, "Personnage", 3, (LEG,),
     "score: +2 per card in discards where keyword = defausse max 3",
     "Elle a vu cette partie se terminer. Plusieurs fois."),
    # ------------------------------------------------------------------ vert : Le Bosquet
    ("Villageois", "vert", C, "Personnage", 3, (FOULE,),
     "score: +2 per card in hand where other and name = Villageois",
     "Un villageois, c'est personne. Quatre, c'est un village."),
    ("Glaneuse", "vert", C, "Personnage", 3, (FOULE,),
     "score: +1 per card in hand where other and keyword = foule max 3", ""),
    ("Marchand ambulant", "vert", C, "Personnage", 2, (FOULE, DEF), "defausse: draw 1",
     "« Tout doit disparaître ! »"),
    ("Meute de loups", "vert", C, "Créature", 5, (FOULE,),
     "score: -2 if count(hand where other and keyword = foule) = 0", ""),
    ("Bûcheron", "vert", C, "Personnage", 5, (), "",
     "Il connaît chaque arbre du Bosquet par son prénom."),
    ("Herboriste", "vert", C, "Personnage", 3, (DEF,), "defausse: look 2 take 1", ""),
    ("Chœur du village", "vert", PC, "Personnage", 2, (FOULE,),
     "score: +1 per card in hand where colour = vert max 4",
     "Faux, mais ensemble."),
    ("Foule en colère", "vert", PC, "Évènement", 2, (FOULE, DEF), "defausse: force_discard 1", ""),
    ("Fête des moissons", "vert", PC, "Lieu", 2, (DEF,),
     "defausse: recover from discards where keyword = foule", ""),
    ("Ours brun", "vert", PC, "Créature", 7, (),
     "score: -3 if count(hand where keyword = foule) >= 2",
     "Il aime le miel, la sieste et le silence."),
    ("Ancienne du Bosquet", "vert", R, "Personnage", 4, (),
     "score: +1 per card in hand where keyword = foule max 4", ""),
    ("Sentier des fées", "vert", M, "Lieu", 2, (DEF,), "defausse: look 4 take 2",
     "Qui s'y perd trouve toujours quelque chose."),
    ("Le Grand Chêne", "vert", M, "Lieu", 4, (LEG,),
     ("score: +1 per card in hand where keyword = foule\n"
     "score: +1 per card in discards where keyword = foule max 2"),
     "Tout le village danse à son ombre."),
    # ------------------------------------------------------------------ violet : La Crypte
    ("Goule", "violet", C, "Créature", 2, (FOULE,),
     "score: +2 per card in discards where name = Goule",
     "Là où une goule est tombée, les autres se relèvent."),
    ("Fossoyeur", "violet", C, "Personnage", 3, (DEF,), "defausse: bury 2", ""),
    ("Corbeau", "violet", C, "Créature", 2, (DEF,), "defausse: swap with cimetiere",
     "Il rapporte toujours quelque chose. Rarement ce qu'on attendait."),
    ("Spectre", "violet", C, "Créature", 3, (),
     "score: +1 per card in cimetiere where colour = violet max 4", ""),
    ("Âme errante", "violet", C, "Créature", 1, (DEF,),
     "defausse: recover from opponent_discards", ""),
    ("Squelette", "violet", C, "Créature", 0, (),
     "score: +1 per card in cimetiere where value <= 2 max 4",
     "Fait d'os, de rancune, et des restes des petites gens."),
    ("Croque-mort", "violet", PC, "Personnage", 4, (),
     "score: +1 per card in opponent_discards where keyword = defausse max 3", ""),
    ("Chapelle en ruine", "violet", PC, "Lieu", 2, (DEF,), "defausse: bury 2 opponent", ""),
    ("Lanterne des morts", "violet", PC, "Objet", 3, (),
     "score: +1 per card in cimetiere where keyword = defausse max 4", ""),
    ("Nécromancienne", "violet", R, "Personnage", 3, (DEF,), "defausse: recover from cimetiere",
     "« Personne ne quitte la foire avant la fin. »"),
    ("Marais brumeux", "violet", R, "Lieu", 6, (),
     "score: -2 if count(cimetiere where colour = violet) <= 2", ""),
    ("La Liche", "violet", R, "Créature", 2, (LEG,),
     "score: +1 per card in cimetiere where value >= 5 max 6",
     "Elle collectionne les grandeurs déchues."),
    ("La Reine des Ombres", "violet", M, "Personnage", 6, (LEG,),
     ("score: +3 if count(cimetiere where colour = violet) >= 4\n"
     "score: -3 if count(cimetiere where colour = violet) <= 1"), ""),
    # ------------------------------------------------------------------ jaune : La Cour
    ("Page", "jaune", C, "Personnage", 2, (FOULE,),
     "score: +1 per card in hand where other and colour = jaune max 2", ""),
    ("Héraut", "jaune", C, "Personnage", 3, (), "score: +1 per colour in hand",
     "Il annonce tout le monde, surtout ceux qu'on n'attendait pas."),
    ("Bouffon", "jaune", C, "Personnage", 1, (DEF,), "defausse: reveal hand\ndefausse: draw 1",
     "Il dit tout haut ce que le roi pense tout bas."),
    ("Dame de compagnie", "jaune", C, "Personnage", 5, (),
     "score: +2 if count(hand where other and colour = jaune) >= 2", ""),
    ("Garde royal", "jaune", C, "Personnage", 7, (),
     "score: -2 if count(hand where other and colour = jaune) = 0", ""),
    ("Chambellan", "jaune", PC, "Personnage", 2, (DEF,),
     "defausse: recover from discards where colour = jaune", ""),
    ("Ambassadrice", "jaune", PC, "Personnage", 4, (), "score: +3 if colours(hand) >= 4",
     "Elle parle cinq langues, et toutes avec le sourire."),
    ("Trésorier", "jaune", PC, "Personnage", 5, (),
     "score: +1 per card in hand where other and value >= 7 max 2", ""),
    ("Bal masqué", "jaune", R, "Évènement", 2, (DEF,),
     "defausse: swap with opponent_discards where value >= 5", ""),
    ("Trône d'or", "jaune", R, "Objet", 6, (),
     "score: +2 if count(hand where keyword = legendaire) >= 1", ""),
    ("Le Roi Soleil", "jaune", M, "Personnage", 7, (LEG,),
     ("score: +2 if colours(hand) >= 3\n"
     "score: -2 per card in hand where other and keyword = legendaire"),
     "Il n'y a qu'un soleil à la Cour."),
    ("La Reine Mère", "jaune", M, "Personnage", 5, (LEG,),
     "score: +2 per card in hand where other and colour = jaune max 3", ""),
]


def build_cards() -> list[dict]:
    size = len(CARDS)
    out = []
    for number, (name, colour, rarity, ctype, value, kws, src, flavour) in enumerate(CARDS, 1):
        effect = parse_effect(src)
        card = {
            "number": number,
            "name": name,
            "value": value,
            "colour": colour,
            "banner": BANNERS[colour],
            "rarity": rarity,
            "type": ctype,
            "keywords": list(kws),
            "effect": format_effect(effect),
            "effect_text": effect_to_french(effect),
            "flavour": flavour,
        }
        out.append(card)
    assert len(out) == size
    return out


def render() -> str:
    cards = build_cards()
    return dump_edition({**EDITION, "set_size": len(cards)}, cards)


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        same = TARGET.exists() and TARGET.read_text(encoding="utf-8") == text
        print("NP1.toml is up to date" if same else "NP1.toml is out of date: run tools/build_np1.py")
        return 0 if same else 1
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET} ({len(CARDS)} cards)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
