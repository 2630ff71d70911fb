"""The whole ``cardbase print`` command on every core against one process: cards/s, CPU, PDF size.

Each run is a new process (``cardbase print --edition NP1 --out x.pdf``, Python start-up, imports
and database opening included), *not* pinned to a core. The database is a SQLite file made and
seeded once before the timed runs. Bytecode is cached (in a temporary folder), as on a user's
machine. For each case the median and best wall time, the CPU time of the process and its
workers (user + system) and of the main process alone are printed, with cards/s, the wall-time
and CPU ratios to the first case and the PDF's size per page. The machine may be shared: the CPU
time and the load average say how much of the wall time was waiting for a core.

    python benchmarks/bench_print_cores.py [--runs 5] [--times 1 | --long 500] [--workers 1 0]
        [--before OTHER_CHECKOUT] [--root CHECKOUT]

``--times K`` prints the edition K times as distinct cards (a larger set). ``--long N`` prints N
distinct cards with long effect texts instead (``benchmarks/long_text_cards.py``: 380 to 620
characters of rich text each, a quarter of them growing into the art, as in a large real set).
``--before`` adds the same command run from another checkout (``git worktree add DIR <commit>
--detach``, or ``git archive <commit> | tar -x -C DIR``) as the reference case, interleaved with the others, and says whether its PDF is the
same as this checkout's, byte for byte (else whether each card's picture is).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The command as users run it; on its way out the process writes its own CPU time (not its
# workers') to the file named by CARDBASE_BENCH_SELF_CPU. Forked workers end with os._exit and do
# not write it.
ENTRY = (
    "import atexit, os, resource, sys\n"
    "def _self_cpu():\n"
    "    u = resource.getrusage(resource.RUSAGE_SELF)\n"
    "    with open(os.environ['CARDBASE_BENCH_SELF_CPU'], 'w') as f:\n"
    "        f.write(repr(u.ru_utime + u.ru_stime))\n"
    "atexit.register(_self_cpu)\n"
    "from cardbase.cli import main; sys.exit(main())\n"
)


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Wall time, CPU time (user + system, the process and the workers it waited for) and the CPU
    time of the main process alone. Run from the temporary folder: ``python -c`` puts the
    current folder first on the path, and a checkout there would shadow ``--root``/``--before``."""
    self_cpu = Path(env["CARDBASE_BENCH_SELF_CPU"])
    self_cpu.unlink(missing_ok=True)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            cwd=self_cpu.parent)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr.read().decode() if proc.stderr else ''}")
    return wall, usage.ru_utime + usage.ru_stime, float(self_cpu.read_text())


def _seed_copies(env: dict[str, str], root: Path, times: int) -> None:
    """Add NP1's cards ``times - 1`` more times to NP1 as distinct cards (other numbers)."""
    code = (
        f"import sys; sys.path.insert(0, {str(root)!r})\n"
        "from cardbase.storage.db import session_scope as session\n"
        "from cardbase.storage.models import Card, Edition\n"
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


def _seed_long(env: dict[str, str], count: int) -> None:
    """Add the long-text fixture as edition LNG (this checkout's fixture, whatever ``--root``)."""
    code = (f"import sys; sys.path.insert(0, {str(ROOT / 'benchmarks')!r})\n"
            f"import long_text_cards; long_text_cards.seed('LNG', {count})\n")
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)


