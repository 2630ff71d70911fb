"""OVERKILL's rulings as data (docs/rulings/overkill.md) and the keys of its rule coverage.

``RULINGS``: one :class:`~cardbase.games.rulings.Ruling` per numbered ruling of the doc; those a
designer may change name the field of :class:`~cardbase.games.overkill.rules.Rules` they set.
``COVERAGE``: the keys of ``State.coverage()`` (each decision's kind, each atout, each ending).
"""

from __future__ import annotations

from cardbase.games.frame import Ruling

from .rules import POINTS_MODES

RULINGS: tuple[Ruling, ...] = (
    Ruling("OK1", {"fr": "Score initial", "en": "Initial score"},
           {"fr": "« 1 score initial identique » sans nombre : 10 pour chaque joueur.",
            "en": "'1 identical initial score' gives no number: 10 for each player."},
           option="initial_score", default=10, bounds=(1, 1000)),
    Ruling("OK2", {"fr": "Le pari grandit après une manche gagnée",
                   "en": "The bet grows after a won round"},
           {"fr": "« Quand un joueur gagne une manche, … le pari augmente de un » : une manche nulle "
                  "laisse le pari tel quel. Autre lecture : il grandit après chaque manche.",
            "en": "'When a player wins a round, … the bet grows by one': a tied round leaves the "
                  "bet as it is. Other reading: it grows after every round."},
           option="bet_growth", default="won_round", allowed=("won_round", "every_round"),
           contested=True),
    Ruling("OK3", {"fr": "Le timer", "en": "The timer"},
           {"fr": "Le timer devient un budget de décisions par manche (10) ; à zéro, le joueur reçoit "
                  "les deux 99 et la manche finit sur deux overkills.",
            "en": "The timer becomes a budget of decisions per round (10); at zero the player gets "
                  "both 99s and the round ends on two overkills."},
           option="timer", default=10, bounds=(1, 1000)),
    Ruling("OK4", {"fr": "Un tour", "en": "A turn"},
           {"fr": "Piocher ou poser passe le tour ; jouer un atout ne le passe pas (autant d'atouts "
                  "qu'on veut). Pioche vide : poser ou jouer un atout.",
            "en": "Drawing or standing passes the turn; playing an atout does not (any number of "
                  "atouts). Empty pile: stand or play an atout."}),
    Ruling("OK5", {"fr": "Les points et le gagnant de la manche", "en": "Points and the round's winner"},
           {"fr": "Les points sont la somme des lignes sous l'objectif ; moins d'overkills gagne, puis "
                  "plus de points ; à égalité, manche nulle.",
            "en": "Points are the sum of the lines under the objective; fewer overkills wins, then "
                  "more points; equal points tie the round."},
           option="points", default="lines_under", allowed=POINTS_MODES, contested=True),
    Ruling("OK6", {"fr": "Negociaters et mise", "en": "Negociaters and the stake"},
           {"fr": "La mise de la manche est le pari plus les Negociaters en jeu, jamais sous 0.",
            "en": "A round's stake is the bet plus the Negociaters in play, never below 0."},
           option="min_stake", default=0, bounds=(-100, 100)),
    Ruling("OK7", {"fr": "Challengers", "en": "Challengers"},
           {"fr": "Jouer un Challenger retire le précédent : un seul est en jeu ; un Remover qui le "
                  "retire ramène l'objectif à 21.",
            "en": "Playing a Challenger takes the previous one out: only one is ever in play; a "
                  "Remover that takes it out brings the objective back to 21."}),
    Ruling("OK8", {"fr": "Cartes piochées : reset, Yoinker, Patcher, Switcher",
                   "en": "Drawn cards: reset, Yoinker, Patcher, Switcher"},
           {"fr": "Une carte « piochée » est une carte venue dans la ligne après la distribution. "
                  "Yoinker, Mistake Patcher et Switcher prennent la dernière ; un reset les retire "
                  "toutes et garde les cartes distribuées (2).",
            "en": "A 'drawn' card is one that joined the line after the deal. Yoinker, Mistake "
                  "Patcher and Switcher take the last one; a reset removes them all and keeps the "
                  "dealt cards (2)."},
           option="reset_keeps", default=2, bounds=(0, 2), contested=True, alternatives=(0,)),
    Ruling("OK9", {"fr": "Qui commence", "en": "Who starts"},
           {"fr": "Le joueur 1 commence la première manche, puis le premier joueur alterne.",
            "en": "Player 1 starts the first round; the first player then alternates."},
           option="first_player", default="alternate", allowed=("alternate", "loser", "fixed")),
    Ruling("OK10", {"fr": "La distribution", "en": "The deal"},
           {"fr": "Chaque joueur prend à tour de rôle les deux premières cartes rouges et noires de "
                  "la pioche mélangée, la première de chaque couleur face cachée ; trois atouts chacun.",
            "en": "Each player in turn takes the first two red and two black cards of the shuffled "
                  "pile, the first of each colour face down; three atouts each."}),
    Ruling("OK11", {"fr": "Filet de sécurité", "en": "Safety net"},
           {"fr": "Une partie qui atteint max_rounds manches s'arrête, signalée round_limit.",
            "en": "A game that reaches max_rounds rounds stops, reported as round_limit."},
           option="max_rounds", default=200, bounds=(1, 100_000)),
    Ruling("OK12", {"fr": "Helpers", "en": "Helpers"},
           {"fr": "Un Helper répond une fois par tour (au début du tour, ou dès qu'il est joué) et sa "
                  "réponse vaut tout le tour ; piocher la carte annoncée retire la réponse à son sujet.",
            "en": "A Helper answers once a turn (when the turn begins, or as soon as it is played) "
                  "and the answer holds for the whole turn; drawing the card it spoke of withdraws "
                  "that answer."}),
    Ruling("OK13", {"fr": "La pioche : une carte par valeur et couleur",
                    "en": "The pile: one card per value and colour"},
           {"fr": "« Cartes de valeur allant de 1 à 9 noires et rouges » : une de chaque (18 cartes, "
                  "10 en pioche après la distribution). Autre lecture : les 1 à 9 d'un jeu de cartes "
                  "(deux par valeur et couleur).",
            "en": "'Cards of value 1 to 9, black and red': one of each (18 cards, 10 left in the "
                  "pile after the deal). Other reading: the 1 to 9 of a deck of cards (two per value "
                  "and colour)."},
           option="pile_copies", default=1, bounds=(1, 4), contested=True, alternatives=(2,)),
    Ruling("OK14", {"fr": "Le pari de départ", "en": "The starting bet"},
           {"fr": "« 1 pari » sans nombre : il commence à 1.",
            "en": "'1 bet' gives no number: it starts at 1."},
           option="initial_bet", default=1, bounds=(0, 100)),
)


