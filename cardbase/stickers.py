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
as text: the rules' French wording ("un carré pointé + un rond pointé + deux points"), digits
("2 points"), or the compact form ``format_stickers(..., compact=True)`` prints ("C1 R 2P").

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
from cardbase.text import canonical_colour, fold

if TYPE_CHECKING:  # pragma: no cover
    from sqlmodel import Session

    from cardbase.models import StickerColour

__all__ = [
    "KINDS",
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
]

KINDS = ("dot", "circle", "square")
_UNIT = {"dot": 1, "circle": 5, "square": 10}

# --------------------------------------------------------------------------- stickers


@dataclass(slots=True, frozen=True)
class Sticker:
    """One physical sticker. ``dots`` only varies for squares (10 points a dot)."""

    kind: str
    dots: int = 1

    def __post_init__(self) -> None:
        if self.kind not in _UNIT:
            raise StickerError(
                f"unknown sticker kind {self.kind!r} — use one of {', '.join(KINDS)}"
            )
        if isinstance(self.dots, bool) or not isinstance(self.dots, int):
            raise StickerError(f"a sticker's dots must be a whole number, not {self.dots!r}")
        if self.kind == "square":
            if self.dots < 1:
                raise StickerError(
                    f"a dotted square carries at least one dot (got {self.dots}) — "
                    "leave the square out instead"
                )
        elif self.dots != 1:
            name = "a dot" if self.kind == "dot" else "a dotted circle"
            raise StickerError(
                f"{name} always carries one dot (got {self.dots}) — only squares carry several"
            )

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
        return _phrase(self, 1)

    @property
    def compact(self) -> str:
        return {"dot": "P", "circle": "R"}.get(self.kind) or f"C{self.dots}"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "dots": self.dots, "value": self.value, "label": self.label_fr}


