"""15 en un tour's rulings as data (``docs/rulings/pushluck.md``) and its rule-coverage keys."""

from __future__ import annotations

from cardbase.games.frame import Ruling

from .rules import TIE_MODES, Rules

_D = Rules()


def _r(code: str, fr: str, en: str, tfr: str, ten: str, **kw) -> Ruling:
    return Ruling(code, {"fr": fr, "en": en}, {"fr": tfr, "en": ten}, **kw)


RULINGS: tuple[Ruling, ...] = (
    _r("PL1", "Retournements à l'aveugle", "Blind flips",
       "Toutes les cartes sont face cachée et mélangées : la carte choisie est une carte au hasard "
       "parmi celles encore cachées.",
       "Every card is face down and shuffled: the card picked is a random one among those still "
       "face down."),
    _r("PL2", "×2", "×2",
       "« ×2 » double les points du tour déjà faits (0 reste 0) ; un multiplicateur N des données "
       "multiplie par N.",
       "“×2” doubles the turn's points so far (0 stays 0); a data multiplier N multiplies by N."),
    _r("PL3", "Protection", "Protection",
       "Une Protection s'use sur le prochain « Perdre tout », qui ne fait alors rien ; plusieurs "
       "s'additionnent ; une Protection non utilisée se perd au remélange.",
       "A Protection is spent on the next Perdre tout, which then does nothing; several add up; an "
       "unspent one is lost at the reshuffle."),
    _r("PL4", "Remélange", "Reshuffle",
       "Après une passe complète, le joueur s'arrête ou remélange toute la boîte et continue avec "
       "les mêmes points, autant de fois qu'il le veut.",
       "After a full pass the player stops or reshuffles the whole box and goes on with the same "
       "points, as many times as wished."),
    _r("PL5", "Un tour", "A turn",
       "Chaque tour part de toute la boîte mélangée ; il commence par un retournement, puis le "
       "joueur s'arrête ou continue après chaque carte.",
       "Each turn starts from the whole box shuffled; it opens with a flip, then the player stops "
       "or goes on after each card."),
    _r("PL6", "15 en un tour : s'arrêter à 15 ?", "15 in one turn: stop at 15?",
       "Contesté. Lecture par défaut : compte le score d'un tour qui *se termine* à 15 ou plus ; "
       "le joueur peut continuer au-delà de 15. Option stop_at_target = true : le tour s'arrête "
       "dès que ses points atteignent 15 (la place avantagée s'inverse).",
       "Contested. Default reading: the score of a turn that *ends* at 15 or more counts; the "
       "player may flip on past 15. Option stop_at_target = true: the turn stops as soon as its "
       "points reach 15 (the favoured seat flips).",
       option="stop_at_target", default=_D.stop_at_target, allowed=(False, True), contested=True),
    _r("PL7", "Égalité", "Equality",
       "À 15 ou plus, le plus de points gagne ; à égalité, le premier dans l'ordre du tour "
       "(tie = first) ou tous ensemble (tie = shared).",
       "At 15 or more the most points win; on equal scores the first in the round's order "
       "(tie = first) or all of them (tie = shared).",
       option="tie", default=_D.tie, allowed=TIE_MODES),
    _r("PL8", "Solo", "Solo",
       "Seul, on joue solo_rounds manches (10 par défaut) et on additionne les points gardés ; "
       "atteindre 15 ne termine pas la partie.",
       "Alone, solo_rounds rounds are played (10 by default) and the points kept add up; reaching "
       "15 does not end the game.",
       option="solo_rounds", default=_D.solo_rounds, bounds=(1, 1000)),
    _r("PL9", "Places", "Seats",
       "Le premier joueur est tiré au sort une fois : c'est l'ordre des places, la place 1 "
       "commence chaque tour de table.",
       "The first player is drawn once: that is the seating; seat 1 starts every round."),
    _r("PL10", "Filet de sécurité", "Safety net",
       "Sans vainqueur après max_rounds tours de table, la partie s'arrête sans vainqueur.",
       "Without a winner after max_rounds rounds the game stops with no winner.",
       option="max_rounds", default=_D.max_rounds, bounds=(1, 100000)),
    _r("PL11", "Lire les cartes", "Reading the cards",
       "Multiplicateur, carte de points, Protection ou Perdre tout ; la boîte doit contenir une "
       "carte d'au moins 1 point.",
       "A multiplier, a points card, Protection or Perdre tout; the box needs a card worth at "
       "least 1 point."),
    _r("PL12", "Le solveur et les remélanges illimités", "The solver and unlimited reshuffles",
       "Atteindre 15, les places et le solo sont résolus exactement sans limite de remélanges ; "
       "le solo n'est « sans maximum » que là où c'est prouvé.",
       "Reaching 15, the seats and solo are solved exactly without a reshuffle limit; solo is "
       "“without a maximum” only where that is proven."),
    _r("PL13", "Taille des boîtes du solveur", "Box size for the solver",
       "Le solveur exact refuse, avant tout calcul, une boîte de plus de 2000 états par passe.",
       "The exact solver refuses, before any work, a box of more than 2000 states a pass."),
    _r("PL14", "« Tour complet »", "“Tour complet”",
       "Dans la fin de partie, « tour complet » est le tour de table : les places suivantes jouent "
       "encore (finish_round = true). Option false : la partie s'arrête dès le premier tour fini à "
       "15 ou plus. Dans le remélange, « tours complets » sont des passes complètes (PL4).",
       "In the end condition “tour complet” is the round: the later seats still play "
       "(finish_round = true). Option false: the game ends at the first turn ending at 15 or "
       "more. In the reshuffle passage, “tours complets” are full passes (PL4).",
       option="finish_round", default=_D.finish_round, allowed=(True, False), contested=True),
)

