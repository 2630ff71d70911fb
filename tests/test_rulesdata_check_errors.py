"""``cardbase games check``'s errors a designer can fix (docs/rules-language.md, « Problems a
designer can fix », « Testing your rules file »): every problem's key is the full dotted path of
the file with its line, whatever section it is in; an expression that fails in play is located
like a problem found by reading the file (games check, sim game, the Jeux page); ``--rule``
tries the games under another reading of an option, and a condition no trial game met that reads
an option names the ``--rule`` that would exercise it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.games.rulesdata import register
from cardbase.games.rulesdata.engine import Game, RulesRuntimeError
from cardbase.games.rulesdata.language import RulesFileError, parse_rules_text
from tests.rulesdata_helpers import random_games

ROOT = Path(__file__).resolve().parent.parent
# Marché as first written, its sets laid one card at a time (tests/data): more constructs for the
# errors to be found in (a turn limit, a counter reset each turn, a zone of the set being laid)
MARCHE = (ROOT / "tests" / "data" / "marche_card_by_card.toml").read_text(encoding="utf-8")
runner = CliRunner()


def _line(text: str, fragment: str) -> int:
    """The line (from 1) of the only line of ``text`` holding ``fragment``."""
    hits = [k for k, line in enumerate(text.splitlines(), 1) if fragment in line]
    assert len(hits) == 1, (fragment, hits)
    return hits[0]


def _check(tmp_path: Path, text: str, *args: str, name: str = "p.toml", lang: str = "fr"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return runner.invoke(app, ["--lang", lang, "games", "check", str(path), *args])


def _swap(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


# ------------------------------------------------------------------ key paths


def test_every_problem_names_the_full_dotted_key_with_its_line(tmp_path: Path) -> None:
    """One misspelt or wrong key in each kind of section — [end.winner], [[end.conditions]], a
    [counters] table, [[zones]], [[actions]], [scoring], [setup] — each reported with the key as
    the file writes it and the line it is on (« clé winner.then_by » lacked its section)."""
    text = MARCHE
    for old, new in (('then_by = "count', 'then_byy = "count'),
                     ('game = "fin ==', 'gamee = "fin =='),
                     ('dernier = { reset = "turn" }', 'dernier = { reset = "tour" }'),
                     ('ordered = false\nvisible = "everyone"\n\n[counters]', 'ordered = false\nvisible = "all"\n\n[counters]'),
                     ('limit = 1\n', 'limit = 0\n'),
                     ('horizon = ', 'horizn = '),
                     ('first_player = "seat1"', 'first_player = "seat9"')):
        text = _swap(text, old, new)
    res = _check(tmp_path, text)
    assert res.exit_code == 2 and "Traceback" not in res.output
    expected = {
        "end.winner.then_byy": "then_byy =",
        "end.conditions[2].gamee": "gamee =",
        "counters.dernier.reset": 'dernier = { reset = "tour" }',
        "zones[6].visible": 'visible = "all"',
        "actions[6].limit": "limit = 0",
        "scoring.horizn": "horizn =",
        "setup.first_player": 'first_player = "seat9"',
    }
    for key, fragment in expected.items():
        assert f"fichier p.toml, ligne {_line(text, fragment)}, clé {key} :" in res.output, key
    assert "clé winner." not in res.output and "clé conditions[" not in res.output


@pytest.mark.parametrize("layout", ["no_end_header", "inline_winner", "dotted_key"])
def test_a_key_of_end_is_found_however_the_table_is_written(layout: str) -> None:
    """``[end]`` left out (only ``[end.winner]`` written), ``winner = { … }`` inline in ``[end]``,
    or a dotted key ``winner.then_by = …``: the problem is still on the line of the key."""
    head = MARCHE[:MARCHE.index("[end]\n")]
    tail = MARCHE[MARCHE.index("[scoring]"):]
    conditions = MARCHE[MARCHE.index("[[end.conditions]]"):MARCHE.index("[end.winner]")]
    if layout == "no_end_header":
        text = head + conditions + '[end.winner]\nby = "points"\nthen_byy = "1"\n\n' + tail
        fragment = "then_byy"
    elif layout == "inline_winner":
        text = head + '[end]\nwinner = { by = "points", then_byy = "1" }\n\n' + conditions + tail
        fragment = "winner = {"
    else:
        text = head + '[end]\nwinner.by = "points"\nwinner.then_byy = "1"\n\n' + conditions + tail
        fragment = "winner.then_byy"
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(text, "p.toml")
    wheres = [p.where for p in info.value.problems]
    assert wheres == [f"fichier p.toml, ligne {_line(text, fragment)}, clé end.winner.then_byy"]


def test_a_key_of_a_table_left_out_is_not_taken_for_a_key_of_the_same_name() -> None:
    """15 en un tour without its ``[end]`` header: ``[turn]`` has a key ``end = [...]``, which is
    not the table ``end``; the misspelt ``[end.winner]`` key is found on its own line."""
    text = (ROOT / "data" / "rules" / "pushluck.toml").read_text(encoding="utf-8")
    text = _swap(text, '[end]\ncheck = "round"      # PL6: the round is finished\nmax_rounds = 1000    # PL10\n', "")
    text = _swap(text, 'ties = "first"', 'tiess = "first"')
    assert "\nend = [" in text
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(text, "p.toml")
    assert [p.where for p in info.value.problems] == [
        f"fichier p.toml, ligne {_line(text, 'tiess')}, clé end.winner.tiess"]


def test_an_expression_in_an_operation_list_is_located_on_its_own_line() -> None:
    """An operation inside a list of several lines: the problem names the operation and its key
    (``actions[4].then[3].value``) and the line the expression is written on, not the list's."""
    text = _swap(MARCHE, 'value = "card.value" }', 'value = "card.valeur" }')
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(text, "p.toml")
    where = info.value.problems[0].where
    assert where == f"fichier p.toml, ligne {_line(text, 'card.valeur')}, clé actions[4].then[3].value"


