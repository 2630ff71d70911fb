"""``cardbase games check`` at every player count a rules file allows (``--players N`` for one):
a game that cannot end only at 5 players, an action never legal at 2, a count out of range."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cardbase.cli import app
from tests.test_rulesdata import LOOP

runner = CliRunner()

# two cards passed between two zones; at 5 players the end condition asks for more cards than exist
FIVE = LOOP.replace("players = [2, 2]", "players = [2, 5]\ndefault_players = 2").replace(
    "count('a') > 5", "count('b') >= (5 if players == 5 else 2)")
# « reprendre » can be played only with more than two players
TWO = LOOP.replace("players = [2, 2]", "players = [2, 4]\ndefault_players = 3").replace(
    "count('a') > 5", "count('b') >= 2").replace(
    'move = { from = "b", to = "a" }', 'move = { from = "b", to = "a" }\nwhen = "players > 2"')


def _check(tmp_path, text: str, *args: str, lang: str = "fr"):
    path = tmp_path / "jeu.toml"
    path.write_text(text, encoding="utf-8")
    return runner.invoke(app, ["--lang", lang, "games", "check", str(path), *args])


def test_a_game_that_cannot_end_only_at_five_players_is_caught(tmp_path) -> None:
    res = _check(tmp_path, FIVE, "--games", "8", "--search-deals", "1")
    assert res.exit_code == 2, res.output
    assert "Nombres de joueurs essayés : 2, 3, 4, 5" in res.output
    assert "[5 joueurs] Problème : la partie ne peut pas finir" in res.output
    assert "[2 joueurs] Recherche bornée : la fin « trop » est atteinte" in res.output
    assert "[5 joueurs] 2 parties au hasard : 0 finies" in res.output
    data = json.loads(_check(tmp_path, FIVE, "--games", "8", "--search-deals", "1", "--json").stdout)
    assert data["players"] == [2, 3, 4, 5] and data["tried"]["players"] == [2, 3, 4, 5]
    assert [t["games"] for t in data["tried"]["by_players"]] == [2, 2, 2, 2]
    assert [t["ended"] for t in data["tried"]["by_players"]] == [2, 2, 2, 0]
    assert data["search"]["verdict"] == "cannot_end" and data["search"]["cannot_end_at"] == [5]
    assert [s["verdict"] for s in data["search"]["by_players"]] == ["ending"] * 3 + ["cannot_end"]
    # the default player count alone (what the check tried before) passes
    one = _check(tmp_path, FIVE, "--players", "2", "--games", "4", lang="en")
    assert one.exit_code == 0, one.output
    assert "Player counts tried: 2 (the file allows 2 to 5" in one.output
    assert "4 random games: 4 ended" in one.output and "[2 players]" not in one.output


def test_an_action_never_legal_at_two_players_says_the_count(tmp_path) -> None:
    res = _check(tmp_path, TWO, "--games", "9")
    assert res.exit_code == 0, res.output
    assert "à 2 joueurs, l'action « reprendre » n'a jamais été possible en 3 parties" in res.output
    en = _check(tmp_path, TWO, "--games", "9", lang="en")
    assert "at 2 players, the action “reprendre” was never legal in 3 random games" in en.output
    data = json.loads(_check(tmp_path, TWO, "--games", "9", "--json").stdout)
    assert data["tried"]["never_legal"] == [] and data["tried"]["never_legal_at"] == {"reprendre": [2]}
    # at 3 players alone, no warning
    three = _check(tmp_path, TWO, "--games", "3", "--players", "3")
    assert three.exit_code == 0 and "reprendre" not in three.output


def test_players_out_of_range_is_a_clear_error(tmp_path) -> None:
    res = _check(tmp_path, FIVE, "--players", "6")
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "--players vaut 6 : le fichier permet de 2 à 5 joueurs" in res.output
    res = _check(tmp_path, FIVE, "--players", "0", "--games", "-1", lang="en")
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "--players is 0" in res.output and "--games is -1" in res.output


BRANCHES = LOOP.replace("[end]\n", """[round]
end = [{ if = "count('a') > 0", then = [{ add = "inconnu", value = 1 }], else = [{ shuffle = "nulle_part" }] },
       { each = "player", do = [{ set = "absent", value = 0 }] }]

[end]
""")


def test_a_problem_in_a_branch_names_the_branch(tmp_path) -> None:
    """The key of a problem in a nested operation says which branch: « round.end[1].then[1] », not
    « round.end[1][1] », so that a wrong ``then`` is told from a wrong ``else``."""
    res = _check(tmp_path, BRANCHES)
    assert res.exit_code == 2, res.output
    assert "clé round.end[1].then[1] : Le compteur « inconnu »" in res.output
    assert "clé round.end[1].else[1] : La zone « nulle_part »" in res.output
    assert "clé round.end[2].do[1] : Le compteur « absent »" in res.output
    assert "round.end[1][1]" not in res.output


def test_a_newline_inside_an_inline_table_gets_the_rule_of_toml(tmp_path) -> None:
    """TOML forbids a newline inside « { … } »: the parser's « Invalid initial character for a key
    part » gets a fix saying so; another syntax error keeps the generic fix."""
    broken = LOOP.replace('move = { from = "a", to = "b" }', 'move = { from = "a",\n         to = "b" }')
    res = _check(tmp_path, broken)
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "Invalid initial character for a key part" in res.output
    assert "Une accolade { reste ouverte à la ligne 21 : une table { … } tient sur une seule ligne ; ses listes [ … ] peuvent en couvrir plusieurs" in res.output
    en = _check(tmp_path, broken, lang="en")
    assert "a table { … } fits on one line; its lists [ … ] may span several" in en.output
    # a list inside an inline table may span lines: the file is valid
    assert _check(tmp_path, LOOP.replace("copies = 2 }]", "copies = 2 },\n         ]"), "--games", "0",
                  "--search-states", "0").exit_code == 0
    # a brace in a string does not count: the generic fix alone
    other = _check(tmp_path, LOOP.replace('name = "poser"', 'name = "po{ser"\n= 3'))
    assert "Corrigez la syntaxe" in other.output and "une seule ligne" not in other.output


def test_the_referee_test_of_the_docs_runs() -> None:
    """The example of « Testing your rules file » (docs/rules-language.md) is run as written, so the
    names it documents stay those of the engine."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "rules-language.md").read_text(encoding="utf-8")
    section = doc.split("## Testing your rules file", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    space: dict = {}
    exec(compile(code, "rules-language.md", "exec"), space)
    for players in (2, 5):
        space["test_cueillette_hands_and_ending"](players)