def _check_value(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StickerError(
            f"cannot sticker-code {value!r} ({type(value).__name__}): a card value must be a "
            "whole number 0 or more — round it or fix the card's value"
        )
    if value < 0:
        raise StickerError(
            f"cannot sticker-code {value}: the sticker code has no negative values — "
            "give the card a value of 0 or more"
        )
    return value


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


# --------------------------------------------------------------------------- French text

_WORDS_OUT = {
    1: "un", 2: "deux", 3: "trois", 4: "quatre", 5: "cinq",
    6: "six", 7: "sept", 8: "huit", 9: "neuf", 10: "dix",
}
_NUMBER_WORDS = {
    "zero": 0, "un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6,
    "sept": 7, "huit": 8, "neuf": 9, "dix": 10, "onze": 11, "douze": 12, "treize": 13,
    "quatorze": 14, "quinze": 15, "seize": 16, "dix-sept": 17, "dix-huit": 18, "dix-neuf": 19,
    "vingt": 20, "trente": 30, "quarante": 40, "cinquante": 50, "soixante": 60,
}


def _count_word(n: int) -> str:
    return _WORDS_OUT.get(n, str(n))


def _phrase(sticker: Sticker, count: int) -> str:
    """French words for ``count`` identical stickers: "deux ronds pointés"."""
    many = count > 1
    if sticker.kind == "dot":
        noun = "points" if many else "point"
    elif sticker.kind == "circle":
        noun = "ronds pointés" if many else "rond pointé"
    else:
        noun = "carrés pointés" if many else "carré pointé"
        if sticker.dots > 1:
            noun += f" à {sticker.dots} points"
    return f"{_count_word(count)} {noun}"


def _runs(stickers: Iterable[Sticker]) -> list[tuple[Sticker, int]]:
    runs: list[tuple[Sticker, int]] = []
    for s in stickers:
        if not isinstance(s, Sticker):
            raise StickerError(f"not a sticker: {s!r} — build stickers with Sticker(kind, dots)")
        if runs and runs[-1][0] == s:
            runs[-1] = (s, runs[-1][1] + 1)
        else:
            runs.append((s, 1))
    return runs


def format_stickers(stickers: Iterable[Sticker], *, compact: bool = False) -> str:
    """French text ("un carré pointé + un rond pointé + deux points"), in the given order.

    Neighbouring identical stickers are counted together. ``compact=True`` gives the short form
    ("C1 R 2P": C*k* a square with *k* dots, R a dotted circle, P a dot). No sticker at all (value 0)
    reads "aucun sticker" (compact: "0").
    """
    runs = _runs(stickers)
    if not runs:
        return "0" if compact else "aucun sticker"
    if compact:
        return " ".join((f"{n}{s.compact}" if n > 1 else s.compact) for s, n in runs)
    return " + ".join(_phrase(s, n) for s, n in runs)


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
    pointer = f"\n  {text}\n  {' ' * position}^"
    full = f"{message} at position {position + 1}"
    if fix:
        full += f" — {fix}"
    err = StickerError(full + pointer)
    err.position = position  # type: ignore[attr-defined]
    err.text = text  # type: ignore[attr-defined]
    return err


_TOKEN = re.compile(r"[^\s+,=]+|[+,=]")
_COMPACT = re.compile(r"^(?P<n>\d+)?(?:(?P<kind>[pr])|c(?P<dots>\d+)?)$")
_DOT_NOUNS = {"point", "points", "pt", "pts"}
_CIRCLE_NOUNS = {"rond", "ronds", "cercle", "cercles"}
_SQUARE_NOUNS = {"carre", "carres"}
_POINTE = {"pointe", "pointes", "pointee", "pointees"}
_PLEIN = {"plein", "pleins", "pleine", "pleines"}
_ZERO = {"aucun", "aucune", "rien", "0"}
_HELP = (
    'write e.g. "un carré pointé + un rond pointé + deux points", '
    '"carré pointé à 3 points + 4 points" or "C3 R 2P"'
)


def _number(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    return _NUMBER_WORDS.get(word)


def decode(stickers_or_text: Iterable[Sticker] | str) -> int:
    """The value of any valid combination of stickers, given as ``Sticker`` objects or as text."""
    if isinstance(stickers_or_text, str):
        return _decode_text(stickers_or_text)
    if isinstance(stickers_or_text, Sticker):
        return stickers_or_text.value
    try:
        items = list(stickers_or_text)
    except TypeError:
        raise StickerError(
            f"cannot decode {stickers_or_text!r}: give a list of stickers or their French text"
        ) from None
    total = 0
    for i, s in enumerate(items):
        if not isinstance(s, Sticker):
            raise StickerError(
                f"item {i + 1} is not a sticker: {s!r} — build stickers with Sticker(kind, dots)"
            )
        total += s.value
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
            raise _error("after '=' write only the total, e.g. '= 17'", text, pos(i + 1))
        expected = _number(rest[0][0])
        eq_at = pos(i)
        tokens = tokens[:i]

    # Split into parts on "+", "," and the word "et".
    parts: list[list[int]] = [[]]
    separators: list[int] = []
    for i, (tok, _) in enumerate(tokens):
        if tok in {"+", ",", "et"}:
            parts.append([])
            separators.append(i)
        else:
            parts[-1].append(i)

    if len(parts) == 1 and not parts[0]:
        if expected not in (None, 0):
            raise _error(f"no sticker here, which is 0, not {expected}", text, 0)
        return 0
    for k, part in enumerate(parts):
        if not part:
            at = separators[k] if k < len(separators) else separators[k - 1]
            raise _error("a sticker is missing next to this separator", text, pos(at), _HELP)

    total = 0
    for part in parts:
        total += _decode_part([tokens[i][0] for i in part], [pos(i) for i in part], text)

    if expected is not None and expected != total:
        raise _error(
            f"these stickers are worth {total}, not {expected}", text, eq_at,
            "check the stickers or the total",
        )
    return total


def _decode_part(words: list[str], positions: list[int], text: str) -> int:
    """One part between separators: "deux carrés pointés à 3 points", "trois points", "C3 2P"."""
    if len(words) == 1 and words[0] in _ZERO:
        return 0
    if words[0] in {"aucun", "aucune"} and len(words) == 2 and fold(words[1]).startswith("sticker"):
        return 0
    if _COMPACT.match(words[0]):
        total = 0
        for word, at in zip(words, positions, strict=True):
            m = _COMPACT.match(word)
            if not m:
                raise _error(f"{word!r} is not a compact sticker", text, at,
                             "use C<k> for a square with k dots, R for a circle, P for a dot, "
                             "with an optional count in front (2P)")
            count = int(m.group("n") or 1)
            if m.group("kind") == "p":
                total += count
            elif m.group("kind") == "r":
                total += 5 * count
            else:
                dots = int(m.group("dots") or 1)
                if dots < 1:
                    raise _error("a dotted square carries at least one dot", text, at)
                total += 10 * dots * count
        return total

    i = 0
    count = 1
    n = _number(words[0])
    if n is not None:
        count = n
        i = 1
    if i >= len(words):
        raise _error(f"{words[0]!r} counts nothing: say which sticker", text, positions[0], _HELP)
    noun = words[i]
    noun_at = positions[i]
    i += 1
    if noun in _DOT_NOUNS:
        unit = 1
    elif noun in _CIRCLE_NOUNS or noun in _SQUARE_NOUNS:
        unit = 5 if noun in _CIRCLE_NOUNS else 10
        if i < len(words) and words[i] in _PLEIN:
            symbol = "rond plein (orange)" if unit == 5 else "carré plein (blanc)"
            raise _error(f"{symbol} is a colour symbol, not a number sticker", text, positions[i],
                         f"write '{'rond' if unit == 5 else 'carré'} pointé' for the value")
        if i < len(words) and words[i] in _POINTE:
            i += 1
        if unit == 10 and i < len(words) and words[i] in {"a", "de"}:
            if i + 1 >= len(words) or _number(words[i + 1]) is None:
                raise _error("say how many dots the square carries", text,
                             positions[i + 1] if i + 1 < len(words) else positions[i] + 1,
                             "e.g. 'carré pointé à 3 points'")
            dots = _number(words[i + 1])
            if not dots:
                raise _error("a dotted square carries at least one dot", text, positions[i + 1])
            unit = 10 * dots
            i += 2
            if i < len(words) and words[i] in _DOT_NOUNS:
                i += 1
    else:
        raise _error(f"{noun!r} is not a sticker", text, noun_at,
                     "the stickers are 'point' (1), 'rond pointé' (5) and 'carré pointé' (10, "
                     "or 10 per dot: 'carré pointé à 3 points')")
    if i < len(words):
        raise _error(f"unexpected {words[i]!r}", text, positions[i],
                     "separate stickers with '+', e.g. 'un rond pointé + deux points'")
    if count == 0:
        raise _error("zero stickers of a kind: leave the part out", text, positions[0])
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
        if fold(label) == fold(symbol):
            return k
    raise StickerError(
        f"unknown sticker symbol {symbol!r} — use one of: "
        + ", ".join(f"{k} ({v})" for k, v in SYMBOLS.items())
    )


def _stickers_file() -> Path:
    from cardbase.db import DATA_DIR  # the data folder; no session is opened

    return DATA_DIR / "stickers.toml"


def _file_rows(path: Path | None = None) -> list[dict[str, str]]:
    from cardbase.datafiles import read_toml

    path = path or _stickers_file()
    if not path.exists():
        return [{"colour": c, "symbol": s, "label": SYMBOLS[s]} for c, s in _RULES_TABLE.items()]
    rows = read_toml(path).get("colours", [])
    out = []
    for i, row in enumerate(rows, start=1):
        if not row.get("colour") or not row.get("symbol"):
            raise StickerError(f"{path} colour #{i}: needs both colour and symbol — add them")
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
        raise StickerError("no colour given — name a colour, e.g. 'rouge'")
    source = default_colour_table() if table is None else {
        canonical_colour(c): s for c, s in table.items()
    }
    symbol = source.get(key)
    if symbol is None:
        known = ", ".join(f"{c} = {s}" for c, s in sorted(source.items())) or "none"
        raise StickerError(
            f"the colour {key!r} has no sticker symbol: the colour code of the rules (Overseers, "
            f"« Adaptation ») only covers {known} — add one with "
            f"`cardbase sticker colour {key} --symbol KEY` (KEY one of {', '.join(SYMBOLS)}) "
            "or on the app's sticker page"
        )
    return symbol


# --------------------------------------------------------------------------- database


def _model() -> type[StickerColour]:
    from cardbase.models import StickerColour

    return StickerColour


def colour_table(session: Session) -> dict[str, str]:
    """Colour key → symbol key, as stored in the database."""
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
        raise StickerError("no colour given — name a colour, e.g. 'gris'")
    sym = symbol_key(symbol)
    existing = session.exec(select(model).where(model.colour == key)).first()
    if existing is not None:
        raise StickerError(
            f"the colour {key!r} already has the symbol {existing.symbol!r} "
            f"({SYMBOLS.get(existing.symbol, existing.symbol)}) — a colour has one symbol; "
            "remove or edit that row first"
        )
    row = model(colour=key, symbol=sym, label=label or SYMBOLS[sym])
    session.add(row)
    session.flush()
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
