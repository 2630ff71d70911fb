"""Fixtures for the end-to-end tests: one `streamlit run` server on a free port with a temporary
seeded SQLite database, and Debian's Chromium driven by Playwright.

Browsers cannot be downloaded here, so Chromium is the system one (``/usr/bin/chromium``). Without
it the browser tests are skipped — except in CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CARDBASE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--no-first-run",
                 "--disable-sync"]
PASSWORD = "mot-de-passe-test"
IN_CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes", "on")
# how long a step may wait for the page (ms): the tests run beside another test process on a
# 2-core machine (``-n auto``), where a table's redraw once took more than 30 s
BROWSER_WAIT_MS = 90_000
SCREENSHOTS = Path(os.environ.get("CARDBASE_SCREENSHOTS", "")) if os.environ.get("CARDBASE_SCREENSHOTS") else None


def _unavailable(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"browser tests must run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass(slots=True)
class Server:
    url: str
    db_path: Path
    process: subprocess.Popen
    started_in: float  # seconds from launch to a healthy server
    log: Path


def _seed_database(path: Path) -> None:
    from cardbase.storage import db

    engine = db.make_engine(f"sqlite:///{path}")
    db.init_db(engine)
    with engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()


def start_server(tmp: Path, *, timeout: float = 60.0) -> Server:
    db_path = tmp / "cardbase.db"
    _seed_database(db_path)
    port = free_port()
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{db_path}", CARDBASE_EDITOR_PASSWORD=PASSWORD,
               STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    log = tmp / "streamlit.log"
    cmd = [sys.executable, "-m", "streamlit", "run", str(ROOT / "streamlit_app.py"),
           "--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1",
           "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false",
           "--global.developmentMode", "false"]
    start = time.perf_counter()
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=1) as resp:
                if resp.status == 200:
                    return Server(url, db_path, proc, time.perf_counter() - start, log)
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"streamlit did not answer within {timeout:.0f} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not Path(CHROMIUM).exists():
        _unavailable(f"{CHROMIUM} not found — install it with `apt-get install -y chromium`")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:
        _unavailable(f"playwright is not installed ({exc})")
    return CHROMIUM


@pytest.fixture(scope="session")
def st_server(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[Server]:
    """One app server shared by every browser test of the session."""
    server = start_server(tmp_path_factory.mktemp("browser"))
    try:
        yield server
    finally:
        server.process.terminate()
        try:
            server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.process.kill()


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        try:
            b = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        except Exception as exc:
            _unavailable(f"Chromium does not start: {exc}")
        yield b
        b.close()


@pytest.fixture
def page(browser, st_server: Server, tmp_path: Path) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True,
                                  locale="fr-FR")
    context.set_default_timeout(BROWSER_WAIT_MS)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


def wait_idle(page, timeout: float = BROWSER_WAIT_MS) -> None:
    """Wait until Streamlit has finished running the script (no 'running' indicator)."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    page.wait_for_function(
        """() => {
            const s = document.querySelector('[data-testid="stStatusWidget"]');
            return !s || !s.innerText.match(/Running|Exécution/);
        }""", timeout=timeout)
    page.wait_for_timeout(150)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"] [data-testid=\"stStatusWidgetRunningIcon\"]')",
        timeout=timeout)


def pick_option(page, key: str, name=None, *, typed: str = "", attempts: int = 3) -> str:
    """Open the select box or multiselect of widget key ``key`` (typing ``typed`` into it, if given)
    and choose the option called ``name`` (a string for an exact name, a compiled pattern) or, with
    no name, the first option; returns the option's text. A click landing while the page is still
    being drawn may not open the list, so the click is tried again (on a loaded machine the first one
    can be lost)."""
    box = page.locator(f".st-key-{key} input")
    for attempt in range(attempts):
        wait_idle(page)
        box.click()
        if typed:
            box.fill(typed)
        if name is None:
            option = page.get_by_role("option").first
        elif isinstance(name, str):
            option = page.get_by_role("option", name=name, exact=True)
        else:
            option = page.get_by_role("option", name=name)
        try:
            option.wait_for(timeout=10_000)
            text = option.inner_text()
            option.click(timeout=10_000)
            return text
        except Exception:
            if attempt == attempts - 1:
                raise
            page.keyboard.press("Escape")
    raise AssertionError("unreachable")


def goto(page, server: Server, path: str = "") -> float:
    """Open a page of the app; returns the seconds until its title is shown."""
    start = time.perf_counter()
    page.goto(f"{server.url}/{path}")
    page.wait_for_selector("h1", timeout=60_000)
    elapsed = time.perf_counter() - start
    wait_idle(page)
    return elapsed


def shot(page, name: str) -> None:
    """Save a screenshot when CARDBASE_SCREENSHOTS names a folder (used to refresh docs/images)."""
    if SCREENSHOTS is None:
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # the page as a person sees it once drawn: no placeholder left, every image loaded, no stale copy
    try:
        wait_idle(page)
        page.wait_for_function(
            """() => !document.querySelector('[data-testid="stSkeleton"], [data-stale="true"]')
                     && [...document.images].every(i => i.complete && i.naturalWidth > 0)""",
            timeout=BROWSER_WAIT_MS)
        page.wait_for_timeout(300)
    except Exception:  # a screenshot for the docs never fails a test
        pass
    page.screenshot(path=str(SCREENSHOTS / f"app-{name}.png"), full_page=False)


def copy_db(server: Server, target: Path) -> Path:
    shutil.copyfile(server.db_path, target)
    return target
