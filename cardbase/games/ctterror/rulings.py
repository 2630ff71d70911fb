"""CT vs Terror's rulings as data (docs/rulings/ctterror.md) and the keys of its rule coverage.

``RULINGS``: one :class:`~cardbase.games.rulings.Ruling` per numbered ruling of the doc; those a
designer may change name the field of :class:`~cardbase.games.ctterror.rules.Rules` they set.
``COVERAGE``: the keys of ``State.coverage()`` (each kind of move, defence and Masque, the Bombe's
defuse, the endings).
"""

from __future__ import annotations

from cardbase.games.frame import Ruling

from .rules import DEAL_BOMB, FRIENDLY_FIRE, ODD_EXTRA, RICOCHET_POOL


def _r(code: str, title_fr: str, title_en: str, fr: str, en: str, **option) -> Ruling:
    return Ruling(code, {"fr": title_fr, "en": title_en}, {"fr": fr, "en": en}, **option)


RULINGS: tuple[Ruling, ...] = (
    _r("CT1", "Équipes et places (nombre impair contesté)", "Teams and seats (odd count contested)",
       "Terror en place 1, les équipes alternent. Avec un nombre impair, le texte ne dit pas quelle "
       "équipe a un joueur de plus : CT par défaut, Terror en option ; ce choix décide la plupart "
       "des parties.",
       "Terror in seat 1, the teams alternate. With an odd count the text does not say which team "
       "has the extra player: CT by default, Terror as an option; that choice decides most games.",
       option="odd_extra", default="CT", allowed=ODD_EXTRA, contested=True),
    _r("CT2", "Pioche et distribution", "Draw pile and deal",
       "Toutes les cartes sauf personnages et vie (52), mélangées ; cinq cartes chacun, une à la "
       "fois depuis la place 1.",
       "Every card but the characters and life cards (52), shuffled; five cards each, one at a "
       "time from seat 1."),
    _r("CT3", "La Bombe à la distribution (contesté)", "The Bombe on the deal (contested)",
       "Les Bombes reçues explosent après toute la distribution : un Désamorçage de la même main, "
       "même reçu après, la désamorce. Autre lecture : elle explose dès qu'elle est reçue.",
       "Bombes dealt go off after the whole deal: a Désamorçage of the same hand, even dealt "
       "later, defuses it. Other reading: it goes off as soon as it is dealt.",
       option="deal_bomb", default="after_deal", allowed=DEAL_BOMB, contested=True),
    _r("CT4", "La Bombe à la pioche", "The Bombe on the draw",
       "La seconde carte est piochée avant l'explosion ; non désamorcée, 40 au seul piocheur.",
       "The second card is drawn before it goes off; undefused, 40 to the drawer only."),
    _r("CT5", "Un coup offensif", "One offensive move",
       "Après la pioche, au plus un coup offensif (ou aucun) ; pioche vide : la défausse est "
       "mélangée.",
       "After drawing, at most one offensive move (or none); empty pile: the discard is shuffled."),
    _r("CT6", "Une carte de défense", "One defence card",
       "Une seule réponse, sauf Casque et Gilet ensemble ; le tableau dit quoi répond à quoi.",
       "One answer only, except a Casque and a Gilet together; the table says what answers what."),
    _r("CT7", "Contre-attaque", "Counter-attack",
       "Seule une arme de Défense contre-attaque ; le plus fort gagne, le perdant prend la "
       "différence.",
       "Only a Défense weapon counters; the larger wins, the loser takes the difference."),
    _r("CT8", "Tir ami (contesté)", "Tir ami (contested)",
       "Le défenseur désigne un autre joueur de l'équipe de l'attaquant, qui prend les 20 de la "
       "carte (la liste des cartes) ; autre lecture : les dégâts de l'attaque (la résolution).",
       "The defender names another player of the attacker's team, who takes the card's 20 (the "
       "card list); other reading: the attack's damage (the conflict resolution).",
       option="friendly_fire", default="card", allowed=FRIENDLY_FIRE, contested=True),
    _r("CT9", "Ricochet", "Ricochet",
       "Le perdant du jeu de mains est tiré au hasard parmi tous les vivants ; il prend 20.",
       "The hand game's loser is drawn at random among all the living; they take 20.",
       option="ricochet_pool", default="all", allowed=RICOCHET_POOL),
    _r("CT10", "Renfort offensif", "Renfort as an offensive move",
       "Un coéquipier vivant et non aveuglé joue un coup offensif à la place du joueur ; il ne peut "
       "pas jouer de Renfort.",
       "A living, not blinded teammate makes one offensive move in the player's place; they cannot "
       "play a Renfort."),
    _r("CT11", "Renfort en défense", "Renfort as a defence",
       "Un coéquipier répond à la place du défenseur, avec les mêmes restrictions ; pas contre un "
       "Tir à la tête.",
       "A teammate answers in the defender's place, under the same restrictions; not against a "
       "Tir à la tête."),
    _r("CT12", "Grenade", "Grenade",
       "80 dégâts ; ni contre-attaque, ni Tir ami, ni Ricochet ; l'Esquive la divise par deux.",
       "80 damage; no counter-attack, Tir ami or Ricochet; the Esquive halves it."),
    _r("CT13", "Grenade à gaz", "Grenade à gaz",
       "Les ennemis sans Masque ne peuvent plus attaquer le lanceur jusqu'à son prochain tour.",
       "Enemies without a Masque may not attack the thrower until the thrower's next turn."),
    _r("CT14", "Grenade flash", "Grenade flash",
       "Tous les autres joueurs sans Masque, coéquipiers compris, sont aveuglés jusqu'au prochain "
       "tour du lanceur.",
       "Every other player without a Masque, teammates included, is blinded until the thrower's "
       "next turn.",
       option="flash_teammates", default=True),
    _r("CT15", "Tir à la tête", "Tir à la tête",
       "La cible meurt quelle que soit sa vie, sauf avec une Esquive.",
       "The target dies whatever their life, unless they play an Esquive."),
    _r("CT16", "Mort", "Death",
       "À 0 de vie ou moins ; la main du mort va face cachée à la défausse (elle reste secrète).",
       "At 0 life or less; the dead player's hand goes face down to the discard (it stays secret)."),
    _r("CT17", "Victoire", "Victory",
       "Une équipe gagne quand tous les joueurs de l'autre sont morts ; gains partagés par équipe.",
       "A team wins when every player of the other is dead; returns are shared by the team."),
    _r("CT18", "Filet de sécurité", "Safety net",
       "Une partie qui atteint max_turns tours s'arrête sans gagnant (turn_limit).",
       "A game that reaches max_turns turns stops with no winner (turn_limit).",
       option="max_turns", default=400, bounds=(1, 100_000)),
    _r("CT19", "Ce qui est public", "What is public",
       "Les mains sont secrètes, leurs tailles publiques ; les cartes jouées sont visibles à la "
       "défausse.",
       "Hands are hidden, their sizes public; the cards played are seen in the discard pile."),
    _r("CT20", "Réponses séquentielles", "Sequential answers",
       "Chaque réponse est une décision du joueur concerné, à tour de rôle, même sans carte utile.",
       "Each answer is a decision of the player concerned, in turn, even without a useful card."),
    _r("CT21", "Tours et manches", "Turns and rounds",
       "Les tours comptent les tours joués ; une manche, chaque retour à la place 1.",
       "Turns count the turns played; a round, each time play comes back to seat 1."),
    _r("CT22", "Grenade lancée par un coéquipier appelé", "Grenade thrown by a called teammate",
       "C'est le coup de l'appelant joué « à sa place » : la carte est devant l'appelant et dure "
       "jusqu'à son prochain tour ; la flash épargne l'appelant et le lanceur, le gaz protège "
       "l'appelant.",
       "It is the caller's move made 'in their place': the card lies in front of the caller and "
       "lasts until the caller's next turn; the flash spares the caller and the thrower, the gas "
       "shields the caller."),
    _r("CT23", "La Bombe de la distribution blesse les coéquipiers",
       "The deal's Bombe hurts the teammates",
       "Une Bombe qui explose à la distribution inflige aussi 20 à chaque coéquipier.",
       "A Bombe that goes off on the deal also deals 20 to each teammate.",
       option="deal_bomb_teammates", default=True),
)

