"""Bad input, tried hard: every parser of user text either succeeds or raises cardbase's own error.

Each parser gets three kinds of input: arbitrary text, "token soup" made of its own vocabulary (so
that the generated cases get past the first character and into the grammar), and valid inputs
with random damage. What may come out: a value, or a ``CardbaseError`` subclass with a message —
never any other exception. Where a parser has a printer, what it accepts must print and parse back
to the same thing.

Case counts follow the Hypothesis profile (``ci``: thousands per test; ``dev``: a hundred), see
tests/conftest.py.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import tomllib
from pathlib import Path

from hypothesis import HealthCheck, assume, event, example, given, settings
from hypothesis import strategies as st

from cardbase import decks
from cardbase.catalog import stickers
from cardbase.games.effects import effect_to_french, format_effect, lint_effect, parse_effect
from cardbase.errors import (
    CardbaseError,
    DeckListError,
    EffectError,
    ImportError_,
    QueryError,
    StickerError,
    TemplateError,
)
from cardbase.catalog.search import parse_query, to_query, to_sql
from cardbase.catalog.transfer import read_rows

PROJECT = Path(__file__).resolve().parents[1]


def _refused(exc: CardbaseError, kind: type[CardbaseError]) -> None:
    """A refusal is the parser's own error type, with a message a person can act on."""
    event("refused")
    assert isinstance(exc, kind), f"{type(exc).__name__} raised where {kind.__name__} was expected"
    assert len(str(exc).strip()) >= 10, f"unhelpful message: {exc!r}"


def soup(vocabulary: list[str], *, joiners: tuple[str, ...] = (" ",), max_size: int = 14) -> st.SearchStrategy[str]:
    """Text made of a language's own words, some noise, and its separators."""
    word = st.one_of(st.sampled_from(vocabulary), st.sampled_from(vocabulary),
                     st.text(max_size=4), st.integers(-20, 2000).map(str))
    return st.tuples(st.lists(word, max_size=max_size), st.sampled_from(joiners)).map(
        lambda t: t[1].join(t[0]))


@st.composite
def damaged(draw: st.DrawFn, valid: list[str]) -> str:
    """A valid input with a few random insertions, deletions and replacements."""
    text = draw(st.sampled_from(valid))
    for _ in range(draw(st.integers(1, 4))):
        pos = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(("insert", "delete", "replace", "duplicate")))
        piece = draw(st.text(min_size=1, max_size=3))
        if action == "insert":
            text = text[:pos] + piece + text[pos:]
        elif action == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 5)):]
        elif action == "replace":
            text = text[:pos] + piece + text[pos + len(piece):]
        else:
            text = text[:pos] + text[pos:pos + 6] + text[pos:]
    return text


def inputs(vocabulary: list[str], valid: list[str], joiners: tuple[str, ...] = (" ",)) -> st.SearchStrategy[str]:
    return st.one_of(st.text(max_size=60), soup(vocabulary, joiners=joiners), damaged(valid),
                     st.sampled_from(valid))


# --------------------------------------------------------------------------- card query language

QUERY_WORDS = ["c:", "c:rouge", "v>=3", "v=2", "v<", "v!=1", "k:foule", "r:rare", "e:NP1", "g:nespanini",
               "t:atout", "-", "-k:defausse", "or", "OR", "(", ")", '"', '"carte rouge"', "name:",
               "v:", ">", ">=", "<=", "=", "!", "é", "Légendaire", "c:bleu", "zz:foo", "o:", "\\", "'"]
QUERY_VALID = ["c:rouge v>=3", "k:foule or k:defausse", '-(c:bleu or c:vert) "sardine"', "e:NP1 r:rare",
               'g:overkill t:atout -v=99', "v>2 v<8 (k:foule or c:jaune)"]


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(inputs(QUERY_WORDS, QUERY_VALID, joiners=(" ", "", "  ")))
@example("(((")
@example('"unclosed')
@example("v>=")
@example("-")
@example("or or")
def test_query_language(query: str) -> None:
    try:
        node = parse_query(query)
    except CardbaseError as exc:
        _refused(exc, QueryError)
        assert 0 <= exc.position <= len(query)
        return
    to_sql(node)  # every parsed query compiles to SQL
    printed = to_query(node)
    assert parse_query(printed) == node, f"{query!r} printed as {printed!r} parses differently"


# --------------------------------------------------------------------------- deck lists

DECK_WORDS = ["2", "1", "4", "0", "-1", "x", "NP1-012", "NP1-", "Banc de sardines", "#", "# name: Test",
              "# game: nespanini", "# description:", "\n", "\t", "Zeta Deux", "99999999999999999999", "×",
              "2x", "é", "\r\n", ":"]
