"""Checks inside the write: two writers interleaved so that one is held between its checks and its
write (``writelock.before_write``) while the other runs, on SQLite and PostgreSQL.

Each race makes the worst order: writer A has checked and is about to write; writer B runs in
full (or, once the fix holds A's lock, waits for A). Whatever the backend, the data keep their
rules (every card value inside its game's declaration, a code once) and the writer that loses
gets the usual French message, never a database traceback.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from sqlmodel import Session, select

from cardbase.catalog import cards as catalog
from cardbase.catalog import gamesdata
from cardbase.catalog import transfer
from cardbase.storage import writelock
from cardbase.errors import CardbaseError, Problem, ValidationError
from cardbase.storage.models import Edition, Game

HOLD = 1.5  # seconds writer A stays between its checks and its write while B has not finished


def _interleave(engine, monkeypatch: pytest.MonkeyPatch, what: str,
                first: Callable[[Session], Any], second: Callable[[Session], Any]) -> tuple[Any, Any]:
    """Run ``first`` until its write ``what`` is about to happen, then ``second`` to its end (or
    until it has waited HOLD seconds, held back by the first one's lock), then let ``first``
    write. Each runs in its own session and thread and commits; returns both results or errors."""
    reached, second_done = threading.Event(), threading.Event()
    held: dict[str, threading.Thread] = {}

    def hook(name: str) -> None:
        if name == what and threading.current_thread() is held.get("first"):
            reached.set()
            second_done.wait(HOLD)

    monkeypatch.setattr(writelock, "before_write", hook)
    results: list[Any] = [None, None]

    def run(i: int, work: Callable[[Session], Any], done: threading.Event | None) -> None:
        try:
            with Session(engine, expire_on_commit=False) as s:
                try:
                    results[i] = work(s)
                    s.commit()
                except BaseException:
                    s.rollback()
                    raise
        except BaseException as exc:  # the test looks at what each writer got
            results[i] = exc
        finally:
            if done is not None:
                done.set()
            reached.set()  # a first writer refused before its write must not hold the second

    a = threading.Thread(target=run, args=(0, first, None))
    held["first"] = a
    a.start()
    assert reached.wait(30), "the first writer never reached its write"
    b = threading.Thread(target=run, args=(1, second, second_done))
    b.start()
    a.join(60)
    b.join(60)
    assert not a.is_alive() and not b.is_alive(), "a writer is stuck"
    for r in results:  # a refusal is a message of cardbase, never a database error
        assert not isinstance(r, BaseException) or isinstance(r, CardbaseError), f"{type(r).__name__}: {r}"
    return results[0], results[1]


def _duel(engine, spec: str = "force:int:0..1000") -> int:
    """A game ``duel`` declaring ``spec``, its edition DU1 and the card DU1-001 (force 4)."""
    with Session(engine, expire_on_commit=False) as s:
        gamesdata.create_game(s, code="duel", name="Duel", min_players=2, max_players=2, fields=[spec])
        catalog.create_edition(s, game="duel", code="DU1", name="Duel 1", set_size=3)
        card = catalog.create_card(s, edition="DU1", fields={"number": 1, "name": "Mage", "force": 4})
        s.commit()
        return card.id


def _state(engine) -> tuple[list[dict], dict[str, Any]]:
    with Session(engine) as s:
        game = s.exec(select(Game).where(Game.code == "duel")).one()
        card = catalog.get_card(s, "DU1-001")
        return list(game.fields), dict(card.stats or {})


def _inside(fields: list[dict], stats: dict[str, Any]) -> bool:
    """Whether the card's values keep the game's declarations (what re-importing its export needs)."""
    decls = gamesdata.declared_fields(Game(code="x", name="x", fields=fields))
    return not gamesdata.check_field_values(decls, stats)[1]


def _messages(exc: BaseException) -> str:
    problems: list[Problem] = getattr(exc, "problems", None) or []
    return str(exc) + "\n" + "\n".join(p.message for p in problems)


def _edit_game(version: int, spec: str) -> Callable[[Session], Any]:
    return lambda s: gamesdata.update_game(s, code="duel", expected_version=version,
                                           changes={"fields": [spec]}).version


def _edit_card(card_id: int, force: int) -> Callable[[Session], Any]:
    def work(s: Session) -> int:
        card = s.get(catalog.Card, card_id)
        return catalog.update_card(s, card_id, expected_version=card.version, changes={"force": force}).version
    return work


def _import_force(force: int) -> Callable[[Session], Any]:
    data = json.dumps([{"edition": "DU1", "number": 1, "name": "Mage", "force": force}])
    return lambda s: transfer.import_cards(s, data, fmt="json", source="duel.json").counts


# --------------------------------------------------------------------------- declared fields

def test_narrowing_a_field_while_a_card_is_set_outside_it(engine, monkeypatch):
    """games edit --set fields=force:int:0..99 held before its write, cards edit force=100 meanwhile:
    the card is refused against the new declaration (it waited for the game's change)."""
    card_id = _duel(engine)
    game_edit, card_edit = _interleave(engine, monkeypatch, "game", _edit_game(1, "force:int:0..99"),
                                       _edit_card(card_id, 100))
    fields, stats = _state(engine)
    assert _inside(fields, stats), (fields, stats, game_edit, card_edit)
    assert game_edit == 2 and fields[0]["max"] == 99
    assert isinstance(card_edit, ValidationError)
    assert "force vaut 100, hors de 0..99" in _messages(card_edit)
    assert stats == {"force": 4}


def test_a_card_set_while_its_field_is_narrowed(engine, monkeypatch):
    """cards edit force=100 held before its write, games edit 0..99 meanwhile: the game's change is
    refused because the card now holds 100."""
    card_id = _duel(engine)
    card_edit, game_edit = _interleave(engine, monkeypatch, "card", _edit_card(card_id, 100),
                                       _edit_game(1, "force:int:0..99"))
    fields, stats = _state(engine)
    assert _inside(fields, stats), (fields, stats, card_edit, game_edit)
    assert card_edit == 2 and stats == {"force": 100}
    assert isinstance(game_edit, ValidationError) and "jeu duel non enregistré" in str(game_edit)
    assert "force vaut 100, hors de 0..99" in _messages(game_edit)
    assert fields[0]["max"] == 1000
    # the card's own export still goes back in, and the game's fields can still change
    with Session(engine) as s:
        records = transfer.export_records(s, edition="DU1")
    with Session(engine) as s:
        assert not transfer.import_cards(s, json.dumps(records), fmt="json", dry_run=True).problems
        gamesdata.update_game(s, code="duel", expected_version=1, changes={"fields": ["force:int:0..500"]})
        s.commit()


def test_an_import_while_the_field_is_narrowed(engine, monkeypatch):
    """cards import force=100 held before its write, games edit meanwhile: the edit is refused."""
    _duel(engine)
    imported, game_edit = _interleave(engine, monkeypatch, "import", _import_force(100),
                                      _edit_game(1, "force:int:0..99"))
    fields, stats = _state(engine)
    assert _inside(fields, stats), (fields, stats, imported, game_edit)
    assert imported == {"new": 0, "updated": 1, "unchanged": 0} and stats == {"force": 100}
    assert isinstance(game_edit, ValidationError) and "force vaut 100" in _messages(game_edit)


def test_the_field_narrowed_while_an_import_sets_it(engine, monkeypatch):
    """games edit held before its write, cards import force=100 meanwhile: the import is refused."""
    _duel(engine)
    game_edit, imported = _interleave(engine, monkeypatch, "game", _edit_game(1, "force:int:0..99"),
                                      _import_force(100))
    fields, stats = _state(engine)
    assert _inside(fields, stats), (fields, stats, game_edit, imported)
    assert game_edit == 2 and stats == {"force": 4}
    assert isinstance(imported, CardbaseError) and "force vaut 100, hors de 0..99" in _messages(imported)


def test_a_new_card_while_the_field_becomes_required(engine, monkeypatch):
    """A card created without a value while the field becomes required: never both."""
    _duel(engine)
    game_edit, created = _interleave(
        engine, monkeypatch, "game", _edit_game(1, "force:int:0..1000:required"),
        lambda s: catalog.create_card(s, edition="DU1", fields={"number": 2, "name": "Apprenti"}).number)
    assert game_edit == 2
    assert isinstance(created, ValidationError) and "force" in _messages(created)
    with Session(engine) as s:
        assert [c.number for c in s.exec(select(catalog.Card).join(Edition).where(Edition.code == "DU1"))] == [1]


# --------------------------------------------------------------------------- unique codes

def _new_game(name: str) -> Callable[[Session], Any]:
    return lambda s: gamesdata.create_game(s, code="jumeau", name=name, min_players=2, max_players=4).name


def test_the_same_game_code_added_twice_at_once(engine, monkeypatch):
    """games add jumeau twice at once: one game, the other writer told the code is taken."""
    first, second = _interleave(engine, monkeypatch, "new-game", _new_game("Premier"), _new_game("Second"))
    outcomes = [first, second]
    assert sum(isinstance(r, str) for r in outcomes) == 1, outcomes
    loser = next(r for r in outcomes if isinstance(r, BaseException))
    assert isinstance(loser, ValidationError) and "jeu jumeau non créé" in str(loser)
    assert "le code de jeu jumeau est déjà pris" in _messages(loser)
    with Session(engine) as s:
        assert len(s.exec(select(Game).where(Game.code == "jumeau")).all()) == 1


def _new_edition(name: str) -> Callable[[Session], Any]:
    return lambda s: catalog.create_edition(s, game="pushluck", code="px9", name=name, set_size=5).name


def test_the_same_edition_code_added_twice_at_once(engine, monkeypatch):
    first, second = _interleave(engine, monkeypatch, "new-edition", _new_edition("Une"), _new_edition("Deux"))
    outcomes = [first, second]
    assert sum(isinstance(r, str) for r in outcomes) == 1, outcomes
    loser = next(r for r in outcomes if isinstance(r, BaseException))
    assert isinstance(loser, ValidationError) and "l'édition PX9 existe déjà" in _messages(loser)
    with Session(engine) as s:
        assert len(s.exec(select(Edition).where(Edition.code == "PX9")).all()) == 1


def test_games_add_twice_at_once_on_the_command_line(cli_env, monkeypatch):
    """The command line's loser exits with code 2 and the French message, no traceback."""
    from typer.testing import CliRunner

    from cardbase.storage import db
    from cardbase.cli import app

    engine = db.make_engine(cli_env)
    runner = CliRunner()
    outcome: dict[str, Any] = {}

    def hook(name: str) -> None:  # the command's write waits until another one took the code
        if name == "new-game" and "done" not in outcome:
            outcome["done"] = True
            with Session(engine) as s:
                gamesdata.create_game(s, code="jumeau", name="Rapide", min_players=2, max_players=2)
                s.commit()

    monkeypatch.setattr(writelock, "before_write", hook)
    if engine.dialect.name == "sqlite":
        # the command holds SQLite's write lock: the other writer can only come after it
        monkeypatch.setattr(writelock, "lock_for_create", lambda s: None)
    try:
        result = runner.invoke(app, ["games", "add", "jumeau", "--name", "Lent", "--players", "2-3"])
    finally:
        engine.dispose()
    assert result.exit_code == 2, result.output
    assert "jeu jumeau non créé" in result.output and "déjà pris" in result.output
    assert "Traceback" not in result.output and "IntegrityError" not in result.output


# --------------------------------------------------------------------------- one rule for add and edit

@pytest.mark.parametrize("code", ["ÉD1", "ＡＢ１", "A-1", "A" * 21])
def test_editions_add_and_edit_refuse_the_same_codes(session, code):
    with pytest.raises(ValidationError) as added:
        catalog.create_edition(session, game="pushluck", code=code, name="Essai")
    session.rollback()
    ed = catalog.create_edition(session, game="pushluck", code="OK1", name="Essai")
    with pytest.raises(ValidationError) as edited:
        catalog.update_edition(session, "OK1", expected_version=ed.version, changes={"code": code})
    session.rollback()
    assert [p.message for p in added.value.problems] == [p.message for p in edited.value.problems]
    assert "n'est pas fait de 1 à 20 lettres ou chiffres" in added.value.problems[0].message


def test_editions_add_refuses_a_symbol_edit_refuses(session):
    symbol = "★" * 10_000
    with pytest.raises(ValidationError) as added:
        catalog.create_edition(session, game="pushluck", code="SY1", name="Symbole", symbol=symbol)
    session.rollback()
    assert [p.where for p in added.value.problems] == ["symbol"]
    assert "symbole invalide" in added.value.problems[0].message
    ed = catalog.create_edition(session, game="pushluck", code="SY1", name="Symbole", symbol=" ★ ")
    assert ed.symbol == "★"  # stripped as the edit strips it
    with pytest.raises(ValidationError, match="non enregistrée"):
        catalog.update_edition(session, "SY1", expected_version=ed.version, changes={"symbol": symbol})
    session.rollback()
    with pytest.raises(ValidationError):
        catalog.create_edition(session, game="pushluck", code="SY2", name="Symbole", symbol="a\nb")


@pytest.mark.parametrize("name", ["a\x1b[2Jb", "Titre\x1b]0;pwned\x07", "deux\nlignes", "tab\tulation", "\x9bC1"])
def test_names_with_a_control_character_are_refused_everywhere(session, name):
    """An escape sequence in a name ran in the terminal of whoever listed the cards (« \\x1b[2J »
    cleared the screen); a card, an edition and a game refuse it, on add and on edit."""
    refused = []
    card = catalog.get_card(session, "P15-001")
    for attempt in (
        lambda: catalog.create_card(session, edition="P15", fields={"number": 90, "name": name}),
        lambda: catalog.update_card(session, card.id, expected_version=card.version, changes={"name": name}),
        lambda: catalog.create_edition(session, game="pushluck", code="CC1", name=name),
        lambda: catalog.update_edition(session, "P15", expected_version=1, changes={"name": name}),
        lambda: gamesdata.create_game(session, code="ctl", name=name, min_players=2, max_players=2),
    ):
        with pytest.raises(ValidationError) as err:
            attempt()
        session.rollback()
        refused.append(" ".join(p.message for p in err.value.problems))
    assert all("contrôle" in m for m in refused), refused
    assert catalog.get_card(session, "P15-001").name != name


def test_a_choice_a_card_could_not_hold_is_refused(session):
    too_long = "x" * (gamesdata.MAX_TEXT + 1)
    decl, problems = gamesdata.field_from_dict({"name": "camp", "type": "choice", "choices": ["rouge", too_long]})
    assert decl is None and "choix trop long" in problems[0].message
    assert f"{gamesdata.MAX_TEXT} caractères" in problems[0].fix
    # the longest choice accepted is a value a card can hold, then saved on a card
    longest = "y" * gamesdata.MAX_TEXT
    game = gamesdata.create_game(session, code="camps", name="Camps", min_players=2, max_players=2,
                                 fields=[{"name": "camp", "type": "choice", "choices": ["rouge", longest]}])
    catalog.create_edition(session, game=game.code, code="CA1", name="Camps 1")
    card = catalog.create_card(session, edition="CA1", fields={"number": 1, "name": "Long", "camp": longest})
    assert card.stats == {"camp": longest}


def test_too_many_choices_are_refused_at_once(session):
    many = [f"c{i}" for i in range(20_000)]
    started = time.perf_counter()
    _, problems = gamesdata.check_declarations([{"name": "camp", "type": "choice", "choices": many}])
    assert time.perf_counter() - started < 1.0
    assert [p.message for p in problems] == [
        f"20000 choix déclarés : c'est plus que les {gamesdata.MAX_CHOICES} qu'un champ peut proposer"]
    just = [f"c{i}" for i in range(gamesdata.MAX_CHOICES)]
    assert not gamesdata.check_declarations([{"name": "camp", "type": "choice", "choices": just}])[1]
    # duplicates still found (folded: accents and case), in one pass
    _, problems = gamesdata.check_declarations(["camp:choice(Été|ete|hiver)"])
    assert problems and "Été" in problems[0].message and "ete" in problems[0].message


def test_players_within_the_engine_range_on_add_and_edit(session):
    game = gamesdata.get_game(session, "overkill")
    changes, problems = gamesdata.setting_changes(game, ["players=1-100"])
    assert not problems  # the text is read; the engine's range is a rule of the game
    with pytest.raises(ValidationError) as refused:
        gamesdata.update_game(session, code="overkill", expected_version=game.version, changes=changes)
    session.rollback()
    assert [p.message for p in refused.value.problems] == [
        "joueurs 1-100 : le moteur du jeu overkill accepte de 2 à 2 joueurs"]
    game = gamesdata.get_game(session, "pushluck")
    assert gamesdata.update_game(session, code="pushluck", expected_version=game.version,
                                 changes={"min_players": 1, "max_players": 6}).max_players == 6
    with pytest.raises(ValidationError, match="accepte de 1 à 6 joueurs"):
        gamesdata.update_game(session, code="pushluck", expected_version=game.version,
                              changes={"max_players": 7})
    session.rollback()
    # a game without an engine may say 1-100; an unrelated edit of a game is not re-judged
    gamesdata.create_game(session, code="libre", name="Libre", min_players=1, max_players=100)
    game = gamesdata.get_game(session, "overkill")
    assert gamesdata.update_game(session, code="overkill", expected_version=game.version,
                                 changes={"description": "Duel"}).description == "Duel"


def test_games_edit_overkill_players_on_the_command_line(cli_env):
    from typer.testing import CliRunner

    from cardbase.cli import app

    runner = CliRunner()
    shown = json.loads(runner.invoke(app, ["games", "show", "overkill", "--json"]).output)
    result = runner.invoke(app, ["games", "edit", "overkill", "--version", str(shown["version"]),
                                 "--set", "players=1-100"])
    assert result.exit_code == 2, result.output
    assert "le moteur du jeu overkill accepte de 2 à 2 joueurs" in result.output
    assert "choisissez un nombre de joueurs entre 2 et 2" in result.output


def test_a_setting_given_twice_is_refused_not_half_lost(cli_env):
    """--set NAME=a --set NAME=b kept b and dropped a without a word; now both are refused."""
    from typer.testing import CliRunner

    from cardbase.cli import app

    runner = CliRunner()
    shown = json.loads(runner.invoke(app, ["games", "show", "pushluck", "--json"]).output)
    result = runner.invoke(app, ["games", "edit", "pushluck", "--version", str(shown["version"]),
                                 "--set", "name=Un", "--set", "max_players=5", "--set", "players=2-4",
                                 "--set", "name=Deux"])
    assert result.exit_code == 2, result.output
    assert "name est donné deux fois dans la même commande" in result.output
    assert "players est donné deux fois" in result.output
    after = json.loads(runner.invoke(app, ["games", "show", "pushluck", "--json"]).output)
    assert after == shown
    # fields+= may be repeated: each adds one declaration
    result = runner.invoke(app, ["games", "edit", "pushluck", "--version", str(shown["version"]),
                                 "--set", "fields+=bonus:int", "--set", "fields+=malus:int"])
    assert result.exit_code == 0, result.output
    editions = json.loads(runner.invoke(app, ["editions", "list", "--json"]).output)
    version = next(e["version"] for e in editions if e["code"] == "NP1")
    result = runner.invoke(app, ["editions", "edit", "NP1", "--version", str(version),
                                 "--set", "symbol=★", "--set", "symbol=☆"])
    assert result.exit_code == 2 and "symbol est donné deux fois" in result.output
    card = json.loads(runner.invoke(app, ["cards", "show", "NP1-001", "--json"]).output)
    result = runner.invoke(app, ["cards", "edit", "NP1-001", "--version", str(card["version"]),
                                 "--set", "value=3", "--set", "value=4"])
    assert result.exit_code == 2 and "value est donné deux fois" in result.output
    assert json.loads(runner.invoke(app, ["cards", "show", "NP1-001", "--json"]).output) == card
