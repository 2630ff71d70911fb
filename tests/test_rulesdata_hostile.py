"""A rules file is hostile input (docs/rules-language.md, « Limits »): whatever it holds, reading
it and playing it stays within bounds, and every refusal is a clear problem with its line and key —
never a traceback, never work or memory sized by the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.games.rulesdata.engine import Game, RulesRuntimeError
from cardbase.games.rulesdata.expr import MAX_EXPR_CHARS, MAX_EXPR_DEPTH
from cardbase.games.rulesdata.language import RulesFileError, parse_rules_text
from tests.rulesdata_helpers import random_games

ROOT = Path(__file__).resolve().parent.parent
HUIT = (ROOT / "data" / "rules" / "huit.toml").read_text(encoding="utf-8")
GAME_END = 'game = "count(\'pioche\') == 0"'
# the line of Le Huit's game-end condition, where its problems are located
END_LINE = HUIT[: HUIT.index(GAME_END)].count("\n") + 1
runner = CliRunner()


def _with_end(expr: str) -> str:
    """Le Huit whose game-end condition is ``expr`` (read at the end of every turn)."""
    assert GAME_END in HUIT
    return HUIT.replace(GAME_END, "game = '''" + expr + "'''")


def _problems(text: str) -> list[str]:
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(text, "hostile.toml")
    return [f"{p.where} {p.message} {p.fix}" for p in info.value.problems]


def _play(text: str, seeds: range = range(3), players: int = 2) -> list[Game]:
    """Whole seeded games of random moves; the states at their end."""
    return list(random_games(text, seeds, players, name="hostile.toml"))


@pytest.mark.parametrize("expr", [
    "'x' * 1000000 * 1000000 == ''",  # a text of 10**12 characters
    "[1] * 1000000 * 1000000 == []",
    "(1, 2) * 1000000 == ()",
    "'%999999999d' % 1 == ''",  # string formatting: a text of a billion spaces
    "'%s' % 1 == '1'",
])
def test_text_or_list_arithmetic_is_refused_when_the_file_is_read(expr) -> None:
    problems = _problems(_with_end(f"({expr}) or count('pioche') == 0"))
    assert len(problems) == 1
    assert f"ligne {END_LINE}, clé end.conditions[2].game" in problems[0]
    assert "ne travaille que sur des nombres" in problems[0]


def test_text_arithmetic_hidden_from_the_checker_is_stopped_in_play() -> None:
    """A text built where the checker cannot see it (a card's field, a sum of texts) meets the
    guard of « * » and « % » at its first evaluation: a clear error naming the expression."""
    for expr, op in (("('%0' + '999999999d') % 1 == ''", "%"), ("card.colour * 1000000 == ''", "*")):
        text = _with_end("count('pioche') == 0") if op == "%" else HUIT
        if op == "%":
            text = _with_end(f"({expr}) or count('pioche') == 0")
        else:
            text = HUIT.replace('filter = "(eight_wild', f'filter = "({expr}) or (eight_wild')
        with pytest.raises(RulesRuntimeError) as info:
            _play(text)
        assert f"« {op} » appliqué au texte" in str(info.value)
        assert expr in str(info.value)


def test_numbers_still_multiply_and_the_guard_keeps_the_game() -> None:
    """A guarded « * » on numbers plays as before: Le Huit with its filter multiplied by one."""
    plain = _play(HUIT, range(4))
    guarded = _play(HUIT.replace("card.value == 8)", "card.value * 1 == 8)"), range(4))
    assert [s.history for s in plain] == [s.history for s in guarded]
    assert [s.winners for s in plain] == [s.winners for s in guarded]


@pytest.mark.parametrize("expr", [
    "+".join(["1"] * 600),  # 1199 characters
    "-" * (MAX_EXPR_CHARS + 5) + "1",
    "not " * 300 + "True",
])
def test_a_long_expression_is_refused_before_it_is_parsed(expr) -> None:
    problems = _problems(_with_end(expr))
    assert len(problems) == 1
    assert f"limite de {MAX_EXPR_CHARS}" in problems[0] and f"ligne {END_LINE}" in problems[0]
    assert len(problems[0]) < 1000  # the expression is not copied whole into the message


@pytest.mark.parametrize("expr", [
    "-" * 600 + "1",  # the compiler's recursion limit was hit at 1000 levels
    "-" * 998 + "1",
    "not " * 100 + "True",
    "1 if True else " * 60 + "0",
    "[" * 150 + "1" + "]" * 150 + " == 1",
])
def test_a_deeply_nested_expression_is_a_problem_not_a_traceback(expr) -> None:
    problems = _problems(_with_end(expr))
    assert len(problems) == 1
    assert f"plus de {MAX_EXPR_DEPTH} niveaux" in problems[0] and "end.conditions[2].game" in problems[0]


@pytest.mark.parametrize("expr,what", [
    ("card.__class__", ".__class__"),
    ("top('defausse')._view", "._view"),
    ("__import__('os')", "__import__"),
    ("(lambda: 1)()", "?"),
    ("[x for x in [1]]", "ListComp"),
    ("10 ** 10 ** 10", "Pow"),
    ("count('pioche').bit_length", ".bit_length"),
    ("{1: 2}", "Dict"),
    ("f'{1}'", "JoinedStr"),
])
def test_expressions_cannot_leave_the_language(expr, what) -> None:
    problems = _problems(_with_end(expr))
    assert problems and all("end.conditions[2].game" in p for p in problems)
    assert any(what in p for p in problems)


def test_a_game_that_never_ends_stops_at_the_game_limit_and_says_so(tmp_path) -> None:
    """max_rounds a million, the end conditions never true, a pass always legal: the game stopped
    after 100 000 actions and turns (it played 2 million turns, 90 CPU seconds a game), and
    ``games check`` counts it as stopped by the safety net."""
    from cardbase.games.rulesdata.engine import MAX_GAME_STEPS

    text = (HUIT.replace(GAME_END, 'game = "False"').replace('player = "count(\'main\') == 0"', 'player = "False"')
            .replace('check = "turn"', 'check = "turn"\nmax_rounds = 1000000')
            .replace('when = "done(\'piocher\') > 0 or count(\'pioche\') == 0"', 'when = "True"'))
    [s] = _play(text, range(1))
    assert s.ended_by == "step_limit" and s.winners == []
    assert len(s.history) + s.turns == MAX_GAME_STEPS
    assert s.log_lines()[-1].endswith("step_limit") or "step_limit" in s.log_lines()[-1]
    path = tmp_path / "sans_fin.toml"
    path.write_text(text, encoding="utf-8")
    out = runner.invoke(app, ["games", "check", str(path), "--games", "1", "--search-states", "0"])
    assert out.exit_code == 0, out.output
    assert "0 finies par une condition du fichier" in out.output
    assert "1 partie ne s'est arrêtée que par le filet de sécurité" in out.output


def test_a_round_that_goes_on_until_never_stops_at_the_game_limit() -> None:
    """[round] until kept a round going for players × max_rounds turns, and max_rounds such rounds."""
    text = (HUIT.replace(GAME_END, 'game = "False"').replace('player = "count(\'main\') == 0"', 'player = "False"')
            .replace('check = "turn"', 'check = "turn"\nmax_rounds = 1000000')
            .replace('when = "done(\'piocher\') > 0 or count(\'pioche\') == 0"', 'when = "True"')
            + '\n[round]\nuntil = "False"\n')
    [s] = _play(text, range(1))
    assert s.ended_by == "step_limit" and s.round == 1


@pytest.mark.parametrize("material,count", [
    ('colours = [' + ", ".join(f'"c{i}"' for i in range(2000)) + ']\ncopies = 20\n', 2000 * 8 * 20),
    ('cards = [' + ", ".join(f'{{ name = "n{i}", copies = 100 }}' for i in range(200)) + ']\n', 20000),
])
def test_generated_cards_are_counted_before_the_box_is_built(material, count) -> None:
    """Four million generated cards took a minute a game: the count is refused when the file is read."""
    text = HUIT.replace('colours = ["cœur", "carreau", "trèfle", "pique"]\n', "")
    if material.startswith("cards"):
        text = text.replace("values = [1, 8]\n", "")
    text = text.replace('source = "generated"   # 32 cards: four colours, values 1 to 8\n',
                        'source = "generated"\n' + material)
    problems = _problems(text)
    assert any(f"{count:,}".replace(",", "\u202f") in p or str(count) in p for p in problems), problems
    assert any("limite de 10" in p and "clé material" in p for p in problems)


def test_option_values_are_bounded_in_the_file_and_on_the_command_line() -> None:
    problems = _problems(HUIT.replace("hand = 7 ", "hand = 9000000000000 "))
    assert "ligne 14, clé options.hand L'option « hand » vaut « 9000000000000 » : hors des bornes" in problems[0]
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(HUIT, "huit.toml", options={"hand": 10**12})
    assert "hors des bornes" in str(info.value)
    with pytest.raises(RulesFileError):
        parse_rules_text(HUIT.replace("hand = 7 ", "hand = 7\nlabel = '" + "x" * 300 + "'"), "huit.toml")


@pytest.mark.parametrize("rules,old,new,field,guess,line,key,extra", [
    ("nespanini", "filter = \"not has(card, 'Légendaire')\"",
     "filter = \"not has(card, 'Légendaire') and card.couleur != 'or'\"", "couleur", "colour", 75,
     "actions[1].filter", []),
    ("pushluck", 'card = "card.multiplier != None"', 'card = "card.multiplyer != None"', "multiplyer",
     "multiplier", 74, "triggers[2].card", ["--edition", str(ROOT / "data" / "editions" / "P15.toml")]),
])
def test_games_check_knows_the_fields_of_edition_and_deck_cards(tmp_path, rules, old, new, field, guess,
                                                                 line, key, extra) -> None:
    """A misspelt card field, with cards from decks (NesPanini) or an edition (15 en un tour): a
    problem with its line, key and a guess — read from the project's editions (or --edition),
    offline — where it only showed as None for every card in trial games. The files themselves pass."""
    text = (ROOT / "data" / "rules" / f"{rules}.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"{rules}.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    out = runner.invoke(app, ["games", "check", str(path), "--games", "2", "--search-states", "0", *extra])
    assert out.exit_code != 0
    assert f"ligne {line}, clé {key}" in out.output and f"« {field} »" in out.output
    assert f"Vouliez-vous dire « {guess} » ?" in out.output
    good = runner.invoke(app, ["games", "check", str(ROOT / "data" / "rules" / f"{rules}.toml"),
                               "--games", "2", "--search-states", "0", *extra])
    assert good.exit_code == 0, good.output
    # without any card of the game known, the checker cannot tell (as before): the file is read
    parse_rules_text(text.replace(old, new), f"{rules}.toml")


def test_thousands_of_problems_are_each_located_with_one_pass_over_the_file(monkeypatch) -> None:
    """3 000 unknown keys: every problem listed with its own line, and the file's lines are indexed
    once (each problem scanned the whole file: 3 000 problems of a 170 kB file took 43 CPU s)."""
    from cardbase.games.rulesdata import language

    keys = "".join(f"cle{i} = {i}\n" for i in range(3000))
    passes = []
    real = language._Lines.__init__

    def counted(self, t):
        passes.append(1)
        real(self, t)

    monkeypatch.setattr(language._Lines, "__init__", counted)
    problems = _problems(keys + HUIT)
    assert len(problems) == 3000 and len(passes) == 1
    assert problems[0].startswith("fichier hostile.toml, ligne 1, clé cle0 Clé inconnue « cle0 »")
    assert problems[-1].startswith("fichier hostile.toml, ligne 3000, clé cle2999 ")


@pytest.mark.parametrize("block,what,most", [
    ('\n[[actions]]\nname = "a{i}"\nwhen = "count(\'zz\') > {i}"\n', "actions", 100),
    ('\n[[zones]]\nname = "z{i}"\nowner = "player"\n', "zones", 50),
    ('\n[[end.conditions]]\nname = "c{i}"\ngame = "count(\'zz\') > {i}"\n', "end.conditions", 50),
])
def test_long_lists_are_cut_at_their_limit_and_the_rest_is_not_read(block, what, most) -> None:
    """3 000 actions (each read at every legal-move test of every step): one problem for the list,
    and the problems of its first items only."""
    text = HUIT + "".join(block.replace("{i}", str(i)) for i in range(3000))
    problems = _problems(text)
    assert any(f"« {what} » compte " in p and f"la limite de {most}" in p for p in problems), problems[:3]
    assert len(problems) <= most + 5


def test_a_long_list_of_operations_is_cut_at_its_limit() -> None:
    ops = ", ".join('{ shuffle = "pioche" }' for _ in range(500))
    problems = _problems(HUIT.replace('do = [{ shuffle = "pioche" },', f"do = [{ops}, {{ shuffle = \"pioche\" }},"))
    assert len(problems) == 1 and "« setup.do » compte 503 éléments" in problems[0]
