"""Deck lists, deck rules, statistics, deck codes and saved decks with their versions.

One parser (:func:`parse_deck_list`), one resolver against the database (:func:`resolve_deck`),
one legality checker (:func:`check_deck`). The CLI, the app and the tests all go through them.

The deck-list format, the deck-code format and the rulings are described in ``docs/decks.md``.

Decks sit above the games and storage: they may import storage, the games (a game's rule of
thumb about decks: ``warnings``) and the kernel, never the catalog's services, playtest, outputs
or a face (Streamlit, Typer).
"""

from __future__ import annotations

import base64
import binascii
import difflib
import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

from sqlalchemy import and_, or_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from cardbase.errors import DeckListError, NotFoundError, PermissionDenied, Problem, StaleEditError
from cardbase.i18n import current_language, tr
from cardbase.storage.models import Card, Deck, DeckEntry, DeckVersion, Edition, Game, _now
from cardbase.text import card_ref, fold, parse_card_ref

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


# --------------------------------------------------------------------------- resolution

@dataclass(slots=True)
class _Catalog:
    """The cards a resolution needs, loaded once per call."""

    games: dict[int, Game]
    editions: dict[int, Edition]
    by_code: dict[str, Edition]
    cards: list[Card]
    by_key: dict[str, list[Card]]
    by_ref: dict[tuple[str, int], Card]

    def game_of(self, card: Card) -> Game:
        return self.games[self.editions[card.edition_id].game_id]


def _load_catalog(session: Session, keys: Iterable[str] = (),
                  refs: Iterable[tuple[str, int]] = ()) -> _Catalog:
    """Games and editions, and only the cards named by ``keys`` (folded names) or ``refs``."""
    games = {g.id: g for g in session.exec(select(Game)).all()}
    editions = {e.id: e for e in session.exec(select(Edition)).all()}
    by_code = {e.code.upper(): e for e in editions.values()}
    keys = sorted(set(keys))
    wanted: dict[int, set[int]] = {}
    for code, number in refs:
        ed = by_code.get(code.upper())
        if ed is not None:
            wanted.setdefault(ed.id, set()).add(number)
    conditions = []
    for i in range(0, len(keys), 500):
        conditions.append(Card.name_key.in_(keys[i:i + 500]))
    for edition_id, numbers in wanted.items():
        conditions.append(and_(Card.edition_id == edition_id, Card.number.in_(sorted(numbers))))
    cards: list[Card] = []
    if conditions:
        cards = list(session.exec(
            select(Card).where(or_(*conditions)).order_by(Card.edition_id, Card.number)).all())
    by_key: dict[str, list[Card]] = {}
    by_ref: dict[tuple[str, int], Card] = {}
    for c in cards:
        by_key.setdefault(c.name_key or fold(c.name), []).append(c)
        by_ref[(editions[c.edition_id].code.upper(), c.number)] = c
    return _Catalog(games, editions, by_code, cards, by_key, by_ref)


def _names_of_game(session: Session, game: Game | None) -> dict[str, str]:
    """Folded name → printed name of every card of ``game`` (all games when None)."""
    query = select(Card.name_key, Card.name).order_by(Card.edition_id, Card.number)
    if game is not None:
        query = query.join(Edition, Edition.id == Card.edition_id).where(
            Edition.game_id == game.id)
    out: dict[str, str] = {}
    for key, name in session.exec(query).all():
        out.setdefault(key or fold(name), name)
    return out


def _storable(text: str) -> bool:
    """Whether ``text`` can go into an SQL query: no NUL, no lone surrogate (what Python makes of
    bytes that are not UTF-8 in a command-line argument)."""
    return not _UNSTORABLE.search(text)