# ------------------------------------------------------------------ errors in play

COLOUR = _swap(MARCHE, '{ set = "dernier", value = "card.value" }', '{ set = "dernier", value = "card.colour" }')


def test_a_type_error_in_play_gives_the_line_and_key_of_the_expression(tmp_path: Path) -> None:
    """``{ set = "dernier", value = "card.colour" }`` reads well but gives a text where a number is
    needed: the trial games stop on it, and the error says the line, the key, what and the fix."""
    line = _line(COLOUR, 'value = "card.colour"')
    res = _check(tmp_path, COLOUR, "-p", "2", "-n", "4", "--search-states", "0", name="p1.toml")
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "Règles p1.toml : une expression échoue en cours de partie." in res.output
    assert (f"fichier p1.toml, ligne {line}, clé actions[4].then[3].value : l'expression « card.colour » "
            "donne '") in res.output
    assert "là où il faut un nombre entier. — Corrigez-la pour qu'elle donne un entier" in res.output
    en = _check(tmp_path, COLOUR, "-p", "2", "-n", "4", "--search-states", "0", name="p1.toml", lang="en")
    assert en.exit_code == 2
    assert f"file p1.toml, line {line}, key actions[4].then[3].value: the expression “card.colour” gives '" in en.output
    assert "where a whole number is needed. — Fix it to give a whole number" in en.output


def test_a_failing_formula_of_a_table_is_located_on_its_key(tmp_path: Path) -> None:
    """A number added to a text option in ``[end.winner] by``: the error names ``end.winner.by``."""
    text = _swap(MARCHE, 'by = "points"', 'by = "points + suite"')
    with pytest.raises(RulesRuntimeError) as info:
        list(random_games(Game(parse_rules_text(text, "p.toml"), [], 2), range(1)))
    problem = info.value.problem
    assert problem is not None and problem.code == "rules-runtime"
    assert problem.where == f"fichier p.toml, ligne {_line(text, 'points + suite')}, clé end.winner.by"
    assert "« points + suite » échoue en cours de partie" in problem.message and problem.fix
    # in the reader's words, not the interpreter's (« unsupported operand type(s) … »)
    assert "mêle des valeurs qui ne vont pas ensemble (un nombre et un texte" in problem.message
    assert "operand" not in problem.message and "se compare avec ==" in problem.fix


