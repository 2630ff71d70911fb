"""The commands of README.md's command-line block, as a user would type them in a fresh folder.

Run by tests/test_readme_commands.py in a child process, so that CARDBASE_DATA_DIR (read when
cardbase is imported) points at a copy of data/: ``cardbase data export`` and ``games add`` then
write into that copy, never into the project. Every command goes through typer's CliRunner.

    python tests/readme_commands.py README.md WORKDIR  →  one JSON line per command run

Reading the block: a ``# …`` comment is dropped; ``cmd1 / cmd2`` on one line is two commands;
``[--option VALUE|OTHER]`` groups are optional: each line runs once without them and once with
every group, each taking its first choice. The words below stand for values the user supplies.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
import time
from pathlib import Path

OPTIONAL = re.compile(r"\s*\[([^\]'\"]*)\]")
PLACEHOLDERS = {"URL": "https://exemple.fr/tts/", "ADDRESS": "tcp://127.0.0.1:8786",
                # a rules file outside data/rules/ (sim game --rules): the blind test's Scopa
                "DRAFT.toml": str(Path(__file__).resolve().parent / "data" / "rules" / "scopa.toml")}


def command_block(readme: str) -> list[str]:
    """The lines of the first ```bash block after the "## Command line" heading."""
    part = readme.split("\n## Command line", 1)[1]
    block = part.split("```bash\n", 1)[1].split("\n```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


def without_comment(line: str) -> str:
    """The line up to a ``#`` that starts a word outside quotes."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def commands(readme: str) -> list[list[str]]:
    """Every command of the block, as argument lists (without the leading ``cardbase``)."""
    out: list[list[str]] = []
    for line in command_block(readme):
        text = without_comment(line)
        forms = [OPTIONAL.sub("", text)]
        if OPTIONAL.search(text):
            forms.append(OPTIONAL.sub(lambda m: " " + m.group(1).split("|")[0], text))
        for form in forms:
            for part in re.split(r"\s+/\s+(?=cardbase\s)", form):
                args = shlex.split(part)
                if not args or args[0] != "cardbase":
                    raise ValueError(f"not a cardbase command in README.md: {part!r}")
                out.append(args[1:])
    return out


def main(readme_path: str, workdir: str) -> None:
    import os

    from typer.testing import CliRunner

    from cardbase.storage import db
    from cardbase.cli import app

    todo = commands(Path(readme_path).read_text(encoding="utf-8"))
    os.chdir(workdir)
    runner = CliRunner()
    found: dict[str, str] = {}
    for args in todo:
        start = time.perf_counter()
        if args[:2] == ["deck", "decode"]:  # CODE: what "deck code" printed just before
            args = [found.get("CODE", a) if a == "CODE" else a for a in args]
        args = [PLACEHOLDERS.get(a, a) for a in args]
        if args[:2] == ["db", "restore"]:  # "into an empty database only": a new one
            os.environ["DATABASE_URL"] = f"sqlite:///{Path(workdir) / 'restored.db'}"
            db.dispose_engines()
        res = runner.invoke(app, args)
        if args[:2] == ["db", "restore"]:
            os.environ["DATABASE_URL"] = f"sqlite:///{Path(workdir) / 'cardbase.db'}"
            db.dispose_engines()
        if args[:2] == ["deck", "code"] and res.exit_code == 0:
            found["CODE"] = res.stdout.strip().splitlines()[-1]
        if args[:2] == ["tts", "export"] and res.exit_code == 0:  # the saved object to read back
            (Path(workdir) / "saved.json").write_bytes(
                next(Path(workdir, args[args.index("--out") + 1]).glob("*.json")).read_bytes())
        error = "" if res.exception is None or isinstance(res.exception, SystemExit) \
            else repr(res.exception)
        print(json.dumps({"args": args, "exit": res.exit_code, "output": res.output[-2000:],
                          "error": error, "seconds": round(time.perf_counter() - start, 1)}),
              flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