def _shown(text: str) -> str:
    """``text`` as it can be printed anywhere: a lone surrogate (a byte that was not UTF-8 in a
    command-line argument or a file name) is written as ``\\udcff``."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8") if _UNSTORABLE.search(
        text) else text


def get_game(session: Session, game: str | Game | None) -> Game | None:
    if game is None or isinstance(game, Game):
        return game
    if not _storable(game):
        return None
    found = session.exec(select(Game).where(Game.code == fold(game))).first()
    if found is None:
        found = session.exec(select(Game).where(Game.code == game)).first()
    return found


def _require_game(session: Session, game: str | Game) -> Game:
    found = get_game(session, game)
    if found is None:
        codes = ", ".join(sorted(g.code for g in session.exec(select(Game)).all()))
        raise NotFoundError(tr("decks.resolve.unknown_game_known", game=_shown(game),
                               codes=codes or tr("decks.word.none")))
    return found


def _suggest(key: str, candidates: Iterable[str], names: dict[str, str]) -> list[str]:
    close = difflib.get_close_matches(key, list(candidates), n=3, cutoff=0.6)
    if not close:  # a typed prefix ("bouffon") often names a longer card
        close = [c for c in candidates if c.startswith(key) or key in c][:3] if len(key) >= 4 else []
    return [names[c] for c in close]


def resolve_deck(session: Session, deck_list: DeckList, *, game: str | Game | None = None
                 ) -> ResolvedDeck:
    """Match every line of ``deck_list`` to one card of the database.

    The game is ``game`` if given, else the list's ``# game:``, else the one game every named card
    belongs to. Names match accent- and case-insensitively; a name printed in several editions of
    the game resolves to its first printing (copies are counted by name anyway). Problems:
    ``unknown-card`` (with suggestions), ``unknown-ref``, ``wrong-game``, ``ambiguous-card``,
    ``unknown-game``.
    """
    cat = _load_catalog(session, (fold(ln.text) for ln in deck_list.lines if not ln.ref),
                        (ln.ref for ln in deck_list.lines if ln.ref))
    problems: list[Problem] = []
    target: Game | None = None
    requested = game if game is not None else deck_list.game
    if requested is not None:
        target = get_game(session, requested)
        if target is None:
            codes = ", ".join(sorted(g.code for g in cat.games.values()))
            problems.append(Problem(
                "unknown-game", tr("decks.resolve.unknown_game", game=_shown(str(requested))),
                tr("decks.resolve.use_one_of", codes=codes) if codes
                else tr("decks.resolve.create_game_first"),
                f"{deck_list.source}"))
            return ResolvedDeck(None, (), tuple(problems), deck_list.count, deck_list.name,
                                deck_list.description, deck_list.source)

    if target is None:  # infer from the cards
        seen: set[int] = set()
        for ln in deck_list.lines:
            if ln.ref:
                card = cat.by_ref.get(ln.ref)
                if card is not None:
                    seen.add(cat.game_of(card).id)
            else:
                gids = {cat.game_of(c).id for c in cat.by_key.get(fold(ln.text), [])}
                if len(gids) == 1:
                    seen |= gids
        if len(seen) == 1:
            target = cat.games[seen.pop()]

    game_keys: dict[str, str] | None = None  # loaded on the first unknown name

    found: dict[int, list[Any]] = {}
    order: list[int] = []
    for ln in deck_list.lines:
        where = _at(deck_list.source, ln.line, ln.column)
        card: Card | None = None
        if ln.ref:
            ref = card_ref(*ln.ref)
            card = cat.by_ref.get(ln.ref)
            if card is None:
                edition = cat.by_code.get(ln.ref[0])
                if edition is None:
                    fix = tr("decks.resolve.no_edition_fix", codes=", ".join(sorted(cat.by_code)))
                    msg = tr("decks.resolve.no_edition", edition=ln.ref[0], text=ln.text)
                else:
                    fix = tr("decks.resolve.no_number_fix", edition=edition.code,
                             size=edition.set_size)
                    msg = tr("decks.resolve.no_number", ref=ref, edition=edition.code)
                problems.append(Problem("unknown-ref", msg, fix, where))
                continue
        else:
            key = fold(ln.text)
            candidates = cat.by_key.get(key, [])
            in_game = [c for c in candidates if target is None or cat.game_of(c).id == target.id]
            if in_game:
                games = {cat.game_of(c).id for c in in_game}
                if len(games) > 1:
                    names = ", ".join(sorted(cat.games[g].code for g in games))
                    problems.append(Problem(
                        "ambiguous-card", tr("decks.resolve.ambiguous", text=ln.text, games=names),
                        tr("decks.resolve.ambiguous_fix"), where))
                    continue
                card = in_game[0]
            elif candidates:
                other = sorted({cat.game_of(c).code for c in candidates})
                problems.append(Problem(
                    "wrong-game",
                    tr("decks.resolve.wrong_game", text=ln.text, games=", ".join(other),
                       game=target.code),
                    tr("decks.resolve.wrong_game_fix", game=target.name), where))
                continue
            else:
                if game_keys is None:
                    game_keys = _names_of_game(session, target)
                sugg = _suggest(key, game_keys.keys(), game_keys)
                fix = (tr("decks.resolve.did_you_mean", names=_or(f"« {s} »" for s in sugg))
                       if sugg else tr("decks.resolve.check_spelling"))
                problems.append(Problem(
                    "unknown-card", tr("decks.resolve.unknown_card", text=ln.text), fix, where))
                continue
        if target is not None and cat.game_of(card).id != target.id:
            problems.append(Problem(
                "wrong-game",
                tr("decks.resolve.wrong_game_named", text=ln.text, name=card.name,
                   games=cat.game_of(card).code, game=target.code),
                tr("decks.resolve.wrong_game_fix", game=target.name), where))
            continue
        if card.id not in found:
            found[card.id] = [card, 0, []]
            order.append(card.id)
        found[card.id][1] += ln.count
        found[card.id][2].append(ln.line)

    entries = tuple(
        ResolvedEntry(found[i][0], found[i][1], cat.editions[found[i][0].edition_id].code,
                      tuple(found[i][2]))
        for i in order
    )
    return ResolvedDeck(target, entries, tuple(problems), deck_list.count, deck_list.name,
                        deck_list.description, deck_list.source)


def _as_resolved(session: Session, deck: DeckList | ResolvedDeck | Sequence[Any],
                 game: str | Game | None) -> ResolvedDeck:
    """Any accepted deck form as a :class:`ResolvedDeck` for ``game`` (or the deck's own game)."""
    if isinstance(deck, DeckList):
        return resolve_deck(session, deck, game=game)
    if isinstance(deck, ResolvedDeck):
        if game is None:
            return deck
        target = get_game(session, game)
        if deck.game is not None and target is not None and target.id == deck.game.id:
            return deck
        return resolve_deck(session, _to_deck_list(deck), game=game)
    # a sequence of ResolvedEntry or (Card, count): re-read through collector references
    editions = {e.id: e.code for e in session.exec(select(Edition)).all()}
    lines: list[DeckLine] = []
    for i, item in enumerate(deck, start=1):
        if isinstance(item, ResolvedEntry):
            card, count = item.card, item.count
        else:
            card, count = item
        ref = (editions[card.edition_id].upper(), card.number)
        lines.append(DeckLine(i, int(count), card_ref(*ref), 1, ref))
    return resolve_deck(session, DeckList(tuple(lines)), game=game)


def _to_deck_list(deck: ResolvedDeck) -> DeckList:
    lines = tuple(
        DeckLine(i + 1, e.count, e.ref, 1, parse_card_ref(e.ref)) for i, e in enumerate(deck.entries)
    )
    return DeckList(lines, deck.name, deck.game.code if deck.game else None, deck.description,
                    deck.source)


# --------------------------------------------------------------------------- legality


def copy_limit_for(game: Game, keywords: Iterable[str]) -> int:
    """Copies of one card name a deck of ``game`` may hold, given the card's keywords."""
    limit = game.copy_limit if game.copy_limit is not None else MAX_COUNT
    overrides = {fold(k): v for k, v in (game.keyword_limits or {}).items()}
    for kw in keywords:
        if fold(kw) in overrides:
            limit = max(limit, overrides[fold(kw)])
    return limit


def check_deck(session: Session, deck: DeckList | ResolvedDeck | Sequence[Any],
               game: str | Game | None = None) -> Legality:
    """Check a deck against its game's rules; return every problem with a fix.

    Rules (as data on :class:`Game`): exactly ``deck_size`` cards; at most ``copy_limit`` copies of a
    card name across editions, raised by ``keyword_limits`` (NesPanini: Foule → 4); every line must
    name exactly one card of the game.
    """
    resolved = _as_resolved(session, deck, game)
    problems = list(resolved.problems)
    count = resolved.count
    g = resolved.game
    if g is None:
        if not any(p.code == "unknown-game" for p in problems):
            problems.append(Problem(
                "unknown-game", tr("decks.check.no_game"), tr("decks.check.no_game_fix"),
                resolved.source))
        return Legality(False, count, problems)
    if g.deck_size is None:
        problems.append(Problem(
            "no-deck-rules", tr("decks.check.no_deck_rules", game=g.name),
            tr("decks.check.no_deck_rules_fix"), resolved.source))
        return Legality(False, count, problems)

    by_name: dict[str, list[ResolvedEntry]] = {}
    for e in resolved.entries:
        by_name.setdefault(e.card.name_key or fold(e.card.name), []).append(e)
    groups = [(group[0].card.name, sum(e.count for e in group),
               {fold(k) for e in group for k in (e.card.keywords or [])},
               sorted(ln for e in group for ln in e.lines)) for group in by_name.values()]
    problems.extend(_rule_problems(g, count, groups, resolved.source))
    return Legality(not problems, count, problems)


def check_card_defs(cards: Sequence[Any], game: Game, *, source: str = "<deck>") -> Legality:
    """:func:`check_deck` of a deck given as one card (a ``CardDef``: name, keywords) per copy,
    against the deck rules of ``game`` (any object with ``name``, ``deck_size``, ``copy_limit``,
    ``keyword_limits``): the size and the copies per card name, with the same messages. Used by
    the playtest batches, whose decks need no database (``--edition``)."""
    if game.deck_size is None:
        return Legality(True, len(cards), [])
    by_name: dict[str, list[Any]] = {}
    for c in cards:
        by_name.setdefault(fold(c.name), []).append(c)
    groups = [(group[0].name, len(group), {fold(k) for c in group for k in (c.keywords or ())}, [])
              for group in by_name.values()]
    problems = _rule_problems(game, len(cards), groups, source)
    return Legality(not problems, len(cards), problems)


def _rule_problems(g: Any, count: int, groups: Iterable[tuple[str, int, set[str], list[int]]],
                   source: str) -> list[Problem]:
    """The size and copy-limit problems of a deck: ``groups`` holds per card name (name, copies,
    folded keywords, deck-list lines)."""
    problems: list[Problem] = []
    if count != g.deck_size:
        diff = count - g.deck_size
        fix = (tr("decks.check.remove", cards=n_cards(diff)) if diff > 0
               else tr("decks.check.add", cards=n_cards(-diff)))
        problems.append(Problem(
            "deck-size",
            tr("decks.check.deck_size", cards=n_cards(count), game=g.name, size=g.deck_size),
            fix, source))
    overrides = {fold(k): v for k, v in (g.keyword_limits or {}).items()}
    base = g.copy_limit
    for name, copies, keywords, lines in groups:
        limit = copy_limit_for(g, keywords)
        if copies <= limit:
            continue
        granted = [k for k in keywords if k in overrides and overrides[k] == limit]
        fix = tr("decks.check.lower", name=name, copies=n_copies(limit))
        if not granted and base is not None:
            better = [(v, k) for k, v in overrides.items() if v > limit]
            if better:
                v, k = max(better)
                fix = tr("decks.check.lower_or_pick", name=name, copies=n_copies(limit),
                         keyword=k.capitalize(), more=n_copies(v))
        where = source
        if len(lines) == 1:
            where = tr("decks.where.line", source=source, line=lines[0])
        elif lines:
            where = tr("decks.where.lines", source=source, lines=", ".join(map(str, lines)))
        if granted:
            message = tr("decks.check.too_many_granted", name=name, times=copies, limit=limit,
                         keywords=", ".join(sorted(k.capitalize() for k in granted)))
        else:
            message = tr("decks.check.too_many", name=name, times=copies, limit=limit)
        problems.append(Problem("too-many-copies", message, fix, where))
    return problems


# --------------------------------------------------------------------------- statistics


@dataclass(slots=True, frozen=True)
class DrawPlan:
    """How many cards a player has seen by each turn: opening hand, then draws."""

    opening: int = 5
    per_turn: int = 1
    turns: int = 5

    def seen(self, turn: int) -> int:
        return self.opening + self.per_turn * turn


NESPANINI_DRAWS = DrawPlan(5, 1, 5)
DRAW_PLANS: dict[str, DrawPlan] = {"nespanini": NESPANINI_DRAWS}


def prob_at_least_one(deck_size: int, copies: int, seen: int) -> Fraction:
    """Exact probability of holding at least one of ``copies`` cards among ``seen`` drawn from
    ``deck_size`` without replacement (hypergeometric)."""
    if not 0 <= copies <= deck_size or seen < 0:
        raise ValueError(f"bad draw: {copies} copies, {seen} seen, deck of {deck_size}")
    seen = min(seen, deck_size)
    return 1 - Fraction(comb(deck_size - copies, seen), comb(deck_size, seen))


@dataclass(slots=True, frozen=True)
class CardOdds:
    name: str
    ref: str
    copies: int
    by_turn: tuple[Fraction, ...]  # index 0: opening hand; index t: after turn t's draw

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ref": self.ref, "copies": self.copies,
                "by_turn": [round(float(p), 6) for p in self.by_turn]}


