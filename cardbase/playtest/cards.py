"""Decks as lists of :class:`CardDef` without the database (tests, benchmarks, data files).

The command line resolves decks through the database when one is set up; these helpers read the
edition TOML files under ``data/editions`` and the deck lists under ``data/decks`` directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from cardbase.storage.datafiles import figures, load_edition_file
from cardbase.domain import CardDef
from cardbase.errors import DeckListError, Problem
from cardbase.i18n import tr
from cardbase.text import canonical_colour, card_ref, fold

DATA_DIR = Path(__file__).resolve().parents[2] / "data"


def card_def_from_dict(edition: Mapping[str, Any], card: Mapping[str, Any], *, id: int = 0) -> CardDef:
    """The CardDef of one ``[[cards]]`` table of an edition file."""
    stats = figures(dict(card))  # the stats table and the game's declared fields
    return CardDef(
        id=id,
        game=str(edition.get("game", "")),
        edition=str(edition.get("code", "")),
        number=int(card["number"]),
        set_size=int(edition.get("set_size") or 0),
        name=str(card["name"]),
        value=card.get("value"),
        colour=canonical_colour(card["colour"]) if card.get("colour") else None,
        banner=card.get("banner"),
        rarity=card.get("rarity"),
        card_type=card.get("type"),
        keywords=tuple(card.get("keywords") or ()),
        effect=card.get("effect"),
        effect_text=card.get("effect_text"),
        flavour=card.get("flavour"),
        art=card.get("art"),
        copies=int(card["copies"]) if card.get("copies") is not None else 1,  # 0 stays 0
        stats=tuple(sorted(stats.items())),
        sample=bool(card.get("sample", False)),
    )


def load_edition_defs(paths: Iterable[Path]) -> list[CardDef]:
    """Every card of the given edition files as CardDef values (ids are 1-based, file order)."""
    out: list[CardDef] = []
    for path in paths:
        edition, cards = load_edition_file(Path(path))
        for card in cards:
            out.append(card_def_from_dict(edition, card, id=len(out) + 1))
    return out


def figures_of(cards: Iterable[CardDef], code: str) -> set[str] | None:
    """The figures (stats) of the game ``code``'s cards among ``cards``; None when none is of it."""
    mine = [c for c in cards if c.game == code]
    return {k for c in mine for k, _ in c.stats} if mine else None


def edition_figures(paths: Iterable[Path | str] | None = None):
    """For the rules checker (``card_fields``): a game's code -> the figures of its cards in the
    edition files ``paths`` (by default the project's ``data/editions``, where a broken file is
    passed over: its own check says why), None when no edition has the game."""
    given = [Path(p) for p in paths] if paths else None

    def fields(code: str) -> set[str] | None:
        from cardbase.errors import CardbaseError

        cards: list[CardDef] = []
        for path in given or sorted((DATA_DIR / "editions").glob("*.toml")):
            try:
                cards += load_edition_defs([path])
            except CardbaseError:
                if given:
                    raise
        return figures_of(cards, code)

    return fields


def _parse_lines(text: str, source: str) -> list[tuple[int, int, str]]:
    try:
        from cardbase.decks import parse_deck_list
    except ImportError:  # pragma: no cover - the deck module ships with cardbase
        parse_deck_list = None
    if parse_deck_list is not None:
        dl = parse_deck_list(text, source=source)
        return [(ln.line, ln.count, ln.key) for ln in dl.lines]
    rows = []
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head, _, rest = line.partition(" ")
        if head.rstrip("xX").isdigit() and rest.strip():
            rows.append((i, int(head.rstrip("xX")), fold(rest)))
        else:
            rows.append((i, 1, fold(line)))
    return rows


def deck_from_text(text: str, cards: Iterable[CardDef], *, source: str = "<deck>") -> list[CardDef]:
    """Resolve a deck list against ``cards`` by name or collector reference; every bad line reported."""
    pool = list(cards)
    by_key: dict[str, CardDef] = {}
    for c in pool:
        by_key.setdefault(fold(c.name), c)
        by_key.setdefault(card_ref(c.edition, c.number), c)
    deck: list[CardDef] = []
    problems: list[Problem] = []
    for line, count, key in _parse_lines(text, source):
        card = by_key.get(key) or by_key.get(key.upper())
        if card is None:
            problems.append(Problem("unknown-card", tr("engine.deck.unknown_card", name=key),
                                    tr("engine.deck.unknown_card_fix"),
                                    tr("engine.deck.where_line", source=source, line=line)))
            continue
        deck.extend([card] * count)
    if problems:
        raise DeckListError(tr("engine.deck.not_found", source=source, count=len(problems)), problems)
    return deck


def load_deck_defs(deck_path: Path | str, edition_paths: Iterable[Path | str] | None = None) -> list[CardDef]:
    """A deck list file resolved against edition files (default: every file of ``data/editions``)."""
    deck_path = Path(deck_path)
    if edition_paths is None:
        edition_paths = sorted((DATA_DIR / "editions").glob("*.toml"))
    pool = load_edition_defs(Path(p) for p in edition_paths)
    try:
        text = deck_path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DeckListError(tr("engine.deck.no_file", path=deck_path)) from None
    return deck_from_text(text, pool, source=str(deck_path))


def starter_decks() -> dict[str, Path]:
    """The starter deck files shipped in ``data/decks`` by name (file stem)."""
    return {p.stem: p for p in sorted((DATA_DIR / "decks").glob("*.txt"))}


def make_card(name: str, value: int, *, colour: str | None = None, banner: str | None = None,
              keywords: tuple[str, ...] = (), effect: str | None = None, number: int = 0,
              id: int = 0) -> CardDef:
    """A NesPanini card for tests and examples."""
    return CardDef(id=id, game="nespanini", edition="TST", number=number, set_size=0, name=name,
                   value=value, colour=colour, banner=banner, keywords=keywords, effect=effect)
