"""Overseers "Adaptation" sticker codes: values as tactile stickers, colours as symbols.

The rules (Overseers, « Adaptation ») code a card's value with stickers:

* a **dot** ("un point") is worth 1; "deux points" are two dot stickers;
* a **dotted circle** ("rond pointé") is worth 5;
* a **dotted square** ("carré pointé") is worth 10, and a square carrying *k* dots
  ("carré pointé à k points") is worth 10·k.

``encode`` gives the canonical list — one square for the tens, a circle for a remainder of 5 or
more, then one dot sticker per unit — which is also the shortest possible list. A value of 0 has
no sticker at all: ``encode(0) == []`` and ``format_stickers([]) == "aucun sticker"``.

``decode`` reads any valid combination (not only the canonical one), as a list of ``Sticker`` or
as text: the rules' French wording ("un carré pointé + un rond pointé + deux points"), its English
form ("one dotted square + one dotted circle + two dots"), digits ("2 points"), or the compact form
``format_stickers(..., compact=True)`` prints ("C1 R 2P"). ``format_stickers`` writes the current
language (``cardbase.i18n``): the rules' French by default, English on request.

Values go up to ``MAX_VALUE`` and texts to ``MAX_TEXT`` characters: larger ones are refused with
a clear error, never a crash.

Colours are coded with symbols (coeur = rouge … carré plein = blanc). The colour → symbol table
lives in the database (``StickerColour``), seeded from ``data/stickers.toml``, and users may add
colours the rules do not cover (gris has no symbol in the rules).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase.errors import StickerError
from cardbase.i18n import current_language, tr
from cardbase.text import canonical_colour, fold

if TYPE_CHECKING:  # pragma: no cover
    from sqlmodel import Session

    from cardbase.storage.models import StickerColour
    from cardbase.storage.readonly import ReadOnlyDB

__all__ = [
    "KINDS",
    "MAX_TEXT",
    "MAX_VALUE",
    "SYMBOLS",
    "Sticker",
    "add_colour",
    "colour_symbol",
    "colour_table",
    "decode",
    "default_colour_table",
    "encode",
    "format_stickers",
    "seed_colours",
    "symbol_key",
    "symbol_label",
]

KINDS = ("dot", "circle", "square")
_UNIT = {"dot": 1, "circle": 5, "square": 10}
# The sticker symbols that have a drawing (cardbase/outputs/printing/sticker_art.py draws them).
SYMBOL_SHAPES = (
    "coeur", "lune", "goutte", "rond-plein", "trefle", "quatre-carreaux", "grappe", "fleur",
    "croix-epaisse", "carre-plein",
)
MAX_VALUE = 1_000_000  # far beyond any card; keeps texts and numbers small
MAX_TEXT = 1000  # characters of sticker text read by ``decode``

# --------------------------------------------------------------------------- stickers


@dataclass(slots=True, frozen=True)
class Sticker:
    """One physical sticker. ``dots`` only varies for squares (10 points a dot)."""

    kind: str
    dots: int = 1

    def __post_init__(self) -> None:
        if self.kind not in _UNIT:
            raise StickerError(tr("stickers.unknown_kind", kind=repr(self.kind), kinds=", ".join(KINDS)))
        if isinstance(self.dots, bool) or not isinstance(self.dots, int):
            raise StickerError(tr("stickers.dots_not_whole", dots=repr(self.dots)))
        if self.kind == "square":
            if self.dots < 1:
                raise StickerError(tr("stickers.square_needs_dot", dots=self.dots))
            if self.dots > MAX_VALUE // 10:
                raise StickerError(tr("stickers.too_large", value=f"{self.dots} × 10",
                                      limit=MAX_VALUE))
        elif self.dots != 1:
            raise StickerError(tr(f"stickers.one_dot_only.{self.kind}", dots=self.dots))

    @classmethod
    def dot(cls) -> Sticker:
        return cls("dot")

    @classmethod
    def circle(cls) -> Sticker:
        return cls("circle")

    @classmethod
    def square(cls, dots: int = 1) -> Sticker:
        return cls("square", dots)

    @property
    def value(self) -> int:
        return _UNIT[self.kind] * self.dots

    @property
    def label_fr(self) -> str:
        return _phrase(self, 1, "fr")

    @property
    def label(self) -> str:
        """The sticker in words, in the current language ("un rond pointé", "one dotted circle")."""
        return _phrase(self, 1, current_language())

    @property
    def compact(self) -> str:
        return {"dot": "P", "circle": "R"}.get(self.kind) or f"C{self.dots}"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "dots": self.dots, "value": self.value, "label": self.label}


def _check_value(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StickerError(tr("stickers.not_whole", value=_shown(value), kind=type(value).__name__))
    if value < 0:
        raise StickerError(tr("stickers.negative", value=value))
    if value > MAX_VALUE:
        raise StickerError(tr("stickers.too_large", value=_shown(value), limit=MAX_VALUE))
    return value


def _shown(value: object, limit: int = 40) -> str:
    """A value as shown in a message: its repr, cut to ``limit`` characters."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to write out
        text = "…"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def encode(value: int) -> list[Sticker]:
    """The canonical (and shortest) list of stickers for ``value``; ``[]`` for 0 (no sticker)."""
    value = _check_value(value)
    tens, rest = divmod(value, 10)
    out: list[Sticker] = []
    if tens:
        out.append(Sticker.square(tens))
    if rest >= 5:
        out.append(Sticker.circle())
        rest -= 5
    out.extend(Sticker.dot() for _ in range(rest))
    return out


