"""The small expression language of rules files: conditions, filters, values.

An expression is a Python-looking formula read with :mod:`ast` and checked against a short list of
allowed forms (numbers, strings, ``True``/``False``/``None``, arithmetic, comparisons, ``and``/
``or``/``not``, ``x if c else y``, a card's field ``card.value``, and the functions of
:data:`FUNCTIONS`). Anything else is refused with a problem saying what is allowed; an accepted
expression is compiled once and evaluated with no built-ins at all.

A rules file may be hostile: an expression is at most :data:`MAX_EXPR_CHARS` characters, nested at
most :data:`MAX_EXPR_DEPTH` levels (both checked before Python's parser and compiler recurse on
it), its numbers at most a million and its texts 200 characters; ``*`` and ``%`` work on numbers
only — ``'x' * 1000000`` or ``'%999999999d' % 1`` would build a text of a million or a billion
characters — refused when the file is read where a text or a list is written in the expression,
and stopped during play (:func:`_mul`, :func:`_mod`) where a card's field turns out to be a text.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cardbase.errors import CardbaseError

# name -> (min args, max args, kinds of the string arguments: "zone" / "action" / "" for any)
FUNCTIONS: dict[str, tuple[int, int, str]] = {
    "count": (1, 1, "zone"),  # cards in a zone (the seat's own, for a zone of each player)
    "top": (1, 1, "zone"),  # the top card of a zone (a card with every field None when empty)
    "done": (1, 1, "action"),  # times an action was played in this turn
    "can": (1, 1, "action"),  # the action is legal now (ignoring compulsory actions)
    "has": (2, 2, ""),  # has(card, "Foule"): the card bears the keyword
    "min": (1, 9, ""),
    "max": (1, 9, ""),
    "abs": (1, 1, ""),
    "total": (1, 1, "counter"),  # a counter summed over every player
    "best": (1, 1, "counter"),  # a counter's highest value over every player
    "count_all": (1, 1, "zone"),  # cards in a zone, every player's pile of it together
    "having": (2, 2, "zone"),  # having('main', 'Légendaire'): cards of the zone with the keyword
    "having_all": (2, 2, "zone"),  # the same, every player's pile of the zone together
    "score": (0, 0, "state"),  # the player's hand scored by the cards' effects ([effects])
    "pending": (1, 1, "state"),  # pending('recover'): the size of the seat's Défausse actions waiting
    "sum": (1, 2, "zone"),  # the values of the zone's cards added up (sum('table', 'card.points'): an expression's)
    "distinct": (1, 2, "zone"),  # distinct('table', 'card.colour'): the different values among the zone's cards
    "team_total": (1, 1, "counter"),  # a counter summed over the seat's team
    "team_best": (1, 1, "counter"),  # a counter's highest value in the seat's team
    "others_best": (1, 1, "counter"),  # its highest value among the other teams' seats
    "others_total": (1, 1, "counter"),  # a counter summed over the other teams' seats
    "team_count": (1, 1, "zone"),  # cards in the team's piles of a zone of each player
    "named": (1, 1, "counter"),  # named('vote'): the seats whose counter holds this seat's number
    "best_seat": (1, 1, "counter"),  # the seat (from 1) with the strictly highest value, 0 on a tie
    "count_best": (1, 1, "counter"),  # how many seats hold the counter's highest value (a tie's size)
    "count_if": (2, 2, "zone"),  # count_if('main', 'card.colour == 2'): cards of the zone passing a test
    "name": (2, 2, "names"),  # name('rang', annonce): a number's word in a [names] table (else the number)
}
# min('zone'), max('zone', 'card.value'): a zone-wide form of min and max (a zone's name first)
ZONE_MINMAX = {"min": "min_of", "max": "max_of"}
# the functions whose second argument is a text holding an expression on ``card``
CARD_TEXT = ("count_if", "sum", "distinct", "min_of", "max_of")
CHOSEN = "chosen"  # the pseudo-zone of the cards of a set (an action's pick = "set"): its test, its then
BUILTIN_NAMES = ("round", "turn", "seat", "players")
# teams and answer windows (docs/rules-language.md): the seat's team (from 1), the number of teams,
# the card of the action that opened the answer window, the answers made in it, its actor (from 1)
MORE_NAMES = ("team", "teams", "cause", "answered", "actor", "answerer")

MAX_EXPR_CHARS = 1000  # characters of one expression (the longest of data/rules: 261)
MAX_EXPR_DEPTH = 40  # nesting of one expression's tree (the deepest of data/rules: 11)
_SEQUENCES = (str, list, tuple)

_OPS = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.UAdd,
        ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.Compare, ast.Eq,
        ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot,
        ast.Name, ast.Load, ast.Constant, ast.Call, ast.Attribute, ast.IfExp, ast.Tuple, ast.List)


class RulesRuntimeError(CardbaseError):
    """An expression of the rules file that fails while a game is played (a card without the
    field it reads, a text where a number is needed…): one problem, located like those found
    by reading the file (:attr:`problem`: its line and key, message and fix; made by
    ``language.runtime_error``)."""

    def __init__(self, message: str, problem: Any = None) -> None:
        super().__init__(message, [problem] if problem is not None else None)
        self.problem = problem


@dataclass(slots=True, frozen=True)
class ExprProblem:
    key: str  # the i18n key of the message (rulesdata.expr.*)
    values: tuple[tuple[str, Any], ...] = ()


@dataclass(slots=True)
class Expr:
    """A checked expression, compiled to ``lambda _s, _seat, _c, _card: …`` (the state, the seat
    it is about, that seat's counters, the card); the functions come from the interpreter's
    table given to :meth:`bind` (with no built-ins)."""

    source: str
    code: Any
    names: frozenset[str]
    fn: Any = None
    calls: frozenset[str] = frozenset()  # the functions it calls
    zones: frozenset[str] = frozenset()  # the zones it reads (count, top, having…)
    attrs: frozenset[str] = frozenset()  # the card fields and figures it reads (card.x, top(…).x)
    where: tuple = ()  # its key path in the rules file (language.key_text), for an error in play

    def bind(self, functions: dict[str, Any]) -> Any:
        self.fn = eval(self.code, {**functions, **_GUARDS})  # a checked tree, no built-ins
        return self.fn


def _refuse(op: str, a: Any, b: Any) -> None:
    from cardbase.i18n import tr

    seq = a if isinstance(a, _SEQUENCES) else b
    raise ValueError(tr("rulesdata.expr.runtime_text_arith", op=op, value=repr(seq)[:60]))


def _mul(a: Any, b: Any) -> Any:
    """``a * b`` of numbers only: a text or a list times a number would be built whatever its size."""
    if isinstance(a, _SEQUENCES) or isinstance(b, _SEQUENCES):
        _refuse("*", a, b)
    return a * b


def _mod(a: Any, b: Any) -> Any:
    """``a % b`` of numbers only: ``'%999999999d' % 1`` formats a text of a billion characters."""
    if isinstance(a, _SEQUENCES) or isinstance(b, _SEQUENCES):
        _refuse("%", a, b)
    return a % b


_GUARDS = {"_x_mul": _mul, "_x_mod": _mod}


def _depth(tree: ast.AST) -> int:
    """The nesting of a tree, counted without recursion."""
    most, todo = 0, [(tree, 1)]
    while todo:
        node, d = todo.pop()
        most = max(most, d)
        todo.extend((child, d + 1) for child in ast.iter_child_nodes(node))
    return most


class _Rewrite(ast.NodeTransformer):
    """Names to what they mean: a counter to ``_c['name']``, an option to its value, ``card`` to
    ``_card``, ``round``/``turn``/``seat``/``players`` to the state's, a function ``f(…)`` to
    ``_f_f(_s, _seat, …)`` for the functions of the state, ``_f_f(…)`` for the others."""

    def __init__(self, counters: set[str], constants: dict[str, Any], number: bool = False) -> None:
        self.counters, self.constants, self.number = counters, constants, number

    def numeric(self, node: ast.AST) -> bool:
        """The node's value is a number (or True/False) whatever the cards: its ``*`` and ``%``
        need no guard (a card's field, ``top()``, ``cause`` or a text may not be one)."""
        if isinstance(node, ast.Constant):
            return isinstance(node.value, int)
        if isinstance(node, ast.Name):
            if node.id in self.constants:
                return isinstance(self.constants[node.id], int)
            return (node.id in self.counters or node.id in BUILTIN_NAMES
                    or (node.id in MORE_NAMES and node.id != "cause") or (self.number and node.id == "value"))
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else ""
            if name in ("min", "max", "abs"):  # (a zone's min('table') may be a text: a Constant)
                return all(self.numeric(a) for a in node.args)
            return name not in ("top", "name")
        if isinstance(node, ast.BinOp):
            return self.numeric(node.left) and self.numeric(node.right)
        if isinstance(node, ast.UnaryOp):
            return isinstance(node.op, ast.Not) or self.numeric(node.operand)
        if isinstance(node, ast.BoolOp):
            return all(self.numeric(v) for v in node.values)
        if isinstance(node, ast.IfExp):
            return self.numeric(node.body) and self.numeric(node.orelse)
        return isinstance(node, ast.Compare)

    def visit_BinOp(self, node: ast.BinOp) -> Any:
        guard = isinstance(node.op, (ast.Mult, ast.Mod)) and not (
            self.numeric(node.left) and self.numeric(node.right))
        node = self.generic_visit(node)
        if not guard:
            return node
        fn = "_x_mul" if isinstance(node.op, ast.Mult) else "_x_mod"
        return ast.copy_location(ast.Call(ast.Name(fn, ast.Load()), [node.left, node.right], []), node)

    def visit_Call(self, node: ast.Call) -> Any:
        args = [self.visit(a) for a in node.args]
        assert isinstance(node.func, ast.Name)
        name = _called(node)
        fn = ast.Name(f"_f_{name}", ast.Load())
        if name in CARD_TEXT and name != "count_if" and len(node.args) == 1 and name != "sum":
            text = "card.value"  # min('zone'), max('zone'), distinct('zone'): the cards' values
        else:
            text = node.args[1].value if name in CARD_TEXT and len(node.args) == 2 else None
        if FUNCTIONS.get(name, (0, 0, "zone"))[2]:
            args = [ast.Name("_s", ast.Load()), ast.Name("_seat", ast.Load()), *args]
        call: ast.expr = ast.Call(fn, args, [])
        if text is not None:  # the test or the value (checked text) as a function of the card
            test = ast.parse(text.strip(), mode="eval").body
            lam = ast.Lambda(ast.arguments(posonlyargs=[], args=[ast.arg("_card")], kwonlyargs=[],
                                           kw_defaults=[], defaults=[]), self.visit(test))
            if name == "sum":
                fn = ast.Name("_f_sum_of", ast.Load())
            call = ast.Call(fn, [*args[:3], lam], [])
        if node.func.id == "score":  # the state's method itself, without the table's lambda
            call = ast.Call(ast.Attribute(ast.Name("_s", ast.Load()), "effect_score", ast.Load()),
                            [ast.Name("_seat", ast.Load())], [])
        if node.func.id == "pending":  # nothing waits most of the time: no call then
            call = ast.IfExp(ast.Attribute(ast.Name("_s", ast.Load()), "queue", ast.Load()), call,
                             ast.Constant(0))
        return ast.copy_location(call, node)

    def visit_Name(self, node: ast.Name) -> Any:
        i = node.id
        s = ast.Name("_s", ast.Load())
        if i in self.counters:
            new: ast.expr = ast.Subscript(ast.Name("_c", ast.Load()), ast.Constant(i), ast.Load())
        elif i in self.constants:
            new = ast.Constant(self.constants[i])
        elif i == "card" or (self.number and i == "value"):  # value: the number a choose offers
            new = ast.Name("_card", ast.Load())
        elif i == "round":
            new = ast.Attribute(s, "round", ast.Load())
        elif i == "players":
            new = ast.Attribute(s, "n", ast.Load())
        elif i == "turn":
            new = ast.BinOp(ast.Attribute(s, "turns", ast.Load()), ast.Add(), ast.Constant(1))
        elif i == "seat":
            new = ast.BinOp(ast.Name("_seat", ast.Load()), ast.Add(), ast.Constant(1))
        elif i in MORE_NAMES:  # _f_team(_s, _seat), _f_cause(_s, _seat)…
            new = ast.Call(ast.Name(f"_f_{i}", ast.Load()), [s, ast.Name("_seat", ast.Load())], [])
        else:
            return node
        return ast.copy_location(new, node)


def compile_expr(source: Any, *, names: Iterable[str], zones: Iterable[str], actions: Iterable[str],
                 counters: Iterable[str], card: bool,
                 constants: dict[str, Any] | None = None,
                 number: bool = False, tables: Iterable[str] = ()) -> tuple[Expr | None, list[ExprProblem]]:
    """The compiled expression, or the problems found in it (all of them)."""
    if isinstance(source, bool) or isinstance(source, int):
        source = str(source)
    if not isinstance(source, str) or not source.strip():
        return None, [ExprProblem("rulesdata.expr.not_text")]
    if len(source.strip()) > MAX_EXPR_CHARS:  # before the parser recurses on it
        return None, [ExprProblem("rulesdata.expr.too_long", (("length", len(source.strip())),
                                                              ("max", MAX_EXPR_CHARS),
                                                              ("start", source.strip()[:40])))]
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as exc:
        return None, [ExprProblem("rulesdata.expr.syntax", (("column", exc.offset or 0),))]
    except (RecursionError, MemoryError):  # ------1, not not not … : the parser's own limits
        return None, [ExprProblem("rulesdata.expr.too_deep", (("max", MAX_EXPR_DEPTH),))]
    if _depth(tree) > MAX_EXPR_DEPTH:  # before the checks, the rewriting and compile() recurse
        return None, [ExprProblem("rulesdata.expr.too_deep", (("max", MAX_EXPR_DEPTH),))]
    known = set(names) | set(BUILTIN_NAMES) | set(MORE_NAMES)
    if card:
        known.add("card")
    kinds = {"zone": set(zones), "action": set(actions), "counter": set(counters), "names": set(tables)}
    problems: list[ExprProblem] = []
    used: set[str] = set()
    used_calls: set[str] = set()
    used_zones: set[str] = set()
    used_attrs: set[str] = set()
    callees = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    for node in ast.walk(tree):
        if not isinstance(node, _OPS):
            problems.append(ExprProblem("rulesdata.expr.form", (("form", type(node).__name__),)))
            continue
        if isinstance(node, ast.Constant) and (
                not (node.value is None or isinstance(node.value, (int, str, bool)))
                or (isinstance(node.value, int) and abs(node.value) > 10**6)
                or (isinstance(node.value, str) and len(node.value) > 200)):
            problems.append(ExprProblem("rulesdata.expr.constant", (("value", repr(node.value)),)))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Mod)) and any(
                isinstance(x, (ast.List, ast.Tuple)) or (isinstance(x, ast.Constant) and isinstance(x.value, str))
                for x in (node.left, node.right)):
            problems.append(ExprProblem("rulesdata.expr.text_arith", (
                ("op", "*" if isinstance(node.op, ast.Mult) else "%"),)))
        elif isinstance(node, ast.Name):
            if node.id in FUNCTIONS and id(node) in callees:
                continue
            used.add(node.id)
            if node.id not in known:
                problems.append(ExprProblem("rulesdata.expr.name", (("name", node.id),
                                                                    ("known", ", ".join(sorted(known))))))
        elif isinstance(node, ast.Attribute):
            base = node.value
            ok = (isinstance(base, ast.Name) and base.id in ("card", "cause")) or (
                isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "top")
            if not ok or node.attr.startswith("_"):
                problems.append(ExprProblem("rulesdata.expr.attribute", (("attr", node.attr),)))
            else:
                used_attrs.add(node.attr)
        elif isinstance(node, ast.Call):
            fn = node.func.id if isinstance(node.func, ast.Name) else None
            if fn not in FUNCTIONS or node.keywords:
                problems.append(ExprProblem("rulesdata.expr.function", (("name", fn or "?"),
                                                                        ("known", ", ".join(FUNCTIONS)))))
                continue
            lo, hi, kind = FUNCTIONS[fn]
            zonal = _called(node)
            if zonal != fn:  # min('table'), max('table', 'card.value'): a zone's lowest or highest value
                lo, hi, kind = 1, 2, "zone"
            if not lo <= len(node.args) <= hi:
                problems.append(ExprProblem("rulesdata.expr.arity", (("name", fn), ("count", lo))))
                continue
            fn = zonal
            used_calls.add(fn)
            if fn in CARD_TEXT and fn != "count_if" and len(node.args) == 1:
                used_attrs.add("value")  # sum('zone'), min('zone'), distinct('zone') read card.value
            if kind == "zone" and node.args and isinstance(node.args[0], ast.Constant):
                used_zones.add(str(node.args[0].value))
            if kind and kind != "state":
                arg = node.args[0]
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                        and arg.value in kinds[kind]):
                    text = arg.value if isinstance(arg, ast.Constant) else ast.unparse(arg)
                    problems.append(ExprProblem(f"rulesdata.expr.bad_{kind}",
                                                (("name", node.func.id), ("value", text),
                                                 ("known", ", ".join(sorted(kinds[kind]))))))
                elif fn in CARD_TEXT and len(node.args) == 2:
                    inner = _count_if_test(node, names, zones, actions, counters, constants, fn)
                    if isinstance(inner, list):
                        problems.extend(inner)
                    else:
                        used |= inner.names - {"card"}
                        used_calls |= inner.calls
                        used_zones |= inner.zones
                        used_attrs |= inner.attrs
                elif fn == "top" and isinstance(zones, dict) and not getattr(zones[arg.value], "ordered", True):
                    # a zone with no order has no top card: top() would give no card, for ever
                    problems.append(ExprProblem("rulesdata.expr.top_unordered", (("zone", arg.value),)))
    if problems:
        return None, problems
    body = _share_repeats(_Rewrite(set(counters), dict(constants or {}), number).visit(tree.body))
    args = ast.arguments(posonlyargs=[], args=[ast.arg(a) for a in ("_s", "_seat", "_c", "_card")],
                         kwonlyargs=[], kw_defaults=[], defaults=[])
    lam = ast.fix_missing_locations(ast.Expression(ast.Lambda(args, body)))
    return Expr(source.strip(), compile(lam, "<règle>", "eval"), frozenset(used), None,
                frozenset(used_calls), frozenset(used_zones), frozenset(used_attrs)), []