@dataclass(slots=True, frozen=True)
class DeckStats:
    count: int
    total_value: int
    mean_value: float | None
    value_curve: dict[int, int]
    colours: dict[str, int]
    keywords: dict[str, int]
    rarities: dict[str, int]
    draw_plan: DrawPlan | None
    draw_odds: tuple[CardOdds, ...]
    problems: tuple[Problem, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "total_value": self.total_value,
            "mean_value": None if self.mean_value is None else round(self.mean_value, 4),
            "value_curve": {str(k): v for k, v in self.value_curve.items()},
            "colours": self.colours,
            "keywords": self.keywords,
            "rarities": self.rarities,
            "seen_by_turn": [self.draw_plan.seen(t) for t in range(self.draw_plan.turns + 1)]
            if self.draw_plan else [],
            "draw_odds": [o.as_dict() for o in self.draw_odds],
            "problems": [p.as_dict() for p in self.problems],
        }


def deck_stats(session: Session, deck: DeckList | ResolvedDeck | Sequence[Any],
               game: str | Game | None = None, *, plan: DrawPlan | None = None) -> DeckStats:
    """Value curve, colours, keywords, rarities and exact draw odds of the cards that resolve.

    Odds are by card name (printings together), over the cards found: deck size is the number of
    resolved cards. The draw plan is the game's (NesPanini: 5 in hand, then 1 a turn for 5 turns).
    """
    resolved = _as_resolved(session, deck, game)
    entries = resolved.entries
    n = sum(e.count for e in entries)
    curve: Counter[int] = Counter()
    colours: Counter[str] = Counter()
    keywords: Counter[str] = Counter()
    rarities: Counter[str] = Counter()
    total = 0
    valued = 0
    for e in entries:
        c = e.card
        if c.value is not None:
            curve[c.value] += e.count
            total += c.value * e.count
            valued += e.count
        colours[c.colour or "—"] += e.count
        rarities[c.rarity or "—"] += e.count
        for kw in c.keywords or []:
            keywords[kw] += e.count
    if plan is None and resolved.game is not None:
        plan = DRAW_PLANS.get(resolved.game.code)
    odds: list[CardOdds] = []
    if plan is not None and n:
        groups: dict[str, list[ResolvedEntry]] = {}
        for e in entries:
            groups.setdefault(e.card.name_key or fold(e.card.name), []).append(e)
        for group in groups.values():
            k = sum(e.count for e in group)
            odds.append(CardOdds(
                group[0].card.name, group[0].ref, k,
                tuple(prob_at_least_one(n, k, plan.seen(t)) for t in range(plan.turns + 1))))
    return DeckStats(
        count=n,
        total_value=total,
        mean_value=(total / valued) if valued else None,
        value_curve=dict(sorted(curve.items())),
        colours=dict(colours.most_common()),
        keywords=dict(keywords.most_common()),
        rarities=dict(rarities.most_common()),
        draw_plan=plan,
        draw_odds=tuple(odds),
        problems=resolved.problems,
    )