# --------------------------------------------------------------------------- text

_WORDS_OUT = {
    "fr": {1: "un", 2: "deux", 3: "trois", 4: "quatre", 5: "cinq",
           6: "six", 7: "sept", 8: "huit", 9: "neuf", 10: "dix"},
    "en": {1: "one", 2: "two", 3: "three", 4: "four", 5: "five",
           6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"},
}
# Nouns of the stickers: (one, several); the square's dots follow ("à 3 points", "with 3 dots").
_NOUNS = {
    "fr": {"dot": ("point", "points"), "circle": ("rond pointé", "ronds pointés"),
           "square": ("carré pointé", "carrés pointés")},
    "en": {"dot": ("dot", "dots"), "circle": ("dotted circle", "dotted circles"),
           "square": ("dotted square", "dotted squares")},
}
_SQUARE_DOTS = {"fr": " à {dots} points", "en": " with {dots} dots"}
_NO_STICKER = {"fr": "aucun sticker", "en": "no sticker"}
_NUMBER_WORDS = {
    "zero": 0, "un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6,
    "sept": 7, "huit": 8, "neuf": 9, "dix": 10, "onze": 11, "douze": 12, "treize": 13,
    "quatorze": 14, "quinze": 15, "seize": 16, "dix-sept": 17, "dix-huit": 18, "dix-neuf": 19,
    "vingt": 20, "trente": 30, "quarante": 40, "cinquante": 50, "soixante": 60,
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60,
}


def _lang(lang: str | None) -> str:
    lang = lang or current_language()
    return lang if lang in _NOUNS else "fr"


def _count_word(n: int, lang: str = "fr") -> str:
    return _WORDS_OUT[_lang(lang)].get(n, str(n))


def _phrase(sticker: Sticker, count: int, lang: str | None = None) -> str:
    """Words for ``count`` identical stickers: "deux ronds pointés", "two dotted circles"."""
    lang = _lang(lang)
    one, several = _NOUNS[lang][sticker.kind]
    noun = several if count > 1 else one
    if sticker.kind == "square" and sticker.dots > 1:
        noun += _SQUARE_DOTS[lang].format(dots=sticker.dots)
    return f"{_count_word(count, lang)} {noun}"


def _runs(stickers: Iterable[Sticker]) -> list[tuple[Sticker, int]]:
    runs: list[tuple[Sticker, int]] = []
    for s in stickers:
        if not isinstance(s, Sticker):
            raise StickerError(tr("stickers.not_a_sticker", item=_shown(s)))
        if runs and runs[-1][0] == s:
            runs[-1] = (s, runs[-1][1] + 1)
        else:
            runs.append((s, 1))
    return runs


def format_stickers(stickers: Iterable[Sticker], *, compact: bool = False,
                    lang: str | None = None) -> str:
    """Text of the stickers in the given order, in ``lang`` (default: the current language).

    French: "un carré pointé + un rond pointé + deux points" (the rules' wording); English: "one
    dotted square + one dotted circle + two dots". Neighbouring identical stickers are counted
    together. ``compact=True`` gives the short form, the same in every language ("C1 R 2P": C*k* a
    square with *k* dots, R a dotted circle, P a dot). No sticker at all (value 0) reads "aucun
    sticker" / "no sticker" (compact: "0").
    """
    runs = _runs(stickers)
    lang = _lang(lang)
    if not runs:
        return "0" if compact else _NO_STICKER[lang]
    if compact:
        return " ".join((f"{n}{s.compact}" if n > 1 else s.compact) for s, n in runs)
    return " + ".join(_phrase(s, n, lang) for s, n in runs)


# --------------------------------------------------------------------------- decoding


def _fold_with_map(text: str) -> tuple[str, list[int]]:
    """``fold`` applied character by character, keeping each folded character's source index."""
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if ch.isspace():
            piece = " "
        else:
            piece = fold(ch)
            if not piece:  # a lone combining mark
                piece = "".join(
                    c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)
                )
        for c in piece:
            out.append(c)
            where.append(i)
    return "".join(out), where


