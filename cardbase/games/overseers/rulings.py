"""Overseers' rulings as data (``docs/rulings/overseers.md``) and the names of its rule coverage.

``RULINGS``: one entry per numbered ruling ``OV<n>`` of the doc; a ruling a designer may change
names its option (a field of :class:`cardbase.games.overseers.rules.Rules`). ``COVERAGE``: the keys
of ``State.coverage()`` — each judgement, Leader's call, steal, character power and ending — with
their labels and the occasions they are counted over.
"""

from __future__ import annotations

from cardbase.games.frame import Ruling

from .rules import SPLIT_MODES, STOLEN_VALUES


def _r(code: str, fr_title: str, en_title: str, fr: str, en: str, **option) -> Ruling:
    return Ruling(code, {"fr": fr_title, "en": en_title}, {"fr": fr, "en": en}, **option)


RULINGS: tuple[Ruling, ...] = (
    _r("OV1", "La répartition des cartes", "The card split",
       "Les cartes de chaque couleur demandées par la répartition sont tirées au hasard dans la "
       "boîte, une fois pour la partie ; « first » prend les plus petits numéros.",
       "The cards of each colour the split asks for are drawn at random from the box, once for "
       "the game; “first” takes the lowest numbers.",
       option="split", default="random", allowed=SPLIT_MODES, contested=True),
    _r("OV2", "Chaque manche repart de zéro", "Each round starts afresh",
       "À chaque manche, toutes les cartes Vertu & Vice de la partie sont mélangées et six sont "
       "distribuées à chacun ; les Personnages sont redistribués.",
       "Every round all the game's Vertu & Vice cards are shuffled and six dealt to each player; "
       "the Personnages are dealt again."),
    _r("OV3", "Sièges, passe et choix simultanés", "Seats, passing and simultaneous choices",
       "Le voisin de gauche est le siège suivant ; les choix simultanés se font un joueur à la "
       "fois depuis le Leader, sans que personne ne voie ceux des autres.",
       "The left neighbour is the next seat; simultaneous choices are taken one player at a time "
       "from the Leader, nobody seeing the others'."),
    _r("OV4", "La défausse", "The discard",
       "Chacun écarte une de ses six cartes, face cachée, dans la défausse commune ; seul son "
       "propriétaire la connaît.",
       "Each player puts one of their six cards face down into the common discard; only its owner "
       "knows it."),
    _r("OV5", "Le placement", "Placement",
       "Trois cartes en haut, deux en bas (le pouvoir rangee_bas = 3 permet trois en bas) ; les "
       "rangées du haut sont révélées ensemble.",
       "Three cards up, two down (the rangee_bas = 3 power allows three down); the top rows are "
       "revealed together."),
    _r("OV6", "Le vote", "The vote",
       "Chacun vote pour un autre joueur ; les votes sont révélés ensemble ; en cas d'égalité le "
       "Leader choisit parmi les ex æquo, lui compris.",
       "Everyone votes for another player; votes are revealed together; on a tie the Leader "
       "chooses among the tied, themself included."),
    _r("OV7", "Admettre", "Admitting",
       "L'accusé qui admet défausse face cachée deux cartes de son choix (une carte de la rangée "
       "du haut est vue) ; il n'est pas contrôlé à la révélation.",
       "The accused who admits discards two cards of their choice face down (a top-row card is "
       "seen); they are not checked at the reveal."),
    _r("OV8", "Nier et la révélation", "Denying and the reveal",
       "Qui nie avec le meilleur score seul perd les deux cartes qui lui rapportent le plus ; à "
       "égalité le Leader décide ; sinon il prend une carte de son choix dans la défausse.",
       "Who denies with the single best score loses the two cards worth most to them; on a tie "
       "the Leader decides; otherwise they take a card of their choice from the discard."),
    _r("OV9", "Le vol", "The steal",
       "Le plus de cartes Vol vole : il désigne un joueur qui lui donne la carte de son choix ; "
       "la carte vaut sa valeur imprimée chez le voleur (« holder » : les pouvoirs du voleur "
       "s'y appliquent).",
       "The most Vol cards steals: they name a player who gives them a card of their choice; the "
       "card is worth its printed value to the thief (“holder”: the thief's powers apply to it).",
       option="stolen_value", default="printed", allowed=STOLEN_VALUES),
    _r("OV10", "Le décompte", "The count",
       "Le score de la manche s'ajoute au total caché ; le plus petit score de la manche devient "
       "Leader, le Leader tranchant les égalités ; après la troisième manche, pas de successeur.",
       "The round's score is added to the hidden total; the lowest round score becomes Leader, "
       "the Leader breaking ties; after the third round there is no successor."),
    _r("OV11", "La fin", "The end",
       "Le plus haut total gagne ; entre ex æquo, ceux qui n'ont jamais mené une manche ; sinon "
       "ils partagent la victoire.",
       "The highest total wins; among tied players, those who never led a round; otherwise they "
       "share the win."),
    _r("OV12", "Variante : le sens de la passe", "Variant: the passing direction",
       "Avec la variante, les paquets passent à droite à la deuxième manche, à gauche aux autres.",
       "With the variant, hands pass to the right in the second round, to the left otherwise.",
       option="alternate_direction", default=False, allowed=(False, True)),
    _r("OV13", "Les pouvoirs des Personnages en données", "Character powers as data",
       "Les pouvoirs sont des chiffres entiers des cartes Personnage (vote, vol, rangee_bas, "
       "admettre, espion, bonus_<couleur>, fixe_<couleur>).",
       "Powers are whole-number figures of the Personnage cards (vote, vol, rangee_bas, admettre, "
       "espion, bonus_<colour>, fixe_<colour>)."),
    _r("OV14", "Le regard de l'Espion", "The Espion's look",
       "Une fois tout le monde placé, l'Espion choisit un autre joueur et voit une carte tirée au "
       "hasard de sa rangée du bas ; lui seul la voit.",
       "Once everyone has placed, the Espion chooses another player and sees a random card of "
       "their bottom row; only they see it."),
    _r("OV15", "Le premier Leader", "The first Leader",
       "Le premier Leader est tiré au hasard.", "The first Leader is drawn at random."),
    _r("OV16", "Ce que voit chaque joueur", "What each player sees",
       "L'observation d'un joueur ne montre que ce qu'il peut savoir ; resample ne redessine que "
       "ce qu'il ne peut pas savoir et ne dépend que de son observation.",
       "A player's observation shows only what they can know; resample draws again only what "
       "they cannot know and depends on their observation only."),
    _r("OV17", "Le bot glouton", "The greedy bot",
       "Le bot glouton ne lit que ce que voit son joueur.",
       "The greedy bot reads only what its player sees."),
    _r("OV18", "Ce qui est passé au draft", "What passed in the draft",
       "Une carte vue dans une main du draft et passée a été prise par l'un des joueurs suivants "
       "dans le sens de la passe ; resample respecte cette croyance.",
       "A card seen in a draft hand and passed on was taken by one of the next players in the "
       "passing direction; resample respects this belief."),
    _r("OV19", "Les copies d'une carte", "A card's copies",
       "Une partie tire ses cartes parmi toutes les copies de la boîte ; chaque action a un numéro "
       "propre, même avec des milliers de copies.",
       "A game draws its cards among every copy in the box; every action has its own number, "
       "even with thousands of copies."),
    _r("OV20", "Le jugement du bot glouton", "The greedy bot's judgement",
       "Le bot estime chaque carte face cachée parmi les cartes qu'il ne voit pas et qui valent au "
       "moins la meilleure de la rangée du haut ; il admet s'il bat toutes les estimations, sinon "
       "il nie.",
       "The bot values each face-down card among the cards it cannot see that are worth at least "
       "the best of the top row; it admits when it beats every estimate, else it denies."),
    _r("OV21", "Les cartes Vol", "The Vol cards",
       "Une carte est une carte Vol si elle a le mot-clé Vol (option vol_keyword).",
       "A card is a Vol card when it has the keyword Vol (option vol_keyword).",
       option="vol_keyword", default="Vol"),
    _r("OV22", "Variante : le choix des Personnages", "Variant: choosing the characters",
       "Aux manches 2 et 3, autant de Personnages que de joueurs plus un ; on choisit par ordre "
       "croissant des points de la manche précédente.",
       "In rounds 2 and 3, as many characters as players plus one; players choose in ascending "
       "order of their points of the previous round.",
       option="character_choice", default=False, allowed=(False, True)),
)


