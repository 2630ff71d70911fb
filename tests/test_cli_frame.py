"""The frame of the ``cardbase`` command: light start-up, help and usage errors in French or English."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cardbase import i18n
from cardbase.cli import app
from cardbase.cli.frame import COMMANDS, CardbaseGroup, help_key_candidates, missing_help

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("sqlalchemy", "sqlmodel", "pandas", "numpy", "PIL", "alembic")
runner = CliRunner()


@pytest.fixture(autouse=True)
def _keep_language() -> Iterator[None]:
    """``--lang`` sets the process's language; give the next test the language it had."""
    with i18n.use_language(i18n.current_language()):
        yield


def _modules_after(*args: str, watch: tuple[str, ...] = HEAVY, env: dict[str, str] | None = None) -> dict:
    """Run ``cardbase ARGS`` in a fresh interpreter; its exit code and which of the ``watch``
    modules (or packages: their submodules count) it loaded. ``env``: more environment."""
    script = (
        "import json, sys\n"
        "sys.argv = ['cardbase', *sys.argv[1:]]\n"
        "from cardbase.cli import main\n"
        "code = 0\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    code = exc.code or 0\n"
        f"watch = {watch!r}\n"
        "heavy = sorted(w for w in watch\n"
        "               if any(m == w or m.startswith(w + '.') for m in sys.modules))\n"
        "sys.stderr.write('\\n' + json.dumps({'code': code, 'heavy': heavy}) + '\\n')\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    env.pop("CARDBASE_LANG", None)
    done = subprocess.run([sys.executable, "-c", script, *args], env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    return json.loads(done.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("args", [
    ("sticker", "encode", "17"),
    ("--help",),
    ("--lang", "en", "sticker", "decode", "deux points"),
    ("sticker", "--help"),
    ("deck", "validate", "--help"),
    ("sim", "duel", "--help"),
])
def test_small_commands_import_nothing_heavy(args):
    seen = _modules_after(*args)
    assert seen["code"] == 0
    assert seen["heavy"] == [], f"cardbase {' '.join(args)} imported {seen['heavy']}"


def test_a_command_that_needs_the_database_still_loads_it():
    """The check above can fail: the same probe sees the database layer when a command uses it."""
    seen = _modules_after("db", "--help")
    assert "sqlalchemy" in seen["heavy"]


# Modules a read-only command does not need: images, tables, the app, games, printing, and what
# only writes use (seeding from data/, the editor's permissions).
NOT_FOR_READS = ("PIL", "pandas", "numpy", "streamlit", "pyarrow", "alembic", "cardbase.outputs",
                 "cardbase.playtest", "cardbase.ui", "cardbase.catalog.seed",
                 "cardbase.storage.datafiles", "cardbase.access", "cardbase.storage.writelock")
# What the read-only path of the SQLite default (cardbase.storage.readonly) never loads: the
# database layer of the writes (SQLAlchemy, SQLModel, the tables, engines and migrations, the
# catalog's services).
DATABASE_LAYER = ("sqlalchemy", "sqlmodel", "cardbase.storage.models", "cardbase.storage.db",
                  "cardbase.catalog.cards", "cardbase.catalog.gamesdata", "cardbase.decks.saved")
FULL_PATH = {"CARDBASE_FAST_READS": "0"}
DECK = str(ROOT / "data" / "decks" / "braises-ardentes.txt")
READS = [
    (("cards", "search", "c:rouge k:foule"), 0, False),
    (("cards", "search", "c:rouge", "--json"), 0, False),
    (("cards", "search", "c:rouj"), 2, False),
    (("cards", "show", "NP1-001"), 0, False),
    (("cards", "show", "CTT-001", "--json"), 0, False),
    (("--lang", "en", "cards", "show", "NP1-010"), 0, True),  # its effect in English (R13)
    (("deck", "stats", DECK), 0, False),
    (("deck", "validate", DECK), 0, True),  # its warnings come from the NesPanini rules (R10)
]


@pytest.mark.parametrize(("args", "code", "games"), READS)
def test_read_only_commands_import_only_what_they_need(cli_env, backend, args, code, games):
    _modules_after("cards", "search", "c:rouge")  # the first run seeds the test database
    seen = _modules_after(*args, watch=(*NOT_FOR_READS, "cardbase.games"))
    assert seen["code"] == code
    expected = ["cardbase.games"] if games else []
    assert seen["heavy"] == expected, f"cardbase {' '.join(args)} imported {seen['heavy']}"
    # SQLite: the read-only path, without the database layer; PostgreSQL: SQLAlchemy, as before
    layer = _modules_after(*args, watch=DATABASE_LAYER)["heavy"]
    if backend == "sqlite":
        assert layer == [], f"cardbase {' '.join(args)} imported {layer}"
    else:
        assert "sqlalchemy" in layer
    # the probe sees them when the command takes the full path
    assert "sqlalchemy" in _modules_after(*args, watch=DATABASE_LAYER, env=FULL_PATH)["heavy"]


def test_an_export_reads_without_the_database_layer(cli_env, backend, tmp_path):
    _modules_after("cards", "search", "c:rouge")  # the first run seeds the test database
    args = ("cards", "export", str(tmp_path / "out.csv"), "--query", "c:rouge")
    seen = _modules_after(*args, watch=(*NOT_FOR_READS, *DATABASE_LAYER))
    assert seen["code"] == 0 and (tmp_path / "out.csv").stat().st_size > 100
    heavy = set(seen["heavy"])
    assert not heavy & set(NOT_FOR_READS), heavy
    assert (not heavy) if backend == "sqlite" else ("sqlalchemy" in heavy), heavy
    assert "sqlalchemy" in _modules_after(*args, watch=DATABASE_LAYER, env=FULL_PATH)["heavy"]


@pytest.mark.parametrize("source", [("--edition", "NP1"), ("--deck", DECK),
                                    ("--query", "c:rouge k:foule")])
def test_a_print_reads_its_cards_without_the_database_layer(cli_env, backend, tmp_path, source):
    """A print needs Pillow and the printing code, not SQLAlchemy: on the SQLite default its cards
    come from the read-only snapshot (the same file either way: tests/test_readonly.py)."""
    _modules_after("cards", "search", "c:rouge")  # the first run seeds the test database
    args = ("print", *source, "--out", str(tmp_path / "x.pdf"), "--workers", "1")
    seen = _modules_after(*args, watch=("PIL", "cardbase.outputs", *DATABASE_LAYER))
    assert seen["code"] == 0 and (tmp_path / "x.pdf").stat().st_size > 100_000
    heavy = set(seen["heavy"])
    assert {"PIL", "cardbase.outputs"} <= heavy  # the probe sees what the print loads
    layer = heavy & set(DATABASE_LAYER)
    assert (not layer) if backend == "sqlite" else ("sqlalchemy" in layer), layer
    assert "sqlalchemy" in _modules_after(*args, watch=DATABASE_LAYER, env=FULL_PATH)["heavy"]


@pytest.mark.parametrize("args", [
    ("sim", "game", "overkill", "--games", "3", "--json"),
    ("sim", "game", "overkill", "--games", "3", "--workers", "1"),
])
def test_a_batch_of_box_games_loads_no_images_nor_tables(cli_env, backend, args):
    """A batch's fixed cost: the cards come from the database, the games need neither Pillow and
    the printing code (a print's templates) nor pandas (the NesPanini tables), nor — on the
    SQLite default — the database layer, nor the NesPanini engine for another game."""
    _modules_after("cards", "search", "c:rouge")  # the first run seeds the test database
    watch = ("PIL", "pandas", "numpy", "cardbase.outputs", "streamlit", "cardbase.games.nespanini")
    seen = _modules_after(*args, watch=watch)
    assert seen["code"] == 0
    assert seen["heavy"] == [], f"cardbase {' '.join(args)} imported {seen['heavy']}"
    layer = _modules_after(*args, watch=DATABASE_LAYER)["heavy"]
    assert (layer == []) if backend == "sqlite" else ("sqlalchemy" in layer), layer
    assert "sqlalchemy" in _modules_after(*args, watch=DATABASE_LAYER, env=FULL_PATH)["heavy"]


def _tree() -> list[tuple[str, ...]]:
    """Every command path of the ``cardbase`` command, groups included."""
    root = typer.main.get_command(app)
    assert isinstance(root, CardbaseGroup)
    paths: list[tuple[str, ...]] = []

    def walk(command, path):
        paths.append(path)
        if isinstance(command, CardbaseGroup):
            subs = {name: command.get_command(None, name) for name in command.list_commands(None)}
        else:
            subs = getattr(command, "commands", None) or {}
        for name, sub in subs.items():
            walk(sub, (*path, name))

    walk(root, ())
    return paths


def test_the_tree_has_every_command():
    paths = _tree()
    assert set(COMMANDS) <= {p[0] for p in paths if p}
    assert ("deck", "validate") in paths and ("sticker", "encode") in paths and ("sim", "ladder") in paths
    assert len(paths) > 35


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_command_and_option_has_help_in_both_languages(lang):
    root = typer.main.get_command(app)
    missing = missing_help(root, lang=lang)
    assert missing == [], (f"no {lang} help for {missing}: add cli.help.<command path>.about or "
                           ".opt.<name> (fr and en) to cardbase/i18n/messages/cli.toml")
    # ... and no text is shared by the two languages by mistake (a French text in English).
    fr, en = i18n.table("fr"), i18n.table("en")
    same = [k for k in fr if k.startswith("cli.help.") and fr[k] == en.get(k)
            and any(c in fr[k] for c in "éèàçù")]
    assert same == []


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_help_works_in_both_languages(lang):
    usage, help_option = (("Utilisation :", "Affiche cette aide") if lang == "fr"
                          else ("Usage:", "Show this message and exit"))
    for path in _tree():
        result = runner.invoke(app, ["--lang", lang, *path, "--help"])
        where = f"cardbase --lang {lang} {' '.join(path)} --help"
        assert result.exit_code == 0, f"{where}: {result.output}"
        assert "Traceback" not in result.output
        assert usage in result.output and help_option in result.output, where
        about = i18n.translate(lang, help_key_candidates(path)[0])
        first_words = " ".join(about.split()[:3])
        assert first_words in " ".join(result.output.split()), f"{where}: {first_words!r} not shown"


def test_english_on_request_french_by_default(monkeypatch):
    fr = runner.invoke(app, ["deck", "validate", "--help"])
    assert "Vérifie un deck selon les règles de son jeu" in fr.output
    assert "Fichier de liste de deck" in fr.output and "Options" in fr.output
    en = runner.invoke(app, ["--lang", "en", "deck", "validate", "--help"])
    assert "Check a deck against its game's rules" in en.output
    assert "Deck-list file" in en.output
    assert "Vérifie" not in en.output and "Utilisation" not in en.output
    monkeypatch.setenv("CARDBASE_LANG", "en")
    env = runner.invoke(app, ["deck", "--help"])
    assert "Check, analyse, share and save decks" in env.output and "Commands" in env.output
    flag_wins = runner.invoke(app, ["--lang", "fr", "deck", "--help"])
    assert "Vérifier, analyser, partager" in flag_wins.output and "Commandes" in flag_wins.output


def test_messages_follow_the_language():
    fr = runner.invoke(app, ["sticker", "encode"])
    assert fr.exit_code == 2
    assert "erreur : il manque l'argument VALUE." in fr.stderr
    assert "Essayez « cardbase sticker encode --help » pour l'aide." in fr.stderr
    en = runner.invoke(app, ["--lang", "en", "sticker", "encode"])
    assert en.exit_code == 2
    assert "error: missing argument VALUE." in en.stderr and "Usage: cardbase sticker encode" in en.stderr


def test_without_lang_every_run_speaks_french(monkeypatch):
    """Each run without --lang or CARDBASE_LANG is French, whatever ran before it in the process."""
    assert runner.invoke(app, ["--lang", "en", "sticker", "encode"]).exit_code == 2
    with i18n.use_language("en"):
        result = runner.invoke(app, ["sticker", "encode"])
    assert "erreur : " in result.stderr and "error:" not in result.stderr
    monkeypatch.setenv("CARDBASE_LANG", "en")
    assert "error: missing argument VALUE." in runner.invoke(app, ["sticker", "encode"]).stderr


def test_lang_after_the_command_name():
    result = runner.invoke(app, ["sticker", "encode", "--lang", "en"])
    assert result.exit_code == 2 and "error: missing argument VALUE." in result.stderr
    helped = runner.invoke(app, ["deck", "stats", "--help", "--lang=en"])
    assert helped.exit_code == 0 and "Value curve, colours" in helped.output
    # After "--" nothing is an option: the argument is the sticker text itself.
    literal = runner.invoke(app, ["--lang", "en", "sticker", "decode", "--", "--lang"])
    assert literal.exit_code == 2 and "--lang" in literal.stderr and "error:" in literal.stderr


def test_unknown_language_falls_back_to_french_with_a_warning():
    result = runner.invoke(app, ["--lang", "xx", "sticker", "encode", "17"])
    assert result.exit_code == 0
    assert result.stdout.startswith("17 = un carré pointé + un rond pointé + deux points")
    assert "langue « xx » inconnue" in result.stderr and "fr, en" in result.stderr
    helped = runner.invoke(app, ["--lang", "klingon", "--help"])
    assert helped.exit_code == 0 and "Utilisation" in helped.output and "Commandes" in helped.output


@pytest.mark.parametrize(("args", "fr", "en"), [
    (["stiker", "encode", "17"], "commande inconnue : stiker. Vouliez-vous dire sticker ?",
     "no such command: stiker. Did you mean sticker?"),
    (["deck", "validat", "x"], "commande inconnue : validat. Vouliez-vous dire validate ?",
     "no such command: validat. Did you mean validate?"),
    (["sticker", "encode", "17", "--bogus"], None, None),
    (["sticker", "encode", "3", "4"], "trop d'arguments : 4 en trop.", "too many arguments: 4 left over."),
    (["sim", "duel", "a", "b", "--games", "many"],
     "valeur invalide pour --games / -n : ce n'est pas un nombre entier.",
     "invalid value for --games / -n: not a whole number."),
    (["render", "NP1-001", "--out"], "l'option --out attend une valeur.", "option --out needs a value."),
    (["cards", "show"], "il manque l'argument CARD.", "missing argument CARD."),
    (["--bogus"], "option inconnue : --bogus.", "no such option: --bogus."),
])
def test_usage_errors_are_one_clear_message_exit_2(args, fr, en):
    for lang, expected in (("fr", fr), ("en", en)):
        result = runner.invoke(app, ["--lang", lang, *args])
        assert result.exit_code == 2, result.output
        assert ("Traceback" not in result.output and result.exception is None) or \
            isinstance(result.exception, SystemExit)
        prefix = "erreur : " if lang == "fr" else "error: "
        assert prefix in result.stderr
        if expected is not None:
            assert prefix + expected in result.stderr


def test_messages_are_found_by_area_without_reading_every_table():
    """A short command parses its own messages file, not every table (start-up time)."""
    i18n.table.cache_clear()
    i18n._area_table.cache_clear()
    assert i18n.find("en", "cli.frame.usage") == "Usage:"
    assert i18n.table.cache_info().currsize == 0
    assert i18n.find("fr", "cli.help.nope", area_only=True) is None
    assert i18n.table.cache_info().currsize == 0
    # A key outside the messages files (the app's tables) is still found, through the whole table.
    assert i18n.find("en", "nav.cards") == "Cards" and i18n.translate("fr", "cli.error", message="x") == "erreur : x"
    assert i18n.find("xx", "cli.frame.usage") == "Utilisation :"
