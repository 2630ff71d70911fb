"""Start-up time of the ``cardbase`` command against Python with Typer alone.

Each case is a whole process (``python -c …``, the same entry point as the installed ``cardbase``
script), run several times after one warm-up run; the median and the minimum wall time and CPU time
(user + system, steadier on a busy machine) are printed, with their ratios to
``python -c "import typer"``. Bytecode is cached (in a temporary folder) as on a user's machine.
Targets: ``cardbase --help`` at most 3×, and
``cardbase sticker encode 17`` at most 4×. The read-only commands (``cards search``, ``cards show``,
``deck stats``, ``deck validate``) run on a temporary SQLite database seeded by the warm-up, and
so does ``sim game overkill --games 1`` (a batch's fixed cost: everything before its first game).
On that database they take the read-only path (``cardbase.storage.readonly``); ``--full-path``
adds each of them once more with ``CARDBASE_FAST_READS=0`` (SQLAlchemy, as before it), measured in
the same run. Issue 29's targets for ``cards search`` and the batch's fixed cost are printed as
ratios to ``cardbase --help`` of the same run (``×help``), the machine's speed set aside.

Each process runs in the measured checkout (``--root``, default this one), so that ``python -c``
imports that checkout's code and no other. ``--before CHECKOUT`` measures ``--help`` and the
read-only commands of that checkout too, in the same run (``(before)`` rows), after checking that
both checkouts print the same bytes for each of them on the same database.

    python benchmarks/bench_startup.py [--runs 15] [--root OTHER_CHECKOUT] [--full-path]
                                       [--before CHECKOUT]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DECK = ROOT / "data" / "decks" / "braises-ardentes.txt"
CARDBASE = "import sys; sys.argv[0] = 'cardbase'; from cardbase.cli import main; sys.exit(main())"

CASES: list[tuple[str, list[str], float | None]] = [
    ("python -c pass", ["-c", "pass"], None),
    ('python -c "import typer"', ["-c", "import typer"], None),
    ("cardbase --help", ["-c", CARDBASE, "--help"], 3.0),
    ("cardbase sticker encode 17", ["-c", CARDBASE, "sticker", "encode", "17"], 4.0),
    ("cardbase --lang en sticker encode 17", ["-c", CARDBASE, "--lang", "en", "sticker", "encode", "17"], 4.0),
    ("cardbase sticker --help", ["-c", CARDBASE, "sticker", "--help"], None),
    ("cardbase deck --help", ["-c", CARDBASE, "deck", "--help"], None),
    # read-only commands on a seeded database (a temporary SQLite file, seeded by the warm-up)
    ("cardbase cards search 'c:rouge k:foule'", ["-c", CARDBASE, "cards", "search", "c:rouge k:foule"], None),
    ("cardbase cards show NP1-001", ["-c", CARDBASE, "cards", "show", "NP1-001"], None),
    ("cardbase deck stats DECK", ["-c", CARDBASE, "deck", "stats", str(DECK)], None),
    ("cardbase deck validate DECK", ["-c", CARDBASE, "deck", "validate", str(DECK)], None),
    # the fixed cost of a batch: one game (about a millisecond) after everything a batch loads
    ("cardbase sim game overkill --games 1", ["-c", CARDBASE, "sim", "game", "overkill", "--games", "1",
                                              "--json"], None),
]
# Targets of issue 29 as ratios to ``cardbase --help`` measured in the same run (its table: --help
# 0.18 s CPU on a quiet machine; search ≤ 0.35 s, a batch's fixed cost ≤ 0.6 s). The other
# read-only commands build no more than a search (the read-only path): the same target.
HELP_TARGETS = {
    "cardbase cards search 'c:rouge k:foule'": 0.35 / 0.178,
    "cardbase cards show NP1-001": 0.35 / 0.178,
    "cardbase deck stats DECK": 0.35 / 0.178,
    "cardbase deck validate DECK": 0.35 / 0.178,
    "cardbase sim game overkill --games 1": 0.6 / 0.178,
}


# The commands that read only: ``--full-path`` measures them on SQLAlchemy too.
READS = ("cardbase cards search", "cardbase cards show", "cardbase deck stats", "cardbase deck validate",
         "cardbase sim game")
FULL_PATH = " (full path)"
BEFORE = " (before)"


def _output(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, bytes, bytes]:
    done = subprocess.run([sys.executable, *args], env=env, cwd=cwd, capture_output=True, check=False)
    return done.returncode, done.stdout, done.stderr


def _time(args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one whole process."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, *args], env=env, stdout=subprocess.DEVNULL, stderr=err,
                                cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}): {err.read().decode()}")
    return elapsed, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs per case (default 15)")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout to measure (default: this one), to compare two versions")
    parser.add_argument("--full-path", action="store_true",
                        help="also run the read-only commands with CARDBASE_FAST_READS=0 (SQLAlchemy)")
    parser.add_argument("--before", type=Path, default=None,
                        help="another checkout: its --help and read-only commands too, outputs compared")
    options = parser.parse_args()
    runs = options.runs
    root = options.root.resolve()
    # (name, arguments, target, more environment, checkout)
    cases = [(name, args, target, {}, root) for name, args, target in CASES]
    if options.full_path:
        cases += [(name + FULL_PATH, args, None, {"CARDBASE_FAST_READS": "0"}, root)
                  for name, args, _ in CASES if name.startswith(READS)]
    if options.before is not None:
        before = options.before.resolve()
        cases += [(name + BEFORE, args, None, {}, before) for name, args, _ in CASES
                  if name.startswith(READS) or name == "cardbase --help"]
    env = dict(os.environ, COLUMNS="80")
    env.pop("CARDBASE_LANG", None)
    env.pop("CARDBASE_FAST_READS", None)
    # Measure what users get: modules compiled once to bytecode (kept outside the checkout).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="cardbase-bench-pycache-")
    db_dir = tempfile.mkdtemp(prefix="cardbase-bench-db-")
    env["DATABASE_URL"] = f"sqlite:///{Path(db_dir) / 'cardbase.db'}"
    def env_of(checkout: Path, more: dict[str, str]) -> dict[str, str]:
        path = os.pathsep.join(filter(None, [str(checkout), os.environ.get("PYTHONPATH")]))
        return env | more | {"PYTHONPATH": path}

    for _name, args, _, more, checkout in cases:
        _time(args, env_of(checkout, more), checkout)  # warm-up: file-system caches and bytecode
    if options.before is not None:
        differ = [name for name, args, _, _, _ in cases[:len(CASES)] if name.startswith(READS)
                  and _output(args, env_of(root, {}), root) != _output(args, env_of(before, {}), before)]
        print(f"same output as {before}: {'yes' if not differ else 'NO: ' + ', '.join(differ)}")
    # Interleave the cases so that a burst of load on the machine hits them all alike.
    wall: dict[str, list[float]] = {name: [] for name, *_ in cases}
    cpu: dict[str, list[float]] = {name: [] for name, *_ in cases}
    for _ in range(runs):
        for name, args, _, more, checkout in cases:
            w, c = _time(args, env_of(checkout, more), checkout)
            wall[name].append(w)
            cpu[name].append(c)
    base = 'python -c "import typer"'
    for label, samples in (("wall time", wall), ("CPU time (user + system)", cpu)):
        base_med, base_min = statistics.median(samples[base]), min(samples[base])
        print(f"\n{label}")
        print(f"{'case':<52} {'median ms':>10} {'min ms':>8} {'×typer med':>11} {'×typer min':>11} "
              f"{'×help med':>10}  target")
        for name, _, target, _, _ in cases:
            med, low = statistics.median(samples[name]), min(samples[name])
            # a row of the other checkout against that checkout's own --help
            help_med = statistics.median(samples["cardbase --help" + (BEFORE if name.endswith(BEFORE) else "")])
            goal = "" if target is None else f"≤ {target:g}× typer {'ok' if med / base_med <= target else 'MISSED'}"
            if name.removesuffix(BEFORE) in HELP_TARGETS:
                ratio = HELP_TARGETS[name.removesuffix(BEFORE)]
                goal = f"≤ {ratio:.2f}× help {'ok' if med / help_med <= ratio else 'MISSED'}"
            print(f"{name:<52} {med * 1000:>10.0f} {low * 1000:>8.0f} {med / base_med:>11.2f} "
                  f"{low / base_min:>11.2f} {med / help_med:>10.2f}  {goal}")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"({runs} runs per case, {root}, {sys.executable}, Python {sys.version.split()[0]}, "
          f"load average {load})")


if __name__ == "__main__":
    main()