def test_sim_game_says_where_the_expression_that_failed_is(tmp_path: Path, monkeypatch) -> None:
    """The same located error when ``sim game`` plays the game (the error, not a traceback)."""
    from cardbase.games import registry

    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "couleur.toml").write_text(_swap(COLOUR, 'code = "marche"', 'code = "couleur"'), encoding="utf-8")
    monkeypatch.setattr(register, "rules_dir", lambda: folder)
    for spec in register.rules_specs(set(registry.REGISTRY), registry.GameSpec, registry.check_box):
        monkeypatch.setitem(registry.REGISTRY, spec.code, spec)
    res = runner.invoke(app, ["sim", "game", "couleur", "-n", "2", "-p", "2", "--bots", "random",
                              "--measures-games", "0"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    line = _line(COLOUR, 'value = "card.colour"')
    assert f"ligne {line}, clé actions[4].then[3].value" in res.output


# ------------------------------------------------------------------ --rule


def _json(res) -> dict:
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_rule_exercises_an_end_condition_that_reads_an_option(tmp_path: Path) -> None:
    """Marché's « pioche_vide » holds only under the contested reading fin = "pioche" (MA7): the
    trial games never meet it by default, and the check names the --rule that would; under
    ``--rule MA7=pioche`` (the ruling's code, or the option's name) the games end by it."""
    args = ("-p", "2", "-n", "8", "--search-states", "0")
    plain = _check(tmp_path, MARCHE, *args)
    assert plain.exit_code == 0
    assert "la condition « pioche_vide »" in plain.output
    assert ("La condition « pioche_vide » lit l'option « fin » (ici marche) : essayez-la sous une autre "
            f"lecture, cardbase games check {tmp_path / 'p.toml'} --rule fin=pioche.") in plain.output
    data = _json(_check(tmp_path, MARCHE, *args, "--json"))
    assert data["rules"] == {} and "pioche_vide" in data["tried"]["never_ended_by"]
    hint = data["endings_options"]["pioche_vide"]
    assert [{k: v for k, v in h.items() if k != "tried"} for h in hint] == [
        {"option": "fin", "value": "marche", "code": "MA7", "rules": ["fin=pioche"]}]
    assert 0 < hint[0]["tried"] <= 8  # the same trial played again under fin = "pioche"
    assert (f"Essayé : avec --rule fin=pioche, {hint[0]['tried']} des 8 parties au hasard se sont finies "
            "par « pioche_vide ».") in plain.output
    for rule in ("MA7=pioche", "fin=pioche"):
        tried = _json(_check(tmp_path, MARCHE, *args, "--json", "--rule", rule))
        assert tried["rules"] == {"fin": "pioche"}
        assert tried["tried"]["never_ended_by"] == ["marche_incomplet"] or not tried["tried"]["never_ended_by"]
        assert "pioche_vide" not in tried["tried"]["never_ended_by"]
    said = _check(tmp_path, MARCHE, *args, "--rule", "fin=pioche")
    assert "Essayé avec les options : fin = pioche." in said.output
    assert "pioche_vide" not in said.output


def test_a_condition_met_under_no_reading_is_said_to_be_checked(tmp_path: Path) -> None:
    """A condition that reads an option but cannot hold under any reading: the check tries the
    other reading too and says that no game ended by it there either."""
    text = _swap(MARCHE, "fin == 'pioche' and count('pioche') == 0", "fin == 'pioche' and count('pioche') < 0")
    res = _check(tmp_path, text, "-p", "2", "-n", "6", "--search-states", "0")
    assert res.exit_code == 0
    assert ("Essayé : avec --rule fin=pioche non plus, aucune des 6 parties au hasard ne s'est finie par "
            "« pioche_vide » ; vérifiez la condition.") in res.output


def test_a_bad_rule_is_refused_with_the_allowed_names_and_values(tmp_path: Path) -> None:
    """Every bad ``--rule`` at once, before any game: an unknown option (the file's options
    listed), a value not allowed (the allowed ones), out of a ruling's bounds, no « = »."""
    res = _check(tmp_path, MARCHE, "--rule", "fin=nope", "--rule", "bogus=1", "--rule", "depart=9",
                 "--rule", "x")
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "Options refusées (4 problème(s)) ; rien n'a été joué." in res.output
    assert "fin = « nope » n'est pas permis ; valeurs possibles : marche, pioche." in res.output
    assert "« bogus » n'est pas une option de marche ; options : depart, etal, fin, limite, suite." in res.output
    assert "depart = « 9 » n'est pas permis ; valeurs possibles : 3..7." in res.output
    assert "« x » : écrivez --rule NOM=VALEUR." in res.output
    en = _check(tmp_path, MARCHE, "--rule", "fin=nope", lang="en")
    assert en.exit_code == 2 and "fin = 'nope' is not allowed; allowed values: marche, pioche." in en.output


def test_rule_sets_an_option_that_has_no_ruling(tmp_path: Path) -> None:
    """An option of ``[options]`` without a ruling takes any value of its type: 15 en un tour's
    ``target`` (a number); a text is refused with the bounds."""
    text = (ROOT / "data" / "rules" / "pushluck.toml").read_text(encoding="utf-8")
    edition = ROOT / "data" / "editions" / "P15.toml"
    ok = _check(tmp_path, text, "-e", str(edition), "-n", "2", "-p", "2", "--search-states", "0",
                "--rule", "target=3", "--json")
    assert _json(ok)["rules"] == {"target": 3}
    bad = _check(tmp_path, text, "--rule", "target=beaucoup")
    assert bad.exit_code == 2 and "target = « beaucoup » n'est pas permis" in bad.output


def test_a_seat_out_of_range_in_play_is_located_with_its_fix() -> None:
    """An answer window's ``seat = "cible + 7"`` names no seat at three players: the error says
    the line and key of that expression and how to name a seat."""
    from tests.test_rulesdata_structures import VOTE

    text = _swap(VOTE, 'by = "seat", seat = "cible"', 'by = "seat", seat = "cible + 7"')
    game = Game(parse_rules_text(text, "v.toml"), (), 3)
    with pytest.raises(RulesRuntimeError) as info:
        s = game.new_state(0)
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[0])
    problem = info.value.problem
    assert problem is not None and "« cible + 7 » vaut" in problem.message and "de 1 à 3" in problem.message
    assert problem.where.startswith(f"fichier v.toml, ligne {_line(text, 'cible + 7')}, clé actions[")
    assert problem.where.endswith(".answers")
    assert "numéro de joueur de 1 à 3" in problem.fix


def test_sim_game_sets_an_option_of_a_rules_file_that_no_ruling_names(tmp_path: Path, monkeypatch) -> None:
    """An option of ``[options]`` without a ruling (here ``depart`` once MA1 is gone) is set by
    ``sim game --rule`` as ``games check --rule`` sets it: any value of its type; a text for a
    number is refused with the option's name, a name the file lacks with the file's options."""
    from cardbase.games import registry

    text = MARCHE.replace('code = "marche"', 'code = "libre"')
    start = text.index("[[rulings]]")
    end = text.index("[[rulings]]", start + 1)
    assert 'code = "MA1"' in text[start:end]
    text = text[:start] + text[end:]  # MA1, the ruling that named `depart`, taken out
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "libre.toml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(register, "rules_dir", lambda: folder)
    for spec in register.rules_specs(set(registry.REGISTRY), registry.GameSpec, registry.check_box):
        monkeypatch.setitem(registry.REGISTRY, spec.code, spec)
    base = ["sim", "game", "libre", "-n", "4", "-p", "2", "--bots", "random", "--measures-games", "0", "--json"]
    plain, more = _json(runner.invoke(app, base)), _json(runner.invoke(app, [*base, "--rule", "depart=9"]))
    assert plain["seats"] != more["seats"] or plain["mean_turns"] != more["mean_turns"]
    bad = runner.invoke(app, [*base, "--rule", "depart=beaucoup", "--rule", "nulle=1"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output
    assert "depart" in bad.output and "beaucoup" in bad.output and "nulle" in bad.output


def test_a_rules_file_read_once_is_read_again_when_it_changes(tmp_path: Path, monkeypatch) -> None:
    """``valid_rules`` keeps a file's checked rules while the file is unchanged (reports read a
    game's labels several times); a file written since — another text, a broken one — is read
    again, never answered from the old reading."""
    folder = tmp_path / "rules"
    folder.mkdir()
    monkeypatch.setattr(register, "rules_dir", lambda: folder)
    path = folder / "libre.toml"
    path.write_text(MARCHE.replace('code = "marche"', 'code = "libre"'), encoding="utf-8")
    first = register.valid_rules("libre")
    assert first is not None and register.valid_rules("libre") is first
    path.write_text(MARCHE.replace('code = "marche"', 'code = "libre"').replace("depart = 5", "depart = 6"),
                    encoding="utf-8")
    second = register.valid_rules("libre")
    assert second is not first and second.options["depart"] == 6
    path.write_text(MARCHE.replace('code = "marche"', 'code = "libre"').replace('by = "points"', 'by = "points +"'),
                    encoding="utf-8")
    assert register.valid_rules("libre") is None
    path.unlink()
    assert register.valid_rules("libre") is None
