"""Print the NesPanini starter edition (NP1, 64 cards) as a user does; print cards/s.

The figure that counts is the **whole command**: ``cardbase print --edition NP1 --out x.pdf``
(home A4 PDF at 300 DPI) run as a new process, Python start-up, imports and database opening
included, pinned to one core when ``taskset`` exists. The database is a SQLite file made (and
seeded) once before the timed runs; each run prints to the same file, as reprints do. The best
and the median of ``--runs`` runs are printed, with the cards/s they give: by the wall clock (what
a user waits) and by the CPU time of the process (user + system, what it costs on a core of its
own — steadier when the machine is busy). The target is ≥ 30 cards/s.

Also printed: the same print inside a running process (cold caches, then warm, then with duplex
backs), which shows how much of the command is printing and how much is start-up, and, unless
``--no-memory``, the peak memory (RSS) of a process printing the edition 1×, 4× and 10×, to show
that memory stays flat as pages grow (pages are written as they are made).

    python benchmarks/bench_print.py [--runs 7] [--dpi 300] [--no-memory] [--no-inprocess]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# what the installed ``cardbase`` console script runs
ENTRY = "import sys; from cardbase.cli import main; sys.exit(main())"


def _env(db_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env["DATABASE_URL"] = db_url
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop("CARDBASE_LANG", None)
    return env


def _pin() -> list[str]:
    return ["taskset", "-c", "0"] if shutil.which("taskset") else []


def whole_command(runs: int, dpi: int) -> None:
    """Time ``cardbase print --edition NP1`` as new processes, start-up included."""
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(f"sqlite:///{Path(tmp) / 'cardbase.db'}")
        out = Path(tmp) / "np1.pdf"
        cmd = [*_pin(), sys.executable, "-c", ENTRY, "print", "--edition", "NP1", "--out", str(out),
               "--dpi", str(dpi)]
        # a first run creates and seeds the database: what a user pays once, not per print
        t0 = time.perf_counter()
        first = subprocess.run(cmd, env=env, capture_output=True, text=True)
        setup = time.perf_counter() - t0
        if first.returncode != 0:
            sys.exit(f"cardbase print failed:\n{first.stderr}")
        cards = 64
        times, cpus = [], []
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            times.append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        start = [*_pin(), sys.executable, "-c", ENTRY, "--help"]
        helps = []
        for _ in range(max(3, runs // 2)):
            t0 = time.perf_counter()
            subprocess.run(start, env=env, capture_output=True, text=True, check=True)
            helps.append(time.perf_counter() - t0)
    best, median = min(times), statistics.median(times)
    cbest, cmedian = min(cpus), statistics.median(cpus)
    print(f"whole command: cardbase print --edition NP1 --out x.pdf ({cards} cards, A4, {dpi} DPI, "
          f"{'one core' if _pin() else 'all cores'}), {runs} runs; load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"  wall  best   {best:6.2f} s  {cards / best:6.1f} cards/s")
    print(f"  wall  median {median:6.2f} s  {cards / median:6.1f} cards/s   "
          f"(range {min(times):.2f}–{max(times):.2f} s)")
    print(f"  CPU   best   {cbest:6.2f} s  {cards / cbest:6.1f} cards/s")
    print(f"  CPU   median {cmedian:6.2f} s  {cards / cmedian:6.1f} cards/s")
    print(f"  of which start-up (cardbase --help, median): {statistics.median(helps):.2f} s")
    print(f"  first run on a new database (creates and seeds it): {setup:.2f} s")
    print("  target: >= 30 cards/s for the whole command")


def starter_edition():
    from cardbase.storage.datafiles import figures, load_edition_file
    from cardbase.domain import CardDef

    ed, cards = load_edition_file(ROOT / "data" / "editions" / "NP1.toml")
    return [
        CardDef(id=i, game=ed["game"], edition=ed["code"], number=c["number"],
                set_size=ed.get("set_size") or len(cards), name=c["name"], value=c.get("value"),
                colour=c.get("colour"), banner=c.get("banner"), rarity=c.get("rarity"),
                card_type=c.get("type"), keywords=tuple(c.get("keywords", ())),
                effect=c.get("effect"), effect_text=c.get("effect_text"), flavour=c.get("flavour"),
                art=c.get("art"), stats=tuple(figures(c).items()))
        for i, c in enumerate(cards, start=1)
    ]


def in_process(dpi: int, repeat: int) -> None:
    from cardbase.outputs.printing import card as card_mod
    from cardbase.outputs.printing import print_cards

    cards = starter_edition()
    print(f"inside a running process ({len(cards)} cards, A4, {dpi} DPI):")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "np1.pdf"
        t0 = time.perf_counter()
        r = print_cards(cards, out, dpi=dpi)
        cold = time.perf_counter() - t0
        print(f"  cold (empty caches)     {cold:6.2f} s  {len(cards) / cold:6.1f} cards/s  "
              f"{r.pages} pages, {out.stat().st_size / 1e6:.1f} MB")
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            print_cards(cards, out, dpi=dpi)
            times.append(time.perf_counter() - t0)
        best = min(times)
        print(f"  warm (best of {repeat})       {best:6.2f} s  {len(cards) / best:6.1f} cards/s")
        t0 = time.perf_counter()
        print_cards(cards, out, dpi=dpi, backs=True)
        dt = time.perf_counter() - t0
        print(f"  warm, with duplex backs {dt:6.2f} s  {len(cards) / dt:6.1f} cards/s")
        card_mod._chrome.cache_clear()
        card_mod._chrome_masks.cache_clear()


def _child(times: int, dpi: int) -> None:
    from cardbase.outputs.printing import print_cards

    base = starter_edition()
    # distinct cards (new numbers) so no image is reused between copies
    cards = (dataclasses.replace(c, number=c.number + k * 1000) for k in range(times) for c in base)
    with tempfile.TemporaryDirectory() as tmp:
        r = print_cards(cards, Path(tmp) / "big.pdf", dpi=dpi)
        size = (Path(tmp) / "big.pdf").stat().st_size
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{r.cards} {r.pages} {peak_mb:.1f} {size / 1e6:.1f}")


def memory(dpi: int) -> None:
    print("memory (peak RSS of a fresh process; distinct cards, so nothing is reused):")
    for times in (1, 4, 10):
        res = subprocess.run([*_pin(), sys.executable, __file__, "--child", str(times), "--dpi",
                              str(dpi)], capture_output=True, text=True, check=True)
        n, pages, peak, size = res.stdout.split()
        print(f"  {n:>4} cards  {pages:>3} pages  {size:>6} MB PDF  peak RSS {peak:>6} MB")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dpi", type=int, default=300)
    ap.add_argument("--runs", type=int, default=7, help="timed runs of the whole command")
    ap.add_argument("--repeat", type=int, default=3, help="warm runs inside the process")
    ap.add_argument("--child", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--no-memory", action="store_true", help="skip the memory runs")
    ap.add_argument("--no-inprocess", action="store_true", help="skip the in-process runs")
    args = ap.parse_args()
    if args.child:
        _child(args.child, args.dpi)
        return
    whole_command(args.runs, args.dpi)
    if not args.no_inprocess:
        in_process(args.dpi, args.repeat)
    if not args.no_memory:
        memory(args.dpi)


if __name__ == "__main__":
    main()
