"""Reading and checking the rules language's constructs for teams, simultaneous choices, answer
windows, rounds' operations, triggers on a move between two zones and hidden deck lists
(``docs/rules-language.md``). Called by :mod:`.language`, whose checker collects the problems
(each with its line, key and fix, in French and English)."""

from __future__ import annotations

import ast
import types
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .language import Action, Trigger, Zone, _Checker, _Ctx

SEATINGS = ("alternate", "blocks")  # [teams] seating: A B A B … or A A B B …
TEAM_ORDERS = ("seats", "teams")  # [teams] order of the turns: clockwise, or one team after the other
TEAM_VALUES = ("sum", "max", "min")  # a team's value from its seats' [end.winner] by
ANSWER_BY = ("others", "opponents", "partners", "seat")  # who may answer an action
ANSWER_UNTIL = ("first", "all")  # the first answer closes the window, or every seat is asked
EACH = ("player", "team")  # { each = "player", do = [...] }
LISTS = ("public", "hidden")  # [material] lists: who knows each player's deck list (NesPanini R9)
MAX_TEAMS = 6
AMONG_SEATS = ("others", "opponents", "partners", "all")  # { random_seat = "cible", among = ... }
DIRECTIONS = ("left", "right")  # { rotate = "main", direction = "left" }: to the next seat, the previous


@dataclass(slots=True, frozen=True)
class Teams:
    """``[teams]``: how many, how the seats are shared out, the order of the turns, a team's value."""

    count: int
    seating: str = "alternate"
    order: str = "seats"
    value: str = "sum"
    names: tuple[str, ...] = ()
    extra: str = "first"  # the teams with one more player at a count the teams do not divide

    def team_of(self, seat: int, players: int) -> int:
        """The team (from 0) of ``seat`` (from 0) at a table of ``players``: ``alternate`` A B A B…,
        the seats left over (the last ones) going to the first teams, or with ``extra = "last"`` to
        the last teams (CT vs Terror's CT1: T C C, T C T C C); ``blocks`` A A B B…, the first
        blocks one larger, or the last ones with ``extra = "last"``."""
        left = players % self.count
        if self.seating == "blocks":
            if self.extra == "last":
                return self.count - 1 - (players - 1 - seat) * self.count // players
            return seat * self.count // players
        if self.extra == "last" and left and seat >= players - left:
            return self.count - left + (seat - (players - left))
        return seat % self.count

    def name(self, team: int) -> str:
        return self.names[team] if team < len(self.names) else chr(ord("A") + team)


@dataclass(slots=True, frozen=True)
class Answers:
    """``answers = { by, with, until }`` on an action: the answer window it opens."""

    by: str
    actions: tuple[int, ...]  # the numbers of the actions an asked seat may answer with
    until: str = "first"
    seat: Any = None  # by = "seat": an expression giving the one seat asked (from 1)


def teams(c: _Checker, raw: Any, min_players: int) -> Teams | None:
    """``[teams]``, or None when the file has none."""
    if raw is None:
        return None
    data = c.table(raw, ["teams"])
    c.unknown_keys(data, ["teams"], ("count", "seating", "order", "value", "names", "extra"))
    count = c.integer(data, ["teams"], "count", 2, 2, MAX_TEAMS) or 2
    if count > min_players:
        c.add(["teams", "count"], "rulesplay.teams_players", "rulesplay.teams_players_fix",
              count=count, players=min_players)
    names = data.get("names", [])
    if not (isinstance(names, list) and all(isinstance(x, str) and 0 < len(x) <= 40 for x in names)
            and len(names) in (0, count) and len(set(names)) == len(names)):
        c.add(["teams", "names"], "rulesplay.team_names", "rulesplay.team_names_fix", count=count)
        names = []
    return Teams(count, c.choice(data, ["teams"], "seating", SEATINGS, "alternate"),
                 c.choice(data, ["teams"], "order", TEAM_ORDERS, "seats"),
                 c.choice(data, ["teams"], "value", TEAM_VALUES, "sum"), tuple(names),
                 c.choice(data, ["teams"], "extra", ("first", "last"), "first"))


