"""Seeding from data/ happens once; renames and deletions stick; ``data status`` and ``data pull``
offer what data/ changes later, with the checks of an import, all or nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlmodel import Session, func, select
from typer.testing import CliRunner

from cardbase import access, decks
from cardbase.catalog import cards as catalog
from cardbase.storage import db
from cardbase.catalog import seed
from cardbase.cli import app
from cardbase.errors import NotFoundError
from cardbase.storage.models import Card, Deck, Edition, Game, SeedItem
from seed_support import database_digest, older_database

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]


def cli(*args: str):
    result = runner.invoke(app, list(args))
    db.dispose_engines()  # the next command starts like a new process (start-up runs again)
    return result


def ok(*args: str):
    result = cli(*args)
    assert result.exit_code == 0, (args, result.output)
    return result


def counts(engine) -> dict[str, int]:
    with Session(engine) as s:
        return {m.__tablename__: s.exec(select(func.count()).select_from(m)).one()
                for m in (Game, Edition, Card, Deck)}


def overkill_cards(engine) -> int:
    with Session(engine) as s:
        return s.exec(select(func.count()).select_from(Card).join(Edition).join(Game)
                      .where(Game.code == "overkill")).one()


def edit_every_seeded_kind(engine) -> None:
    """Rename and delete a row of every kind seeding made: game, edition, card, starter deck."""
    ok("editions", "edit", "OVK", "--version", "1", "--set", "code=OVX")
    ok("cards", "edit", "NP1-001", "--version", "1", "--set", "name=Apprentie du feu")
    ok("deck", "delete", "Le Bosquet en fête", "--game", "nespanini")
    with db.session_scope(engine) as s:
        card = catalog.get_card(s, "OVS-047")
        catalog.delete_card(s, card.id, expected_version=card.version)
        s.exec(text("UPDATE game SET code = 'quinze' WHERE code = 'pushluck'"))
        s.exec(text("UPDATE deck SET name = 'Braises vives' WHERE name = 'Braises ardentes'"))
        ctt = catalog.get_edition(s, "CTT")  # a whole game goes: its cards, edition and game
        s.exec(text(f"DELETE FROM card WHERE edition_id = {ctt.id}"))
        s.exec(text(f"DELETE FROM edition WHERE id = {ctt.id}"))
        s.exec(text("DELETE FROM game WHERE code = 'ctterror'"))
        p15 = catalog.get_edition(s, "P15")  # an edition goes, its game stays
        s.exec(text(f"DELETE FROM card WHERE edition_id = {p15.id}"))
        s.exec(text(f"DELETE FROM edition WHERE id = {p15.id}"))
        s.exec(text("DELETE FROM sticker_colour WHERE colour = 'rose'"))  # the sticker table too


def assert_edits_kept(engine, before: dict[str, int]) -> None:
    assert counts(engine) == before
    assert overkill_cards(engine) == 39  # one box, not two
    with Session(engine) as s:
        assert {e.code for e in s.exec(select(Edition)).all()} == {"NP1", "OVX", "OVS"}
        assert {g.code for g in s.exec(select(Game)).all()} == {"nespanini", "overkill", "quinze", "overseers"}
        assert {d.name for d in s.exec(select(Deck)).all()} == {"Braises vives", "La Cour arc-en-ciel",
                                                                 "Marée et Crypte"}
        assert catalog.get_card(s, "NP1-001").name == "Apprentie du feu"
        assert s.exec(select(Card).where(Card.name == "Apprentie forgeronne")).first() is None
        from cardbase.catalog.stickers import colour_table

        assert "rose" not in colour_table(s) and len(colour_table(s)) == 9


def test_renames_and_deletions_stick_through_every_command(cli_env) -> None:
    """The bug: OVK renamed OVX, then any command seeded OVK again (78 OVERKILL cards)."""
    engine = db.make_engine(cli_env)
    try:
        edit_every_seeded_kind(engine)
        before = counts(engine)
        assert overkill_cards(engine) == 39
        for args in (["cards", "search", "forgeron"], ["editions", "list"], ["deck", "list"],
                     ["sim", "game", "overkill", "--games", "5", "--seed", "1"], ["data", "status"],
                     ["init"]):
            ok(*args)
            assert_edits_kept(engine, before)
        result = ok("sim", "game", "overkill", "--games", "5", "--seed", "1", "--json")
        assert json.loads(result.stdout)["games"] == 5
        status = json.loads(ok("data", "status", "--json").stdout)
        states = {(e["kind"], e["origin"]): e["states"] for e in status["entries"]}
        assert states[("edition", "OVK")] == ["renamed"]
        assert states[("game", "pushluck")] == ["renamed"]
        assert states[("game", "ctterror")] == ["deleted"]
        assert states[("edition", "CTT")] == ["deleted"] and states[("edition", "P15")] == ["deleted"]
        assert states[("deck", "bosquet-en-fete")] == ["deleted"]
        assert states[("deck", "braises-ardentes")] == ["renamed"]
        assert states[("colour", "rose")] == ["deleted"]
        ovs = next(e for e in status["entries"] if e["origin"] == "OVS")
        assert ovs["states"] == ["user_changed"] and ovs["cards"] == {"deleted": [47]}
        np1 = next(e for e in status["entries"] if e["origin"] == "NP1")
        assert np1["cards"] == {"user_changed": [1]}
        # --all brings what data/ offers: nothing, here; the deletions stay.
        ok("data", "pull", "--all")
        assert_edits_kept(engine, before)
        # Asked for by name: a deleted game and its edition come back, once.
        ok("data", "pull", "CTT", "ctterror", "--overwrite")
        ok("data", "pull", "--all", "--overwrite")
        with Session(engine) as s:
            assert len(catalog.card_rows(s, edition="CTT")) == 26
            assert s.exec(select(Game).where(Game.code == "ctterror")).one().origin == "ctterror"
            assert {e.code for e in s.exec(select(Edition)).all()} == {"NP1", "OVX", "OVS", "CTT", "P15"}
            assert catalog.get_card(s, "NP1-001").name == "Apprentie forgeronne"
            assert catalog.get_card(s, "OVS-047").origin == "OVS-047"
            assert len(s.exec(select(Deck)).all()) == 4
            from cardbase.catalog.stickers import colour_table

            assert colour_table(s)["rose"] == "fleur"  # the deleted colour, brought back when asked
        assert overkill_cards(engine) == 39
        assert {e["origin"]: e["states"] for e in json.loads(ok("data", "status", "--json").stdout)["entries"]} \
            == {"pushluck": ["renamed"], "OVK": ["renamed"], "braises-ardentes": ["renamed"]}
    finally:
        engine.dispose()


@pytest.mark.sqlite_only("the app's pages do not depend on the backend (tests/test_app.py)")
def test_app_first_page_after_renames_and_deletions(cli_env, monkeypatch) -> None:
    from streamlit.testing.v1 import AppTest

    engine = db.make_engine(cli_env)
    try:
        edit_every_seeded_kind(engine)
        before = counts(engine)
        at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60).run()
        assert not at.exception, at.exception
        assert at.title[0].value == "Cartes"
        assert_edits_kept(engine, before)
    finally:
        access.enforce(False)  # the app enforces editor mode in this process; commands do not
        engine.dispose()
        db.dispose_engines()


# --------------------------------------------------------------------------- data status / pull

def data_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(db.DATA_DIR, folder, ignore=shutil.ignore_patterns("*.db*"))
    return folder


NEW_EDITION = """[edition]
game = "overkill"
code = "OK2"
name = "OVERKILL, le retour"
set_size = 2

