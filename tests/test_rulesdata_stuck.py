"""Two mistakes a designer makes while writing a rules file (docs/rules-language.md), each met when a
trick-taking game was written from the docs alone: a round where no seat can ever act, and a ruling
whose lists are not lists. Each gets the checker's message, never a Python traceback."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import RulesFileError, parse_rules_text
from cardbase.i18n import use_language

runner = CliRunner()

# no seat can ever play (« jouer » needs more than 5 cards in hand, 3 are dealt), and the round goes
# on until the hands are empty: every turn ends by itself, for ever
STUCK = """[game]
code = "bloque"
players = [2, 4]

[material]
source = "generated"
colours = ["rouge", "noir"]
values = [1, 5]
into = "pioche"

[[zones]]
name = "pioche"
visible = "nobody"

[[zones]]
name = "main"
owner = "player"
ordered = false
visible = "owner"

[[zones]]
name = "defausse"
visible = "everyone"

[setup]
do = [{ shuffle = "pioche" }, { deal = "pioche", to = "main", count = 3 }]

[round]
until = "count_all('main') == 0"

[[actions]]
name = "jouer"
label = { fr = "Jouer", en = "Play" }
when = "count('main') > 5"
move = { from = "main", to = "defausse" }

[end]
check = "turn"

[[end.conditions]]
name = "mains_vides"
game = "count_all('main') == 0"

[end.winner]
by = "count('defausse')"
"""


@pytest.mark.parametrize("players", [2, 4])
def test_a_round_where_no_seat_can_act_reaches_the_safety_net_not_the_recursion_limit(players) -> None:
    game = Game(parse_rules_text(STUCK, "bloque.toml"), (), players)
    s = game.new_state(1)
    assert s.is_terminal() and s.ended_by == "round_limit"  # the safety net, reported as such
    # every seat had its max_rounds turns of the round, each ending by itself
    assert s.turns == players * game.rules.max_rounds
    kinds = [ev[0] for ev in s.events]
    assert kinds.count("no_move") == s.turns and "end" in kinds
    assert "_looping" not in s.__dict__ or s._looping is False  # the loop of turns is over


def test_games_check_says_such_a_game_cannot_end(tmp_path) -> None:
    f = tmp_path / "bloque.toml"
    f.write_text(STUCK, encoding="utf-8")
    res = runner.invoke(app, ["games", "check", str(f), "--games", "3", "--search-states", "200", "--json"])
    assert "Traceback" not in res.output and "RecursionError" not in res.output
    data = json.loads(res.stdout)
    assert data["tried"]["ended"] == 0 and data["tried"]["never_legal"] == ["jouer"]
    for lang, word in (("fr", "filet de sécurité"), ("en", "safety net")):
        text = runner.invoke(app, ["--lang", lang, "games", "check", str(f), "--games", "3",
                                   "--search-states", "200"])
        assert word in text.output and "Traceback" not in text.output, text.output


RULINGS = STUCK.replace("[setup]", """[options]
tours = 2
couper = "libre"

[[rulings]]
code = "B1"
title = { fr = "Tours", en = "Rounds" }
text = { fr = "…", en = "…" }
option = "tours"
bounds = "1..5"
alternatives = 3

[[rulings]]
code = "B2"
title = { fr = "Couper", en = "Trumping" }
text = { fr = "…", en = "…" }
option = "couper"
allowed = "libre"

