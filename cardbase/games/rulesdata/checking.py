"""What ``cardbase games check FILE`` adds to reading a rules file: the ``--rule`` options it is
tried under, and the advice on an end condition no trial game met when it reads an option.

Pure data (no engine): the file's options as :class:`~cardbase.games.frame.Ruling` objects
(those of its ``[[rulings]]``, and every other ``[options]`` key, free), and an end condition's
comparisons of an option with a constant (``fin == 'pioche'``).
"""

from __future__ import annotations

import ast
from itertools import pairwise
from typing import Any

from cardbase.games.frame import Ruling

from .language import MAX_OPTION_INT, Ending, Rules


def option_rulings(rules: Rules) -> tuple[Ruling, ...]:
    """Every option of ``rules`` as a ruling ``--rule`` reads a value against: the file's
    ``[[rulings]]`` that name an option (their allowed values, bounds, code), then each other
    option of ``[options]`` (any value of its type; a number within the file's bounds)."""
    out = [Ruling(**r) for r in rules.rulings if r.get("option")]
    named = {r.option for r in out}
    for name, default in rules.options.items():
        if name in named:
            continue
        number = isinstance(default, int) and not isinstance(default, bool)
        out.append(Ruling("", {}, {}, option=name, default=default,
                          bounds=(-MAX_OPTION_INT, MAX_OPTION_INT) if number else None))
    return tuple(out)


def _compared(source: str, option: str) -> list[Any]:
    """The constants the expression ``source`` compares the name ``option`` with (``==``, ``!=``,
    ``in``), in the order written: ``fin == 'pioche'`` gives ``['pioche']``."""
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        return []
    out: list[Any] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for a, b in pairwise(sides):
            for name, other in ((a, b), (b, a)):
                if isinstance(name, ast.Name) and name.id == option:
                    if isinstance(other, ast.Constant):
                        out.append(other.value)
                    elif isinstance(other, (ast.List, ast.Tuple, ast.Set)):
                        out.extend(x.value for x in other.elts if isinstance(x, ast.Constant))
    return out


def _text(value: Any) -> str:
    """An option's value as ``--rule`` reads it back (``true``, ``7``, ``pioche``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def condition_options(rules: Rules, ending: Ending) -> list[dict[str, Any]]:
    """The options the end condition ``ending`` reads, each with its value in force and the
    ``--rule NAME=VALUE`` readings that could let it hold (the constants the condition compares
    it with, else its ruling's other values; none found: an empty ``rules``). A condition no
    trial game met may hold only under another reading of the game's rulings."""
    rulings = {r.option: r for r in option_rulings(rules)}
    out = []
    for name in sorted(ending.test.names & set(rules.options)):
        now = rules.options[name]
        values = [v for v in _compared(ending.test.source, name) if v != now and type(v) is type(now)]
        ruling = rulings.get(name)
        if not values and ruling is not None:
            values = [v for v in (ruling.alternatives or ruling.allowed) if v != now]
        if ruling is not None and ruling.allowed:
            values = [v for v in values if v in ruling.allowed]
        seen: list[Any] = []
        for v in values:
            if v not in seen:
                seen.append(v)
        out.append({"option": name, "value": now, "code": ruling.code if ruling else "",
                    "rules": [f"{name}={_text(v)}" for v in seen]})
    return out