[[cards]]
number = 1
name = "Surenchère"
objectif = 12

[[cards]]
number = 2
name = "Coup de grâce"
objectif = 30
"""


def entries(*args: str) -> dict[str, dict]:
    status = json.loads(ok("data", "status", "--json", *args).stdout)
    return {e["origin"]: e for e in status["entries"]}


def test_a_new_edition_in_data_is_offered_then_pulled(cli_env, tmp_path: Path, monkeypatch) -> None:
    data = data_copy(tmp_path)
    (data / "editions" / "OK2.toml").write_text(NEW_EDITION, encoding="utf-8")
    monkeypatch.setattr(seed, "DATA_DIR", data)  # the data/ that `cardbase init` looks at
    engine = db.make_engine(cli_env)
    try:
        before = counts(engine)
        result = ok("init")  # start-up never brings it in by itself; init says it is offered
        assert "data/ propose 1 changement :" in result.stdout
        assert counts(engine) == before
        assert entries("--data", str(data))["OK2"]["states"] == ["new"]
        text_ = ok("data", "status", "--data", str(data)).stdout
        assert "édition OK2" in text_ and "ajout dans data/" in text_

        result = ok("data", "pull", "OK2", "--data", str(data), "--dry-run")
        assert "rien n'a été écrit" in result.stdout and "édition OK2" in result.stdout
        assert counts(engine) == before  # a dry run writes nothing
        assert "OK2" in entries("--data", str(data))

        ok("data", "pull", "OK2", "--data", str(data))
        assert "OK2" not in entries("--data", str(data))
        with Session(engine) as s:
            assert catalog.get_card(s, "OK2-002").stats == {"objectif": 30}
        assert overkill_cards(engine) == 41
        assert counts(engine)["card"] == before["card"] + 2
        ok("data", "pull", "--all", "--data", str(data))  # nothing more to bring: no double
        assert overkill_cards(engine) == 41
    finally:
        engine.dispose()


def test_a_pull_that_fails_a_check_writes_nothing(cli_env, tmp_path: Path) -> None:
    data = data_copy(tmp_path)
    (data / "editions" / "OK2.toml").write_text(NEW_EDITION, encoding="utf-8")
    bad = NEW_EDITION.replace('code = "OK2"', 'code = "OK3"').replace("objectif = 30", 'objectif = "trente"')
    (data / "editions" / "OK3.toml").write_text(bad, encoding="utf-8")
    np1 = data / "editions" / "NP1.toml"  # a change to a seeded edition, fine on its own
    np1.write_text(np1.read_text(encoding="utf-8").replace('name = "La Foire de Nespa"',
                                                          'name = "La Grande Foire"', 1), encoding="utf-8")
    engine = db.make_engine(cli_env)
    try:
        before = counts(engine)
        for args in (["OK2", "OK3", "NP1"], ["--all"]):
            result = cli("data", "pull", *args, "--data", str(data))
            assert result.exit_code == 2, result.output
            assert result.stderr.startswith("erreur : Rien n'a été apporté")
            assert "OK3.toml" in result.stderr and "objectif" in result.stderr
            assert "Traceback" not in result.output
            assert counts(engine) == before
            with Session(engine) as s:
                assert catalog.get_edition(s, "NP1").name == "La Foire de Nespa"
                assert s.exec(select(func.count()).select_from(SeedItem)).one() > 0
        unknown = cli("data", "pull", "ZZZ", "--data", str(data))
        assert unknown.exit_code == 2 and "« ZZZ »" in unknown.stderr
        nothing = cli("data", "pull", "--data", str(data))
        assert nothing.exit_code == 2 and "--all" in nothing.stderr
        ok("data", "pull", "OK2", "NP1", "--data", str(data))
        with Session(engine) as s:
            assert catalog.get_edition(s, "NP1").name == "La Grande Foire"
            assert catalog.get_card(s, "OK2-001").name == "Surenchère"
    finally:
        engine.dispose()


def test_a_pull_racing_another_write_is_refused_cleanly(db_url, tmp_path: Path, monkeypatch) -> None:
    """Another process writes the same entry between the pull's checks and its writes: the
    database's unique origin refuses the second one, and the pull becomes a message, not a crash."""
    from cardbase.errors import ValidationError

    data = data_copy(tmp_path)
    (data / "editions" / "OK2.toml").write_text(NEW_EDITION, encoding="utf-8")
    engine, other = db.make_engine(db_url), db.make_engine(db_url)
    load = catalog.load_edition_data

    def racing(session, *args, **kwargs):  # after the pull looked, before it writes
        with db.session_scope(other) as s:  # the other writer commits first
            game = s.exec(select(Game).where(Game.code == "overkill")).one()
            s.add(Edition(game_id=game.id, code="OKX", name="Copie", origin="OK2"))
        return load(session, *args, **kwargs)

    monkeypatch.setattr(catalog, "load_edition_data", racing)
    try:
        with pytest.raises(ValidationError) as exc, db.session_scope(engine) as s:
            seed.pull(s, ["OK2"], data_dir=data)
        assert "pendant l'apport" in str(exc.value)
        with Session(engine) as s:
            assert s.exec(select(Edition).where(Edition.code == "OK2")).first() is None
            assert s.exec(select(func.count()).select_from(Card).join(Edition)
                          .where(Edition.code == "OKX")).one() == 0
    finally:
        engine.dispose()
        other.dispose()