def _error(message: str, text: str, position: int, fix: str = "") -> StickerError:
    from cardbase.errors import _pointer

    full = tr("stickers.at_position", message=message, position=position + 1)
    if fix:
        full += f" — {fix}"
    err = StickerError(full + _pointer(text, position))
    err.position = position  # type: ignore[attr-defined]
    err.text = text  # type: ignore[attr-defined]
    return err


_TOKEN = re.compile(r"[^\s+,=]+|[+,=]")
_COMPACT = re.compile(r"^(?P<n>[0-9]+)?(?:(?P<kind>[pr])|c(?P<dots>[0-9]+)?)$")
_DOT_NOUNS = {"point", "points", "pt", "pts", "dot", "dots"}
_CIRCLE_NOUNS = {"rond", "ronds", "cercle", "cercles", "circle", "circles"}
_SQUARE_NOUNS = {"carre", "carres", "square", "squares"}
_POINTE = {"pointe", "pointes", "pointee", "pointees"}
_DOTTED = {"dotted"}  # English: before the noun
_PLEIN = {"plein", "pleins", "pleine", "pleines"}
_FILLED = {"filled", "solid", "full"}  # English: before the noun
_ZERO = {"aucun", "aucune", "rien", "0", "none", "nothing"}
_NO = {"aucun", "aucune", "no"}
_SEPARATORS = {"+", ",", "et", "and"}
_MAX_DIGITS = 7  # a count or a number of dots above 9,999,999 is beyond MAX_VALUE anyway


def _cut(word: str, limit: int = 30) -> str:
    """A word of the text as shown in a message, cut to ``limit`` characters."""
    return word if len(word) <= limit else word[:limit - 1] + "…"


def _help() -> str:
    return tr("stickers.help")


def _number(word: str) -> int | None:
    if re.fullmatch(r"[0-9]+", word):
        return int(word) if len(word) <= _MAX_DIGITS else MAX_VALUE + 1
    return _NUMBER_WORDS.get(word)


def decode(stickers_or_text: Iterable[Sticker] | str) -> int:
    """The value of any valid combination of stickers, given as ``Sticker`` objects or as text."""
    if isinstance(stickers_or_text, str):
        if len(stickers_or_text) > MAX_TEXT:
            raise StickerError(tr("stickers.text_too_long", length=len(stickers_or_text),
                                  limit=MAX_TEXT))
        total = _decode_text(stickers_or_text)
    elif isinstance(stickers_or_text, Sticker):
        total = stickers_or_text.value
    else:
        try:
            items = list(stickers_or_text)
        except TypeError:
            raise StickerError(tr("stickers.cannot_decode", item=_shown(stickers_or_text))) from None
        total = 0
        for i, s in enumerate(items):
            if not isinstance(s, Sticker):
                raise StickerError(tr("stickers.item_not_a_sticker", index=i + 1, item=_shown(s)))
            total += s.value
    if total > MAX_VALUE:
        raise StickerError(tr("stickers.too_large", value=total, limit=MAX_VALUE))
    return total