def _env(db_url: str, root: Path, pycache: str) -> dict[str, str]:
    env = dict(os.environ, DATABASE_URL=db_url, PYTHONPYCACHEPREFIX=pycache,
               PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
               CARDBASE_BENCH_SELF_CPU=str(Path(pycache).parent / "self-cpu.txt"))
    env.pop("CARDBASE_LANG", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # what users get: modules compiled once
    return env


def _images(pdf: bytes) -> list[bytes]:
    """The image streams of a PDF, in file order."""
    return re.findall(rb"/Length \d+ >>\nstream\n(.*?)\nendstream", pdf, re.S)


def _same(before: bytes, after: bytes) -> str:
    if before == after:
        return "the same PDF, byte for byte"
    a, b = _images(before), _images(after)
    if a == b:
        return "the same images, byte for byte (the PDF's other bytes differ)"
    return f"DIFFERENT: {sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))} images differ"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--times", type=int, default=1, help="print the edition this many times")
    ap.add_argument("--long", type=int, default=0, metavar="N",
                    help="print N distinct long-text cards instead (e.g. 500)")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 0],
                    help="cases: worker counts (0 = the default, no --workers option)")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout measured")
    ap.add_argument("--before", type=Path, default=None,
                    help="another checkout (e.g. the code before a change), run without "
                         "--workers as a first case, interleaved with the others")
    ap.add_argument("--dpi", type=int, default=300)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db_url = f"sqlite:///{Path(tmp) / 'cardbase.db'}"
        pycache = str(Path(tmp) / "pycache")
        env = _env(db_url, args.root, pycache)
        out = Path(tmp) / "x.pdf"
        base = [sys.executable, "-c", ENTRY, "print", "--out", str(out), "--dpi", str(args.dpi)]
        source = ["--edition", "NP1"]
        _run([*base, *source], env)  # creates and seeds the database
        cards = 64
        if args.long:
            _seed_long(env, args.long)
            source, cards = ["--edition", "LNG"], args.long
        elif args.times > 1:
            _seed_copies(env, args.root, args.times)
            cards = 64 * args.times
        cases = [(f"workers {w}" if w else "default", env,
                  [*base, *source, *([] if w == 0 else ["--workers", str(w)])])
                 for w in args.workers]
        if args.before is not None:
            cases.insert(0, ("before", _env(db_url, args.before, pycache + "-before"),
                             [*base, *source]))
        files: dict[str, bytes] = {}
        for name, case_env, cmd in cases:
            _run(cmd, case_env)  # warm-up: bytecode and file caches
            files[name] = out.read_bytes()
        walls: dict[str, list[float]] = {name: [] for name, _, _ in cases}
        cpus: dict[str, list[float]] = {name: [] for name, _, _ in cases}
        mains: dict[str, list[float]] = {name: [] for name, _, _ in cases}
        sizes: dict[str, tuple[int, int]] = {}
        load_before = os.getloadavg()[0]
        for _ in range(args.runs):
            for name, case_env, cmd in cases:  # interleaved: a burst of load hits every case alike
                wall, cpu, main_cpu = _run(cmd, case_env)
                walls[name].append(wall)
                cpus[name].append(cpu)
                mains[name].append(main_cpu)
                data = out.read_bytes()
                sizes[name] = (len(data), data.count(b"/Type /Page "))
    print(f"cardbase print, {cards} cards ({' '.join(source)}), A4, {args.dpi} DPI, whole process; "
          f"{args.runs} runs, {os.cpu_count()} cores, load average {load_before:.1f} → "
          f"{os.getloadavg()[0]:.1f}; checkout {args.root}"
          + (f", before: {args.before}" if args.before else ""))
    print(f"{'case':<11}{'wall med':>9}{'cards/s':>9}{'wall min':>9}{'cards/s':>9}"
          f"{'CPU med':>9}{'cards/CPU s':>12}{'main CPU':>9}{'cards/s':>9}{'× wall':>8}{'× CPU':>7}"
          f"{'CPU/wall':>9}{'MB/page':>9}{'pages':>6}")
    first = cases[0][0]
    ref = statistics.median(walls[first])
    ref_cpu = statistics.median(cpus[first])
    for name, _, _ in cases:
        med, low, cpu = statistics.median(walls[name]), min(walls[name]), statistics.median(cpus[name])
        main_cpu = statistics.median(mains[name])
        size, pages = sizes[name]
        print(f"{name:<11}{med:>8.2f}s{cards / med:>9.1f}{low:>8.2f}s{cards / low:>9.1f}"
              f"{cpu:>8.2f}s{cards / cpu:>12.1f}{main_cpu:>8.2f}s{cards / main_cpu:>9.1f}"
              f"{ref / med:>8.2f}{ref_cpu / cpu:>7.2f}{cpu / med:>9.2f}"
              f"{size / 1e6 / max(pages, 1):>9.2f}{pages:>6}")
    print("(× wall, × CPU: the first case's median over this case's; CPU/wall above 1: more than "
          "one core at work. main CPU: the main process alone, workers left out — the wall time "
          "cannot be shorter, and is about that on an idle machine when the workers keep up; its "
          "cards/s is the figure a machine with a free core for each worker would show)")
    for name, _, _ in cases[1:]:
        print(f"{name} against {first}: {_same(files[first], files[name])}")


if __name__ == "__main__":
    main()
