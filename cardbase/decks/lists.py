"""Deck lists: the values (lines, lists, resolved decks, legality), the one parser
(:func:`parse_deck_list`), the writer (:func:`format_deck_list`), reading a deck-list file and the
limits of a list.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase.errors import DeckListError, Problem
from cardbase.i18n import current_language, tr
from cardbase.text import card_ref, fold, parse_card_ref

if TYPE_CHECKING:  # pragma: no cover
    from cardbase.storage.models import Card, Game

MAX_COUNT = 99
MAX_NAME = 120  # a card name, as the card table stores it
MAX_DECK_NAME = 120  # the deck table's name column
MAX_NOTE = 300  # the deck_version table's note column
MAX_LINES = 1000  # card lines in one deck list
MAX_LIST_CHARS = 256 * 1024  # a deck list (file or pasted text)
MAX_CODE_CHARS = 10_000  # a deck code
METADATA_KEYS = ("name", "game", "description")
STARTER_NOTE = "starter deck"  # the note of the first version of a shipped starter deck


# --------------------------------------------------------------------------- wording


def _one(n: int) -> bool:
    """Whether ``n`` takes the singular in the current language (French: 0 and 1)."""
    return abs(n) < 2 if current_language() == "fr" else n == 1


def n_cards(n: int) -> str:
    return tr("decks.unit.card", n=n) if _one(n) else tr("decks.unit.cards", n=n)


def n_copies(n: int) -> str:
    return tr("decks.unit.copy", n=n) if _one(n) else tr("decks.unit.copies", n=n)


def _at(source: str, line: int, column: int) -> str:
    return tr("decks.where.line_column", source=source, line=line, column=column)


def _or(names: Iterable[str]) -> str:
    return tr("decks.word.or").join(names)


def _meta_label(key: str) -> str:
    if key == "name":
        return tr("decks.meta.name")
    if key == "game":
        return tr("decks.meta.game")
    return tr("decks.meta.description")

def _storable(text: str) -> bool:
    """Whether ``text`` can go into an SQL query: no NUL, no lone surrogate (what Python makes of
    bytes that are not UTF-8 in a command-line argument)."""
    return not _UNSTORABLE.search(text)


def _shown(text: str) -> str:
    """``text`` as it can be printed anywhere: a lone surrogate (a byte that was not UTF-8 in a
    command-line argument or a file name) is written as ``\\udcff``."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8") if _UNSTORABLE.search(
        text) else text


# --------------------------------------------------------------------------- values


@dataclass(slots=True, frozen=True)
class DeckLine:
    """One card line of a deck list, as written."""

    line: int  # 1-based line number
    count: int
    text: str  # the card name or collector reference as written
    column: int = 1  # 1-based column where the card name starts
    ref: tuple[str, int] | None = None  # (edition code, number) when ``text`` is a reference

    @property
    def key(self) -> str:
        return card_ref(*self.ref) if self.ref else fold(self.text)


@dataclass(slots=True, frozen=True)
class DeckList:
    """A parsed deck list: metadata from the comment header and the card lines, in order."""

    lines: tuple[DeckLine, ...] = ()
    name: str | None = None
    game: str | None = None
    description: str | None = None
    source: str = "<deck>"

    @property
    def count(self) -> int:
        return sum(ln.count for ln in self.lines)


@dataclass(slots=True, frozen=True)
class ResolvedEntry:
    """A card of the database and how many copies the deck holds."""

    card: Card
    count: int
    edition: str  # edition code of the card
    lines: tuple[int, ...] = ()  # the deck-list lines that named it

    @property
    def ref(self) -> str:
        return card_ref(self.edition, self.card.number)


@dataclass(slots=True, frozen=True)
class ResolvedDeck:
    """A deck list matched against the database.

    ``count`` is the number of cards the list names, found or not. ``problems`` holds the lines
    that could not be matched to exactly one card of the game.
    """

    game: Game | None
    entries: tuple[ResolvedEntry, ...]
    problems: tuple[Problem, ...] = ()
    count: int = 0
    name: str | None = None
    description: str | None = None
    source: str = "<deck>"


@dataclass(slots=True, frozen=True)
class Legality:
    legal: bool
    count: int
    problems: list[Problem] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "count": self.count,
            "problems": [p.as_dict() for p in self.problems],
        }