def _decode_text(text: str) -> int:
    folded, where = _fold_with_map(text)
    tokens = [(m.group(), m.start()) for m in _TOKEN.finditer(folded)]

    def pos(token_index: int) -> int:
        if token_index >= len(tokens):
            return len(text.rstrip())
        return where[tokens[token_index][1]]

    # An optional "= N" at the end is checked against the stickers, as the rules write it.
    expected: int | None = None
    eq_at = 0
    eq = [i for i, (tok, _) in enumerate(tokens) if tok == "="]
    if eq:
        i = eq[0]
        rest = tokens[i + 1:]
        if len(eq) > 1 or len(rest) != 1 or _number(rest[0][0]) is None:
            raise _error(tr("stickers.after_equals"), text, pos(i + 1))
        expected = _number(rest[0][0])
        eq_at = pos(i)
        tokens = tokens[:i]

    # Split into parts on "+", "," and the word "et".
    parts: list[list[int]] = [[]]
    separators: list[int] = []
    for i, (tok, _) in enumerate(tokens):
        if tok in _SEPARATORS:
            parts.append([])
            separators.append(i)
        else:
            parts[-1].append(i)

    if len(parts) == 1 and not parts[0]:
        if expected not in (None, 0):
            raise _error(tr("stickers.none_not_total", expected=expected), text, 0)
        return 0
    for k, part in enumerate(parts):
        if not part:
            at = separators[k] if k < len(separators) else separators[k - 1]
            raise _error(tr("stickers.missing_next_to_separator"), text, pos(at), _help())

    total = 0
    for part in parts:
        total += _decode_part([tokens[i][0] for i in part], [pos(i) for i in part], text)

        if total > MAX_VALUE:
            raise _error(tr("stickers.too_large", value=total, limit=MAX_VALUE), text, pos(part[0]))

    if expected is not None and expected != total:
        raise _error(tr("stickers.wrong_total", total=total, expected=expected), text, eq_at,
                     tr("stickers.wrong_total_fix"))
    return total


def _decode_part(words: list[str], positions: list[int], text: str) -> int:
    """One part between separators: "deux carrés pointés à 3 points", "two dotted squares with
    3 dots", "trois points", "C3 2P"."""
    if len(words) == 1 and words[0] in _ZERO:
        return 0
    if words[0] in _NO and len(words) == 2 and fold(words[1]).startswith("sticker"):
        return 0
    if _COMPACT.match(words[0]):
        total = 0
        for word, at in zip(words, positions, strict=True):
            m = _COMPACT.match(word)
            if not m:
                raise _error(tr("stickers.not_compact", word=_cut(word)), text, at,
                             tr("stickers.compact_help"))
            if any(len(g or "") > _MAX_DIGITS for g in (m.group("n"), m.group("dots"))):
                raise _error(tr("stickers.too_large", value=_cut(word), limit=MAX_VALUE), text, at)
            count = int(m.group("n") or 1)
            if m.group("kind") == "p":
                total += count
            elif m.group("kind") == "r":
                total += 5 * count
            else:
                dots = int(m.group("dots") or 1)
                if dots < 1:
                    raise _error(tr("stickers.square_at_least_one_dot"), text, at)
                total += 10 * dots * count
        return total

    i = 0
    count = 1
    n = _number(words[0])
    if n is None and words[0] in {"a", "an"} and len(words) > 1:  # English "a dot"
        n = 1
    if n is not None:
        if n > MAX_VALUE:
            raise _error(tr("stickers.too_large", value=_cut(words[0]), limit=MAX_VALUE), text,
                         positions[0])
        count = n
        i = 1
    if i >= len(words):
        raise _error(tr("stickers.counts_nothing", word=_cut(words[0])), text, positions[0], _help())
    filled = words[i] in _FILLED
    if words[i] in _DOTTED or filled:  # English: the adjective comes first
        i += 1
        if i >= len(words):
            raise _error(tr("stickers.counts_nothing", word=_cut(words[i - 1])), text, positions[i - 1],
                         _help())
    noun = words[i]
    noun_at = positions[i]
    i += 1
    if noun in _DOT_NOUNS:
        unit = 1
    elif noun in _CIRCLE_NOUNS or noun in _SQUARE_NOUNS:
        unit = 5 if noun in _CIRCLE_NOUNS else 10
        if filled or (i < len(words) and words[i] in _PLEIN):
            kind = "circle" if unit == 5 else "square"
            raise _error(tr(f"stickers.colour_symbol.{kind}"), text,
                         positions[i - 2] if filled else positions[i],
                         tr(f"stickers.colour_symbol_fix.{kind}"))
        if i < len(words) and words[i] in _POINTE:
            i += 1
        if unit == 10 and i < len(words) and words[i] in {"a", "de", "with", "of"}:
            if i + 1 >= len(words) or _number(words[i + 1]) is None:
                raise _error(tr("stickers.how_many_dots"), text,
                             positions[i + 1] if i + 1 < len(words) else positions[i] + 1,
                             tr("stickers.how_many_dots_fix"))
            dots = _number(words[i + 1])
            if dots > MAX_VALUE:
                raise _error(tr("stickers.too_large", value=_cut(words[i + 1]), limit=MAX_VALUE),
                             text, positions[i + 1])
            if not dots:
                raise _error(tr("stickers.square_at_least_one_dot"), text, positions[i + 1])
            unit = 10 * dots
            i += 2
            if i < len(words) and words[i] in _DOT_NOUNS:
                i += 1
    else:
        raise _error(tr("stickers.not_a_sticker_word", word=_cut(noun)), text, noun_at,
                     tr("stickers.not_a_sticker_word_fix"))
    if i < len(words):
        raise _error(tr("stickers.unexpected", word=_cut(words[i])), text, positions[i],
                     tr("stickers.unexpected_fix"))
    if count == 0:
        raise _error(tr("stickers.zero_of_a_kind"), text, positions[0])
    if count * unit > MAX_VALUE:
        raise _error(tr("stickers.too_large", value=count * unit, limit=MAX_VALUE), text,
                     positions[0])
    return count * unit


