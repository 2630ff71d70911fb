"""The read-only path of the SQLite default (cardbase.storage.readonly): taken only when nothing but
reading is left to do, and printing the same bytes as the SQLAlchemy path in every case.

Every read-only command runs twice on the same databases — the seeded one, and one with a user's
edits (a renamed card, a deleted seeded card, changed keywords, two games of their own with
declared fields of the same names, a card name in two games) — once on the read-only snapshot and
once with ``CARDBASE_FAST_READS=0`` (SQLAlchemy), and the two outputs and exit codes must be equal;
a spy checks that the first run really took the snapshot. The query language's SQLite text is
compared with its SQLAlchemy clause on generated queries. The commands' imports (no SQLAlchemy,
SQLModel nor pydantic from cardbase) are checked in fresh interpreters in tests/test_cli_frame.py.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cardbase.catalog import cards as catalog
from cardbase.catalog import reads
from cardbase.cli import app
from cardbase.errors import QueryError
from cardbase.storage import db, readonly
from cardbase.storage.models import Card, Edition, Game

ROOT = Path(__file__).resolve().parents[1]
DECKS = sorted((ROOT / "data" / "decks").glob("*.txt"))
runner = CliRunner()

pytestmark = pytest.mark.sqlite_only("the read-only path is the SQLite default's")


# --------------------------------------------------------------------------- databases

ROWS = (
    "edition,number,name,colour,keywords,force,camp,titre\n"
    "DU1,1,Lancier,rouge,Horde,3,Rouge,\n"
    "DU1,2,Archer,rouge,,4,Rouge,Tireur d'élite\n"
    "DU1,3,Chevalier,noir,Horde;Garde,7,Noir,Chef\n"
    "DU1,4,Mage,noir,,5,Noir,\n"
    "DU1,5,Écuyer,rouge,Horde,1,Rouge,\n"
    "DU1,6,Roi,noir,,10,Noir,Chef 100%_sûr\n"
    "DU1,7,BRAISILLON,,,2,,\n"
)
JOUTE = (
    "edition,number,name,value,force,camp\n"
    "JO1,1,Jouteur,3,fort,Vert\n"
    "JO1,2,Héraut,,faible,Rouge\n"
    "JO1,3,Lancier,1,,\n"
)


def _cli(*args: str, fast: bool = True):
    env = None if fast else {readonly.FAST_READS_ENV: "0"}
    return runner.invoke(app, list(args), env=env)


def _ok(*args: str) -> None:
    result = _cli(*args)
    assert result.exit_code == 0, result.output


def _user_edits(tmp: Path) -> None:
    """What a designer does to a seeded database: games of their own, edits, a deletion."""
    _ok("games", "add", "duel", "--name", "Duel de lames", "--players", "2-4", "--deck-size", "6",
        "--copy-limit", "2", "--keyword-limit", "Horde=3", "--field", "force:int:0..10:required",
        "--field", "camp:choice(Rouge|Noir)", "--field", "titre:text")
    _ok("games", "add", "joute", "--name", "Joute", "--players", "2",
        "--field", "force:text", "--field", "camp:choice(Rouge|Vert)")
    _ok("editions", "add", "duel", "DU1", "--name", "Première lame", "--size", "8")
    _ok("editions", "add", "joute", "JO1", "--name", "Lices", "--size", "3")
    for name, rows in (("du1.csv", ROWS), ("jo1.csv", JOUTE)):
        (tmp / name).write_text(rows, encoding="utf-8")
        _ok("cards", "import", str(tmp / name))
    _ok("cards", "edit", "NP1-001", "--version", "1", "--set", "name=Apprentie renommée",
        "--set", 'keywords=["Foule", "Garde"]')
    _ok("cards", "edit", "NP1-004", "--version", "1", "--set", "value=9", "--set", "rarity=Mythique")
    with db.session_scope() as s:  # a seeded card no deck uses, deleted
        card = catalog.get_card(s, "OVK-005")
        catalog.delete_card(s, card.id, expected_version=card.version)


@pytest.fixture(scope="module")
def databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """``seeded``: as a first run leaves it; ``edited``: with a designer's edits."""
    folder = tmp_path_factory.mktemp("readonly")
    urls = {}
    with pytest.MonkeyPatch.context() as mp:
        for kind in ("seeded", "edited"):
            url = f"sqlite:///{folder / kind}.db"
            mp.setenv("DATABASE_URL", url)
            db.dispose_engines()
            _ok("cards", "search", "c:rouge")  # the first run creates and seeds it
            if kind == "edited":
                _user_edits(folder)
            urls[kind] = url
    db.dispose_engines()
    yield urls
    db.dispose_engines()


