"""Shared fixtures: real databases, migrated and seeded like a first run, on SQLite and PostgreSQL.

Every test that asks for ``db_url`` (or ``engine``, ``session``, ``empty_engine``, ``cli_env``) runs
twice: once on a SQLite file (id ``sqlite``) and once on a database of a throwaway PostgreSQL
cluster started for the session (id ``postgresql``, see ``tests/pg_support.py``).

- ``CARDBASE_TEST_BACKENDS=sqlite`` (or ``postgresql``) runs one backend only.
- Without PostgreSQL installed the ``postgresql`` cases are skipped with the reason — except in CI
  (``CI=true``), where they fail: CI must test PostgreSQL for real.
- ``@pytest.mark.sqlite_only("reason")`` leaves out a test's PostgreSQL case (PRAGMA checks…):
  it is deselected at collection, so it never shows up as a skip.
- Hypothesis profiles: ``ci`` (thousands of cases) when ``CI`` is set, ``dev`` otherwise;
  ``HYPOTHESIS_PROFILE`` chooses explicitly.
- ``-n auto`` (pytest-xdist, the README's test command and CI's): one process a core, each with its own
  temporary folders and, when its tests need them, its own PostgreSQL cluster on a free port; the
  browser tests all go to one process (one app server on a free port, one Chromium).
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from sqlmodel import Session

from cardbase.storage import db

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pg_support import DatabaseSupply, PgCluster, PgUnavailable

# A message without a translation fails the test that meets it (cardbase.i18n strict mode);
# tests read French, the default, unless they ask for another language.
os.environ["CARDBASE_I18N_STRICT"] = "1"
os.environ.pop("CARDBASE_LANG", None)

IN_CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes", "on")
BACKENDS = [b.strip() for b in os.environ.get("CARDBASE_TEST_BACKENDS", "sqlite,postgresql").split(",")
            if b.strip()]

# CI explores the same thousands of cases on every run (a landing never depends on luck);
# local runs draw new cases each time and keep failures in .hypothesis/.
settings.register_profile("ci", max_examples=2000, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if IN_CI else "dev"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only(reason): the test checks SQLite itself; "
                                       "its PostgreSQL case is not collected")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the PostgreSQL case of tests marked ``sqlite_only``; keep the browser tests in one
    xdist worker (``--dist loadgroup``): one app server and one Chromium for all of them."""
    keep, drop = [], []
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.xdist_group("browser"))
        params = getattr(getattr(item, "callspec", None), "params", {})
        if params.get("backend") == "postgresql" and item.get_closest_marker("sqlite_only"):
            drop.append(item)
        else:
            keep.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# --------------------------------------------------------------------------- the read-only path

@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """One entry a look at the read-only path (``cardbase.storage.readonly``): whether the
    snapshot was taken."""
    from cardbase.storage import readonly

    taken: list[bool] = []
    real = readonly.open_read_only

    def watched(url: str | None = None):
        found = real(url)
        taken.append(found is not None)
        return found

    monkeypatch.setattr(readonly, "open_read_only", watched)
    return taken


# --------------------------------------------------------------------------- SQLite

_TEMPLATE: dict[str, Path] = {}