# --------------------------------------------------------------------------- colour symbols

SYMBOLS: dict[str, str] = {
    "coeur": "Coeur",
    "lune": "Lune",
    "goutte": "Goutte d'eau",
    "rond-plein": "Rond plein",
    "trefle": "Trèfle",
    "quatre-carreaux": "4 carreaux",
    "grappe": "Grappe de raisin",
    "fleur": "Fleur",
    "croix-epaisse": "Croix épaisse",
    "carre-plein": "Carré plein",
}

# The rules' own table, used when data/stickers.toml cannot be found.
_RULES_TABLE = {
    "rouge": "coeur", "jaune": "lune", "bleu": "goutte", "orange": "rond-plein",
    "vert": "trefle", "marron": "quatre-carreaux", "violet": "grappe", "rose": "fleur",
    "noir": "croix-epaisse", "blanc": "carre-plein",
}


def symbol_key(symbol: str) -> str:
    """The symbol key for a key or a label, any case or accents ("Goutte d'eau" → "goutte")."""
    key = fold(symbol).replace(" ", "-")
    if key in SYMBOLS:
        return key
    for k, label in SYMBOLS.items():
        if fold(label) == fold(symbol) or fold(symbol_label(k, "en")) == fold(symbol):
            return k
    raise StickerError(tr("stickers.unknown_symbol", symbol=_shown(symbol),
                          symbols=", ".join(f"{k} ({symbol_label(k)})" for k in SYMBOLS)))


def symbol_label(symbol: str, lang: str | None = None) -> str:
    """How a symbol of the rules is named, in ``lang`` (default: the current language)."""
    from cardbase.i18n import translate

    return translate(_lang(lang), f"stickers.symbol.{symbol}") if symbol in SYMBOLS else symbol


def _stickers_file() -> Path:
    from cardbase.config import DATA_DIR  # the data folder; no session is opened

    return DATA_DIR / "stickers.toml"


def _file_rows(path: Path | None = None) -> list[dict[str, str]]:
    from cardbase.storage.datafiles import read_toml

    path = path or _stickers_file()
    if not path.exists():
        return [{"colour": c, "symbol": s, "label": SYMBOLS[s]} for c, s in _RULES_TABLE.items()]
    rows = read_toml(path).get("colours", [])
    out = []
    for i, row in enumerate(rows, start=1):
        if not row.get("colour") or not row.get("symbol"):
            raise StickerError(tr("stickers.file_row_incomplete", path=str(path), index=i))
        out.append({"colour": canonical_colour(row["colour"]), "symbol": symbol_key(row["symbol"]),
                    "label": row.get("label") or SYMBOLS[symbol_key(row["symbol"])]})
    return out