def _atout(fr: str, en: str | None = None) -> dict:
    return {"fr": f"atout {fr}", "en": f"atout {en or fr}",
            "occasion": {"fr": "des décisions où il était jouable",
                         "en": "of the decisions where it could be played"},
            "rulebook": True}


_ROUNDS = {"fr": "des manches", "en": "of rounds"}
_GAMES = {"fr": "des parties", "en": "of games"}

COVERAGE: dict[str, dict] = {
    "draw": {"fr": "piocher", "en": "draw", "rulebook": True,
             "occasion": {"fr": "des décisions, pioche non vide",
                          "en": "of the decisions with a pile to draw from"}},
    "stand": {"fr": "poser (passer)", "en": "stand (pass)", "rulebook": True,
              "occasion": {"fr": "des décisions", "en": "of the decisions"}},
    "end:passes": {"fr": "fin de manche : deux joueurs posent", "en": "round end: both stand",
                   "occasion": _ROUNDS, "rulebook": True},
    "end:overkill": {"fr": "fin de manche : deux overkills", "en": "round end: two overkills",
                     "occasion": _ROUNDS, "rulebook": True},
    "end:timer": {"fr": "fin de manche : timer écoulé (les deux 99)",
                  "en": "round end: timer out (both 99s)", "occasion": _ROUNDS, "rulebook": True},
    "game:score": {"fr": "fin de partie : un score à zéro ou moins",
                   "en": "game end: a score at zero or below", "occasion": _GAMES, "rulebook": True},
    "game:round_limit": {"fr": "fin de partie : limite de manches (OK11)",
                         "en": "game end: round limit (OK11)", "occasion": _GAMES, "rulebook": False},
    "atout:snake_eye": _atout("Snake eye"),
    "atout:overseer": _atout("Overseer"),
    "atout:retracer": _atout("Retracer"),
    "atout:spy": _atout("Spy"),
    "atout:minimiser": _atout("Minimiser"),
    "atout:juker": _atout("Juker"),
    "atout:rebooter": _atout("Rebooter"),
    "atout:maximiser": _atout("Maximiser"),
    "atout:gambler": _atout("Gambler"),
    "atout:bettor": _atout("Bettor"),
    "atout:gard": _atout("Gard"),
    "atout:protector": _atout("Protector"),
    "atout:gifter": _atout("Gifter"),
    "atout:yoinker": _atout("Yoinker"),
    "atout:remover": _atout("Remover"),
    "atout:rewinder": _atout("Rewinder"),
    "atout:saver": _atout("Saver"),
    "atout:mistake_patcher": _atout("Mistake Patcher"),
    "atout:switcher": _atout("Switcher"),
}
