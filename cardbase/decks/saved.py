"""Saved decks and their versions: save with compare-and-swap, history, diffs, delete, the
starter decks of ``data/decks/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from cardbase.errors import DeckListError, NotFoundError, PermissionDenied, Problem, StaleEditError
from cardbase.i18n import tr
from cardbase.storage.models import Card, Deck, DeckEntry, DeckVersion, Edition, Game, _now
from cardbase.text import fold

from .legality import check_deck
from .lists import (
    _BAD_CHARS,
    _BAD_TEXT_CHARS,
    MAX_DECK_NAME,
    MAX_NOTE,
    STARTER_NOTE,
    DeckList,
    ResolvedDeck,
    ResolvedEntry,
    _shown,
    _storable,
    read_deck_file,
)
from .resolve import _as_resolved, _require_game, resolve_deck

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
