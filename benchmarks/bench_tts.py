"""Speed of ``cardbase tts export``: whole processes, start-up included.

Two cases, each a new process (the entry point of the installed ``cardbase`` script) against a
fresh seeded SQLite database, run several times after one warm-up run; the median and the minimum
wall time and CPU time (user + system, steadier on a busy machine) are printed:

- a 20-card deck (the starter deck ``braises-ardentes``: 11 distinct faces, one sheet) — target 3 s;
- the 68-card CT vs Terror box (``--edition CTT``: 26 distinct faces, one sheet) — target 5 s.

The output folder is emptied before each run, so every sheet is drawn and written each time.

    python benchmarks/bench_tts.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CARDBASE = "import sys; sys.argv[0] = 'cardbase'; from cardbase.cli import main; sys.exit(main())"

CASES: list[tuple[str, list[str], float]] = [
    ("20-card deck (braises-ardentes)", ["braises-ardentes"], 3.0),
    ("68-card box (--edition CTT)", ["--edition", "CTT"], 5.0),
]


def _run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", CARDBASE, *args], env=env,
                                stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"{' '.join(args)} failed: {err.read().decode()}")
    return elapsed, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per case (default 7)")
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        db_path = tmp_path / "bench.db"
        env = dict(os.environ, DATABASE_URL=f"sqlite:///{db_path}",
                   PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        subprocess.run([sys.executable, "-c", CARDBASE, "init"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        print(f"{'case':34} {'wall median':>12} {'wall min':>9} {'cpu median':>11} {'target':>7}")
        ok = True
        for label, source, target in CASES:
            out = tmp_path / "out"
            walls, cpus = [], []
            for i in range(runs + 1):
                shutil.rmtree(out, ignore_errors=True)
                wall, cpu = _run(["tts", "export", *source, "--out", str(out)], env)
                if i:  # the first run warms the bytecode cache
                    walls.append(wall)
                    cpus.append(cpu)
            med = statistics.median(walls)
            ok &= med <= target
            print(f"{label:34} {med:10.2f} s {min(walls):7.2f} s {statistics.median(cpus):9.2f} s "
                  f"{target:5.1f} s {'ok' if med <= target else 'SLOW'}")
        print("all within target" if ok else "some case over its target")
        print("load average (1, 5, 15 min): " + ", ".join(f"{x:.1f}" for x in os.getloadavg())
              + f" on {os.cpu_count()} cores — wall times grow with it, CPU times much less")


if __name__ == "__main__":
    main()
