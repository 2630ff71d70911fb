"""The whole ``cardbase print`` command on every core against one process: cards/s, CPU, PDF size.

Each run is a new process (``cardbase print --edition NP1 --out x.pdf``, Python start-up, imports
and database opening included), *not* pinned to a core. The database is a SQLite file made and
seeded once before the timed runs. For each case the median and best wall time and the CPU time
of the process and its workers (user + system) are printed, with cards/s, the wall-time ratio to
the first case and the PDF's size per page. The machine may be shared: the CPU time and the load
average say how much of the wall time was waiting for a core.

    python benchmarks/bench_print_cores.py [--runs 5] [--times 1] [--workers 1 2]
        [--root OTHER_CHECKOUT]

``--times K`` prints the edition K times as distinct cards (a larger set), ``--root`` measures
another checkout (e.g. the code before a change; ``--workers`` is then not passed to it when the
value is 0).
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
ENTRY = "import sys; from cardbase.cli import main; sys.exit(main())"


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system, the process and the workers it waited for)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr.read().decode() if proc.stderr else ''}")
    return wall, usage.ru_utime + usage.ru_stime


def _seed_copies(env: dict[str, str], root: Path, times: int) -> None:
    """Add NP1's cards ``times - 1`` more times to NP1 as distinct cards (other numbers)."""
    code = (
        f"import sys; sys.path.insert(0, {str(root)!r})\n"
        "from cardbase.db import session_scope as session\n"
        "from cardbase.models import Card, Edition\n"
        "from sqlmodel import select\n"
        "with session() as s:\n"
        "    ed = s.exec(select(Edition).where(Edition.code == 'NP1')).one()\n"
        "    base = s.exec(select(Card).where(Card.edition_id == ed.id)).all()\n"
        f"    for k in range(1, {times}):\n"
        "        for c in base:\n"
        "            d = c.model_dump(exclude={'id', 'origin'})\n"
        "            d['number'] = c.number + 1000 * k\n"
        "            s.add(Card(**d))\n"
        "    s.commit()\n"
    )
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--times", type=int, default=1, help="print the edition this many times")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 0],
                    help="cases: worker counts (0 = the default, no --workers option)")
    ap.add_argument("--root", type=Path, default=ROOT)
    ap.add_argument("--dpi", type=int, default=300)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, DATABASE_URL=f"sqlite:///{Path(tmp) / 'cardbase.db'}",
                   PYTHONPATH=os.pathsep.join(filter(None, [str(args.root),
                                                            os.environ.get("PYTHONPATH")])))
        env.pop("CARDBASE_LANG", None)
        out = Path(tmp) / "x.pdf"
        base = [sys.executable, "-c", ENTRY, "print", "--out", str(out), "--dpi", str(args.dpi)]
        source = ["--edition", "NP1"]
        _run([*base, *source], env)  # creates and seeds the database
        cards = 64
        if args.times > 1:
            _seed_copies(env, args.root, args.times)
            cards = 64 * args.times
        cases = [(w, [*base, *source, *([] if w == 0 else ["--workers", str(w)])])
                 for w in args.workers]
        for _, cmd in cases:
            _run(cmd, env)  # warm-up: bytecode and file caches
        walls: dict[int, list[float]] = {w: [] for w, _ in cases}
        cpus: dict[int, list[float]] = {w: [] for w, _ in cases}
        sizes: dict[int, tuple[int, int]] = {}
        for _ in range(args.runs):
            for w, cmd in cases:  # interleaved: a burst of load hits every case alike
                wall, cpu = _run(cmd, env)
                walls[w].append(wall)
                cpus[w].append(cpu)
                data = out.read_bytes()
                sizes[w] = (len(data), data.count(b"/Type /Page "))
    print(f"cardbase print, {cards} cards ({' '.join(source)}), A4, {args.dpi} DPI, whole process; "
          f"{args.runs} runs, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; "
          f"checkout {args.root}")
    print(f"{'workers':<9}{'wall med':>9}{'cards/s':>9}{'wall min':>9}{'cards/s':>9}"
          f"{'CPU med':>9}{'cards/CPU s':>12}{'× wall':>8}{'CPU/wall':>9}{'MB/page':>9}{'pages':>6}")
    ref = statistics.median(walls[cases[0][0]])
    for w, _ in cases:
        med, low, cpu = statistics.median(walls[w]), min(walls[w]), statistics.median(cpus[w])
        size, pages = sizes[w]
        print(f"{w or 'default':<9}{med:>8.2f}s{cards / med:>9.1f}{low:>8.2f}s{cards / low:>9.1f}"
              f"{cpu:>8.2f}s{cards / cpu:>12.1f}{ref / med:>8.2f}{cpu / med:>9.2f}"
              f"{size / 1e6 / max(pages, 1):>9.2f}{pages:>6}")


if __name__ == "__main__":
    main()
