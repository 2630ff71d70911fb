"""The database and ``data/``: seeded once, then what ``data/`` offers is brought in on request.

**Seeding, once.** A database that was never seeded (a first run, ``cardbase init --reset``, a
database made by an older cardbase) is filled from ``data/`` at start-up, in one transaction
(:func:`cardbase.storage.db.init_db`): the games, the sticker colour table, the editions and their cards,
the starter decks. What already exists is recognised by its code (an edition by its code, a starter
deck by its game and name) and *adopted* rather than added twice. A ``seed_item`` row with
``kind="data"`` then says the database is seeded, and start-up never reads ``data/`` again: a user
who renames edition OVK to OVX, deletes a card or a starter deck, keeps it so.

**Identity.** Every row seeding creates or adopts gets an ``origin``: the key of its ``data/``
entry, which never changes afterwards — a game's code in ``games.toml`` (``overkill``), an edition's
code in its file (``OVK``), a card's reference in that file (``OVK-028``), a starter deck's file
name (``braises-ardentes``). A renamed row keeps its origin; a row that no table holds any more
was deleted by a user. For each entry a ``seed_item`` row keeps two digests: of the entry as
``data/`` wrote it (``data_hash``) and of the row it became (``db_hash``), both taken when it was
brought in. Comparing them with today's digests tells what changed in ``data/`` since, and what a
user changed (a code or a name aside: a rename is told apart).

**Offered, never forced.** :func:`status` lists what differs (new in ``data/``, changed in ``data/``,
changed by a user, deleted by a user, renamed, gone from ``data/``) and :func:`pull` brings chosen
entries in with the checks of an import (the same validation functions), all or nothing, refusing
to overwrite what a user changed or deleted unless asked (``overwrite``). ``cardbase data status``
and ``cardbase data pull`` are their commands.

Seeding never blocks start-up: a file that cannot be read, an edition that does not validate or a
starter deck that does not resolve is left out with a warning (``cardbase init`` prints them).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sqlalchemy import insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, func, select

from cardbase.storage import datafiles
from cardbase.storage.db import DATA_DIR, SEED_MARKER
from cardbase.errors import CardbaseError, Problem, ValidationError
from cardbase.i18n import tr
from cardbase.storage.models import Card, Deck, DeckEntry, Edition, Game, SeedItem

MARKER_KIND, MARKER_ORIGIN = SEED_MARKER
PULL_NOTE = "data pull"  # the note of a starter deck's version written by `data pull`
# The entries ``data status`` lists and ``data pull`` brings, in this order.
UNITS = ("game", "colour", "edition", "deck")
STATES = ("new", "data_changed", "user_changed", "conflict", "deleted", "renamed", "gone")


class SeedReport(dict):
    """Counts of what was added, by kind, and the warnings about what was left out."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.warnings: list[str] = []


def _warn(warnings: list[str] | None, message: str) -> None:
    if warnings is not None and message not in warnings:
        warnings.append(message)


def _rel(path: Path, data_dir: Path) -> str:
    try:
        return str(path.relative_to(data_dir.parent))
    except ValueError:
        return str(path)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


# --------------------------------------------------------------------------- digests

def digest(value: Any) -> str:
    """A stable digest of a plain value (dicts by sorted keys, dates as ISO text)."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _kept(values: dict[str, Any], defaults: dict[str, Any] | None = None) -> dict[str, Any]:
    """``values`` without its empty entries and its entries at their default."""
    defaults = defaults or {}
    return {k: v for k, v in values.items()
            if not datafiles._empty(v) and not (k in defaults and v == defaults[k])}


def game_form(values: dict[str, Any]) -> dict[str, Any]:
    """What a game's digest covers: everything of its games.toml entry but its code."""
    return _kept({k: v for k, v in values.items() if k in datafiles.GAME_KEYS and k != "code"})


def edition_form(values: dict[str, Any]) -> dict[str, Any]:
    """What an edition's digest covers: its ``[edition]`` table but its game and code."""
    return _kept({k: values.get(k) for k in datafiles.EDITION_KEYS if k not in ("game", "code")},
                 {"sample": False})


def card_form(values: dict[str, Any]) -> dict[str, Any]:
    """What a card's digest covers: its ``[[cards]]`` block but its number, its figures as one
    table (a declared field written as a key of its own or inside ``stats`` alike)."""
    out = {k: values.get(k) for k in datafiles.CARD_KEYS if k not in ("number", "stats")}
    out["figures"] = datafiles.figures(values)
    return _kept(out, {"copies": 1, "sample": False})


def _edition_data_form(edition: dict[str, Any], cards: list[dict[str, Any]]) -> dict[str, Any]:
    return edition_form({**edition, "set_size": edition.get("set_size", len(cards))})


def _edition_db_form(ed: Edition) -> dict[str, Any]:
    return edition_form({"name": ed.name, "date": ed.release_date, "set_size": ed.set_size,
                         "symbol": ed.symbol, "sample": ed.sample, "description": ed.description})


def _deck_data_form(deck_list: Any) -> dict[str, Any]:
    return _kept({"game": deck_list.game, "name": deck_list.name, "description": deck_list.description,
                  "lines": [[ln.count, ln.key] for ln in deck_list.lines]})


