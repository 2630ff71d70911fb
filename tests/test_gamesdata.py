"""Games as data: a new game, its editions and declared card fields without code — from the
command line to printing — and the seed games' fields round-tripping through the data files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlmodel import Session, select
from typer.testing import CliRunner

from cardbase.catalog import cards as catalog
from cardbase.storage import datafiles
from cardbase.storage import db
from cardbase.catalog import gamesdata
from cardbase.catalog import search
from cardbase.cli import app
from cardbase.errors import QueryError, StaleEditError, ValidationError
from cardbase.storage.models import Game

runner = CliRunner()
DATA = Path(__file__).resolve().parents[1] / "data"


def cli(*args: str):
    return runner.invoke(app, list(args))


def ok(*args: str):
    result = cli(*args)
    assert result.exit_code == 0, result.output
    return result


def refused(*args: str) -> str:
    result = cli(*args)
    assert result.exit_code == 2, result.output
    return result.stderr


ROWS = (
    "edition,number,name,colour,force,camp,titre\n"
    "DU1,1,Lancier,rouge,3,rouge,\n"
    "DU1,2,Archer,rouge,4,rouge,Tireur\n"
    "DU1,3,Chevalier,noir,7,noir,Chef\n"
    "DU1,4,Mage,noir,5,noir,\n"
    "DU1,5,Écuyer,rouge,1,rouge,\n"
    "DU1,6,Roi,noir,10,noir,Chef\n"
)


def _new_game(tmp_path: Path) -> None:
    ok("games", "add", "duel", "--name", "Duel de lames", "--players", "2-4", "--deck-size", "6",
       "--copy-limit", "2", "--keyword-limit", "Horde=3", "--template", "tarot",
       "--field", "force:int:0..10:required", "--field", "camp:choice(rouge|noir)",
       "--field", "titre:text")
    ok("editions", "add", "duel", "DU1", "--name", "Première lame", "--size", "6", "--symbol", "épée")
    rows = tmp_path / "du1.csv"
    rows.write_text(ROWS, encoding="utf-8")
    ok("cards", "import", str(rows))


# --------------------------------------------------------------------------- the whole path

def test_new_game_from_the_command_line_to_print(cli_env, tmp_path: Path) -> None:
    _new_game(tmp_path)
    shown = json.loads(ok("games", "show", "duel", "--json").stdout)
    assert shown["deck_size"] == 6 and shown["copy_limit"] == 2 and shown["keyword_limits"] == {"Horde": 3}
    assert shown["template"] == "tarot" and shown["version"] == 1
    assert [f["name"] for f in shown["fields"]] == ["force", "camp", "titre"]
    assert shown["fields"][0] == {"name": "force", "type": "int", "min": 0, "max": 10, "required": True}

    # the values are stored where engines read them, and come back as columns of their own
    with db.session_scope() as s:
        defs = {c.name: c for c in catalog.card_defs(s, edition="DU1")}
    assert defs["Chevalier"].stat("force") == 7 and defs["Chevalier"].stat("camp") == "noir"
    assert defs["Lancier"].stat("titre") is None
    out = tmp_path / "out.json"
    ok("cards", "export", str(out), "--edition", "DU1")
    exported = {r["name"]: r for r in json.loads(out.read_text(encoding="utf-8"))}
    assert exported["Roi"]["force"] == 10 and exported["Roi"]["titre"] == "Chef"
    assert exported["Roi"]["stats"] == {}
    again = json.loads(ok("cards", "import", str(out), "--dry-run", "--json").stdout)
    assert again["counts"] == {"new": 0, "updated": 0, "unchanged": 6}, again
    csv_out = tmp_path / "out.csv"
    ok("cards", "export", str(csv_out), "--edition", "DU1")
    header = csv_out.read_text(encoding="utf-8").splitlines()[0]
    assert header.endswith(",version,force,camp,titre")
    assert "\nDU1,6,Roi," in csv_out.read_text(encoding="utf-8")
    again = json.loads(ok("cards", "import", str(csv_out), "--dry-run", "--json").stdout)
    assert again["counts"]["unchanged"] == 6, again

    # search by a declared field
    found = ok("cards", "search", "force>=7", "--json").stdout
    assert sorted(c["name"] for c in json.loads(found)) == ["Chevalier", "Roi"]
    found = ok("cards", "search", "camp:noir force<7", "--json").stdout
    assert [c["name"] for c in json.loads(found)] == ["Mage"]

    # a legal and an illegal deck, by the game's own rules
    legal = tmp_path / "legal.txt"
    legal.write_text("# game: duel\n2 Lancier\n2 Archer\n1 Roi\n1 Mage\n", encoding="utf-8")
    result = cli("deck", "validate", str(legal), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["legal"] is True
    illegal = tmp_path / "illegal.txt"
    illegal.write_text("# game: duel\n3 Lancier\n2 Archer\n", encoding="utf-8")
    result = cli("deck", "validate", str(illegal), "--json")
    assert result.exit_code == 1, result.output
    codes = {p["code"] for p in json.loads(result.stdout)["problems"]}
    assert codes == {"deck-size", "too-many-copies"}
    ok("deck", "stats", str(legal))
    assert ok("deck", "code", str(legal)).stdout.strip()

    # print the edition, in the template the game chose
    pdf = tmp_path / "du1.pdf"
    ok("print", "--edition", "DU1", "--out", str(pdf))
    assert pdf.read_bytes().startswith(b"%PDF")
    from cardbase.outputs.printing.templates import template_name_for

    assert template_name_for("duel", None) == "tarot"


def test_new_edition_takes_an_import_at_once(cli_env, tmp_path: Path) -> None:
    ok("editions", "add", "nespanini", "NP9", "--name", "Essai", "--size", "2")
    rows = tmp_path / "np9.csv"
    rows.write_text("edition,number,name,value\nNP9,1,Essai un,1\nNP9,2,Essai deux,2\n", encoding="utf-8")
    ok("cards", "import", str(rows))
    listed = {r["code"]: r for r in json.loads(ok("editions", "list", "--json").stdout)}
    assert listed["NP9"]["cards"] == 2 and listed["NP9"]["numbering_ok"] and listed["NP9"]["game"] == "nespanini"
    ok("editions", "edit", "NP9", "--version", "1", "--set", "name=Essai bis", "--set", "release_date=2026-12-01")
    listed = {r["code"]: r for r in json.loads(ok("editions", "list", "--json").stdout)}
    assert listed["NP9"]["name"] == "Essai bis" and listed["NP9"]["version"] == 2
    err = refused("editions", "edit", "NP9", "--version", "1", "--set", "name=Encore")
    assert "version" in err
    err = refused("editions", "edit", "NP9", "--version", "2", "--set", "set_size=douze",
                  "--set", "release_date=2026-13-01", "--set", "couleur=bleu")
    assert "set_size" in err and "2026-13-01" in err and "couleur" in err
    err = refused("editions", "add", "nespanini", "NP9", "--name", "", "--size", "-1")
    assert "NP9" in err and "existe déjà" in err


# --------------------------------------------------------------------------- refusals

@pytest.mark.sqlite_only("refusals happen before the database is written")
def test_bad_game_declarations_are_all_refused_at_once(cli_env) -> None:
    err = refused("games", "add", "overkill", "--name", "X", "--players", "5-2", "--template", "nope",
                  "--copy-limit", "0", "--field", "rarity:int", "--field", "force:int:9..1",
                  "--field", "camp:choice()", "--field", "poids:float", "--keyword-limit", "foule")
    for part in ("overkill est déjà pris", "5-2", "écrivez 2-5", "gabarit inconnu", "poker, pushluck, tarot",
                 "limite d'exemplaires invalide : 0", "« rarity »", "9..1", "choice(a|b|c)",
                 "float", "foule"):
        assert part in err, (part, err)
    assert err.count("\n  - ") == 10
    err = refused("games", "add", "neuf", "--name", "X", "--players", "2", "--deck-size", "0", "--lang", "en")
    assert "invalid deck size: 0" in err
    err = refused("--lang", "en", "games", "add", "neuf", "--name", "X", "--players", "deux")
    assert "unreadable number of players" in err


def test_limits_that_make_every_deck_illegal_are_refused(cli_env, tmp_path: Path) -> None:
    _new_game(tmp_path)
    # six card names, two copies each: a deck of 20 cannot be built
    err = refused("games", "edit", "duel", "--version", "1", "--set", "deck_size=20")
    assert "aucun deck ne peut être légal" in err and "12" in err
    err = refused("games", "edit", "duel", "--version", "1", "--set", "copy_limit=0")
    assert "à 0, aucun deck" in err
    ok("games", "edit", "duel", "--version", "1", "--set", "deck_size=12", "--set", "players=2-6")
    assert json.loads(ok("games", "show", "duel", "--json").stdout)["max_players"] == 6
    err = refused("games", "edit", "duel", "--version", "1", "--set", "name=Autre")
    assert "version 2" in err and "version 1" in err


def test_bad_values_on_import_are_listed_with_row_and_column(cli_env, tmp_path: Path) -> None:
    _new_game(tmp_path)
    bad = tmp_path / "bad.csv"
    bad.write_text("edition,number,name,force,camp,titre\n"
                   "DU1,7,Sept,11,rouge,\n"
                   "DU1,8,Huit,trois,vert,\n"
                   "DU1,9,Neuf,,noir,\n", encoding="utf-8")
    err = refused("cards", "import", str(bad))
    assert "ligne 2, colonne force" in err and "hors de 0..10" in err
    assert "ligne 3, colonne force" in err and "'trois'" in err
    assert "ligne 3, colonne camp" in err and "rouge | noir" in err
    assert "ligne 4, colonne force" in err and "obligatoire" in err
    with db.session_scope() as s:
        assert len(catalog.card_rows(s, edition="DU1")) == 6  # nothing written
    other = tmp_path / "other.json"
    other.write_text(json.dumps([{"edition": "NP1", "number": 1, "name": "Villageois", "force": 2}]),
                     encoding="utf-8")
    err = refused("cards", "import", str(other))
    assert "ne déclare pas de champ force" in err


def test_card_edits_check_declared_fields(session: Session) -> None:
    game = gamesdata.create_game(session, code="duel", name="Duel", min_players=2, max_players=2,
                                 fields=["force:int:0..10:required", "camp:choice(rouge|noir)"])
    catalog.create_edition(session, game="duel", code="DU1", name="Un", set_size=2)
    with pytest.raises(ValidationError) as exc:
        catalog.create_card(session, edition="DU1", fields={"number": 1, "name": "A", "camp": "vert"})
    assert {p.code for p in exc.value.problems} == {"missing-field", "invalid-choice"}
    card = catalog.create_card(session, edition="DU1", fields={"number": 1, "name": "A", "force": "4",
                                                              "camp": "Noir"})
    assert card.stats == {"force": 4, "camp": "noir"}
    card = catalog.update_card(session, card.id, expected_version=1, changes={"force": 6, "camp": ""})
    assert card.stats == {"force": 6}
    with pytest.raises(ValidationError) as exc:
        catalog.update_card(session, card.id, expected_version=2, changes={"force": 12, "poids": 1})
    assert [p.code for p in exc.value.problems] == ["out-of-range", "undeclared-field"]
    with pytest.raises(StaleEditError):
        catalog.update_card(session, card.id, expected_version=1, changes={"force": 7})
    with pytest.raises(ValidationError) as exc:  # taking every figure off leaves a required one empty
        catalog.update_card(session, card.id, expected_version=2, changes={"stats": ""})
    assert [p.code for p in exc.value.problems] == ["missing-field"]
    # a declaration the cards break is refused, naming the cards
    with pytest.raises(ValidationError) as exc:
        gamesdata.update_game(session, code="duel", expected_version=game.version,
                              changes={"fields": ["force:int:0..5:required"]})
    assert "DU1-001" in str(exc.value) and "6" in str(exc.value)
    game = gamesdata.update_game(session, code="duel", expected_version=1,
                                 changes={"fields": ["force:int:0..10:required", "rang:text"]})
    assert game.version == 2 and [f["name"] for f in game.fields] == ["force", "rang"]
    with pytest.raises(StaleEditError):
        gamesdata.update_game(session, code="duel", expected_version=1, changes={"name": "X"})


# --------------------------------------------------------------------------- search

def test_search_by_declared_fields(session: Session) -> None:
    keys = search.declared_keys(session)
    assert keys["damage"].kind == "number" and keys["damage"].games == ("ctterror",)
    names = sorted(c.name for c in search.search_cards(session, "damage>=40"))
    assert names == ["9 mm", "AK 47", "Bombe", "Fusil de sniper", "Grenade", "Uzi"]
    assert [c.name for c in search.search_cards(session, "pari<0")] == ["Gard", "Protector"]
    assert search.count_cards(session, "objectif>=24 or multiplier=2") == 3
    assert catalog.card_rows(session, query="armour:40")[0][0].name == "Gilet"
    with pytest.raises(QueryError) as exc:
        search.search_cards(session, "damag>=40")
    assert "damage" in str(exc.value)
    with pytest.raises(QueryError) as exc:
        search.search_cards(session, "damage:beaucoup")
    assert "nombre entier" in str(exc.value)
    node = search.parse_query("damage>=40 -pari=1", search.declared_keys(session))
    assert search.to_query(node) == "damage>=40 -pari=1"


def test_search_by_a_choice_field(session: Session) -> None:
    gamesdata.create_game(session, code="duel", name="Duel", fields=["camp:choice(Rouge|Noir)"])
    catalog.create_edition(session, game="duel", code="DU1", name="Un", set_size=2)
    catalog.create_card(session, edition="DU1", fields={"number": 1, "name": "A", "camp": "rouge"})
    catalog.create_card(session, edition="DU1", fields={"number": 2, "name": "B", "camp": "Noir"})
    assert [c.name for c in search.search_cards(session, "camp:noir")] == ["B"]
    assert [c.name for c in search.search_cards(session, "g:duel -camp:noir")] == ["A"]
    with pytest.raises(QueryError) as exc:
        search.search_cards(session, "camp:nior")
    assert "Noir" in str(exc.value)


# --------------------------------------------------------------------------- round trip

def test_export_of_a_fresh_database_gives_the_data_files_back(cli_env, tmp_path: Path) -> None:
    out = tmp_path / "editions"
    ok("data", "export", "--out", str(out))
    assert (tmp_path / "games.toml").read_bytes() == (DATA / "games.toml").read_bytes()
    for path in sorted((DATA / "editions").glob("*.toml")):
        assert (out / path.name).read_bytes() == path.read_bytes(), path.name
    rules = sorted((DATA / "rules").glob("*.toml"))
    assert rules  # the rules files written as data go with the export, byte for byte
    for path in rules:
        assert (tmp_path / "rules" / path.name).read_bytes() == path.read_bytes(), path.name


def test_a_new_game_survives_export_and_seeding(cli_env, tmp_path: Path, make_db, backend) -> None:
    _new_game(tmp_path)
    folder = tmp_path / "data"
    ok("data", "export", "--out", str(folder / "editions"))
    text = (folder / "games.toml").read_text(encoding="utf-8")
    assert '[games.fields]\nforce = { type = "int", min = 0, max = 10, required = true }\n' in text
    assert 'camp = "rouge"' in (folder / "editions" / "DU1.toml").read_text(encoding="utf-8")
    engine = db.make_engine(make_db(backend, seeded=False))
    try:
        db.init_db(engine, data_dir=folder)
        with Session(engine) as s:
            games = {g.code: gamesdata.game_file_dict(g) for g in s.exec(select(Game)).all()}
            assert datafiles.dump_games(list(games.values())) == text
            assert catalog.export_edition_text(s, "DU1") == (folder / "editions" / "DU1.toml").read_text(
                encoding="utf-8")
    finally:
        engine.dispose()


def test_seed_games_keep_their_engines(session: Session) -> None:
    from cardbase.games.overkill.material import box_from_cards

    box = box_from_cards(catalog.card_defs(session, game="overkill"))
    assert box is not None
    figures = {c.name: c.stat("objectif") for c in catalog.card_defs(session, game="overkill")}
    assert figures["Maximiser"] == 27


def test_declarations_read_and_written() -> None:
    decl, problems = gamesdata.parse_field_spec("rang:choice(a|b|c):required")
    assert not problems and decl.spec == "rang:choice(a|b|c):required"
    assert gamesdata.field_from_dict(decl.as_dict()) == (decl, [])
    decl, problems = gamesdata.parse_field_spec("force:int:..5")
    assert decl.min is None and decl.max == 5
    for spec, part in (("force", "illisible"), ("Force:int", "nom de champ invalide"),
                       ("force:text:1..2", "n'est pas de type int"), ("x:choice(a|A)", "en double"),
                       ("force:int:1..2:souvent", "souvent")):
        decl, problems = gamesdata.parse_field_spec(spec)
        assert decl is None and any(part in str(p) for p in problems), (spec, problems)
    _, problems = gamesdata.check_declarations(["a:int", "a:text"])
    assert [p.code for p in problems] == ["bad-field"]


def test_a_database_of_the_first_schema_gets_the_declarations(backend, make_db) -> None:
    """Upgrading keeps the games and gives them the fields data/games.toml declares."""
    from sqlalchemy import text

    engine = db.make_engine(make_db(backend, seeded=False))
    try:
        db.drop_all(engine)
        db.upgrade(engine, "0001")
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO game (code, name, keyword_limits) VALUES "
                              "('overkill', 'OVERKILL', '{}'), ('nespanini', 'NesPanini', '{}')"))
        db.init_db(engine)
        assert db.current_revision(engine) == db.head_revision()
        with Session(engine) as s:
            games = {g.code: g for g in s.exec(select(Game)).all()}
            assert [f["name"] for f in games["overkill"].fields] == ["value", "objectif", "pari"]
            assert games["overkill"].version == 1
            assert games["nespanini"].fields == [{"name": "value", "type": "int", "min": 0, "max": 99}]
            assert games["pushluck"].fields[1]["name"] == "multiplier"
            assert catalog.get_card(s, "OVK-028").stats == {"objectif": 27}
    finally:
        engine.dispose()


def test_deck_rules_are_checked_when_they_are_set(session: Session) -> None:
    """A game made before its cards: its deck rules are judged when they change, not on every edit."""
    gamesdata.create_game(session, code="duel", name="Duel", deck_size=6, copy_limit=1)
    catalog.create_edition(session, game="duel", code="DU1", name="Un", set_size=2)
    for n in (1, 2):
        catalog.create_card(session, edition="DU1", fields={"number": n, "name": f"Carte {n}"})
    game = gamesdata.update_game(session, code="duel", expected_version=1, changes={"name": "Duel !"})
    assert game.name == "Duel !" and game.version == 2
    with pytest.raises(ValidationError) as exc:
        gamesdata.update_game(session, code="duel", expected_version=2, changes={"copy_limit": 2})
    assert [p.code for p in exc.value.problems] == ["no-legal-deck"]
    game = gamesdata.update_game(session, code="duel", expected_version=2,
                                 changes={"copy_limit": 3, "deck_size": 6})
    assert game.copy_limit == 3