# --------------------------------------------------------------------------- parsing

_COUNT = re.compile(r"(?P<count>\d+)[xX×]?(?=\s|$)")
_META = re.compile(r"#\s*(?P<key>[A-Za-z_]+)\s*:\s?(?P<value>.*)$")
_BAD_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029\ud800-\udfff]")
# a description may hold line breaks
_BAD_TEXT_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
_UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")


def _split_comment(raw: str) -> tuple[str, int | None]:
    """The part of a line before its comment, and where the comment starts (or None).

    A ``#`` starts a comment at the beginning of a line or after white space; elsewhere
    (``Carte#2``) it is part of the name.
    """
    for i, ch in enumerate(raw):
        if ch == "#" and (i == 0 or raw[i - 1].isspace()):
            return raw[:i], i
    return raw, None


def parse_deck_list(text: str, *, source: str = "<deck>") -> DeckList:
    """Parse a deck list; raise :class:`DeckListError` listing every bad line at once.

    Pure: no database. Lines are ``2 Nom``, ``2x Nom``, ``2 NP1-012`` or a bare ``Nom`` (one copy);
    ``#`` starts a comment; ``# name:``, ``# game:`` and ``# description:`` set the metadata.
    """
    if not isinstance(text, str):
        raise DeckListError(tr("decks.parse.not_text", source=source, kind=type(text).__name__))
    if len(text) > MAX_LIST_CHARS:
        raise DeckListError(tr("decks.parse.too_big", source=source, size=len(text),
                               max=MAX_LIST_CHARS), [Problem(
            "too-big", tr("decks.parse.too_big_problem", size=len(text), max=MAX_LIST_CHARS),
            tr("decks.parse.too_big_fix"), source)])
    text = text.removeprefix("\ufeff")
    problems: list[Problem] = []
    lines: list[DeckLine] = []
    meta: dict[str, str] = {}
    meta_line: dict[str, int] = {}

    def bad(lineno: int, col: int, code: str, message: str, fix: str) -> None:
        problems.append(Problem(code, message, fix, _at(source, lineno, col)))

    for lineno, raw in enumerate(text.split("\n"), start=1):
        raw = raw.rstrip("\r")
        body, comment_at = _split_comment(raw)
        if comment_at is not None and not body.strip():
            m = _META.match(raw[comment_at:])
            if m and m.group("key").lower() in METADATA_KEYS:
                key = m.group("key").lower()
                value = m.group("value").strip()
                bad_char = _BAD_CHARS.search(value)
                if bad_char:
                    col = comment_at + m.start("value") + bad_char.start() + 1
                    bad(lineno, col, "bad-character",
                        tr("decks.parse.bad_char_meta", char=repr(bad_char.group()),
                           field=_meta_label(key)),
                        tr("decks.parse.bad_char_fix"))
                elif key in meta:
                    bad(lineno, comment_at + 1, "duplicate-metadata",
                        tr("decks.parse.duplicate_meta", key=key, first=meta_line[key]),
                        tr("decks.parse.duplicate_meta_fix"))
                elif not value:
                    bad(lineno, comment_at + 1, "empty-metadata",
                        tr("decks.parse.empty_meta", key=key),
                        tr("decks.parse.empty_meta_fix", field=_meta_label(key)))
                else:
                    meta[key] = value
                    meta_line[key] = lineno
            continue
        stripped = body.strip()
        if not stripped:
            continue
        start = len(body) - len(body.lstrip())
        col = start + 1
        count = 1
        name_start = start
        m = _COUNT.match(body, start)
        if m:
            digits = m.group("count")
            count = int(digits) if len(digits) <= 6 else MAX_COUNT + 1
            name_start = m.end()
            while name_start < len(body) and body[name_start].isspace():
                name_start += 1
            if count < 1 or count > MAX_COUNT:
                shown = digits if len(digits) <= 12 else digits[:12] + "…"
                bad(lineno, col, "bad-count",
                    tr("decks.parse.bad_count", count=shown),
                    tr("decks.parse.bad_count_fix", max=MAX_COUNT))
                continue
        name = body[name_start:].strip()
        name_col = name_start + 1
        if not name:
            bad(lineno, col, "missing-name", tr("decks.parse.missing_name", text=stripped),
                tr("decks.parse.missing_name_fix"))
            continue
        bad_char = _BAD_CHARS.search(name)
        if bad_char:
            bad(lineno, name_start + bad_char.start() + 1, "bad-character",
                tr("decks.parse.bad_char_card", char=repr(bad_char.group())),
                tr("decks.parse.bad_char_fix"))
            continue
        if len(name) > MAX_NAME:
            bad(lineno, name_col, "name-too-long",
                tr("decks.parse.name_too_long", length=len(name), max=MAX_NAME),
                tr("decks.parse.name_too_long_fix"))
            continue
        if not m and name[0].isdigit() and " " not in name and parse_card_ref(name) is None:
            # "3" or "3Foo": a count glued to nothing or to the name.
            bad(lineno, col, "bad-count", tr("decks.parse.glued_count", text=name),
                tr("decks.parse.glued_count_fix"))
            continue
        lines.append(DeckLine(lineno, count, name, name_col, parse_card_ref(name)))
        if len(lines) > MAX_LINES:
            problems.append(Problem("too-many-lines", tr("decks.parse.too_many_lines",
                                                         max=MAX_LINES),
                                    tr("decks.parse.too_many_lines_fix"),
                                    _at(source, lineno, 1)))
            break

    if problems:
        raise DeckListError(tr("decks.parse.unreadable", source=source), problems)
    return DeckList(
        lines=tuple(lines),
        name=meta.get("name"),
        game=meta.get("game"),
        description=meta.get("description"),
        source=source,
    )


