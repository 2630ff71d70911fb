"""The app's first page on a fresh database, as a user meets it (issue 29: ≤ 2 s).

Each run starts ``streamlit run streamlit_app.py`` on a new, empty SQLite database (a temporary
``DATABASE_URL``: the first visit creates, migrates and seeds it from ``data/``), opens the page in
headless Chromium (Debian's, driven by Playwright) and times:

- **ready**: from the process start until ``/_stcore/health`` answers;
- **first visit**: until the cards page's main content is drawn — its title and the cards (``h1``
  and the cards list's table, or the interactive table ``stDataFrame`` of a version before the
  list) — from the server being ready and from the process start;
- **second visit**: a new browser context (a new Streamlit session) on the same server, warm;
- **server CPU**: user + system time of the server process when the first page is drawn (steadier
  than wall time on a busy machine), and the same with its child processes that have ended (the
  process that creates and seeds a new SQLite file, ``cardbase/ui/warmup.py``);
- **script run**: the first and the second run of the app's script inside Streamlit (wall time and
  the script thread's CPU time), from a second server whose main script is a short file that runs
  ``streamlit_app.py`` between two clock readings, served with the app's own ``st.App`` lifespan
  when it has one (the work the server starts before the first session, ``cardbase/ui/warmup.py``):
  what is left of the first page's work for the first session.

The same is measured for an empty Streamlit page (one title) in the same run, cases interleaved,
and every figure is also printed as a ratio to it, so that the machine's load weighs on both.
``--before CHECKOUT`` adds the app of another checkout (an older version) to the same run.
``--seeded`` starts every server on a copy of a SQLite file already created, migrated and seeded
(a returning user's start: the first page read with sqlite3) instead of a new one;
``--full-reads`` adds the app with ``CARDBASE_FAST_READS=0`` (every read through SQLAlchemy) to the
same run, interleaved; ``--no-script`` leaves out the script-timed servers (a shorter run).

    python benchmarks/bench_app_first_page.py [--runs 5] [--before OTHER_CHECKOUT] [--screenshot FILE]
                                              [--seeded] [--full-reads] [--no-script]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CARDBASE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--no-first-run",
                 "--disable-sync"]
TARGET_S = 2.0
# the cards page's title and its cards: the list (``cards_list``), or the interactive table of an
# older version (``--before``)
APP_DRAWN = ['h1', '.st-key-cards_list table, [data-testid="stDataFrame"]']
EMPTY_DRAWN = ['h1']
EMPTY_PAGE = 'import streamlit as st\n\nst.title("cardbase")\n'
TIMED_APP = """\
import json, os, time
from pathlib import Path

import streamlit as st

if __name__ == "__main__":  # a session's script run: the app's script between two clock readings
    _wall, _cpu = time.perf_counter(), time.thread_time()
    _app = os.environ["BENCH_APP"]
    try:
        exec(compile(open(_app, encoding="utf-8").read(), _app, "exec"), {"__file__": _app, "__name__": "__main__"})
    finally:
        with open(os.environ["BENCH_TIMES"], "a", encoding="utf-8") as _out:
            _out.write(json.dumps([time.perf_counter() - _wall, time.thread_time() - _cpu]) + "\\n")
else:  # served as the app is: with its st.App lifespan (the server's warm-up) when it has one
    from streamlit.web.server.app_discovery import discover_asgi_app

    _lifespan = None
    if discover_asgi_app(Path(os.environ["BENCH_APP"])).is_asgi_app:
        import streamlit_app

        _lifespan = streamlit_app.app._user_lifespan
    app = st.App(__file__, lifespan=_lifespan)
