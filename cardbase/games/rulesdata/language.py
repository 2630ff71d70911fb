"""Rules files (``data/rules/<code>.toml``): reading and checking, every problem at once.

The language is described in ``docs/rules-language.md``. :func:`load_rules` reads a file and
returns a :class:`Rules` whose expressions are compiled; any problem (an unknown zone, a bad
expression, a missing key…) is reported with the file, the line and the key, and how to fix it,
all in one :class:`RulesFileError`.
"""

from __future__ import annotations

import difflib
import json
import re
import tomllib
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardbase.errors import CardbaseError, Problem
from cardbase.i18n import tr

from . import constructs, words
from .constructs import Answers, Teams
from .expr import CHOSEN, Expr, RulesRuntimeError, compile_expr

VISIBILITY = ("nobody", "owner", "everyone", "top", "team")
RESETS = ("never", "turn", "round")
PICKS = ("choice", "top", "random")
OP_PICKS = ("top", "random", "all")
FIRST = ("seat1", "random", "rotate")
CHECKS = ("action", "turn", "round")
ORDERS = ("highest", "lowest")
AMONG = ("reached", "all")
TIES = ("first", "shared")
SOURCES = ("edition", "generated", "decks")
VERBS = ("add", "set", "if", "move", "shuffle", "deal", "end_turn", "effect", "end_game", "each",
         "for_seat", "give", "rotate", "random_seat", "next_turn", "reveal")
PLACES = ("top", "bottom")  # where a moved card goes in its new zone
HORIZONS = ("step", "turn", "choice", "round")  # [scoring] horizon: what the greedy bot looks at after its move
SEARCHES = ("game", "round")  # [scoring] search: where the search bots' play-outs stop
EFFECT_ZONES = ("hand", "discards", "deck")  # [effects]: the effect language's zones
MAX_FILE_BYTES = 200 * 1024  # 200 kB
MAX_CHOICES = 100  # numbers one choose action may offer
MAX_GENERATED_CARDS = 10_000  # cards a file's [material] makes, copies counted (the box limit of
# cardbase.games.registry: 4 million cards took a minute a game)
MAX_OPTION_INT = 1_000_000_000  # an option's number (a counter's value is checked against the same)
MAX_OPTION_TEXT = 200  # characters of an option's text (as an expression's text)
# the most of each list of a file (every legal-move test reads every action, every turn runs its
# operations: 3 000 actions of a 170 kB file would have been read at each of a game's steps);
# the files of data/rules have at most 4 actions, 4 triggers, 6 zones, 2 end conditions
MAX_LIST = {"zones": 50, "counters": 200, "actions": 100, "triggers": 200, "conditions": 50,
            "rulings": 100, "options": 200, "operations": 200, "coverage": 50}


# what an expression may read of any card (the interpreter's CardView), besides the file's own figures
CARD_FIELDS = ("banner", "colour", "id", "keywords", "name", "rarity", "ref", "stats", "type", "value")


CardFields = Callable[[str], "Iterable[str] | None"]  # a game's code -> its cards' figures


class RulesFileError(CardbaseError):
    """A rules file that cannot be played; its problems are all listed."""


@dataclass(slots=True, frozen=True)
class Zone:
    name: str
    per_player: bool
    ordered: bool
    visible: str


@dataclass(slots=True, frozen=True)
class Counter:
    name: str
    start: int
    reset: str
    owner: str = "player"  # "table": one value for the whole table, read by every seat
    show: bool = True  # False: bookkeeping the app's table does not show


@dataclass(slots=True)
class Action:
    name: str
    label: dict[str, str]
    source: str | None = None  # the zone a card is taken from (None: no card moves)
    dest: str | None = None
    at: str = "top"  # where the card goes in ``dest``: "top" or "bottom"
    pick: str = "choice"
    filter: Expr | None = None
    when: Expr | None = None
    limit: int | None = None
    ends_turn: bool = False
    compulsory: bool = False
    then: list[tuple] = field(default_factory=list)
    # choose = { counter = "mise", values = [1, 2, 3] }: the player chooses a number, not a card
    choose_counter: str | None = None
    choose_values: tuple[int, ...] = ()
    choose_filter: Expr | None = None  # an expression on ``value``: the numbers offered
    simultaneous: bool = False  # a secret choice, revealed with the others' at the end of the round
    answer_only: bool = False  # legal only in an answer window
    answers: Answers | None = None  # the answer window the action opens
    answers_with: tuple[str, ...] = ()  # the names written in ``answers.with``
    # pick = "set": several cards at once — size = [min, max] (expressions; None: 1, the pile's
    # size), a test on the set (reading the pseudo-zone « chosen »), where the size is written
    set_min: Expr | None = None
    set_max: Expr | None = None
    set_test: Expr | None = None
    set_where: str = ""
    # a label with values: by language, its texts and expressions (words.label_parts), else None
    label_parts: dict[str, tuple] | None = None


@dataclass(slots=True)
class Trigger:
    on: str
    card: Expr | None
    ops: list[tuple]
    source: str | None = None  # from = "deck", to = "main": on every card moved between the two
    dest: str | None = None


@dataclass(slots=True)
class Ending:
    name: str
    scope: str  # "player": true for some player; "game": true for the game
    test: Expr
    label: dict[str, str] = field(default_factory=dict)  # its words, by language (else its name)


def _label(c: Any, label: Any, parts: list[Any]) -> dict[str, str]:
    """A ``label``: a text (every language) or a table { fr = "…", en = "…" }; a problem else."""
    if isinstance(label, str):
        label = {"fr": label, "en": label}
    if not isinstance(label, dict) or not all(isinstance(v, str) for v in label.values()):
        c.add(parts + ["label"], "rulesdata.bad_label", "rulesdata.bad_label_fix")
        return {}
    return {k: str(v) for k, v in label.items()}