def _deck_db_form(session: Session, deck: Deck) -> dict[str, Any]:
    rows = session.exec(select(DeckEntry.card_id, DeckEntry.count).where(DeckEntry.deck_id == deck.id)).all()
    return _kept({"description": deck.description, "cards": sorted([int(c), int(n)] for c, n in rows)})


def _colour_form(row: Any) -> dict[str, Any]:
    get = row.get if isinstance(row, dict) else lambda k: getattr(row, k)
    return _kept({"symbol": get("symbol"), "label": get("label")})


def card_origin(edition_origin: str, number: int) -> str:
    return f"{edition_origin}-{number:03d}"


# --------------------------------------------------------------------------- reading data/

@dataclass
class DataSnapshot:
    """What ``data/`` holds, by origin; the files that could not be read are warnings."""

    games: dict[str, dict[str, Any]] = field(default_factory=dict)
    colours: dict[str, dict[str, str]] = field(default_factory=dict)
    editions: dict[str, tuple[Path, dict[str, Any], list[dict[str, Any]]]] = field(default_factory=dict)
    decks: dict[str, tuple[Path, Any]] = field(default_factory=dict)
    unreadable: set[tuple[str, str]] = field(default_factory=set)  # (unit, origin it would have)
    warnings: list[str] = field(default_factory=list)
    data_dir: Path = DATA_DIR


def _game_rows(data_dir: Path, warnings: list[str] | None) -> list[dict[str, Any]]:
    path = data_dir / "games.toml"
    if not path.exists():
        return []
    try:
        rows = datafiles.load_games_file(path)
    except CardbaseError as exc:
        _warn(warnings, tr("db.seed.file_unreadable", path=_rel(path, data_dir), error=exc))
        return []
    good = [r for r in rows if isinstance(r.get("code"), str) and r["code"]]
    if len(good) != len(rows):
        _warn(warnings, tr("db.seed.file_unreadable", path=_rel(path, data_dir),
                           error="[[games]] code = …"))
    return good


