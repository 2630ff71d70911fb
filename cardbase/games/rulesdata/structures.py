"""The interpreter's teams, simultaneous choices, answer windows, rounds' operations, triggers on a
move and hidden deck lists (``docs/rules-language.md``): the methods :class:`.engine.State` takes
from :class:`Structures`, the game-level tables :func:`more_cards` and :func:`setup` build, and the
functions the expressions call (:data:`MORE_FUNCTIONS`).

* **Teams** (``[teams]``): each seat's team, the turn order (clockwise, or one team after the
  other), the winning team(s) by the team's value, returns shared by a team.
* **Simultaneous choices** (``simultaneous = true``): a seat's choice is recorded, not played; the
  others see that the seat has chosen, never what; every choice of the round is played at its end,
  in the order they were made (« révélé »). A re-deal for a search bot chooses again, at random
  among that seat's legal choices, the secret choices it cannot see.
* **Answer windows** (``answers = { by, with, until }``): after an action's move and triggers,
  every seat asked, in seat order from the actor's left, chooses an answer or passes; the action's
  ``then`` runs when the window closes (``answered``: the answers made).
* **Hidden deck lists** (``[material] lists = "hidden"``, NesPanini ruling R9): a re-deal draws
  another player's unseen cards from the card pool.
"""

from __future__ import annotations

import functools
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardbase.i18n import current_language, tr

from . import sets, words

if TYPE_CHECKING:
    from .engine import Game

TERMINAL = -1
NO_OTHER = -10**6  # others_best() when no seat of another team holds the counter
MORE_EVENTS = ("secret", "reveal", "lost", "window", "pass", "teams_won", "random_seat")
# operations of this module (_run_more)
SEAT_VERBS = ("move_if", "for_seat", "give", "rotate", "random_seat", "next_turn")


# ------------------------------------------------------------------ expressions


def _team(s: Any, seat: int) -> int:
    return s.game.team_index[max(seat, 0)] + 1


def _team_seats(s: Any, seat: int) -> tuple[int, ...]:
    g = s.game
    return g.team_seats[g.team_index[max(seat, 0)]]


def _others_best(s: Any, seat: int, counter: str) -> int:
    g = s.game
    mine = g.team_index[max(seat, 0)]
    vals = [s.counters[q][counter] for q in range(s.n) if g.team_index[q] != mine]
    return max(vals) if vals else NO_OTHER


def _others_total(s: Any, seat: int, counter: str) -> int:
    g = s.game
    mine = g.team_index[max(seat, 0)]
    return sum(s.counters[q][counter] for q in range(s.n) if g.team_index[q] != mine)


def _best_seat(s: Any, counter: str) -> int:
    vals = [x[counter] for x in s.counters]
    best = max(vals)
    return vals.index(best) + 1 if vals.count(best) == 1 else 0


def _count_best(s: Any, counter: str) -> int:
    vals = [x[counter] for x in s.counters]
    return vals.count(max(vals))


def _cause(s: Any, seat: int) -> Any:
    return s.game.cards[s.cause_id] if s.cause_id >= 0 else s.game.no_card


MORE_FUNCTIONS: dict[str, Any] = {
    "_f_sum": lambda s, seat, z: sum(v for v in (s.game.cards[c].value for c in s._pile(z, seat))
                                     if isinstance(v, int)),
    "_f_team_total": lambda s, seat, c: sum(s.counters[q][c] for q in _team_seats(s, seat)),
    "_f_team_best": lambda s, seat, c: max(s.counters[q][c] for q in _team_seats(s, seat)),
    "_f_others_best": _others_best,
    "_f_others_total": _others_total,
    "_f_team_count": lambda s, seat, z: sum(len(s.zones[z][q]) for q in _team_seats(s, seat)),
    "_f_named": lambda s, seat, c: sum(1 for x in s.counters if x[c] == seat + 1),
    "_f_best_seat": lambda s, seat, c: _best_seat(s, c),
    "_f_count_best": lambda s, seat, c: _count_best(s, c),
    "_f_team": _team,
    "_f_teams": lambda s, seat: s.game.team_count,
    "_f_cause": _cause,
    "_f_answered": lambda s, seat: s.answered,
    "_f_actor": lambda s, seat: s.window[0] + 1 if s.window is not None else 0,
    "_f_answerer": lambda s, seat: s.answerer,
}