def round_ops(c: _Checker, ctx: _Ctx, raw: Any) -> tuple[list[tuple], list[tuple], Any]:
    """``[round] start = [...]``, ``end = [...]``: operations at the start and the end of every
    round (the end after the simultaneous choices are revealed); ``until``: the round goes on
    around the table until the expression holds after a turn (OVERKILL's « manche »)."""
    data = c.table(raw, ["round"])
    c.unknown_keys(data, ["round"], ("start", "end", "until"))
    until = ctx.expr(data["until"], ["round", "until"], card=False) if "until" in data else None
    return (ctx.ops(data.get("start", []), ["round", "start"], card=False),
            ctx.ops(data.get("end", []), ["round", "end"], card=False), until)


def each_op(ctx: _Ctx, op: dict[str, Any], here: list[Any], card: bool) -> tuple | None:
    """``{ each = "player" | "team", do = [...] }``: the operations for every seat (or once per
    team, as its first seat), in order of play from the seat in question."""
    what = op["each"]
    if what not in EACH:
        ctx.c.add(here, "rulesdata.bad_choice", "rulesdata.bad_choice_fix", key="each", value=what,
                  allowed=", ".join(EACH))
        return None
    return ("each", what, ctx.ops(op.get("do", []), here + [("do",)], card=card))


def action_keys(c: _Checker, a: dict[str, Any], parts: list[Any], act: Action, ctx: _Ctx) -> None:
    """``simultaneous``, ``answer_only`` and ``answers`` of an action (the names of ``answers.with``
    are checked by :func:`check_actions`, once every action is known)."""
    act.simultaneous = c.boolean(a, parts, "simultaneous", False)
    act.answer_only = c.boolean(a, parts, "answer_only", False)
    if act.simultaneous and a.get("ends_turn") is False:
        c.add(parts + ["ends_turn"], "rulesplay.simultaneous_ends_turn",
              "rulesplay.simultaneous_ends_turn_fix", action=act.name)
    if act.simultaneous:
        act.ends_turn = True
    raw = a.get("answers")
    if raw is None:
        return
    data = c.table(raw, parts + ["answers"])
    c.unknown_keys(data, parts + ["answers"], ("by", "with", "until", "seat"))
    names = data.get("with")
    if not (isinstance(names, list) and names and all(isinstance(x, str) for x in names)):
        c.add(parts + ["answers"], "rulesplay.answers_with", "rulesplay.answers_with_fix", action=act.name)
        names = []
    act.answers_with = tuple(names)
    by = c.choice(data, parts + ["answers"], "by", ANSWER_BY, "others")
    seat = None
    if (by == "seat") != ("seat" in data):
        c.add(parts + ["answers"], "rulesplay.answers_seat", "rulesplay.answers_seat_fix", action=act.name)
    elif by == "seat":
        seat = ctx.expr(data["seat"], parts + ["answers"], card=act.source is not None)
    act.answers = Answers(by, (), c.choice(data, parts + ["answers"], "until", ANSWER_UNTIL, "first"), seat)


def _verbs(ops: list[tuple]) -> set[str]:
    out: set[str] = set()
    for op in ops:
        out.add(op[0])
        if op[0] == "if":
            out |= _verbs(op[2]) | _verbs(op[3])
        elif op[0] in ("each", "for_seat"):
            out |= _verbs(op[2])
    return out


