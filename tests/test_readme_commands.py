"""Every command README.md shows in its command-line block works as written (exit code 0).

The block is parsed (tests/readme_commands.py says how: comments, ``a / b``, optional
``[...]`` groups run both without and with their first choice) and run in a fresh folder holding
a copy of data/, a new SQLite database and the one file the block expects the user to have
(deck.txt, a deck list). Nothing is left out: a command added to the README is run too.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from readme_commands import commands, without_comment

ROOT = Path(__file__).resolve().parents[1]


def test_the_block_is_read_whole() -> None:
    """The parse keeps every line: each ``cardbase`` in the block is one command run."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("\n## Command line", 1)[1].split("```bash\n", 1)[1].split("\n```", 1)[0]
    typed = sum(without_comment(line).split().count("cardbase") for line in block.splitlines())
    runs = commands(readme)
    with_options = sum(1 for line in block.splitlines() if "[" in without_comment(line))
    assert typed >= 35 and len(runs) >= typed + with_options
    assert ["print", "--edition", "NP1", "--mode", "shop", "--preset", "tgc-poker", "--out",
            "shop/"] in runs
    assert without_comment("cardbase cards search 'a #b' --json  # note") == \
        "cardbase cards search 'a #b' --json"


def test_every_readme_command_runs_as_written(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    shutil.copytree(ROOT / "data", work / "data",
                    ignore=shutil.ignore_patterns("cardbase.db*", "art"))
    shutil.copyfile(ROOT / "data" / "decks" / "braises-ardentes.txt", work / "deck.txt")
    before = {p: p.read_bytes() for p in (ROOT / "data").rglob("*.t*") if p.is_file()}
    env = {k: v for k, v in os.environ.items() if k not in ("CARDBASE_LANG", "DATABASE_URL")}
    env.update(DATABASE_URL=f"sqlite:///{work / 'cardbase.db'}",
               CARDBASE_DATA_DIR=str(work / "data"),
               PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""))
    res = subprocess.run([sys.executable, str(ROOT / "tests" / "readme_commands.py"),
                          str(ROOT / "README.md"), str(work)], env=env, capture_output=True,
                         text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    runs = [json.loads(line) for line in res.stdout.splitlines() if line.startswith("{")]
    assert len(runs) == len(commands((ROOT / "README.md").read_text(encoding="utf-8")))
    failed = [f"cardbase {' '.join(r['args'])} → {r['exit']}\n{r['output']}{r['error']}"
              for r in runs if r["exit"] != 0]
    assert not failed, "\n\n".join(failed)
    # what the commands wrote, where the README says
    assert (work / "shop" / "np1-shop.pdf").read_bytes().startswith(b"%PDF-")
    assert (work / "np1.pdf").is_file() and (work / "card.png").is_file()
    assert list((work / "tts").glob("*.json"))
    # the copy of data/ was written to (cards edit, then data export), the project's own was not
    exported = tomllib.loads((work / "data" / "editions" / "NP1.toml").read_text(encoding="utf-8"))
    assert next(c for c in exported["cards"] if c["number"] == 12)["value"] == 4
    assert {p: p.read_bytes() for p in before} == before
