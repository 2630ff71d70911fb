"""Import 20,000 cards from CSV, on SQLite and on PostgreSQL: the whole command and the inner function.

    python benchmarks/bench_import.py [--rows 20000] [--repeat 3] [--no-postgresql]

Generates a CSV file of ``--rows`` new NesPanini cards (numbers 1001 and up of edition NP1; names,
values, colours, keywords, figures and effects taken in turn from the shipped NP1 cards, so every
effect is parsed and translated as in real use), then for each backend, each time on a freshly
seeded database:

- ``cardbase cards import big.csv --dry-run`` and ``cardbase cards import big.csv`` as separate
  processes (start-up, migrations check and seeding check included), with their wall time, rows/s
  and peak resident memory (``wait4``);
- ``transfer.import_file`` in this process (the inner function: read, check, write, commit);
- the peak Python memory of the inner function (``tracemalloc``) at a quarter of the rows and at
  all of them, and what one more row costs — memory grows with the rows themselves only.

PostgreSQL runs on a throwaway cluster (tests/pg_support.py); it is skipped with a note when the
server binaries are not installed.
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from cardbase.storage import db
from cardbase.catalog import transfer


def generate(path: Path, rows: int, template_url: str) -> None:
    """A CSV of ``rows`` new cards modelled on the shipped NP1 cards (the export format)."""
    engine = db.make_engine(template_url)
    with db.session_scope(engine) as s:
        models = transfer.export_records(s, edition="NP1")
    engine.dispose()
    records = []
    for i in range(rows):
        base = dict(models[i % len(models)])
        base.update(number=1001 + i, name=f"{base['name']} {i}", version=None, art=None)
        records.append(base)
    path.write_text(transfer.export_text(records, "csv"), encoding="utf-8")
    with path.open(encoding="utf-8", newline="") as fh:
        assert sum(1 for _ in csv.reader(fh)) == rows + 1


def command() -> list[str]:
    exe = shutil.which("cardbase")
    return [exe] if exe else [sys.executable, "-c", "from cardbase.cli import main; main()"]


def run_command(args: list[str], url: str) -> tuple[float, float, int]:
    """Wall time, CPU time (user + system) and peak resident memory (bytes) of one ``cardbase`` process."""
    env = dict(os.environ, DATABASE_URL=url, PYTHONPATH=str(ROOT))
    t = time.perf_counter()
    proc = subprocess.Popen(command() + args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"`cardbase {' '.join(args)}` failed ({proc.returncode}): {err[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def inner(path: Path, url: str, *, dry_run: bool) -> tuple[float, float]:
    """Wall and CPU time of ``transfer.import_file`` (with its commit) in this process."""
    engine = db.make_engine(url)
    try:
        with db.session_scope(engine) as s:
            s.connection()  # connect before the clock starts
            t, c = time.perf_counter(), time.process_time()
            plan = transfer.import_file(s, path, dry_run=dry_run)
            s.commit()
            elapsed, cpu = time.perf_counter() - t, time.process_time() - c
    finally:
        engine.dispose()
    assert not plan.problems, plan.problems[:3]
    return elapsed, cpu


def traced_peak(path: Path, url: str) -> int:
    engine = db.make_engine(url)
    try:
        tracemalloc.start()
        with db.session_scope(engine) as s:
            transfer.import_file(s, path)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    finally:
        engine.dispose()
    return peak


def bench(name: str, fresh: Callable[[], str], big: Path, small: Path, rows: int, repeat: int) -> None:
    print(f"\n{name}")
    for dry in (True, False):
        args = ["cards", "import", str(big)] + (["--dry-run"] if dry else [])
        results = [run_command(args, fresh()) for _ in range(repeat)]
        wall = statistics.median(r[0] for r in results)
        cpu = statistics.median(r[1] for r in results)
        rss = max(r[2] for r in results)
        what = "dry run" if dry else "import "
        print(f"  whole command {what}  {wall:6.2f} s  {rows / wall:9,.0f} rows/s  (CPU {cpu:5.2f} s: "
              f"{rows / cpu:7,.0f} rows/s)  peak RSS {rss / 2**20:6.1f} MB")
    for dry in (True, False):
        results = [inner(big, fresh(), dry_run=dry) for _ in range(repeat)]
        t = statistics.median(r[0] for r in results)
        cpu = statistics.median(r[1] for r in results)
        what = "dry run" if dry else "import "
        print(f"  inner function {what} {t:6.2f} s  {rows / t:9,.0f} rows/s  (CPU {cpu:5.2f} s: "
              f"{rows / cpu:7,.0f} rows/s)")
    quarter, full = traced_peak(small, fresh()), traced_peak(big, fresh())
    per_row = (full - quarter) / (rows - rows // 4)
    print(f"  peak Python memory (tracemalloc): {rows // 4:,} rows {quarter / 2**20:6.1f} MB, "
          f"{rows:,} rows {full / 2**20:6.1f} MB  → {per_row / 1024:.1f} KB per row")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-postgresql", action="store_true")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-import-"))
    template = tmp / "seeded.db"
    engine = db.make_engine(f"sqlite:///{template}")
    db.init_db(engine)
    with engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()
    big, small = tmp / "big.csv", tmp / "small.csv"
    generate(big, args.rows, f"sqlite:///{template}")
    generate(small, args.rows // 4, f"sqlite:///{template}")
    print(f"{args.rows:,} rows, {big.stat().st_size / 1e6:.1f} MB of CSV; command: {' '.join(command())}")

    n = {"i": 0}

    def fresh_sqlite() -> str:
        n["i"] += 1
        target = tmp / f"db{n['i']}.db"
        shutil.copy(template, target)
        return f"sqlite:///{target}"

    bench("SQLite", fresh_sqlite, big, small, args.rows, args.repeat)
    if args.no_postgresql:
        return
    try:
        from pg_support import PgCluster, PgUnavailable
        cluster = PgCluster.start()
    except (ImportError, PgUnavailable) as exc:
        print(f"PostgreSQL skipped: {exc}")
        return
    try:
        seeded = cluster.create_database("seeded_template")
        e = db.make_engine(cluster.url(seeded))
        db.init_db(e)
        e.dispose()
        cluster.mark_template(seeded)
        bench("PostgreSQL", lambda: cluster.url(cluster.create_database(template=seeded)), big, small,
              args.rows, args.repeat)
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