def seat_op(ctx: _Ctx, verb: str, op: dict[str, Any], here: list[Any], card: bool) -> tuple | None:
    """``{ for_seat = "cible", do = [...] }`` (the operations as the seat the expression names,
    from 1), ``{ give = "main", to = "main", seat = "cible", pick = "random", count = 1 }`` (cards
    from the seat's pile to that seat's), ``{ rotate = "main", direction = "left" }`` (every
    player's pile passed to the next seat, or the previous), ``{ random_seat = "cible", among =
    "opponents", filter = "vie > 0" }`` (a seat drawn at random into a counter, 0 when none)."""
    c = ctx.c
    if verb == "random_seat":
        name = ctx.counter(op["random_seat"], here)
        among = c.choice(op, here, "among", AMONG_SEATS, "others")
        flt = ctx.expr(op["filter"], here + [("filter",)], card=card) if "filter" in op else None
        if "filter" in op and flt is None:
            return None
        return ("random_seat", name, among, flt) if name else None
    if verb == "next_turn":
        return next_turn_op(ctx, op, here, card)
    if verb == "for_seat":
        target = ctx.expr(op["for_seat"], here + [("for_seat",)], card=card)
        do = ctx.ops(op.get("do", []), here + [("do",)], card=card)
        return ("for_seat", target, do) if target is not None else None
    if verb == "rotate":
        zone = ctx.zone(op["rotate"], here)
        direction = op.get("direction", "left")
        if direction not in DIRECTIONS:
            c.add(here, "rulesdata.bad_choice", "rulesdata.bad_choice_fix", key="direction",
                  value=direction, allowed=", ".join(DIRECTIONS))
            return None
        if zone is not None and not ctx.zones[zone].per_player:
            c.add(here, "rulesplay.per_player_zone", "rulesplay.per_player_zone_fix", zone=zone, verb=verb)
            return None
        return ("rotate", zone, 1 if direction == "left" else -1) if zone else None
    src = ctx.zone(op["give"], here)
    dst = ctx.zone(op.get("to"), here)
    if src:
        ctx.used.add(src)
    if dst is not None and not ctx.zones[dst].per_player:
        c.add(here, "rulesplay.per_player_zone", "rulesplay.per_player_zone_fix", zone=dst, verb=verb)
        return None
    pick = op.get("pick", "top")
    if pick not in ("top", "random", "all"):
        c.add(here, "rulesdata.bad_choice", "rulesdata.bad_choice_fix", key="pick", value=pick,
              allowed="top, random, all")
        return None
    target = ctx.expr(op.get("seat"), here + [("seat",)], card=card)
    count = ctx.expr(op.get("count", 1), here + [("count",)], card=card)
    return ("give", src, dst, pick, count, target) if src and dst and target and count else None


def next_turn_op(ctx: _Ctx, op: dict[str, Any], here: list[Any], card: bool) -> tuple | None:
    """``{ next_turn = "best_seat('force')" }``: the seat (from 1) that plays the next turn of the
    round. Refused where no turn of the round follows (the set-up, ``[round] end``), and when the
    expression cannot give a seat: a test or a text, or a number out of range for some player count
    when it reads nothing but ``players`` and the options."""
    c = ctx.c
    where = tuple(x for x in here[:2] if isinstance(x, str))
    if where in (("setup", "do"), ("round", "end")):
        c.add(here, "rulesdata.next_turn_where", "rulesdata.next_turn_where_fix", where=".".join(where))
        return None
    target = ctx.expr(op["next_turn"], here + [("next_turn",)], card=card)
    if target is None:
        return None
    body = ast.parse(target.source, mode="eval").body
    bad: Any = None
    if isinstance(body, (ast.Compare, ast.BoolOp)) or (isinstance(body, ast.UnaryOp) and isinstance(body.op, ast.Not)):
        bad = "True / False"
    elif isinstance(body, ast.Constant) and not (isinstance(body.value, int) and not isinstance(body.value, bool)):
        bad = repr(body.value)
    elif not target.calls and target.names <= {"players"} | set(ctx.options):
        for n in range(ctx.players[0], ctx.players[1] + 1):  # a constant of the player count: try each
            v = target.bind(_CONSTANT_FUNCTIONS)(types.SimpleNamespace(n=n), 0, {}, None)
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= n:
                c.add(here, "rulesdata.next_turn_range", "rulesdata.next_turn_seat_fix", expr=target.source,
                      value=repr(v), players=n)
                return None
        target.fn = None  # bound again by the interpreter, with its functions
    if bad is not None:
        c.add(here, "rulesdata.next_turn_seat", "rulesdata.next_turn_seat_fix", expr=target.source, value=bad)
        return None
    ctx.next_turns.append(here)
    return ("next_turn", target)


_CONSTANT_FUNCTIONS: dict[str, Any] = {"__builtins__": {}}


def next_turn_simultaneous(c: _Checker, ctx: _Ctx, actions: list[Action]) -> None:
    """A ``next_turn`` in a file with secret choices: refused (each seat makes its choice once a
    round, in order of play, and the choices are played at the end of the round)."""
    if any(a.simultaneous for a in actions):
        for here in ctx.next_turns:
            c.add(here, "rulesdata.next_turn_simultaneous", "rulesdata.next_turn_simultaneous_fix")