[setup]""")


def test_a_rulings_lists_that_are_not_lists_are_all_named_at_once_in_both_languages() -> None:
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(RULINGS, "bloque.toml")
    where = {p.where.split("clé ")[-1]: str(p) for p in info.value.problems}
    text = str(info.value)
    assert "rulings[1].alternatives" in text and "rulings[1].bounds" in text and "rulings[2].allowed" in text
    assert "il faut une liste de valeurs" in text and "alternatives = [1, 3]" in text
    assert "allowed = [\"libre\"]" in text
    assert "bounds = [1, 5]" in text and "values" not in text  # the ruling's own key, not [material]'s
    assert len(info.value.problems) >= 3, where
    with use_language("en"), pytest.raises(RulesFileError) as en:
        parse_rules_text(RULINGS, "bloque.toml")
    assert "a list of its option's values is needed" in str(en.value)
    assert len(en.value.problems) == len(info.value.problems)
    fixed = RULINGS.replace('bounds = "1..5"', "bounds = [1, 5]").replace("alternatives = 3", "alternatives = [1, 3]")
    rules = parse_rules_text(fixed.replace('allowed = "libre"', 'allowed = ["libre", "obligatoire"]'), "b.toml")
    assert rules is not None


def test_a_game_whose_rules_file_is_broken_is_named_with_its_problems_not_unknown(monkeypatch, tmp_path) -> None:
    from cardbase.errors import CardbaseError
    from cardbase.games import registry
    from cardbase.games.rulesdata import register

    monkeypatch.setattr(register, "rules_dir", lambda: tmp_path)
    (tmp_path / "bloque.toml").write_text(STUCK.replace('by = "count(\'defausse\')"', 'by = "sum(\'main\') / 10"'),
                                          encoding="utf-8")
    with pytest.raises(CardbaseError) as info:
        registry.get("bloque")
    text = str(info.value)
    assert "ne peut pas être joué" in text and "games check" in text and "Jeu inconnu" not in text
    assert "winner.by" in text and "ligne" in text  # the file's own problem, with its line and key
    with pytest.raises(CardbaseError) as other:  # a code with no file at all is still unknown
        registry.get("nulle-part")
    assert "Jeu inconnu" in str(other.value)


def test_a_problem_inside_an_operation_list_names_its_place_and_games_0_is_said_as_such(tmp_path) -> None:
    bad = STUCK.replace('{ deal = "pioche", to = "main", count = 3 }',
                        '{ deal = "pioche", to = "main", count = 3 }, { set = "x", value = 1 }')
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(bad, "bloque.toml")
    text = str(info.value)
    assert "setup.do[3]" in text and "(2,)" not in text, text
    f = tmp_path / "bloque.toml"
    f.write_text(STUCK, encoding="utf-8")
    res = runner.invoke(app, ["games", "check", str(f), "--games", "0", "--search-states", "200"])
    assert "Pas de partie d'essai (--games 0)." in res.output and "--edition" not in res.output
    assert res.exit_code == 2  # the bounded search still answers: this game cannot end


def test_sim_rulings_on_a_ruling_without_readings_says_so_and_plays_nothing(monkeypatch) -> None:
    import dataclasses

    from cardbase.games import rulings

    real = rulings.contested

    def bare(code, only=None):  # AT6 as a designer first writes it: bounds, no alternatives
        return [dataclasses.replace(r, alternatives=()) if r.code == "AT6" else r for r in real(code, only)]

    monkeypatch.setattr(rulings, "contested", bare)
    res = runner.invoke(app, ["sim", "rulings", "atout", "--only", "AT6", "--games", "10"])
    assert res.exit_code == 2 and "Rien à peser pour AT6" in res.output and "alternatives = [1, 3]" in res.output
    assert "place 1" not in res.output  # no game played
    with use_language("en"):
        res = runner.invoke(app, ["--lang", "en", "sim", "rulings", "atout", "--only", "AT6,AT3", "--games", "10"])
    assert res.exit_code == 2 and "Nothing to weigh for AT6" in res.output


def test_a_misspelt_card_field_is_a_problem_with_the_fields_and_a_guess() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "data" / "rules" / "atout.toml").read_text(encoding="utf-8")
    assert "card.colour == top" in text
    with pytest.raises(RulesFileError) as info:  # « couleur » for « colour »: follow suit would vanish
        parse_rules_text(text.replace("card.colour == top", "card.couleur == top"), "atout.toml")
    problems = [str(p) for p in info.value.problems]
    assert problems and all("« couleur »" in p and "Vouliez-vous dire « colour »" in p for p in problems)
    assert any("actions[2].filter" in p for p in problems)  # the line and key of each use
    assert all("points" in p for p in problems)  # the file's own figure is among the fields named
    # a figure the file's cards do have is read without a word
    assert parse_rules_text(text, "atout.toml").code == "atout"
    bad = STUCK.replace('when = "count(\'main\') > 5"', 'when = "count(\'main\') > 5"\nfilter = "card.valeur > 2"')
    with use_language("en"), pytest.raises(RulesFileError) as en:
        parse_rules_text(bad, "bloque.toml")
    assert "reads “valeur”, which no card of the material has" in str(en.value) and "“value”" in str(en.value)


def test_top_of_a_zone_with_no_order_in_an_expression_is_a_problem_before_any_game() -> None:
    bad = STUCK.replace('when = "count(\'main\') > 5"', 'when = "count(\'main\') > 5 and top(\'main\').value > 2"')
    with pytest.raises(RulesFileError) as info:  # « main » is ordered = false
        parse_rules_text(bad, "bloque.toml")
    text = str(info.value)
    assert "top('main')" in text and "zone sans ordre" in text and "actions[1].when" in text
    assert parse_rules_text(bad.replace("top('main')", "top('defausse')"), "bloque.toml")  # ordered: fine


def test_the_coverage_of_a_game_written_as_data_names_its_actions_by_their_labels() -> None:
    res = runner.invoke(app, ["sim", "game", "atout", "--games", "3", "--bots", "random", "--json"])
    assert res.exit_code == 0, res.output
    cov = json.loads(res.stdout)["coverage"]
    assert cov["couper"]["label"] == "Couper" and cov["defausser"]["label"] == "Se défausser"
    res = runner.invoke(app, ["--lang", "en", "sim", "game", "atout", "--games", "3", "--bots", "random", "--json"])
    assert json.loads(res.stdout)["coverage"]["couper"]["label"] == "Trump"


# a turn of several actions: « jouer » (a card of the hand, the turn goes on) as often as one likes,
# then « finir »; the game ends when every hand is empty
SEVERAL = STUCK.replace("""when = "count('main') > 5"
move = { from = "main", to = "defausse" }