def _game_values(raw: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    from cardbase.catalog.gamesdata import check_declarations

    values = {k: raw.get(k) for k in datafiles.GAME_KEYS if k in raw}
    decls, problems = check_declarations(values.pop("fields", None) or [])
    values["fields"] = [d.as_dict() for d in decls]
    return values, problems


def _colour_rows(data_dir: Path, warnings: list[str] | None) -> list[dict[str, str]]:
    from cardbase.catalog import stickers

    path = data_dir / "stickers.toml"
    try:
        return stickers._file_rows(path)
    except (CardbaseError, KeyError, TypeError, ValueError, AttributeError) as exc:
        _warn(warnings, tr("db.seed.file_unreadable", path=_rel(path, data_dir), error=exc))
        return []


def _deck_folder(data_dir: Path) -> Path:
    return data_dir / "decks" if (data_dir / "decks").is_dir() else data_dir


def read_data(data_dir: Path | None = None) -> DataSnapshot:
    """Read every file of ``data_dir``; what cannot be read becomes a warning (nothing raises)."""
    from cardbase.decks import read_deck_file

    data_dir = data_dir or DATA_DIR
    snap = DataSnapshot(data_dir=data_dir)
    # A games or stickers file with a problem leaves its whole kind out of the comparison: what it
    # holds is not known, so nothing of it is said to be gone from data/.
    before = len(snap.warnings)
    for raw in _game_rows(data_dir, snap.warnings):
        snap.games.setdefault(raw["code"], raw)
    if len(snap.warnings) > before:
        snap.unreadable.add(("game", "*"))
    before = len(snap.warnings)
    for row in _colour_rows(data_dir, snap.warnings):
        snap.colours.setdefault(row["colour"], row)
    if len(snap.warnings) > before:
        snap.unreadable.add(("colour", "*"))
    for path in datafiles.edition_files(data_dir):
        try:
            edition, cards = datafiles.load_edition_file(path)
        except CardbaseError as exc:
            _warn(snap.warnings, tr("db.seed.file_unreadable", path=_rel(path, data_dir), error=exc))
            snap.unreadable.add(("edition", path.stem.upper()))
            continue
        origin = str(edition["code"]).upper()
        if origin in snap.editions:
            _warn(snap.warnings, tr("seed.same_edition_twice", path=_rel(path, data_dir), code=origin,
                                    other=_rel(snap.editions[origin][0], data_dir)))
            continue
        snap.editions[origin] = (path, edition, cards)
    for path in sorted(_deck_folder(data_dir).glob("*.txt")):
        try:
            snap.decks[path.stem] = (path, read_deck_file(path))
        except CardbaseError as exc:
            _warn(snap.warnings, tr("db.seed.file_unreadable", path=_rel(path, data_dir), error=exc))
            snap.unreadable.add(("deck", path.stem))
    return snap


# --------------------------------------------------------------------------- records

def is_seeded(session: Session) -> bool:
    return session.exec(select(SeedItem.id).where(SeedItem.kind == MARKER_KIND,
                                                  SeedItem.origin == MARKER_ORIGIN)).first() is not None


def _records(session: Session) -> dict[tuple[str, str], SeedItem]:
    return {(r.kind, r.origin): r for r in session.exec(select(SeedItem)).all()}


class _Ledger:
    """The records of one seeding: those already in the database read once, the new ones kept as
    rows and inserted in one statement at the end (:meth:`write`), in the order first recorded —
    the order, and so the ids, one insert a record gave them."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.stored = _records(session)
        self.new: dict[tuple[str, str], dict[str, Any]] = {}

    def record(self, kind: str, origin: str, data_hash: str | None, db_hash: str | None) -> None:
        row = self.stored.get((kind, origin))
        if row is None:
            self.new[(kind, origin)] = {"kind": kind, "origin": origin, "data_hash": data_hash,
                                        "db_hash": db_hash, "pulled_at": _now()}
            return
        row.data_hash, row.db_hash, row.pulled_at = data_hash, db_hash, _now()
        self.session.add(row)

    def write(self) -> None:
        if self.new:
            self.session.connection().execute(insert(SeedItem.__table__), list(self.new.values()))
            self.new.clear()


def _record(session: Session, kind: str, origin: str, data_hash: str | None, db_hash: str | None,
            ledger: _Ledger | None = None) -> None:
    """Write what ``data/`` held and what the row became (into ``ledger`` when seeding)."""
    if ledger is not None:
        ledger.record(kind, origin, data_hash, db_hash)
        return
    row = session.exec(select(SeedItem).where(SeedItem.kind == kind, SeedItem.origin == origin)).first()
    if row is None:
        row = SeedItem(kind=kind, origin=origin)
    row.data_hash, row.db_hash, row.pulled_at = data_hash, db_hash, _now()
    session.add(row)


def _by_origin(session: Session, model: Any, origin: str) -> Any:
    return session.exec(select(model).where(model.origin == origin)).first()


def _game_of(session: Session, code: str | None) -> Game | None:
    if not code:
        return None
    from cardbase.text import fold

    return session.exec(select(Game).where(Game.code == fold(code))).first()


def _game_code_now(session: Session, code: Any) -> Any:
    """The code today of the game a data file names: the game seeded from that code, though a
    user renamed it since; else the game that has the code."""
    if not isinstance(code, str) or not code:
        return code
    from cardbase.text import fold

    game = _by_origin(session, Game, fold(code))
    return game.code if game is not None else code


# --------------------------------------------------------------------------- seeding, once

def _seed_games(session: Session, snap: DataSnapshot, report: SeedReport, ledger: _Ledger) -> None:
    path = _rel(snap.data_dir / "games.toml", snap.data_dir)
    for origin, raw in snap.games.items():
        values, problems = _game_values(raw)
        game = _by_origin(session, Game, origin) or session.exec(
            select(Game).where(Game.code == origin, Game.origin.is_(None))).first()
        if game is None:
            if problems:
                _warn(report.warnings, tr("db.seed.file_unreadable", path=path,
                                          error=f"{origin}: " + "; ".join(str(p) for p in problems)))
                continue
            try:
                with session.begin_nested():
                    game = Game(**values, origin=origin)
                    session.add(game)
            except Exception as exc:  # a value of the wrong type: leave this game out, keep the rest
                _warn(report.warnings, tr("db.seed.file_unreadable", path=path,
                                          error=f"{origin}: {type(exc).__name__}"))
                continue
            report["games"] += 1
        else:
            game.origin = origin
            # A game of a database made before games declared fields (never edited since, no
            # fields) gets the declarations its entry makes.
            if not problems and not game.fields and game.version == 1 and values["fields"]:
                game.fields = values["fields"]
                if game.template is None and values.get("template"):
                    game.template = values["template"]
            session.add(game)
        session.flush()
        _record(session, "game", origin, digest(game_form(values)),
                digest(game_form(_game_file_dict(game))), ledger)


def _game_file_dict(game: Game) -> dict[str, Any]:
    from cardbase.catalog.gamesdata import game_file_dict

    return game_file_dict(game)


def _seed_colours(session: Session, snap: DataSnapshot, report: SeedReport, ledger: _Ledger) -> None:
    from cardbase.storage.models import StickerColour

    present = {r.colour: r for r in session.exec(select(StickerColour)).all()}
    for colour, row in snap.colours.items():
        stored = present.get(colour)
        if stored is None:
            stored = StickerColour(colour=colour, symbol=row["symbol"], label=row["label"])
            session.add(stored)
            report["sticker_colours"] += 1
        _record(session, "colour", colour, digest(_colour_form(row)), digest(_colour_form(stored)), ledger)
    session.flush()


def _record_edition(session: Session, origin: str, edition: dict[str, Any], cards: list[dict[str, Any]],
                    ed: Edition, ledger: _Ledger | None = None) -> None:
    """Give an edition's cards their origins and record the edition and each card of its file."""
    game = session.get(Game, ed.game_id)
    rows = {c.number: c for c in session.exec(select(Card).where(Card.edition_id == ed.id)).all()}
    taken = _origins_taken(session, Card, [card_origin(origin, raw["number"]) for raw in cards])
    for raw in cards:
        number, key = raw["number"], card_origin(origin, raw["number"])
        card = rows.get(number)
        if card is not None and card.origin is None and key not in taken:
            card.origin = key
            taken.add(key)
            session.add(card)
        db_hash = digest(card_form(_card_file_dict(card, game))) if card is not None and card.origin == key else None
        _record(session, "card", key, digest(card_form(raw)), db_hash, ledger)
    _record(session, "edition", origin, digest(_edition_data_form(edition, cards)),
            digest(_edition_db_form(ed)), ledger)
    session.flush()


def _origins_taken(session: Session, model: Any, origins: list[str], chunk: int = 500) -> set[str]:
    """Which of ``origins`` a row of ``model`` holds (a few queries, not one an origin)."""
    taken: set[str] = set()
    for i in range(0, len(origins), chunk):
        part = origins[i:i + chunk]
        taken.update(session.exec(select(model.origin).where(model.origin.in_(part))).all())
    return taken


def _card_file_dict(card: Card, game: Game | None) -> dict[str, Any]:
    from cardbase.catalog.cards import card_file_dict

    return card_file_dict(card, game)


def _seed_editions(session: Session, snap: DataSnapshot, report: SeedReport, ledger: _Ledger) -> None:
    from cardbase.catalog.cards import load_edition_data

    for origin, (path, edition, cards) in snap.editions.items():
        ed = _by_origin(session, Edition, origin) or session.exec(
            select(Edition).where(func.upper(Edition.code) == origin, Edition.origin.is_(None))).first()
        if ed is None:
            try:
                with session.begin_nested():
                    ed = load_edition_data(session, edition, cards, source=path.name)
            except CardbaseError as exc:
                _warn(report.warnings, tr("db.seed.edition_refused", path=_rel(path, snap.data_dir), error=exc))
                continue
            report["editions"] += 1
        ed.origin = origin
        session.add(ed)
        session.flush()
        _record_edition(session, origin, edition, cards, ed, ledger)


def _resolve_deck(session: Session, deck_list: Any) -> tuple[Any, list[Any]]:
    from cardbase.decks import check_deck, resolve_deck

    resolved = None
    try:
        resolved = resolve_deck(session, deck_list)
        problems = list(resolved.problems)
        if not problems:
            problems = list(check_deck(session, resolved).problems)
    except CardbaseError as exc:
        problems = list(exc.problems) or [str(exc)]
    return resolved, problems


def _seed_decks(session: Session, snap: DataSnapshot, report: SeedReport, ledger: _Ledger) -> None:
    from cardbase.decks import STARTER_NOTE, save_deck

    for origin, (path, deck_list) in snap.decks.items():
        name = deck_list.name or path.stem
        deck = _by_origin(session, Deck, origin)
        game = _game_of(session, deck_list.game)
        if deck is None and game is not None:
            deck = session.exec(select(Deck).where(Deck.game_id == game.id, Deck.name == name,
                                                   Deck.origin.is_(None))).first()
        if deck is None:
            resolved, problems = _resolve_deck(session, deck_list)
            if problems or resolved is None or resolved.game is None:
                _warn(report.warnings, tr("db.seed.deck_unresolved", name=name, path=_rel(path, snap.data_dir),
                                          problems="; ".join(str(p) for p in problems)))
                continue
            try:
                with session.begin_nested():
                    deck = save_deck(session, game=resolved.game, name=name, entries=resolved,
                                     description=resolved.description, note=STARTER_NOTE)
            except CardbaseError as exc:
                _warn(report.warnings, tr("db.seed.deck_unresolved", name=name, path=name, problems=exc))
                continue
            report["decks"] += 1
        deck.origin = origin
        session.add(deck)
        session.flush()
        _record(session, "deck", origin, digest(_deck_data_form(deck_list)), digest(_deck_db_form(session, deck)),
                ledger)


def pending(session: Session, data_dir: Path | None = None, warnings: list[str] | None = None) -> bool:
    """Whether start-up has to seed: the database was never seeded (a read: nothing is written)."""
    return not is_seeded(session)


def seed_database(bind: Engine | Connection, data_dir: Path | None = None) -> SeedReport:
    """Seed a database that never was from ``data_dir`` (default ``data/``), in one transaction;
    a seeded database is left alone (see :func:`status` and :func:`pull` for what ``data/`` offers).

    With a connection (start-up passes the one holding its lock and transaction), the session joins
    that transaction and the caller commits; with an engine, this commits.
    """
    report = SeedReport(games=0, sticker_colours=0, editions=0, decks=0)
    with Session(bind=bind, expire_on_commit=False) as session:
        if is_seeded(session):
            return report
        snap = read_data(data_dir)
        report.warnings = snap.warnings
        ledger = _Ledger(session)
        _seed_games(session, snap, report, ledger)
        _seed_colours(session, snap, report, ledger)
        _seed_editions(session, snap, report, ledger)
        _seed_decks(session, snap, report, ledger)
        _record(session, MARKER_KIND, MARKER_ORIGIN, None, None, ledger)
        ledger.write()
        session.commit()
    return report


# --------------------------------------------------------------------------- status

@dataclass
class Entry:
    """One entry of ``data/`` (or of the record) that differs from the database."""

    unit: str  # game, colour, edition, deck
    origin: str
    states: list[str]
    code: str | None = None  # its code (a deck: its name) in the database; None: not there
    file: str | None = None  # the data file that holds it
    cards: dict[str, list[int]] = field(default_factory=dict)  # an edition's cards, by state
    title: str | None = None  # a starter deck's name in its file

    @property
    def offered(self) -> bool:
        """Whether ``data pull`` has something to bring (without overwriting anything)."""
        return "new" in self.states or ("data_changed" in self.states and "conflict" not in self.states
                                         and "deleted" not in self.states)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.unit, "origin": self.origin, "code": self.code, "file": self.file,
                "states": list(self.states), "cards": {k: list(v) for k, v in self.cards.items()}}

    def label(self) -> str:
        name = self.origin if self.code is None or self.code == (self.title or self.origin) else \
            tr("seed.status.now_called", origin=self.title or self.origin, code=self.code)
        if self.title and name == self.origin:
            name = f"« {self.title} »"
        return tr(f"seed.unit.{self.unit}", name=name)