_OFFENSIVE = {"fr": "des coups offensifs où c'était permis",
              "en": "of the offensive moves where it was legal"}
_DEFENCE = {"fr": "des défenses où c'était permis", "en": "of the defences where it was legal"}
_GAMES = {"fr": "des parties", "en": "of games"}


def _key(fr: str, en: str, occasion: dict, rulebook: bool = True) -> dict:
    return {"fr": fr, "en": en, "occasion": occasion, "rulebook": rulebook}


COVERAGE: dict[str, dict] = {
    "move:none": _key("aucun coup offensif", "no offensive move", _OFFENSIVE, False),
    "move:character": _key("attaque avec l'arme du personnage", "attack with the character's weapon",
                           _OFFENSIVE),
    "move:weapon": _key("attaque avec une carte arme", "attack with a weapon card", _OFFENSIVE),
    "move:grenade": _key("attaque à la Grenade", "Grenade attack", _OFFENSIVE),
    "move:headshot": _key("Tir à la tête", "Tir à la tête", _OFFENSIVE),
    "move:gas": _key("Grenade à gaz", "Grenade à gaz", _OFFENSIVE),
    "move:flash": _key("Grenade flash", "Grenade flash", _OFFENSIVE),
    "move:renfort": _key("Renfort (attaque)", "Renfort (attack)", _OFFENSIVE),
    "defend:none": _key("aucune défense", "no defence", _DEFENCE, False),
    "defend:armour": _key("Casque ou Gilet", "Casque or Gilet", _DEFENCE),
    "defend:both": _key("Casque et Gilet ensemble", "Casque and Gilet together", _DEFENCE),
    "defend:dodge": _key("Esquive", "Esquive", _DEFENCE),
    "defend:counter": _key("contre-attaque", "counter-attack", _DEFENCE),
    "defend:friendly": _key("Tir ami", "Tir ami", _DEFENCE),
    "defend:ricochet": _key("Ricochet", "Ricochet", _DEFENCE),
    "defend:renfort": _key("Renfort (défense)", "Renfort (defence)", _DEFENCE),
    "mask": _key("Masque", "Masque", {"fr": "des grenades subies avec un Masque en main",
                                      "en": "of the grenades faced with a Masque in hand"}),
    "bomb:defuse": _key("Désamorçage", "Désamorçage", {"fr": "des Bombes reçues",
                                                       "en": "of the Bombes received"}),
    "game:victory": _key("fin : une équipe éliminée", "end: a team wiped out", _GAMES),
    "game:turn_limit": _key("fin : limite de tours (CT18)", "end: turn limit (CT18)", _GAMES, False),
}