@dataclass(slots=True)
class Rules:
    path: str
    code: str
    name: str
    min_players: int
    max_players: int
    default_players: int | None
    options: dict[str, Any]
    source: str  # "edition" or "generated"
    into: str
    per_player_copy: bool
    generated: list[dict[str, Any]]  # generated cards (name, value, colour)
    zones: dict[str, Zone]
    counters: dict[str, Counter]
    first_player: str
    setup: list[tuple]
    turn_start: list[tuple]
    turn_end: list[tuple]
    actions: list[Action]
    triggers: list[Trigger]
    check: str
    endings: list[Ending]
    max_rounds: int
    max_turn_actions: int
    winner_by: Expr
    winner_order: str
    winner_among: str
    ties: str
    heuristic: Expr | None
    description: str = ""
    rulings: list[dict[str, Any]] = field(default_factory=list)  # [[rulings]], checked
    # [effects]: the zones the cards' effect texts (docs/effects.md) call hand, discards, deck
    effects: dict[str, str] = field(default_factory=dict)
    samples: int = 4  # [scoring] samples: deals of the unseen cards the greedy bot averages over
    horizon: str = "step"  # [scoring] horizon
    teams: Teams | None = None  # [teams]
    round_start: list[tuple] = field(default_factory=list)  # [round] start
    round_end: list[tuple] = field(default_factory=list)  # [round] end
    lists: str = "public"  # [material] lists: who knows each player's deck list (R9)
    copy_limit: int = 2  # [material] copy_limit / keyword_limits: what a re-deal of a hidden list
    keyword_limits: dict[str, int] = field(default_factory=dict)  # may draw of each card
    move_triggers: dict[tuple[str, str], list[Trigger]] = field(default_factory=dict)
    round_until: Expr | None = None  # [round] until: the round goes on until this holds
    search: str = "game"  # [scoring] search: the search bots' play-outs to the game's end or the round's
    # [end.winner] then_by / then_order: the tie-break among those equal by ``by`` (None: none)
    then_by: Expr | None = None
    then_order: str = "highest"
    names: dict[str, dict[int, dict[str, str]]] = field(default_factory=dict)  # [names]: a number's word
    text: str = ""  # the file's text: an error in play is located in it (expr_place)
    # [[coverage]]: rules counted each time an action is played (constructs.Tally)
    tallies: list[Any] = field(default_factory=list)

    @property
    def secret_choices_only(self) -> bool:
        """Whether every action is a secret choice revealed with the others' (``simultaneous``):
        the order of choosing changes nothing by the rules (the « first player » of the measures
        is only the seat that chooses first), and a greedy horizon that reads the position before
        the reveal sees no difference between its picks (``games check``'s advice)."""
        return bool(self.actions) and all(a.simultaneous for a in self.actions)


# ---------------------------------------------------------------------------------- locating keys

