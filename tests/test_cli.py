"""The command line against a real database file (DATABASE_URL)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cardbase.cli import app

runner = CliRunner()


def test_init_is_idempotent(cli_env):
    result = runner.invoke(app, ["--lang", "en", "init"])
    assert result.exit_code == 0, result.output
    assert "nothing new" in result.output


def test_search_json_contract(cli_env):
    result = runner.invoke(app, ["cards", "search", "e:OVK", "--json"])
    assert result.exit_code == 0, result.output
    cards = json.loads(result.stdout)
    assert len(cards) == 39
    for key in ("id", "game", "edition", "number", "name", "value", "colour", "rarity", "keywords", "effect_text"):
        assert key in cards[0]
    assert isinstance(cards[0]["keywords"], list)


def test_bad_query_exits_2_with_position(cli_env):
    result = runner.invoke(app, ["cards", "search", "zz:foo"])
    assert result.exit_code == 2
    assert "position" in result.output


def test_export_import_round_trip(cli_env, tmp_path):
    out = tmp_path / "ovk.csv"
    assert runner.invoke(app, ["cards", "export", str(out), "--edition", "OVK"]).exit_code == 0
    result = runner.invoke(app, ["cards", "import", str(out), "--dry-run", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["counts"] == {"new": 0, "updated": 0, "unchanged": 39} and report["dry_run"]


def test_import_problems_exit_nonzero(cli_env, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("edition,number,name\nNOPE,1,x\n", encoding="utf-8")
    result = runner.invoke(app, ["cards", "import", str(bad)])
    assert result.exit_code == 2
    assert "ligne 2, colonne edition" in result.output


def test_edit_and_stale_edit(cli_env):
    ok = runner.invoke(app, ["cards", "edit", "OVK-005", "--version", "1", "--set", "value=6"])
    assert ok.exit_code == 0, ok.output
    stale = runner.invoke(app, ["cards", "edit", "OVK-005", "--version", "1", "--set", "value=7"])
    assert stale.exit_code == 2 and "changed by someone else" in stale.output
    shown = json.loads(runner.invoke(app, ["cards", "show", "OVK-005", "--json"]).stdout)
    assert shown["value"] == 6 and shown["version"] == 2


def test_editions_list(cli_env):
    result = runner.invoke(app, ["editions", "list", "--json"])
    assert result.exit_code == 0
    assert {r["code"] for r in json.loads(result.stdout)} >= {"OVK", "CTT", "OVS", "P15"}