# --------------------------------------------------------------------------- the commands

SEARCHES = [
    "c:rouge k:foule", "", "c:rouge", "-k:foule c:rouge", "v>=3", "v<2 or v>8", "v!=4", "n<=3",
    "o:defausse", "name:forgeron", "forgeron", '"bois sacré"', "e:NP1", "e:du1", "g:overkill",
    "g:DUEL -c:noir", "t:personnage", "b:braises", "r:rare", "r:mythique", "np1-003", "du1-2",
    "k:horde", "k:garde or k:foule", "-(c:rouge or c:bleu) g:nespanini", "force>=4", "force:fort",
    "force!=faible", "camp:rouge", "camp!=noir", "camp:vert", "titre:chef", "titre:100%_",
    "titre=chef", "titre!=chef", "objectif>=5", "pari<0", "damage>=40 or armour>0",
    "renommée", "Apprentie", "é", "c:rouj", "k:foul", "e:zz1", "g:nope", "couleur:", "foo:bar",
    "(c:rouge", "c:rouge or", "-", "camp:bleu", "t:zz", "b:corsairess", "v>=abc",
]


def _commands(tmp: Path) -> list[tuple[str, ...]]:
    decks = _deck_files(tmp)
    out: list[tuple[str, ...]] = []
    for query in SEARCHES:
        out.append(("cards", "search", "--", query))
    out += [("cards", "search", "--json", "v>=3"), ("cards", "search", "--limit", "3", "c:noir"),
            ("cards", "search", "--json", "g:duel"), ("cards", "search", "--json", "g:joute"),
            ("--lang", "en", "cards", "search", "c:rouj")]
    for ref in ("NP1-001", "NP1-004", "np1-010", "1", "27", "999999", "Apprentie renommée",
                "apprentie forgeronne", "Lancier", "Écuyer", "OVK-005", "ZZ-001", "Roi", "Jouteur",
                "99999999999999999999"):
        out += [("cards", "show", ref), ("cards", "show", ref, "--json")]
    out += [("--lang", "en", "cards", "show", "NP1-010"), ("--lang", "en", "cards", "show", "DU1-3")]
    for deck in decks:
        for command in ("validate", "stats"):
            out += [("deck", command, str(deck)), ("deck", command, str(deck), "--json")]
    out += [("deck", "validate", str(decks[0]), "--game", "overkill"),
            ("deck", "validate", str(decks[0]), "--game", "zzz"),
            ("deck", "stats", str(decks[0]), "--game", "duel"),
            ("--lang", "en", "deck", "validate", str(decks[-1])),
            ("--lang", "en", "deck", "stats", str(decks[-1]))]
    out += [("sim", "game", "overkill", "--games", "2", "--json", "--measures-games", "0")]
    return out


def _deck_files(tmp: Path) -> list[Path]:
    """The starter decks and lists with every kind of problem a resolution reports."""
    own = {
        "typos.txt": "# game: nespanini\n5 Braisillon\n2 Braisilon\n1 NP1-003\n1 NP1-999\n1 ZZZ-001\n"
                     "2 Apprentie forgeronne\n1 Apprentie renommée\n1 Forgeron\n",
        "duel.txt": "# name: Lames\n# game: duel\n4 Lancier\n3 Chevalier\n1 Roi\n1 DU1-002\n",
        "mixed.txt": "2 Lancier\n2 Braisillon\n1 OVK-005\n1 Jouteur\n",
        "nogame.txt": "# game: zzz\n1 Lancier\n",
        "refs.txt": "1 np1-002\n2 NP1-003\n1 NP1-004\n",
        "empty.txt": "# name: Vide\n",
        "typo.txt": "1 Braisilon\n",  # no game: suggestions from every game's names
    }
    for name, text in own.items():
        (tmp / name).write_text(text, encoding="utf-8")
    return [*DECKS, *(tmp / name for name in own)]