"""
TICKS = os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cpu_of(pid: int, *, children: bool = False) -> float:
    """User + system seconds of a running process (its threads included); ``children``: plus
    those of its child processes that have ended (the app's database preparation)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15 if children else 13]) / TICKS


def _drawn(browser, url: str, selectors: list[str], screenshot: Path | None = None) -> list[float]:
    """Open ``url`` in a new browser context; the moment each selector is visible, in turn."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="fr-FR")
    try:
        page = context.new_page()
        page.goto(url, wait_until="commit", timeout=120_000)
        at = []
        for selector in selectors:
            page.wait_for_selector(selector, state="visible", timeout=120_000)
            at.append(time.perf_counter())
        if screenshot is not None:
            page.wait_for_timeout(1500)  # images and the table's canvas settle
            page.screenshot(path=str(screenshot))
        return at
    finally:
        context.close()


def _wait_lines(path: Path, count: int, timeout: float = 60.0) -> list[list[float]]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = path.read_text().splitlines() if path.exists() else []
        if len(lines) >= count:
            return [json.loads(line) for line in lines]
        time.sleep(0.05)
    raise SystemExit(f"the app's script did not finish {count} run(s) within {timeout:.0f} s")


def _seeded_file(root: Path, path: Path, env: dict[str, str]) -> None:
    """A SQLite file created, migrated and seeded by the checkout ``root``, its journal folded in."""
    probe = ("import sys\nfrom cardbase.storage import db\n"
             "engine = db.make_engine('sqlite:///' + sys.argv[1])\ndb.init_db(engine)\n"
             "with engine.connect() as conn:\n    conn.exec_driver_sql('PRAGMA wal_checkpoint(TRUNCATE)')\n"
             "engine.dispose()\n")
    subprocess.run([sys.executable, "-c", probe, str(path)], cwd=root, check=True,
                   env=dict(env, PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))))


def run_once(browser, root: Path, script: Path, selectors: list[str], env: dict[str, str], work: Path,
             *, times: Path | None = None, screenshot: Path | None = None,
             seeded: Path | None = None) -> dict[str, float]:
    """One server of the checkout ``root`` on a fresh database (a copy of ``seeded`` if given): its
    figures (seconds)."""
    work.mkdir(parents=True)
    if seeded is not None:
        shutil.copyfile(seeded, work / "cardbase.db")
    port = _free_port()
    env = dict(env, DATABASE_URL=f"sqlite:///{work / 'cardbase.db'}", BENCH_APP=str(root / "streamlit_app.py"),
               PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
    if times is not None:
        env["BENCH_TIMES"] = str(times)
    cmd = [sys.executable, "-m", "streamlit", "run", str(script), "--server.headless", "true",
           "--server.port", str(port), "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
           "--browser.gatherUsageStats", "false", "--global.developmentMode", "false"]
    url = f"http://127.0.0.1:{port}"
    log = work / "streamlit.log"
    with log.open("wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"streamlit exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=1) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                time.sleep(0.01)
            if time.perf_counter() - start > 120:
                raise SystemExit(f"streamlit did not answer:\n{log.read_text()[-3000:]}")
        ready = time.perf_counter()
        cpu_ready = _cpu_of(proc.pid)
        shown = _drawn(browser, url, selectors)
        cpu_first, cpu_all = _cpu_of(proc.pid), _cpu_of(proc.pid, children=True)
        first = shown[-1]
        out = {"ready": ready - start, "title": shown[0] - ready, "first": first - ready,
               "first_from_start": first - start, "cpu_ready": cpu_ready, "cpu_first": cpu_first, "cpu_all": cpu_all}
        if times is not None:
            _wait_lines(times, 1)
        second_start = time.perf_counter()
        second = _drawn(browser, url, selectors, screenshot)[-1]
        out["second"] = second - second_start
        if times is not None:
            runs = _wait_lines(times, 2)
            out["script_first"], out["script_first_cpu"] = runs[0]
            out["script_second"], out["script_second_cpu"] = runs[-1]
        if "Traceback" in log.read_text(errors="replace"):
            raise SystemExit(f"the server printed a traceback:\n{log.read_text()[-3000:]}")
        return out
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh servers per case (default 5)")
    parser.add_argument("--before", type=Path, help="another checkout whose app joins the run, to compare")
    parser.add_argument("--screenshot", type=Path,
                        help="save the first page (second visit) as this PNG (and NAME-before.png with --before)")
    parser.add_argument("--seeded", action="store_true",
                        help="start each server on a copy of a file already seeded, not on a new one")
    parser.add_argument("--full-reads", action="store_true",
                        help="add the app with CARDBASE_FAST_READS=0 (every read through SQLAlchemy)")
    parser.add_argument("--no-script", action="store_true", help="leave out the script-timed servers")
    options = parser.parse_args()
    if not 1 <= options.runs <= 50:
        raise SystemExit("--runs: from 1 to 50")
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} not found (apt-get install -y chromium, or CARDBASE_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="cardbase-bench-app-"))
    empty = work / "empty_page.py"
    empty.write_text(EMPTY_PAGE, encoding="utf-8")
    timed = work / "timed_app.py"
    timed.write_text(TIMED_APP, encoding="utf-8")
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    for name in ("CARDBASE_LANG", "CARDBASE_DATA_DIR", "CARDBASE_EDITOR_PASSWORD", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    # Modules compiled once to bytecode (kept outside the checkout), as on a user's machine.
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    env.pop("CARDBASE_FAST_READS", None)
    # (name, checkout, main script, what the first page shows, whether the script run is timed,
    # the environment's changes)
    cases = [("empty page", ROOT, empty, EMPTY_DRAWN, False, {}),
             ("app", ROOT, ROOT / "streamlit_app.py", APP_DRAWN, False, {}),
             ("app, script timed", ROOT, timed, APP_DRAWN, True, {})]
    if options.full_reads:
        cases += [("app, full reads", ROOT, ROOT / "streamlit_app.py", APP_DRAWN, False, {"CARDBASE_FAST_READS": "0"})]
    if options.before:
        before = options.before.resolve()
        cases += [("app before", before, before / "streamlit_app.py", APP_DRAWN, False, {}),
                  ("before, script timed", before, timed, APP_DRAWN, True, {})]
    if options.no_script:
        cases = [case for case in cases if not case[4]]
    seeded: dict[Path, Path] = {}
    if options.seeded:
        for root in {case[1] for case in cases}:
            seeded[root] = work / f"seeded-{len(seeded)}.db"
            _seeded_file(root, seeded[root], env)
    results: dict[str, list[dict[str, float]]] = {name: [] for name, *_ in cases}
    load_before = _load()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            n = 0
            for i in range(options.runs + 1):  # run 0 warms the caches and compiles the bytecode
                for name, root, script, selectors, is_timed, changes in cases:
                    n += 1
                    shot = None
                    if options.screenshot and i == options.runs and name in ("app", "app before"):
                        shot = options.screenshot.with_stem(options.screenshot.stem + ("-before" if "before" in name
                                                                                         else ""))
                    figures = run_once(browser, root, script, selectors, dict(env, **changes), work / f"run{n}",
                                       times=work / f"times{n}.jsonl" if is_timed else None, screenshot=shot,
                                       seeded=seeded.get(root))
                    if i:
                        results[name].append(figures)
                        print(f"run {i} {name:<20} first {figures['first']:.2f} s from ready, server CPU "
                              f"{figures['cpu_first']:.2f} s, load {_load()}", file=sys.stderr, flush=True)
        finally:
            browser.close()
    med = {name: {k: statistics.median(r[k] for r in rows) for k in rows[0]} for name, rows in results.items()}
    base = med["empty page"]
    where = "an already seeded file" if options.seeded else "a fresh database"
    print(f"\nthe app's first page on {where} — {options.runs} fresh servers per case, medians, "
          f"seconds ({ROOT})")
    print(f"{'case':<20} {'ready':>7} {'title':>7} {'first':>7} {'first':>11} {'second':>8} {'server CPU':>11} "
          f"{'+ children':>11}")
    print(f"{'':<20} {'':>7} {'(ready)':>7} {'(ready)':>7} {'(start)':>11} {'(warm)':>8} {'(at first)':>11} "
          f"{'(at first)':>11}")
    for name, m in med.items():
        print(f"{name:<20} {m['ready']:>7.2f} {m['title']:>7.2f} {m['first']:>7.2f} {m['first_from_start']:>11.2f} "
              f"{m['second']:>8.2f} {m['cpu_first']:>11.2f} {m['cpu_all']:>11.2f}")
    app = med["app"]
    keys = (("first", "first visit from ready"), ("first_from_start", "first visit from start"),
            ("second", "second visit"), ("cpu_first", "server CPU at first page"),
            ("cpu_all", "CPU with child processes"))
    for name in [n for n in ("app", "app, full reads", "app before") if n in med]:
        print(f"\nratios of the {name} to the empty page (same run):")
        for key, label in keys:
            print(f"  {label:<26} {med[name][key] / base[key]:>6.2f}×  "
                  f"({name} {med[name][key]:.2f} s, empty {base[key]:.2f} s)")
    for other in [n for n in ("app, full reads", "app before") if n in med]:
        print(f"\n{other} / the app (same run):")
        old = med[other]
        for key, label in keys:
            print(f"  {label:<26} {old[key] / app[key]:>6.2f}×  ({other} {old[key]:.2f} s, app {app[key]:.2f} s)")
        # the first page's own server work: the server's CPU at the first page, less the empty page's
        print(f"  {'server CPU beyond empty':<26} {(old['cpu_first'] - base['cpu_first']) / (app['cpu_first'] - base['cpu_first']):>6.2f}×  "
              f"({other} {old['cpu_first'] - base['cpu_first']:.2f} s, app {app['cpu_first'] - base['cpu_first']:.2f} s)")
        print(f"  {'CPU with children beyond':<26} {(old['cpu_all'] - base['cpu_all']) / (app['cpu_all'] - base['cpu_all']):>6.2f}×  "
              f"({other} {old['cpu_all'] - base['cpu_all']:.2f} s, app {app['cpu_all'] - base['cpu_all']:.2f} s)")
    for name in [n for n in ("app, script timed", "before, script timed") if n in med]:
        timed_m = med[name]
        print(f"\nscript run inside Streamlit, {name.split(',')[0]} (median): first {timed_m['script_first']:.2f} s "
              f"wall, {timed_m['script_first_cpu']:.2f} s CPU (seeding included); second "
              f"{timed_m['script_second']:.2f} s wall, {timed_m['script_second_cpu']:.2f} s CPU")
    print(f"first runs, min/max: app first visit from start "
          f"{min(r['first_from_start'] for r in results['app']):.2f}/"
          f"{max(r['first_from_start'] for r in results['app']):.2f} s; from ready "
          f"{min(r['first'] for r in results['app']):.2f}/{max(r['first'] for r in results['app']):.2f} s")
    verdict = "ok" if app["first"] <= TARGET_S else "MISSED"
    print(f"target: first page ≤ {TARGET_S:g} s from the server being ready (seeding included): "
          f"{app['first']:.2f} s {verdict}; from the process start {app['first_from_start']:.2f} s")
    print(f"load average before {load_before}, after {_load()} ({os.cpu_count()} cores); "
          f"Python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
