"""Checks inside the write: the lock a write takes before it checks the rules it keeps.

A rule that protects data — a card's value within its game's declared field, a code used once,
a deck legal when saved, the version an edit started from — holds only if it is checked in the
transaction that writes, against data no other writer can change before that transaction commits.
A check made on an earlier read lets two writers each pass their own check and together break the
rule (a game narrowing ``force`` to 0..99 while a card is set to 100).

So every service that writes such data first calls :func:`lock_games` (or :func:`locked_game`),
then reads what it checks, checks, and writes:

- **SQLite** has one writer at a time for the whole file. The lock is that write lock, taken at
  once: ``BEGIN IMMEDIATE`` when no transaction is open (pysqlite opens its own transactions
  lazily, before the first write, so the reads before it saw no transaction), otherwise a write
  that changes nothing (``UPDATE game … WHERE 0``), which takes the same lock. Every read after
  it sees the last commit, and no other writer commits before ours; a writer that comes second
  waits (``busy_timeout``) and then checks against what the first one saved.
- **PostgreSQL** (and other servers): the game rows, ``SELECT … FOR UPDATE`` for a change of the
  game's own rules (its declared fields, deck rules, players) and ``FOR SHARE`` for a write that
  must follow them (a card, an import, a deck). Both wait for each other; ``FOR SHARE`` writers do
  not wait for one another. Rows are locked in id order, so two writers never wait in a circle.
  Under PostgreSQL's default READ COMMITTED every statement after the lock sees the last commit;
  objects already loaded in the session are read again (``populate_existing``).

Unique codes (games, editions) are also guarded by the database's unique indexes: a create that
loses a race anyway gets the usual "already exists" message, never an ``IntegrityError``.

:func:`before_write` marks the point between a service's checks and its write; it does nothing,
and tests replace it to hold a writer there while another one runs.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlmodel import Session

from cardbase.storage.models import Card, Game


def before_write(what: str) -> None:
    """The point between a write's checks and the write itself (``what`` names the write)."""


def _sqlite_write_lock(session: Session) -> None:
    conn = session.connection()
    raw = conn.connection.dbapi_connection
    if raw is not None and not raw.in_transaction:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    else:  # a transaction is open (maybe only reading): a write that changes nothing takes the lock
        conn.exec_driver_sql("UPDATE game SET version = version WHERE 0")


def lock_games(session: Session, game_ids: Iterable[int] | None = None, *, exclusive: bool = False) -> None:
    """Lock the games ``game_ids`` (every game when None) until the session's transaction ends.

    ``exclusive``: the write changes the games themselves (FOR UPDATE); otherwise it only relies
    on them (FOR SHARE). On SQLite both take the database's write lock.
    """
    if session.get_bind().dialect.name == "sqlite":
        _sqlite_write_lock(session)
        return
    stmt = select(Game.id).order_by(Game.id)
    if game_ids is not None:
        ids = sorted({int(i) for i in game_ids if i is not None})
        if not ids:
            return
        stmt = stmt.where(Game.id.in_(ids))
    session.execute(stmt.with_for_update(read=not exclusive)).all()


def lock_for_create(session: Session) -> None:
    """Before creating a row whose code must be new: on SQLite the write lock (the check then
    sees every code saved before); elsewhere nothing — the unique index refuses a late twin."""
    if session.get_bind().dialect.name == "sqlite":
        _sqlite_write_lock(session)


def locked_game(session: Session, game_id: int, *, exclusive: bool = False) -> Game:
    """The game ``game_id`` locked (see :func:`lock_games`) and read again from the database."""
    lock_games(session, [game_id], exclusive=exclusive)
    return session.get(Game, game_id, populate_existing=True)


def lock_cards(session: Session, card_ids: Iterable[int]) -> None:
    """Cards a write relies on (a deck's), locked FOR SHARE and read again; SQLite: the write lock."""
    ids = sorted({int(i) for i in card_ids if i is not None})
    if session.get_bind().dialect.name == "sqlite":
        _sqlite_write_lock(session)
    elif ids:
        session.execute(select(Card.id).where(Card.id.in_(ids)).order_by(Card.id)
                        .with_for_update(read=True)).all()
    if ids:
        session.execute(select(Card).where(Card.id.in_(ids))
                        .execution_options(populate_existing=True)).all()
