"""Zone-wide values and the set move of the rules language (``docs/rules-language.md``).

* **Zone-wide values**: ``min('table')``, ``max('table', 'card.value')``, ``sum('table',
  'card.points')``, ``distinct('chantier', 'card.colour')`` — the lowest, the highest, the total and
  the number of different values of an expression on each card of a zone (the seat's own pile of a
  zone of each player). A card whose value is ``None`` (a figure it lacks) is left out; an empty
  zone gives ``None`` to ``min`` and ``max``, 0 to ``sum`` and ``distinct``. In a greedy
  look-ahead a card the seat cannot see is read as any other hidden read (:class:`.engine._Unseen`).
* **The set move** (an action's ``pick = "set"``): the player chooses several cards of the
  ``move``'s zone at once — ``size = [3, 7]`` cards (numbers or expressions), each passing the
  action's ``filter``, the whole set passing its ``test`` (an expression reading the pseudo-zone
  ``chosen``). One legal action per **distinct** set: cards alike in every figure are one kind, and
  two sets made of the same kinds as often are one action (the first copies in the pile move). The
  number of candidate sets is counted (:func:`count_sets`) and checked against
  :data:`MAX_SET_CANDIDATES` before any is listed. An action id's argument is the candidate's
  number in a fixed order (by size, then the pile's kinds in their order), which depends only on
  the kinds in the pile and the sizes, so it names the same set wherever those are the same.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from cardbase.i18n import tr

from .expr import CHOSEN, RulesRuntimeError, expressions

if TYPE_CHECKING:
    from .engine import Game, State
    from .language import Action

MAX_SET_CANDIDATES = 5000  # distinct sets one set action may offer in one position, counted first
_VECTOR_CACHE_SIZE = 4096  # lists of candidate sets kept (per kinds' counts and sizes)
# the functions a test may call and still read nothing but the set (its result kept per set)
_PURE_CALLS = frozenset(("count", "count_if", "sum", "min_of", "max_of", "distinct", "having",
                         "has", "min", "max", "abs"))


# ------------------------------------------------------------------ zone-wide values

def _values(s: Any, seat: int, z: str, get: Any) -> list:
    cards = s.game.cards
    return [v for v in map(get, map(cards.__getitem__, s._pile(z, seat))) if v is not None]


def _min_of(s: Any, seat: int, z: str, get: Any) -> Any:
    vals = _values(s, seat, z, get)
    return min(vals) if vals else None


def _max_of(s: Any, seat: int, z: str, get: Any) -> Any:
    vals = _values(s, seat, z, get)
    return max(vals) if vals else None


def _distinct(s: Any, seat: int, z: str, get: Any) -> int:
    return len(set(_values(s, seat, z, get)))


def _sum_of(s: Any, seat: int, z: str, get: Any) -> int:
    total = 0
    for v in _values(s, seat, z, get):
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(tr("rulesdata.expr.runtime_sum", value=repr(v)[:60]))
        total += v
    return total


ZONE_FUNCTIONS: dict[str, Any] = {"_f_min_of": _min_of, "_f_max_of": _max_of,
                                  "_f_distinct": _distinct, "_f_sum_of": _sum_of}


# ------------------------------------------------------------------ the game's tables

def setup(game: Game) -> None:
    """The tables of the set actions: each card's kind (cards alike in every figure, unless an
    expression reads a card's ``id``), and per set action each card's class for its test (the
    figures the test reads) and whether the test reads nothing but the set (kept per set)."""
    import ast

    rules = game.rules
    game.set_actions = [k for k, a in enumerate(rules.actions) if a.pick == "set"]
    game.set_memo = {}
    game.set_vectors = {}
    game.set_groups = {}  # _groups of a pile, per action and pile, when its filter reads the card alone
    game.set_stats = {k: [0, 0, 0] for k in game.set_actions}  # [positions listed, sets tried, sets legal]
    if not game.set_actions:
        return
    reads_id = any(isinstance(node, ast.Attribute) and node.attr == "id"
                   for e in expressions(rules) for node in ast.walk(ast.parse(e.source, mode="eval")))
    kinds: dict[tuple, int] = {}
    game.card_kind = [c if reads_id else kinds.setdefault(
        (d, v.name, v.value, v.colour, v.type, v.banner, v.rarity, tuple(v.keywords or ()),
         repr(sorted(v.stats.items())), v.ref), len(kinds)) for c, (d, v) in enumerate(zip(game.defs, game.cards))]
    game.set_class = {}
    game.set_pure = {}
    options = set(rules.options)
    for k in game.set_actions:
        t = rules.actions[k].set_test
        if t is None:
            game.set_class[k] = [0] * len(game.cards)
            game.set_pure[k] = True
            continue
        fields = sorted(t.attrs | ({"keywords"} if t.calls & {"has", "having"} else set()))
        classes: dict[tuple, int] = {}
        game.set_class[k] = [classes.setdefault(
            tuple(repr(getattr(card, f, None)) for f in fields) if "id" not in fields else (card.id,),
            len(classes)) for card in game.cards]
        game.set_pure[k] = (t.zones <= {CHOSEN} and t.names <= options | {"card"} and t.calls <= _PURE_CALLS)
        game.set_memo[k] = {}


# ------------------------------------------------------------------ counting and listing the sets

def count_sets(mults: list[int], lo: int, hi: int, most: int = MAX_SET_CANDIDATES) -> int:
    """How many distinct sets of ``lo`` to ``hi`` cards the kinds held ``mults[j]`` times each
    make — counted without listing them, and given up (``most + 1``) as soon as it passes
    ``most``: a lower bound first (one card of each of ``K`` kinds, ``C(K, size)``), then the
    product of the kinds' polynomials, on the smaller of the two windows (a set and the cards it
    leaves are counted alike), each partial count checked (a kind added never lowers it)."""
    total = sum(mults)
    lo, hi = max(lo, 0), min(hi, total)
    if lo > hi:
        return 0
    K = len(mults)
    for size in (lo, hi, min(max(K // 2, lo), hi)):
        if size <= K and math.comb(K, size) > most:
            return most + 1
    if total - lo < hi:  # the complement's window is lower
        lo, hi = total - hi, total - lo
    poly = [1]
    for m in mults:
        new = [0] * min(len(poly) + m, hi + 1)
        for d, c in enumerate(poly):
            if c:
                for x in range(min(m, hi - d) + 1):
                    new[d + x] = min(new[d + x] + c, most + 1)
        poly = new
        if sum(poly[lo:hi + 1]) > most:
            return most + 1
    return sum(poly[lo:hi + 1])


def _vectors(mults: tuple[int, ...], lo: int, hi: int) -> tuple[tuple[int, ...], ...]:
    """Every set as how many cards of each kind, by size and then the kinds in their order (the
    first kinds taken first): the candidates' fixed order. Counted first by the caller."""
    K = len(mults)
    rest = [0] * (K + 1)
    for j in range(K - 1, -1, -1):
        rest[j] = rest[j + 1] + mults[j]
    out: list[tuple[int, ...]] = []
    acc = [0] * K

    def rec(j: int, left: int) -> None:
        if left == 0:
            out.append(tuple(acc))
            return
        if j == K or rest[j] < left:
            return
        for x in range(min(mults[j], left), -1, -1):
            acc[j] = x
            rec(j + 1, left - x)
        acc[j] = 0

    for size in range(lo, hi + 1):
        rec(0, size)
    return tuple(out)


