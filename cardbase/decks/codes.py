"""Deck codes: a deck as a short text to share (:func:`encode_deck_code`, :func:`decode_deck_code`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from cardbase.errors import DeckListError, Problem
from cardbase.i18n import tr
from cardbase.storage.models import Card, Game
from cardbase.text import card_ref, parse_card_ref

from .lists import MAX_CODE_CHARS, MAX_COUNT, MAX_LINES, DeckLine, DeckList, ResolvedDeck
from .resolve import _as_resolved, _load_catalog, get_game

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