# --------------------------------------------------------------------------- deck codes

CODE_VERSION = 1


def card_fingerprint_text(ref: str, name: str, value: int | None) -> bytes:
    return f"{ref}|{name}|{'' if value is None else value}".encode()


def _card_hash(ref: str, name: str, value: int | None) -> bytes:
    return hashlib.sha256(card_fingerprint_text(ref, name, value)).digest()[:2]


def _deck_fingerprint(items: Iterable[tuple[str, str, int | None]]) -> bytes:
    h = hashlib.sha256()
    for ref, name, value in sorted(items):
        h.update(card_fingerprint_text(ref, name, value) + b"\n")
    return h.digest()[:4]


def _varint(n: int) -> bytes:
    if n < 0:
        raise ValueError("varints are unsigned")
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self, what: str) -> int:
        if self.pos >= len(self.data):
            raise DeckListError(tr("decks.code.cut_short", what=what))
        b = self.data[self.pos]
        self.pos += 1
        return b

    def take(self, n: int, what: str) -> bytes:
        if self.pos + n > len(self.data):
            raise DeckListError(tr("decks.code.cut_short", what=what))
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def varint(self, what: str) -> int:
        shift = 0
        result = 0
        for _ in range(5):
            b = self.byte(what)
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result
            shift += 7
        raise DeckListError(tr("decks.code.number_too_long", what=what))

    def text(self, what: str) -> str:
        n = self.varint(what)
        if n > 40:
            raise DeckListError(tr("decks.code.text_too_long", what=what, n=n))
        raw = self.take(n, what)
        if not n or any(b < 0x21 or b > 0x7E for b in raw):  # printable ASCII, no space or NUL
            raise DeckListError(tr("decks.code.not_text", what=what))
        return raw.decode("ascii")