def test_pull_follows_a_renamed_edition_and_keeps_user_edits(cli_env, tmp_path: Path) -> None:
    """Identity is the origin, not the code: a card added to OVK.toml lands in OVX; a card the
    user changed is not overwritten unless asked; a card the user deleted stays deleted."""
    data = data_copy(tmp_path)
    ovk = data / "editions" / "OVK.toml"
    body = ovk.read_text(encoding="utf-8").replace("set_size = 39", "set_size = 40")
    body = body.replace('name = "Maximiser"', 'name = "Maximiser encore"', 1)
    ovk.write_text(body + '\n[[cards]]\nnumber = 40\nname = "Dernier mot"\nobjectif = 5\n', encoding="utf-8")
    np1 = data / "editions" / "NP1.toml"
    np1.write_text(np1.read_text(encoding="utf-8").replace('name = "Apprentie forgeronne"',
                                                          'name = "Apprentie des forges"', 1), encoding="utf-8")
    engine = db.make_engine(cli_env)
    try:
        with Session(engine) as s:
            maximiser = catalog.get_card(s, "Maximiser")
            assert maximiser.number == 28
            ovs = catalog.get_card(s, "OVS-001")
        ok("editions", "edit", "OVK", "--version", "1", "--set", "code=OVX")
        ok("cards", "edit", "NP1-001", "--version", "1", "--set", "name=Apprentie du feu")
        ok("cards", "edit", "OVX-001", "--version", "1", "--set", "name=Mon atout")
        ok("cards", "show", "OVX-001")  # an unrelated command: start-up runs again
        with db.session_scope(engine) as s:
            catalog.delete_card(s, ovs.id, expected_version=ovs.version)

        found = entries("--data", str(data))
        assert found["OVK"]["code"] == "OVX"
        assert set(found["OVK"]["states"]) == {"data_changed", "user_changed", "renamed"}
        assert found["OVK"]["cards"] == {"new": [40], "data_changed": [28], "user_changed": [1]}
        assert "conflict" in found["NP1"]["states"] and found["NP1"]["cards"]["conflict"] == [1]

        result = cli("data", "pull", "OVK", "NP1", "--data", str(data))  # NP1-001: both changed
        assert result.exit_code == 2 and "--overwrite" in result.stderr and "cartes 1" in result.stderr
        ok("data", "pull", "OVX", "--data", str(data))  # by its new code: the same edition
        with Session(engine) as s:
            assert s.exec(select(Edition).where(Edition.code == "OVK")).first() is None
            assert catalog.get_card(s, "OVX-040").name == "Dernier mot"
            assert catalog.get_card(s, "OVX-028").name == "Maximiser encore"
            assert catalog.get_card(s, "OVX-001").name == "Mon atout"  # the user's edit stays
            assert catalog.get_edition(s, "OVX").set_size == 40
        assert overkill_cards(engine) == 40

        result = ok("data", "pull", "--all", "--data", str(data))  # leaves NP1 out, and says so
        assert "Pas d'apport, pour garder vos modifications : édition NP1" in result.stdout
        with Session(engine) as s:
            assert catalog.get_card(s, "NP1-001").name == "Apprentie du feu"
        refused = cli("data", "pull", "OVS", "--data", str(data))
        assert refused.exit_code == 0 and "Rien à apporter" in refused.stdout  # deleted card: no data change
        ok("data", "pull", "NP1", "--data", str(data), "--overwrite")
        with Session(engine) as s:
            assert catalog.get_card(s, "NP1-001").name == "Apprentie des forges"
            with pytest.raises(NotFoundError):
                catalog.get_card(s, "OVS-001")
        assert "NP1" not in entries("--data", str(data))
        ok("data", "pull", "OVS", "--data", str(data), "--overwrite")  # asked: the card comes back
        with Session(engine) as s:
            assert catalog.get_card(s, "OVS-001").origin == "OVS-001"
        ok("data", "pull", "OVX", "--data", str(data), "--overwrite")  # asked: the user's edit goes
        with Session(engine) as s:
            assert catalog.get_card(s, "OVX-001").name == "1 rouge"
            assert catalog.get_edition(s, "OVX").origin == "OVK"  # the user's code stays
        left = entries("--data", str(data))
        assert set(left) == {"OVK"} and left["OVK"]["states"] == ["renamed"]
    finally:
        engine.dispose()


