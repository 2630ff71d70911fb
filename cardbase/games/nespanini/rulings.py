"""NesPanini's rulings as data (docs/rulings/nespanini.md) and the keys of its rule coverage.

``RULINGS``: one :class:`~cardbase.games.rulings.Ruling` per numbered ruling of the doc. Three
have an option, a keyword of :class:`cardbase.games.nespanini.Game`: R1 ``end_rule`` and R9
``deck_lists`` (both contested: the text reads two ways) and R10 ``stalemate_rounds``.

``COVERAGE``: the keys of :meth:`cardbase.games.nespanini.State.coverage`, each with its label,
the occasions it is counted over and whether the rulebook names the rule.
"""

from __future__ import annotations

from cardbase.games.frame import Ruling


def _t(fr: str, en: str) -> dict[str, str]:
    return {"fr": fr, "en": en}


RULINGS: tuple[Ruling, ...] = (
    Ruling(
        "R1", _t("Fin de partie", "End of the game"),
        _t("Le texte donne deux critères : « le Cimetière contient 10 cartes » et « chaque joueur aura "
           "effectué 5 tours », qui divergent dès qu'un effet change le compte du Cimetière. Par "
           "défaut la partie s'arrête quand le Cimetière tient au moins 10 cartes, vérifié en fin de "
           "tour ; l'option choisit « turns » (5 tours chacun) ou « first » (le premier des deux).",
           "The text gives two criteria, 'the Cimetière holds 10 cards' and 'each player will have "
           "played 5 turns', which part as soon as an effect changes the Cimetière's count. By "
           "default the game ends when the Cimetière holds at least 10 cards, checked at the end of "
           "a turn; the option picks 'turns' (5 turns each) or 'first' (whichever comes first)."),
        option="end_rule", default="cimetiere", allowed=("cimetiere", "turns", "first"),
        contested=True),
    Ruling(
        "R2", _t("Pioche dans un deck vide", "Drawing from an empty deck"),
        _t("La partie s'arrête aussitôt, avant la défausse de ce joueur ; les mains sont comptées.",
           "The game ends at once, before that player's discard; the hands are scored.")),
    Ruling(
        "R3", _t("Taille des mains", "Hand size"),
        _t("Les effets gardent les mains à 5 cartes, sauf une défausse forcée quand le deck de la "
           "victime est vide : elle pioche ce qu'il reste et sa main, plus petite, est comptée telle "
           "quelle.",
           "Effects keep hands at 5 cards, except a forced discard when the victim's deck is empty: "
           "they draw what is left and their smaller hand is scored as it is.")),
    Ruling(
        "R4", _t("Main de seules cartes Légendaires", "A hand of only Légendaire cards"),
        _t("Le joueur montre sa main et place une carte de son choix sous son deck : rien n'entre "
           "au Cimetière.",
           "The player shows their hand and puts a card of their choice under their deck: nothing "
           "reaches the Cimetière.")),
    Ruling(
        "R5", _t("Égalités", "Ties"),
        _t("Des scores égaux font une égalité, sans départage ; les rapports la comptent à part.",
           "Equal scores are a tie, with no tie-break; reports count ties apart.")),
    Ruling(
        "R6", _t("Parties sans fin", "Endless games"),
        _t("Filet de sécurité : la partie s'arrête aussi après 60 tours en tout.",
           "Safety net: the game also ends after 60 turns in all.")),
    Ruling(
        "R7", _t("Goldfish (un seul deck)", "Goldfish (one deck)"),
        _t("Le joueur joue tous les tours ; la partie s'arrête à 5 cartes dans sa défausse. Les "
           "effets visant l'adversaire ne font rien ; les cartes qui en dépendent ne sont pas jugées "
           "par le goldfish.",
           "The player takes every turn; the game ends at 5 cards in their discard pile. Effects "
           "aimed at the opponent do nothing; the cards that depend on them are not judged by "
           "goldfish.")),
    Ruling(
        "R8", _t("Légendaire et effets", "Légendaire and effects"),
        _t("Une carte Légendaire n'est jamais placée dans une défausse, ni à l'étape 2 ni par un "
           "effet ; un « bury » la place sous le deck.",
           "A Légendaire card never goes to a discard pile, at step 2 or by an effect; a 'bury' "
           "puts it under the deck.")),
    Ruling(
        "R9", _t("Information cachée des bots", "Hidden information for bots"),
        _t("Par défaut les listes de deck sont publiques : les bots de recherche redistribuent les "
           "cartes cachées de l'adversaire à partir de sa liste exacte. « hidden » les tire d'un "
           "deck uniforme du pool de cartes, comme face à une personne dont la liste est inconnue.",
           "By default deck lists are public: the search bots re-deal the opponent's hidden cards "
           "from their exact list. 'hidden' draws them from a uniform deck of the card pool, as "
           "against a person whose list is unknown."),
        option="deck_lists", default="public", allowed=("public", "hidden"), contested=True),
    Ruling(
        "R10", _t("Cimetière hors d'atteinte ou qui stagne", "A Cimetière out of reach or stalled"),
        _t("Une partie dont le Cimetière ne peut atteindre 10 cartes s'arrête après 5 tours "
           "chacun ; une partie dont le Cimetière n'atteint plus de nouveau maximum pendant N tours "
           "de table s'arrête (N = 10 ; 0 désactive l'arbitrage).",
           "A game whose Cimetière cannot reach 10 cards ends after 5 turns each; a game whose "
           "Cimetière reaches no new maximum for N rounds ends (N = 10; 0 turns the ruling off)."),
        option="stalemate_rounds", default=10, bounds=(0, 1000)),
    Ruling(
        "R11", _t("Mots-clés en gras dans les textes", "Keywords in bold in card texts"),
        _t("Un mot-clé (Défausse, Foule, Légendaire) est imprimé en gras là où il est écrit avec une "
           "majuscule, comme l'index des mots-clés ; « votre défausse » (la pile) reste en romain. La "
           "liste est une option du modèle de carte (bold_keywords ; vide : désactivé).",
           "A keyword (Défausse, Foule, Légendaire) is printed bold where it is written with a capital "
           "initial, as the keyword index writes it; « votre défausse » (the pile) stays plain. The "
           "list is an option of the card template (bold_keywords; empty: off).")),
    Ruling(
        "R12", _t("Étendue de la valeur d'une carte", "Range of a card's value"),
        _t("Une valeur est un entier de 0 à 99 : les codes en pastilles ne portent pas de valeur "
           "négative et le disque de valeur tient deux chiffres. Déclarée comme donnée (data/games.toml) "
           "et vérifiée à la création, à la modification et à l'import.",
           "A value is a whole number from 0 to 99: sticker codes carry no negative value and the "
           "value disc holds two digits. Declared as data (data/games.toml) and checked on create, "
           "edit and import.")),
    Ruling(
        "R13", _t("Termes du jeu dans le texte anglais des effets",
                  "Game terms in the English text of effects"),
        _t("Le texte anglais d'un effet garde les noms que les règles donnent aux termes du jeu : "
           "les mots-clés Défausse, Foule et Légendaire (en gras par le balisage), le Cimetière et "
           "les couleurs telles que les cartes les impriment.",
           "The English text of an effect keeps the names the rules give the game's terms: the "
           "keywords Défausse, Foule and Légendaire (bold through the markup), the Cimetière and the "
           "colours as the cards print them.")),
)