def _where(a: Action, s: State) -> str:
    return a.set_where or s.rules.path


def _groups(s: State, a: Action, seat: int) -> tuple[list[int], list[list[int]]]:
    """The source pile and its eligible cards (passing the action's ``filter``) grouped by kind:
    the positions of each kind, the kinds in the order of their first card."""
    pile = s._pile(a.source, seat)
    game = s.game
    # a filter on the card alone (or none) groups a pile the same for every seat and position:
    # kept per pile (a greedy decision plays each of its sets on a copy of the same pile)
    memo = game.set_groups if game.shortcuts and (a.filter is None or game.card_memo(a.filter) is not None) \
        else None
    if memo is not None:
        key = (a.name, tuple(pile))
        found = memo.get(key)
        if found is not None:
            return pile, found
    kind = game.card_kind
    cards = game.cards
    groups: dict[int, list[int]] = {}
    for i, c in enumerate(pile):
        if a.filter is not None and not s._card_test(a.filter, seat, cards[c]):
            continue
        groups.setdefault(kind[c], []).append(i)
    out = list(groups.values())
    if memo is not None:
        if len(memo) >= _VECTOR_CACHE_SIZE:
            memo.clear()
        memo[key] = out  # read only by its callers
    return pile, out


def _candidates(s: State, a: Action, seat: int) -> tuple[list[int], list[list[int]], tuple]:
    """The pile, its kinds' positions and the candidate sets (checked against the limit first)."""
    pile, groups = _groups(s, a, seat)
    mults = tuple(map(len, groups))
    n = sum(mults)
    lo = s._number(a.set_min, seat, None) if a.set_min is not None else 1
    hi = s._number(a.set_max, seat, None) if a.set_max is not None else n
    lo, hi = max(lo, 1), min(hi, n)
    if lo > hi:
        return pile, groups, ()
    key = (mults, lo, hi)
    cache = s.game.set_vectors
    vectors = cache.get(key)
    if vectors is None:
        count = count_sets(list(mults), lo, hi)
        if count > MAX_SET_CANDIDATES:
            raise RulesRuntimeError(tr("rulesdata.set_too_many", where=_where(a, s), action=a.name,
                                       zone=a.source, cards=n, lo=lo, hi=hi, most=MAX_SET_CANDIDATES))
        if len(cache) >= _VECTOR_CACHE_SIZE:
            cache.clear()
        vectors = cache[key] = _vectors(mults, lo, hi)
    return pile, groups, vectors


