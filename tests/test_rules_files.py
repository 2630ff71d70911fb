"""A game's rules file saved by ``cardbase games rules`` and the Jeux page (catalog/rules_files.py):
checked first, written whole, and refused — nothing written — when someone saved the file since
the version the change started from."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.catalog import rules_files
from cardbase.cli import app
from cardbase.errors import CardbaseError, StaleEditError
from cardbase.games.rulesdata import register

ROOT = Path(__file__).resolve().parent.parent
HUIT = (ROOT / "data" / "rules" / "huit.toml").read_text(encoding="utf-8")
runner = CliRunner()


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    rules = tmp_path / "rules"
    rules.mkdir()
    monkeypatch.setattr(register, "rules_dir", lambda: rules)
    return rules


def test_a_stale_save_is_refused_and_the_other_persons_file_kept(folder: Path) -> None:
    assert rules_files.read_rules("huit") == ("", rules_files.NO_FILE)
    first = rules_files.save_rules("huit", HUIT, rules_files.NO_FILE)
    assert rules_files.read_rules("huit") == (HUIT, first)
    # two people start from ``first``; the one who saves second is refused, not overwriting
    mine = HUIT.replace("hand = 7 ", "hand = 6 ")
    theirs = HUIT.replace("hand = 7 ", "hand = 5 ")
    second = rules_files.save_rules("huit", theirs, first)
    with pytest.raises(StaleEditError) as err:
        rules_files.save_rules("huit", mine, first)
    assert second in str(err.value) and first in str(err.value)
    assert (folder / "huit.toml").read_text(encoding="utf-8") == theirs
    # a new file cannot be created over one someone created in between
    with pytest.raises(StaleEditError):
        rules_files.save_rules("huit", mine, rules_files.NO_FILE)
    # once started from the current version, the save goes through
    rules_files.save_rules("huit", mine, second)
    assert (folder / "huit.toml").read_text(encoding="utf-8") == mine
    assert sorted(p.name for p in folder.iterdir()) == ["huit.toml"]  # no temporary left


def test_a_file_with_problems_is_not_written_and_every_problem_is_named(folder: Path) -> None:
    broken = HUIT.replace('into = "pioche"', 'into = "pile"').replace("done('piocher')", "done('voler')")
    with pytest.raises(CardbaseError) as err:
        rules_files.save_rules("huit", broken, rules_files.NO_FILE)
    assert "pile" in str(err.value) and "voler" in str(err.value)
    with pytest.raises(CardbaseError, match="autre"):
        rules_files.save_rules("huit", HUIT.replace('code = "huit"', 'code = "autre"'), rules_files.NO_FILE)
    assert not list(folder.iterdir())


def test_two_saves_from_the_same_version_at_once_one_wins_the_other_is_refused(folder: Path) -> None:
    start = rules_files.save_rules("huit", HUIT, rules_files.NO_FILE)
    texts = [HUIT.replace("hand = 7 ", f"hand = {n} ") for n in (4, 5, 6, 8, 9, 10)]
    outcomes: list[str] = []
    gate = threading.Barrier(len(texts))

    def save(text: str) -> None:
        gate.wait()
        try:
            rules_files.save_rules("huit", text, start)
            outcomes.append("saved")
        except StaleEditError:
            outcomes.append("stale")

    threads = [threading.Thread(target=save, args=(t,)) for t in texts]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(outcomes) == ["saved"] + ["stale"] * (len(texts) - 1)
    assert (folder / "huit.toml").read_text(encoding="utf-8") in texts


def test_the_command_shows_the_version_and_replaces_only_from_it(folder: Path, tmp_path: Path) -> None:
    none = runner.invoke(app, ["--lang", "en", "games", "rules", "huit"])
    assert none.exit_code == 0 and "has no rules file yet" in none.output
    mine = tmp_path / "mine.toml"
    mine.write_text(HUIT, encoding="utf-8")
    saved = runner.invoke(app, ["games", "rules", "huit", "--set", str(mine), "--json"])
    assert saved.exit_code == 0, saved.output
    version = json.loads(saved.output)["version"]
    shown = runner.invoke(app, ["games", "rules", "huit", "--json"])
    assert json.loads(shown.output) == {"code": "huit", "path": str(folder / "huit.toml"),
                                        "version": version, "text": HUIT}
    mine.write_text(HUIT.replace("hand = 7 ", "hand = 6 "), encoding="utf-8")
    again = runner.invoke(app, ["games", "rules", "huit", "--set", str(mine)])
    assert again.exit_code == 2 and f"--version {version}" in again.output  # no silent overwrite
    wrong = runner.invoke(app, ["games", "rules", "huit", "--set", str(mine), "--version", "0123456789ab"])
    assert wrong.exit_code == 2 and "a changé depuis" in wrong.output
    assert (folder / "huit.toml").read_text(encoding="utf-8") == HUIT
    ok = runner.invoke(app, ["games", "rules", "huit", "--set", str(mine), "--version", version])
    assert ok.exit_code == 0 and "hand = 6 " in (folder / "huit.toml").read_text(encoding="utf-8")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_the_command_refuses_a_pipe_and_a_bad_file_without_a_traceback(folder: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    res = runner.invoke(app, ["games", "rules", "huit", "--set", str(fifo)])
    assert res.exit_code == 2 and "Traceback" not in res.output
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe[game]")
    res = runner.invoke(app, ["games", "rules", "huit", "--set", str(bad)])
    assert res.exit_code == 2 and "UTF-8" in res.output.upper() and not list(folder.iterdir())
    res = runner.invoke(app, ["games", "rules", "huit", "--set", str(tmp_path / "absent.toml")])
    assert res.exit_code == 2 and "absent.toml" in res.output
