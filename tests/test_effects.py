"""Effect language: parser errors, round trip, French text, linter, score evaluation."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardbase.domain import CardDef
from cardbase.games.effects import (
    AttrTerm,
    Bury,
    Comparison,
    Count,
    Draw,
    Effect,
    Filter,
    ForceDiscard,
    Look,
    Recover,
    Reveal,
    ScoreRule,
    Swap,
    ValueTerm,
    Zone,
    compile_score,
    effect_to_french,
    format_effect,
    lint_effect,
    parse_effect,
    score_bonus,
)
from cardbase.errors import EffectError
from cardbase.i18n import use_language


@pytest.fixture
def english():
    """The messages in English (the tests below were written against them; French is the default)."""
    with use_language("en"):
        yield

_ids = iter(range(1, 10**9))


def card(name="Carte", value=3, colour="rouge", banner="Les Braises", keywords=()):
    n = next(_ids)
    return CardDef(id=n, game="nespanini", edition="T", number=n, set_size=99, name=name,
                   value=value, colour=colour, banner=banner, keywords=tuple(keywords))


@dataclass
class Z:
    hand: list = field(default_factory=list)
    discards: list = field(default_factory=list)
    opponent_discards: list = field(default_factory=list)
    cimetiere: list = field(default_factory=list)
    deck: list = field(default_factory=list)


# --------------------------------------------------------------------------- parser

def test_parse_every_construct():
    e = parse_effect(
        "# a comment\n"
        "Score: +2 per card in hand where other and couleur = Rouges max 3\n"
        "\n"
        "score: -3 if count(cimetiere where keyword = Foule) >= 3 and colours(hand) < 4\n"
        'score: +1 per colour in discards where banner in ("La Marée", Braises) and value in 2..5\n'
        "Défausse: draw 2  # trailing comment\n"
        "defausse: look 3 take 1\n"
        "defausse: recover from cimetiere where value > 4 and name != Goule\n"
        "defausse: swap with opponent_discards where colour not in (bleu, vert)\n"
        "defausse: force_discard 1\n"
        "defausse: reveal top\n"
        "defausse: bury 2 opponent\n"
    )
    r0, r1, r2 = e.score
    assert r0 == ScoreRule(2, Count("cards", Zone.HAND, Filter((AttrTerm("colour", ("rouge",)),),
                                                               other=True)), cap=3)
    assert r1.amount == -3 and r1.per is None
    assert r1.conditions == (
        Comparison(Count("cards", Zone.CIMETIERE, Filter((AttrTerm("keyword", ("foule",)),))), ">=", 3),
        Comparison(Count("colours", Zone.HAND), "<", 4),
    )
    assert r2.per == Count("colours", Zone.DISCARDS, Filter((
        AttrTerm("banner", ("La Marée", "Braises")), ValueTerm(2, 5))))
    assert e.on_discard == (
        Draw(2), Look(3, 1),
        Recover(Zone.CIMETIERE, Filter((ValueTerm(5, None), AttrTerm("name", ("Goule",), True)))),
        Swap(Zone.OPPONENT_DISCARDS, Filter((AttrTerm("colour", ("bleu", "vert"), True),))),
        ForceDiscard(1), Reveal("top"), Bury(2, True),
    )


def test_empty_source_is_empty_effect():
    assert parse_effect("") == Effect()
    assert parse_effect(None) == Effect()
    assert parse_effect("  # nothing\n\n") == Effect()


def test_errors_point_at_line_and_column_and_list_every_problem(english):
    src = ("score: +2 per card in hand where colur = rouge\n"
           "# fine\n"
           "defausse: drow 1\n"
           "defausse: look 2 take 2\n"
           "score: +0\n"
           "scor: +1\n"
           'score: +1 per card in hand where name = "open\n'
           "defausse: recover from hand\n"
           "score: +1 per card in hand max 0 extra\n")
    with pytest.raises(EffectError) as info:
        parse_effect(src)
    wheres = [p.where for p in info.value.problems]
    assert wheres == [
        "line 1, column 34", "line 3, column 11", "line 4, column 16", "line 5, column 8",
        "line 6, column 1", "line 7, column 41", "line 8, column 24", "line 9, column 32",
        "line 9, column 34",
    ]
    text = str(info.value)
    assert "did you mean 'colour'?" in text
    assert "did you mean 'draw'?" in text
    assert "write draw 2 instead" in text
    assert "unterminated string" in text
    assert "recover works on a discard pile" in text
    assert "9 problems" in text


@pytest.mark.parametrize("src, message", [
    ("score: +1 if count(hand) >=", "expected the number compared with"),
    ("score: +1 per card in main where value != 3", "value != … is not supported"),
    ("defausse: reveal deck", "expected 'hand' or 'top'"),
    ("score: +1 per card in hand where colour rouge", "expected '=', '!=', 'in' or 'not in'"),
    ("score +1", "expected ':'"),
    ("score: +1 per card in hand where colour = rouge @", "unexpected character '@'"),
    ("score: +1 if count(hand) >= -2", "cannot be negative"),
    ("defausse: draw 0", "must be at least 1"),
])
def test_error_messages(src, message, english):
    with pytest.raises(EffectError, match="problem") as info:
        parse_effect(src)
    assert message in str(info.value)


# --------------------------------------------------------------------------- round trip

COLOURS = ["rouge", "bleu", "vert", "jaune", "violet", "orange", "marron", "rose", "noir", "blanc"]
KEYWORDS = ["foule", "defausse", "legendaire"]
free_text = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1,
                    max_size=12)


def _attr(attr):
    pool = {"colour": st.sampled_from(COLOURS), "keyword": st.sampled_from(KEYWORDS)}.get(
        attr, st.one_of(free_text, st.sampled_from(["Goule", "and", "La Marée", 'a "b"', "x\\y"])))
    return st.builds(AttrTerm, st.just(attr), st.lists(pool, min_size=1, max_size=3).map(tuple),
                     st.booleans())


small = st.integers(-3, 12)
value_terms = st.one_of(
    st.builds(ValueTerm, small, st.none()), st.builds(ValueTerm, st.none(), small),
    st.builds(ValueTerm, small, small))
terms = st.one_of(value_terms, *[_attr(a) for a in ("colour", "banner", "keyword", "name")])
filters = st.builds(Filter, st.lists(terms, max_size=3).map(tuple), st.booleans())
zones = st.sampled_from(list(Zone))
pile_zones = st.sampled_from([Zone.DISCARDS, Zone.OPPONENT_DISCARDS, Zone.CIMETIERE])
counts = st.builds(Count, st.sampled_from(["cards", "colours"]), zones, filters)
comparisons = st.builds(Comparison, counts, st.sampled_from([">=", "<=", "=", "!=", ">", "<"]),
                        st.integers(0, 12))
amounts = st.integers(-9, 9).filter(bool)


@st.composite
def score_rules(draw):
    per = draw(st.none() | counts)
    cap = draw(st.none() | st.integers(1, 9)) if per is not None else None
    conds = tuple(draw(st.lists(comparisons, max_size=2)))
    return ScoreRule(draw(amounts), per, cap, conds)


@st.composite
def looks(draw):
    n = draw(st.integers(2, 6))
    return Look(n, draw(st.integers(1, n - 1)))


actions = st.one_of(
    st.builds(Draw, st.integers(1, 5)), looks(), st.builds(Recover, pile_zones, filters),
    st.builds(Swap, pile_zones, filters), st.builds(ForceDiscard, st.integers(1, 3)),
    st.builds(Reveal, st.sampled_from(["hand", "top"])),
    st.builds(Bury, st.integers(1, 4), st.booleans()))
effects = st.builds(Effect, st.lists(score_rules(), max_size=3).map(tuple),
                    st.lists(actions, max_size=3).map(tuple))


@settings(max_examples=120, deadline=None)
@given(effects)
def test_round_trip(effect):
    src = format_effect(effect)
    assert parse_effect(src) == effect
    assert format_effect(parse_effect(src)) == src
    effect_to_french(effect)  # every AST has a French text


@settings(max_examples=30, deadline=None)
@given(effects)
def test_effects_pickle(effect):
    assert pickle.loads(pickle.dumps(effect)) == effect


# --------------------------------------------------------------------------- French text

@pytest.mark.parametrize("src, french", [
    ("score: +2 per card in hand where colour = rouge",
     "+2 pour chaque carte rouge dans votre main."),
    ("score: +1 per card in hand where other and colour = bleu max 3",
     "+1 pour chaque autre carte bleue dans votre main (3 cartes au plus)."),
    ("score: -3 if count(cimetiere where keyword = foule) >= 3",
     "-3 si le Cimetière contient au moins 3 cartes Foule."),
    ("score: +2 if count(hand where other and name = Goule) >= 1",
     "+2 si votre main contient au moins 1 autre carte nommée « Goule »."),
    ("score: -2 if count(hand where other and colour = jaune) = 0",
     "-2 si votre main ne contient aucune autre carte jaune."),
    ("score: +1 if count(discards where value in 2..5) > 2",
     "+1 si votre défausse contient au moins 3 cartes de valeur 2 à 5."),
    ("score: +1 if count(opponent_discards where value <= 2) < 2",
     "+1 si la défausse adverse contient au plus 1 carte de valeur 2 ou moins."),
    ("score: +1 if count(deck where keyword != legendaire) != 4",
     "+1 si votre deck ne contient pas exactement 4 cartes sans Légendaire."),
    ("score: +1 per colour in hand", "+1 pour chaque couleur différente dans votre main."),
    ("score: +1 per colour in cimetiere where keyword = foule max 2",
     "+1 pour chaque couleur différente parmi les cartes Foule du Cimetière (2 couleurs au plus)."),
    ("score: +3 if colours(hand) >= 4",
     "+3 s'il y a au moins 4 couleurs différentes dans votre main."),
    (('score: +1 per card in hand where banner = "La Cour" and colour in (vert, violet) '
     "if count(cimetiere) >= 5"),
     ("Si le Cimetière contient au moins 5 cartes : +1 pour chaque carte verte ou violette du "
     "fanion La Cour dans votre main.")),
    ("score: +1 per card in hand where colour not in (noir, blanc) and banner != X",
     "+1 pour chaque carte ni noire ni blanche hors du fanion X dans votre main."),
    ("score: +4", "+4."),
    ("defausse: draw 1",
     "Défausse : Piochez 1 carte, puis placez 1 carte de votre main sous votre deck."),
    ("defausse: look 3 take 1",
     ("Défausse : Regardez les 3 premières cartes de votre deck, prenez-en 1 en main, puis placez "
     "sous votre deck les autres et 1 carte de votre main.")),
    ("defausse: recover from discards where keyword = foule",
     ("Défausse : Prenez en main une autre carte Foule de votre défausse, puis placez une carte de "
     "votre main sous votre deck.")),
    ("defausse: recover from opponent_discards",
     ("Défausse : Prenez en main une carte de la défausse adverse, puis placez une carte de votre "
     "main sous votre deck.")),
    ("defausse: swap with cimetiere where value >= 5",
     ("Défausse : Échangez une carte non Légendaire de votre main avec une autre carte de valeur 5 "
     "ou plus du Cimetière ; la vôtre va dans votre défausse.")),
    ("defausse: force_discard 2",
     ("Défausse : Votre adversaire défausse 2 cartes non Légendaires de son choix, puis en pioche "
     "autant.")),
    ("defausse: reveal hand\ndefausse: bury 1",
     ("Défausse : Votre adversaire vous montre sa main. Placez la première carte de votre deck dans "
     "votre défausse (une carte Légendaire va sous le deck).")),
    ("defausse: reveal top\ndefausse: bury 2 opponent",
     ("Défausse : Votre adversaire vous montre la première carte de son deck. Placez les 2 premières "
     "cartes du deck adverse dans sa défausse (une carte Légendaire va sous le deck).")),
    ("score: +1\ndefausse: draw 2",
     "+1.\nDéfausse : Piochez 2 cartes, puis placez 2 cartes de votre main sous votre deck."),
])
def test_french(src, french):
    assert effect_to_french(parse_effect(src)) == french


# --------------------------------------------------------------------------- linter

def test_lint_clean_and_problems(english):
    names, colours, banners, kws = ["Goule"], ["rouge", "bleu"], ["La Cour"], ["Foule"]
    clean = parse_effect("score: +1 per card in hand where other and name = goule\n"
                         "defausse: recover from cimetiere where colour = Bleue")
    assert lint_effect(clean, names, colours, banners, kws) == []
    bad = parse_effect(
        "score: +1 per card in hand where name = Gouel and colour = verte\n"
        'score: +1 if count(cimetiere where banner = "La Courr" and keyword = rapide) >= 2\n'
        "score: +1 per card in hand where value in 5..2\n"
        "score: +1 per card in hand where colour = rouge and colour = bleu\n"
        "score: +1 per card in hand where value >= 6 and value <= 3\n"
        "score: +1 per card in hand where keyword = foule and keyword != foule\n"
        "score: +1 per card in cimetiere where other\n"
        "score: +1 if count(hand) >= 6\n"
        "score: +1 if count(hand where other) = 5\n"
        "score: +1 if count(cimetiere) >= 0\n"
        "score: +1 if count(cimetiere) < 0\n"
        "defausse: swap with cimetiere where other\n")
    problems = lint_effect(bad, names, colours, banners, kws)
    got = [(p.code, p.where) for p in problems]
    assert got == [
        ("unknown-name", "score rule 1"), ("unknown-colour", "score rule 1"),
        ("unknown-banner", "score rule 2"), ("unknown-keyword", "score rule 2"),
        ("impossible-filter", "score rule 3"), ("impossible-filter", "score rule 4"),
        ("impossible-filter", "score rule 5"), ("impossible-filter", "score rule 6"),
        ("no-effect", "score rule 7"), ("impossible-condition", "score rule 8"),
        ("impossible-condition", "score rule 9"), ("always-true", "score rule 10"),
        ("impossible-condition", "score rule 11"), ("no-effect", "défausse action 1"),
    ]
    assert "did you mean 'goule'?" in str(problems[0])
    # None skips the "known" checks
    assert [p.code for p in lint_effect(bad)][:2] == ["impossible-filter", "impossible-filter"]


# --------------------------------------------------------------------------- evaluation

def test_score_bonus_hand_made_zones():
    me = card("Chef", 4, "rouge", keywords=("Foule",))
    r1, r2 = card("A", 2, "rouge"), card("B", 7, "bleu", banner="La Marée", keywords=("Défausse",))
    foule = card("Villageois", 2, "vert", keywords=("Foule",))
    z = Z(hand=[me, r1, r2, foule, foule], discards=[card("D", 1, "violet")],
          opponent_discards=[foule, r2],
          cimetiere=[card("D", 1, "violet"), foule, r2], deck=[r1] * 7)

    def bonus(src):
        e = parse_effect(src)
        interpreted = score_bonus(e, me, z)
        assert compile_score(e)(me, z) == interpreted
        return interpreted

    assert bonus("score: +2 per card in hand where colour = rouge") == 4  # counts itself
    assert bonus("score: +2 per card in hand where other and colour = rouge") == 2
    assert bonus("score: +1 per card in hand where other and keyword = foule") == 2
    assert bonus("score: +1 per card in hand where keyword = foule max 2") == 2
    assert bonus("score: -1 per card in hand where other and colour != rouge") == -3
    assert bonus("score: +1 per colour in hand") == 3
    assert bonus("score: +1 per colour in hand where other and colour = rouge") == 1
    assert bonus("score: +1 per colour in hand where other and name = Chef") == 0
    assert bonus("score: +3 if count(cimetiere where keyword = foule) >= 1") == 3
    assert bonus("score: +3 if count(cimetiere where keyword = foule) >= 2") == 0
    assert bonus("score: +3 if count(opponent_discards where value >= 7) = 1 "
                 "and count(deck) = 7") == 3
    assert bonus('score: +1 per card in hand where banner = "la maree"') == 1
    assert bonus("score: +1 per card in hand where name in (villageois, a)") == 3
    assert bonus("score: +1 per card in discards where value in 0..1\nscore: -2") == -1
    assert bonus("score: +5 if colours(cimetiere) >= 3 and count(hand where other) = 4") == 5
    assert score_bonus(Effect(), me, z) == 0 and compile_score(Effect())(me, z) == 0


def test_card_without_value_or_colour():
    blank = CardDef(id=1, game="nespanini", edition="T", number=1, set_size=1, name="Vide")
    z = Z(hand=[blank, blank])
    for src in ("score: +1 per card in hand where value <= 9", "score: +1 per colour in hand",
                "score: +1 per card in hand where colour != rouge and other"):
        e = parse_effect(src)
        assert score_bonus(e, blank, z) == compile_score(e)(blank, z)


POOL = [card(f"C{i}", v, c, b, k) for i, (v, c, b, k) in enumerate([
    (0, "rouge", "Les Braises", ()), (2, "rouge", "Les Braises", ("Foule",)),
    (5, "bleu", "La Marée", ("Défausse",)), (9, "vert", "Le Bosquet", ("Légendaire",)),
    (3, "jaune", "La Cour", ("Foule", "Défausse")), (7, None, None, ()),
    (4, "violet", "La Crypte", ()), (1, "bleu", "La Marée", ("Foule",)),
])] + [card("Goule", 2, "violet", "La Crypte", ("Foule",))]
pool_cards = st.sampled_from(POOL)


@settings(max_examples=120, deadline=None)
@given(effects, st.lists(pool_cards, min_size=4, max_size=4), st.lists(pool_cards, max_size=6),
       st.lists(pool_cards, max_size=6), st.lists(pool_cards, max_size=6), pool_cards)
def test_compiled_equals_interpreted(effect, rest, disc, opp, deck, me):
    z = Z(hand=[me, *rest], discards=disc, opponent_discards=opp, cimetiere=disc + opp, deck=deck)
    assert compile_score(effect)(me, z) == score_bonus(effect, me, z)


def test_effect_messages_are_french_in_the_french_app():
    """The default language writes every part of a problem in French: where, what and the fix;
    the problem codes stay the same, and « did you mean » never suggests the word written."""
    src = "score: +2 per card in hand where colur = rouge\ndefausse: drow 1\nscore: +1 per carde in hand"
    with pytest.raises(EffectError) as info:
        parse_effect(src)
    text = str(info.value)
    assert text.startswith("le texte d'effet a 3 problèmes")
    assert "ligne 1, colonne 34" in text and "vouliez-vous écrire « colour » ?" in text
    assert "ligne 2, colonne 11" in text and "« draw »" in text
    assert "attendu : « card », « cards », « colour » ou « colours » ; trouvé : « carde »" in text
    for english_word in ("line ", "column", "expected", "found", "did you mean", "write "):
        assert english_word not in text, english_word
    assert {p.code for p in info.value.problems} == {"effect-syntax"}
    with use_language("en"):
        with pytest.raises(EffectError) as en:
            parse_effect("defausse: draw 1 card")
    assert "did you mean" not in str(en.value)  # 'card' after a complete rule: nothing to suggest