class _Lines:
    """A file's lines, with its table headers and ``key =`` lines indexed once, so that locating
    each of thousands of problems costs a lookup, not a pass over the file (3 000 problems of a
    170 kB file took 43 s)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.opens = [k for k, line in enumerate(self.lines) if re.match(r"^\s*\[", line)]
        self.keys: dict[str, list[int]] = {}
        for k, line in enumerate(self.lines):
            m = re.match(r'^\s*"?([^"=]*?)"?\s*=', line)
            if m:
                self.keys.setdefault(m.group(1), []).append(k)
        self._headers: dict[tuple[str, bool], list[int]] = {}

    def headers(self, part: str, array: bool) -> list[int]:
        """The lines of the headers ``[[….part]]`` (``array``) or ``[….part]``, in order."""
        got = self._headers.get((part, array))
        if got is None:
            hdr = re.compile((r"^\s*\[\[\s*([\w.]*\.)?" + re.escape(part) + r"\s*\]\]") if array
                             else (r"^\s*\[\s*([\w.]*\.)?" + re.escape(part) + r"\s*\]"))
            got = self._headers[(part, array)] = [k for k in self.opens if hdr.match(self.lines[k])]
        return got

    def within(self, found: list[int], start: int, end: int) -> list[int]:
        return found[bisect_left(found, start):bisect_left(found, end)]

    def next_open(self, after: int, part: str | None = None) -> int:
        """The first header line after ``after`` (not one of the subtables ``[part.…]`` /
        ``[[part.…]]`` when given: ``part`` is the full dotted name of the header at ``after``)."""
        for k in self.opens[bisect_right(self.opens, after):]:
            if part is None or not re.match(r"^\s*\[\[?\s*" + re.escape(part) + r"\s*\.", self.lines[k]):
                return k
        return len(self.lines)

    def name(self, k: int) -> str:
        """The dotted name of the header on line ``k`` (``[end.winner]`` -> ``end.winner``)."""
        m = re.match(r"^\s*\[\[?\s*([^\]]*?)\s*\]", self.lines[k])
        return re.sub(r"\s*\.\s*", ".", m.group(1)) if m else ""

    def key_line(self, start: int, end: int, key: str) -> int | None:
        hits = self.within(self.keys.get(key, []), start, end)
        return hits[0] if hits else None


def locate(text: str | _Lines, parts: list[Any]) -> int | None:
    """The line (1-based) of a key path such as ``["actions", 2, "when"]`` or ``["end", "winner",
    "by"]`` in the file text: the n-th ``[[actions]]`` block, then the ``when =`` line in it; a
    table is its ``[end]`` header (its range takes in its subtables ``[end.winner]``), or a
    subtable's header found without it, or a ``key =`` / ``end.winner.by =`` line (best effort:
    the nearest line)."""
    idx = text if isinstance(text, _Lines) else _Lines(text)
    start, end, found = 0, len(idx.lines), None
    i = 0
    while i < len(parts):
        part = parts[i]
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        # the table's own keys (at the top: those before the first header)
        own = idx.next_open(start) if found is not None else (idx.opens[0] if idx.opens else len(idx.lines))
        if isinstance(part, str) and isinstance(nxt, int):
            hits = idx.within(idx.headers(part, True), start, end)
            if nxt < len(hits):
                start = hits[nxt]
                found = start + 1
                end = idx.next_open(start, idx.name(start))
                i += 2
                continue
            hit = idx.key_line(start, own, part)
            return hit + 1 if hit is not None else found
        if isinstance(part, str):
            hits = idx.within(idx.headers(part, False), start, end)
            if hits:
                start = hits[0]
                found = start + 1
                end = idx.next_open(start, idx.name(start))
                i += 1
                continue
            rest = [p for p in parts[i:] if isinstance(p, str)]
            for k in range(len(rest), 0, -1):  # a key, or a dotted key « winner.by = »
                hit = idx.key_line(start, own, ".".join(rest[:k]))
                if hit is not None:
                    return hit + 1
            # no header of its own ([end] left out, [end.winner] written): its subtables are searched
        i += 1
    return found


def expr_line(idx: _Lines, line: int, source: str) -> int:
    """The line, from ``line`` to the end of its table, where the expression ``source`` is
    written as a TOML text (an operation in a list of several lines: the list's key is on
    ``line``, the expression further down); ``line`` when it is not found."""
    quoted = [q + x + q for x in {source, json.dumps(source, ensure_ascii=False)[1:-1]} for q in "\"'"]
    for k in range(line - 1, idx.next_open(line - 1)):
        if any(q in idx.lines[k] for q in quoted):
            return k + 1
    return line


def place(idx: _Lines, parts: list[Any], source: Any = None) -> int | None:
    """The line of the key path ``parts`` (:func:`locate`); inside a list of operations (a tuple
    among ``parts``) the line where the expression ``source`` is written (:func:`expr_line`)."""
    line = locate(idx, [p for p in parts if not isinstance(p, tuple)])
    if line and isinstance(source, str) and any(isinstance(p, tuple) for p in parts):
        line = expr_line(idx, line, source)
    return line


def expr_place(rules: Rules, e: Expr) -> tuple[int | None, str]:
    """The line (None when unknown) and key path of an expression of ``rules`` in its file's
    text: where an error in play is reported, as a problem found by reading the file is."""
    if not e.where:
        return None, ""
    line = place(_Lines(rules.text), list(e.where), e.source) if rules.text else None
    return line, key_text(list(e.where))


def runtime_error(rules: Rules, e: Expr, msg: str, fix: str, **values: Any) -> RulesRuntimeError:
    """The error of the expression ``e`` failing in play: the message ``msg`` and its ``fix``
    (i18n keys, with ``values``), at the line and key of ``e`` in the rules file."""
    line, key = expr_place(rules, e)
    where = (tr("rulesdata.where", file=rules.path, line=line, key=key) if line
             else tr("rulesdata.where_noline", file=rules.path, key=key) if key else rules.path)
    values.setdefault("expr", e.source)
    problem = Problem("rules-runtime", tr(msg, **values), tr(fix, **values), where)
    return RulesRuntimeError(tr("rulesdata.runtime_title", file=rules.path), problem)


def key_text(parts: list[Any]) -> str:
    out = ""
    for p in parts:
        if isinstance(p, tuple):  # inside a list of operations (not located): a place from 1, or a branch
            p = p[0]
        out += f"[{p + 1}]" if isinstance(p, int) else (("." if out else "") + str(p))
    return out


# ---------------------------------------------------------------------------------- the checker

class _Checker:
    def __init__(self, path: str, text: str) -> None:
        self.path, self.text = path, text
        self.index: _Lines | None = None  # built at the first problem
        self.problems: list[Problem] = []

    def add(self, parts: list[Any], msg: str, fix: str, **values: Any) -> None:
        if self.index is None:
            self.index = _Lines(self.text)
        line = place(self.index, parts, values.get("expr"))  # an operation in a list: its own line
        where = tr("rulesdata.where", file=self.path, line=line or "?", key=key_text(parts)) \
            if line else tr("rulesdata.where_noline", file=self.path, key=key_text(parts))
        self.problems.append(Problem("rules-file", tr(msg, **values), tr(fix, **values), where))

    def where(self, parts: list[Any]) -> str:
        """« fichier F, ligne N, clé K »: where a key is, for a problem found only in play."""
        if self.index is None:
            self.index = _Lines(self.text)
        line = locate(self.index, [p for p in parts if not isinstance(p, tuple)])
        return tr("rulesdata.where", file=self.path, line=line or "?", key=key_text(parts))

    def table(self, data: Any, parts: list[Any], *, required: bool = False) -> dict[str, Any]:
        if data is None:
            if required:
                self.add(parts, "rulesdata.missing", "rulesdata.missing_fix", key=key_text(parts))
            return {}
        if not isinstance(data, dict):
            self.add(parts, "rulesdata.not_table", "rulesdata.not_table_fix", key=key_text(parts))
            return {}
        return data

    def unknown_keys(self, data: dict[str, Any], parts: list[Any], allowed: tuple[str, ...]) -> None:
        for k in data:
            if k not in allowed:
                self.add(parts + [k], "rulesdata.unknown_key", "rulesdata.unknown_key_fix",
                         key=k, known=", ".join(allowed))

    def choice(self, data: dict[str, Any], parts: list[Any], key: str, allowed: tuple[str, ...],
               default: str) -> str:
        v = data.get(key, default)
        if v not in allowed:
            self.add(parts + [key], "rulesdata.bad_choice", "rulesdata.bad_choice_fix", key=key,
                     value=v, allowed=", ".join(allowed))
            return default
        return v

    def integer(self, data: dict[str, Any], parts: list[Any], key: str, default: int | None,
                lo: int, hi: int) -> int | None:
        v = data.get(key, default)
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            self.add(parts + [key], "rulesdata.bad_int", "rulesdata.bad_int_fix", key=key, value=v,
                     lo=lo, hi=hi)
            return default
        return v

    def bounded(self, items: Any, parts: list[Any], what: str) -> Any:
        """``items`` (a list or a table), cut to :data:`MAX_LIST` ``[what]`` with a problem when
        longer: what is past the limit is not read at all."""
        most = MAX_LIST[what]
        if isinstance(items, (list, dict)) and len(items) > most:
            self.add(parts, "rulesdata.too_many", "rulesdata.too_many_fix", key=key_text(parts),
                     count=len(items), most=most)
            return items[:most] if isinstance(items, list) else dict(list(items.items())[:most])
        return items

    def boolean(self, data: dict[str, Any], parts: list[Any], key: str, default: bool) -> bool:
        v = data.get(key, default)
        if not isinstance(v, bool):
            self.add(parts + [key], "rulesdata.bad_bool", "rulesdata.bad_bool_fix", key=key, value=v)
            return default
        return v


def load_rules(path: Path | str, *, options: dict[str, Any] | None = None,
               card_fields: CardFields | None = None) -> Rules:
    """Read and check a rules file; ``options`` override its ``[options]`` (``--rule``);
    ``card_fields``: see :func:`parse_rules_text`."""
    p = Path(path)
    return parse_rules_text(read_rules_text(p), p.name, options=options, card_fields=card_fields)


def read_rules_text(path: Path | str) -> str:
    """The text of a rules file: an ordinary UTF-8 file, at most the limit read whatever stat says
    (/dev/zero ran out of memory; a named pipe is refused, not waited on)."""
    from cardbase.bounded_io import read_bounded

    p = Path(path)
    raw = read_bounded(p, MAX_FILE_BYTES, RulesFileError, "rulesdata.file")
    if len(raw) > MAX_FILE_BYTES:
        raise RulesFileError(tr("rulesdata.too_big", file=str(p), limit=MAX_FILE_BYTES))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesFileError(tr("rulesdata.not_utf8", file=str(p))) from None


MAX_TOML_DEPTH = 20  # lists and tables nested in a rules file (tomllib recurses on each level)
MAX_KEY_PARTS = 8  # parts of a dotted key or table name (tomllib's time grows as their square)
_LONG_KEY = re.compile(r"(?:[\w-]*[ \t]*\.[ \t]*){%d,}" % MAX_KEY_PARTS)


def _shape_problem(text: str, path: str) -> Problem | None:
    """A text nested too deeply (the parser would recurse past Python's limit) or with a dotted key
    of too many parts (``a.a.a.…`` of 40 kB took 9 s to parse): found before parsing, with its line."""
    from cardbase.bounded_io import _TOML_SKIP, toml_depth

    if toml_depth(text) > MAX_TOML_DEPTH:
        lines = text.splitlines(keepends=True)
        lo, hi = 1, len(lines)  # the first line whose prefix nests too deeply
        while lo < hi:
            mid = (lo + hi) // 2
            if toml_depth("".join(lines[:mid])) > MAX_TOML_DEPTH:
                hi = mid
            else:
                lo = mid + 1
        return Problem("rules-toml", tr("rulesdata.too_deep", file=path, max=MAX_TOML_DEPTH),
                       tr("rulesdata.too_deep_fix"), tr("rulesdata.where_line", file=path, line=lo))
    for line_no, line in enumerate(_TOML_SKIP.sub('""', text).splitlines(), 1):
        if _LONG_KEY.search(line):  # (strings and comments are out of the way: "1.5" is no key)
            return Problem("rules-toml", tr("rulesdata.long_key", file=path, max=MAX_KEY_PARTS),
                           tr("rulesdata.long_key_fix"), tr("rulesdata.where_line", file=path, line=line_no))
    return None


def _unclosed_brace(text: str, error: str) -> int | None:
    """The line (from 1) of a TOML error (« … (at line 84, column 48) »), or the line before it,
    when it opens an inline table ``{`` it does not close — TOML wants an inline table on one line (its lists
    may span several), so a newline in it is the likely cause. Braces in strings and comments
    are not counted."""
    found = re.search(r"at line (\d+)", error)
    if not found:
        return None
    lines = text.splitlines()
    n = int(found.group(1))
    return next((i + 1 for i in (n - 1, n - 2) if 0 <= i < len(lines) and _open_braces(lines[i]) > 0), None)


def _open_braces(line: str) -> int:
    """``{`` less ``}`` on one line of TOML, outside its strings and its comment."""
    depth, quote, i = 0, "", 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            break
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        i += 1
    return depth


def parse_rules_text(text: str, path: str = "<règles>", *, options: dict[str, Any] | None = None,
                     card_fields: CardFields | None = None) -> Rules:
    """The checked rules of ``text``. ``card_fields(code)``: the figures (stats) of the game's
    cards when they come from an edition or decks (None when the caller knows no card of the
    game): an expression reading a field no card has is then a problem, as for generated cards."""
    shape = _shape_problem(text, path)  # before the parser recurses (RecursionError) or crawls
    if shape is not None:
        raise RulesFileError(tr("rulesdata.title", file=path), [shape])
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        fix = tr("rulesdata.toml_fix")
        line = _unclosed_brace(text, str(exc))
        if line:  # a newline inside an inline table: say TOML's rule
            fix += " " + tr("rulesdata.toml_inline_fix", line=line)
        raise RulesFileError(tr("rulesdata.title", file=path),
                             [Problem("rules-toml", tr("rulesdata.toml", error=str(exc)), fix, path)]) from None
    c = _Checker(path, text)
    rules = _build(c, data, path, options or {}, card_fields)
    if c.problems:
        raise RulesFileError(tr("rulesdata.title", file=path), c.problems)
    assert rules is not None
    rules.text = text
    return rules


def _option_in_bounds(v: Any) -> bool:
    if isinstance(v, bool):
        return True
    if isinstance(v, int):
        return abs(v) <= MAX_OPTION_INT
    return not isinstance(v, str) or len(v) <= MAX_OPTION_TEXT


TOP_KEYS = ("game", "options", "material", "zones", "counters", "setup", "turn", "actions",
            "triggers", "end", "scoring", "rulings", "effects", "teams", "round", "names", "coverage")
RULING_KEYS = ("code", "title", "text", "option", "allowed", "bounds", "contested", "alternatives")


def _build(c: _Checker, data: dict[str, Any], path: str, overrides: dict[str, Any],
           card_fields: CardFields | None = None) -> Rules | None:
    c.unknown_keys(data, [], TOP_KEYS)
    game = c.table(data.get("game"), ["game"], required=True)
    c.unknown_keys(game, ["game"], ("code", "name", "players", "default_players", "description"))
    code = game.get("code")
    if not isinstance(code, str) or not re.fullmatch(r"[a-z][a-z0-9_-]{1,30}", code or ""):
        c.add(["game", "code"], "rulesdata.bad_code", "rulesdata.bad_code_fix", value=code)
        code = "?"
    name = game.get("name", code)
    players = game.get("players", [2, 2])
    if (not isinstance(players, list) or len(players) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in players)
            or not 1 <= players[0] <= players[1] <= 12):
        c.add(["game", "players"], "rulesdata.bad_players", "rulesdata.bad_players_fix", value=players)
        players = [2, 2]
    default_players = c.integer(game, ["game"], "default_players", None, players[0], players[1])

    opts = dict(c.bounded(c.table(data.get("options"), ["options"]), ["options"], "options"))
    for k, v in opts.items():
        if not isinstance(v, (int, str, bool)) or not re.fullmatch(r"[a-z_][a-z0-9_]*", k):
            c.add(["options", k], "rulesdata.bad_option", "rulesdata.bad_option_fix", key=k)
        elif not _option_in_bounds(v):
            c.add(["options", k], "rulesdata.option_bounds", "rulesdata.option_bounds_fix", key=k,
                  value=str(v)[:40], most=MAX_OPTION_INT, chars=MAX_OPTION_TEXT)
    for k, v in overrides.items():
        if k not in opts:
            c.add(["options"], "rulesdata.unknown_override", "rulesdata.unknown_override_fix", key=k,
                  known=", ".join(sorted(opts)) or "—")
        elif type(v) is not type(opts[k]):
            c.add(["options", k], "rulesdata.bad_override", "rulesdata.bad_override_fix", key=k,
                  value=v, default=opts[k])
        elif not _option_in_bounds(v):
            c.add(["options", k], "rulesdata.option_bounds", "rulesdata.option_bounds_fix", key=k,
                  value=str(v)[:40], most=MAX_OPTION_INT, chars=MAX_OPTION_TEXT)
        else:
            opts[k] = v

    # zones
    zones: dict[str, Zone] = {}
    zone_list = data.get("zones", [])
    if not isinstance(zone_list, list) or not zone_list:
        c.add(["zones"], "rulesdata.no_zones", "rulesdata.no_zones_fix")
        zone_list = []
    zone_list = c.bounded(zone_list, ["zones"], "zones")
    for i, z in enumerate(zone_list):
        z = c.table(z, ["zones", i])
        c.unknown_keys(z, ["zones", i], ("name", "owner", "ordered", "visible"))
        zname = z.get("name")
        if not isinstance(zname, str) or not re.fullmatch(r"[a-z_][a-z0-9_]*", zname):
            c.add(["zones", i, "name"], "rulesdata.bad_name", "rulesdata.bad_name_fix", value=zname)
            continue
        if zname in zones:
            c.add(["zones", i, "name"], "rulesdata.duplicate", "rulesdata.duplicate_fix", value=zname)
        owner = c.choice(z, ["zones", i], "owner", ("shared", "player"), "shared")
        zones[zname] = Zone(zname, owner == "player", c.boolean(z, ["zones", i], "ordered", True),
                            c.choice(z, ["zones", i], "visible", VISIBILITY, "nobody"))

    counters: dict[str, Counter] = {}
    for k, v in c.bounded(c.table(data.get("counters"), ["counters"]), ["counters"], "counters").items():
        v = c.table(v, ["counters", k])
        c.unknown_keys(v, ["counters", k], ("start", "reset", "owner", "show"))
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", k) or k in zones:
            c.add(["counters", k], "rulesdata.bad_name", "rulesdata.bad_name_fix", value=k)
        counters[k] = Counter(k, c.integer(v, ["counters", k], "start", 0, -10**6, 10**6) or 0,
                              c.choice(v, ["counters", k], "reset", RESETS, "never"),
                              c.choice(v, ["counters", k], "owner", ("player", "table"), "player"),
                              c.boolean(v, ["counters", k], "show", True))
    for k in opts:
        if k in counters:
            c.add(["options", k], "rulesdata.name_clash", "rulesdata.name_clash_fix", value=k)

    effects: dict[str, str] = {}
    eff = c.table(data.get("effects"), ["effects"])
    c.unknown_keys(eff, ["effects"], EFFECT_ZONES)
    if eff:
        for k in EFFECT_ZONES:
            z = eff.get(k)
            if z not in zones:
                c.add(["effects", k], "rulesdata.unknown_zone", "rulesdata.unknown_zone_fix",
                      value=z, known=", ".join(zones))
            elif not zones[z].per_player:
                c.add(["effects", k], "rulesdata.effect_zone", "rulesdata.effect_zone_fix", zone=z)
            else:
                effects[k] = z

    actions_raw = data.get("actions", [])
    if not isinstance(actions_raw, list) or not actions_raw:
        c.add(["actions"], "rulesdata.no_actions", "rulesdata.no_actions_fix")
        actions_raw = []
    actions_raw = c.bounded(actions_raw, ["actions"], "actions")
    action_names = [a.get("name") for a in actions_raw if isinstance(a, dict)]
    ctx = _Ctx(c, zones, counters, opts, [n for n in action_names if isinstance(n, str)])
    ctx.tables = words.names_tables(c, data.get("names"))
    ctx.has_effects = bool(effects) and len(effects) == len(EFFECT_ZONES)
    ctx.players = (players[0], players[1])

    # material
    mat = c.table(data.get("material"), ["material"], required=True)
    c.unknown_keys(mat, ["material"], ("source", "into", "per_player", "colours", "values", "copies",
                                       "cards", "lists", "copy_limit", "keyword_limits"))
    source = c.choice(mat, ["material"], "source", SOURCES, "edition")
    into = mat.get("into")
    if into not in zones:
        c.add(["material", "into"], "rulesdata.unknown_zone", "rulesdata.unknown_zone_fix",
              value=into, known=", ".join(zones))
    per_player_copy = c.boolean(mat, ["material"], "per_player", False)
    if into in zones and per_player_copy != zones[into].per_player and source != "decks":
        c.add(["material", "per_player"], "rulesdata.copy_zone", "rulesdata.copy_zone_fix", zone=into)
    if source == "decks" and not (per_player_copy and into in zones and zones[into].per_player):
        c.add(["material", "per_player"], "rulesdata.decks_per_player", "rulesdata.decks_per_player_fix")
    generated: list[dict[str, Any]] = []
    if source == "generated":
        generated = _generated(c, mat)
        if generated:  # the cards are the file's own: every field an expression reads is known
            ctx.box = len(generated) * (players[1] if per_player_copy else 1)
            ctx.card_fields = set(CARD_FIELDS) | {k for card in generated for k in card} - {"copies"}
        if isinstance(mat.get("cards"), list):
            constructs.card_effects(c, [x for x in mat["cards"] if isinstance(x, dict)])
    elif any(k in mat for k in ("colours", "values", "cards")):
        c.add(["material", "source"], "rulesdata.edition_with_cards", "rulesdata.edition_with_cards_fix")
    if source != "generated" and card_fields is not None and code != "?":
        figures = card_fields(code)  # the edition's cards (or the decks', made of them)
        if figures is not None:
            ctx.card_fields = set(CARD_FIELDS) | set(figures)
    lists, copy_limit, keyword_limits = constructs.lists(c, mat, source, opts)
    team_rules = constructs.teams(c, data.get("teams"), players[0])
    constructs.team_visibility(c, zones, zone_list, team_rules)

    setup = c.table(data.get("setup"), ["setup"])
    c.unknown_keys(setup, ["setup"], ("first_player", "do"))
    first = c.choice(setup, ["setup"], "first_player", FIRST, "seat1")
    setup_ops = ctx.ops(setup.get("do", []), ["setup", "do"], card=False)
    turn = c.table(data.get("turn"), ["turn"])
    c.unknown_keys(turn, ["turn"], ("start", "end", "max_actions"))
    turn_start = ctx.ops(turn.get("start", []), ["turn", "start"], card=False)
    turn_end = ctx.ops(turn.get("end", []), ["turn", "end"], card=False)
    max_actions = c.integer(turn, ["turn"], "max_actions", 500, 1, 100_000) or 500
    round_start, round_end, round_until = constructs.round_ops(c, ctx, data.get("round"))

    actions: list[Action] = []
    seen: set[str] = set()
    for i, a in enumerate(actions_raw):
        a = c.table(a, ["actions", i])
        act = ctx.action(a, i)
        if act is None:
            continue
        if act.name in seen:
            c.add(["actions", i, "name"], "rulesdata.duplicate", "rulesdata.duplicate_fix", value=act.name)
        seen.add(act.name)
        actions.append(act)

    triggers: list[Trigger] = []
    move_triggers: dict[tuple[str, str], list[Trigger]] = {}
    trig_raw = c.bounded(data.get("triggers", []), ["triggers"], "triggers")
    for i, t in enumerate(trig_raw if isinstance(trig_raw, list) else []):
        t = c.table(t, ["triggers", i])
        c.unknown_keys(t, ["triggers", i], ("on", "card", "do", "from", "to"))
        if "from" in t or "to" in t:  # on every card moved between two zones
            pair = constructs.move_trigger(c, ctx, t, i)
            card = ctx.expr(t["card"], ["triggers", i, "card"], card=True) if "card" in t else None
            ops = ctx.ops(t.get("do", []), ["triggers", i, "do"], card=True)
            if pair is not None:
                move_triggers.setdefault(pair, []).append(Trigger("", card, ops, pair[0], pair[1]))
            continue
        on = t.get("on")
        act = next((x for x in actions if x.name == on), None)
        if act is None:
            c.add(["triggers", i, "on"], "rulesdata.unknown_action", "rulesdata.unknown_action_fix",
                  value=on, known=", ".join(ctx.actions))
            continue
        if act.source is None:
            c.add(["triggers", i, "on"], "rulesdata.trigger_no_card", "rulesdata.trigger_no_card_fix",
                  value=on)
        card = ctx.expr(t["card"], ["triggers", i, "card"], card=True) if "card" in t else None
        triggers.append(Trigger(on, card, ctx.ops(t.get("do", []), ["triggers", i, "do"], card=True)))

    constructs.check_actions(c, actions, triggers, team_rules)
    constructs.next_turn_simultaneous(c, ctx, actions)
    end = c.table(data.get("end"), ["end"], required=True)
    c.unknown_keys(end, ["end"], ("check", "max_rounds", "conditions", "winner"))
    check = c.choice(end, ["end"], "check", CHECKS, "round")
    max_rounds = c.integer(end, ["end"], "max_rounds", 1000, 1, 1_000_000) or 1000
    endings: list[Ending] = []
    conds = end.get("conditions", [])
    if not isinstance(conds, list) or not conds:
        c.add(["end", "conditions"], "rulesdata.no_end", "rulesdata.no_end_fix")
        conds = []
    conds = c.bounded(conds, ["end", "conditions"], "conditions")
    for i, e in enumerate(conds):
        e = c.table(e, ["end", "conditions", i])
        c.unknown_keys(e, ["end", "conditions", i], ("name", "label", "player", "game"))
        elabel = _label(c, e.get("label", {}), ["end", "conditions", i])
        ename = e.get("name", f"fin{i + 1}")
        scopes = [s for s in ("player", "game") if s in e]
        if len(scopes) != 1:
            c.add(["end", "conditions", i], "rulesdata.end_scope", "rulesdata.end_scope_fix")
            continue
        test = ctx.expr(e[scopes[0]], ["end", "conditions", i, scopes[0]], card=False)
        if test is not None:
            endings.append(Ending(str(ename), scopes[0], test, elabel))
    win = c.table(end.get("winner"), ["end", "winner"], required=True)
    c.unknown_keys(win, ["end", "winner"], ("by", "order", "among", "ties", "then_by", "then_order"))
    by = ctx.expr(win.get("by", "0"), ["end", "winner", "by"], card=False)
    order = c.choice(win, ["end", "winner"], "order", ORDERS, "highest")
    then_by = ctx.expr(win["then_by"], ["end", "winner", "then_by"], card=False) if "then_by" in win else None
    then_order = c.choice(win, ["end", "winner"], "then_order", ORDERS, "highest")
    among = c.choice(win, ["end", "winner"], "among", AMONG, "all")
    ties = c.choice(win, ["end", "winner"], "ties", TIES, "shared")
    scoring = c.table(data.get("scoring"), ["scoring"])
    c.unknown_keys(scoring, ["scoring"], ("heuristic", "samples", "horizon", "search"))
    samples = c.integer(scoring, ["scoring"], "samples", 4, 1, 64) or 4
    horizon = c.choice(scoring, ["scoring"], "horizon", HORIZONS, "step")
    search = c.choice(scoring, ["scoring"], "search", SEARCHES, "game")
    heuristic = ctx.expr(scoring["heuristic"], ["scoring", "heuristic"], card=False) \
        if "heuristic" in scoring else None

    rulings = _rulings(c, data.get("rulings", []), opts)
    tallies = constructs.tallies(c, ctx, data.get("coverage", []), actions,
                                 Zone(CHOSEN, False, False, "everyone"))
    # a zone nobody can see, whose cards no action or operation takes out and no formula reads:
    # what goes there is lost to every player (an effect's zones count as read)
    for i, z in enumerate(zone_list):
        zname = z.get("name") if isinstance(z, dict) else None
        zone = zones.get(zname) if isinstance(zname, str) else None
        if (zone is not None and zone.visible == "nobody" and zname not in ctx.used
                and zname not in effects.values()):
            c.add(["zones", i, "visible"], "rulesdata.blind_zone", "rulesdata.blind_zone_fix", zone=zname)
    if c.problems:
        return None
    return Rules(path, code, str(name), players[0], players[1], default_players, opts, source,
                 into, per_player_copy, generated, zones, counters, first, setup_ops, turn_start,
                 turn_end, actions, triggers, check, endings, max_rounds, max_actions,
                 by, order, among, ties, heuristic, str(game.get("description", "")), rulings,
                 effects, samples, horizon, team_rules, round_start, round_end, lists, copy_limit,
                 keyword_limits, move_triggers, round_until, search, then_by, then_order, ctx.tables,
                 tallies=tallies)


def _rulings(c: _Checker, raw: Any, opts: dict[str, Any]) -> list[dict[str, Any]]:
    """``[[rulings]]``: the game's numbered rulings (``cardbase.games.rulings.Ruling`` fields); an
    option's default is its value in ``[options]``."""
    out: list[dict[str, Any]] = []
    if not isinstance(raw, list):
        c.add(["rulings"], "rulesdata.not_table", "rulesdata.not_table_fix", key="rulings")
        return out
    seen: set[str] = set()
    for i, r in enumerate(c.bounded(raw, ["rulings"], "rulings")):
        r = c.table(r, ["rulings", i])
        parts: list[Any] = ["rulings", i]
        c.unknown_keys(r, parts, RULING_KEYS)
        code = r.get("code")
        if not isinstance(code, str) or not re.fullmatch(r"[A-Z]+\d+", code) or code in seen:
            c.add(parts + ["code"], "rulesdata.ruling_code", "rulesdata.ruling_code_fix", value=code)
            continue
        seen.add(code)
        texts = {}
        for key in ("title", "text"):
            v = r.get(key)
            if not (isinstance(v, dict) and isinstance(v.get("fr"), str) and isinstance(v.get("en"), str)):
                c.add(parts + [key], "rulesdata.ruling_text", "rulesdata.ruling_text_fix", key=key)
            else:
                texts[key] = {"fr": v["fr"], "en": v["en"]}
        entry: dict[str, Any] = {"code": code, "title": texts.get("title", {}), "text": texts.get("text", {}),
                                 "contested": c.boolean(r, parts, "contested", False)}
        option = r.get("option")
        if option is not None:
            if option not in opts:
                c.add(parts + ["option"], "rulesdata.unknown_override", "rulesdata.unknown_override_fix",
                      key=option, known=", ".join(sorted(opts)) or "—")
                continue
            default = opts[option]
            lists = {}
            for key in ("allowed", "alternatives"):  # lists of the option's values
                v = r.get(key, (True, False) if key == "allowed" and isinstance(default, bool) else ())
                if not isinstance(v, (list, tuple)):
                    c.add(parts + [key], "rulesdata.ruling_list", "rulesdata.ruling_list_fix",
                          key=key, value=v, example=json.dumps(_values_example(default), ensure_ascii=False))
                    v = ()
                lists[key] = tuple(v)
            allowed = lists["allowed"]
            bounds = r.get("bounds")
            if bounds is not None and not (isinstance(bounds, list) and len(bounds) == 2
                                           and all(isinstance(x, int) for x in bounds)):
                c.add(parts + ["bounds"], "rulesdata.ruling_bounds", "rulesdata.ruling_bounds_fix", value=bounds)
                bounds = None
            if (allowed and default not in allowed) or (bounds and not bounds[0] <= default <= bounds[1]):
                c.add(parts + ["option"], "rulesdata.ruling_default", "rulesdata.ruling_default_fix",
                      key=option, value=default)
            entry.update(option=option, default=default, allowed=allowed,
                         bounds=tuple(bounds) if bounds else None,
                         alternatives=lists["alternatives"])
        out.append(entry)
    return out


def _values_example(default: Any) -> list[Any]:
    """A list of an option's values to show in a message: a number's neighbours, else the default."""
    if isinstance(default, int) and not isinstance(default, bool):
        return [default - 1, default + 1]
    return [default]


def _copies(card: Any) -> int:
    n = card.get("copies", 1) if isinstance(card, dict) else 0
    return n if isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 100 else 0


def _generated(c: _Checker, mat: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    copies = c.integer(mat, ["material"], "copies", 1, 1, 20) or 1
    if "cards" in mat:
        cards = mat["cards"]
        if not isinstance(cards, list):
            c.add(["material", "cards"], "rulesdata.not_table", "rulesdata.not_table_fix", key="cards")
            return out
        for i, card in enumerate(cards):
            card = c.table(card, ["material", "cards", i])
            if not isinstance(card.get("name"), str):
                c.add(["material", "cards", i], "rulesdata.card_name", "rulesdata.card_name_fix")
                continue
            n = c.integer(card, ["material", "cards", i], "copies", 1, 0, 100) or 0
            if len(out) + n > MAX_GENERATED_CARDS:  # counted before the box is built
                c.add(["material", "cards"], "rulesdata.too_many_cards", "rulesdata.too_many_cards_fix",
                      count=sum(_copies(x) for x in cards), most=MAX_GENERATED_CARDS)
                return []
            out.extend([dict(card)] * n)
        return out
    colours = mat.get("colours")
    values = mat.get("values")
    if not (isinstance(colours, list) and colours and all(isinstance(x, str) for x in colours)):
        c.add(["material", "colours"], "rulesdata.bad_colours", "rulesdata.bad_colours_fix")
        return out
    if not (isinstance(values, list) and len(values) == 2 and all(isinstance(x, int) for x in values)
            and values[0] <= values[1] and values[1] - values[0] < 100):
        c.add(["material", "values"], "rulesdata.bad_values", "rulesdata.bad_values_fix", value=values)
        return out
    if copies * len(colours) * (values[1] - values[0] + 1) > MAX_GENERATED_CARDS:
        c.add(["material", "colours"], "rulesdata.too_many_cards", "rulesdata.too_many_cards_fix",
              count=copies * len(colours) * (values[1] - values[0] + 1), most=MAX_GENERATED_CARDS)
        return out
    for _ in range(copies):
        for col in colours:
            for v in range(values[0], values[1] + 1):
                out.append({"name": f"{v} {col}", "value": v, "colour": col})
    return out


class _Ctx:
    """Compiles the expressions and operation lists of one file against its names."""

    def __init__(self, c: _Checker, zones: dict[str, Zone], counters: dict[str, Counter],
                 options: dict[str, Any], actions: list[str]) -> None:
        self.c, self.zones, self.counters, self.options, self.actions = c, zones, counters, options, actions
        self.has_effects = False  # the file has a valid [effects] section (score(), effect)
        self.used: set[str] = set()  # zones some expression reads or some move takes cards from
        self.card_fields: set[str] | None = None  # the fields and figures of the file's own cards
        self.players = (1, 12)  # the file's player counts (a next_turn's seat is checked against them)
        self.next_turns: list[list[Any]] = []  # where a next_turn is (refused with simultaneous choices)
        self.pseudo: dict[str, Zone] = {}  # zones only expressions read (a set's « chosen »)
        self.box: int | None = None  # the cards of the material, when the file makes them
        self.tables: dict[str, dict[int, dict[str, str]]] = {}  # [names] (words.names_tables)

    def expr(self, source: Any, parts: list[Any], *, card: bool, extra: tuple[str, ...] = ()) -> Expr | None:
        e, problems = compile_expr(source, names=list(self.counters) + list(self.options) + list(extra),
                                   zones={**self.zones, **self.pseudo} if self.pseudo else self.zones,
                                   actions=self.actions, counters=self.counters,
                                   card=card, constants=self.options, number="value" in extra,
                                   tables=self.tables)
        if e is not None:
            e.where = tuple(parts)  # an error in play says this line and key
        if e is not None:
            self.used |= e.zones
            unknown = sorted(e.attrs - self.card_fields) if self.card_fields is not None else []
            for name in unknown:  # a misspelt field would read None for every card, silently
                close = difflib.get_close_matches(name, sorted(self.card_fields), n=1)
                self.c.add(parts, "rulesdata.unknown_card_field", "rulesdata.unknown_card_field_fix",
                           field=name, expr=source, known=", ".join(sorted(self.card_fields - {"stats"})),
                           guess=close[0] if close else "—")
            if unknown:
                return None
        if e is not None and {"score", "pending"} & e.calls and not self.has_effects:
            self.c.add(parts, "rulesdata.score_no_effects", "rulesdata.score_no_effects_fix", expr=source)
            return None
        for p in problems:
            self.c.add(parts, p.key, p.key + "_fix", expr=source, **dict(p.values))
        return e

    def zone(self, value: Any, parts: list[Any]) -> str | None:
        if value not in self.zones:
            self.c.add(parts, "rulesdata.unknown_zone", "rulesdata.unknown_zone_fix", value=value,
                       known=", ".join(self.zones))
            return None
        return value

    def counter(self, value: Any, parts: list[Any]) -> str | None:
        if value not in self.counters:
            self.c.add(parts, "rulesdata.unknown_counter", "rulesdata.unknown_counter_fix", value=value,
                       known=", ".join(self.counters) or "—")
            return None
        return value

    def ops(self, raw: Any, parts: list[Any], *, card: bool) -> list[tuple]:
        if not isinstance(raw, list):
            self.c.add(parts, "rulesdata.not_list", "rulesdata.not_list_fix", key=key_text(parts))
            return []
        out: list[tuple] = []
        for i, op in enumerate(self.c.bounded(raw, parts, "operations")):
            here = parts + [(i,)]  # an operation inside a list: shown, not located
            if not isinstance(op, dict):
                self.c.add(here, "rulesdata.bad_op", "rulesdata.bad_op_fix", verbs=", ".join(VERBS))
                continue
            verbs = [v for v in VERBS if v in op]
            if len(verbs) != 1:
                self.c.add(here, "rulesdata.bad_op", "rulesdata.bad_op_fix", verbs=", ".join(VERBS))
                continue
            verb = verbs[0]
            allowed = {"add": ("add", "value"), "set": ("set", "value"), "if": ("if", "then", "else"),
                       "move": ("move", "to", "pick", "count", "at", "filter"), "shuffle": ("shuffle",),
                       "deal": ("deal", "to", "count"), "end_turn": ("end_turn",),
                       "effect": ("effect",), "end_game": ("end_game",), "each": ("each", "do"),
                       "for_seat": ("for_seat", "do"), "give": ("give", "to", "seat", "pick", "count"),
                       "rotate": ("rotate", "direction"),
                       "random_seat": ("random_seat", "among", "filter"),
                       "next_turn": ("next_turn",), "reveal": ("reveal",)}[verb]
            extra = [k for k in op if k not in allowed]
            if extra:
                self.c.add(here, "rulesdata.op_keys", "rulesdata.op_keys_fix", verb=verb,
                           keys=", ".join(extra), known=", ".join(allowed))
                continue
            if verb in ("add", "set"):
                name = self.counter(op[verb], here)
                value = self.expr(op.get("value", 0), here + [("value",)], card=card)
                if name and value:
                    out.append((verb, name, value))
            elif verb == "if":
                test = self.expr(op["if"], here + [("if",)], card=card)
                # the branch's name in the key: round.end[1].then[1], .else[1] (.do[1] for each/for_seat)
                then = self.ops(op.get("then", []), here + [("then",)], card=card)
                other = self.ops(op.get("else", []), here + [("else",)], card=card)
                if test:
                    out.append(("if", test, then, other))
            elif verb in ("move", "deal"):
                src = self.zone(op[verb], here)
                dst = self.zone(op.get("to"), here)
                if src:
                    self.used.add(src)
                pick = op.get("pick", "top")
                if verb == "move" and pick not in OP_PICKS:
                    self.c.add(here, "rulesdata.bad_choice", "rulesdata.bad_choice_fix", key="pick",
                               value=pick, allowed=", ".join(OP_PICKS))
                count = self.expr(op.get("count", 1), here + [("count",)], card=card)
                if verb == "deal" and dst and not self.zones[dst].per_player:
                    self.c.add(here, "rulesdata.deal_shared", "rulesdata.deal_shared_fix", zone=dst)
                    continue
                at = op.get("at", "top")
                if verb == "move" and at not in PLACES:
                    self.c.add(here, "rulesdata.bad_choice", "rulesdata.bad_choice_fix", key="at",
                               value=at, allowed=", ".join(PLACES))
                    continue
                if src and dst and count and verb == "move" and "filter" in op:  # the cards that pass
                    flt = self.expr(op["filter"], here + [("filter",)], card=True)
                    if flt:
                        out.append(("move_if", src, dst, pick, count, at, flt))
                elif src and dst and count:
                    out.append((verb, src, dst, pick, count, at) if verb == "move"
                               else (verb, src, dst, pick, count))
            elif verb in ("shuffle", "reveal"):  # reveal: the zone's cards shown to every seat
                z = self.zone(op[verb], here)
                if z:
                    out.append((verb, z))
            elif verb == "end_turn":
                out.append(("end_turn",))
            elif verb == "each":
                each = constructs.each_op(self, op, here, card)
                if each is not None:
                    out.append(each)
            elif verb in ("for_seat", "give", "rotate", "random_seat", "next_turn"):
                more = constructs.seat_op(self, verb, op, here, card)
                if more is not None:
                    out.append(more)
            elif verb == "end_game":
                name = op["end_game"]
                if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_-]{0,30}", name):
                    self.c.add(here, "rulesdata.bad_name", "rulesdata.bad_name_fix", value=name)
                    continue
                out.append(("end_game", name))
            elif verb == "effect":
                if op["effect"] != "defausse":
                    self.c.add(here, "rulesdata.bad_choice", "rulesdata.bad_choice_fix", key="effect",
                               value=op["effect"], allowed="defausse")
                elif not card:
                    self.c.add(here, "rulesdata.effect_no_card", "rulesdata.effect_no_card_fix")
                elif not self.has_effects:
                    self.c.add(here, "rulesdata.effect_no_section", "rulesdata.effect_no_section_fix")
                else:
                    out.append(("effect",))
        return out

    def action(self, a: dict[str, Any], i: int) -> Action | None:
        c = self.c
        parts: list[Any] = ["actions", i]
        c.unknown_keys(a, parts, ("name", "label", "move", "pick", "filter", "when", "limit",
                                  "ends_turn", "compulsory", "then", "choose", "simultaneous",
                                  "answer_only", "answers", "size", "test"))
        name = a.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            c.add(parts + ["name"], "rulesdata.bad_name", "rulesdata.bad_name_fix", value=name)
            return None
        act = Action(name, _label(c, a.get("label", {}), parts))
        move = a.get("move")
        if move is not None:
            move = c.table(move, parts + ["move"])
            c.unknown_keys(move, parts + ["move"], ("from", "to", "at"))
            act.source = self.zone(move.get("from"), parts + ["move"])
            if act.source:
                self.used.add(act.source)
            act.dest = self.zone(move.get("to"), parts + ["move"])
            act.at = c.choice(move, parts + ["move"], "at", PLACES, "top")
        choose = a.get("choose")
        if choose is not None:
            choose = c.table(choose, parts + ["choose"])
            c.unknown_keys(choose, parts + ["choose"], ("counter", "values", "allowed"))
            if move is not None:
                c.add(parts + ["choose"], "rulesdata.choose_and_move", "rulesdata.choose_and_move_fix")
            act.choose_counter = self.counter(choose.get("counter"), parts + ["choose"])
            values = choose.get("values")
            if (not isinstance(values, list) or not 1 <= len(values) <= MAX_CHOICES
                    or not all(isinstance(v, int) and not isinstance(v, bool) and abs(v) <= 10**6
                               for v in values) or len(set(values)) != len(values)):
                c.add(parts + ["choose"], "rulesdata.choose_values", "rulesdata.choose_values_fix",
                      most=MAX_CHOICES, value=values)
            else:
                act.choose_values = tuple(values)
            if "allowed" in choose:
                act.choose_filter = self.expr(choose["allowed"], parts + ["choose"], card=False,
                                              extra=("value",))
        act.pick = c.choice(a, parts, "pick", PICKS + ("set",), "choice")
        if "filter" in a:
            if move is None:
                c.add(parts + ["filter"], "rulesdata.filter_no_move", "rulesdata.filter_no_move_fix")
            elif act.source and act.pick == "choice" and self.zones[act.source].visible in ("nobody", "top"):
                c.add(parts + ["filter"], "rulesdata.filter_hidden", "rulesdata.filter_hidden_fix",
                      zone=act.source)
            act.filter = self.expr(a["filter"], parts + ["filter"], card=True)
        if act.source and act.pick == "top" and not self.zones[act.source].ordered:
            c.add(parts + ["pick"], "rulesdata.top_unordered", "rulesdata.top_unordered_fix",
                  zone=act.source)
        if "when" in a:
            act.when = self.expr(a["when"], parts + ["when"], card=False)
        act.limit = c.integer(a, parts, "limit", None, 1, 10_000)
        act.ends_turn = c.boolean(a, parts, "ends_turn", False)
        act.compulsory = c.boolean(a, parts, "compulsory", False)
        if act.pick == "set" or "size" in a or "test" in a:  # several cards at once (docs: sets)
            chosen = Zone(CHOSEN, False, False, "everyone")
            constructs.set_keys(c, self, a, parts, act, move, chosen)
            self.pseudo = {CHOSEN: chosen} if act.pick == "set" else {}
        try:
            act.then = self.ops(a.get("then", []), parts + ["then"], card=move is not None and act.pick != "set")
            act.label_parts = words.label_parts(self, a.get("label"), act.label, parts + ["label"])
        finally:
            self.pseudo = {}
        constructs.action_keys(c, a, parts, act, self)
        if act.pick == "set":
            constructs.set_structures(c, parts, act)
        return act
