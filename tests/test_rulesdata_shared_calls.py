"""A call written twice in one expression is computed once (expr._share_repeats): the same values
and the same greedy moves as computing every copy, fewer calls, and never a value read from a
branch that was skipped (``and``/``or``, ``a if t else b``, chained comparisons)."""

from __future__ import annotations

import ast
import itertools
import random

import pytest

from cardbase.games.rulesdata import expr as expr_mod
from cardbase.games.rulesdata.engine import FUNCTIONS, Game
from cardbase.games.rulesdata.language import load_rules, parse_rules_text
from cardbase.playtest.batch import game_seed

ROOT = __import__('pathlib').Path(__file__).resolve().parent.parent


def _run(src: str, values: dict[str, list[int]]) -> tuple[object, dict[str, int]]:
    """``src`` (calls ``f(n)`` of made-up functions) shared and evaluated; each function gives its
    next value at every call and counts its calls."""
    body = expr_mod._share_repeats(ast.parse(src, mode="eval").body)
    calls = {name: 0 for name in values}

    def fn(name: str):
        def call(*_: object) -> int:
            calls[name] += 1
            return values[name][calls[name] - 1]
        return call

    code = compile(ast.fix_missing_locations(ast.Expression(body)), "<t>", "eval")
    return eval(code, {name: fn(name) for name in values}), calls  # noqa: S307 (a test's own tree)


def test_a_repeated_call_is_computed_once() -> None:
    # f gives 3 at its first call and would give 100 if called again: one call, 3 * 2 + 3
    got, calls = _run("f(1) * (f(1) - 1) + f(1)", {"f": [3, 100, 100]})
    assert got == 3 * 2 + 3 and calls == {"f": 1}
    # different arguments are different calls
    got, calls = _run("f(1) + f(2)", {"f": [1, 2]})
    assert got == 3 and calls == {"f": 2}


@pytest.mark.parametrize("src, values, expected, count", [
    # the second copy is behind `and`: the first was evaluated, its value read
    ("f(1) > 0 and f(1) + 1", {"f": [5, 99]}, 6, 1),
    # the first copy is behind `or`, not evaluated: the later copy is computed as written
    ("g(0) or f(1) + f(1)", {"g": [1], "f": [7, 7]}, 1, 0),
    ("g(0) and f(1) or f(1) * 2", {"g": [0], "f": [4, 99]}, 8, 1),
    # a if t else b: t first; a copy in t is read in the branch taken
    ("f(1) + 1 if f(1) > 1 else 0", {"f": [2, 99]}, 3, 1),
    # a copy in a skipped branch leaves nothing behind for the one after it
    ("(f(1) if g(0) else 0) + f(1)", {"g": [0], "f": [9, 99]}, 9, 1),
    # a chained comparison's later terms may not be evaluated
    ("0 < g(0) < f(1) or f(1) == 4", {"g": [0], "f": [4, 99]}, True, 1),
])
def test_a_value_is_never_read_from_a_skipped_branch(src: str, values: dict, expected: object,
                                                     count: int) -> None:
    got, calls = _run(src, values)
    assert got == expected and calls.get("f") == count


def test_card_tests_are_left_to_each_card() -> None:
    """Inside a lambda of ``_card`` a copy is not shared with the expression around it."""
    tree = expr_mod._share_repeats(ast.parse("h(lambda _card: q(_card) + q(_card)) + q(1)", mode="eval").body)
    assert ast.unparse(tree) == "h(lambda _card: q(_card) + q(_card)) + q(1)"


def _unshared(text: str):
    original = expr_mod._share_repeats
    expr_mod._share_repeats = lambda body: body
    try:
        return parse_rules_text(text, "marche.toml")
    finally:
        expr_mod._share_repeats = original


def test_the_same_greedy_moves_and_values_with_and_without_sharing() -> None:
    """Marché's heuristic writes each colour's count twice (8 ``count_if``, 4 different): the
    greedy games are the same move for move, and every expression gives the same value at every
    position of seeded random games."""
    path = ROOT / "data" / "rules" / "marche.toml"
    text = path.read_text(encoding="utf-8")
    shared, plain = Game(load_rules(path), [], 2), Game(_unshared(text), [], 2)
    heuristic = shared.rules.heuristic
    assert heuristic is not None and "_k3" in heuristic.bind({**FUNCTIONS}).__code__.co_varnames  # 4 counts kept
    for i in range(2):
        a, b = shared.new_state(game_seed(0, i)), plain.new_state(game_seed(0, i))
        while not a.is_terminal():
            move = a.greedy_action()
            assert move == b.greedy_action()
            a.apply_action(move)
            b.apply_action(move)
        assert a.returns() == b.returns()
    ea = [e for e in expr_mod.expressions(shared.rules) if e is not None]
    eb = [e for e in expr_mod.expressions(plain.rules) if e is not None]
    assert [e.source for e in ea] == [e.source for e in eb]
    rng = random.Random(4)
    a, b = shared.new_state(3), plain.new_state(3)
    checked = 0
    while not a.is_terminal():
        for seat, (x, y) in itertools.product(range(2), zip(ea, eb)):
            if x.names & {"card", "value", "cause"} or "chosen" in x.zones:
                continue  # needs a card or a set being tested
            try:
                vx = a._eval(x, seat)
            except Exception as exc:  # noqa: BLE001 (the same failure on both sides)
                with pytest.raises(type(exc)):
                    b._eval(y, seat)
                continue
            assert vx == b._eval(y, seat), x.source
            checked += 1
        move = rng.choice(a.legal_actions())
        a.apply_action(move)
        b.apply_action(move)
    assert checked > 100