def test_a_deleted_starter_deck_is_brought_back_only_when_asked(cli_env) -> None:
    engine = db.make_engine(cli_env)
    try:
        ok("deck", "delete", "La Cour arc-en-ciel", "--game", "nespanini")
        ok("data", "pull", "--all")
        with Session(engine) as s:
            assert s.exec(select(Deck).where(Deck.name == "La Cour arc-en-ciel")).first() is None
        result = cli("data", "pull", "cour-arc-en-ciel")
        assert result.exit_code == 2 and "suppression dans la base" in result.stderr
        assert "« La Cour arc-en-ciel »" in result.stderr
        ok("data", "pull", "La Cour arc-en-ciel", "--overwrite")
        with Session(engine) as s:
            deck = decks.get_deck(s, "La Cour arc-en-ciel", game="nespanini")
            assert deck.origin == "cour-arc-en-ciel"
            assert sum(e.count for e in decks.deck_entries(s, deck).entries) == 20
        assert "cour-arc-en-ciel" not in entries()
    finally:
        engine.dispose()


def test_pull_of_a_changed_game_colour_and_starter_deck(cli_env, tmp_path: Path) -> None:
    data = data_copy(tmp_path)
    games = data / "games.toml"
    games.write_text(games.read_text(encoding="utf-8").replace('name = "OVERKILL"', 'name = "OVERKILL !"'),
                     encoding="utf-8")
    with (data / "stickers.toml").open("a", encoding="utf-8") as f:
        f.write('\n[[colours]]\ncolour = "gris"\nsymbol = "coeur"\nlabel = "Coeur"\n')
    deck = data / "decks" / "maree-et-crypte.txt"
    original = deck.read_text(encoding="utf-8")
    deck.write_text(original.replace("2 Vigie\n", "1 Vigie\n"), encoding="utf-8")  # 19 cards
    engine = db.make_engine(cli_env)
    try:
        found = entries("--data", str(data))
        assert found["overkill"]["states"] == ["data_changed"]
        assert found["gris"]["states"] == ["new"]
        assert found["maree-et-crypte"]["states"] == ["data_changed"]
        refused = cli("data", "pull", "overkill", "gris", "Marée et Crypte", "--data", str(data))
        assert refused.exit_code == 2 and "19 cartes" in refused.stderr
        assert "« Marée et Crypte »" in refused.stderr
        with Session(engine) as s:  # all or nothing, across kinds
            assert s.exec(select(Game).where(Game.code == "overkill")).one().name == "OVERKILL"
        deck.write_text(original.replace("2 Vigie\n", "1 Vigie\n")
                        .replace("1 Oracle des marées\n", "2 Oracle des marées\n"), encoding="utf-8")
        ok("data", "pull", "overkill", "gris", "Marée et Crypte", "--data", str(data))
        with Session(engine) as s:
            game = s.exec(select(Game).where(Game.code == "overkill")).one()
            assert game.name == "OVERKILL !" and game.version == 2
            from cardbase.catalog import stickers

            assert stickers.colour_table(s)["gris"] == "coeur"
            saved = decks.get_deck(s, "Marée et Crypte", game="nespanini")
            counts_by_name = {e.card.name: e.count for e in decks.deck_entries(s, saved).entries}
            assert counts_by_name["Vigie"] == 1 and counts_by_name["Oracle des marées"] == 2
            assert decks.is_starter_deck(s, saved)  # still the shipped deck, with one more version
        assert entries("--data", str(data)) == {}
    finally:
        engine.dispose()