def check_actions(c: _Checker, actions: list[Action], triggers: list[Trigger],
                  team_rules: Teams | None) -> None:
    """What simultaneous choices and answer windows cannot do, every problem at once; fills each
    window's action numbers."""
    index = {a.name: k for k, a in enumerate(actions)}
    listed: set[str] = set()
    for k, a in enumerate(actions):
        parts: list[Any] = ["actions", k]
        verbs = _verbs(a.then)
        for t in triggers:
            if t.on == a.name:
                verbs |= _verbs(t.ops)
        if a.simultaneous:
            if a.answers is not None:
                c.add(parts + ["answers"], "rulesplay.simultaneous_answers",
                      "rulesplay.simultaneous_answers_fix", action=a.name)
            for verb in sorted(verbs & {"effect", "end_turn"}):
                c.add(parts + ["then"], "rulesplay.simultaneous_op", "rulesplay.simultaneous_op_fix",
                      action=a.name, verb=verb)
        if a.answers is None:
            continue
        if a.answers.by == "partners" and team_rules is None:
            c.add(parts + ["answers"], "rulesplay.partners_no_teams", "rulesplay.partners_no_teams_fix",
                  action=a.name)
        ks = []
        for name in a.answers_with:
            listed.add(name)
            if name not in index:
                c.add(parts + ["answers"], "rulesdata.unknown_action", "rulesdata.unknown_action_fix",
                      value=name, known=", ".join(index))
                continue
            ks.append(index[name])
            b = actions[index[name]]
            why = ("answers" if b.answers is not None else "simultaneous" if b.simultaneous
                   else "ends_turn" if b.ends_turn else "")
            if why:
                c.add(["actions", index[name], why], "rulesplay.answer_cannot",
                      "rulesplay.answer_cannot_fix", action=b.name, key=why)
            answer_verbs = _verbs(b.then) | {v for t in triggers if t.on == b.name for v in _verbs(t.ops)}
            for verb in sorted(answer_verbs & {"effect", "end_turn"}):
                c.add(["actions", index[name], "then"], "rulesplay.answer_op", "rulesplay.answer_op_fix",
                      action=b.name, verb=verb)
        a.answers = Answers(a.answers.by, tuple(ks), a.answers.until, a.answers.seat)
    for k, a in enumerate(actions):
        if a.answer_only and a.name not in listed:
            c.add(["actions", k, "answer_only"], "rulesplay.answer_unused", "rulesplay.answer_unused_fix",
                  action=a.name)


def lists(c: _Checker, mat: dict[str, Any], source: str, opts: dict[str, Any]) -> tuple[str, int, dict[str, int]]:
    """``[material] lists``: who knows each player's deck list — ``"public"`` (everyone; NesPanini
    R9 public) or ``"hidden"`` (the owner only: a re-deal for a search bot draws another player's
    unseen cards from the card pool), or the name of an option holding one of the two; with
    ``copy_limit`` and ``keyword_limits`` (the deck rules' copies a re-deal may draw)."""
    raw = mat.get("lists", "public")
    value = opts.get(raw, raw) if isinstance(raw, str) and raw not in LISTS else raw
    if value not in LISTS:
        c.add(["material", "lists"], "rulesplay.lists", "rulesplay.lists_fix", value=value,
              allowed=", ".join(LISTS))
        value = "public"
    if "lists" in mat and source != "decks":
        c.add(["material", "lists"], "rulesplay.lists_not_decks", "rulesplay.lists_not_decks_fix")
    limit = c.integer(mat, ["material"], "copy_limit", 2, 1, 100) or 2
    kw = mat.get("keyword_limits", {})
    limits: dict[str, int] = {}
    if not isinstance(kw, dict):
        c.add(["material", "keyword_limits"], "rulesdata.not_table", "rulesdata.not_table_fix",
              key="keyword_limits")
    else:
        for k, v in kw.items():
            n = c.integer(kw, ["material", "keyword_limits"], k, 1, 1, 100)
            if n is not None:
                limits[k] = n
    return value, limit, limits


def move_trigger(c: _Checker, ctx: _Ctx, t: dict[str, Any], i: int) -> tuple[str, str] | None:
    """``[[triggers]] from = "deck", to = "main"``: a trigger on every card moved between the two
    zones, by an action or an operation (a draw at the start of the turn, a deal…)."""
    if "on" in t:
        c.add(["triggers", i, "from"], "rulesplay.trigger_both", "rulesplay.trigger_both_fix")
        return None
    src = ctx.zone(t.get("from"), ["triggers", i, "from"])
    dst = ctx.zone(t.get("to"), ["triggers", i, "to"])
    return (src, dst) if src and dst else None