def _chosen(pile: list[int], groups: list[list[int]], vec: tuple[int, ...]) -> list[int]:
    """The cards of a candidate set, in the pile's order (the first copies of each kind)."""
    return [pile[i] for i in sorted(i for g, x in zip(groups, vec) for i in g[:x])]


def choices(s: State, a: Action, k: int, seat: int) -> list[int]:
    """The numbers of the candidate sets of set action ``k`` that pass its test for ``seat``:
    each test read once per class of sets alike in what it reads (kept across positions when it
    reads nothing but the set)."""
    game = s.game
    pile, groups, vectors = _candidates(s, a, seat)
    stats = game.set_stats[k]
    stats[0] += 1
    if not vectors:
        return []
    test = a.set_test
    if test is None:
        stats[1] += len(vectors)
        stats[2] += len(vectors)
        return list(range(len(vectors)))
    cls = game.set_class[k]
    group_cls = [cls[pile[g[0]]] for g in groups]
    memo = game.set_memo[k] if game.set_pure[k] and game.shortcuts else {}
    zones = s.zones
    out = []
    for idx, vec in enumerate(vectors):
        parts: dict[int, int] = {}
        for c, x in zip(group_cls, vec):
            if x:
                parts[c] = parts.get(c, 0) + x
        key = tuple(sorted(parts.items()))
        ok = memo.get(key)
        if ok is None:
            zones[CHOSEN] = [_chosen(pile, groups, vec)]
            try:
                ok = memo[key] = bool(s._eval(test, seat))
            finally:
                del zones[CHOSEN]
            stats[1] += 1
        if ok:
            out.append(idx)
    stats[2] += len(out)
    return out


def set_cards(s: State, a: Action, seat: int, i: int) -> list[int]:
    """The cards of candidate set ``i`` of action ``a`` for ``seat`` (empty when there is none)."""
    pile, groups, vectors = _candidates(s, a, seat)
    return _chosen(pile, groups, vectors[i]) if 0 <= i < len(vectors) else []