# ------------------------------------------------------------------ the game's tables


def more_cards(game: Game, pool: Sequence[Any] | None, card_view: Any, has: Any) -> None:
    """Before the game's effect table is built: generated cards' ``keywords`` and ``effect`` text
    (``[material] cards``), and with hidden deck lists the pool's cards a re-deal may draw (NesPanini
    ruling R9 ``hidden``): for each player, each card of the pool as many times as the deck rules
    allow, as cards of their own that no zone holds (« fantômes »). ``card_view`` and ``has``: the
    interpreter's card class and keyword test (handed over: this module does not import it)."""
    from cardbase.domain import CardDef

    r = game.rules
    game.no_card = card_view(-1)  # ``cause`` outside an answer window
    if r.source == "generated" and any("effect" in d or "keywords" in d for d in r.generated):
        box = len(r.generated)
        for i, view in enumerate(game.cards):
            d = r.generated[i % box]
            kws = tuple(d.get("keywords", ()))
            view.keywords = kws
            view.stats = {k: v for k, v in view.stats.items() if k not in ("effect", "keywords")}
            value = d.get("value")
            game.defs[i] = CardDef(id=-1, game=r.code, edition="", number=0, set_size=0, name=d["name"],
                                   value=value if isinstance(value, int) and not isinstance(value, bool)
                                   else 0, colour=d.get("colour"), keywords=kws, effect=d.get("effect"))
    game.pool_kinds = ()
    game.phantoms = []
    game.kind_of = {}
    if r.lists != "hidden" or r.source != "decks":
        return
    real = [d for d in game.defs if d is not None]
    kinds: list[Any] = []
    for d in (list(pool) if pool else real):
        if d not in kinds:
            kinds.append(d)
    game.pool_kinds = tuple(kinds)
    index = {d: j for j, d in enumerate(kinds)}
    game.kind_of = {c: index[d] for c, d in enumerate(game.defs) if d in index}
    limits = []
    for d in kinds:
        probe = card_view(-1, keywords=d.keywords)
        found = [n for kw, n in r.keyword_limits.items() if has(probe, kw)]
        limits.append(max(found) if found else r.copy_limit)
    game.pool_limits = tuple(limits)
    for _q in range(game.num_players):
        mine = []
        for d, lim in zip(kinds, limits):
            ids = []
            for _ in range(lim):
                ids.append(len(game.cards))
                game.cards.append(card_view(len(game.cards), d.name, d.value, d.colour, d.card_type,
                                            d.banner, d.rarity, d.keywords, dict(d.stats), d.ref))
                game.defs.append(d)
            mine.append(tuple(ids))
        game.phantoms.append(mine)


def setup(game: Game) -> None:
    """The game's team tables (every seat its own team without ``[teams]``), the turn orders and
    the id of « pass » in an answer window (after every action and effect choice)."""
    r, n = game.rules, game.num_players
    t = r.teams
    game.team_index = tuple(t.team_of(p, n) if t else p for p in range(n))
    game.team_count = t.count if t else n
    game.team_seats = tuple(tuple(p for p in range(n) if game.team_index[p] == k)
                            for k in range(game.team_count))
    game.team_orders = None
    if t is not None and t.order == "teams":
        orders = []
        for first in range(n):
            rows = []
            for k in range(t.count):  # each team's seats from the first at or after ``first``
                k = (game.team_index[first] + k) % t.count
                seats = game.team_seats[k]
                rows.append([q for q in seats if q >= first] + [q for q in seats if q < first])
            order = []
            while any(rows):
                for row in rows:
                    if row:
                        order.append(row.pop(0))
            orders.append(tuple(order))
        game.team_orders = tuple(orders)
    game.pass_action = game.decision_base + (n + 1) * len(game.cards) + 1