def _share_repeats(body: ast.expr) -> ast.expr:
    """A call written twice or more in one expression computed once: ``count_if('main', …) *
    (count_if('main', …) - 1)`` keeps the first value (``(_k0 := …)``) and reads it after. Every
    function of the language reads the position and changes nothing, so within one evaluation the
    same call gives the same value. Only a call that is certainly evaluated first keeps its value:
    not one in a branch that may be skipped (after ``and``/``or``, in ``a if t else b``, a chained
    comparison's later terms) — a later copy is then computed as written. The card tests inside
    ``count_if`` (lambdas of ``_card``) are left alone: they are evaluated card by card."""
    counts: dict[str, int] = {}
    todo: list[ast.AST] = [body]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Call):
            key = ast.dump(node)
            counts[key] = counts.get(key, 0) + 1
        todo.extend(ast.iter_child_nodes(node))
    repeated = {k for k, n in counts.items() if n > 1}
    if not repeated:
        return body
    kept: dict[str, str] = {}

    def visit(node: ast.AST, maybe: bool) -> ast.AST:
        """``node`` rewritten in evaluation order; ``maybe``: it may not be evaluated."""
        if isinstance(node, ast.Lambda):
            return node
        key = ast.dump(node) if isinstance(node, ast.Call) else None
        if key in kept:
            return ast.copy_location(ast.Name(kept[key], ast.Load()), node)
        if isinstance(node, ast.BoolOp):
            node.values = [visit(v, maybe or i > 0) for i, v in enumerate(node.values)]
        elif isinstance(node, ast.IfExp):
            node.test = visit(node.test, maybe)
            node.body, node.orelse = visit(node.body, True), visit(node.orelse, True)
        elif isinstance(node, ast.Compare):
            node.left = visit(node.left, maybe)
            node.comparators = [visit(c, maybe or i > 0) for i, c in enumerate(node.comparators)]
        else:
            for name, value in ast.iter_fields(node):
                if isinstance(value, list):
                    setattr(node, name, [visit(v, maybe) if isinstance(v, ast.AST) else v for v in value])
                elif isinstance(value, ast.AST):
                    setattr(node, name, visit(value, maybe))
        if key in repeated and not maybe:
            kept[key] = f"_k{len(kept)}"
            return ast.copy_location(ast.NamedExpr(ast.Name(kept[key], ast.Store()), node), node)
        return node

    return visit(body, False)  # type: ignore[return-value]