DECK_VALID = ["# name: Rouge\n# game: nespanini\n2 Banc de sardines\n1 NP1-012  # une note\n\n3 Zeta Deux\n",
              "4 NP1-001\n", "# only a comment\n"]


@given(inputs(DECK_WORDS, DECK_VALID, joiners=(" ", "\n", "")))
@example("2")
@example("2 \n")
@example("# name:\n")
def test_deck_list_text(text: str) -> None:
    try:
        deck = decks.parse_deck_list(text)
    except CardbaseError as exc:
        _refused(exc, DeckListError)
        assert all(p.where for p in exc.problems), "every deck-list problem names its line"
        return
    for line in deck.lines:
        assert line.count >= 1
    printed = decks.format_deck_list(deck)
    again = decks.parse_deck_list(printed)
    assert [(x.key, x.count) for x in again.lines] == _merged(deck)


def _merged(deck: decks.DeckList) -> list[tuple[str, int]]:
    out: dict[str, int] = {}
    for line in deck.lines:
        out[line.key] = out.get(line.key, 0) + line.count
    return list(out.items())


# --------------------------------------------------------------------------- deck codes (bytes)

CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _checksummed(body: bytes) -> str:
    """A code whose checksum is right, so that the decoder reads on into the body."""
    data = body + hashlib.sha256(body).digest()[:2]
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


@st.composite
def structured_body(draw: st.DrawFn) -> bytes:
    """Bodies shaped like a deck code (version, game, fingerprint, editions, cards) with bad values."""
    parts = [bytes([decks.CODE_VERSION])]
    game = draw(st.one_of(st.sampled_from([b"nespanini", b"overkill"]), st.binary(max_size=6)))
    parts += [_varint(draw(st.sampled_from([len(game), len(game) + 1, 0, 300]))), game]
    parts.append(draw(st.binary(min_size=0, max_size=5)))
    editions = draw(st.lists(st.tuples(st.one_of(st.just(b"NP1"), st.binary(max_size=4)),
                                       st.lists(st.tuples(st.integers(0, 2**20), st.integers(0, 2**16)),
                                                max_size=4)), max_size=3))
    parts.append(_varint(draw(st.sampled_from([len(editions), len(editions) + 1, 2**40]))))
    for code, cards in editions:
        parts += [_varint(len(code)), code, _varint(len(cards))]
        for number, count in cards:
            parts += [_varint(number), _varint(count), draw(st.binary(min_size=0, max_size=2))]
    parts.append(draw(st.binary(max_size=2)))
    return b"".join(parts)


@given(st.one_of(st.text(alphabet=CODE_ALPHABET, max_size=80), st.text(max_size=40),
                 st.binary(max_size=60).map(lambda b: base64.urlsafe_b64encode(b).decode().rstrip("=")),
                 st.binary(max_size=60).map(lambda b: _checksummed(bytes([decks.CODE_VERSION]) + b)),
                 structured_body().map(_checksummed)))
def test_deck_code_bytes(code: str) -> None:
    try:
        _version, game, fingerprint, items = decks.read_deck_code(code)
    except CardbaseError as exc:
        _refused(exc, DeckListError)
        return
    assert isinstance(game, str) and isinstance(fingerprint, bytes)
    for edition, number, count, _hash in items:
        assert isinstance(edition, str) and number >= 0 and count >= 0


# --------------------------------------------------------------------------- effect language

EFFECT_WORDS = ["score:", "defausse:", "+1", "-2", "+3", "per", "card", "cards", "in", "hand", "where",
                "other", "and", "or", "not", "colour", "value", "keyword", "name", "=", "!=", "<=", ">=",
                "<", ">", "rouge", "bleu", "foule", "max", "if", "count(", "count", "(", ")", "cimetiere",
                "opponent_discards", "discards", "force_discard", "draw", "look", "take", "recover", "from",
                '"Banc de sardines"', '"', "1", "3", "0", "\n", "#", ":"]
EFFECT_VALID = [
    "score: +1 per card in hand where other and colour = rouge max 3",
    "defausse: force_discard 1",
    "score: -2 if count(hand where value <= 2) >= 2",
    "defausse: look 3 take 1",
    "score: +2 if count(hand where other and name = \"Banc de sardines\") >= 1",
    "defausse: recover from discards where colour = bleu",
    "score: +1 per card in cimetiere where colour = rouge max 4\ndefausse: draw 1",
]


@given(inputs(EFFECT_WORDS, EFFECT_VALID, joiners=(" ", "", "\n")))
@example("score:")
@example("score: +1 per card in")
@example('score: +2 if count(hand where name = "unterminated) >= 1')
def test_effect_language(source: str) -> None:
    try:
        effect = parse_effect(source)
    except CardbaseError as exc:
        _refused(exc, EffectError)
        return
    printed = format_effect(effect)
    assert parse_effect(printed) == effect, f"{source!r} printed as {printed!r} parses differently"
    assert isinstance(effect_to_french(effect), str)
    lint_effect(effect)


