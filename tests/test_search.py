"""The card query language: parsing, errors with positions, and SQL on a real SQLite file."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import Session, select

from cardbase import i18n
from cardbase.catalog.cards import apply_keys
from cardbase.errors import QueryError
from cardbase.storage.models import Card, Edition, Game
from cardbase.catalog.search import (
    All,
    And,
    Field,
    Not,
    Or,
    Text,
    count_cards,
    parse_query,
    search_cards,
    to_query,
)
from cardbase.text import canonical_colour, fold

# --------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("query", "node"),
    [
        ("", All()),
        ("   ", All()),
        ("loup", Text("loup")),
        ("Bois Sacré", And((Text("bois"), Text("sacre")))),
        ('"Bois  Sacré"', Text("bois sacre")),
        ("c:Bleue", Field("colour", "=", "bleu")),
        ("colour:VIOLETTES", Field("colour", "=", "violet")),
        ("couleur:rouge", Field("colour", "=", "rouge")),
        ('c:"bleu"', Field("colour", "=", "bleu")),
        ("c!=bleu", Field("colour", "!=", "bleu")),
        ("v>=3", Field("value", ">=", 3)),
        ("v=2", Field("value", "=", 2)),
        ("v:2", Field("value", "=", 2)),
        ("valeur<5", Field("value", "<", 5)),
        ("value!=0", Field("value", "!=", 0)),
        ("v>-1", Field("value", ">", -1)),
        ("v<=10", Field("value", "<=", 10)),
        ("n>60", Field("number", ">", 60)),
        ("k:Défausse", Field("keyword", "=", "defausse")),
        ("r:Légendaire", Field("rarity", "=", "legendaire")),
        ("e:np1", Field("edition", "=", "np1")),
        ("g:OVERKILL", Field("game", "=", "overkill")),
        ("t:perso", Field("type", ":", "perso")),
        ("t=lieu", Field("type", "=", "lieu")),
        ("b:druides", Field("banner", ":", "druides")),
        ("fanion:Cour", Field("banner", ":", "cour")),
        ('name:"bois sacré"', Field("name", ":", "bois sacre")),
        ("o:pioche", Field("text", ":", "pioche")),
        ("-k:foule", Not(Field("keyword", "=", "foule"))),
        ("--loup", Not(Not(Text("loup")))),
        ("c:rouge or c:bleu", Or((Field("colour", "=", "rouge"), Field("colour", "=", "bleu")))),
        ("c:rouge OR c:bleu", Or((Field("colour", "=", "rouge"), Field("colour", "=", "bleu")))),
        ("c:rouge ou c:bleu", Or((Field("colour", "=", "rouge"), Field("colour", "=", "bleu")))),
        (
            "loup c:vert or v=7",
            Or((And((Text("loup"), Field("colour", "=", "vert"))), Field("value", "=", 7))),
        ),
        (
            "loup (c:vert or v=7)",
            And((Text("loup"), Or((Field("colour", "=", "vert"), Field("value", "=", 7))))),
        ),
        (
            "-(c:rouge or c:bleu) v>2",
            And((Not(Or((Field("colour", "=", "rouge"), Field("colour", "=", "bleu")))),
                 Field("value", ">", 2))),
        ),
        ('"or"', Text("or")),
        ("mot-cle:foule", Field("keyword", "=", "foule")),
        ("((loup))", Text("loup")),
    ],
)
def test_parse(query, node):
    assert parse_query(query) == node


def test_positions_are_kept():
    node = parse_query("loup  c:bleu")
    assert isinstance(node, And)
    assert [n.position for n in node.nodes] == [0, 6]


@pytest.mark.parametrize(
    ("query", "position", "words"),
    [
        ("x:3", 0, "unknown search key “x”"),
        ("loup colur:bleu", 5, "did you mean colour:"),
        ("v>=", 3, "missing value"),
        ("c:", 2, "missing value"),
        ("v=>3", 1, "bad operator '=>'"),
        ("v==3", 1, "bad operator '=='"),
        ("c>=3", 1, "cannot be compared with '>='"),
        ("k<foule", 1, "cannot be compared"),
        ("v:trois", 2, "whole number"),
        ("(c:bleu", 0, "unclosed '('"),
        ("loup (c:bleu (v=1)", 5, "unclosed '('"),
        ("c:bleu)", 6, "')' without a matching '('"),
        ("or c:bleu", 0, "needs a term on its left"),
        ("c:bleu or", 7, "needs a term on its right"),
        ("c:bleu OR or v=1", 7, "needs a term on its right"),
        ("(c:bleu or) v=1", 8, "needs a term on its right"),
        ('""', 0, "empty quotes"),
        ('name:""', 5, "empty quotes"),
        ('loup "bois', 5, "unclosed quote"),
        ("- loup", 0, "'-' negates"),
        ("loup -", 5, "'-' negates"),
        ("()", 0, "empty parentheses"),
        ("10:00", 2, "not a search term"),
        ("(" * 400 + "a" + ")" * 400, 20, "nests more than 20 levels"),
        ("-" * 400 + "a", 20, "nests more than 20 levels"),
        ("-(" * 30 + "a" + ")" * 30, 20, "nests more than 20 levels"),
        (" ".join(["a"] * 1000), 200, "more than 100 terms"),
        (" or ".join(["a"] * 101), 500, "more than 100 terms"),
        ("a " * 1001, 2000, "2002 characters: 2000 at most"),
    ],
    ids=lambda v: v[:40] if isinstance(v, str) else None,
)
def test_errors_point_at_the_problem(query, position, words):
    with i18n.use_language("en"), pytest.raises(QueryError) as info:
        parse_query(query)
    err = info.value
    assert words in str(err)
    assert err.position == position
    assert err.query == query
    assert f"position {position + 1}" in str(err)


def test_query_errors_are_french_by_default_and_english_on_request():
    with pytest.raises(QueryError) as info:
        parse_query("(c:bleu")
    assert "« ( » non fermée" in str(info.value)
    with i18n.use_language("en"), pytest.raises(QueryError) as info:
        parse_query("(c:bleu")
    assert "unclosed '('" in str(info.value)


def test_the_limits_still_allow_big_queries():
    assert len(parse_query(" ".join(["a"] * 100)).nodes) == 100
    assert parse_query("(" * 20 + "a" + ")" * 20) == Text("a")
    assert parse_query("-" * 20 + "a") is not None


# --------------------------------------------------------------------------- a database

CARDS = [
    # game, edition, number, name, value, colour, banner, rarity, type, keywords, effect_text
    ("nespanini", "NP1", 1, "Bois Sacré", 3, "Verte", "Les Druides", "Rare", "Lieu", ["Foule"],
     "Piochez une carte."),
    ("nespanini", "NP1", 2, "Loup des bois", 2, "vert", "Les Druides", "Commune", "Personnage",
     ["Foule", "Défausse"], "Défaussez 100% de votre main_gauche."),
    ("nespanini", "NP1", 3, "Roi Écarlate", 7, "Rouge", "La Cour", "Mythique", "Personnage",
     ["Légendaire"], "Vaut 2 de plus par carte rouge dans votre main."),
    ("nespanini", "NP1", 4, "Espion", None, None, None, "Commune", "Personnage", [],
     "Regardez la main d'un joueur."),
    ("nespanini", "NP1", 5, "Pièce d'or", 0, "Jaune", "La Cour", "Peu commune", "Objet", [],
     "Gagnez 1 or ou 2 si vous êtes Leader."),
    ("nespanini", "NP1", 6, "Bleuet", 5, "Bleue", "Les Druides", "Rare", "Lieu", ["Défausse"],
     "À la fin de la partie, +1 par carte bleue."),
    ("overkill", "OVK", 1, "5 bleue", 5, "Bleue", None, None, "Nombre", [], None),
    ("overkill", "OVK", 2, "Ruse", None, None, None, None, "Atout actif", [],
     "Échangez une carte avec un adversaire."),
    ("overkill", "OVK", 3, "99 rouge", 99, "rouge", None, None, "Nombre", [], None),
]


def _populate(session: Session) -> None:
    games = {code: Game(code=code, name=code.title()) for code in ("nespanini", "overkill")}
    session.add_all(games.values())
    session.flush()
    editions = {
        "NP1": Edition(game_id=games["nespanini"].id, code="NP1", name="Base", set_size=6),
        "OVK": Edition(game_id=games["overkill"].id, code="OVK", name="Overkill", set_size=3),
    }
    session.add_all(editions.values())
    session.flush()
    for _, ed, number, name, value, colour, banner, rarity, ctype, kws, text in CARDS:
        session.add(apply_keys(Card(
            edition_id=editions[ed].id, number=number, name=name, value=value, colour=colour,
            banner=banner, rarity=rarity, card_type=ctype, keywords=kws, effect_text=text)))
    session.commit()


@pytest.fixture
def db(empty_engine):
    with Session(empty_engine, expire_on_commit=False) as session:
        _populate(session)
        yield session


def names(session: Session, query: str, **kw) -> list[str]:
    return [c.name for c in search_cards(session, query, **kw)]


SEARCHES = [
        ("c:vert", ["Bois Sacré", "Loup des bois"]),
        ("c:VERTE", ["Bois Sacré", "Loup des bois"]),
        ("c:bleue", ["Bleuet", "5 bleue"]),
        ("c:bleu v>=5 g:nespanini", ["Bleuet"]),
        ("bois", ["Bois Sacré", "Loup des bois"]),
        ("BOIS sacre", ["Bois Sacré"]),
        ('"bois sacré"', ["Bois Sacré"]),
        ('"des bois" loup', ["Loup des bois"]),
        ("écarlate", ["Roi Écarlate"]),
        ("k:foule", ["Bois Sacré", "Loup des bois"]),
        ("k:defausse", ["Loup des bois", "Bleuet"]),
        ("k:legendaire", ["Roi Écarlate"]),
        ("-k:foule g:nespanini", ["Roi Écarlate", "Espion", "Pièce d'or", "Bleuet"]),
        ("v=2", ["Loup des bois"]),
        ("v<3", ["Loup des bois", "Pièce d'or"]),
        ("v>=7", ["Roi Écarlate", "99 rouge"]),
        ("v!=5 g:overkill", ["99 rouge"]),
        ("-v>=3 e:np1", ["Loup des bois", "Espion", "Pièce d'or"]),
        ("r:rare", ["Bois Sacré", "Bleuet"]),
        ("r:commune", ["Loup des bois", "Espion"]),
        ('r:"peu commune"', ["Pièce d'or"]),
        ("e:OVK", ["5 bleue", "Ruse", "99 rouge"]),
        ("e:ovk n>=2", ["Ruse", "99 rouge"]),
        ("g:overkill t:atout", ["Ruse"]),
        ("t:personnage -k:foule", ["Roi Écarlate", "Espion"]),
        ("t=lieu", ["Bois Sacré", "Bleuet"]),
        ("b:druides", ["Bois Sacré", "Loup des bois", "Bleuet"]),
        ("fanion:cour", ["Roi Écarlate", "Pièce d'or"]),
        ("c:rouge or c:bleu", ["Roi Écarlate", "Bleuet", "5 bleue", "99 rouge"]),
        ("(c:rouge ou c:jaune) g:nespanini", ["Roi Écarlate", "Pièce d'or"]),
        ("-(c:rouge or c:bleu or c:vert) e:np1", ["Espion", "Pièce d'or"]),
        ("main", ["Loup des bois", "Roi Écarlate", "Espion"]),
        ("name:bleu", ["Bleuet", "5 bleue"]),
        ("o:bleue", ["Bleuet", "5 bleue"]),
        ("o:adversaire", ["Ruse"]),
        ('"or"', ["Pièce d'or"]),
        # LIKE wildcards are plain characters in a query.
        ("100%", ["Loup des bois"]),
        ("%", ["Loup des bois"]),
        ("main_", ["Loup des bois"]),
        ("_", ["Loup des bois"]),
        ("c:rouge -c:rouge", []),
        ("t:atout t:lieu", []),
]


def test_search(db):
    # One database for every case (a fresh one per case costs a second on PostgreSQL).
    wrong = [(query, expected, names(db, query)) for query, expected in SEARCHES
             if names(db, query) != expected]
    assert wrong == []


def test_empty_query_returns_every_card_in_order(db):
    cards = search_cards(db, "")
    assert len(cards) == len(CARDS)
    assert [c.name for c in cards][:2] == ["Bois Sacré", "Loup des bois"]
    assert names(db, "   ") == names(db, "")


def test_count_cards(db):
    assert count_cards(db, "") == len(CARDS)
    assert count_cards(db, "c:vert or c:rouge") == len(names(db, "c:vert or c:rouge")) == 4
    with pytest.raises(QueryError):
        count_cards(db, "(")


def test_limit_and_offset(db):
    every = names(db, "")
    assert names(db, "", limit=3) == every[:3]
    assert names(db, "", limit=3, offset=3) == every[3:6]
    assert names(db, "", offset=8) == every[8:]


def test_search_errors_reach_the_caller(db):
    with i18n.use_language("en"), pytest.raises(QueryError, match="unknown search key"):
        search_cards(db, "zz:1")


@pytest.mark.parametrize(
    ("query", "position", "words"),
    [
        ("c:rouj", 2, "“rouj” is no known colour — did you mean c:rouge?"),
        ("loup couleur:VERTT", 13, "did you mean couleur:vert?"),
        ("k:fuole", 2, "no known keyword — did you mean k:foule?"),
        ("k:défose", 2, "did you mean k:defausse?"),
        ("r:rrae", 2, "no known rarity — did you mean r:rare?"),
        ('r:"peu comune"', 3, 'did you mean r:"peu commune"?'),
        ("e:NP2", 2, "no known edition code — did you mean e:NP1?"),
        ("g:nespanin", 2, "no known game — did you mean g:nespanini?"),
        ("t:persnnage", 2, "no type or class contains “persnnage” — did you mean t:personnage?"),
        ("b:druid", 2, None),  # part of a banner: known
        ("fanion:druuides", 7, "no banner contains “druuides” — did you mean fanion:\"les druides\"?"),
        ("-c:rouj", 3, "no known colour"),
        ("c:rouge or (v>1 k:xyzzy)", 18, "“xyzzy” is no known keyword (known values: defausse, "
         "foule, legendaire)"),
        ("t!=persnnage", 3, "did you mean t!=personnage?"),
        ("t=person", 2, "did you mean t=personnage?"),
    ],
)
def test_unknown_values_of_closed_keys_are_refused_with_the_nearest(db, query, position, words):
    if words is None:
        assert names(db, query)
        return
    with i18n.use_language("en"), pytest.raises(QueryError) as info:
        search_cards(db, query)
    assert words in str(info.value)
    assert info.value.position == position
    with pytest.raises(QueryError):
        count_cards(db, query)


def test_every_unknown_value_is_named_at_once_and_in_french_by_default(db):
    with pytest.raises(QueryError) as info:
        search_cards(db, "c:rouj k:fuole")
    message = str(info.value)
    assert "« rouj » n'est pas une couleur connue — vouliez-vous dire c:rouge ?" in message
    assert "« fuole » n'est pas un mot-clé connu — vouliez-vous dire k:foule ?" in message
    assert info.value.position == 2


def test_catalog_search_checks_values_too(db):
    from cardbase.catalog import cards as catalog

    with pytest.raises(QueryError, match="rouge"):
        catalog.card_dicts(db, query="c:rouj")
    assert [c["name"] for c in catalog.card_dicts(db, query="c:rouge")] == ["Roi Écarlate",
                                                                          "99 rouge"]


def test_seeded_database_finds_the_rule_games(session):
    overkill = search_cards(session, "g:overkill")
    assert overkill
    every = session.exec(select(Card)).all()
    assert len(search_cards(session, "")) == len(every)
    assert len(search_cards(session, "-g:overkill")) == len(every) - len(overkill)


# --------------------------------------------------------------------------- SQL = reference

def _matches(node, card: Card, edition: Edition, game: Game) -> bool:
    """Reference evaluation in Python, written from the documentation, not from the SQL."""
    if isinstance(node, All):
        return True
    if isinstance(node, Text):
        return node.text in fold(card.name) or node.text in fold(card.effect_text)
    if isinstance(node, Not):
        return not _matches(node.node, card, edition, game)
    if isinstance(node, And):
        return all(_matches(n, card, edition, game) for n in node.nodes)
    if isinstance(node, Or):
        return any(_matches(n, card, edition, game) for n in node.nodes)
    key, op, value = node.key, node.op, node.value
    if key in {"value", "number"}:
        actual = card.value if key == "value" else card.number
        if actual is None:
            return False
        return {"=": actual == value, "!=": actual != value, "<": actual < value,
                "<=": actual <= value, ">": actual > value, ">=": actual >= value}[op]
    if key == "keyword":
        hit = value in [fold(k) for k in card.keywords]
    elif key == "edition":
        hit = edition.code.lower() == value
    elif key == "game":
        hit = game.code.lower() == value
    else:
        actual = {"colour": canonical_colour(card.colour), "rarity": fold(card.rarity),
                  "type": fold(card.card_type), "banner": fold(card.banner),
                  "name": fold(card.name), "text": fold(card.name) + " " + fold(card.effect_text)
                  }[key]
        hit = value in actual if op == ":" else actual == value
    return not hit if op == "!=" else hit


ATOMS = [
    "c:vert", "c:rouge", "c:bleue", "v>=3", "v<5", "v=5", "v!=2", "n<=2", "k:foule",
    "k:défausse", "r:rare", "r:commune", "e:np1", "g:overkill", "t:personnage", "t=lieu",
    "b:druides", "bois", "main", '"une carte"', "name:bleu", "o:carte", "%",
]


def _queries():
    atom = st.sampled_from(ATOMS)

    def extend(inner):
        return st.one_of(
            st.builds(lambda q: f"-{q}" if " " not in q else f"-({q})", inner),
            st.builds(lambda a, b: f"{a} {b}", inner, inner),
            st.builds(lambda a, b: f"({a} or {b})", inner, inner),
            st.builds(lambda a, b: f"{a} OR {b}", inner, inner),
        )

    return st.recursive(atom, extend, max_leaves=6)


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=_queries())
def test_sql_agrees_with_the_reference(db, query):
    node = parse_query(query)
    rows = db.exec(select(Card, Edition, Game).join(Edition, Card.edition_id == Edition.id)
                   .join(Game, Edition.game_id == Game.id)).all()
    expected = sorted(c.id for c, e, g in rows if _matches(node, c, e, g))
    assert sorted(c.id for c in search_cards(db, query)) == expected
    # The normalised text form parses back to the same query.
    assert parse_query(to_query(node)) == node


def test_a_card_reference_finds_its_card(session) -> None:
    """A reference typed in the search box (NP1-003, np1-3) finds that card."""
    from cardbase.catalog.search import search_cards

    def refs(q):
        return [(c.edition_id, c.number, c.name) for c in search_cards(session, q)]

    one = refs("NP1-003")
    assert len(one) == 1 and one[0][1] == 3
    assert refs("np1-3") == one
    both = refs("NP1-003 or NP1-004")
    assert [r[1] for r in both] == [3, 4] and both[0] == one[0]