def _called(node: ast.Call) -> str:
    """The function a call stands for: ``min('table')`` (a text first) is the zone-wide
    ``min_of``, ``min(a, b)`` the usual one."""
    name = node.func.id if isinstance(node.func, ast.Name) else ""
    if name in ZONE_MINMAX and node.args and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str):
        return ZONE_MINMAX[name]
    return name


def _count_if_test(node: ast.Call, names: Iterable[str], zones: Iterable[str], actions: Iterable[str],
                   counters: Iterable[str], constants: dict[str, Any] | None,
                   fn: str = "count_if") -> Expr | list[ExprProblem]:
    """The test of ``count_if('zone', 'test')`` (or the value of ``sum``, ``min``, ``max``,
    ``distinct`` of a zone): a text holding an expression on ``card``, checked as any other (its
    problems, or the compiled test whose names, zones and fields the caller adds)."""
    arg = node.args[1]
    if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
        if fn != "count_if":
            shown = {"min_of": "min", "max_of": "max"}.get(fn, fn)
            return [ExprProblem("rulesdata.expr.card_text", (("name", shown), ("value", ast.unparse(arg))))]
        return [ExprProblem("rulesdata.expr.count_if_test", (("value", ast.unparse(arg)),))]
    e, problems = compile_expr(arg.value, names=names, zones=zones, actions=actions, counters=counters,
                               card=True, constants=constants)
    return problems if e is None else e


def expressions(obj: Any) -> Any:
    """Every expression (:class:`Expr`) of a rules file, wherever it is held."""
    if isinstance(obj, Expr):
        yield obj
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from expressions(getattr(obj, f.name))
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            yield from expressions(x)
    elif isinstance(obj, dict):
        for x in obj.values():
            yield from expressions(x)