@pytest.mark.parametrize("kind", ["seeded", "edited"])
def test_every_read_only_command_prints_the_same_on_both_paths(databases, kind, spy, tmp_path,
                                                                monkeypatch):
    monkeypatch.setenv("DATABASE_URL", databases[kind])
    db.dispose_engines()
    commands = _commands(tmp_path)
    assert len(commands) > 120
    for args in commands:
        spy.clear()
        fast = _cli(*args)
        assert spy and all(spy), f"{args}: the read-only snapshot was not taken"
        spy.clear()
        full = _cli(*args, fast=False)
        assert spy and not any(spy), f"{args}: CARDBASE_FAST_READS=0 still took the snapshot"
        assert (fast.exit_code, fast.stdout, fast.stderr) == (full.exit_code, full.stdout, full.stderr), args
        assert fast.exception is None or isinstance(fast.exception, SystemExit), (args, fast.exception)


@pytest.mark.parametrize("kind", ["seeded", "edited"])
def test_the_app_first_page_reads_the_same_on_both_paths(databases, kind, monkeypatch):
    """What the app's cards page reads (``cardbase/ui/cards.py``): the filters' values of every
    game and of none, the list, each card's image data and the decks using it — equal on the
    snapshot and on a session, in the same order."""
    from sqlmodel import select

    monkeypatch.setenv("DATABASE_URL", databases[kind])
    db.dispose_engines()
    snapshot = readonly.open_read_only()
    assert snapshot is not None
    with snapshot, db.session_scope() as session:
        codes = [g.code for g in session.exec(select(Game))]
        for game in [None, *codes, "zzz"]:
            fast, full = reads.facet_rows(snapshot, game), reads.facet_rows(session, game)
            assert [tuple(getattr(g, c) for c in readonly.GAME_COLUMNS) for g in fast[0]] == \
                [tuple(getattr(g, c) for c in readonly.GAME_COLUMNS) for g in full[0]]
            assert fast[1:] == full[1:] and (game == "zzz" or fast[2]), game
        for game in [None, *codes]:
            assert reads.card_dicts(snapshot, game=game, limit=500) == reads.card_dicts(session, game=game, limit=500)
        ids = [card.id for card in session.exec(select(Card))]
        used = 0
        for card_id in [*ids, 999_999]:
            decks = reads.decks_using_card(snapshot, card_id)
            assert decks == reads.decks_using_card(session, card_id) == catalog.decks_using_card(session, card_id)
            used += bool(decks)
        assert used > 10  # the starter decks' cards
        for card_id in ids[:: max(1, len(ids) // 25)]:
            assert reads.card_defs(snapshot, ids=[card_id]) == reads.card_defs(session, ids=[card_id])
    db.dispose_engines()


@pytest.mark.parametrize("kind", ["seeded", "edited"])
def test_exports_write_the_same_files_on_both_paths(databases, kind, spy, tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", databases[kind])
    for fmt in ("csv", "json"):
        for options in ((), ("--query", "c:rouge or g:duel"), ("--edition", "du1"), ("--edition", "ZZ"),
                        ("--query", "camp:vert"), ("--query", "c:rouj"), ("--edition", "OVK")):
            files = []
            for fast in (True, False):
                out = tmp_path / f"{fast}-{len(files)}.{fmt}"
                spy.clear()
                result = _cli("cards", "export", str(out), *options, fast=fast)
                assert spy == [fast]
                files.append((result.exit_code, result.stderr, result.stdout.replace(str(out), "OUT"),
                              out.read_bytes() if out.exists() else None))
            assert files[0] == files[1], (fmt, options)
    spy.clear()
    assert _cli("cards", "export", str(tmp_path / "x.txt")).exit_code == 2
    assert spy == []  # a bad suffix is said before the database is read


def _print_commands(tmp: Path) -> list[tuple[str, ...]]:
    """Prints and renders of a few cards each (every source, modes, backs, errors)."""
    decks = {p.name: p for p in _deck_files(tmp)}
    return [
        ("print", "--query", "c:rouge k:foule", "--workers", "1"),
        ("print", "--query", "e:np1 v>=8", "--backs", "--workers", "2"),
        ("print", "--deck", str(decks["refs.txt"])),
        ("print", "--deck", str(decks["typos.txt"])),  # unknown cards: the lines named
        ("print", "--query", "g:duel or g:joute"),  # games without a template of their own
        ("print", "--query", "e:OVK n<=3", "--mode", "shop"),
        ("print", "--query", "e:OVS n<=4", "--mode", "proof"),
        ("--lang", "en", "print", "--query", "np1-010 or ctt-010"),
        ("print", "--edition", "ZZ"),
        ("print", "--query", "c:rouj"),
        ("print", "--query", "g:nope"),
        ("render", "NP1-001"),
        ("render", "Lancier"),  # in two games: named by its refs
        ("render", "OVK-019", "--back"),
    ]


def _output_files(folder: Path) -> dict[str, bytes]:
    """Every file a print wrote, by name; the manifest without its date."""
    files = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            if path.name.endswith(".manifest.json"):
                manifest = json.loads(data)
                manifest.pop("created")
                data = json.dumps(manifest, sort_keys=True).encode()
            files[str(path.relative_to(folder))] = data
    return files


@pytest.mark.parametrize("kind", ["seeded", "edited"])
def test_prints_write_the_same_files_on_both_paths(databases, kind, spy, tmp_path, monkeypatch):
    """``cardbase print`` and ``cardbase render`` read their cards on the snapshot: the same PDF
    (and PNGs, manifest, messages), byte for byte, as through SQLAlchemy."""
    monkeypatch.setenv("DATABASE_URL", databases[kind])
    db.dispose_engines()
    written = 0
    for n, args in enumerate(_print_commands(tmp_path)):
        outputs = []
        for fast in (True, False):
            folder = tmp_path / f"{n}-{fast}"
            folder.mkdir()
            suffix = ".png" if "render" in args else ".pdf"
            spy.clear()
            result = _cli(*args, "--out", str(folder / f"out{suffix}"), fast=fast)
            assert spy == [fast], (args, spy)  # one read, on the path asked for
            files = _output_files(folder)
            written += sum(map(len, files.values()))
            outputs.append((result.exit_code, result.stdout.replace(str(folder), "OUT"),
                            result.stderr.replace(str(folder), "OUT"), files))
            assert result.exception is None or isinstance(result.exception, SystemExit), \
                (args, result.exception)
        assert outputs[0] == outputs[1], args
    assert written > 1_000_000  # pictures were compared, not only messages


def test_the_outputs_compared_are_not_all_alike(databases, tmp_path, monkeypatch):
    """The comparison above sees results, errors and suggestions, not empty outputs."""
    monkeypatch.setenv("DATABASE_URL", databases["edited"])
    found = json.loads(_cli("cards", "search", "--json", "g:duel camp:rouge").stdout)
    assert [c["name"] for c in found] == ["Lancier", "Archer", "Écuyer"]
    assert found[0]["force"] == 3 and found[0]["camp"] == "Rouge"  # declared fields, by name
    # "force" is a number in one game and a text in the other: searched as text in both
    assert "force" in _cli("cards", "search", "force>=4").stderr
    assert [c["name"] for c in json.loads(_cli("cards", "search", "--json", "camp:vert").stdout)] == ["Jouteur"]
    assert "rouge" in _cli("cards", "search", "c:rouj").stderr
    assert _cli("cards", "show", "Lancier").exit_code == 2  # in two games: named by its refs
    assert "DU1-001" in _cli("cards", "show", "Lancier").stderr
    typos = _cli("deck", "validate", str(_deck_files(tmp_path)[len(DECKS)]), "--json")
    codes = {p["code"] for p in json.loads(typos.stdout)["problems"]}
    assert {"unknown-card", "unknown-ref", "too-many-copies", "deck-size"} <= codes


# --------------------------------------------------------------------------- when the path is taken

def _copy(databases, tmp_path: Path, name: str = "copy.db") -> tuple[str, Path]:
    source = Path(databases["seeded"].removeprefix("sqlite:///"))
    target = tmp_path / name
    shutil.copyfile(source, target)
    wal = source.with_name(source.name + "-wal")
    if wal.exists():  # what the file's last writes may still hold
        shutil.copyfile(wal, target.with_name(target.name + "-wal"))
    return f"sqlite:///{target}", target


def test_the_snapshot_is_taken_on_a_ready_database_and_cannot_write(databases, tmp_path):
    url, path = _copy(databases, tmp_path)
    found = readonly.open_read_only(url)
    assert found is not None
    with found as snapshot:
        assert snapshot.path == str(path)
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            snapshot.rows("DELETE FROM card")
    with db.session_scope(db.make_engine(url)) as s:
        assert len(catalog.card_dicts(s)) > 100  # nothing was deleted


@pytest.mark.parametrize("change", ["unseeded", "old revision", "newer revision", "no revisions",
                                    "rollback journal", "not a database", "empty file"])
def test_anything_but_reading_left_to_do_takes_the_full_path(databases, tmp_path, change):
    url, path = _copy(databases, tmp_path)
    ready = readonly.open_read_only(url)
    assert ready is not None  # the copy itself would take it
    ready.close()
    conn = sqlite3.connect(path)
    if change == "unseeded":
        conn.execute("DELETE FROM seed_item WHERE kind = 'data'")
    elif change == "old revision":
        conn.execute("UPDATE alembic_version SET version_num = '0002'")
    elif change == "newer revision":
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    elif change == "no revisions":
        conn.execute("DROP TABLE alembic_version")
    elif change == "rollback journal":
        conn.execute("PRAGMA journal_mode=DELETE")
    conn.commit()
    conn.close()
    if change in ("not a database", "empty file"):
        path.write_bytes(b"" if change == "empty file" else b"not a database at all" * 100)
    assert readonly.open_read_only(url) is None


def test_a_locked_database_takes_the_full_path(databases, tmp_path):
    url, path = _copy(databases, tmp_path)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("UPDATE card SET version = version WHERE id = 1")
    try:
        assert readonly.open_read_only(url) is None
    finally:
        holder.execute("COMMIT")
        holder.close()
    ready = readonly.open_read_only(url)
    assert ready is not None
    ready.close()


def test_no_file_other_databases_and_the_switch_take_the_full_path(tmp_path, monkeypatch):
    assert readonly.open_read_only(f"sqlite:///{tmp_path / 'none.db'}") is None
    assert not (tmp_path / "none.db").exists()  # the full path creates it, not this one
    for url in ("postgresql+psycopg://u:p@localhost/x", "sqlite://", "sqlite:///:memory:",
                "sqlite:///file:x.db?mode=ro&uri=true", f"sqlite:///{tmp_path}/a.db?timeout=3",
                "sqlite+aiosqlite:///x.db", "mysql://h/x"):
        assert readonly.sqlite_path(url) is None, url
    assert readonly.sqlite_path("sqlite:////tmp/a%20b.db") == "/tmp/a b.db"
    assert readonly.sqlite_path("sqlite:///rel/x.db") == "rel/x.db"
    assert readonly.sqlite_path("sqlite+pysqlite:////x.db") == "/x.db"
    monkeypatch.setenv(readonly.FAST_READS_ENV, "0")
    assert readonly.open_read_only() is None


def test_a_first_run_creates_and_seeds_through_the_full_path(tmp_path, monkeypatch, databases, spy):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'new.db'}")
    db.dispose_engines()
    first = _cli("cards", "search", "c:rouge k:foule")
    assert spy == [False] and first.exit_code == 0
    second = _cli("cards", "search", "c:rouge k:foule")
    assert spy == [False, True]
    monkeypatch.setenv("DATABASE_URL", databases["seeded"])
    assert first.stdout == second.stdout == _cli("cards", "search", "c:rouge k:foule").stdout
    db.dispose_engines()


def test_a_snapshot_that_fails_under_the_work_runs_it_again_on_a_session(databases, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", databases["seeded"])
    seen: list[str] = []

    def work(source):
        seen.append(type(source).__name__)
        if isinstance(source, readonly.ReadOnlyDB):
            raise sqlite3.OperationalError("database is locked")
        return len(reads.card_dicts(source, query="c:rouge"))

    assert readonly.read(work) > 0
    assert seen == ["ReadOnlyDB", "Session"]

    def buggy(source):  # a mistake in the read path's SQL is not hidden
        source.rows("SELECT ?", [1, 2])

    with pytest.raises(sqlite3.ProgrammingError):
        readonly.read(buggy)


# --------------------------------------------------------------------------- rows and clauses

@pytest.mark.parametrize(("model", "columns"), [(Game, readonly.GAME_COLUMNS),
                                                (Edition, readonly.EDITION_COLUMNS),
                                                (Card, readonly.CARD_COLUMNS)])
def test_rows_have_the_tables_columns_and_their_python_values(model, columns):
    table = model.__table__
    assert columns == tuple(c.name for c in table.columns)
    kinds = {"JSON": readonly._json, "Boolean": readonly._bool, "Date": readonly._date,
             "UTCDateTime": readonly._utc_datetime}
    plain = {"Integer", "AutoString", "Text"}  # values as the driver gives them
    for column in table.columns:
        kind = type(column.type).__name__
        assert kind in kinds or kind in plain, f"{column.name}: how does SQLAlchemy read a {kind}?"
        assert readonly._CONVERT.get(column.name) is kinds.get(kind), column.name


def test_rows_read_as_the_session_reads_them(databases):
    url = databases["seeded"]
    with db.session_scope(db.make_engine(url)) as s, readonly.open_read_only(url) as snapshot:
        full = catalog.card_rows(s)
        fast = reads.card_rows(snapshot)
        assert len(full) == len(fast) > 100
        for row, same in zip(full, fast, strict=True):
            for model, plain in zip(row, same, strict=True):
                assert {k: getattr(model, k) for k in type(model).model_fields} == \
                       {k: getattr(plain, k) for k in type(model).model_fields}


_WORDS = ["loup", "forgeron", "braise", "np1-003", "du1-5", "é", "100%", "a_b", "-", "renommée"]
_FIELDS = ["c:rouge", "c:noir", "c:bleu", "c:rouj", "k:foule", "k:horde", "k:garde", "k:zz",
           "r:rare", "r:commune", "r:mythique", "e:np1", "e:du1", "e:ovk", "e:zz", "g:duel",
           "g:joute", "g:overkill", "g:zz", "t:personnage", "t:zz", "b:braises", "b:zz",
           "name:lan", "o:defausse", "force:fort", "force:4", "camp:rouge", "camp:vert",
           "titre:chef", "objectif:3"]
_NUMBERS = ["v", "n", "force", "objectif", "pari", "damage"]


@st.composite
def _queries(draw) -> str:
    """Random queries over the values the edited database holds (and some it does not)."""
    def term() -> str:
        kind = draw(st.integers(0, 2))
        if kind == 0:
            return draw(st.sampled_from(_WORDS))
        if kind == 1:
            text = draw(st.sampled_from(_FIELDS))
            if draw(st.booleans()):
                text = text.replace(":", draw(st.sampled_from(["=", "!="])), 1)
            return text
        return (draw(st.sampled_from(_NUMBERS)) + draw(st.sampled_from(["=", "!=", "<", "<=", ">", ">="]))
                + str(draw(st.integers(-2, 11))))

    def expr(depth: int) -> str:
        parts = []
        for _ in range(draw(st.integers(1, 3))):
            if depth < 2 and draw(st.integers(0, 4)) == 0:
                part = f"({expr(depth + 1)})"
            else:
                part = term()
            parts.append(("-" if draw(st.integers(0, 3)) == 0 else "") + part)
        joiner = draw(st.sampled_from([" ", " or "]))
        return joiner.join(parts)

    return expr(0)


@settings(max_examples=300)
@given(query=_queries())
def test_the_sqlite_text_selects_what_the_sqlalchemy_clause_selects(databases, query):
    url = databases["edited"]
    with db.session_scope(db.get_engine(url)) as s, readonly.open_read_only(url) as snapshot:
        try:
            full = [(c.id, e.code, g.code) for c, e, g in catalog.card_rows(s, query=query)]
        except QueryError as exc:
            with pytest.raises(QueryError) as same:
                reads.card_rows(snapshot, query=query)
            assert (str(same.value), same.value.position) == (str(exc), exc.position)
            return
        fast = [(c.id, e.code, g.code) for c, e, g in reads.card_rows(snapshot, query=query)]
        assert fast == full, query