@dataclass
class Status:
    seeded: bool
    entries: list[Entry]
    unchanged: int
    warnings: list[str]
    same: list[Entry] = field(default_factory=list)  # the entries that do not differ

    def as_dict(self) -> dict[str, Any]:
        return {"seeded": self.seeded, "entries": [e.as_dict() for e in self.entries],
                "unchanged": self.unchanged, "warnings": list(self.warnings)}


def _states(rec: SeedItem | None, data_hash: str | None, db_hash: str | None, *, in_data: bool,
            in_db: bool) -> list[str]:
    """The states of one element (a game, an edition's header, a card…) from its record and
    today's digests (None: not in ``data/`` / not in the database)."""
    if rec is None:
        return ["new"] if in_data and not in_db else []
    out = []
    data_changed = in_data and data_hash != rec.data_hash
    user_changed = in_db and rec.db_hash is not None and db_hash != rec.db_hash
    if data_changed:
        out.append("data_changed")
    if user_changed:
        out.append("user_changed")
    if data_changed and user_changed:
        out.append("conflict")
    if not in_db:
        out.append("deleted")
    if not in_data:
        out.append("gone")
    return out


def _ordered(states: set[str] | list[str]) -> list[str]:
    return [s for s in STATES if s in states]


def status(session: Session, data_dir: Path | None = None, snap: DataSnapshot | None = None) -> Status:
    """What differs between ``data_dir`` and the database (a read: nothing is written)."""
    from cardbase.storage.models import StickerColour

    snap = snap or read_data(data_dir)
    records = _records(session)
    entries: list[Entry] = []

    def keys(kind: str, data: dict[str, Any]) -> list[str]:
        if (kind, "*") in snap.unreadable:
            return []
        seen = set(data) | {o for (k, o) in records if k == kind}
        return sorted(o for o in seen if (kind, o) not in snap.unreadable)

    same: list[Entry] = []

    def add(entry: Entry) -> None:
        (entries if entry.states else same).append(entry)

    games_file = _rel(snap.data_dir / "games.toml", snap.data_dir)
    for origin in keys("game", snap.games):
        raw, rec = snap.games.get(origin), records.get(("game", origin))
        game = _by_origin(session, Game, origin)
        data_hash = digest(game_form(_game_values(raw)[0])) if raw is not None else None
        db_hash = digest(game_form(_game_file_dict(game))) if game is not None else None
        states = _states(rec, data_hash, db_hash, in_data=raw is not None, in_db=game is not None)
        if game is not None and game.code != origin:
            states.append("renamed")
        add(Entry("game", origin, _ordered(states), game.code if game else None,
                  games_file if raw is not None else None))

    colours = {r.colour: r for r in session.exec(select(StickerColour)).all()}
    stickers_file = _rel(snap.data_dir / "stickers.toml", snap.data_dir)
    for origin in keys("colour", snap.colours):
        row, rec, stored = snap.colours.get(origin), records.get(("colour", origin)), colours.get(origin)
        states = _states(rec, digest(_colour_form(row)) if row else None,
                         digest(_colour_form(stored)) if stored else None,
                         in_data=row is not None, in_db=stored is not None)
        add(Entry("colour", origin, _ordered(states), origin if stored else None,
                  stickers_file if row is not None else None))

    for origin in keys("edition", snap.editions):
        add(_edition_entry(session, snap, records, origin))

    for origin in keys("deck", snap.decks):
        path, deck_list = snap.decks.get(origin, (None, None))
        rec, deck = records.get(("deck", origin)), _by_origin(session, Deck, origin)
        states = _states(rec, digest(_deck_data_form(deck_list)) if deck_list else None,
                         digest(_deck_db_form(session, deck)) if deck else None,
                         in_data=deck_list is not None, in_db=deck is not None)
        if deck is not None and deck_list is not None and deck.name != (deck_list.name or origin):
            states.append("renamed")
        add(Entry("deck", origin, _ordered(states), deck.name if deck else None,
                  _rel(path, snap.data_dir) if path else None,
                  title=(deck_list.name or origin) if deck_list is not None else None))
    return Status(is_seeded(session), entries, len(same), list(snap.warnings), same)


