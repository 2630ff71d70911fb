"""Export the NesPanini starter edition (NP1, 64 cards) for a print shop, as a user does.

The figure that counts is the **whole command**
``cardbase print --edition NP1 --out np1.pdf --mode shop --preset tgc-poker`` run as a new process
(Python start-up, imports and database opening included), pinned to one core when ``taskset``
exists: 64 fronts and 64 backs as 825 × 1125 px PNGs and the PDF of the same pages. The target is
≤ 5 s. The best and the median of ``--runs`` runs are printed, by the wall clock (what a user
waits) and by the CPU time of the process (user + system: what it costs on a core of its own,
steadier when the machine is busy), with the load average at the time.

Also printed: the colour-blind report of the edition (``cardbase proof colours --edition NP1``)
and a simulated proof sheet (``--mode proof --simulate deuteranopia``), as whole commands.

    python benchmarks/bench_shop.py [--runs 5] [--preset tgc-poker]
"""

from __future__ import annotations

import argparse
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
ENTRY = "import sys; from cardbase.cli import main; sys.exit(main())"
CARDS = 64


def _env(db_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env["DATABASE_URL"] = db_url
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop("CARDBASE_LANG", None)
    return env


def _pin() -> list[str]:
    return ["taskset", "-c", "0"] if shutil.which("taskset") else []


def _time(cmd: list[str], env: dict[str, str], runs: int) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = subprocess.run(cmd, env=env, capture_output=True, text=True)
        walls.append(time.perf_counter() - t0)
        if done.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed:\n{done.stderr}")
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


def _line(label: str, walls: list[float], cpus: list[float], cards: int | None = None) -> None:
    rate = (lambda t: f"  ({cards / t:.0f} cards/s)") if cards else (lambda t: "")
    print(f"{label}")
    print(f"  wall: best {min(walls):.2f} s{rate(min(walls))}, median {statistics.median(walls):.2f} s")
    print(f"  CPU : best {min(cpus):.2f} s{rate(min(cpus))}, median {statistics.median(cpus):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--preset", default="tgc-poker")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(f"sqlite:///{Path(tmp) / 'cardbase.db'}")
        base = [*_pin(), sys.executable, "-c", ENTRY]
        subprocess.run([*base, "init"], env=env, capture_output=True, check=True)
        out = Path(tmp) / "np1.pdf"
        shop = [*base, "print", "--edition", "NP1", "--out", str(out), "--mode", "shop",
                "--preset", args.preset]
        print(f"load average before: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
        walls, cpus = _time(shop, env, args.runs)
        files = sorted((Path(tmp) / "np1-png").iterdir())
        size = sum(f.stat().st_size for f in files) + out.stat().st_size
        _line(f"shop export, {CARDS} cards, preset {args.preset} ({len(files)} PNG + PDF, "
              f"{size / 1e6:.0f} MB), whole command, {args.runs} runs:", walls, cpus, CARDS)
        verdict = "meets" if min(walls) <= 5 else "misses"
        print(f"  target ≤ 5 s: the best wall time {verdict} it; CPU time {min(cpus):.2f} s")
        report = [*base, "proof", "colours", "--edition", "NP1", "--json"]
        _line("colour-blind report of NP1, whole command:", *_time(report, env, args.runs))
        proof = [*base, "print", "--edition", "NP1", "--out", str(Path(tmp) / "p.png"),
                 "--mode", "proof", "--simulate", "deuteranopia", "--proof-overlay"]
        _line("simulated proof sheet of NP1 (deuteranopia, overlay), whole command:",
              *_time(proof, env, max(1, args.runs // 2)))
        print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