def _c(fr: str, en: str, occ_fr: str, occ_en: str, rulebook: bool = True) -> dict:
    return {"fr": fr, "en": en, "occasion": {"fr": occ_fr, "en": occ_en}, "rulebook": rulebook}


_JUDGE = ("des jugements", "of judgements")
_DENY = ("des dénégations", "of denials")

COVERAGE: dict[str, dict] = {
    "admit": _c("Admettre (OV7)", "Admit (OV7)", *_JUDGE),
    "deny": _c("Nier (OV8)", "Deny (OV8)", *_JUDGE),
    "admit_not_best": _c("Admettre sans avoir le meilleur score", "Admit without the best score",
                         "des aveux", "of admissions", rulebook=False),
    "penalty": _c("Pénalité de qui nie avec le meilleur score (OV8)",
                  "Penalty of who denies with the best score (OV8)", *_DENY),
    "compensation": _c("Compensation de l'accusé à tort (OV8)",
                       "Compensation of the wrongly accused (OV8)", *_DENY),
    "leader_penalty": _c("Le Leader pénalise l'ex æquo qui a nié (OV8)",
                         "The Leader penalises the tied denier (OV8)",
                         "des égalités au meilleur score", "of ties for the best score"),
    "vote_tie": _c("Égalité de votes tranchée par le Leader (OV6)",
                   "Vote tie broken by the Leader (OV6)", "des votes", "of votes"),
    "leader_self:vote": _c("Le Leader se désigne à l'égalité de votes (OV6)",
                           "The Leader names themself on a vote tie (OV6)",
                           "des égalités de votes où il figure", "of vote ties including them"),
    "steal": _c("Vol d'une carte (OV9)", "A card stolen (OV9)", "des manches", "of rounds"),
    "thief_tie": _c("Égalité de cartes Vol tranchée par le Leader (OV9)",
                    "Vol tie broken by the Leader (OV9)", "des phases de Vol", "of steal phases"),
    "leader_self:thief": _c("Le Leader se désigne voleur (OV9)", "The Leader names themself thief (OV9)",
                            "des égalités de cartes Vol où il figure", "of Vol ties including them"),
    "stolen_value": _c("Carte volée modifiée par un pouvoir (OV9)",
                       "Stolen card changed by a power (OV9)", "des vols", "of steals"),
    "successor_tie": _c("Égalité au plus petit score tranchée par le Leader (OV10)",
                        "Lowest-score tie broken by the Leader (OV10)",
                        "des décomptes des manches 1 et 2", "of the counts of rounds 1 and 2"),
    "leader_self:successor": _c("Le Leader se désigne successeur (OV10)",
                                "The Leader names themself successor (OV10)",
                                "des égalités au plus petit score où il figure",
                                "of lowest-score ties including them"),
    "power:vote": _c("Vote pondéré qui désigne l'accusé (OV13)",
                     "Weighted vote naming the accused (OV13)", "des votes pondérés",
                     "of weighted votes", rulebook=False),
    "power:vol": _c("Carte Vol de plus qui hisse au plus grand compte (OV13)",
                    "Extra Vol card reaching the highest count (OV13)",
                    "des phases de Vol avec ce pouvoir", "of steal phases with this power",
                    rulebook=False),
    "power:rangee_bas": _c("Trois cartes dans la rangée du bas (OV13)",
                           "Three cards in the bottom row (OV13)", "des placements avec ce pouvoir",
                           "of placements with this power", rulebook=False),
    "power:admettre": _c("Admettre avec un nombre de cartes modifié (OV13)",
                         "Admit with a changed number of cards (OV13)",
                         "des jugements avec ce pouvoir", "of judgements with this power",
                         rulebook=False),
    "power:espion": _c("Regard de l'Espion (OV14)", "The Espion's look (OV14)", "des regards permis",
                       "of looks allowed", rulebook=False),
    "power:bonus": _c("Bonus de couleur compté (OV13)", "Colour bonus counted (OV13)",
                      "des décomptes avec ce pouvoir", "of counts with this power", rulebook=False),
    "power:fixe": _c("Valeur fixe d'une couleur comptée (OV13)", "Fixed colour value counted (OV13)",
                     "des décomptes avec ce pouvoir", "of counts with this power", rulebook=False),
    "end:alone": _c("Victoire au plus haut total seul (OV11)", "Win by the single highest total (OV11)",
                    "des parties", "of games"),
    "end:never_led": _c("Égalité départagée : jamais Leader (OV11)", "Tie broken: never led (OV11)",
                        "des parties à égalité au plus haut total", "of games tied at the highest total"),
    "end:shared": _c("Victoire partagée (OV11)", "Shared win (OV11)",
                     "des parties à égalité au plus haut total", "of games tied at the highest total"),
}