def encode_deck_code(session: Session, entries: DeckList | ResolvedDeck | Sequence[Any],
                     game: str | Game | None = None) -> str:
    """A compact, versioned, shareable code for a deck (base64url, no padding).

    Layout (all numbers are LEB128 varints): version byte; game code (length + ASCII); 4-byte
    fingerprint of the cards' ``ref|name|value``; number of editions; per edition: code (length +
    ASCII), number of cards, then per card: collector number (delta from the previous one), count,
    2-byte card hash; finally a 2-byte checksum of everything before it.
    """
    resolved = _as_resolved(session, entries, game)
    if resolved.problems:
        raise DeckListError(tr("decks.code.encode_not_found"), list(resolved.problems))
    if resolved.game is None:
        raise DeckListError(tr("decks.code.encode_no_game"))
    codes = [resolved.game.code] + [e.edition for e in resolved.entries]
    odd = next((c for c in codes if not c.isascii() or not c.isprintable() or " " in c
                or not 0 < len(c.encode()) <= 40), None)
    if odd is not None:
        raise DeckListError(tr("decks.code.encode_bad_code", code=odd))
    per_edition: dict[str, dict[int, list[Any]]] = {}
    for e in resolved.entries:
        code = e.edition.upper()
        slot = per_edition.setdefault(code, {}).setdefault(e.card.number, [0, e.card])
        slot[0] += e.count
    out = bytearray([CODE_VERSION])
    gcode = resolved.game.code.encode("ascii")
    out += _varint(len(gcode)) + gcode
    items = [(card_ref(ed, num), c.name, c.value)
             for ed, cards in per_edition.items() for num, (_, c) in cards.items()]
    out += _deck_fingerprint(items)
    out += _varint(len(per_edition))
    for ed in sorted(per_edition):
        raw = ed.encode("ascii")
        out += _varint(len(raw)) + raw
        cards = per_edition[ed]
        out += _varint(len(cards))
        prev = 0
        for num in sorted(cards):
            count, card = cards[num]
            out += _varint(num - prev) + _varint(count)
            out += _card_hash(card_ref(ed, num), card.name, card.value)
            prev = num
    out += hashlib.sha256(bytes(out)).digest()[:2]
    return base64.urlsafe_b64encode(bytes(out)).decode("ascii").rstrip("=")


@dataclass(slots=True, frozen=True)
class DecodedEntry:
    ref: str
    count: int
    status: str  # "ok", "unknown" (no such card here) or "changed" (name or value differ)
    card: Card | None = None


@dataclass(slots=True, frozen=True)
class DecodedDeck:
    version: int
    game: str
    fingerprint: str  # hex
    entries: tuple[DecodedEntry, ...]
    problems: tuple[Problem, ...] = ()
    same_data: bool = True  # the fingerprint matches the cards found here

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def count(self) -> int:
        return sum(e.count for e in self.entries)

    def to_deck_list(self) -> DeckList:
        lines = tuple(
            DeckLine(i + 1, e.count, e.ref, 1, parse_card_ref(e.ref))
            for i, e in enumerate(self.entries)
        )
        return DeckList(lines, None, self.game, None, "<deck code>")

    def as_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "game": self.game,
            "fingerprint": self.fingerprint,
            "same_data": self.same_data,
            "count": self.count,
            "cards": [
                {"ref": e.ref, "count": e.count, "status": e.status,
                 "name": e.card.name if e.card is not None else None}
                for e in self.entries
            ],
            "problems": [p.as_dict() for p in self.problems],
        }


def read_deck_code(code: str) -> tuple[int, str, bytes, list[tuple[str, int, int, bytes]]]:
    """Decode the bytes of a deck code without a database: version, game, fingerprint and
    (edition, number, count, card hash) items. Raises :class:`DeckListError` on a bad code."""
    if not isinstance(code, str):
        raise DeckListError(tr("decks.code.not_str"))
    if len(code) > 4 * MAX_CODE_CHARS:
        raise DeckListError(tr("decks.code.too_long", length=len(code), max=MAX_CODE_CHARS))
    text = "".join(code.split())
    if not text:
        raise DeckListError(tr("decks.code.empty"), [
            Problem("bad-code", tr("decks.code.empty"), tr("decks.code.empty_fix"))])
    if len(text) > MAX_CODE_CHARS:
        raise DeckListError(tr("decks.code.too_long", length=len(text), max=MAX_CODE_CHARS))
    bad = re.search(r"[^A-Za-z0-9_-]", text)
    if bad:
        raise DeckListError(tr("decks.code.bad_char", char=repr(bad.group()),
                               position=bad.start() + 1))
    if len(text) % 4 == 1:
        raise DeckListError(tr("decks.code.bad_length"))
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as exc:
        raise DeckListError(tr("decks.code.not_base64", error=exc)) from None
    if len(data) < 3:
        raise DeckListError(tr("decks.code.too_short"))
    body, check = data[:-2], data[-2:]
    version = body[0]
    if version != CODE_VERSION:
        raise DeckListError(tr("decks.code.bad_version", version=version, supported=CODE_VERSION))
    if hashlib.sha256(body).digest()[:2] != check:
        raise DeckListError(tr("decks.code.checksum"))
    r = _Reader(body)
    r.byte(tr("decks.code.what_version"))
    game = r.text(tr("decks.code.what_game"))
    fingerprint = r.take(4, tr("decks.code.what_fingerprint"))
    n_ed = r.varint(tr("decks.code.what_editions"))
    items: list[tuple[str, int, int, bytes]] = []
    total = 0
    for _ in range(n_ed):
        ed = r.text(tr("decks.code.what_edition"))
        n_cards = r.varint(tr("decks.code.what_cards"))
        if n_cards > MAX_LINES:
            raise DeckListError(tr("decks.code.too_many_cards"))
        num = 0
        for _ in range(n_cards):
            num += r.varint(tr("decks.code.what_number"))
            count = r.varint(tr("decks.code.what_count"))
            total += count
            if not 1 <= num <= 2**31 - 1 or not 1 <= count or total > MAX_COUNT * MAX_LINES:
                raise DeckListError(tr("decks.code.bad_card", number=num, count=count))
            items.append((ed, num, count, r.take(2, tr("decks.code.what_hash"))))
    if r.pos != len(body):
        raise DeckListError(tr("decks.code.extra_bytes"))
    return version, game, fingerprint, items