def test_status_in_english_on_request(cli_env, tmp_path: Path) -> None:
    data = data_copy(tmp_path)
    (data / "editions" / "OK2.toml").write_text(NEW_EDITION, encoding="utf-8")
    result = ok("--lang", "en", "data", "status", "--data", str(data))
    assert "edition OK2" in result.stdout and "added in data/" in result.stdout


# --------------------------------------------------------------------------- older databases

def test_a_database_seeded_before_origins_is_adopted_once(backend, make_db) -> None:
    """Migration 0003 on a database an older cardbase seeded: what it holds is recognised by its
    code (never added twice), what it lacks of an existing edition counts as deleted by a user,
    and the next starts leave it alone."""
    engine = db.make_engine(make_db(backend, seeded=False))
    try:
        db.drop_all(engine)
        older_database(engine, game="overkill", game_name="OVERKILL", edition="OVK", set_size=39, number=28,
                       name="Maximiser", stats='{"objectif": 27}')
        report = db.init_db(engine)
        assert db.current_revision(engine) == db.head_revision()
        assert report["editions"] == 4 and report["games"] == 4, report
        with Session(engine) as s:
            assert overkill_cards(engine) == 1
            assert catalog.get_edition(s, "OVK").origin == "OVK"
            assert catalog.get_card(s, "OVK-028").origin == "OVK-028"
            assert s.exec(select(Game).where(Game.code == "overkill")).one().origin == "overkill"
            st = seed.status(s)
        ovk = next(e for e in st.entries if e.origin == "OVK")
        assert ovk.states == ["user_changed"] and len(ovk.cards["deleted"]) == 38
        again = db.init_db(engine)
        assert not any(again.values()) and overkill_cards(engine) == 1
    finally:
        engine.dispose()


