"""``cardbase sim game GAME --log N [--seat S]``: the whole log of a batch's first games, each the
very game the batch played (its seed, its bots, its result), as the referee or one seat knows it;
its bounds checked before any game is played; the hand-written engines' own logs, or a clear word
when an engine keeps none."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.playtest.cluster import game_seed

runner = CliRunner()
SQLITE = pytest.mark.sqlite_only("the command-line contract does not depend on the database")
ATOUT = ["sim", "game", "atout", "--players", "4", "--games", "3", "--workers", "1", "--measures-games", "0"]


def _json(args: list[str]) -> dict:
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _refused(args: list[str], *parts: str) -> str:
    r = runner.invoke(app, args)
    assert r.exit_code != 0, r.output
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit)
    for part in parts:
        assert part in r.output, r.output
    return r.output


@SQLITE
def test_the_logs_are_the_batchs_own_games_with_their_operations_and_result(cli_env, tmp_path) -> None:
    records = tmp_path / "games.jsonl"
    data = _json([*ATOUT, "--log", "2", "--json", "--records", str(records)])
    played = [json.loads(line) for line in records.read_text(encoding="utf-8").splitlines()]
    assert [g["game"] for g in data["logs"]] == [0, 1]
    for one, rec in zip(data["logs"], played):
        assert one["seed"] == game_seed(0, one["game"])
        assert one["seats"] == [{"seat": p, "bot": "greedy"} for p in (1, 2, 3, 4)] and one["seat"] is None
        assert one["returns"] == rec["returns"] and one["ended_by"] == rec["ended_by"] == "donnes_jouees"
        assert one["winners"] == [p + 1 for p, x in enumerate(rec["returns"]) if x > 0]
        assert one["ending"] == "Toutes les donnes jouées" and one["safety_net"] is False
        lines = one["lines"]
        assert "Mélange : paquet" in lines and any(x.endswith("paquet → atout") for x in lines)
        assert any(x.endswith("tapis → levees") for x in lines)
        assert lines[-1].startswith("Fin de la partie (Toutes les donnes jouées)")
        best = max(one["scores"])
        assert [p + 1 for p, x in enumerate(one["scores"]) if x == best] == one["winners"]
    assert data["coverage"]["ending:donnes_jouees"]["label"] == "Toutes les donnes jouées"
    without = _json([*ATOUT, "--json"])
    assert "logs" not in without and without["seats"] == data["seats"]


@SQLITE
def test_the_text_report_prints_each_game_then_the_summary(cli_env) -> None:
    r = runner.invoke(app, [*ATOUT, "--log", "1"])
    assert r.exit_code == 0, r.output
    out = r.stdout
    head = out.index(f"Partie 1 (graine {game_seed(0, 0)}) : siège 1 greedy, siège 2 greedy")
    assert "journal de l'arbitre" in out
    result = out.index("Résultat — siège 1 : ")
    assert head < result < out.index("atout : 3 parties à 4 joueurs")
    assert "Partie 2 (" not in out
    assert "fin des parties : Toutes les donnes jouées : 3" in out
    en = runner.invoke(app, ["--lang", "en", *ATOUT, "--log", "1"])
    assert en.exit_code == 0, en.output
    assert "Game 1 (seed" in en.stdout and "referee's log" in en.stdout
    assert "Deal: 7 cards per player, paquet → main" in en.stdout and "Result — seat 1: " in en.stdout


@SQLITE
def test_a_seats_log_hides_the_other_hands(cli_env) -> None:
    base = ["sim", "game", "huit", "--players", "2", "--games", "2", "--workers", "1", "--measures-games", "0",
            "--bots", "random", "--log", "2", "--json"]
    referee = _json(base)["logs"]
    second = _json([*base, "--seat", "2"])["logs"]
    hidden = 0
    for whole, mine in zip(referee, second):
        assert mine["seat"] == 2 and mine["returns"] == whole["returns"]
        assert len(mine["lines"]) == len(whole["lines"])
        for a, b in zip(whole["lines"], mine["lines"]):
            if a != b:  # only seat 1's hidden cards differ, told hidden to seat 2
                assert b.startswith("Joueur 1") and "cachée" in b, (a, b)
                hidden += 1
    assert hidden > 0
    # the set-up's deal gives counts, never the cards
    assert "Donne : 7 cartes par joueur, pioche → main" in second[0]["lines"]


@SQLITE
def test_the_bounds_are_checked_before_any_game_is_played(cli_env, monkeypatch) -> None:
    import cardbase.playtest.games as games

    def no_work(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(games, "simulate", no_work)
    _refused([*ATOUT, "--log", "21"], "--log 21", "20")
    _refused([*ATOUT, "--log", "4"], "--log 4", "3")
    _refused([*ATOUT, "--log", "-1"], "--log -1")
    _refused([*ATOUT, "--seat", "2"], "--seat 2 sans --log")
    _refused([*ATOUT, "--log", "1", "--seat", "5"], "--seat 5", "1 à 4")
    _refused([*ATOUT, "--log", "1", "--seat", "0"], "--seat 0")
    out = _refused(["--lang", "en", *ATOUT, "--log", "30"], "--log 30")
    assert "between 1 and 3" in out


@SQLITE
def test_a_hand_written_engine_prints_its_own_log_or_says_it_has_none(cli_env) -> None:
    data = _json(["sim", "game", "pushluck", "--games", "2", "--workers", "1", "--measures-games", "0",
                  "--log", "1", "--json"])
    (one,) = data["logs"]
    assert one["lines"] and one["winners"] and one["ending"]
    text = runner.invoke(app, ["sim", "game", "pushluck", "--games", "2", "--measures-games", "0", "--log", "1"])
    assert text.exit_code == 0 and "Résultat — siège 1 : " in text.stdout
    _refused(["sim", "game", "pushluck", "--games", "2", "--log", "1", "--seat", "1"], "pas de vue par siège")
    _refused(["sim", "game", "overkill", "--games", "2", "--log", "1"], "ne tient pas de journal")


@SQLITE
def test_the_report_names_the_endings_and_the_rounds_of_a_rules_file_without_a_log(cli_env) -> None:
    """Without --log no game is built for the report: the endings are still the rules file's
    labels (in the summary and in the measures), and a round that is one turn of each seat is a
    « tour de table », Atout's round that goes on until the hands are empty a « manche »."""
    r = runner.invoke(app, ["sim", "game", "huit", "--games", "20", "--workers", "1", "--bots", "random",
                            "--measures-games", "20"])
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "main_vide" not in out and "pioche_vide" not in out
    assert out.count("Un joueur s'est défait de toutes ses cartes : ") == 2, out
    assert "tours de table par partie : " in out and "manches par partie" not in out
    r = runner.invoke(app, ATOUT)
    assert r.exit_code == 0, r.output
    assert "manches par partie : " in r.stdout and "tours de table" not in r.stdout
    assert "fin des parties : Toutes les donnes jouées : 3" in r.stdout and "donnes_jouees" not in r.stdout