def decode_deck_code(session: Session, code: str) -> DecodedDeck:
    """Read a deck code against this database; say which cards are unknown or changed."""
    version, game_code, fingerprint, items = read_deck_code(code)
    cat = _load_catalog(session, (), ((ed.upper(), num) for ed, num, _, _ in items))
    problems: list[Problem] = []
    game = get_game(session, game_code)
    if game is None:
        problems.append(Problem("unknown-game", tr("decks.code.unknown_game", game=game_code),
                                tr("decks.code.unknown_game_fix")))
    entries: list[DecodedEntry] = []
    current: list[tuple[str, str, int | None]] = []
    for ed, num, count, chash in items:
        ref = card_ref(ed, num)
        card = cat.by_ref.get((ed.upper(), num))
        if card is None:
            entries.append(DecodedEntry(ref, count, "unknown"))
            problems.append(Problem("unknown-card", tr("decks.code.unknown_card", ref=ref),
                                    tr("decks.code.unknown_card_fix"), ref))
            continue
        current.append((ref, card.name, card.value))
        if _card_hash(ref, card.name, card.value) != chash:
            entries.append(DecodedEntry(ref, count, "changed", card))
            problems.append(Problem(
                "changed-card",
                tr("decks.code.changed_card", ref=ref, name=card.name,
                   value="—" if card.value is None else card.value),
                tr("decks.code.changed_card_fix"), ref))
            continue
        if game is not None and cat.game_of(card).id != game.id:
            problems.append(Problem("wrong-game",
                                    tr("decks.code.wrong_game", ref=ref,
                                       games=cat.game_of(card).code, game=game.code),
                                    tr("decks.code.wrong_game_fix"), ref))
        entries.append(DecodedEntry(ref, count, "ok", card))
    same = len(current) == len(items) and _deck_fingerprint(current) == fingerprint
    return DecodedDeck(version, game_code, fingerprint.hex(), tuple(entries), tuple(problems), same)


# --------------------------------------------------------------------------- saved decks


def _entry_dicts(resolved: ResolvedDeck) -> list[dict[str, Any]]:
    return [
        {"card_id": e.card.id, "ref": e.ref, "name": e.card.name, "count": e.count}
        for e in resolved.entries
    ]