# --------------------------------------------------------------------------- sticker text

STICKER_WORDS = ["un", "une", "deux", "trois", "quatre", "dix", "carré", "carrés", "pointé", "pointés",
                 "rond", "ronds", "point", "points", "plein", "à", "avec", "+", ",", "=", "et", "C3", "R",
                 "2P", "P", "c", "aucun", "rien", "0", "17", "C", "C0", "C99", "cercle", "one", "a",
                 "dotted", "square", "squares", "circle", "dot", "dots", "with", "filled", "and", "no",
                 "sticker", "²", "٣", "9" * 30]
STICKER_VALID = ["un carré pointé + un rond pointé + deux points", "carré pointé à 3 points + 4 points",
                 "C3 R 2P", "aucun", "deux carrés pointés et un rond pointé",
                 "one dotted square + one dotted circle + two dots", "a dotted square with 3 dots and a dot"]


@given(inputs(STICKER_WORDS, STICKER_VALID))
@example("C99999999999999999999")
@example("99999999999999999999 points")
@example("5" * 5000)
@example("P " * 600)
def test_sticker_text(text: str) -> None:
    try:
        value = stickers.decode(text)
    except CardbaseError as exc:
        _refused(exc, StickerError)
        assert len(str(exc)) < 1000, "a message that repeats a huge input"
        return
    assert isinstance(value, int) and 0 <= value <= stickers.MAX_VALUE
    assert stickers.decode(stickers.format_stickers(stickers.encode(value))) == value
    assert stickers.decode(stickers.format_stickers(stickers.encode(value), lang="en")) == value


# --------------------------------------------------------------------------- art references

ART_WORDS = ["np1", "012.png", "/", "..", ".", "\\", "C:", "~", "x", "\x00", "art", ".png", "é", " ",
             "%2e%2e", "//", "file:", "\n"]
ART_VALID = ["np1-012.png", "np1/012.png", "ovk/atouts/ruse.webp"]


@given(inputs(ART_WORDS, ART_VALID, joiners=("", "/", " ")))
@example("../../x")
@example("/etc/passwd")
def test_art_references(name: str) -> None:
    from cardbase.catalog.cards import check_art_name

    problem = check_art_name(name)
    if problem is not None:
        assert problem.code == "unsafe-art" and len(problem.message) >= 10
        return
    parts = name.split("/")
    assert name.strip() and not name.startswith("/") and ".." not in parts and "\\" not in name
    assert "\x00" not in name and not (len(name) > 1 and name[1] == ":")
    assert not any(p.startswith(".") or p == "" for p in parts)


@given(st.one_of(st.integers(), st.floats(allow_nan=True), st.text(max_size=5), st.none(), st.booleans()))
def test_sticker_encode_values(value: object) -> None:
    try:
        result = stickers.encode(value)  # type: ignore[arg-type]
    except CardbaseError as exc:
        _refused(exc, StickerError)
        return
    assert stickers.decode(result) == value


# --------------------------------------------------------------------------- CSV / JSON card files

CSV_HEADER = "edition,number,name,value,colour,keywords,stats,version"
CSV_WORDS = ["NP1", "OVK", "1", "3", "-1", "x", "rouge", "foule;defausse", '"', '""', ",", "\n", "\r\n",
             '{"damage": 40}', "{", "true", "é", "\x00", "1e9", "nan"]
CSV_VALID = [CSV_HEADER + "\nNP1,1,Banc,3,rouge,foule,,1\n", CSV_HEADER + '\nNP1,2,"Nom, avec virgule",,bleu,"",{},\n']
JSON_VALID = ['[{"edition": "NP1", "number": 1, "name": "Banc", "value": 3}]',
              '{"cards": [{"edition": "OVK", "number": "2", "name": "Deux", "keywords": ["a"]}]}']
JSON_WORDS = ["[", "]", "{", "}", '"edition"', '"number"', '"name"', ":", ",", "1", "null", "true", '"x"',
              '"cards"', "1e400", "-0", '"\\u0000"', "NaN"]


@given(st.one_of(inputs(CSV_WORDS, CSV_VALID, joiners=(",", "\n", "")), st.binary(max_size=80).map(
    lambda b: b.decode("latin-1"))), st.booleans())
def test_csv_rows(text: str, as_bytes: bool) -> None:
    data: bytes | str = text.encode("utf-8", "surrogatepass") if as_bytes else text
    try:
        rows = read_rows(data, fmt="csv", source="f.csv")
    except CardbaseError as exc:
        _refused(exc, ImportError_)
        return
    assert all(isinstance(i, int) and isinstance(r, dict) for i, r in rows)