def play(s: State, a: Action, k: int, p: int, i: int, then: bool = True) -> list[int]:
    """Set action ``a`` (number ``k``) with its candidate set ``i``, for seat ``p``: every card
    moved at once (in the pile's order, as a block on top of the zone it goes to, or under it),
    logged as one line, each card's triggers, then the action's ``then`` reading ``chosen``."""
    pile, groups, vectors = _candidates(s, a, p)
    positions = sorted(x for g, n in zip(groups, vectors[i]) for x in g[:n])
    cids = [pile[x] for x in positions]
    assert a.dest is not None and a.source is not None
    dest = s._pile(a.dest, p)
    size = len(pile)
    for x in reversed(positions):
        del pile[x]
    if s.shown:  # cards shown, moved by a player's choice: known no more
        s.shown = s.shown.difference(cids)
    base = 0 if a.at == "bottom" else len(dest)
    dest[base:base] = cids
    if s.events is not None:
        masks = tuple(s._unseen_by(a.source, x, size, a.dest, base + j, len(dest), p)
                      for j, x in enumerate(positions))
        if any(masks):
            s.unseen[len(s.events)] = masks
        s.events.append(("cards", p, tuple(cids)))
    if s.game.tallies[a.name]:  # [[coverage]] rules read the set laid
        s.zones[CHOSEN] = [cids]
        try:
            s._tally(a, p, None)
        finally:
            s.zones.pop(CHOSEN, None)
    cards = s.game.cards
    for cid in cids:
        card = cards[cid]
        for t in s.game.triggers[a.name]:
            if t.card is None or s._card_test(t.card, p, card):
                s._run(t.ops, p, card)
        if s.rules.move_triggers:  # [[triggers]] from/to
            s._moved(a.source, a.dest, p, cid)
    if then:
        run_then(s, a, p, cids)
    return cids


def run_then(s: State, a: Action, p: int, cids: list[int]) -> None:
    """The set action's ``then`` for seat ``p``, reading its cards as the pseudo-zone ``chosen``
    (at once, or when the answer window the action opened closes)."""
    if a.then:
        s.zones[CHOSEN] = [cids]
        try:
            s._run(a.then, p, None)
        finally:
            s.zones.pop(CHOSEN, None)


def names(s: State, cids: Any, seat: int | None = None, masks: Any = None) -> str:
    """The cards of a set as a log line names them: each by its name, or hidden from ``seat``."""
    cards = s.game.cards
    shown = [cards[c].name or "?" for j, c in enumerate(cids)
             if seat is None or masks is None or not masks[j] >> seat & 1]
    hidden = len(cids) - len(shown)
    if hidden:
        shown.append(tr("rulesdata.log.op.hidden_one") if hidden == 1
                     else tr("rulesdata.log.op.hidden_many", n=hidden))
    return ", ".join(shown)


def count_cards(s: State, p: int, legal: list[int], k: int, i: int) -> None:
    """:meth:`.engine.State._count_cards` in a game with set actions: every card some legal
    action could take offered once, each card of the set taken counted as taken."""
    game = s.game
    stride, choice, key, sources = game.card_info
    actions = s.rules.actions
    cov = s.card_cov[p]
    offered: set[int] = set()
    lists: dict[int, tuple] = {}
    most: dict[int, list[int]] = {}  # per set action, the most copies of each kind a legal set takes
    for x in legal:
        kk, ii = divmod(x, stride)
        if kk >= len(actions):
            continue
        if choice[kk]:
            pile = s._pile(sources[kk], p)
            if ii < len(pile):
                offered.add(key[pile[ii]])
        elif actions[kk].pick == "set":
            got = lists.get(kk)
            if got is None:
                got = lists[kk] = _candidates(s, actions[kk], p)
                most[kk] = [0] * len(got[1])
            vectors = got[2]
            if ii < len(vectors):
                m = most[kk]
                for j, n in enumerate(vectors[ii]):
                    if n > m[j]:
                        m[j] = n
    for kk, m in most.items():  # a card is offered when some legal set takes its copy
        pile, groups, _vectors = lists[kk]
        offered.update(key[pile[i]] for g, n in zip(groups, m) for i in g[:n])
    for c in offered:
        cov[c] += 1
    if choice[k]:
        cov[key[s._pile(sources[k], p)[i]] + 1] += 1
    elif actions[k].pick == "set":
        for c in set_cards(s, actions[k], p, i):
            cov[key[c] + 1] += 1
