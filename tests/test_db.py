"""Database set-up: migrations agree with the models, seeding is idempotent, SQLite pragmas."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlmodel import Session, SQLModel, func, select

import cardbase.storage.models  # noqa: F401
from cardbase.storage import db
from cardbase.storage.models import Card, Edition, Game


def test_migrations_match_models(empty_engine):
    with empty_engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        diff = compare_metadata(ctx, SQLModel.metadata)
    assert diff == [], f"models and migrations disagree; write a migration: {diff}"


def test_migration_head_is_current(empty_engine):
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(db.alembic_config(empty_engine)).get_current_head()
    assert db.current_revision(empty_engine) == head


@pytest.mark.sqlite_only("checks SQLite connection PRAGMAs")
def test_sqlite_pragmas(engine):
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 10000


def test_foreign_keys_enforced(engine):
    import pytest
    from sqlalchemy.exc import IntegrityError

    with Session(engine) as s:
        s.add(Card(edition_id=99999, number=1, name="orpheline"))
        with pytest.raises(IntegrityError):
            s.commit()


def test_seed_is_idempotent_and_keeps_edits(engine):
    with Session(engine) as s:
        n_cards = s.exec(select(func.count()).select_from(Card)).one()
        card = s.exec(select(Card)).first()
        card.name = "Nom changé par un designer"
        s.add(card)
        s.commit()
        card_id = card.id
    counts = db.init_db(engine)
    assert all(v == 0 for v in counts.values()), counts
    with Session(engine) as s:
        assert s.exec(select(func.count()).select_from(Card)).one() == n_cards
        assert s.get(Card, card_id).name == "Nom changé par un designer"


def test_first_use_creates_and_seeds(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'fresh' / 'cardbase.db'}"
    engine = db.get_engine(url)
    try:
        with Session(engine) as s:
            games = set(s.exec(select(Game.code)).all())
            assert {"nespanini", "overkill", "pushluck", "ctterror", "overseers"} <= games
            assert s.exec(select(func.count()).select_from(Edition)).one() >= 4
        assert "card" in inspect(engine).get_table_names()
    finally:
        db.dispose_engines()


def test_unique_number_per_edition(engine):
    import pytest
    from sqlalchemy.exc import IntegrityError

    with Session(engine) as s:
        card = s.exec(select(Card)).first()
        s.add(Card(edition_id=card.edition_id, number=card.number, name="doublon"))
        with pytest.raises(IntegrityError):
            s.commit()


def test_database_url_env(monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:p@h/db")
    assert db.database_url() == "postgresql+psycopg://u:p@h/db"
    monkeypatch.delenv("DATABASE_URL")
    assert db.database_url().startswith("sqlite:///")
    with db.make_engine(f"sqlite:///{tmp_path}/x.db").connect() as conn:
        assert conn.execute(text("select 1")).scalar() == 1


# --------------------------------------------------------------------------- start-up never bricks

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from conftest import BACKENDS
from typer.testing import CliRunner

from cardbase import decks, i18n
from cardbase.catalog import cards as catalog
from cardbase.cli import app
from cardbase.storage.models import Deck

ROOT = Path(__file__).resolve().parent.parent
CARDBASE = [sys.executable, "-c", "from cardbase.cli import main; main()"]
runner = CliRunner()


def _cardbase(*args: str, url: str, timeout: float = 120, **env: str) -> subprocess.CompletedProcess:
    """The ``cardbase`` command as a user runs it: a new process, DATABASE_URL, French."""
    full_env = {k: v for k, v in os.environ.items() if k not in ("CARDBASE_LANG",)}
    full_env.update({"DATABASE_URL": url, "PYTHONPATH": str(ROOT), **env})
    return subprocess.run([*CARDBASE, *args], capture_output=True, text=True, env=full_env, cwd=ROOT,
                          timeout=timeout)


def _rename(engine, ref: str, new_name: str) -> None:
    with db.session_scope(engine) as s:
        card = catalog.get_card(s, ref)
        catalog.update_card(s, card.id, expected_version=card.version, changes={"name": new_name})


def test_renaming_a_starter_deck_card_keeps_every_command_working(cli_env):
    """Issue 16.1: the saved starter deck refers to the card by identity; start-up does not
    re-check it against its file."""
    engine = db.make_engine(cli_env)
    result = runner.invoke(app, ["cards", "edit", "NP1-001", "--version", "1",
                                 "--set", "name=Apprentie du feu"])
    assert result.exit_code == 0, result.output
    db.dispose_engines()
    for args in (["cards", "show", "NP1-001"], ["init"], ["deck", "list"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
        db.dispose_engines()
    with Session(engine) as s:
        deck = decks.get_deck(s, "Braises ardentes", game="nespanini")
        resolved = decks.deck_entries(s, deck)
        names = {e.card.name for e in resolved.entries}
        assert sum(e.count for e in resolved.entries) == 20
    assert "Apprentie du feu" in names and "Apprentie forgeronne" not in names
    engine.dispose()


def test_unresolvable_starter_deck_is_a_message_not_a_failure(cli_env):
    """A deleted starter deck stays deleted (start-up seeds once); bringing it back from data/
    when its file names a card renamed since is refused with a message naming the card."""
    engine = db.make_engine(cli_env)
    _rename(engine, "NP1-001", "Apprentie du feu")
    with db.session_scope(engine) as s:
        deck = decks.get_deck(s, "Braises ardentes", game="nespanini")
        decks.delete_deck(s, deck.id)
    db.dispose_engines()
    result = runner.invoke(app, ["cards", "show", "NP1-001"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["init"])
    assert result.exit_code == 0, result.output
    assert "Braises ardentes" not in result.output
    result = runner.invoke(app, ["data", "pull", "braises-ardentes", "--overwrite"])
    assert result.exit_code == 2, result.output
    assert "Braises ardentes" in result.stderr and "Apprentie forgeronne" in result.stderr
    assert result.stderr.startswith("erreur : ") and "Traceback" not in result.output
    with Session(engine) as s:  # the other starter decks are still there, nothing else changed
        assert len(s.exec(select(Deck)).all()) == 3
    engine.dispose()


def test_broken_data_files_never_block_start_up(backend, make_db, tmp_path):
    """A data file a designer broke by hand: a seeded database starts without reading data/, and
    ``data status`` names the broken files; on a first run, a file that does not read is left out
    with a warning."""
    data = tmp_path / "data"
    shutil.copytree(db.DATA_DIR, data, ignore=shutil.ignore_patterns("*.db*"))
    (data / "editions" / "NP1.toml").write_text("[edition\ncode = ", encoding="utf-8")
    (data / "editions" / "ZZ9.toml").write_text("this is = not [toml", encoding="utf-8")
    (data / "games.toml").write_text("[[games]]\ncode = 3\n[[games", encoding="utf-8")
    (data / "decks" / "cassé.txt").write_bytes(b"\xff\xfe 4 Villageois\n")
    (data / "stickers.toml").write_text("[[colours]]\ncolour = \"rouge\"\n", encoding="utf-8")
    engine = db.make_engine(make_db(backend, seeded=True))
    try:
        report = db.init_db(engine, data_dir=data)
        assert all(v == 0 for v in report.values()) and not report.warnings, report
        from cardbase.catalog import seed

        with Session(engine) as s:
            st = seed.status(s, data)
        text_ = "\n".join(st.warnings)
        assert "ZZ9.toml" in text_ and "games.toml" in text_ and "cassé.txt" in text_
        assert "stickers.toml" in text_ and "NP1.toml" in text_
        # An unreadable file is a warning, never an edition "gone from data/".
        assert not any(e.origin in ("NP1", "ZZ9") or "gone" in e.states for e in st.entries), st.entries
    finally:
        engine.dispose()
    # On an empty database: what can be read is added, the rest is reported.
    engine = db.make_engine(make_db(backend, seeded=False))
    try:
        (data / "games.toml").write_bytes((db.DATA_DIR / "games.toml").read_bytes())
        report = db.init_db(engine, data_dir=data)
        assert report["games"] == 5 and report["editions"] == 4, report
        assert any("NP1.toml" in w for w in report.warnings)
        assert any("ZZ9.toml" in w for w in report.warnings)
        assert db.current_revision(engine) == db.head_revision()
    finally:
        engine.dispose()


def _fresh_url(backend: str, tmp_path: Path, request) -> str:
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'nouveau' / 'cardbase.db'}"
    cluster = request.getfixturevalue("pg_cluster")
    name = cluster.create_database()
    request.addfinalizer(lambda: cluster.drop_database(name))
    return cluster.url(name)


def test_six_first_runs_at_once(backend, tmp_path, request):
    """Issue 16.3: six processes start on a new database at the same moment; all succeed."""
    url = _fresh_url(backend, tmp_path, request)
    go = tmp_path / "go"
    script = ("import os, sys, time\n"
              "from cardbase.cli import main\n"
              "import cardbase.storage.db, cardbase.catalog.seed, cardbase.catalog.cards, alembic.command\n"
              f"while not os.path.exists({str(go)!r}): time.sleep(0.005)\n"
              "main()\n")
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", script, "cards", "show", "NP1-001"], env=env,
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(6)]
    time.sleep(2.5)  # every process has done its imports and waits for the signal
    go.write_text("go")
    results = [p.communicate(timeout=180) + (p.returncode,) for p in procs]
    for out, err, code in results:
        assert code == 0, err
        assert "NP1" in out and "Traceback" not in err
    engine = db.make_engine(url)
    try:
        with Session(engine) as s:  # seeded once, not six times
            assert s.exec(select(func.count()).select_from(Game)).one() == 5
            assert s.exec(select(func.count()).select_from(Deck)).one() == 4
    finally:
        engine.dispose()


def test_a_lock_that_persists_becomes_a_message(backend, tmp_path, request):
    """Issue 16.3: another process holds the start-up lock; after the bounded wait, a message."""
    url = _fresh_url(backend, tmp_path, request)
    if backend == "sqlite":
        path = Path(url.removeprefix("sqlite:///"))
        path.parent.mkdir(parents=True)
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("PRAGMA journal_mode=WAL")
        holder.execute("BEGIN IMMEDIATE")
    else:
        import psycopg
        from sqlalchemy.engine import make_url

        u = make_url(url)
        holder = psycopg.connect(host=u.host, port=u.port, user=u.username, dbname=u.database,
                                 autocommit=True)
        holder.execute("SELECT pg_advisory_lock(%s)", (db.INIT_LOCK_KEY,))
    try:
        proc = _cardbase("cards", "show", "NP1-001", url=url, CARDBASE_DB_LOCK_TIMEOUT="1")
    finally:
        holder.close()
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "occupée par un autre processus" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    proc = _cardbase("cards", "show", "NP1-001", url=url)  # once the lock is gone, it works
    assert proc.returncode == 0, proc.stderr


def test_unreachable_database_is_one_line(backend, tmp_path):
    """Issue 16.4: no traceback; the message names where the database was looked for; exit 2."""
    from pg_support import free_port

    if backend == "sqlite":
        blocker = tmp_path / "un-fichier"
        blocker.write_text("x")
        url, where = f"sqlite:///{blocker / 'cardbase.db'}", str(blocker / "cardbase.db")
    else:
        port = free_port()
        url, where = f"postgresql+psycopg://cardbase:Secret-Pw1@127.0.0.1:{port}/cardbase", f"127.0.0.1:{port}"
    proc = _cardbase("cards", "show", "NP1-001", url=url, CARDBASE_DB_CONNECT_TIMEOUT="3")
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert where in proc.stderr and "Secret-Pw1" not in proc.stderr + proc.stdout
    assert len(proc.stderr.strip().splitlines()) == 1
    assert proc.stderr.startswith("erreur : ")


def test_a_malformed_url_is_never_repeated():
    for url in ("postgresql+psycopg//moi:Secret-Pw1@hote/base", "Secret-Pw1"):
        proc = _cardbase("cards", "show", "NP1-001", url=url)
        assert proc.returncode == 2, proc.stderr
        assert "Secret-Pw1" not in proc.stderr + proc.stdout and "Traceback" not in proc.stderr
        assert "DATABASE_URL" in proc.stderr


@pytest.fixture
def password_role(request):
    """A PostgreSQL role that must give its password (``%`` and ``@`` in it) and its database."""
    if "postgresql" not in BACKENDS:
        pytest.skip("PostgreSQL left out by CARDBASE_TEST_BACKENDS")
    cluster = request.getfixturevalue("pg_cluster")
    role, password = cluster.new_name("pw"), "s3cr%t@100%"
    hba = cluster.data_dir / "pg_hba.conf"
    original = hba.read_text()
    hba.write_text(f"host all {role} 127.0.0.1/32 scram-sha-256\n" + original)
    cluster.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
    name = cluster.create_database()
    cluster.execute(f'ALTER DATABASE "{name}" OWNER TO {role}')
    cluster.execute("SELECT pg_reload_conf()")
    yield cluster, role, password, name
    hba.write_text(original)
    cluster.execute("SELECT pg_reload_conf()")
    cluster.drop_database(name)
    cluster.execute(f"DROP ROLE IF EXISTS {role}")


def test_password_with_percent_works_and_is_never_printed(password_role):
    """Issue 16.4: a ``%`` in the password used to break every command and print the URL."""
    from urllib.parse import quote

    cluster, role, password, name = password_role
    good = f"postgresql+psycopg://{role}:{quote(password, safe='')}@127.0.0.1:{cluster.port}/{name}"
    proc = _cardbase("init", url=good)
    assert proc.returncode == 0, proc.stderr
    assert password not in proc.stdout + proc.stderr
    assert quote(password, safe="") not in proc.stdout + proc.stderr
    assert _cardbase("cards", "show", "NP1-001", url=good).returncode == 0

    bad = f"postgresql+psycopg://{role}:{quote('faux%' + password, safe='')}@127.0.0.1:{cluster.port}/{name}"
    proc = _cardbase("cards", "show", "NP1-001", url=bad)
    assert proc.returncode == 2, proc.stderr
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out and password not in out and quote(password, safe="") not in out
    assert f"127.0.0.1:{cluster.port}" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_start_up_messages_in_english_on_request(cli_env):
    with i18n.use_language("en"):
        result = runner.invoke(app, ["--lang", "en", "init"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("database ready at ")
    result = runner.invoke(app, ["init"])
    assert result.output.startswith("base de données prête : ")


def test_database_of_a_newer_version_is_a_message(db_url):
    engine = db.make_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'ffff_later'"))
    engine.dispose()
    proc = _cardbase("cards", "show", "NP1-001", url=db_url)
    assert proc.returncode == 2, proc.stderr
    assert "version plus récente" in proc.stderr and "ffff_later" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.sqlite_only("a SQLite file that is not a database")
def test_a_file_that_is_not_a_database_is_a_message(backend, tmp_path):
    path = tmp_path / "cardbase.db"
    path.write_bytes(b"these are not the bytes of a database " * 200)
    proc = _cardbase("cards", "show", "NP1-001", url=f"sqlite:///{path}")
    assert proc.returncode == 2, proc.stderr
    assert "n'est pas une base de données" in proc.stderr and "Traceback" not in proc.stderr
    assert path.read_bytes().startswith(b"these are not")  # left as it was


def test_a_server_that_never_answers_is_a_message_not_a_hang():
    """A port that accepts connections and never answers (a stuck server, a firewall that
    swallows packets): without a connect timeout the command would wait forever."""
    import socket

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        proc = _cardbase("cards", "show", "NP1-001", timeout=90, CARDBASE_DB_CONNECT_TIMEOUT="2",
                         url=f"postgresql+psycopg://moi:Secret-Pw1@127.0.0.1:{port}/cardbase")
    assert proc.returncode == 2, proc.stderr
    assert f"127.0.0.1:{port}" in proc.stderr and "Secret-Pw1" not in proc.stderr
    assert "Traceback" not in proc.stderr


def test_app_page_with_an_unreachable_database_shows_a_message(monkeypatch):
    """Issue 16.4 in the app: the page stops with the one-line message; no traceback, no password."""
    from pg_support import free_port
    from streamlit.testing.v1 import AppTest

    port = free_port()
    monkeypatch.setenv("DATABASE_URL", f"postgresql+psycopg://moi:Secret-Pw1@127.0.0.1:{port}/cartes")
    monkeypatch.setenv("CARDBASE_DB_CONNECT_TIMEOUT", "2")
    db.dispose_engines()
    at = AppTest.from_string("from cardbase.ui import cards\ncards.render()\n", default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [str(e.value).replace("\\", "") for e in at.error]  # shown as text: Markdown escaped
    assert any(f"127.0.0.1:{port}" in e for e in errors), errors
    shown = "\n".join(str(e.value) for kind in ("markdown", "error", "warning", "info", "caption",
                                                 "exception", "code")
                      for e in getattr(at, kind))
    assert "Secret-Pw1" not in shown


def test_every_command_names_an_unreachable_server(tmp_path):
    """Not only start-up: commands that open the database themselves (dump, restore, current)."""
    from pg_support import free_port

    port = free_port()
    url = f"postgresql+psycopg://moi:Secret-Pw1@127.0.0.1:{port}/cardbase"
    for args in (["db", "dump", str(tmp_path / "b.zip")], ["db", "current"], ["db", "upgrade"],
                 ["init"]):
        proc = _cardbase(*args, url=url)
        assert proc.returncode == 2, (args, proc.stderr)
        assert "Traceback" not in proc.stderr and "Secret-Pw1" not in proc.stderr, args
        assert f"127.0.0.1:{port}" in proc.stderr, args


def test_any_connection_to_an_unreachable_server_raises_the_clear_error():
    from pg_support import free_port

    engine = db.make_engine(f"postgresql+psycopg://moi:Secret-Pw1@127.0.0.1:{free_port()}/cardbase")
    try:
        with pytest.raises(db.DatabaseUnavailable) as info:
            with engine.connect():
                pass
        assert "Secret-Pw1" not in str(info.value)
        with pytest.raises(db.DatabaseUnavailable):
            with Session(engine) as s:
                s.exec(select(Game)).all()
    finally:
        engine.dispose()


@pytest.mark.sqlite_only("SQLite's foreign keys during schema changes")
def test_start_up_transaction_checks_foreign_keys_before_commit(backend, tmp_path):
    """Foreign keys are off while migrating (SQLite's procedure for schema changes), and every
    one is checked before the commit: a dangling row refuses the whole start-up transaction."""
    engine = db.make_engine(f"sqlite:///{tmp_path / 'cardbase.db'}")
    try:
        db.init_db(engine, seed=False)
        with pytest.raises(db.DatabaseError, match="edition"):
            with db._init_connection(engine) as conn:
                assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 0
                with Session(bind=conn) as s:
                    s.add(Game(code="g", name="G"))
                    s.add(Edition(game_id=999, code="ZZ1", name="orpheline"))
                    s.flush()
        with Session(engine) as s:  # rolled back: nothing of it stayed
            assert s.exec(select(func.count()).select_from(Game)).one() == 0
            assert s.exec(select(func.count()).select_from(Edition)).one() == 0
    finally:
        engine.dispose()


@pytest.mark.sqlite_only("SQLite's single writer: a write waits for the lock, then gives up")
def test_a_write_blocked_by_another_writer_is_a_message(backend, db_url):
    path = db_url.removeprefix("sqlite:///")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        proc = _cardbase("cards", "edit", "NP1-001", "--version", "1", "--set", "name=Autre nom",
                         url=db_url)
    finally:
        holder.rollback()
        holder.close()
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "occupée par un autre processus depuis plus de 10 s" in proc.stderr


def test_revisions_read_without_alembic_agree_with_alembic() -> None:
    """Start-up reads the revision files as text (fast); Alembic must read the same graph."""
    from alembic.script import ScriptDirectory

    scripts = ScriptDirectory.from_config(db.alembic_config())
    assert db.head_revision() == scripts.get_current_head()
    assert db.revision_graph() == {s.revision: s.down_revision for s in scripts.walk_revisions()}
