"""The game registry on the command line: ``cardbase games list`` and ``cardbase sim game``
(the contract scripts depend on), on the seeded database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.games import registry
from cardbase.playtest.cards import load_edition_defs
from cardbase.playtest.games import simulate

runner = CliRunner()
OVK = load_edition_defs([Path(__file__).resolve().parent.parent / "data" / "editions" / "OVK.toml"])
SQLITE = pytest.mark.sqlite_only("the command-line contract does not depend on the database")


@SQLITE
def test_games_list_json_contract(cli_env) -> None:
    result = runner.invoke(app, ["games", "list", "--json"])
    assert result.exit_code == 0, result.output
    games = {g["code"]: g for g in json.loads(result.stdout)}
    assert set(games) >= {"nespanini", "overkill", "pushluck", "ctterror", "overseers"}
    for g in games.values():
        assert set(g) == {"code", "name", "min_players", "max_players", "engine", "teams", "rules_file",
                          "in_database"}
    assert games["overkill"]["engine"] is True and games["overkill"]["max_players"] == 2
    assert games["ctterror"]["teams"] is True
    # a game written as data is listed even before it is in the database, and said to be so
    assert games["huit"]["engine"] is True and games["huit"]["rules_file"].endswith("huit.toml")
    assert games["overkill"]["rules_file"] is None and games["overkill"]["in_database"] is True
    text = runner.invoke(app, ["games", "list"]).output
    line = next(x for x in text.splitlines() if x.startswith("huit"))
    assert "règles en données" in line and ("pas encore dans la base" in line) != games["huit"]["in_database"]


@SQLITE
def test_sim_game_json_contract(cli_env, tmp_path) -> None:
    records = tmp_path / "games.jsonl"
    result = runner.invoke(app, ["sim", "game", "overkill", "--games", "40", "--seed", "3",
                                 "--bots", "greedy,random", "--records", str(records), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in ("game", "players", "games", "seed", "bots", "seats", "ties", "mean_turns", "cards"):
        assert key in data
    assert data["game"] == "overkill" and data["players"] == 2 and data["games"] == 40
    assert [s["bot"] for s in data["seats"]] == ["greedy", "random"]
    for seat in data["seats"]:
        assert set(seat) >= {"seat", "bot", "team", "wins", "win_rate", "ci95"}
        lo, hi = seat["ci95"]
        assert 0 <= lo <= seat["win_rate"] <= hi <= 1
    assert sum(s["wins"] for s in data["seats"]) + data["ties"] == 40
    assert sum(data["ended_by"].values()) == 40
    assert len(data["cards"]) == 19  # the atouts, dealt at random
    for card in data["cards"]:
        assert set(card) >= {"ref", "name", "games_held", "win_rate_held", "win_rate_not_held", "ci95_held"}
    assert len(records.read_text(encoding="utf-8").splitlines()) == 40


@SQLITE
def test_sim_game_text_is_french_and_english_on_request(cli_env) -> None:
    fr = runner.invoke(app, ["sim", "game", "overkill", "--games", "10"])
    assert fr.exit_code == 0, fr.output
    assert "parties à 2 joueurs" in fr.stdout and "victoires" in fr.stdout
    en = runner.invoke(app, ["--lang", "en", "sim", "game", "overkill", "--games", "10"])
    assert "games with 2 players" in en.stdout and "wins" in en.stdout


@SQLITE
@pytest.mark.parametrize(("args", "expected"), [
    (["sim", "game", "overkill", "--players", "3"], "2"),
    (["sim", "game", "nosuch"], "overkill"),
    (["sim", "game", "overkill", "--bots", "genius"], "greedy"),
    (["sim", "game", "overkill", "--bots", "greedy,greedy,greedy"], "3"),
    (["sim", "game", "nespanini"], "duel"),
    (["sim", "game", "overseers", "--players", "2"], "3"),
    (["sim", "game", "overkill", "--games", "0"], "1"),
])
def test_sim_game_refusals_exit_2_and_say_what_is_allowed(cli_env, args, expected) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert expected in result.output


def test_same_seed_same_figures_whatever_the_workers() -> None:
    one, _ = simulate("overkill", OVK, games=60, seed=9, workers=1)
    two, _ = simulate("overkill", OVK, games=60, seed=9, workers=2)
    assert one.as_dict() == two.as_dict()
    other, _ = simulate("overkill", OVK, games=60, seed=10, workers=1)
    assert other.as_dict() != one.as_dict()


def test_registry_describes_every_game() -> None:
    for code, spec in registry.REGISTRY.items():
        assert spec.code == code and 1 <= spec.min_players <= spec.max_players <= 8
        assert spec.material in ("box", "decks")
    assert registry.get("overkill").engine and not registry.get("overseers").teams


@pytest.mark.parametrize(("game", "players", "bots"), [("ctterror", 4, "mc,greedy,ismcts,greedy"),
                                                       ("overseers", 3, "mc,greedy,ismcts")])
def test_search_bots_play_team_and_many_player_games(game, players, bots) -> None:
    """The generic search bots work over teams (CT vs Terror) and 3 to 6 players (Overseers)."""
    from cardbase.playtest.games import simulate

    root = Path(__file__).resolve().parent.parent / "data" / "editions"
    cards = load_edition_defs([root / {"ctterror": "CTT.toml", "overseers": "OVS.toml"}[game]])
    rep, records = simulate(game, cards, players=players, bots=bots.split(","), games=1, seed=4)
    assert rep.games == 1 and records[0].ended_by
    assert [s["bot"] for s in rep.seats] == bots.split(",")


def test_python_m_cardbase_runs_the_command_line_from_a_checkout() -> None:
    """``python -m cardbase --help`` from the checkout's folder: the CLI's help, exit 0, no install."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root), "CARDBASE_LANG": "en"}
    done = subprocess.run([sys.executable, "-m", "cardbase", "--help"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Usage: cardbase" in done.stdout and "games" in done.stdout
