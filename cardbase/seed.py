"""Seeding the database from ``data/``: games, the sticker colour table, editions, starter decks.

Idempotent: only what is missing is added (a game, sticker colour, edition or deck whose code or
name already exists is left as the designers changed it), so running it on every start is safe and
new data files shipped with an upgrade appear without touching anyone's edits.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from cardbase import datafiles
from cardbase.db import DATA_DIR
from cardbase.models import Edition, Game


def seed_games(session: Session, data_dir: Path) -> int:
    path = data_dir / "games.toml"
    if not path.exists():
        return 0
    existing = set(session.exec(select(Game.code)).all())
    added = 0
    for raw in datafiles.read_toml(path).get("games", []):
        if raw["code"] in existing:
            continue
        session.add(Game(**{k: raw.get(k) for k in datafiles.GAME_KEYS if k in raw}))
        added += 1
    session.flush()
    return added


def seed_editions(session: Session, data_dir: Path) -> int:
    from cardbase.catalog import load_edition_data

    existing = {c.upper() for c in session.exec(select(Edition.code)).all()}
    added = 0
    for path in datafiles.edition_files(data_dir):
        edition, cards = datafiles.load_edition_file(path)
        if str(edition["code"]).upper() in existing:
            continue
        load_edition_data(session, edition, cards, source=path.name)
        added += 1
    return added


def seed_database(engine: Engine, data_dir: Path | None = None) -> dict[str, int]:
    """Add what is missing from ``data_dir`` (default ``data/``) in one transaction."""
    from cardbase.decks import import_starter_decks
    from cardbase.stickers import seed_colours

    data_dir = data_dir or DATA_DIR
    counts: dict[str, int] = {}
    with Session(engine, expire_on_commit=False) as session:
        counts["games"] = seed_games(session, data_dir)
        counts["sticker_colours"] = seed_colours(session)
        counts["editions"] = seed_editions(session, data_dir)
        counts["decks"] = import_starter_decks(session, data_dir)
        session.commit()
    return counts