def format_deck_list(
    entries: DeckList | ResolvedDeck | Iterable[tuple[str, int]],
    *,
    name: str | None = None,
    game: str | None = None,
    description: str | None = None,
    refs: bool = False,
) -> str:
    """Canonical deck-list text: metadata header, then ``count name`` lines.

    Lines naming the same card are merged (first position kept). ``refs=True`` writes collector
    references instead of names for resolved decks. The output parses back to the same list.
    """
    pairs: list[tuple[str, int]]
    if isinstance(entries, DeckList):
        name = name or entries.name
        game = game or entries.game
        description = description or entries.description
        pairs = [(ln.text if not ln.ref else card_ref(*ln.ref), ln.count) for ln in entries.lines]
    elif isinstance(entries, ResolvedDeck):
        name = name or entries.name
        game = game or (entries.game.code if entries.game else None)
        description = description or entries.description
        pairs = [(e.ref if refs else e.card.name, e.count) for e in entries.entries]
    else:
        pairs = list(entries)
    merged: dict[str, list[Any]] = {}
    for text, count in pairs:
        key = card_ref(*parse_card_ref(text)) if parse_card_ref(text) else fold(text)
        if key in merged:
            merged[key][1] += count
        else:
            merged[key] = [text, count]
    out: list[str] = []
    for key, value in (("name", name), ("game", game), ("description", description)):
        if value:
            out.append(f"# {key}: {' '.join(str(value).split())}")
    if out:
        out.append("")
    out.extend(f"{count} {text}" for text, count in merged.values())
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- files


def read_deck_file(path: str | Path) -> DeckList:
    """Parse a deck-list file; unreadable files are a :class:`DeckListError` too.

    At most :data:`MAX_LIST_CHARS` bytes are read, so a huge or endless file (``/dev/zero``, a
    pipe that never ends) is refused instead of filling the memory.
    """
    p = Path(path)
    shown = _shown(str(p))
    try:
        with p.open("rb") as fh:
            raw = fh.read(MAX_LIST_CHARS + 1)
    except FileNotFoundError:
        raise DeckListError(tr("decks.file.missing", path=shown)) from None
    except IsADirectoryError:
        raise DeckListError(tr("decks.file.directory", path=shown)) from None
    except OSError as exc:
        raise DeckListError(tr("decks.file.unreadable", path=shown,
                               error=exc.strerror or type(exc).__name__)) from None
    if len(raw) > MAX_LIST_CHARS:
        raise DeckListError(tr("decks.file.too_big", path=shown, max=MAX_LIST_CHARS // 1024))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DeckListError(tr("decks.file.not_utf8", path=shown, byte=exc.start)) from None
    return parse_deck_list(text, source=_shown(p.name))
