"""First-run seeding from ``data/``: its time, and a digest of the database it leaves.

Three starts, each on a new SQLite database, each in a process of its own (``--worker``):

- **fresh**: an empty database, as the app's first run meets it (schema migrations, then seeding);
- **adopt**: a database an older cardbase made and seeded before seed identities (schema 0002,
  a game, an edition and one of its cards already there), which seeding adopts by their codes;
- **warnings**: a copy of ``data/`` with an edition file and a starter deck that do not read, and a
  deck that does not resolve: seeding leaves them out with warnings.

For each, the median CPU time (user + system of the process) of ``init_db`` (migrations and
seeding, in one transaction, as a first run does them), and a digest of every row of every table (timestamps aside), of the counts it reports and
of its warnings. ``--before CHECKOUT`` runs the same on another checkout, from the same ``data/``, and
prints the ratios and whether every digest is the same (a speed-up must not change one row).

    python benchmarks/bench_seed.py [--runs 7] [--before OTHER_CHECKOUT]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ("fresh", "adopt", "warnings")


def _cpu() -> float:
    t = os.times()
    return t.user + t.system


def broken_data(data: Path, target: Path) -> Path:
    """A copy of ``data`` with files seeding must leave out, each with its warning."""
    shutil.copytree(data, target, ignore=shutil.ignore_patterns("*.db*", "art"))
    (target / "editions" / "BAD.toml").write_text('[edition]\ngame = "nespanini"\ncode = ', encoding="utf-8")
    (target / "editions" / "NP9.toml").write_text(  # reads, but a card art path leaves the folder
        '[edition]\ngame = "nespanini"\ncode = "NP9"\nname = "Refusée"\n\n[[cards]]\nnumber = 1\n'
        'name = "Trop loin"\nvalue = 3\nart = "../../etc/passwd"\n', encoding="utf-8")
    (target / "decks" / "casse.txt").write_text("# game: nespanini\n3 NP1-999\n", encoding="utf-8")
    return target


def worker(scenario: str, data: Path, folder: Path) -> dict:
    """One start in this process: CPU seconds of ``init_db``, and the digests."""
    sys.path.insert(0, str(ROOT / "tests"))
    from seed_support import database_digest, older_database

    from cardbase.storage import db

    folder.mkdir(parents=True, exist_ok=True)
    engine = db.make_engine(f"sqlite:///{folder / 'cardbase.db'}")
    if scenario == "adopt":  # what tests/test_seed.py's older database holds
        older_database(engine, game="overkill", game_name="OVERKILL", edition="OVK", set_size=39, number=28,
                       name="Maximiser", stats='{"objectif": 27}')
    if scenario == "warnings":
        data = broken_data(data, folder / "data")
    start = _cpu()
    report = db.init_db(engine, data_dir=data)
    total = _cpu() - start
    digest = database_digest(engine)
    engine.dispose()
    warnings = [w.replace(str(folder), "<folder>") for w in report.warnings]
    return {"cpu": total, "digest": digest, "report": dict(report), "warnings": warnings}


def _run(checkout: Path, scenario: str, data: Path, env: dict[str, str]) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="cardbase-bench-seed-"))
    env = dict(env, PYTHONPATH=str(checkout))
    try:
        proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", scenario,
                               "--data", str(data), "--folder", str(folder)],
                              env=env, cwd=checkout, capture_output=True, text=True, check=False)
        if proc.returncode:
            raise SystemExit(f"{checkout} {scenario}: {proc.stderr[-3000:]}")
        return json.loads(proc.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="starts per scenario (default 7)")
    parser.add_argument("--before", type=Path, help="another checkout to compare with (the same data/)")
    parser.add_argument("--data", type=Path, default=ROOT / "data", help="the data folder seeded from")
    parser.add_argument("--worker", choices=SCENARIOS, help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker:
        print(json.dumps(worker(options.worker, options.data, options.folder)))
        return
    if not 1 <= options.runs <= 100:
        raise SystemExit("--runs: from 1 to 100")
    checkouts = {"this": ROOT}
    if options.before:
        checkouts["before"] = options.before.resolve()
    env = dict(os.environ, PYTHONPYCACHEPREFIX=tempfile.mkdtemp(prefix="cardbase-bench-pycache-"))
    for name in ("CARDBASE_DATA_DIR", "DATABASE_URL", "CARDBASE_LANG", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    results: dict[tuple[str, str], list[dict]] = {}
    for i in range(options.runs + 1):  # the first round compiles the bytecode
        for scenario in SCENARIOS:
            for name, checkout in checkouts.items():  # interleaved: a burst of load hits both
                out = _run(checkout, scenario, options.data, env)
                if i:
                    results.setdefault((name, scenario), []).append(out)
    print(f"first-run start (migrations + seeding), CPU seconds of init_db, median of {options.runs}")
    same = True
    for scenario in SCENARIOS:
        line = f"  {scenario:<9}"
        for name in checkouts:
            runs = results[(name, scenario)]
            digests = {json.dumps([r["digest"], r["report"], r["warnings"]]) for r in runs}
            if len(digests) != 1:
                raise SystemExit(f"{name} {scenario}: the database differs from one start to the next")
            line += f"  {name} {statistics.median(r['cpu'] for r in runs):.3f} s"
        if "before" in checkouts:
            a, b = results[("this", scenario)], results[("before", scenario)]
            ratio = statistics.median(r["cpu"] for r in b) / statistics.median(r["cpu"] for r in a)
            equal = (a[0]["digest"], a[0]["report"], a[0]["warnings"]) == \
                (b[0]["digest"], b[0]["report"], b[0]["warnings"])
            same &= equal
            line += f"  ({ratio:.2f}× faster; database, counts and warnings {'the same' if equal else 'DIFFER'})"
        line += f"  digest {results[('this', scenario)][0]['digest'][:16]}"
        line += f", {len(results[('this', scenario)][0]['warnings'])} warning(s)"
        print(line)
    print(f"load average before {load}, after {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{time.strftime('%Y-%m-%d %H:%M')}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
