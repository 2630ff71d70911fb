"""Sticker codes: encode/decode round trips, French text, colour symbols, the database table, CLI."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlmodel import Session, select
from typer.testing import CliRunner

from cardbase import i18n
from cardbase.catalog import stickers
from cardbase.cli.sticker import app
from cardbase.errors import CardbaseError, StickerError
from cardbase.storage.models import StickerColour
from cardbase.catalog.stickers import Sticker, decode, encode, format_stickers

RULES_SENTENCE = "un carré pointé + un rond pointé + deux points"
ENGLISH_SENTENCE = "one dotted square + one dotted circle + two dots"


@pytest.fixture
def english():
    """Messages in English for the block of the test (French is the default)."""
    with i18n.use_language("en"):
        yield


def _min_count_table(limit: int) -> list[int]:
    """Fewest stickers for every value up to ``limit``, by dynamic programming over every sticker."""
    values = [1, 5] + list(range(10, limit + 1, 10))
    best = [0] + [10**9] * limit
    for n in range(1, limit + 1):
        best[n] = min(best[n - v] + 1 for v in values if v <= n)
    return best


# --------------------------------------------------------------------------- encoding


def test_seventeen_is_four_stickers_as_in_the_rules():
    assert encode(17) == [Sticker.square(1), Sticker.circle(), Sticker.dot(), Sticker.dot()]
    assert format_stickers(encode(17)) == RULES_SENTENCE


def test_zero_has_no_sticker():
    assert encode(0) == []
    assert format_stickers([]) == "aucun sticker"
    assert decode([]) == 0
    assert decode("") == 0
    assert decode("aucun sticker") == 0


def test_round_trip_and_minimality_for_every_value_up_to_999():
    best = _min_count_table(999)
    for value in range(1000):
        code = encode(value)
        assert sum(s.value for s in code) == value
        assert decode(code) == value
        assert decode(format_stickers(code)) == value
        assert decode(format_stickers(code, compact=True)) == value
        assert len(code) == best[value], value
        # Canonical shape: at most one square, at most one circle, fewer than five dots.
        kinds = [s.kind for s in code]
        assert kinds.count("square") <= 1 and kinds.count("circle") <= 1
        assert kinds.count("dot") <= 4
        assert kinds == sorted(kinds, key=["square", "circle", "dot"].index)


@given(st.integers(min_value=0, max_value=100_000))
def test_round_trip_large_values(value):
    assert decode(format_stickers(encode(value))) == value


@given(st.lists(st.sampled_from([Sticker.dot(), Sticker.circle(), Sticker.square(1),
                                 Sticker.square(2), Sticker.square(7)]), max_size=12),
       st.randoms())
def test_any_combination_in_any_order_decodes_to_its_sum(items, rnd):
    total = sum(s.value for s in items)
    shuffled = list(items)
    rnd.shuffle(shuffled)
    assert decode(items) == decode(shuffled) == total
    assert decode(format_stickers(shuffled)) == total
    assert decode(format_stickers(shuffled, compact=True)) == total


def test_every_permutation_of_seventeen_decodes_the_same():
    for perm in itertools.permutations(encode(17)):
        assert decode(list(perm)) == 17
        assert decode(format_stickers(perm)) == 17


@pytest.mark.parametrize("bad", [-1, -100, 2.5, 3.0, True, False, "abc", "3", None, [1]])
def test_encode_refuses_what_is_not_a_whole_number_zero_or_more(bad, english):
    with pytest.raises(StickerError) as info:
        encode(bad)
    assert "cannot sticker-code" in str(info.value)
    assert isinstance(info.value, CardbaseError)


def test_sticker_labels_and_shape(english):
    assert Sticker.dot().label_fr == "un point"
    assert Sticker.circle().label_fr == "un rond pointé"
    assert Sticker.square().label_fr == "un carré pointé"
    assert Sticker.square(3).label_fr == "un carré pointé à 3 points"
    assert Sticker.square(3).value == 30
    assert Sticker.circle().value == 5
    with pytest.raises(StickerError, match="kind"):
        Sticker("triangle")
    with pytest.raises(StickerError, match="only squares"):
        Sticker("circle", 2)
    with pytest.raises(StickerError, match="at least one dot"):
        Sticker.square(0)
    with pytest.raises(AttributeError):
        Sticker.dot().kind = "circle"  # type: ignore[misc]


def test_format_groups_neighbours():
    assert format_stickers([Sticker.circle(), Sticker.circle()]) == "deux ronds pointés"
    assert format_stickers([Sticker.square(2)] * 2) == "deux carrés pointés à 2 points"
    assert format_stickers(encode(34)) == "un carré pointé à 3 points + quatre points"
    assert format_stickers(encode(34), compact=True) == "C3 4P"


# --------------------------------------------------------------------------- decoding text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (RULES_SENTENCE, 17),
        ("un carré pointé + un rond pointé + deux points=17", 17),
        ("UN CARRE POINTE + UN ROND POINTE + DEUX POINTS", 17),
        ("Un Carré Pointé, un Rond Pointé et deux Points", 17),
        ("carré pointé à 3 points + 4 points", 34),
        ("carre pointe a trois points + quatre points", 34),
        ("deux carrés pointés à 2 points", 40),
        ("trois points", 3),
        ("2 points", 2),
        ("un point", 1),
        ("1 point", 1),
        ("rond pointé", 5),
        ("deux ronds pointés + un point", 11),
        ("dix points", 10),
        ("dix-sept points", 17),
        ("deux points + un carré pointé + un point", 13),
        ("C1 R 2P", 17),
        ("c3 4p", 34),
        ("P P P", 3),
        ("2R", 10),
    ],
)
def test_decode_text(text, value):
    assert decode(text) == value


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("abc", 1, "not a sticker"),
        ("un carré pointé + trois trucs", 25, "not a sticker"),
        ("un carré plein", 10, "colour symbol"),
        ("un rond pointé + + deux points", 18, "missing"),
        ("deux points +", 13, "missing"),
        ("deux", 1, "counts nothing"),
        ("un point bleu", 10, "unexpected"),
        ("carré pointé à points", 16, "how many dots"),
        ("deux points = 3", 13, "worth 2, not 3"),
        ("C3 X", 4, "compact"),
    ],
)
def test_decode_errors_point_at_the_bad_part(text, position, words, english):
    with pytest.raises(StickerError) as info:
        decode(text)
    message = str(info.value)
    assert words in message
    assert f"position {position}" in message
    assert info.value.position == position - 1  # type: ignore[attr-defined]


def test_decode_refuses_non_stickers(english):
    with pytest.raises(StickerError, match="not a sticker"):
        decode([Sticker.dot(), 3])  # type: ignore[list-item]
    with pytest.raises(StickerError):
        decode(17)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- colours


def test_the_rules_colour_table():
    table = stickers.default_colour_table()
    assert table["rouge"] == "coeur"
    assert table["blanc"] == "carre-plein"
    assert table["bleu"] == "goutte"
    assert len(table) == 10
    assert set(table.values()) == set(stickers.SYMBOLS)
    assert stickers.SYMBOLS["goutte"] == "Goutte d'eau"
    assert stickers.SYMBOLS["quatre-carreaux"] == "4 carreaux"


@pytest.mark.parametrize(("colour", "symbol"), [
    ("rouge", "coeur"), ("Rouge", "coeur"), ("bleue", "goutte"), ("VIOLETTES", "grappe"),
    ("Blanche", "carre-plein"), ("vert", "trefle"), ("jaune", "lune"),
])
def test_colour_symbol_any_form(colour, symbol):
    assert stickers.colour_symbol(colour) == symbol


def test_gris_has_no_symbol(english):
    with pytest.raises(StickerError) as info:
        stickers.colour_symbol("Grise")
    message = str(info.value)
    assert "'gris' has no sticker symbol" in message
    assert "cardbase sticker colour gris --symbol" in message


def test_colour_symbol_with_a_given_table(english):
    assert stickers.colour_symbol("Gris", {"gris": "lune"}) == "lune"
    with pytest.raises(StickerError):
        stickers.colour_symbol("rouge", {"gris": "lune"})
    with pytest.raises(StickerError, match="no colour"):
        stickers.colour_symbol("")


def test_symbol_key_accepts_labels(english):
    assert stickers.symbol_key("Goutte d'eau") == "goutte"
    assert stickers.symbol_key("croix épaisse") == "croix-epaisse"
    assert stickers.symbol_key("4 carreaux") == "quatre-carreaux"
    with pytest.raises(StickerError, match="unknown sticker symbol"):
        stickers.symbol_key("étoile")


def test_seed_and_extend_the_database_table(empty_engine, english):
    with Session(empty_engine) as session:
        assert stickers.colour_table(session) == {}
        assert stickers.seed_colours(session) == 10
        assert stickers.seed_colours(session) == 0  # idempotent
        session.commit()
        table = stickers.colour_table(session)
        assert table == stickers.default_colour_table()
        with pytest.raises(StickerError):
            stickers.colour_symbol("gris", table)

        row = stickers.add_colour(session, "Grise", "Lune", label="Lune grise")
        session.commit()
        assert row.colour == "gris" and row.symbol == "lune"
        assert stickers.colour_symbol("gris", stickers.colour_table(session)) == "lune"
        assert stickers.symbol_users(session, "lune") == ["gris", "jaune"]

        with pytest.raises(StickerError, match="already has the symbol"):
            stickers.add_colour(session, "gris", "fleur")
        with pytest.raises(StickerError, match="unknown sticker symbol"):
            stickers.add_colour(session, "cyan", "etoile")
        # a label is printed in every terminal that lists the table: no escape may reach it
        for label in ("Lune\x1b[2J", "a\nb", "tab\there", "nul\x00"):
            with pytest.raises(StickerError, match="control character"):
                stickers.add_colour(session, "cyan", "lune", label=label)
        session.rollback()
        assert stickers.seed_colours(session) == 0
        rows = session.exec(select(StickerColour)).all()
        assert len(rows) == 11


def test_seeded_database_has_the_rules_table(session):
    assert stickers.colour_table(session)["noir"] == "croix-epaisse"


# --------------------------------------------------------------------------- command line

runner = CliRunner()


def test_cli_encode_json():
    result = runner.invoke(app, ["encode", "17", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["value"] == 17
    assert [s["kind"] for s in data["stickers"]] == ["square", "circle", "dot", "dot"]
    assert data["stickers"][0] == {"kind": "square", "dots": 1, "value": 10,
                                   "label": "un carré pointé"}


def test_cli_encode_text_and_errors(english):
    result = runner.invoke(app, ["encode", "17"])
    assert result.exit_code == 0
    assert ENGLISH_SENTENCE in result.stdout
    for bad in ("-1", "2.5", "abc", "²", "", "9" * 5000):
        result = runner.invoke(app, ["encode", bad])
        assert result.exit_code == 2, bad
        assert "cannot sticker-code" in result.stderr or "too large" in result.stderr
        assert "Traceback" not in result.output


def test_cli_decode(english):
    result = runner.invoke(app, ["decode", RULES_SENTENCE])
    assert result.exit_code == 0
    assert result.stdout.strip() == "17"
    result = runner.invoke(app, ["decode", "carré pointé à 3 points + 4 points", "--json"])
    assert json.loads(result.stdout)["value"] == 34
    result = runner.invoke(app, ["decode", "trois trucs"])
    assert result.exit_code == 2
    assert "position 7" in result.stderr


def test_cli_colour_show_and_add(cli_env, english):
    result = runner.invoke(app, ["colour", "Rouge", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"colour": "rouge", "symbol": "coeur", "label": "Heart",
                                         "added": False}
    with i18n.use_language("fr"):
        result = runner.invoke(app, ["colour", "Rouge"])
    assert result.stdout.strip() == "rouge a le symbole Coeur (coeur)"
    result = runner.invoke(app, ["colour", "gris"])
    assert result.exit_code == 2
    assert "no sticker symbol" in result.stderr
    result = runner.invoke(app, ["colour", "gris", "--symbol", "lune"])
    assert result.exit_code == 0, result.output
    assert "lune" in result.stdout
    assert "jaune" in result.stderr  # warns that jaune feels the same
    result = runner.invoke(app, ["colour", "grise", "--json"])
    assert json.loads(result.stdout)["symbol"] == "lune"
    result = runner.invoke(app, ["colour", "gris", "--symbol", "fleur"])
    assert result.exit_code == 2
    assert "already has the symbol" in result.stderr


# --------------------------------------------------------------------------- languages and limits


def test_sticker_texts_are_english_in_english_mode(english):
    assert format_stickers(encode(17)) == ENGLISH_SENTENCE
    assert format_stickers(encode(34)) == "one dotted square with 3 dots + four dots"
    assert format_stickers([Sticker.square(2)] * 2) == "two dotted squares with 2 dots"
    assert format_stickers([]) == "no sticker"
    assert format_stickers(encode(17), lang="fr") == RULES_SENTENCE
    assert Sticker.circle().label == "one dotted circle"
    assert Sticker.circle().label_fr == "un rond pointé"
    assert Sticker.circle().as_dict()["label"] == "one dotted circle"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (ENGLISH_SENTENCE, 17),
        ("a dotted square, a dotted circle and two dots = 17", 17),
        ("one dotted square with 3 dots + four dots", 34),
        ("two dotted squares with 2 dots", 40),
        ("no sticker", 0),
        ("three dots", 3),
        ("5 dots + un rond pointé", 10),
    ],
)
def test_decode_reads_english_in_both_languages(text, value):
    assert decode(text) == value
    with i18n.use_language("en"):
        assert decode(text) == value


def test_every_value_round_trips_through_the_english_text(english):
    for value in range(300):
        assert decode(format_stickers(encode(value))) == value
    with i18n.use_language("fr"):
        for value in range(300):
            assert decode(format_stickers(encode(value), lang="en")) == value


def test_sticker_errors_are_french_by_default():
    with pytest.raises(StickerError) as info:
        decode("trois trucs")
    assert "« trucs » n'est pas un sticker à la position 7" in str(info.value)
    with pytest.raises(StickerError, match="impossible de coder"):
        encode(-1)
    with pytest.raises(StickerError, match="filled circle"), i18n.use_language("en"):
        decode("one filled circle")


@pytest.mark.parametrize("text", [
    "5" * 5000, "9" * 900, "99999999 points", "C99999999", "carré pointé à 99999999 points",
    "999999 carrés pointés à 999999 points", "P " * 400, "²P", "٣ points + deux points = 99999999999",
])
def test_decode_refuses_huge_input_clearly(text, english):
    try:
        value = decode(text)
    except StickerError as exc:
        message = str(exc)
        assert len(message) < 600, message[:200]
    else:
        assert 0 <= value <= stickers.MAX_VALUE


def test_values_beyond_the_limit_are_refused(english):
    assert decode(format_stickers(encode(stickers.MAX_VALUE))) == stickers.MAX_VALUE
    with pytest.raises(StickerError, match="too large"):
        encode(stickers.MAX_VALUE + 1)
    with pytest.raises(StickerError, match="too large"):
        decode([Sticker.square(stickers.MAX_VALUE // 10), Sticker.dot()])


def test_cli_sticker_language_and_huge_input():
    from cardbase.cli import app as root

    result = runner.invoke(root, ["--lang", "en", "sticker", "encode", "17"])
    i18n.set_language("fr")
    assert result.exit_code == 0, result.output
    assert ENGLISH_SENTENCE in result.stdout
    result = runner.invoke(app, ["encode", "17"])
    assert RULES_SENTENCE in result.stdout
    result = runner.invoke(app, ["decode", "5" * 5000])
    assert result.exit_code == 2 and "1000 au plus" in result.stderr
    assert "Traceback" not in result.output
    result = runner.invoke(app, ["decode", ENGLISH_SENTENCE])
    assert result.exit_code == 0 and result.stdout.strip() == "17"