def _seeded_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build one migrated + seeded database per test session; tests get a copy of it."""
    if "path" not in _TEMPLATE:
        path = tmp_path_factory.mktemp("template") / "seeded.db"
        engine = db.make_engine(f"sqlite:///{path}")
        db.init_db(engine)
        with engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        engine.dispose()
        _TEMPLATE["path"] = path
    return _TEMPLATE["path"]


# --------------------------------------------------------------------------- PostgreSQL

@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """One throwaway PostgreSQL cluster for the whole session, deleted at the end."""
    PgCluster.remove_orphans()
    try:
        cluster = PgCluster.start()
    except PgUnavailable as exc:
        if IN_CI:
            pytest.fail(f"PostgreSQL is required in CI: {exc}", pytrace=False)
        pytest.skip(f"PostgreSQL not available: {exc}")
    # A session stopped by SIGTERM (a CI timeout, `timeout`) still runs its teardown.
    previous = signal.getsignal(signal.SIGTERM)
    if previous is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield cluster
    finally:
        cluster.stop()
        if previous is signal.SIG_DFL:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt("terminated")


@pytest.fixture(scope="session")
def pg_templates(pg_cluster: PgCluster) -> dict[str, str]:
    """Two template databases: ``seeded`` (migrated and seeded) and ``empty`` (migrated only)."""
    names = {}
    for kind, seed in (("seeded", True), ("empty", False)):
        name = pg_cluster.create_database(f"template_{kind}")
        engine = db.make_engine(pg_cluster.url(name))
        db.init_db(engine, seed=seed)
        engine.dispose()
        pg_cluster.mark_template(name)
        names[kind] = name
    return names


@pytest.fixture(scope="session")
def pg_supply(pg_cluster: PgCluster, pg_templates: dict[str, str]) -> Iterator[DatabaseSupply]:
    """Copies of the templates made ahead, and used databases dropped, in the background."""
    supply = DatabaseSupply(pg_cluster, [pg_templates["seeded"], pg_templates["empty"]])
    yield supply
    supply.close()


# --------------------------------------------------------------------------- both

@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """``sqlite`` or ``postgresql``: the database backend of this test case."""
    return request.param


@pytest.fixture
def make_db(request: pytest.FixtureRequest, tmp_path: Path,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., str]]:
    """Factory: ``make_db("sqlite"|"postgresql", seeded=True)`` → URL of a fresh database.

    For tests that need several databases, possibly on different backends (dump on one, restore
    on the other). Every database made is dropped at the end of the test.
    """
    made: list[tuple[DatabaseSupply, str]] = []
    counter = iter(range(1, 10_000))

    def make(kind: str, *, seeded: bool = True) -> str:
        n = next(counter)
        if kind == "sqlite":
            target = tmp_path / f"db{n}.db"
            if seeded:
                shutil.copyfile(_seeded_template(tmp_path_factory), target)
            else:
                engine = db.make_engine(f"sqlite:///{target}")
                db.init_db(engine, seed=False)
                engine.dispose()
            return f"sqlite:///{target}"
        if kind == "postgresql":
            supply: DatabaseSupply = request.getfixturevalue("pg_supply")
            templates = request.getfixturevalue("pg_templates")
            name = supply.take(templates["seeded" if seeded else "empty"])
            made.append((supply, name))
            return supply.cluster.url(name)
        raise ValueError(f"unknown backend {kind!r}")

    yield make
    for supply, name in made:
        supply.release(name)


@pytest.fixture(scope="module", params=BACKENDS)
def module_db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A seeded database shared by the tests of one module (per backend). Tests that use it must
    leave it as they found it (roll back): property tests that run thousands of cases use it."""
    if request.param == "sqlite":
        target = tmp_path_factory.mktemp("module") / "cardbase.db"
        shutil.copyfile(_seeded_template(tmp_path_factory), target)
        yield f"sqlite:///{target}"
        return
    cluster: PgCluster = request.getfixturevalue("pg_cluster")
    name = cluster.create_database(template=request.getfixturevalue("pg_templates")["seeded"])
    yield cluster.url(name)
    cluster.drop_database(name)


@pytest.fixture
def db_url(backend: str, make_db: Callable[..., str]) -> str:
    """URL of a fresh copy of the seeded database (a SQLite file in this test's temporary
    directory, or a PostgreSQL database copied from the seeded template)."""
    return make_db(backend, seeded=True)


@pytest.fixture
def engine(db_url: str):
    eng = db.make_engine(db_url)
    yield eng
    eng.dispose()


@pytest.fixture
def session(engine):
    with Session(engine, expire_on_commit=False) as s:
        yield s


@pytest.fixture
def empty_engine(backend: str, make_db: Callable[..., str]):
    """A migrated database with no data at all, on the test case's backend."""
    eng = db.make_engine(make_db(backend, seeded=False))
    yield eng
    eng.dispose()


@pytest.fixture
def cli_env(db_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """Point the command line at the test database (DATABASE_URL) and forget cached engines."""
    monkeypatch.setenv("DATABASE_URL", db_url)
    db.dispose_engines()
    yield db_url
    db.dispose_engines()


@pytest.fixture(autouse=True)
def _editor_mode_off() -> Iterator[None]:
    """Every test starts and ends in a process that does not ask for editor mode: a test that runs
    the app in this process (AppTest) switches it on for the whole process (``access.enforce()``),
    and with ``-n auto`` no test can count on another having switched it off after it."""
    from cardbase import access

    access.enforce(False)
    yield
    access.enforce(False)
    access.reset_attempts()


@pytest.fixture(autouse=True)
def _french_by_default() -> Iterator[None]:
    """Every test starts in French, the default; a ``--lang`` run in-process does not leak out."""
    from cardbase import i18n

    with i18n.use_language(i18n.DEFAULT):
        yield


# The browser tests' session fixtures (one Chromium, one app server), registered here once: imported
# into each test file instead, every file got its own session fixture, and the second file started
# a second Playwright inside the first one's loop (« Sync API inside the asyncio loop »).
from browser_support import browser, chromium_path, page, st_server  # noqa: E402,F401