@given(st.one_of(inputs(JSON_WORDS, JSON_VALID, joiners=("", " ")), st.binary(max_size=60).map(
    lambda b: b.decode("latin-1"))), st.booleans())
def test_json_rows(text: str, as_bytes: bool) -> None:
    data: bytes | str = text.encode("utf-8", "surrogatepass") if as_bytes else text
    try:
        rows = read_rows(data, fmt="json", source="f.json")
    except CardbaseError as exc:
        _refused(exc, ImportError_)
        return
    assert all(isinstance(r, dict) for _, r in rows)


# --------------------------------------------------------------------------- card templates

from cardbase.outputs.printing import templates as tpl

_POKER = tomllib.loads((PROJECT / "card_templates" / "poker.toml").read_text(encoding="utf-8"))

_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8), st.sampled_from(["#fff", "#12345", "red", "bold", "poker", "middle", "lattice"]))
json_values = st.one_of(_scalars, st.lists(_scalars, max_size=5),
                        st.dictionaries(st.text(max_size=6), _scalars, max_size=4))


def _paths(data: dict, prefix: tuple = ()) -> list[tuple]:
    out = []
    for key, value in data.items():
        out.append((*prefix, key))
        if isinstance(value, dict):
            out += _paths(value, (*prefix, key))
    return out


_POKER_PATHS = _paths(_POKER)


@st.composite
def mutated_template(draw: st.DrawFn) -> dict:
    data = json.loads(json.dumps(_POKER))
    for _ in range(draw(st.integers(1, 4))):
        path = draw(st.sampled_from(_POKER_PATHS))
        node = data
        for key in path[:-1]:
            if not isinstance(node, dict) or key not in node:
                break
            node = node[key]
        else:
            if isinstance(node, dict):
                if draw(st.booleans()):
                    node[path[-1]] = draw(json_values)
                else:
                    node.pop(path[-1], None)
    if draw(st.integers(0, 4)) == 0:
        data["extends"] = draw(st.sampled_from(["poker", "self", "../poker", "missing", "", "/etc/passwd"]))
    return data


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.one_of(mutated_template(), st.builds(lambda t: {"raw": t}, st.text(max_size=80))))
def test_templates(tmp_path: Path, data: dict) -> None:
    (tmp_path / "poker.toml").write_text((PROJECT / "card_templates" / "poker.toml").read_text(encoding="utf-8"),
                                         encoding="utf-8")
    if set(data) == {"raw"}:
        path = tmp_path / "fuzz.toml"
        path.write_text(data["raw"], encoding="utf-8", errors="surrogatepass")
    else:
        if data.get("extends") == "self":
            data["extends"] = "fuzz"
        path = tmp_path / "fuzz.json"
        path.write_text(json.dumps(data), encoding="utf-8")
    tpl.clear_cache()
    try:
        template = tpl.load_template(path, tmp_path)
    except CardbaseError as exc:
        _refused(exc, TemplateError)
        return
    assert template.width_mm > 0 if hasattr(template, "width_mm") else True
    assert not math.isnan(getattr(template, "width_mm", 0.0) or 0.0)



_CARD = None


def _sample_card():
    from cardbase.domain import CardDef

    global _CARD
    if _CARD is None:
        _CARD = CardDef(id=1, game="nespanini", edition="NP1", number=12, set_size=60,
                        name="Banc de sardines géant", value=3, colour="rouge", banner="Les Braises",
                        rarity="rare", card_type="Personnage", keywords=("Foule", "Défausse"),
                        effect_text="Score : +1 par carte rouge dans ta main (max 3).",
                        flavour="Une ligne.\nEt une autre.")
    return _CARD


@settings(max_examples=max(10, settings.default.max_examples // 10),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.filter_too_much])
@given(mutated_template())
def test_accepted_templates_render(tmp_path: Path, data: dict) -> None:
    """A template that loads also renders a card face and a back (or says what is wrong)."""
    from cardbase.outputs.printing.card import RenderOptions, render_back, render_card

    (tmp_path / "poker.toml").write_text((PROJECT / "card_templates" / "poker.toml").read_text(encoding="utf-8"),
                                         encoding="utf-8")
    if data.get("extends") == "self":
        data["extends"] = "fuzz"
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    tpl.clear_cache()
    try:
        template = tpl.load_template(path, tmp_path)
    except CardbaseError:
        assume(False)
        return
    try:
        face = render_card(_sample_card(), template, RenderOptions(dpi=40, fingerprint=False))
        back = render_back(template, 40)
    except CardbaseError as exc:
        _refused(exc, CardbaseError)
        return
    assert face.size[0] > 0 and back.size[0] > 0