[end]
check = "turn"
""", """when = "count('main') > 0"
move = { from = "main", to = "defausse" }

[[actions]]
name = "finir"
label = { fr = "Finir", en = "Finish" }
ends_turn = true

[end]
check = "action"
""")


def test_check_action_with_a_turn_of_several_actions_ends_mid_turn_and_games_check_says_so(tmp_path) -> None:
    """With ``[end] check = "action"``, the « jouer » that empties the last hand ends the game at
    once, before the turn's « finir » — whole seeded games show it — and ``games check`` advises
    on it with the line and key of ``check``, in French and in English; with ``check = "turn"``,
    or when « jouer » ends the turn, no advice."""
    assert SEVERAL != STUCK
    game = Game(parse_rules_text(SEVERAL, "plusieurs.toml"), (), 2)
    mid_turn = 0
    for seed in range(5):
        s = game.new_state(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[0])  # « jouer » while a card is left, then « finir »
        kinds = [e[0] for e in s.events]
        assert s.ended_by == "mains_vides" and kinds[-1] == "end"
        mid_turn += kinds[-2] == "card"  # the last card laid, and at once the end: no « finir »
    assert mid_turn == 5
    f = tmp_path / "plusieurs.toml"
    f.write_text(SEVERAL, encoding="utf-8")
    line = SEVERAL.splitlines().index('check = "action"') + 1
    res = runner.invoke(app, ["games", "check", str(f), "--games", "2", "--search-states", "0"])
    assert res.exit_code == 0, res.output
    assert f"Conseil (fichier {f}, ligne {line}, clé end.check)" in res.output
    assert "l'action « jouer » ne finit pas le tour" in res.output and "« mains_vides »" in res.output
    assert 'écrivez check = "turn"' in res.output
    res = runner.invoke(app, ["--lang", "en", "games", "check", str(f), "--games", "0", "--search-states", "0"])
    assert f"Advice (file {f}, line {line}, key end.check)" in res.output and "“jouer”" in res.output
    res = runner.invoke(app, ["games", "check", str(f), "--games", "0", "--search-states", "0", "--json"])
    out = json.loads(res.stdout)
    assert "check_action" in out["advice"]
    assert out["mid_turn_endings"] == [{"action": "jouer", "zone": "main", "condition": "mains_vides"}]
    for quiet in (SEVERAL.replace('check = "action"', 'check = "turn"'),
                  SEVERAL.replace('move = { from = "main", to = "defausse" }',
                                  'move = { from = "main", to = "defausse" }\nends_turn = true')):
        f.write_text(quiet, encoding="utf-8")
        res = runner.invoke(app, ["games", "check", str(f), "--games", "0", "--search-states", "0", "--json"])
        assert json.loads(res.stdout)["advice"] == [] and json.loads(res.stdout)["mid_turn_endings"] == []