def team_visibility(c: _Checker, zones: dict[str, Zone], zone_list: list[Any], team_rules: Teams | None) -> None:
    """A zone seen by a team (``visible = "team"``) needs ``[teams]`` and a zone of each player."""
    for i, z in enumerate(zone_list):
        name = z.get("name") if isinstance(z, dict) else None
        zone = zones.get(name) if isinstance(name, str) else None
        if zone is None or zone.visible != "team":
            continue
        if team_rules is None or not zone.per_player:
            c.add(["zones", i, "visible"], "rulesplay.team_zone", "rulesplay.team_zone_fix", zone=name)


def card_effects(c: _Checker, cards: list[dict[str, Any]]) -> None:
    """A generated card's ``keywords`` (a list of texts) and ``effect`` text (docs/effects.md) are
    checked when the file is read."""
    from cardbase.errors import EffectError
    from cardbase.games.effects import parse_effect

    seen: set[str] = set()
    for i, card in enumerate(cards):
        kws = card.get("keywords", [])
        if not (isinstance(kws, list) and all(isinstance(k, str) and 0 < len(k) <= 40 for k in kws)):
            c.add(["material", "cards", i], "rulesplay.card_effect", "rulesplay.card_effect_fix",
                  card=card.get("name"), error=repr(kws))
        text = card.get("effect")
        if text is None or (isinstance(text, str) and text in seen):
            continue
        if not isinstance(text, str):
            c.add(["material", "cards", i], "rulesplay.card_effect", "rulesplay.card_effect_fix",
                  card=card.get("name"), error=repr(text))
            continue
        try:
            parse_effect(text)
        except EffectError as exc:
            c.add(["material", "cards", i], "rulesplay.card_effect", "rulesplay.card_effect_fix",
                  card=card.get("name"), error=str(exc))
        seen.add(text)



MAX_SET_SIZE = 10_000  # a set's size written as a number (the material has at most 10,000 cards)


def _constant(e: Any) -> Any:
    """The value of an expression that reads nothing but numbers and the options (None otherwise)."""
    if e is None or e.calls or e.names:
        return None
    v = e.bind(_CONSTANT_FUNCTIONS)(None, 0, {}, None)
    e.fn = None  # bound again by the interpreter, with its functions
    return v


def set_keys(c: _Checker, ctx: _Ctx, a: dict[str, Any], parts: list[Any], act: Action, move: Any,
             chosen: Zone) -> None:
    """``pick = "set"``: several cards of the ``move``'s zone at once — ``size = [min, max]`` (or
    one size; numbers or expressions; by default from 1 to every card), ``test`` on the set (an
    expression reading the pseudo-zone ``chosen``). The zone must be one the player sees (the
    cards are chosen by what they are); a size known when the file is read is checked then."""
    from .expr import CHOSEN

    if act.pick != "set":
        for key in ("size", "test"):
            if key in a:
                c.add(parts + [key], "rulesdata.set_keys", "rulesdata.set_keys_fix", key=key, action=act.name)
        return
    if move is None:
        c.add(parts + ["pick"], "rulesdata.set_no_move", "rulesdata.set_no_move_fix", action=act.name)
        return
    if CHOSEN in ctx.zones:
        c.add(parts + ["pick"], "rulesdata.set_chosen_zone", "rulesdata.set_chosen_zone_fix", zone=CHOSEN)
    zone = ctx.zones.get(act.source) if act.source else None
    if zone is not None and not (zone.visible == "everyone"
                                 or (zone.per_player and zone.visible in ("owner", "team"))):
        c.add(parts + ["move"], "rulesdata.set_hidden", "rulesdata.set_hidden_fix", zone=zone.name,
              action=act.name)
    raw = a.get("size")
    if raw is not None:
        items = raw if isinstance(raw, list) else [raw, raw]
        ok = len(items) == 2 and all(
            (isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= MAX_SET_SIZE) or isinstance(x, str)
            for x in items)
        if not ok:
            c.add(parts + ["size"], "rulesdata.set_size", "rulesdata.set_size_fix", value=raw,
                  most=MAX_SET_SIZE)
        else:
            lo, hi = (ctx.expr(x, parts + ["size"], card=False) for x in items)
            act.set_min, act.set_max = lo, hi
            vlo, vhi = _constant(lo), _constant(hi)
            if any(v is not None and (isinstance(v, bool) or not isinstance(v, int)) for v in (vlo, vhi)):
                c.add(parts + ["size"], "rulesdata.set_size", "rulesdata.set_size_fix", value=raw,
                      most=MAX_SET_SIZE)
            elif vlo is not None and vhi is not None and vlo > vhi:
                c.add(parts + ["size"], "rulesdata.set_size_order", "rulesdata.set_size_order_fix",
                      lo=vlo, hi=vhi, action=act.name)
            elif vlo is not None and ctx.box is not None and vlo > ctx.box:
                c.add(parts + ["size"], "rulesdata.set_size_box", "rulesdata.set_size_box_fix",
                      lo=vlo, box=ctx.box, action=act.name)
    if "test" in a:
        ctx.pseudo = {CHOSEN: chosen}
        try:
            act.set_test = ctx.expr(a["test"], parts + ["test"], card=False)
        finally:
            ctx.pseudo = {}
    act.set_where = c.where(parts + ["size"] if raw is not None else parts + ["pick"])