def test_card_texts_follow_the_databases_sticker_colours(session) -> None:
    """The sticker colour table is seeded once, then the database's: a colour added there is a
    symbol card texts may use, a colour deleted there is not (the check used to read
    data/stickers.toml, refusing « {sticker:gris} » while listing gris among the known symbols)."""
    from cardbase.catalog import stickers
    from cardbase.errors import ValidationError
    from cardbase.storage.models import StickerColour

    stickers.add_colour(session, "gris", "coeur")
    card = catalog.create_card(session, edition="OVS", fields={"number": 90, "name": "Gris",
                                                               "effect_text": "Posez {sticker:gris}"})
    assert card.effect_text == "Posez {sticker:gris}"
    session.delete(session.exec(select(StickerColour).where(StickerColour.colour == "rouge")).one())
    session.flush()
    session.info.clear()  # as a new command would read it
    with pytest.raises(ValidationError, match="sticker:rouge"):
        catalog.create_card(session, edition="OVS", fields={"number": 91, "name": "Rouge",
                                                            "effect_text": "Posez {sticker:rouge}"})


# --------------------------------------------------------------------------- first run, fast and the same

SMALL_GAMES = """
[[games]]
code = "mini"
name = "Mini"
min_players = 2
max_players = 2
deck_size = 6
copy_limit = 2
keyword_limits = { foule = 2 }

[games.fields]
value = { type = "int", min = 0, max = 9 }
force = { type = "int", min = 0, max = 5, label = "Force", label_en = "Strength" }

[[games]]
code = "autre"
name = "Autre jeu"
min_players = 1
max_players = 4
"""
SMALL_COLOURS = """
[[colours]]
colour = "rouge"
symbol = "coeur"
label = "Coeur"

[[colours]]
colour = "bleu"
symbol = "goutte"
label = "Goutte d'eau"
"""
SMALL_DECK = "# name: Petit deck\n# game: mini\n2 Braise\n2 Vague\n1 Foule rouge\n1 Foule bleue\n"