def _edition_entry(session: Session, snap: DataSnapshot, records: dict[tuple[str, str], SeedItem],
                   origin: str) -> Entry:
    path, edition, cards = snap.editions.get(origin, (None, None, None))
    rec, ed = records.get(("edition", origin)), _by_origin(session, Edition, origin)
    in_data = edition is not None
    states = set(_states(rec, digest(_edition_data_form(edition, cards)) if in_data else None,
                         digest(_edition_db_form(ed)) if ed else None, in_data=in_data, in_db=ed is not None))
    if rec is None and in_data and ed is None:
        states = {"new"}
    by_card: dict[str, list[int]] = {}
    if ed is not None and rec is not None:
        game = session.get(Game, ed.game_id)
        data_cards = {c["number"]: c for c in cards or []}
        prefix = origin + "-"
        numbers = set(data_cards) | {int(o[len(prefix):]) for (k, o) in records
                                     if k == "card" and o.startswith(prefix) and o[len(prefix):].isdigit()}
        rows = {c.origin: c for c in session.exec(select(Card).where(Card.origin.is_not(None),
                                                                     Card.edition_id == ed.id)).all()}
        for number in sorted(numbers):
            key = card_origin(origin, number)
            raw, card = data_cards.get(number), rows.get(key) or _by_origin(session, Card, key)
            card_states = _states(records.get(("card", key)),
                                  digest(card_form(raw)) if raw is not None else None,
                                  digest(card_form(_card_file_dict(card, game))) if card is not None else None,
                                  in_data=raw is not None, in_db=card is not None)
            for state in card_states:
                by_card.setdefault(state, []).append(number)
        for state in ("new", "data_changed"):
            if by_card.get(state):
                states.add("data_changed")
        for state in ("user_changed", "deleted"):
            if by_card.get(state):
                states.add("user_changed")
        if by_card.get("conflict"):
            states.add("conflict")
        by_card.pop("gone", None)
    if ed is not None and ed.code.upper() != origin:
        states.add("renamed")
    return Entry("edition", origin, _ordered(states), ed.code if ed else None,
                 _rel(path, snap.data_dir) if path else None, by_card)