def _occ(fr: str, en: str) -> dict[str, str]:
    return {"fr": fr, "en": en}


_STEP2 = _occ("des décisions de l'étape 2", "of step-2 decisions")
_EFFECT = _occ("des résolutions de cet effet", "of this effect's resolutions")
_GAMES = _occ("des parties", "of the games")


def _effect(name: str) -> dict:
    return {"fr": f"Effet « {name} » (a changé quelque chose)",
            "en": f"Effect '{name}' (changed something)", "occasion": _EFFECT, "rulebook": True}


def _end(fr: str, en: str, rulebook: bool) -> dict:
    return {"fr": fr, "en": en, "occasion": _GAMES, "rulebook": rulebook}


COVERAGE: dict[str, dict] = {
    "step2:discard": {"fr": "Étape 2 : une carte défaussée", "en": "Step 2: a card discarded",
                      "occasion": _STEP2, "rulebook": True},
    "keyword:defausse": {"fr": "Mot-clé Défausse : carte Défausse défaussée (quand il y en avait une)",
                         "en": "Défausse keyword: a Défausse card discarded (when one could be)",
                         "occasion": _occ("des décisions où une carte Défausse pouvait être défaussée",
                                          "of decisions where a Défausse card could be discarded"),
                         "rulebook": True},
    "keyword:legendaire": {"fr": "Mot-clé Légendaire : une carte Légendaire en main, non défaussable",
                           "en": "Légendaire keyword: a Légendaire card in hand, not discardable",
                           "occasion": _STEP2, "rulebook": True},
    "ruling:R4": {"fr": "R4 : main de seules cartes Légendaires", "en": "R4: a hand of only Légendaire cards",
                  "occasion": _occ("des décisions avec une carte Légendaire en main",
                                   "of decisions with a Légendaire card in hand"),
                  "rulebook": False},
    "keyword:foule": {"fr": "Mot-clé Foule : plus de 2 exemplaires d'une carte Foule",
                      "en": "Foule keyword: more than 2 copies of a Foule card",
                      "occasion": _occ("des decks avec une carte Foule", "of decks with a Foule card"),
                      "rulebook": True},
    "effect:draw": _effect("draw"),
    "effect:look": _effect("look"),
    "effect:recover": _effect("recover"),
    "effect:swap": _effect("swap"),
    "effect:force_discard": _effect("force_discard"),
    "effect:reveal": _effect("reveal"),
    "effect:bury": _effect("bury"),
    "end:cimetiere": _end("Fin : le Cimetière tient 10 cartes (R1)",
                          "End: the Cimetière holds 10 cards (R1)", True),
    "end:turns": _end("Fin : 5 tours chacun (R1)", "End: 5 turns each (R1)", True),
    "end:empty-deck": _end("Fin : pioche dans un deck vide (R2)", "End: a draw from an empty deck (R2)",
                           False),
    "end:unreachable": _end("Fin : Cimetière hors d'atteinte (R10)", "End: Cimetière out of reach (R10)",
                            False),
    "end:stalled": _end("Fin : Cimetière qui stagne (R10)", "End: stalled Cimetière (R10)", False),
    "end:turn-limit": _end("Fin : limite de 60 tours (R6)", "End: 60-turn limit (R6)", False),
}