def small_data(folder: Path) -> Path:
    """A data folder of every kind seeding reads, with what it must leave out: an edition file that
    does not read, an edition that does not validate, a starter deck that does not resolve."""
    (folder / "editions").mkdir(parents=True)
    (folder / "decks").mkdir()
    (folder / "games.toml").write_text(SMALL_GAMES, encoding="utf-8")
    (folder / "stickers.toml").write_text(SMALL_COLOURS, encoding="utf-8")
    cards = [("Braise", 3, "rouge", [], 2), ("Vague", 4, "bleu", [], 1), ("Foule rouge", 1, "rouge", ["Foule"], 0),
             ("Foule bleue", 2, "bleu", ["Foule"], 5), ("Étincelle", 0, "rouge", [], None),
             ("Marée", 9, "bleu", ["Défausse"], 3)]
    text_ = '[edition]\ngame = "mini"\ncode = "MIN"\nname = "Mini, première"\ndate = 2026-11-01\n'
    for number, (name, value, colour, keywords, force) in enumerate(cards, start=1):
        text_ += f'\n[[cards]]\nnumber = {number}\nname = "{name}"\nvalue = {value}\ncolour = "{colour}"\n'
        text_ += f"keywords = {json.dumps(keywords, ensure_ascii=False)}\n"
        text_ += f"force = {force}\n" if force is not None else ""
    (folder / "editions" / "MIN.toml").write_text(text_, encoding="utf-8")
    (folder / "editions" / "AUT.toml").write_text(
        '[edition]\ngame = "autre"\ncode = "AUT"\nname = "Autre"\n\n[[cards]]\nnumber = 1\nname = "Seule"\n'
        'effect_text = "Piochez **deux** cartes."\n\n[[cards]]\nnumber = 2\nname = "Seconde"\ncopies = 3\n',
        encoding="utf-8")
    (folder / "editions" / "BAD.toml").write_text('[edition]\ngame = "mini"\ncode = ', encoding="utf-8")
    (folder / "editions" / "LOIN.toml").write_text(
        '[edition]\ngame = "mini"\ncode = "LOIN"\nname = "Refusée"\n\n[[cards]]\nnumber = 1\nname = "Trop loin"\n'
        'art = "../../etc/passwd"\n', encoding="utf-8")
    (folder / "decks" / "petit.txt").write_text(SMALL_DECK, encoding="utf-8")
    (folder / "decks" / "casse.txt").write_text("# game: mini\n3 Inconnue\n", encoding="utf-8")
    return folder


# Digests of the database the seeding before its speed-up (records read one query each, one insert
# a record, one Card object a card) left from small_data(), on a new database and on an older one
# it adopts. PostgreSQL's
# sequences do not give back the id of the edition seeding refused (a savepoint rolled back).
SEEDED_BEFORE = {
    ("sqlite", "fresh"): "6703455a86f91cf849c225ac7ed34297e809df5fc3dc8626ef0e2fab84e47622",
    ("postgresql", "fresh"): "cea914373eec9b92c42c3102686e2bc6707110aedf9abad3bfff1253a56c97c0",
    ("sqlite", "adopt"): "abb7b613b5670a162e316b5d9a03e34feb9499c3569372079a77bf1bc149b9de",
    ("postgresql", "adopt"): "abb7b613b5670a162e316b5d9a03e34feb9499c3569372079a77bf1bc149b9de",
}


@pytest.mark.parametrize("start", ["fresh", "adopt"])
def test_first_run_seeding_leaves_the_database_it_always_did(backend, make_db, tmp_path, start) -> None:
    """Seeding reads the records once and writes the new ones in one insert, an edition's cards in
    another (the app's first page waits for it): the rows, their ids, the counts and the warnings
    are those of one query a record and one object a card."""
    data = small_data(tmp_path / "data")
    engine = db.make_engine(make_db(backend, seeded=False))
    try:
        db.drop_all(engine)
        if start == "adopt":  # a database an older cardbase seeded, before seed identities
            older_database(engine, game="mini", game_name="Mini", edition="MIN", set_size=6, number=2,
                           name="Vague", value=4, text_key="vague")
        report = db.init_db(engine, data_dir=data)
        warnings = [w.replace(str(tmp_path), "<tmp>") for w in report.warnings]
        assert any("BAD.toml" in w for w in warnings) and any("LOIN.toml" in w for w in warnings), warnings
        assert any("casse" in w for w in warnings), warnings
        # on the older database, the starter deck names cards its MIN edition does not hold
        assert len(warnings) == (3 if start == "fresh" else 4), warnings
        assert dict(report) == ({"games": 2, "sticker_colours": 2, "editions": 2, "decks": 1} if start == "fresh"
                                else {"games": 1, "sticker_colours": 2, "editions": 1, "decks": 0}), dict(report)
        with Session(engine) as s:
            # two games, two colours, two editions and their eight cards, the starter deck, the marker
            assert s.exec(select(func.count()).select_from(SeedItem)).one() == 2 + 2 + 2 + 8 + (start == "fresh") + 1
            origins = sorted(s.exec(select(Card.origin).join(Edition).where(Edition.code == "MIN")).all())
            # an edition an older cardbase held keeps its cards: the others count as deleted by a user
            assert origins == (["MIN-002"] if start == "adopt" else [f"MIN-00{n}" for n in range(1, 7)])
        assert database_digest(engine) == SEEDED_BEFORE[(backend, start)]
        assert not any(db.init_db(engine, data_dir=data).values())  # seeded once
    finally:
        engine.dispose()