# --------------------------------------------------------------------------- pull

@dataclass
class PullReport:
    brought: list[Entry]
    skipped: list[Entry]  # named, with nothing new in data/
    dry_run: bool
    left: list[Entry] = field(default_factory=list)  # left out by --all: a user's change is in the way

    def as_dict(self) -> dict[str, Any]:
        return {"dry_run": self.dry_run, "brought": [e.as_dict() for e in self.brought],
                "skipped": [e.as_dict() for e in self.skipped], "left": [e.as_dict() for e in self.left]}


def _matches(entry: Entry, token: str) -> bool:
    t = token.strip().casefold()
    return t in {entry.origin.casefold(), (entry.code or "").casefold(), (entry.title or "").casefold()} or (
        entry.file is not None and Path(entry.file).stem.casefold() == t)


def select_entries(st: Status, selection: list[str], *, everything: bool, overwrite: bool
                   ) -> tuple[list[Entry], list[Entry], list[Entry], list[Problem]]:
    """The entries to bring, those named that have nothing to bring, those ``everything`` leaves
    out to keep a user's change (changed on both sides, or deleted and changed in ``data/`` since),
    and the problems (an unknown name; a user's change or deletion in the way of a named entry
    without ``overwrite``)."""
    problems: list[Problem] = []
    chosen: list[Entry] = []
    left: list[Entry] = []
    if everything:
        for e in st.entries:
            mine = "gone" not in e.states and bool({"conflict", "deleted", "user_changed"} & set(e.states))
            if e.offered or (overwrite and mine):
                chosen.append(e)
            elif mine and "data_changed" in e.states:
                left.append(e)
    for token in selection:
        found = [e for e in st.entries + st.same if _matches(e, token)]
        if not found:
            problems.append(Problem("unknown", tr("seed.pull.unknown", name=token),
                                    tr("seed.pull.unknown_fix")))
        for e in found:
            if e not in chosen:
                chosen.append(e)
    take, skip = [], []
    for e in chosen:
        bring = {"new", "data_changed", "deleted"} | ({"user_changed"} if overwrite else set())
        if "gone" in e.states or not (bring & set(e.states)):
            skip.append(e)
            continue
        if "deleted" in e.states and not overwrite:
            problems.append(Problem("deleted", tr("seed.pull.deleted", what=e.label()),
                                    tr("seed.pull.deleted_fix"), e.file or ""))
            continue
        if "conflict" in e.states and not overwrite:
            cards = ", ".join(str(n) for n in e.cards.get("conflict", []))
            problems.append(Problem("conflict", tr("seed.pull.conflict", what=e.label()) + (
                tr("seed.pull.conflict_cards", numbers=cards) if cards else ""),
                tr("seed.pull.conflict_fix"), e.file or ""))
            continue
        take.append(e)
    return take, skip, left, problems