def team_name(game: Game, seat: int) -> str:
    """A seat's team, by the name ``[teams] names`` gives it (A, B… by default)."""
    assert game.rules.teams is not None
    return game.rules.teams.name(game.team_index[seat])


# ------------------------------------------------------------------ the state's methods


class Structures:
    """Teams, simultaneous choices, answer windows, rounds' operations, triggers on a move and
    hidden deck lists, as methods of :class:`.engine.State`."""

    game: Any
    rules: Any
    n: int
    player: int
    first: int
    zones: dict[str, list[list[int]]]
    counters: list[dict[str, int]]

    def _init_structures(self) -> None:
        self.window: tuple | None = None  # (actor, action number, card, seats still to ask, answers)
        self.answered = 0  # answers made in the last window (its opener's ``then`` reads it)
        self.answerer = 0  # the seat (from 1) of the last answer made in it, 0: none
        self.window_cards: tuple[int, ...] = ()  # the cards of a set action that opened the window
        self.cause_id = -1  # the card of the action that opened the last window
        self.secret: tuple[tuple[int, int, int], ...] = ()  # (seat, action number, card or number)
        self._in_trigger = False
        self.turn_shift = 0  # the round's order of turns moved on by next_turn (_seat_at)
        self.next_seat = -1  # the seat (from 0) a next_turn named for the next turn, -1: none
        if self.rules.teams is not None:  # the batch reports' teams (cardbase.playtest.games)
            self.team_of = functools.partial(team_name, self.game)

    # -------------------------------------------------------------- turn order and teams

    def _seat_at(self, i: int) -> int:
        """The seat of the ``i``-th turn of the round (from its first player; past the last seat,
        around the table again)."""
        orders = self.game.team_orders
        i += self.turn_shift
        return (self.first + i) % self.n if orders is None else orders[self.first][i % self.n]

    def _point_next(self) -> None:
        """``next_turn`` named a seat: the turn ``seat_index`` is that seat's, and the round's order
        goes on from it (the next seat in order of play, the team order with ``[teams]``)."""
        q, self.next_seat = self.next_seat, -1
        orders = self.game.team_orders
        j = (q - self.first) % self.n if orders is None else list(orders[self.first]).index(q)
        self.turn_shift = (j - self.seat_index) % self.n

    def _next_in_round(self, p: int) -> bool:
        """Another turn in this round: while a seat has not played, or with ``[round] until`` while
        the expression does not hold after the turn of ``p`` — a round past the safety net (every
        seat ``max_rounds`` times) ends the game (``round_limit``)."""
        until = self.rules.round_until
        if until is None:
            return self.seat_index < self.n
        if self._eval(until, p):
            return False
        if self.seat_index >= self.n * self.rules.max_rounds:
            self._finish("round_limit", [])
            return False
        return True

    def _teammates(self, a: int, b: int) -> bool:
        return a >= 0 and b >= 0 and self.game.team_index[a] == self.game.team_index[b]

    def _team_value(self, team: int, by: Any = None) -> Any:
        r = self.rules
        vals = [self._eval(by or r.winner_by, q) for q in self.game.team_seats[team]]
        how = r.teams.value
        return sum(vals) if how == "sum" else max(vals) if how == "max" else min(vals)

    def _team_winners(self, candidates: list[int], log: bool = True) -> list[int]:
        """The seats of the winning team(s): the best team value among the teams of ``candidates``
        (in order of play from the round's first player), ``ties`` as for seats; ``log``: the
        result is logged."""
        r, g = self.rules, self.game
        teams: list[int] = []
        for p in candidates:
            if g.team_index[p] not in teams:
                teams.append(g.team_index[p])
        vals = {k: self._team_value(k) for k in teams}
        best = (max if r.winner_order == "highest" else min)(vals.values())
        top = [k for k in teams if vals[k] == best]
        if len(top) > 1 and r.then_by is not None:  # the tie-break, made a team's as by is
            then = {k: self._team_value(k, r.then_by) for k in top}
            first = (max if r.then_order == "highest" else min)(then.values())
            top = [k for k in top if then[k] == first]
        if r.ties == "first":
            top = top[:1]
        if log:
            self._log("teams_won", tuple(top))
        return sorted(q for k in top for q in g.team_seats[k])

    def _team_returns(self) -> list[float]:
        """Each winning team's seats share +1 between the winning teams, each losing team's −1
        (one team wins: +1 to each of its seats, −1 to each other seat)."""
        idx = self.game.team_index
        won = {idx[p] for p in self.winners}
        k, total = len(won), self.game.team_count
        if k == 0 or k == total:
            return [0.0] * self.n
        return [1.0 / k if idx[p] in won else -1.0 / (total - k) for p in range(self.n)]

    def team_standing(self) -> dict[str, float]:
        """Each team's value (``[end.winner] by`` made a team's by ``[teams] value``), higher is
        better (the measures of a good game)."""
        sign = 1 if self.rules.winner_order == "highest" else -1
        return {self.rules.teams.name(k): sign * self._team_value(k) for k in range(self.game.team_count)}

    # -------------------------------------------------------------- operations

    def _run_each(self, op: tuple, seat: int, card: Any) -> None:
        """``{ each = "player" | "team", do = [...] }``: in seat order from the seat in question."""
        start = seat if seat >= 0 else self.first
        seats = [(start + i) % self.n for i in range(self.n)]
        if op[1] == "team":
            done: set[int] = set()
            mine = []
            for q in seats:
                if self.game.team_index[q] not in done:
                    done.add(self.game.team_index[q])
                    mine.append(q)
            seats = mine
        for q in seats:
            self._run(op[2], q, card)
            if self.player == TERMINAL:
                return

    def _target(self, e: Any, seat: int, card: Any) -> int:
        """The seat (from 0) an expression names by its number (from 1): a clear error otherwise."""
        from .language import runtime_error

        v = self._number(e, seat, card)
        if not 1 <= v <= self.n:
            raise runtime_error(self.rules, e, "rulesplay.runtime_seat", "rulesplay.runtime_seat_fix",
                                value=v, players=self.n)
        return v - 1

    def _run_more(self, op: tuple, seat: int, card: Any) -> None:
        """``move`` with a ``filter``, ``for_seat``, ``give``, ``rotate``, ``random_seat``,
        ``next_turn``."""
        verb = op[0]
        if verb == "random_seat":
            self._random_seat(op, seat, card)
        elif verb == "for_seat":
            self._run(op[2], self._target(op[1], seat, card), card)
        elif verb == "next_turn":  # who plays the next turn of the round (_point_next)
            self.next_seat = self._target(op[1], seat, card)
        elif verb == "rotate":
            piles = self.zones[op[1]]
            k = op[2]
            piles[:] = [piles[(q - k) % self.n] for q in range(self.n)]  # seat q gets q - k's pile
            if self.ops_log is not None:
                self._op_log("rotate", -1, op[1], k)
        elif verb == "give":
            _, src, dst, pick, count, target = op
            a = self._pile(src, seat)
            to = self._target(target, seat, card)
            b = self.zones[dst][to]
            k = len(a) if pick == "all" else self._number(count, seat, card)
            moved: list | None = [] if self.ops_log is not None else None
            for _ in range(min(k, len(a))):
                i = self.rng.randrange(len(a)) if pick == "random" else len(a) - 1
                b.append(a.pop(i))
                if moved is not None:
                    moved.append((b[-1], self._unseen_by(src, i, len(a) + 1, dst, len(b) - 1, len(b),
                                                         max(seat, 0), to)))
            if moved:
                self._op_log("move", seat, src, dst, tuple(moved), to)
        else:  # move_if: only the cards that pass the filter, for the seat (every player's in the set-up)
            _, src, dst, pick, count, at, flt = op
            zs = self.rules.zones
            if seat < 0 and zs[src].per_player and zs[dst].per_player:
                pairs = list(zip(self.zones[src], self.zones[dst]))
            else:
                pairs = [(self._pile(src, seat), self._pile(dst, seat))]
            cards = self.game.cards
            for who, (a, b) in enumerate(pairs):
                owner = who if len(pairs) > 1 else max(seat, 0)
                ok = [i for i, c in enumerate(a) if self._eval(flt, owner, cards[c])]
                k = len(ok) if pick == "all" else max(0, min(self._number(count, seat, card), len(ok)))
                if pick == "random":
                    chosen = sorted(self.rng.sample(ok, k))
                else:
                    chosen = ok[len(ok) - k:]  # from the top
                taken = [a[i] for i in chosen]
                # who saw each card where it was (before any left), for the log
                seen = [self._unseen_by(src, i, len(a), src, i, len(a), owner) for i in chosen] \
                    if self.ops_log is not None else None
                for i in reversed(chosen):
                    del a[i]
                moved = []
                for c, mask in zip(reversed(taken), reversed(seen or [0] * len(taken))):
                    if at == "bottom":  # the top card first, as a plain move
                        b.insert(0, c)
                    else:
                        b.append(c)
                    if seen is not None:  # unseen there and where it goes
                        moved.append((c, mask & self._unseen_by(dst, 0 if at == "bottom" else len(b) - 1, len(b),
                                                                dst, 0 if at == "bottom" else len(b) - 1, len(b),
                                                                owner)))
                    if (src, dst) in self.rules.move_triggers:
                        self._moved(src, dst, owner, c)
                if moved:
                    self._op_log("move", who if len(pairs) > 1 else seat, src, dst, tuple(moved))

    def _random_seat(self, op: tuple, seat: int, card: Any) -> None:
        """``{ random_seat = "cible", among = "opponents", filter = "vie > 0" }``: a seat drawn at
        random (the state's generator, so a seeded game draws the same) among the seats ``among``
        names, seen from the seat in question — ``others`` (every seat but its own), ``opponents``
        (the other teams' seats; without ``[teams]`` every other seat), ``partners`` (its team's other
        seats), ``all`` — that pass ``filter`` (an expression read as each candidate seat: its
        counters, its zones); its number (from 1) goes into the counter of the seat in question, 0
        when no seat qualifies. The log says which seat was drawn."""
        _, name, among, flt = op
        me = max(seat, 0)
        team = self.game.team_index
        if among == "all":
            seats = list(range(self.n))
        elif among == "others":
            seats = [q for q in range(self.n) if q != me]
        elif among == "opponents":
            seats = [q for q in range(self.n) if team[q] != team[me]]
        else:  # partners
            seats = [q for q in range(self.n) if q != me and team[q] == team[me]]
        if flt is not None:
            seats = [q for q in seats if self._eval(flt, q, card)]
        drawn = seats[self.rng.randrange(len(seats))] + 1 if seats else 0
        self.counters[me][name] = drawn
        self._log("random_seat", me, drawn)

    def _moved(self, src: str, dst: str, owner: int, cid: int) -> None:
        """Triggers on a card moved from ``src`` to ``dst`` (``[[triggers]] from/to``), for the
        player whose pile it went to (or came from). A trigger's own moves trigger nothing."""
        found = self.rules.move_triggers.get((src, dst))
        if not found or self._in_trigger:
            return
        card = self.game.cards[cid]
        self._in_trigger = True
        try:
            for t in found:
                if t.card is None or self._eval(t.card, owner, card):
                    self._run(t.ops, owner, card)
        finally:
            self._in_trigger = False

    def _round_start_ops(self) -> None:
        self._run(self.rules.round_start, self.first, None)
        self._ending = False

    def _round_over(self) -> bool:
        """The end of a round: the simultaneous choices revealed and played, then ``[round] end``.
        True when the game ended there."""
        if self.secret:
            self._reveal()
        if self.player != TERMINAL and self.rules.round_end:
            self._run(self.rules.round_end, self.first, None)
            self._ending = False
        return self.player == TERMINAL

    # -------------------------------------------------------------- simultaneous choices

    def _choose_secret(self, p: int, k: int, i: int) -> None:
        """Seat ``p`` chose action ``k`` (position or number ``i``) secretly: recorded, not played;
        the turn ends."""
        a = self.rules.actions[k]
        arg = i
        if a.source is not None:
            pile = self._pile(a.source, p)
            arg = pile[i] if a.pick == "choice" else -1  # top or random: taken at the reveal
        self.secret = self.secret + ((p, k, arg),)
        self._log("secret", p)
        self._ending = True
        self._after_action()

    def _reveal(self) -> None:
        """Every secret choice of the round, played in the order they were made: the number set,
        the card moved (a card no longer where it was chosen is lost: ruling of the language),
        the triggers, then the action's ``then``."""
        records, self.secret = self.secret, ()
        stride = self.game.stride
        self._log("reveal")
        for seat, k, arg in records:
            a = self.rules.actions[k]
            card = None
            if a.choose_counter is not None:
                self._log("action", seat, k * stride + arg)
                self.counters[seat][a.choose_counter] = a.choose_values[arg]
            if a.source is not None:
                pile = self._pile(a.source, seat)
                if arg >= 0 and arg not in pile or not pile:
                    self._log("lost", seat, k)
                    continue
                i = pile.index(arg) if arg >= 0 else len(pile) - 1
                self._log("action", seat, k * stride + i)
                card = self._move_action(a, seat, i)
            elif a.choose_counter is None:
                self._log("action", seat, k * stride)
            self._run(a.then, seat, card)
            self._ending = False
            if self.player == TERMINAL:
                return

    def _secret_text(self, record: tuple[int, int, int]) -> str:
        seat, k, arg = record
        a = self.rules.actions[k]
        label = a.label.get(current_language()) or a.label.get("fr") or a.name
        if a.choose_counter is not None:
            return tr("rulesdata.action.number", action=label, value=a.choose_values[arg])
        if a.source is not None and arg >= 0:
            return tr("rulesdata.action.card", action=label, card=self.game.cards[arg].name)
        return label

    def _resample_secret(self, player: int, rng: random.Random) -> None:
        """A re-deal's secret choices of the other seats: chosen again at random among the seat's
        legal choices of that action in the re-dealt position (its own hand, as re-dealt); a seat
        with none keeps the record."""
        out = []
        for seat, k, arg in self.secret:
            if seat != player:
                a = self.rules.actions[k]
                done, self.done = self.done, [0] * len(self.done)  # the choice was the turn's first
                try:
                    choices = self._choices(k, seat)
                finally:
                    self.done = done
                if choices:
                    i = choices[rng.randrange(len(choices))]
                    if a.source is None:
                        arg = i
                    elif a.pick == "choice":
                        arg = self._pile(a.source, seat)[i]
            out.append((seat, k, arg))
        self.secret = tuple(out)

    def _round_ahead(self, deal: Any, action: int, p: int, r: float) -> float:
        """The greedy bot's look-ahead with ``[scoring] horizon = "round"``: its move, then the rest
        of the round played at random (seeded by ``r``) — the other seats' simultaneous choices
        included — and the heuristic once the round is over (after the reveal)."""
        s = deal._playout_copy(r)  # clone(reseed=r) counting no rule coverage
        s.cov = defaultdict(lambda: [0, 0])  # (none: any count would be thrown away)
        # the round of the decision: the last seat's choice ends it, and its look-ahead stops at
        # once — read after the move, the next round was played out too, and the last chooser
        # alone saw one more pick ahead (its seat won 60-69 % of greedy duels at Cueillette)
        start, moves = s.round, 0
        s.apply_action(action)
        if s.player != TERMINAL and s.round == start:  # seeded only when a move is left to play
            rng = random.Random(r)
            while s.player != TERMINAL and s.round == start and moves < 500:
                legal = s.legal_actions()
                s._play(legal[rng.randrange(len(legal))], legal)  # apply_action, known legal
                moves += 1
        return s.heuristic(p)

    # -------------------------------------------------------------- answer windows

    def _asked(self, actor: int, ans: Any, card: Any = None) -> tuple[int, ...]:
        by = ans.by
        seats = [(actor + i) % self.n for i in range(1, self.n)]
        if by == "seat":  # the one seat the expression names (not the actor)
            q = self._target(ans.seat, actor, card)
            return (q,) if q != actor else ()
        if by == "opponents":
            return tuple(q for q in seats if not self._teammates(q, actor))
        if by == "partners":
            return tuple(q for q in seats if self._teammates(q, actor))
        return tuple(seats)

    def _open_window(self, p: int, k: int, card: Any) -> bool:
        """After action ``k``'s move and triggers: the window it opens (False: nobody to ask)."""
        ans = self.rules.actions[k].answers
        seats = self._asked(p, ans, card)
        if not seats:
            return False
        cid = card.id if card is not None else -1
        self.window = (p, k, cid, seats, ans)
        self.answered = self.answerer = 0
        self.cause_id = cid
        said = self.events[-1] if self.rules.actions[k].label_parts and self.events else ()
        if said and said[0] == "cards":  # a set's cards logged after its action's line
            said = self.events[-2]
        # an action's label with values: the window's line says it as the action's line did
        self._log(*(("window", p, k, said[3]) if len(said) > 3 and said[0] == "action" else ("window", p, k)))
        self.player = seats[0]
        self._legal = None
        return True

    def _window_actions(self) -> list[int]:
        """The asked seat's answers (the actions ``with`` names, legal for that seat), then « pass »
        — unless an answer marked ``compulsory`` is legal."""
        stride = self.game.stride
        seat = self.player
        out: list[int] = []
        forced: list[int] = []
        for k in self.window[4].actions:
            ids = [k * stride + i for i in self._choices(k, seat)]
            out.extend(ids)
            if self.rules.actions[k].compulsory:
                forced.extend(ids)
        return forced or out + [self.game.pass_action]

    def _answer(self, action: int) -> None:
        from cardbase.games.frame import IllegalActionError

        seat = self.player
        legal = self._window_actions()
        if action not in legal:
            raise IllegalActionError(tr("rulesdata.illegal.action", player=seat + 1,
                                        action=self.action_to_string(action),
                                        legal=", ".join(self.action_to_string(x) for x in legal)))
        self._legal = None
        self.history.append(action)
        actor, k0, cid, seats, ans = self.window
        stride = self.game.stride
        counted = not self._pause and self._counted
        if counted:  # rule coverage, as for an action of a turn: each answer the seat could make,
            # whether it answered or let it pass (a pass is an occasion not taken)
            for kk in {x // stride for x in legal if x != self.game.pass_action}:
                self.cov[self.rules.actions[kk].name][0] += 1
        if action == self.game.pass_action:
            self._log("pass", seat)
        else:
            k, i = divmod(action, stride)
            a = self.rules.actions[k]
            if counted:
                self.cov[a.name][1] += 1
                if self.counts_cards:
                    self._count_cards(seat, [x for x in legal if x != self.game.pass_action], k, i)
            self._log(*(("action", seat, action) if a.label_parts is None
                        else ("action", seat, action, words.label(self, a, seat))))
            card = None
            if a.choose_counter is not None:
                self.counters[seat][a.choose_counter] = a.choose_values[i]
            if a.source is not None:
                card = self._move_action(a, seat, i)
            self._run(a.then, seat, card)
            self._ending = False
            self.answered += 1
            self.answerer = seat + 1
            if self.player == TERMINAL:  # an end_game operation of the answer
                self.window = None
                return
        rest = seats[1:]
        if rest and not (ans.until == "first" and self.answered):
            self.window = (actor, k0, cid, rest, ans)
            self.player = rest[0]
            return
        self._close_window()

    def _close_window(self) -> None:
        """Back to the actor: the action's ``then`` (reading ``answered``), the end of the turn if
        it ends it, an effect, then the turn goes on."""
        actor, k, cid, _seats, _ans = self.window
        self.window = None
        self.player = actor
        a = self.rules.actions[k]
        if a.pick == "set":  # a set's then reads its cards (``chosen``)
            cards, self.window_cards = self.window_cards, ()
            sets.run_then(self, a, actor, list(cards))
            self._after_move(actor, a, None, then=False)
        else:
            self._after_move(actor, a, self.game.cards[cid] if cid >= 0 else None)
        self.answered, self.answerer, self.cause_id = 0, 0, -1  # read by that ``then`` only

    # -------------------------------------------------------------- information

    def _event_more(self, event: tuple) -> str:
        """A line of the log for the events of this module (French or English)."""
        kind = event[0]
        if kind == "reveal":
            return tr("rulesplay.log.reveal")
        if kind == "teams_won":
            names = ", ".join(self.rules.teams.name(k) for k in event[1])
            return tr("rulesplay.log.teams_won", teams=names)
        seat = event[1] + 1
        if kind == "random_seat":
            if not event[2]:
                return tr("rulesplay.log.random_seat_none", player=seat)
            return tr("rulesplay.log.random_seat", player=seat, seat=event[2])
        if kind in ("lost", "window"):
            a = self.rules.actions[event[2]]
            label = event[3] if len(event) > 3 else (a.label.get(current_language()) or a.label.get("fr") or a.name)
            return tr(f"rulesplay.log.{kind}", player=seat, action=label)
        return tr(f"rulesplay.log.{kind}", player=seat)  # secret, pass

    def _observe_more(self, player: int, out: dict[str, Any]) -> None:
        """An answer window (public: who acted, who is asked, the answers so far) and the secret
        choices (a seat sees its own; of the others, only that they have chosen)."""
        if self.window is not None:
            actor, k, _cid, seats, _ans = self.window
            out["window"] = (actor, self.rules.actions[k].name, seats[0], self.answered)
        if self.secret:
            out["secret"] = tuple((rec[0], self._secret_text(rec) if rec[0] == player else None)
                                  for rec in self.secret)

    def window_label(self) -> str | None:
        """The words of the action whose answer window is open (its label, « Annoncer », in the
        current language; a label with values as its line in the log said it), None when no window
        is open — what a table shows the players, not the action's name in the file."""
        if self.window is None:
            return None
        k = self.window[1]
        for e in reversed(self.events or ()):
            if e[0] == "window":  # the window opened last is this one
                if len(e) > 3 and e[2] == k:
                    return e[3]
                break
        a = self.rules.actions[k]
        return a.label.get(current_language()) or a.label.get("fr") or a.name

    def _pool_deal(self, q: int, places: list[tuple[list[int], int]], rng: random.Random) -> None:
        """NesPanini ruling R9 ``hidden`` (``[material] lists``): ``q``'s unseen places dealt from
        a uniform deck of the card pool — each card of the pool as often as the deck rules allow
        (``copy_limit``, ``keyword_limits``), less the copies seen among ``q``'s other cards —
        without replacement; then from the rest of ``q``'s copies of the pool; a pool smaller than
        what is unseen leaves ``q``'s own cards in the places left."""
        g = self.game
        hidden = {(id(pile), i) for pile, i in places}
        seen: Counter[int] = Counter()
        for name, piles in self.zones.items():
            if self.rules.zones[name].per_player:
                for i, c in enumerate(piles[q]):
                    if (id(piles[q]), i) not in hidden and c in g.kind_of:
                        seen[g.kind_of[c]] += 1
        bag: list[int] = []
        rest: list[int] = []
        for j, ids in enumerate(g.phantoms[q]):
            free = max(0, g.pool_limits[j] - seen[j])
            bag.extend(ids[:free])
            rest.extend(ids[free:])
        rng.shuffle(bag)
        rng.shuffle(rest)
        drawn = (bag + rest)[:len(places)]
        for (pile, i), c in zip(places, drawn):
            pile[i] = c
