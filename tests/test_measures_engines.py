"""The measures of a good game for the hand-written engines (cardbase/playtest/measures.py):
a scripted game whose lead changes, comeback and decisiveness are known, a rigged one whose first
player always wins, the real engines in ``sim game``, ``sim duel`` and ``sim measures``."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.games import registry
from cardbase.playtest.measures import measures, play_measured
from cardbase.playtest.cards import load_edition_defs

runner = CliRunner()
EDITIONS = Path(__file__).resolve().parent.parent / "data" / "editions"


class _Scripted:
    """A two-player game with one legal action a turn whose scores follow ``path`` turn after
    turn; the last entry is the final score, the higher wins. ``first``: who plays first."""

    num_players = 2

    def __init__(self, path, *, first=None, teams=None):
        self.path, self.first, self.teams = path, first, teams

    def new_state(self, seed, *, log=True):
        first = self.first(seed) if self.first else 0
        return _ScriptedState(self, first)


class _ScriptedState:
    def __init__(self, game, first):
        self.game, self.player, self.turns, self.history = game, first, 0, []
        self.ended_by = ""
        self.first = first

    def current_player(self):
        return self.player

    def is_terminal(self):
        return self.turns >= len(self.game.path)

    def legal_actions(self):
        return [0]

    def apply_action(self, a):
        self.history.append(a)
        self.turns += 1
        self.player = 1 - self.player
        if self.is_terminal():
            self.ended_by = "script"

    def scores(self):
        a, b = self.game.path[self.turns - 1] if self.turns else (0, 0)
        return [a, b] if self.first == 0 else [b, a]  # the path is written first player first

    def heuristic(self, player):
        return self.scores()[player]

    def returns(self):
        a, b = self.scores()
        return [0.0, 0.0] if a == b else ([1.0, -1.0] if a > b else [-1.0, 1.0])

    def clone(self):
        s = _ScriptedState(self.game, self.first)
        s.player, s.turns, s.history, s.ended_by = self.player, self.turns, self.history[:], self.ended_by
        return s


# the first player leads, then the second, the first again, the second at the end; at mid-game
# (the third of five turns) the eventual winner (the second) is 3 points behind
PATH = [(1, 0), (0, 2), (5, 2), (5, 4), (5, 6), (5, 9)]


def test_lead_changes_comeback_and_decisiveness_of_a_scripted_game() -> None:
    row = play_measured(_Scripted(PATH), 1, ["random", "random"])
    assert row["winner"] == 1 and row["first"] == 0 and row["turns"] == 6
    assert row["lead_changes"] == 3  # leaders after each turn: 0, 1, 0, 0, 1
    assert row["comeback"] is True and row["gap"] == 3.0
    assert row["decided_at"] == 0.8  # the winner leads for good from the fifth of five turns
    m = measures(_Scripted(PATH), games=4, seed=0, bots=["random"], code="script")
    assert m["game"] == "script" and m["lead_changes"]["mean"] == 3.0
    assert m["comebacks"] == {"count": 4, "of": 4, "rate": 1.0, "ci95": m["comebacks"]["ci95"],
                              "mean_gap": 3.0, "gap_ci95": [3.0, 3.0]}
    # the second seat wins every game: its seat advantage, with its interval, beside the fair share
    seats = m["seats"]
    assert seats["fair"] == 0.5 and [s["wins"] for s in seats["seats"]] == [0, 4]
    assert seats["seats"][1]["rate"] == 1.0 and seats["seats"][1]["ci95"][0] > 0.5
    assert m["first_player"]["rate"] == 0.0  # the first player always loses this script
    assert m["length"]["mean"] == 6 and m["length"]["sd"] == 0


def test_a_rigged_game_shows_its_first_player_advantage() -> None:
    # the first player (a seat drawn by the seed) always wins 3 to 0
    rigged = _Scripted([(1, 0), (2, 0), (3, 0)], first=lambda seed: seed % 2)
    m = measures(rigged, games=40, seed=5, bots=["random"], code="rigged")
    fp = m["first_player"]
    assert fp["wins"] == 40 and fp["rate"] == 1.0 and fp["ci95"][0] > 0.9 and fp["fair"] == 0.5
    assert m["lead_changes"]["mean"] == 0 and m["comebacks"]["count"] == 0
    assert m["decisiveness"]["mean"] == 0.0  # led from the first turn on
    # the winner is fixed whatever is played: no decision changes it, a skill gap of nothing
    m = measures(rigged, games=10, seed=5, bots=["random"], skill_games=10, outcome_games=3, code="rigged")
    assert m["outcome"]["decisions"] == 0
    # greedy wins exactly the skill games where its seat (turning: game i, seat i % 2) drew first
    from cardbase.playtest.batch import game_seed

    first_draws = sum(game_seed(6, i) % 2 == i % 2 for i in range(10))
    assert m["skill_gap"]["wins"] == first_draws and m["skill_gap"]["decided"] == 10


def test_the_engines_measures_are_their_own() -> None:
    """CT vs Terror at four seats counts its two teams (fair share 1/2), Overseers three seats."""
    ct = registry.get("ctterror").build(load_edition_defs([EDITIONS / "CTT.toml"]), 4)
    m = measures(ct, games=12, seed=1, code="ctterror")
    assert m["players"] == 4 and m["first_player"]["fair"] == 0.5
    assert m["first_player"]["wins"] <= m["decided"] <= 12
    ov = registry.get("overseers").build(load_edition_defs([EDITIONS / "OVS.toml"]), 3)
    m = measures(ov, games=6, seed=1, code="overseers", skill_games=3)
    assert m["first_player"]["fair"] == 1 / 3 and m["skill_gap"]["fair"] == 1 / 3
    assert m["length"]["min"] > 10 and m == measures(ov, games=6, seed=1, code="overseers", skill_games=3)


def test_sim_game_reports_the_measures_of_a_hand_written_engine(cli_env) -> None:
    res = runner.invoke(app, ["sim", "game", "overkill", "--games", "12", "--measures-games", "8",
                              "--skill-games", "4", "--outcome-games", "1", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["measures"]["games"] == 8 and data["measures"]["skill_gap"]["games"] == 4
    assert data["measures"]["outcome"]["games"] == 1 and data["measures"]["game"] == "overkill"
    text = runner.invoke(app, ["sim", "game", "overkill", "--games", "6", "--measures-games", "6"])
    assert text.exit_code == 0, text.output
    assert "Mesures d'un bon jeu :" in text.stdout and "changements de meneur" in text.stdout
    assert "décision : le vainqueur mène" in text.stdout
    bad = runner.invoke(app, ["--lang", "en", "sim", "game", "overkill", "--games", "6",
                              "--skill-games", "-1", "--outcome-games", "201"])
    assert bad.exit_code == 2
    assert "--skill-games is -1" in bad.output and "--outcome-games is 201: 0 to 200" in bad.output


def test_sim_duel_reports_the_measures_of_nespanini() -> None:
    from cardbase.cli.sim import _deck
    from cardbase.games.nespanini.state import Game

    edition = [EDITIONS / "NP1.toml"]
    args = ["sim", "duel", "bosquet-en-fete", "braises-ardentes", "--games", "10", "--seed", "3",
            "--edition", str(edition[0]), "--measures-games", "6", "--skill-games", "4"]
    res = runner.invoke(app, [*args, "--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)["measures"]
    a, b = _deck("bosquet-en-fete", edition)[1], _deck("braises-ardentes", edition)[1]
    want = measures(Game([list(a), list(b)]), games=6, seed=3, bots=["greedy", "greedy"], skill_games=4,
                    code="nespanini")
    assert got == json.loads(json.dumps({**want, "decks": ["bosquet-en-fete", "braises-ardentes"]}))
    assert got["lead_changes"]["mean"] > 0 and got["skill_gap"]["games"] == 4
    text = runner.invoke(app, args)
    assert text.exit_code == 0 and "Mesures d'un bon jeu :" in text.stdout
    assert "nespanini : 6 parties à 2 joueurs (greedy, greedy), graine 3" in text.stdout
    off = runner.invoke(app, [*args[:-4], "--measures-games", "0", "--json"])
    assert "measures" not in json.loads(off.stdout)
    bad = runner.invoke(app, [*args[:-4], "--measures-games", "20001"])
    assert bad.exit_code == 2 and "--measures-games vaut 20001 : il faut de 0 à 20 000 parties" in bad.output