def save_deck(
    session: Session,
    *,
    game: str | Game,
    name: str,
    entries: DeckList | ResolvedDeck | Sequence[Any],
    expected_version: int | None = None,
    note: str | None = None,
    description: str | None = None,
    require_legal: bool = False,
    editor: str | None = None,
) -> Deck:
    """Create the deck ``name`` of ``game`` or replace its list; keep the list in history.

    Creating needs ``expected_version=None``; replacing an existing deck needs the version the
    caller read (``deck.version``), else :class:`StaleEditError`. Every save writes a
    :class:`DeckVersion` with self-contained entries (card id, ref, name, count). The deck's cards
    must all exist; with ``require_legal`` an illegal deck is refused too. The name, note and
    description are checked against their columns before anything is written.

    A shipped starter deck (see :func:`is_starter_deck`) is replaced only in editor mode
    (:func:`cardbase.access.has_editor`, with ``editor`` or the current editor context): a viewer
    of the app gets :class:`~cardbase.errors.PermissionDenied` with a free name to use instead.
    """
    from cardbase.storage import writelock

    g = _require_game(session, game)
    name = " ".join((name or "").split())
    _check_saved_fields(name, note, description)
    # the game's deck rules as they are now, kept so until the deck is saved
    g = writelock.locked_game(session, g.id)
    resolved = _as_resolved(session, entries, g)
    if resolved.problems:
        raise DeckListError(tr("decks.saving.not_found", name=name), list(resolved.problems))
    if require_legal:
        # the cards' names and keywords (copy limits) as they are now, kept so until the save
        writelock.lock_cards(session, [e.card.id for e in resolved.entries])
        legality = check_deck(session, resolved, g)
        if not legality.legal:
            raise DeckListError(tr("decks.saving.not_legal", name=name), legality.problems)

    deck = session.exec(select(Deck).where(Deck.game_id == g.id, Deck.name == name)
                        .execution_options(populate_existing=True)).first()
    now = _now()
    writelock.before_write("deck")
    if deck is not None and is_starter_deck(session, deck):
        from cardbase.access import has_editor

        if not has_editor(editor):
            raise PermissionDenied(tr("decks.saving.starter", name=name,
                                      suggestion=_free_name(session, g, name)))
    if deck is None:
        if expected_version is not None:
            raise StaleEditError(
                tr("decks.saving.gone", name=name, version=expected_version),
                attempted={"version": expected_version})
        deck = Deck(game_id=g.id, name=name, description=description or resolved.description,
                    version=1, created_at=now, updated_at=now)
        session.add(deck)
        try:
            session.flush()
        except IntegrityError:  # another editor created a deck of that name meanwhile
            raise StaleEditError(tr("decks.saving.created_meanwhile", name=name),
                                 attempted={"version": None}) from None
    else:
        if expected_version is None or expected_version != deck.version:
            session.refresh(deck)
            message = (tr("decks.saving.stale_no_version", name=name, version=deck.version)
                       if expected_version is None else
                       tr("decks.saving.stale", name=name, version=deck.version,
                          expected=expected_version))
            raise StaleEditError(message, current={"version": deck.version},
                                 attempted={"version": expected_version})
        # compare-and-swap: another transaction may have saved in between
        result = session.execute(
            update(Deck)
            .where(Deck.id == deck.id, Deck.version == expected_version)
            .values(version=expected_version + 1, updated_at=now,
                    description=description if description is not None else deck.description)
        )
        if result.rowcount != 1:
            raise StaleEditError(
                tr("decks.saving.saved_meanwhile", name=name, version=expected_version),
                attempted={"version": expected_version})
        session.refresh(deck)
        for old in session.exec(select(DeckEntry).where(DeckEntry.deck_id == deck.id)).all():
            session.delete(old)
        session.flush()

    merged: dict[int, int] = {}
    for e in resolved.entries:
        merged[e.card.id] = merged.get(e.card.id, 0) + e.count
    for card_id, count in merged.items():
        session.add(DeckEntry(deck_id=deck.id, card_id=card_id, count=count))
    session.add(DeckVersion(deck_id=deck.id, number=deck.version, saved_at=now, note=note,
                            entries=_entry_dicts(resolved)))
    try:
        session.flush()
    except IntegrityError:  # a card of the list was deleted by someone else meanwhile
        raise StaleEditError(tr("decks.saving.card_deleted", name=name),
                             attempted={"version": expected_version}) from None
    return deck


def _check_saved_fields(name: str, note: str | None, description: str | None) -> None:
    """Every problem of the fields a save writes, before the write (their column sizes on
    PostgreSQL; no control characters, which PostgreSQL refuses in text)."""
    problems: list[Problem] = []
    if not name:
        problems.append(Problem("missing-name", tr("decks.saving.no_name"),
                                tr("decks.saving.no_name_fix")))
    elif len(name) > MAX_DECK_NAME:
        problems.append(Problem("name-too-long",
                                tr("decks.saving.name_too_long", length=len(name), max=MAX_DECK_NAME),
                                tr("decks.saving.shorten")))
    for field_name, value, pattern in (("name", name, _BAD_CHARS),
                                       ("note", note, _BAD_CHARS),
                                       ("description", description, _BAD_TEXT_CHARS)):
        bad = pattern.search(value) if isinstance(value, str) else None
        if bad:
            problems.append(Problem("bad-character",
                                    tr("decks.saving.bad_char", char=repr(bad.group()),
                                       position=bad.start() + 1),
                                    tr("decks.parse.bad_char_fix"), field_name))
    if note is not None and len(note) > MAX_NOTE:
        problems.append(Problem("note-too-long",
                                tr("decks.saving.note_too_long", length=len(note), max=MAX_NOTE),
                                tr("decks.saving.shorten"), "note"))
    if problems:
        raise DeckListError(tr("decks.saving.refused", name=_shown(name[:MAX_DECK_NAME])), problems)


def is_starter_deck(session: Session, deck: Deck) -> bool:
    """Whether ``deck`` is one of the starter decks seeding created (its first version's note)."""
    first = session.exec(select(DeckVersion.note).where(
        DeckVersion.deck_id == deck.id).order_by(DeckVersion.number).limit(1)).first()
    return first == STARTER_NOTE


def free_deck_name(session: Session, game: str | Game, name: str) -> str:
    """A name like ``name`` that no deck of ``game`` has yet (``name (2)``…), to save under."""
    return _free_name(session, _require_game(session, game), " ".join((name or "").split()))


