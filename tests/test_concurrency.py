"""Concurrent editors on real concurrent connections, SQLite and PostgreSQL alike.

Each editor is a thread with its own Session (its own database connection). A barrier makes them
read first and write at the same moment, so the database — not the test — decides who wins.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from sqlmodel import Session, select

from cardbase import decks
from cardbase.catalog import cards as catalog
from cardbase.storage import db
from cardbase.errors import CardbaseError, StaleEditError, ValidationError
from cardbase.storage.models import Card, Deck, DeckEntry, DeckVersion

EDITORS = 2


def _race(n: int, work: Callable[[int, threading.Barrier], Any]) -> list[Any]:
    """Run ``work(i, barrier)`` in ``n`` threads; results or raised exceptions, in order."""
    barrier = threading.Barrier(n, timeout=30)
    results: list[Any] = [None] * n

    def run(i: int) -> None:
        try:
            results[i] = work(i, barrier)
        except BaseException as exc:
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "an editor is stuck (deadlock?)"
    return results


def test_two_editors_same_card_second_save_refused(engine):
    with Session(engine) as s:
        card = catalog.get_card(s, "NP1-001")
        card_id, start, original = card.id, card.version, card.flavour

    def edit(i: int, barrier: threading.Barrier) -> int:
        with Session(engine, expire_on_commit=False) as s:
            seen = s.get(Card, card_id)
            assert seen.version == start
            barrier.wait()  # both editors have read version `start`; now both save
            try:
                saved = catalog.update_card(s, card_id, expected_version=seen.version,
                                            changes={"flavour": f"texte de l'éditeur {i}"})
                s.commit()
                return saved.version
            except BaseException:
                s.rollback()
                raise

    results = _race(EDITORS, edit)
    wins = [r for r in results if isinstance(r, int)]
    losses = [r for r in results if isinstance(r, BaseException)]
    assert wins == [start + 1], results
    assert len(losses) == 1 and isinstance(losses[0], StaleEditError), results
    loser = results.index(losses[0])
    winner = 1 - loser
    message = str(losses[0])
    # The refusal shows both versions: what is saved now, and what this editor tried.
    assert f"version {start + 1}" in message and f"vous modifiiez la version {start}" in message
    assert f"enregistré 'texte de l'éditeur {winner}'" in message.replace('"', "'")
    assert f"le vôtre 'texte de l'éditeur {loser}'" in message.replace('"', "'")
    assert losses[0].current["flavour"] == f"texte de l'éditeur {winner}"
    assert losses[0].attempted == {"flavour": f"texte de l'éditeur {loser}"}
    with Session(engine) as s:
        final = s.get(Card, card_id)
        assert (final.version, final.flavour) == (start + 1, f"texte de l'éditeur {winner}")
        assert final.flavour != original


def test_many_editors_one_card_no_lost_update(engine):
    """Editors who retry after a refusal all land, one after the other, none overwritten."""
    with Session(engine) as s:
        card_id = catalog.get_card(s, "NP1-002").id
    per_editor = 3

    def edit(i: int, barrier: threading.Barrier) -> int:
        barrier.wait()
        refused = 0
        for k in range(per_editor):
            while True:
                with Session(engine, expire_on_commit=False) as s:
                    card = s.get(Card, card_id)
                    tags = list(card.keywords or [])
                    try:
                        catalog.update_card(s, card_id, expected_version=card.version,
                                            changes={"keywords": [*tags, f"e{i}k{k}"]})
                        s.commit()
                        break
                    except StaleEditError:
                        s.rollback()
                        refused += 1
        return refused

    editors = 3
    results = _race(editors, edit)
    assert all(isinstance(r, int) for r in results), results
    with Session(engine) as s:
        card = s.get(Card, card_id)
        added = [k for k in card.keywords if k.startswith("e")]
    # Every editor's every change is there: a read-modify-write never lost another's write.
    assert sorted(added) == sorted(f"e{i}k{k}" for i in range(editors) for k in range(per_editor))


def _deck(n: int) -> decks.DeckList:
    return decks.parse_deck_list(f"{n} NP1-001\n1 NP1-002\n")


def test_two_editors_same_deck_no_version_lost(engine):
    with db.session_scope(engine) as s:
        deck = decks.save_deck(s, game="nespanini", name="Course", entries=_deck(1), note="départ")
        deck_id, start = deck.id, deck.version

    def save(i: int, barrier: threading.Barrier) -> int:
        with Session(engine, expire_on_commit=False) as s:
            current = s.get(Deck, deck_id)
            barrier.wait()
            try:
                saved = decks.save_deck(s, game="nespanini", name="Course", entries=_deck(2),
                                        expected_version=current.version, note=f"éditeur {i}")
                s.commit()
                return saved.version
            except BaseException:
                s.rollback()
                raise

    results = _race(EDITORS, save)
    wins = [r for r in results if isinstance(r, int)]
    losses = [r for r in results if isinstance(r, BaseException)]
    assert wins == [start + 1], results
    assert len(losses) == 1 and isinstance(losses[0], StaleEditError), results
    assert f"version {start}" in str(losses[0]) or "someone else" in str(losses[0])
    with Session(engine) as s:
        history = s.exec(select(DeckVersion).where(DeckVersion.deck_id == deck_id)
                         .order_by(DeckVersion.number)).all()
        assert [v.number for v in history] == [start, start + 1]
        assert history[0].note == "départ"
        assert s.get(Deck, deck_id).version == start + 1


def test_many_deck_saves_keep_every_version(engine):
    with db.session_scope(engine) as s:
        deck_id = decks.save_deck(s, game="nespanini", name="Histoire", entries=_deck(1)).id
    editors, per_editor = 3, 3

    def save(i: int, barrier: threading.Barrier) -> int:
        barrier.wait()
        for k in range(per_editor):
            while True:
                with Session(engine, expire_on_commit=False) as s:
                    version = s.get(Deck, deck_id).version
                    try:
                        decks.save_deck(s, game="nespanini", name="Histoire", entries=_deck(1 + k % 2),
                                        expected_version=version, note=f"{i}/{k}")
                        s.commit()
                        break
                    except StaleEditError:
                        s.rollback()
        return per_editor

    results = _race(editors, save)
    assert all(r == per_editor for r in results), results
    with Session(engine) as s:
        history = s.exec(select(DeckVersion).where(DeckVersion.deck_id == deck_id)
                         .order_by(DeckVersion.number)).all()
        total = 1 + editors * per_editor
        assert [v.number for v in history] == list(range(1, total + 1))
        assert sorted(v.note for v in history[1:]) == sorted(
            f"{i}/{k}" for i in range(editors) for k in range(per_editor))
        assert s.get(Deck, deck_id).version == total


def test_two_editors_create_the_same_deck(engine):
    def create(i: int, barrier: threading.Barrier) -> int:
        with Session(engine, expire_on_commit=False) as s:
            barrier.wait()
            try:
                deck = decks.save_deck(s, game="nespanini", name="Jumeau", entries=_deck(1 + i),
                                       note=f"éditeur {i}")
                s.commit()
                return deck.version
            except BaseException:
                s.rollback()
                raise

    results = _race(EDITORS, create)
    wins = [r for r in results if isinstance(r, int)]
    losses = [r for r in results if isinstance(r, BaseException)]
    assert wins == [1], results
    assert len(losses) == 1 and isinstance(losses[0], CardbaseError), results
    assert "Jumeau" in str(losses[0])
    with Session(engine) as s:
        deck = s.exec(select(Deck).where(Deck.name == "Jumeau")).one()
        assert len(s.exec(select(DeckVersion).where(DeckVersion.deck_id == deck.id)).all()) == 1


def test_delete_refused_while_a_deck_uses_the_card(session):
    card = catalog.create_card(session, edition="NP1", fields={"number": 901, "name": "Éphémère"})
    decks.save_deck(session, game="nespanini", name="Utilise", entries=decks.parse_deck_list("1 NP1-901"))
    decks.save_deck(session, game="nespanini", name="Aussi", entries=decks.parse_deck_list("2 NP1-901"))
    session.commit()
    with pytest.raises(ValidationError, match=r"utilisée par 2 decks : Aussi, Utilise"):
        catalog.delete_card(session, card.id, expected_version=card.version)
    session.rollback()
    assert session.get(Card, card.id) is not None
    # Once no saved list uses it, it can go; the deck histories still name it.
    for name in ("Utilise", "Aussi"):
        deck = decks.get_deck(session, name)
        decks.save_deck(session, game="nespanini", name=name, entries=decks.parse_deck_list("1 NP1-001"),
                        expected_version=deck.version)
    catalog.delete_card(session, card.id, expected_version=card.version)
    session.commit()
    old = session.exec(select(DeckVersion).join(Deck).where(Deck.name == "Utilise", DeckVersion.number == 1)).one()
    assert old.entries[0]["name"] == "Éphémère" and old.entries[0]["ref"] == "NP1-901"


def test_delete_racing_a_deck_save(engine):
    """A card deleted while someone saves a deck with it: one of the two is refused, cleanly."""
    with db.session_scope(engine) as s:
        card = catalog.create_card(s, edition="NP1", fields={"number": 902, "name": "Disputée"})
        card_id, version = card.id, card.version

    def work(i: int, barrier: threading.Barrier) -> str:
        with Session(engine, expire_on_commit=False) as s:
            if i == 0:
                s.get(Card, card_id)
                barrier.wait()
                try:
                    catalog.delete_card(s, card_id, expected_version=version)
                    s.commit()
                except BaseException:
                    s.rollback()
                    raise
                return "deleted"
            entries = decks.parse_deck_list("1 NP1-902")
            barrier.wait()
            try:
                decks.save_deck(s, game="nespanini", name="Rapide", entries=entries)
                s.commit()
            except BaseException:
                s.rollback()
                raise
            return "saved"

    results = _race(2, work)
    for r in results:
        assert isinstance(r, (str, CardbaseError)), f"{type(r).__name__}: {r}"
    with Session(engine) as s:
        exists = s.get(Card, card_id) is not None
        used = s.exec(select(DeckEntry).where(DeckEntry.card_id == card_id)).all()
    # Never a deck pointing at a deleted card; never both actions reported as done.
    assert results.count("deleted") + results.count("saved") >= 1
    assert not (results[0] == "deleted" and results[1] == "saved")
    assert exists or not used