def pull(session: Session, selection: list[str] | None = None, *, everything: bool = False,
         overwrite: bool = False, dry_run: bool = False, data_dir: Path | None = None) -> PullReport:
    """Bring the chosen entries of ``data_dir`` into the database, all or nothing.

    ``selection``: codes (a game's, an edition's — as in ``data/`` or as renamed —, a starter
    deck's name or file name, a sticker colour); ``everything``: every entry ``data/`` offers.
    What a user changed or deleted is overwritten or brought back only with ``overwrite``. Every
    problem is raised at once (:class:`ValidationError`) and nothing is written; ``dry_run`` checks
    and writes as a pull would, then rolls back.
    """
    from cardbase.access import require_editor

    if not dry_run:
        require_editor(action="bring data/ changes in")
    selection = list(selection or [])
    if not selection and not everything:
        raise ValidationError(tr("seed.pull.nothing_chosen"),
                              [Problem("nothing-chosen", tr("seed.pull.nothing_chosen_detail"),
                                       tr("seed.pull.nothing_chosen_fix"))])
    snap = read_data(data_dir)
    st = status(session, snap=snap)
    take, skip, left, problems = select_entries(st, selection, everything=everything, overwrite=overwrite)
    if problems:
        raise ValidationError(tr("seed.pull.refused", count=len(problems)), problems)
    records = _records(session)
    take.sort(key=lambda e: UNITS.index(e.unit))  # a game before its editions, cards before decks
    # No savepoint per entry: on SQLite a savepoint opened before any write is the outermost
    # transaction and its release would commit. One entry refused refuses the whole pull anyway.
    try:
        for entry in take:
            try:
                _BRING[entry.unit](session, snap, records, entry, overwrite)
            except CardbaseError as exc:
                problems += [Problem(p.code, p.message, p.fix, f"{entry.label()}, {p.where}" if p.where
                                     else entry.label()) for p in exc.problems] \
                    or [Problem("refused", str(exc), "", entry.label())]
        if problems:
            raise ValidationError(tr("seed.pull.refused", count=len(problems)), problems)
        session.flush()
    except IntegrityError:  # another pull (or an edit) wrote the same code or entry meanwhile
        session.rollback()
        raise ValidationError(tr("seed.pull.refused", count=1), [Problem(
            "meanwhile", tr("seed.pull.written_meanwhile"), tr("seed.pull.card_saved_meanwhile_fix"))]) from None
    if dry_run:
        session.rollback()
    return PullReport(take, skip, dry_run, left)


def _bring_game(session: Session, snap: DataSnapshot, records: dict, entry: Entry, overwrite: bool) -> None:
    from cardbase.catalog.gamesdata import GAME_FIELDS, new_game_problems, update_game

    raw = snap.games[entry.origin]
    values, problems = _game_values(raw)
    if problems:
        raise ValidationError(tr("seed.pull.entry_problems", what=entry.label()), problems)
    game = _by_origin(session, Game, entry.origin)
    if game is None:
        clean, problems = new_game_problems(session, **{k: v for k, v in values.items()
                                                        if k in GAME_FIELDS or k == "code"})
        if problems:
            raise ValidationError(tr("seed.pull.entry_problems", what=entry.label()), problems)
        game = Game(**clean, origin=entry.origin)
        session.add(game)
        session.flush()
    else:
        changes = {k: values.get(k, {} if k == "keyword_limits" else [] if k == "fields" else None)
                   for k in GAME_FIELDS}
        game = update_game(session, code=game.code, expected_version=game.version, changes=changes)
    _record(session, "game", entry.origin, digest(game_form(values)), digest(game_form(_game_file_dict(game))))


def _bring_colour(session: Session, snap: DataSnapshot, records: dict, entry: Entry, overwrite: bool) -> None:
    from cardbase.storage.models import StickerColour

    row = snap.colours[entry.origin]
    stored = session.exec(select(StickerColour).where(StickerColour.colour == entry.origin)).first()
    if stored is None:
        stored = StickerColour(colour=entry.origin, symbol=row["symbol"], label=row["label"])
    else:
        stored.symbol, stored.label = row["symbol"], row["label"]
    session.add(stored)
    session.flush()
    _record(session, "colour", entry.origin, digest(_colour_form(row)), digest(_colour_form(stored)))


def _bring_edition(session: Session, snap: DataSnapshot, records: dict, entry: Entry, overwrite: bool) -> None:
    from cardbase.catalog.cards import load_edition_data

    path, edition, cards = snap.editions[entry.origin]
    ed = _by_origin(session, Edition, entry.origin)
    if ed is None:
        ed = load_edition_data(session, {**edition, "game": _game_code_now(session, edition["game"])},
                               cards, source=path.name)
        ed.origin = entry.origin
        session.add(ed)
        rows = session.exec(select(Card).where(Card.edition_id == ed.id)).all()
        for card in rows:
            card.origin = card_origin(entry.origin, card.number)
            session.add(card)
        session.flush()
        _record_edition(session, entry.origin, edition, cards, ed)
        return
    _update_edition(session, records, entry, ed, edition, cards, path, overwrite)