_GAMES = {"fr": "des parties", "en": "of games"}
COVERAGE: dict[str, dict] = {
    "stop": {"fr": "S'arrêter en cours de passe (PL5)", "en": "Stop in the middle of a pass (PL5)",
             "occasion": {"fr": "des décisions en cours de passe", "en": "of mid-pass decisions"},
             "rulebook": True},
    "reshuffle": {"fr": "Remélanger après une passe complète (PL4)",
                  "en": "Reshuffle after a full pass (PL4)",
                  "occasion": {"fr": "des passes complètes", "en": "of full passes"}, "rulebook": True},
    "multiplier": {"fr": "×2 qui double des points (PL2)", "en": "×2 doubling some points (PL2)",
                   "occasion": {"fr": "des ×2 retournés", "en": "of ×2 flipped"}, "rulebook": True},
    "protection": {"fr": "Perdre tout arrêté par une Protection (PL3)",
                   "en": "Perdre tout stopped by a Protection (PL3)",
                   "occasion": {"fr": "des Perdre tout retournés", "en": "of Perdre tout flipped"},
                   "rulebook": True},
    "stop_at_target": {"fr": "Tour arrêté à 15 (PL6, option)", "en": "Turn stopped at 15 (PL6, option)",
                       "occasion": {"fr": "des tours qui atteignent 15", "en": "of turns reaching 15"},
                       "rulebook": False},
    "finish_round": {"fr": "Partie finie avant les places suivantes (PL14, option)",
                     "en": "Game over before the later seats (PL14, option)",
                     "occasion": {"fr": "des tours finis à 15 avant la dernière place",
                                  "en": "of turns ending at 15 before the last seat"},
                     "rulebook": False},
    "tie": {"fr": "Meilleur score partagé (PL7)", "en": "Best score shared (PL7)",
            "occasion": {"fr": "des parties gagnées à 15", "en": "of games won at 15"}, "rulebook": False},
    "end:target": {"fr": "Fin : 15 atteint", "en": "End: 15 reached", "occasion": _GAMES,
                   "rulebook": True},
    "end:rounds": {"fr": "Fin : manches du solo (PL8)", "en": "End: solo rounds (PL8)",
                   "occasion": _GAMES, "rulebook": False},
    "end:round_limit": {"fr": "Fin : filet de sécurité (PL10)", "en": "End: safety net (PL10)",
                        "occasion": _GAMES, "rulebook": False},
}
