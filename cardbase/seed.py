"""Seeding the database from ``data/``: games, the sticker colour table, editions, starter decks.

Idempotent: only what is missing is added (a game, sticker colour, edition or deck whose code or
name already exists is left as the designers changed it), so running it on every start is safe and
new data files shipped with an upgrade appear without touching anyone's edits.

Seeding never blocks start-up. What already exists is recognised *before* its file is checked
(an edition by its code — the file name first —, a starter deck by its game and name), so a card
renamed after its starter deck was saved changes nothing here: the saved deck refers to the card by
identity and shows the new name. A file that cannot be read, an edition that does not validate or
a starter deck that does not resolve is left out with a warning (``cardbase init`` prints them);
everything else is added, in one transaction (:func:`cardbase.db.init_db`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session, select

from cardbase import datafiles
from cardbase.db import DATA_DIR
from cardbase.errors import CardbaseError
from cardbase.i18n import tr
from cardbase.models import Deck, Edition, Game


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


# --------------------------------------------------------------------------- games

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


def _missing_games(session: Session, data_dir: Path, warnings: list[str] | None) -> list[dict[str, Any]]:
    existing = set(session.exec(select(Game.code)).all())
    return [r for r in _game_rows(data_dir, warnings) if r["code"] not in existing]


def _undeclared_games(session: Session, data_dir: Path, warnings: list[str] | None
                      ) -> list[tuple[Game, dict[str, Any]]]:
    """Games of a database made before games declared fields (never edited since, no fields)
    whose file declares fields: their declarations are what is missing."""
    rows = {r["code"]: r for r in _game_rows(data_dir, warnings) if r.get("fields")}
    if not rows:
        return []
    games = session.exec(select(Game).where(Game.code.in_(list(rows)), Game.version == 1)).all()
    return [(g, rows[g.code]) for g in games if not g.fields]


def _game_values(raw: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    from cardbase.gamesdata import check_declarations

    values = {k: raw.get(k) for k in datafiles.GAME_KEYS if k in raw}
    decls, problems = check_declarations(values.pop("fields", None) or [])
    values["fields"] = [d.as_dict() for d in decls]
    return values, problems


def seed_games(session: Session, data_dir: Path, warnings: list[str] | None = None) -> int:
    added = 0
    path = _rel(data_dir / "games.toml", data_dir)
    for raw in _missing_games(session, data_dir, warnings):
        values, problems = _game_values(raw)
        if problems:
            _warn(warnings, tr("db.seed.file_unreadable", path=path,
                               error=f"{raw['code']}: " + "; ".join(str(p) for p in problems)))
            continue
        try:
            with session.begin_nested():
                session.add(Game(**values))
        except Exception as exc:  # a value of the wrong type: leave this game out, keep the rest
            _warn(warnings, tr("db.seed.file_unreadable", path=path,
                               error=f"{raw['code']}: {type(exc).__name__}"))
            continue
        added += 1
    for game, raw in _undeclared_games(session, data_dir, warnings):
        values, problems = _game_values(raw)
        if not problems:
            game.fields = values["fields"]
            if game.template is None and values.get("template"):
                game.template = values["template"]
            session.add(game)
    return added


# --------------------------------------------------------------------------- sticker colours

def _colour_rows(data_dir: Path, warnings: list[str] | None) -> list[dict[str, str]]:
    from cardbase import stickers

    path = data_dir / "stickers.toml"
    try:
        return stickers._file_rows(path)
    except (CardbaseError, KeyError, TypeError, ValueError, AttributeError) as exc:
        _warn(warnings, tr("db.seed.file_unreadable", path=_rel(path, data_dir), error=exc))
        return []


def _missing_colours(session: Session, data_dir: Path, warnings: list[str] | None
                     ) -> list[dict[str, str]]:
    from cardbase import stickers

    present = set(stickers.colour_table(session))
    out, seen = [], set()
    for row in _colour_rows(data_dir, warnings):
        if row["colour"] in present or row["colour"] in seen:
            continue
        seen.add(row["colour"])
        out.append(row)
    return out


def seed_colours(session: Session, data_dir: Path, warnings: list[str] | None = None) -> int:
    from cardbase.models import StickerColour

    rows = _missing_colours(session, data_dir, warnings)
    for row in rows:
        session.add(StickerColour(colour=row["colour"], symbol=row["symbol"], label=row["label"]))
    if rows:
        session.flush()
    return len(rows)


# --------------------------------------------------------------------------- editions

def _missing_editions(session: Session, data_dir: Path, warnings: list[str] | None
                      ) -> list[tuple[Path, dict[str, Any], list[dict[str, Any]]]]:
    existing = {c.upper() for c in session.exec(select(Edition.code)).all()}
    out = []
    for path in datafiles.edition_files(data_dir):
        if path.stem.upper() in existing:  # NP1.toml holds NP1: known without reading the file
            continue
        try:
            edition, cards = datafiles.load_edition_file(path)
        except CardbaseError as exc:
            _warn(warnings, tr("db.seed.file_unreadable", path=_rel(path, data_dir), error=exc))
            continue
        if str(edition["code"]).upper() in existing:
            continue
        out.append((path, edition, cards))
    return out


def seed_editions(session: Session, data_dir: Path, warnings: list[str] | None = None) -> int:
    from cardbase.catalog import load_edition_data

    added = 0
    for path, edition, cards in _missing_editions(session, data_dir, warnings):
        try:
            with session.begin_nested():
                load_edition_data(session, edition, cards, source=path.name)
        except CardbaseError as exc:
            _warn(warnings, tr("db.seed.edition_refused", path=_rel(path, data_dir), error=exc))
            continue
        added += 1
    return added


# --------------------------------------------------------------------------- starter decks

def _deck_folder(data_dir: Path) -> Path:
    return data_dir / "decks" if (data_dir / "decks").is_dir() else data_dir


def _missing_decks(session: Session, data_dir: Path, warnings: list[str] | None) -> list[tuple[Any, str]]:
    """Starter decks whose name is not taken yet in their game, resolved and legal.

    Whether a deck exists is looked at before its list is checked against the cards: a saved
    deck is never re-checked (its cards may have been renamed since; it refers to them by id).
    """
    from cardbase.decks import check_deck, get_game, read_deck_file, resolve_deck

    out: list[tuple[Any, str]] = []
    for path in sorted(_deck_folder(data_dir).glob("*.txt")):
        try:
            deck_list = read_deck_file(path)
        except CardbaseError as exc:
            _warn(warnings, tr("db.seed.file_unreadable", path=_rel(path, data_dir), error=exc))
            continue
        name = deck_list.name or path.stem
        game = get_game(session, deck_list.game) if deck_list.game else None
        if game is not None and _deck_exists(session, game.id, name):
            continue
        resolved = None
        try:
            resolved = resolve_deck(session, deck_list)
            problems = list(resolved.problems)
            if not problems:
                problems = list(check_deck(session, resolved).problems)
        except CardbaseError as exc:
            problems = list(exc.problems) or [str(exc)]
        if resolved is not None and resolved.game is not None and _deck_exists(session, resolved.game.id, name):
            continue
        if problems or resolved is None:
            _warn(warnings, tr("db.seed.deck_unresolved", name=name, path=_rel(path, data_dir),
                               problems="; ".join(str(p) for p in problems)))
            continue
        out.append((resolved, name))
    return out


def _deck_exists(session: Session, game_id: int, name: str) -> bool:
    return session.exec(select(Deck.id).where(Deck.game_id == game_id, Deck.name == name)).first() is not None


def seed_decks(session: Session, data_dir: Path, warnings: list[str] | None = None) -> int:
    from cardbase.decks import save_deck

    added = 0
    for resolved, name in _missing_decks(session, data_dir, warnings):
        try:
            with session.begin_nested():
                save_deck(session, game=resolved.game, name=name, entries=resolved,
                          description=resolved.description, note="starter deck")
        except CardbaseError as exc:
            _warn(warnings, tr("db.seed.deck_unresolved", name=name, path=name, problems=exc))
            continue
        added += 1
    return added


# --------------------------------------------------------------------------- together

def pending(session: Session, data_dir: Path | None = None, warnings: list[str] | None = None) -> bool:
    """Whether seeding would add anything (a read: nothing is written)."""
    data_dir = data_dir or DATA_DIR
    return bool(_missing_games(session, data_dir, warnings)
                or _undeclared_games(session, data_dir, warnings)
                or _missing_colours(session, data_dir, warnings)
                or _missing_editions(session, data_dir, warnings)
                or _missing_decks(session, data_dir, warnings))


def seed_database(bind: Engine | Connection, data_dir: Path | None = None) -> SeedReport:
    """Add what is missing from ``data_dir`` (default ``data/``) in one transaction.

    With a connection (start-up passes the one holding its lock and transaction), the session joins
    that transaction and the caller commits; with an engine, this commits.
    """
    data_dir = data_dir or DATA_DIR
    report = SeedReport()
    with Session(bind=bind, expire_on_commit=False) as session:
        report["games"] = seed_games(session, data_dir, report.warnings)
        report["sticker_colours"] = seed_colours(session, data_dir, report.warnings)
        report["editions"] = seed_editions(session, data_dir, report.warnings)
        report["decks"] = seed_decks(session, data_dir, report.warnings)
        session.commit()
    return report
