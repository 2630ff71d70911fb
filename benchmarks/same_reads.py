"""The read-only commands of ``tests/test_readonly.py`` and batches of every box game
(``sim game``) on this checkout and on another one (the code before a change), compared byte for
byte: exit code, stdout, stderr, and the files ``cards export`` writes. Both run on the same two SQLite databases, made here by this checkout: the seeded one and
one with a designer's edits (games of their own with declared fields, a renamed card, a deleted
seeded card). Each command is a whole process run in its checkout; a difference is printed as a
diff.

    python benchmarks/same_reads.py --before OTHER_CHECKOUT
"""

from __future__ import annotations

import argparse
import difflib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CARDBASE = "import sys; sys.argv[0] = 'cardbase'; from cardbase.cli import main; sys.exit(main())"


def _databases(folder: Path) -> dict[str, str]:
    """The seeded database and the edited one, made by this checkout's command line in-process."""
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    import test_readonly as cases

    from cardbase.storage import db

    urls = {}
    for kind in ("seeded", "edited"):
        urls[kind] = os.environ["DATABASE_URL"] = f"sqlite:///{folder / kind}.db"
        db.dispose_engines()
        cases._ok("cards", "search", "c:rouge")  # creates and seeds it
        if kind == "edited":
            cases._user_edits(folder)
        db.dispose_engines()
    return urls


def _run(args: list[str], checkout: Path, url: str, out: Path) -> tuple:
    out.unlink(missing_ok=True)
    env = dict(os.environ, PYTHONPATH=str(checkout), DATABASE_URL=url, COLUMNS="80")
    env.pop("CARDBASE_LANG", None)
    done = subprocess.run([sys.executable, "-c", CARDBASE, *args], cwd=checkout, env=env,
                          capture_output=True, check=False)
    return done.returncode, done.stdout, done.stderr, out.read_bytes() if out.exists() else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other checkout")
    options = parser.parse_args()
    before = options.before.resolve()
    with tempfile.TemporaryDirectory(prefix="cardbase-same-reads-") as tmp:
        folder = Path(tmp)
        urls = _databases(folder)
        import test_readonly as cases

        commands = [list(c) for c in cases._commands(folder)]
        for fmt in ("csv", "json"):
            for more in ([], ["--query", "c:rouge or g:duel"], ["--edition", "du1"], ["--edition", "ZZ"]):
                commands.append(["cards", "export", str(folder / f"out.{fmt}"), *more])
        for game in ("overkill", "ctterror", "overseers", "pushluck", "huit"):
            for seed in ("0", "7"):
                commands.append(["sim", "game", game, "--games", "30", "--seed", seed, "--json",
                                 "--measures-games", "20"])
            commands.append(["--lang", "en", "sim", "game", game, "--games", "10", "--seed", "5"])
        differ = 0
        for kind, url in urls.items():
            for args in commands:
                out = next((Path(a) for a in args if a.startswith(str(folder / "out."))), folder / "none")
                mine, theirs = _run(args, ROOT, url, out), _run(args, before, url, out)
                if mine == theirs:
                    continue
                differ += 1
                print(f"DIFFERS on the {kind} database: cardbase {' '.join(args)}")
                for a, b in zip(theirs[1:3], mine[1:3], strict=True):
                    for line in difflib.unified_diff(a.decode().splitlines(), b.decode().splitlines(),
                                                     "before", "now", lineterm="", n=0):
                        print("   ", line)
        print(f"{len(commands) * len(urls)} commands, {differ} differ ({before} against {ROOT})")


if __name__ == "__main__":
    main()
