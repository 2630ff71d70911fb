"""The command line against a real database file (DATABASE_URL)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cardbase import i18n
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
    assert stale.exit_code == 2 and "modifiée par quelqu'un d'autre" in stale.output
    stale = _english(["cards", "edit", "OVK-005", "--version", "1", "--set", "value=7"])
    assert stale.exit_code == 2 and "changed by someone else" in stale.output
    shown = json.loads(runner.invoke(app, ["cards", "show", "OVK-005", "--json"]).stdout)
    assert shown["value"] == 6 and shown["version"] == 2


def test_editions_list(cli_env):
    result = runner.invoke(app, ["editions", "list", "--json"])
    assert result.exit_code == 0
    assert {r["code"] for r in json.loads(result.stdout)} >= {"OVK", "CTT", "OVS", "P15"}


def _english(args: list[str]):
    """Run the CLI with --lang en, leaving the tests' language French afterwards."""
    with i18n.use_language("fr"):
        return runner.invoke(app, ["--lang", "en", *args])


def test_search_output_french_by_default_english_on_request(cli_env):
    result = runner.invoke(app, ["cards", "search", "e:OVK"])
    assert result.exit_code == 0 and "39 cartes" in result.stderr
    result = _english(["cards", "search", "e:OVK"])
    assert result.exit_code == 0 and "39 cards" in result.stderr


def test_unknown_colour_is_an_error_with_the_nearest_value(cli_env):
    result = runner.invoke(app, ["cards", "search", "c:rouj"])
    assert result.exit_code == 2
    assert "« rouj » n'est pas une couleur connue — vouliez-vous dire c:rouge ?" in result.stderr
    result = _english(["cards", "search", "c:rouj"])
    assert result.exit_code == 2
    assert "“rouj” is no known colour — did you mean c:rouge?" in result.stderr
    result = runner.invoke(app, ["cards", "search", "e:np2"])
    assert result.exit_code == 2 and "e:NP1" in result.stderr


@pytest.mark.parametrize("query", ["(" * 400 + "a" + ")" * 400, " ".join(["loup"] * 1000),
                                   " or ".join(["a"] * 1000), "-" * 400 + "a"])
def test_huge_queries_are_clear_errors(cli_env, query):
    result = runner.invoke(app, ["cards", "search", "--", query])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "au plus" in result.stderr and len(result.stderr) < 1000


@pytest.mark.parametrize("limit", ["99999999999999999999", "0", "-1", "abc", "²", "1000001"])
def test_bad_limits_are_clear_errors(cli_env, limit):
    result = runner.invoke(app, ["cards", "search", "--limit", limit, "e:OVK"])
    assert result.exit_code == 2, result.output
    assert "--limit" in result.stderr and "de 1 à 1000000" in result.stderr


def test_limit_and_a_query_starting_with_a_dash(cli_env):
    result = runner.invoke(app, ["cards", "search", "--limit", "3", "--json", "--", "-k:foule"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)) == 3
    assert "'--'" in runner.invoke(app, ["cards", "search", "--help"]).stdout
    result = runner.invoke(app, ["cards", "search", "-k:foule"])
    assert result.exit_code == 2
    assert "cardbase cards search -- '-k:foule'" in result.output
    result = _english(["cards", "search", "--limit", "2", "-(c:rouge or c:bleu)"])
    assert result.exit_code == 2 and "goes after '--'" in result.output


def test_show_names_fields_in_the_language(cli_env):
    french = runner.invoke(app, ["cards", "show", "NP1-001"]).stdout
    assert "référence : NP1-001" in french and "exemplaires : " in french
    english = _english(["cards", "show", "NP1-001"]).stdout
    assert "ref: NP1-001" in english and "copies: " in english
    for ref in ("99999999999999999999", "NP1-99999999999999999999", "²"):
        result = runner.invoke(app, ["cards", "show", ref])
        assert result.exit_code == 2 and "aucune carte" in result.stderr, ref


@pytest.mark.parametrize("art", ["/etc/passwd", "../../x", "C:\\x.png", "a\\b.png"])
def test_edit_refuses_art_outside_the_art_folder(cli_env, art):
    result = runner.invoke(app, ["cards", "edit", "OVK-005", "--version", "1", "--set", f"art={art}"])
    assert result.exit_code == 2
    assert "colonne art" in result.stderr
    shown = json.loads(runner.invoke(app, ["cards", "show", "OVK-005", "--json"]).stdout)
    assert shown["art"] is None and shown["version"] == 1


@pytest.mark.parametrize("setting", ["value=99999999999999999999999", "value=1e400", "value=³",
                                     "stats=" + "[" * 5000 + "]" * 5000, "name=\udcff", "x", "=3"])
def test_edit_with_odd_values_is_a_clear_error(cli_env, setting):
    result = runner.invoke(app, ["cards", "edit", "OVK-005", "--version", "1", "--set", setting])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stderr.startswith("erreur : ")


def test_editions_list_in_both_languages(cli_env):
    assert "[numérotation correcte]" in runner.invoke(app, ["editions", "list"]).stdout
    assert "[ok]" in _english(["editions", "list"]).stdout