def _free_name(session: Session, game: Game, name: str) -> str:
    """A deck name of ``game`` like ``name`` that no deck has yet: ``name (2)``, ``name (3)``…"""
    taken = set(session.exec(select(Deck.name).where(Deck.game_id == game.id)).all())
    for i in range(2, 1000):
        suffix = f" ({i})"
        candidate = name[:MAX_DECK_NAME - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
    return name


def get_deck(session: Session, name: str, *, game: str | Game | None = None) -> Deck:
    if not _storable(name):
        raise NotFoundError(tr("decks.lookup.no_deck", name=_shown(name)))
    query = select(Deck).where(Deck.name == name)
    if game is not None:
        query = query.where(Deck.game_id == _require_game(session, game).id)
    decks = session.exec(query).all()
    if not decks:
        raise NotFoundError(tr("decks.lookup.no_deck", name=_shown(name)))
    if len(decks) > 1:
        raise NotFoundError(tr("decks.lookup.several_games", name=name))
    return decks[0]


def deck_entries(session: Session, deck: Deck) -> ResolvedDeck:
    """The current list of a saved deck."""
    rows = session.exec(
        select(DeckEntry, Card).join(Card, Card.id == DeckEntry.card_id)
        .where(DeckEntry.deck_id == deck.id).order_by(Card.edition_id, Card.number)
    ).all()
    editions = {e.id: e.code for e in session.exec(select(Edition)).all()}
    entries = tuple(ResolvedEntry(card, de.count, editions[card.edition_id]) for de, card in rows)
    return ResolvedDeck(session.get(Game, deck.game_id), entries, (),
                        sum(e.count for e in entries), deck.name, deck.description)


def list_decks(session: Session, *, game: str | Game | None = None) -> list[Deck]:
    query = select(Deck).order_by(Deck.game_id, Deck.name)
    if game is not None:
        query = query.where(Deck.game_id == _require_game(session, game).id)
    return list(session.exec(query).all())


def deck_history(session: Session, deck_id: int) -> list[DeckVersion]:
    """Every saved list of a deck, oldest first."""
    if session.get(Deck, deck_id) is None:
        raise NotFoundError(tr("decks.lookup.no_id", id=deck_id))
    return list(session.exec(
        select(DeckVersion).where(DeckVersion.deck_id == deck_id).order_by(DeckVersion.number)
    ).all())


@dataclass(slots=True, frozen=True)
class DiffLine:
    name: str
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(slots=True, frozen=True)
class DeckDiff:
    added: tuple[DiffLine, ...]
    removed: tuple[DiffLine, ...]
    changed: tuple[DiffLine, ...]

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed)

    def lines(self) -> list[str]:
        out = [f"+{d.after} {d.name}" for d in self.added]
        out += [f"-{d.before} {d.name}" for d in self.removed]
        out += [f"{d.delta:+d} {d.name} ({d.before} → {d.after})" for d in self.changed]
        return out


def diff_versions(a: DeckVersion | Sequence[dict[str, Any]],
                  b: DeckVersion | Sequence[dict[str, Any]]) -> DeckDiff:
    """What changed from list ``a`` to list ``b``, by card name (printings together)."""

    def counts(v: DeckVersion | Sequence[dict[str, Any]]) -> dict[str, list[Any]]:
        rows = v.entries if isinstance(v, DeckVersion) else v
        out: dict[str, list[Any]] = {}
        for row in rows:
            key = fold(row["name"])
            out.setdefault(key, [row["name"], 0])[1] += int(row["count"])
        return out

    ca, cb = counts(a), counts(b)
    added = tuple(DiffLine(cb[k][0], 0, cb[k][1]) for k in cb if k not in ca)
    removed = tuple(DiffLine(ca[k][0], ca[k][1], 0) for k in ca if k not in cb)
    changed = tuple(DiffLine(cb[k][0], ca[k][1], cb[k][1])
                    for k in cb if k in ca and ca[k][1] != cb[k][1])
    return DeckDiff(added, removed, changed)


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


def load_deck_file(session: Session, path: str | Path, *, game: str | Game | None = None
                   ) -> ResolvedDeck:
    """Read, parse and resolve a deck-list file."""
    return resolve_deck(session, read_deck_file(path), game=game)


def import_starter_decks(session: Session, data_dir: str | Path) -> int:
    """Save every ``decks/*.txt`` under ``data_dir`` whose name is not taken yet. Idempotent.

    A starter deck must be legal: any problem in any file stops the whole import with every
    problem listed. Returns how many decks were created.
    """
    root = Path(data_dir)
    folder = root / "decks" if (root / "decks").is_dir() else root
    created: list[str] = []
    problems: list[Problem] = []
    plans: list[tuple[ResolvedDeck, str, Path]] = []
    for path in sorted(folder.glob("*.txt")):
        try:
            resolved = load_deck_file(session, path)
        except DeckListError as exc:
            problems.extend(exc.problems or [Problem("unreadable", str(exc), "", path.name)])
            continue
        legality = check_deck(session, resolved)
        if not legality.legal:
            problems.extend(legality.problems)
            continue
        plans.append((resolved, resolved.name or path.stem, path))
    if problems:
        raise DeckListError(tr("decks.starter.problems", folder=folder), problems)
    for resolved, name, _path in plans:
        assert resolved.game is not None
        exists = session.exec(
            select(Deck).where(Deck.game_id == resolved.game.id, Deck.name == name)).first()
        if exists is not None:
            continue
        save_deck(session, game=resolved.game, name=name, entries=resolved,
                  description=resolved.description, note=STARTER_NOTE)
        created.append(name)
    return len(created)


def delete_deck(session: Session, deck_id: int, *, expected_version: int | None = None) -> str:
    """Delete a saved deck with its list and its whole history (editor mode only).

    With ``expected_version`` the deletion is refused when someone saved the deck since.
    Returns the name of the deleted deck.
    """
    from cardbase.access import require_editor

    require_editor(action="delete a deck")
    deck = session.get(Deck, deck_id)
    if deck is None:
        raise NotFoundError(tr("decks.lookup.no_id", id=deck_id))
    if expected_version is not None and deck.version != expected_version:
        raise StaleEditError(
            tr("decks.delete.stale", name=deck.name, version=deck.version, seen=expected_version),
            current={"version": deck.version}, attempted={"version": expected_version})
    name = deck.name
    for model in (DeckEntry, DeckVersion):
        for row in session.exec(select(model).where(model.deck_id == deck.id)).all():
            session.delete(row)
    session.flush()
    session.delete(deck)
    session.flush()
    return name