def _changed(rec: SeedItem | None, data_form: dict[str, Any], db_form: dict[str, Any] | None,
             overwrite: bool) -> bool:
    """Whether an element already in the database takes the version of ``data/``: it changed
    there since it was brought in, or (``overwrite``) a user changed it."""
    if rec is None or digest(data_form) != rec.data_hash:
        return True
    return overwrite and db_form is not None and rec.db_hash is not None and digest(db_form) != rec.db_hash


CARD_COLUMNS = ("name", "value", "colour", "banner", "rarity", "card_type", "keywords", "effect",
                "effect_text", "flavour", "art", "copies", "stats", "sample", "name_key", "text_key",
                "colour_key", "banner_key", "rarity_key", "type_key", "keywords_key")


def _update_edition(session: Session, records: dict, entry: Entry, ed: Edition, edition: dict[str, Any],
                    cards: list[dict[str, Any]], path: Path, overwrite: bool) -> None:
    """Bring a changed edition file into the edition seeded from it: its header and every card
    new or changed in the file; with ``overwrite`` also what a user changed or deleted. A code the
    user gave the edition is kept. Cards are rewritten only if nobody saved them meanwhile."""
    from sqlalchemy import update

    from cardbase.catalog.cards import _number_taken, apply_keys, file_card_values, update_edition

    game = session.get(Game, ed.game_id)
    header = _edition_data_form(edition, cards)
    problems: list[Problem] = []
    if _changed(records.get(("edition", entry.origin)), header, _edition_db_form(ed), overwrite):
        changes = {"name": edition.get("name"), "release_date": edition.get("date"),
                   "set_size": edition.get("set_size", len(cards)), "symbol": edition.get("symbol"),
                   "description": edition.get("description"), "sample": bool(edition.get("sample", False))}
        try:
            ed = update_edition(session, ed.code, expected_version=ed.version, changes=changes)
        except CardbaseError as exc:
            problems += exc.problems or [Problem("refused", str(exc))]
    touched: list[tuple[dict[str, Any], str]] = []
    for i, raw in enumerate(cards, start=1):
        key = card_origin(entry.origin, raw["number"])
        card_rec, card = records.get(("card", key)), _by_origin(session, Card, key)
        if card is None and card_rec is not None and not overwrite:
            continue  # deleted by a user: stays deleted
        if card is not None and not _changed(card_rec, card_form(raw),
                                             card_form(_card_file_dict(card, game)), overwrite):
            continue
        clean, probs = file_card_values(game, raw, where=tr("catalog.where_card", source=path.name, index=i))
        problems += probs
        if probs:
            continue
        if card is None:
            problems += _number_taken(session, ed, raw["number"])
            session.add(apply_keys(Card(edition_id=ed.id, origin=key, **clean)))
        else:
            fresh = apply_keys(Card(edition_id=ed.id, **clean))
            done = session.execute(
                update(Card).where(Card.id == card.id, Card.version == card.version)
                .values(**{c: getattr(fresh, c) for c in CARD_COLUMNS}, version=card.version + 1,
                        updated_at=_now()).execution_options(synchronize_session=False))
            if done.rowcount != 1:
                problems.append(Problem("stale", tr("seed.pull.card_saved_meanwhile", number=raw["number"]),
                                        tr("seed.pull.card_saved_meanwhile_fix"), path.name))
            session.expire(card)
        touched.append((raw, key))
    if problems:
        raise ValidationError(tr("catalog.file_problems", source=path.name, count=len(problems)), problems)
    session.flush()
    for raw, key in touched:
        card = _by_origin(session, Card, key)
        _record(session, "card", key, digest(card_form(raw)), digest(card_form(_card_file_dict(card, game))))
    session.refresh(ed)
    _record(session, "edition", entry.origin, digest(header), digest(_edition_db_form(ed)))


def _bring_deck(session: Session, snap: DataSnapshot, records: dict, entry: Entry, overwrite: bool) -> None:
    from cardbase.decks import STARTER_NOTE, save_deck

    _path, deck_list = snap.decks[entry.origin]
    resolved, problems = _resolve_deck(session, replace(deck_list, game=_game_code_now(session, deck_list.game)))
    if problems or resolved is None or resolved.game is None:
        raise ValidationError(tr("seed.pull.entry_problems", what=entry.label()),
                              [p if isinstance(p, Problem) else Problem("deck", str(p)) for p in problems])
    deck = _by_origin(session, Deck, entry.origin)
    if deck is None:
        deck = save_deck(session, game=resolved.game, name=deck_list.name or entry.origin, entries=resolved,
                         description=resolved.description, note=STARTER_NOTE)
        deck.origin = entry.origin
        session.add(deck)
    else:
        deck = save_deck(session, game=session.get(Game, deck.game_id), name=deck.name,
                         entries=resolved, expected_version=deck.version, description=resolved.description,
                         note=PULL_NOTE)
    session.flush()
    _record(session, "deck", entry.origin, digest(_deck_data_form(deck_list)), digest(_deck_db_form(session, deck)))


_BRING = {"game": _bring_game, "colour": _bring_colour, "edition": _bring_edition, "deck": _bring_deck}