@lru_cache(maxsize=1)
def _default_table() -> tuple[tuple[str, str], ...]:
    return tuple((r["colour"], r["symbol"]) for r in _file_rows())


def default_colour_table() -> dict[str, str]:
    """Colour key → symbol key as seeded from ``data/stickers.toml`` (the rules' table)."""
    return dict(_default_table())


def colour_symbol(colour: str, table: Mapping[str, str] | None = None) -> str:
    """The symbol key of ``colour`` ("Rouge", "bleue"…) in ``table`` or the default table."""
    key = canonical_colour(colour)
    if not key:
        raise StickerError(tr("stickers.no_colour", example="rouge"))
    source = default_colour_table() if table is None else {
        canonical_colour(c): s for c, s in table.items()
    }
    symbol = source.get(key)
    if symbol is None:
        known = ", ".join(f"{c} = {s}" for c, s in sorted(source.items())) or tr("stickers.none")
        raise StickerError(tr("stickers.no_symbol", colour=key, known=known,
                              symbols=", ".join(SYMBOLS)))
    return symbol


# --------------------------------------------------------------------------- database


def _model() -> type[StickerColour]:
    from cardbase.storage.models import StickerColour

    return StickerColour


def colour_table(session: Session | ReadOnlyDB) -> dict[str, str]:
    """Colour key → symbol key, as stored in the database (on a session or on the read-only
    snapshot of :mod:`cardbase.storage.readonly`: the same rows in the same order)."""
    from cardbase.storage.readonly import ReadOnlyDB

    if isinstance(session, ReadOnlyDB):
        return dict(session.rows("SELECT sticker_colour.colour, sticker_colour.symbol "
                                 "FROM sticker_colour ORDER BY sticker_colour.id"))
    from sqlmodel import select

    model = _model()
    return {row.colour: row.symbol for row in session.exec(select(model).order_by(model.id))}


def add_colour(session: Session, colour: str, symbol: str, label: str | None = None) -> StickerColour:
    """Give ``colour`` a symbol in the database table. A colour can have only one symbol.

    Several colours may share a symbol (the rules' ten symbols are all taken), but they then feel
    the same under the finger: ``symbol_users`` tells who else uses a symbol.
    """
    from sqlmodel import select

    from cardbase.access import require_editor

    require_editor(action="add a sticker colour")
    model = _model()
    key = canonical_colour(colour)
    if not key:
        raise StickerError(tr("stickers.no_colour", example="gris"))
    texts = [key] if label is None else [key, label]
    from cardbase.text import has_control

    if any(has_control(t) or any("\ud800" <= c <= "\udfff" for c in t) for t in texts):
        raise StickerError(tr("stickers.nul"))
    if len(key) > model.__table__.c.colour.type.length:
        raise StickerError(tr("stickers.colour_too_long", length=len(key),
                              limit=model.__table__.c.colour.type.length))
    if label is not None and len(label) > model.__table__.c.label.type.length:
        raise StickerError(tr("stickers.label_too_long", length=len(label),
                              limit=model.__table__.c.label.type.length))
    sym = symbol_key(symbol)
    existing = session.exec(select(model).where(model.colour == key)).first()
    if existing is not None:
        raise StickerError(tr("stickers.already_has_symbol", colour=key, symbol=existing.symbol,
                              label=symbol_label(existing.symbol)))
    row = model(colour=key, symbol=sym, label=label or SYMBOLS[sym])
    session.add(row)
    session.flush()
    session.info.pop("cardbase.sticker_table", None)  # the card text checks read the table again
    return row


def symbol_users(session: Session, symbol: str) -> list[str]:
    """The colours that use ``symbol`` in the database table."""
    sym = symbol_key(symbol)
    return sorted(c for c, s in colour_table(session).items() if s == sym)


def seed_colours(session: Session, path: Path | None = None) -> int:
    """Insert the rows of ``data/stickers.toml`` whose colour is missing; returns how many."""
    model = _model()
    present = set(colour_table(session))
    added = 0
    for row in _file_rows(path):
        if row["colour"] in present:
            continue
        session.add(model(colour=row["colour"], symbol=row["symbol"], label=row["label"]))
        present.add(row["colour"])
        added += 1
    if added:
        session.flush()
    return added