def set_structures(c: _Checker, parts: list[Any], act: Action) -> None:
    """A set action is played in its own turn: not a secret choice, not an answer (it may open a
    window: its ``then`` runs when the window closes, reading ``chosen``)."""
    for key, on in (("simultaneous", act.simultaneous), ("answer_only", act.answer_only)):
        if on:
            c.add(parts + [key], "rulesdata.set_structures", "rulesdata.set_structures_fix", key=key,
                  action=act.name)


@dataclass(slots=True)
class Tally:
    """``[[coverage]]``: a rule of the game that is not an action of its own — a bluff, a card laid
    off colour — counted each time ``action`` is played: an occasion, and a use when ``test``
    holds, read right after the action's cards moved (``card``: the card it moved; a set action's
    cards: the zone ``chosen``), before its triggers and ``then``."""

    name: str
    label: dict[str, str]
    action: str
    test: Any  # Expr


def tallies(c: _Checker, ctx: _Ctx, raw: Any, actions: list[Action], chosen: Zone) -> list[Tally]:
    """``[[coverage]]``: each entry's ``name`` (not an action's), ``label``, ``action`` and ``test``
    (reading ``chosen``, the pseudo-zone of a set's cards, for a set action)."""
    from .expr import CHOSEN

    out: list[Tally] = []
    if not raw:
        return out
    if not isinstance(raw, list):
        c.add(["coverage"], "rulesdata.not_table", "rulesdata.not_table_fix", key="coverage")
        return out
    by_name = {a.name: a for a in actions}
    seen: set[str] = set()
    for i, t in enumerate(c.bounded(raw, ["coverage"], "coverage")):
        parts: list[Any] = ["coverage", i]
        t = c.table(t, parts)
        c.unknown_keys(t, parts, ("name", "label", "action", "test"))
        name = t.get("name")
        if not isinstance(name, str) or not name.isidentifier():
            c.add(parts + ["name"], "rulesdata.tally_name", "rulesdata.tally_name_fix", value=name)
            continue
        if name in by_name or name in seen:
            c.add(parts + ["name"], "rulesdata.tally_twice", "rulesdata.tally_twice_fix", name=name)
            continue
        seen.add(name)
        act = by_name.get(t.get("action"))  # type: ignore[arg-type]
        if act is None:
            c.add(parts + ["action"], "rulesdata.unknown_action", "rulesdata.unknown_action_fix",
                  value=t.get("action"), known=", ".join(by_name))
            continue
        if "test" not in t:
            c.add(parts, "rulesdata.tally_test", "rulesdata.tally_test_fix", name=name)
            continue
        if act.pick == "set":
            ctx.pseudo = {CHOSEN: chosen}
        try:
            test = ctx.expr(t["test"], parts + ["test"], card=act.source is not None and act.pick != "set")
        finally:
            ctx.pseudo = {}
        label = t.get("label", {})
        label = {k: str(v) for k, v in label.items()} if isinstance(label, dict) else {"fr": str(label)}
        if test is not None:
            out.append(Tally(name, label, act.name, test))
    return out

