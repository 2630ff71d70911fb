"""The interpreter: any checked rules file (:mod:`.language`) played as an OpenSpiel-shaped game.

Cards are small integers indexing ``Game.cards`` (one entry per physical card). A zone is a list
of card ids whose *end* is the top. An action id is ``k * stride + i``: the rules file's action
number ``k`` and, for an action that takes a card, the card's position ``i`` in its zone (a zone the
player cannot see offers positions, a visible one offers its cards). Chance is sampled from the
state's own seeded ``random.Random``; a shuffle first puts the zone back in card order, so a seed
replays a game exactly.
"""

from __future__ import annotations

import ast
import functools
import itertools
import random
from collections.abc import Sequence
from typing import Any

from cardbase.domain import CardDef
from cardbase.errors import CardbaseError
from cardbase.games.frame import IllegalActionError  # one for every game
from cardbase.i18n import current_language, tr

from . import sets, structures, words
from .expr import CHOSEN, Expr, _called
from .expr import expressions as _expressions
from .language import Rules, RulesRuntimeError, runtime_error  # noqa: F401 (RulesRuntimeError: re-exported)
from .structures import Structures

TERMINAL = -1
# the safety net of a whole game, whatever its file's max_rounds and max_actions: actions and turns
# played (a round that [round] until keeps going and max_rounds of them made max_rounds² turns)
MAX_GAME_STEPS = 100_000
# the events an effect writes in the log (cardbase.games.effects.resolve), each a
# rulesdata.log.eff.<kind> message
# effect(card, kind): the Défausse action kinds as the effect texts write them (docs/effects.md)
EFFECT_KIND_NAMES = {"Draw": "draw", "Look": "look", "Recover": "recover", "Swap": "swap",
                     "ForceDiscard": "force_discard", "Reveal": "reveal", "Bury": "bury"}
EFFECT_EVENTS = ("effect", "draw", "bottom", "look", "take", "pick", "give", "forced", "reveal",
                 "reveal-top", "bury")
# those whose cards only their player sees (a draw, a look, a take, a card put under the deck, an
# opponent's hand or deck top seen): the other seats' logs tell them without the cards
PRIVATE_EFFECT_EVENTS = frozenset(("draw", "look", "take", "bottom", "reveal", "reveal-top"))


def _structural(event: tuple) -> bool:
    """Whether an event is one of the structures' (cardbase.games.rulesdata.structures): their
    « reveal » (the round's secret choices shown) has no argument, an effect's names its seat."""
    return event[0] != "reveal" or len(event) == 1


class CardView:
    """A card as expressions see it: ``card.value``, ``card.colour``, any stats figure…"""

    __slots__ = ("banner", "colour", "id", "keywords", "name", "rarity", "ref", "stats", "type", "value")

    def __init__(self, id: int, name: str | None = None, value: Any = None, colour: Any = None,
                 type: Any = None, banner: Any = None, rarity: Any = None, keywords: tuple = (),
                 stats: dict | None = None, ref: str = "") -> None:
        self.id, self.name, self.value, self.colour, self.type = id, name, value, colour, type
        self.banner, self.rarity, self.keywords, self.stats, self.ref = banner, rarity, keywords, stats or {}, ref

    def __getattr__(self, name: str) -> Any:  # a game's own figure (stats), None when absent
        if name.startswith("_"):
            raise AttributeError(name)
        return self.stats.get(name)


NO_CARD = CardView(-1)
_copy = list.copy
_UNSET = object()  # a value not computed yet


@functools.lru_cache(maxsize=4096)
def _fold(text: str) -> str:
    from cardbase.text import fold

    return fold(text)


@functools.lru_cache(maxsize=65536)
def _kw_set(keywords: tuple) -> frozenset:
    return frozenset(_fold(k) for k in keywords)


def _has(card: Any, keyword: str) -> bool:
    return _fold(keyword) in _kw_set(tuple(card.keywords or ()))


def _having(s: State, piles: Any, kw: Any) -> int:
    """The cards of ``piles`` with the keyword ``kw`` (a text: read from the game's table of
    each card's keywords, :meth:`Game.keyword_flags`)."""
    if type(kw) is str and s.game.shortcuts:
        flags = s.game.keyword_flags(kw)
        return sum(sum(map(flags.__getitem__, p)) for p in piles)
    return sum(1 for p in piles for c in p if _has(s.game.cards[c], kw))


@functools.cache
def _effects() -> Any:
    """The effect language's resolution (:mod:`cardbase.games.effects.resolve`), imported once used."""
    from cardbase.games.effects import resolve

    return resolve


def _top(s: State, seat: int, z: str) -> CardView:
    pile = s._pile(z, seat)
    return s.game.cards[pile[-1]] if pile else NO_CARD


# The functions of the expressions (expr.FUNCTIONS), as compiled expressions call them.
FUNCTIONS: dict[str, Any] = {
    "__builtins__": {},
    "_f_count": lambda s, seat, z: len(s._pile(z, seat)),
    "_f_top": _top,
    "_f_done": lambda s, seat, a: s.done[s.game.action_index[a]],
    "_f_can": lambda s, seat, a: bool(s._choices(s.game.action_index[a], seat)),
    "_f_total": lambda s, seat, c: sum(x[c] for x in s.counters),
    "_f_best": lambda s, seat, c: max(x[c] for x in s.counters),
    "_f_has": _has, "_f_min": min, "_f_max": max, "_f_abs": abs,
    "_f_count_all": lambda s, seat, z: sum(map(len, s.zones[z])),
    "_f_having": lambda s, seat, z, kw: _having(s, (s._pile(z, seat),), kw),
    "_f_having_all": lambda s, seat, z, kw: _having(s, s.zones[z], kw),
    "_f_score": lambda s, seat: s.effect_score(seat),
    "_f_pending": lambda s, seat, kind: s.pending_size(seat, kind) if s.queue else 0,
    "_f_count_if": lambda s, seat, z, test: _count_if(s, s._pile(z, seat), test),
}


def _count_if(s: State, pile: list[int], test: Any) -> int:
    """``count_if``: the cards of ``pile`` passing ``test`` (a function of the card). A test that
    reads nothing but the card and the options (no free variable: not the position, not the seat)
    is found once for every card of the game (:meth:`Game.card_flags`), then only looked up
    (``Game.shortcuts``)."""
    code = test.__code__
    if not code.co_freevars and s.game.shortcuts:
        flags = s.game.card_flags(code, test)
        if flags is not None:
            return sum(map(flags.__getitem__, pile))
    cards = s.game.cards
    return sum(1 for c in pile if test(cards[c]))
FUNCTIONS.update(structures.MORE_FUNCTIONS)  # teams, answer windows, sums of values
FUNCTIONS.update(sets.ZONE_FUNCTIONS)  # min, max, sum, distinct of a zone's cards
FUNCTIONS.update(words.FUNCTIONS)  # name('rang', annonce): a number's word ([names])


class _HiddenRead(Exception):
    """A look-ahead on the undealt position read a card its player cannot see, or drew chance: the
    greedy bot deals and tries again (:meth:`State.greedy_action`)."""


def _first(item: tuple) -> Any:
    return item[0]


def _hidden_read(*_args: Any, **_kw: Any) -> Any:
    raise _HiddenRead


class _PartlyHidden(_HiddenRead):
    """The search on the undealt position (:meth:`State._search_undealt`) found some look-aheads
    that read a hidden card or drew chance, and the others' values: ``known`` maps an action to the
    sum its deals would give (every deal gives its undealt value), or to None for a copy of a card
    whose first copy has a value (never better); the actions it does not hold are played on the
    deals (:meth:`State._greedy`)."""

    def __init__(self, known: dict[int, float | None]) -> None:
        super().__init__()
        self.known = known


class _Unseen:
    """A card the greedy bot cannot see, in a look-ahead on the undealt position: it may be moved
    and counted, but any use of it — as a card id, in a comparison, a sum, a set, a text — stops
    the look-ahead (:class:`_HiddenRead`). Each hidden place holds its own, so a card is only
    ever itself."""

    __slots__ = ()
    __index__ = __int__ = __hash__ = __bool__ = __str__ = __format__ = _hidden_read
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _hidden_read
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __mod__ = __rmod__ = _hidden_read
    __floordiv__ = __rfloordiv__ = __truediv__ = __rtruediv__ = __neg__ = __pos__ = __abs__ = _hidden_read
    __getattr__ = _hidden_read


_UNSEEN_RING = list(map(object.__new__, itertools.repeat(_Unseen, 1 << 16)))
_unseen_at = [0]  # where the next unseen cards are taken from the ring


def _unseen(size: int) -> list[_Unseen]:
    """``size`` unseen cards, distinct from the last 65,536 handed out (taken in turn from a ring
    of them, which costs a slice rather than ``size`` new objects): no position that a look-ahead
    is still playing holds one twice, so an unseen card is only ever itself."""
    i = _unseen_at[0]
    if i + size > len(_UNSEEN_RING):
        if size > len(_UNSEEN_RING):
            return list(map(object.__new__, itertools.repeat(_Unseen, size)))
        i = 0
    _unseen_at[0] = i + size
    return _UNSEEN_RING[i:i + size]


def _pending_size(queue: Any, seat: int, kind: str) -> int:
    """:meth:`State.pending_size` of the effects waiting in ``queue``."""
    total = 0
    for owner, _src, a in queue:
        if owner == seat and EFFECT_KIND_NAMES.get(type(a).__name__) == kind:
            total += getattr(a, "n", 1)
    return total


class _Scored:
    """What a heuristic that reads only ``score()``, ``pending()`` and the options sees of a
    position (:meth:`State._last_scorer`, :meth:`State._move_scorer`): the seat's score given, and
    the effects waiting (none unless given)."""

    __slots__ = ("n", "queue", "value")

    def __init__(self, n: int) -> None:
        self.n, self.value, self.queue = n, 0, ()

    def effect_score(self, _seat: int) -> int:
        return self.value

    def pending_size(self, seat: int, kind: str) -> int:
        return _pending_size(self.queue, seat, kind)


class _Unread(Exception):
    """A look-ahead of the greedy bot's search on the position itself that cannot be read from the
    memo of ``score()``: the search is made again on a copy (:meth:`State._greedy_undealt`)."""


def _unread(*_args: Any) -> Any:
    raise _Unread


class _NoRng:
    """The chance of a look-ahead on the undealt position: drawing stops it (:class:`_HiddenRead`)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        raise _HiddenRead


_NO_RNG = _NoRng()


class _LazyRng:
    """A generator seeded on first use: the greedy bot's look-ahead gives every trial a seed of its
    own, and most trials draw nothing."""

    __slots__ = ("_real", "_seed")

    def __init__(self, seed: float) -> None:
        self._seed, self._real = seed, None

    def __getattr__(self, name: str) -> Any:
        if self._real is None:
            self._real = random.Random(self._seed)
        return getattr(self._real, name)

    def getstate(self) -> Any:
        if self._real is None:
            self._real = random.Random(self._seed)
        return self._real.getstate()


class EffectTable:
    """The cards' effects in the effect language (``docs/effects.md``), per card id, for a file with
    an ``[effects]`` section: score rules compiled by :func:`cardbase.games.effects.compile_score`,
    Défausse actions resolved by :mod:`cardbase.games.effects.resolve` (the same code as the
    hand-written engine). The attribute names are those that code reads."""

    def __init__(self, game: Game) -> None:
        from cardbase.games.effects import compile_score, parse_effect
        from cardbase.errors import EffectError

        self.defs: list[Any] = []
        self.legendary: list[bool] = []
        self.on_discard: list[tuple] = []
        self.score_fn: list[Any] = []
        self.value: list[int] = []
        self.reads: list[int] = []  # the zones its score rules count in (bits, see _reads)
        parsed: dict[str, Any] = {}
        effects: list[Any] = []  # each card's parsed effect (None: no effect text)
        for c, d in zip(game.cards, game.defs):
            src = (getattr(d, "effect", None) or "").strip() if d is not None else ""
            eff = None
            if src:
                eff = parsed.get(src)
                if eff is None:
                    try:
                        eff = parsed[src] = parse_effect(src)
                    except EffectError as exc:
                        raise CardbaseError(tr("rulesdata.effect_text", card=c.name, error=str(exc))) from None
            self.defs.append(d if d is not None else CardDef(id=-1, game=game.rules.code, edition="",
                                                             number=0, set_size=0, name=c.name or "",
                                                             value=c.value if isinstance(c.value, int) else 0))
            self.legendary.append(_has(c, "Légendaire"))
            self.on_discard.append(tuple(eff.on_discard) if eff is not None else ())
            self.score_fn.append(compile_score(eff) if eff is not None and eff.score else None)
            self.value.append(c.value if isinstance(c.value, int) and not isinstance(c.value, bool) else 0)
            self.reads.append(_reads(eff))
            effects.append(eff)
        self.size = len(self.defs)
        self.has_discard_effect = [bool(x) for x in self.on_discard]
        # a card's kind: the first card with the same figures (every one the score rules read, its
        # value, its effect); score() of a hand depends on the kinds it holds and reads, so it is
        # memoised under them (State.effect_score)
        kinds: dict[tuple, int] = {}
        self.kind = [kinds.setdefault((d, d.keyword_keys, v, (getattr(d, "effect", None) or "").strip()), c)
                     for c, (d, v) in enumerate(zip(self.defs, self.value))]
        # hand kinds -> (values, zones read as State._hand_values says, the fields its rules read,
        # its cards with score rules as (kind, fields read, card), the counts in the hand)
        self.hand_memo: dict[int, tuple] = {}
        self.score_memo: dict[tuple, int] = {}  # hand kinds and the counts of the zones read -> score
        self.rule_memo: dict[tuple, int] = {}  # a card's kind, the counts it may read -> its rules' score
        # the greedy bot's heuristic when it reads only score(), pending() and the options
        # (Game.score_heuristic): a score with nothing waiting -> the heuristic (State._chain_scorer,
        # State._last_scorer); (action, card moved, score) -> the heuristic with the effects that
        # move queues (State._move_scorer)
        self.heuristic_memo: dict[int, float] = {}
        self.move_values: dict[tuple, float] = {}
        z = game.rules.effects
        self.hand_zone, self.discards_zone, self.deck_zone = z["hand"], z["discards"], z["deck"]
        self._codes(effects)

    def _codes(self, effects: list[Any]) -> None:
        """The memo keys of :meth:`State.effect_score`, as sums of integers (one per card, summed
        over a zone: no sorting). ``hand_code``: a field of bits per kind, the hand's sum holds how
        many cards of each kind it has. ``own_code``, ``opp_code``, ``deck_code``: a field per
        count that a score rule reads outside the hand (the cards of the discard pile, the
        opponents' piles, the Cimetière — both — or the deck matching its filter; for a count of
        colours, a field per colour), the sum over the zone holds every such count. A hand's score
        depends on its kinds and those counts only (:mod:`cardbase.games.effects.evaluate`)."""
        from cardbase.games.effects import compile_filter

        order: dict[int, int] = {}
        copies: dict[int, int] = {}
        for k in self.kind:
            order.setdefault(k, len(order))
            copies[k] = copies.get(k, 0) + 1
        width = max(copies.values(), default=1).bit_length() + 1
        self.hand_code = [1 << (order[k] * width) for k in self.kind]
        self.hand_get = self.hand_code.__getitem__
        counts: dict[Any, None] = {}
        for eff in effects:
            for rule in eff.score if eff is not None else ():
                for count in _rule_counts(rule):
                    counts.setdefault(count, None)
        width = (self.size + 1).bit_length() + 1  # a count never reaches the number of cards + 1
        colours = sorted({d.colour for d in self.defs if d.colour}, key=str)
        self.own_code, self.opp_code, self.deck_code = [0] * self.size, [0] * self.size, [0] * self.size
        self.rule_code = [0] * self.size  # the same for the counts in the hand (State._hand_rules)
        shift = 0
        masks: dict[Any, int] = {}  # the bits of each count's fields
        for count in counts:
            start = shift
            pred = compile_filter(count.filter)
            zone = str(count.zone)
            codes = [self.deck_code] if zone == "deck" else (
                [self.rule_code] if zone == "hand" else
                [self.own_code] if zone == "discards" else
                [self.opp_code] if zone == "opponent_discards" else [self.own_code, self.opp_code])
            for colour in (colours if count.kind == "colours" else (None,)):
                for c, d in enumerate(self.defs):
                    if (pred is None or pred(d)) and (colour is None or d.colour == colour):
                        for code in codes:
                            code[c] += 1 << shift
                shift += width
            masks[count] = (1 << shift) - (1 << start)
        self.own_get, self.opp_get = self.own_code.__getitem__, self.opp_code.__getitem__
        # the fields a card's own rules read: its rules' score is memoised under them
        self.rule_mask = [0] * self.size
        for c, eff in enumerate(effects):
            for rule in eff.score if eff is not None else ():
                for count in _rule_counts(rule):
                    self.rule_mask[c] |= masks[count]
        # each card's part of a hand's memo entry (State._hand_entry): its value, the zones its
        # rules read (with 32: it has rules), its fields, (kind, fields, card) when it has rules,
        # its counts in the hand
        self.parts = [(self.value[c], (self.reads[c] | 32) if self.score_fn[c] is not None else 0,
                       self.rule_mask[c], (self.kind[c], self.rule_mask[c], c) if self.score_fn[c] is not None
                       else None, self.rule_code[c]) for c in range(self.size)]


def _rule_counts(rule: Any) -> list[Any]:
    """The counts a score rule reads: its conditions' and its ``per``."""
    return [c.count for c in rule.conditions] + ([rule.per] if rule.per is not None else [])


def _reads(effect: Any) -> int:
    """The zones a card's score rules count in, as bits: 1 hand, 2 discards, 4 Cimetière, 8 the
    opponent's discards, 16 deck (a Cimetière count needs both discard piles: 2 | 8 with it)."""
    if effect is None:
        return 0
    bits = {"hand": 1, "discards": 2, "cimetiere": 4 | 2 | 8, "opponent_discards": 8, "deck": 16}
    out = 0
    for rule in effect.score:
        for count in _rule_counts(rule):
            out |= bits[str(count.zone)]
    return out


class _EffZones:
    """The zones an effect's score rules read, from one player's side (cardbase.games.effects.evaluate)."""

    __slots__ = ("cimetiere", "deck", "discards", "hand", "opponent_discards")


class _EffectView:
    """The interpreter's state under the names the effect code reads and writes (hands, decks,
    discards as the zones of ``[effects]``; the pending choice; the end of the effect)."""

    __slots__ = ("s",)

    def __init__(self, s: State) -> None:
        self.s = s

    @property
    def hands(self) -> list[list[int]]:
        return self.s.zones[self.s.rules.effects["hand"]]

    @property
    def decks(self) -> list[list[int]]:
        return self.s.zones[self.s.rules.effects["deck"]]

    @property
    def discards(self) -> list[list[int]]:
        return self.s.zones[self.s.rules.effects["discards"]]

    @property
    def table(self) -> EffectTable:
        return self.s.game.effects

    @property
    def n(self) -> int:
        return self.s.n

    @property
    def events(self) -> list | None:
        return self.s.events

    @property
    def cov(self) -> list[int]:
        return self.s.effect_cov

    @property
    def revealed(self) -> list[list[int]]:
        return self.s.revealed

    @property
    def queue(self) -> list[tuple]:
        return self.s.queue

    @queue.setter
    def queue(self, v: list[tuple]) -> None:
        self.s.queue = v

    @property
    def decision(self) -> tuple | None:
        return self.s.decision

    @decision.setter
    def decision(self, v: tuple | None) -> None:
        self.s.decision = v

    @property
    def player(self) -> int:
        return self.s.player

    @player.setter
    def player(self, v: int) -> None:
        self.s.player = v

    def leave_hand(self, player: int, card: int) -> None:
        self.hands[player].remove(card)
        r = self.s.revealed[player]
        if r and card in r:
            r.remove(card)

    def _end_turn(self) -> None:
        self.s._effect_done()


class Game:
    """A rules file, its cards and a number of players."""

    def __init__(self, rules: Rules, cards: Sequence[CardDef] = (), players: int | None = None, *,
                 decks: Sequence[Sequence[CardDef]] | None = None,
                 pool: Sequence[CardDef] | None = None) -> None:
        self.rules = rules
        if rules.source == "decks":
            if not decks:
                raise CardbaseError(tr("rulesdata.no_decks", game=rules.code))
            players = len(decks)
        n = players or rules.default_players or rules.min_players
        if not rules.min_players <= n <= rules.max_players:
            raise CardbaseError(tr("rulesdata.bad_player_count", game=rules.code, players=n,
                                   min=rules.min_players, max=rules.max_players))
        self.num_players = n
        # the scoring counters: those the winner or an ending reads, whose changes by an operation
        # the log tells (``State.ops_log``)
        # counters of the table (owner = "table"): one value, every seat's copy set together
        self.table_counters = frozenset(k for k, c in rules.counters.items() if c.owner == "table")
        self.scoring_counters = frozenset(rules.counters).intersection(
            rules.winner_by.names.union(*(e.test.names for e in rules.endings),
                                        rules.then_by.names if rules.then_by is not None else ()))
        views: list[CardView] = []
        if rules.source == "generated":
            for d in rules.generated:
                stats = {k: v for k, v in d.items() if k not in ("name", "value", "colour", "copies")}
                views.append(CardView(len(views), d["name"], d.get("value"), d.get("colour"), stats=stats))
        else:
            for c in cards:
                for _ in range(max(c.copies, 0)):
                    views.append(CardView(len(views), c.name, c.value, c.colour, c.card_type, c.banner,
                                          c.rarity, c.keywords, dict(c.stats), c.ref))
        self.defs: list[CardDef | None] = []  # the CardDef of each card (None for a generated one)
        self.starts: list[range] = []  # the cards each player's copy of ``into`` starts with
        self.cards: list[CardView] = []
        if rules.source == "decks":
            # each player's own deck, its cards numbered in the deck's order (a shuffle puts a zone
            # back in card order first: a seed deals as the hand-written engines deal)
            for deck in decks or ():
                first = len(self.cards)
                for c in deck:
                    self.cards.append(CardView(len(self.cards), c.name, c.value, c.colour, c.card_type,
                                               c.banner, c.rarity, c.keywords, dict(c.stats), c.ref))
                    self.defs.append(c)
                self.starts.append(range(first, len(self.cards)))
            if not self.cards:
                raise CardbaseError(tr("rulesdata.no_cards", game=rules.code))
            self.box_size = len(self.cards)
        else:
            if not views:
                raise CardbaseError(tr("rulesdata.no_cards", game=rules.code))
            copies = n if rules.per_player_copy else 1
            self.box_size = len(views)
            flat = [c for c in cards for _ in range(max(c.copies, 0))] if rules.source != "generated" else []
            for copy in range(copies):
                for j, v in enumerate(views):
                    self.cards.append(CardView(len(self.cards), v.name, v.value, v.colour, v.type, v.banner,
                                               v.rarity, v.keywords, v.stats, v.ref))
                    self.defs.append(flat[j] if flat else None)
                self.starts.append(range(copy * self.box_size, (copy + 1) * self.box_size))
        # generated cards' keywords and effects; with hidden deck lists (R9) the pool a re-deal
        # draws from: ``pool``, else the game's cards, else the decks' (structures.more_cards)
        structures.more_cards(self, pool or (cards if rules.source == "decks" else None), CardView, _has)
        most = max((len(a.choose_values) for a in rules.actions), default=0)
        if any(a.pick == "set" for a in rules.actions):  # a set action's argument: its set's number
            most = max(most, sets.MAX_SET_CANDIDATES)
        self.stride = max(len(self.cards), most) + 1
        self.action_index = {a.name: k for k, a in enumerate(rules.actions)}
        self.effects = EffectTable(self) if rules.effects else None
        # the ids of an effect's choices start after every action of the file
        self.decision_base = len(rules.actions) * self.stride
        structures.setup(self)  # teams, turn orders, « pass » in an answer window
        # False: every greedy look-ahead dealt and played on a copy, score() and the tests of a
        # card computed each time — the plain reading, against which tests check the shortcuts
        self.shortcuts = True
        # the greedy bot's look-aheads on the undealt position: [tried, stopped by a hidden card]
        self.undealt = [0, 0]
        self.triggers = {a.name: [t for t in rules.triggers if t.on == a.name] for a in rules.actions}
        # [[coverage]]: the rules counted when each action is played (a bluff, a card off colour)
        self.tallies = {a.name: [t for t in rules.tallies if t.action == a.name] for a in rules.actions}
        # the cards' figures of a batch (State.card_counts): each card by its reference, a card the
        # file generates (no edition) by its name; per action, whether it takes a card by choice
        self.card_keys = sorted({c.ref or c.name or "" for c in self.cards})
        index = {k: i for i, k in enumerate(self.card_keys)}
        self.card_key = [index[c.ref or c.name or ""] for c in self.cards]
        self.card_choice = [a.source is not None and a.pick == "choice" and a.choose_counter is None
                            for a in rules.actions]
        self.card_info = (self.stride, self.card_choice, [2 * c for c in self.card_key],
                          [a.source for a in rules.actions])
        self._card_memos: dict[int, list | None] = {}
        self._card_ops: dict[int, tuple[list, list | None]] = {}  # card_ops, by the list's identity
        self._keywords: dict[str, list[bool]] = {}
        self._flags: dict[Any, list[int] | None] = {}  # count_if's tests (card_flags)
        sets.setup(self)  # the set actions (pick = "set"): each card's kind, each test's classes
        self.legal_sees_only = self._legal_sees_only()
        self.twins = self._twins() if self.shortcuts else None
        self.quick = [self._quick(a) for a in rules.actions]
        # the heuristic reads the seat's score, the effects waiting and the options only
        h = rules.heuristic
        self.score_heuristic = (h is not None and h.calls <= {"score", "pending"}
                                and h.names <= set(rules.options) | {"players"})
        # (zone, index, owner as _hidden reads it, visibility) of every pile
        self.piles = [(z.name, q, q if z.per_player else -1, z.visible)
                      for z in rules.zones.values() for q in range(n if z.per_player else 1)]
        self.hidden_plan: dict[int, list[tuple[str, int, bool]]] = {}  # per seat: the piles it cannot see
        self.scorers_see: dict[int, bool] = {}  # per seat: State._scorers_see
        # per action: True for a card of the hand moved onto the discard pile, False into the deck,
        # None for another (State._search_moves) — None for all when a trigger's test reads more
        # than the card, or the heuristic more than score(), pending() and the options
        eff = rules.effects
        self.move_scoring = [
            (True if a.dest == eff["discards"] else False if a.dest == eff["deck"] else None)
            if self.quick[k] and a.source == eff["hand"] else None
            for k, a in enumerate(rules.actions)] if (
            eff and self.score_heuristic and all(
                t.card is None or (t.card.names <= {"card"} | set(rules.options)
                                   and t.card.calls <= {"has", "min", "max", "abs"}) for t in rules.triggers)) else None

    def _quick(self, a: Any) -> bool:
        """Whether the greedy bot's look-ahead of action ``a`` can be played in place and taken
        back (:meth:`State._quick_look_ahead`): a card moved by choice that ends the turn, with
        no operation but a card's effect in its triggers, stops the look-ahead at once (``horizon``
        turn or choice, the end not checked after every action)."""
        r = self.rules
        found = self.triggers[a.name]
        effect = any(op[0] == "effect" for t in found for op in t.ops)
        return (a.source is not None and a.dest is not None and a.pick == "choice" and a.ends_turn
                and a.choose_counter is None and not a.then and r.check != "action"
                and not a.simultaneous and a.answers is None and not r.move_triggers
                and all(op == ("effect",) for t in found for op in t.ops)
                and (r.horizon == "choice" or (r.horizon == "turn" and not effect)))

    def _twins(self) -> list[int] | None:
        """For each card id, the first card with the same figures (its definition and every
        field an expression reads), when no expression of the rules can tell two such copies
        apart — none reads a card's ``id`` nor a pile's order (``top``); None otherwise. Two
        look-aheads that move two copies of a card then reach positions that differ only by
        which copy is where: the same value (:meth:`State._greedy_undealt` tries one)."""
        for e in _expressions(self.rules):
            if "top" in e.calls or any(isinstance(node, ast.Attribute) and node.attr == "id"
                                       for node in ast.walk(ast.parse(e.source, mode="eval"))):
                return None
        kinds: dict[tuple, int] = {}
        return [kinds.setdefault((d, v.name, v.value, v.colour, v.type, v.banner, v.rarity, tuple(v.keywords or ()),
                                  repr(sorted(v.stats.items())), v.ref), c)
                for c, (d, v) in enumerate(zip(self.defs, self.cards))]

    def _legal_sees_only(self) -> bool:
        """Whether finding the legal actions reads no card the seat to play cannot see: the
        actions' tests read sizes, counts, moves done, counters, and cards only in zones their
        owner sees (``top``, ``having`` of the seat's own zone; ``having_all`` of a zone everyone
        sees); an effect's choices come from the chooser's own hand."""
        zones = self.rules.zones
        sizes = {"count", "count_all", "done", "can", "has", "min", "max", "abs", "total", "best"}
        if self.rules.effects and zones[self.rules.effects["hand"]].visible not in ("owner", "everyone"):
            return False
        for e in (e for a in self.rules.actions for e in (a.when, a.filter, a.choose_filter, a.set_test)
                  if e is not None):
            for node in ast.walk(ast.parse(e.source, mode="eval")):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                fn = _called(node)
                if fn in sizes:
                    continue
                inner = fn in ("min_of", "max_of", "distinct", "sum", "count_if") and len(node.args) > 1
                if inner and any(isinstance(x, ast.Call)  # the text on each card may read more
                                 for x in ast.walk(ast.parse(node.args[1].value, mode="eval"))):
                    return False
                if node.args and getattr(node.args[0], "value", None) == CHOSEN:
                    continue  # a set's cards (a set's test): taken from a zone the seat sees
                if fn not in ("top", "having", "having_all", "min_of", "max_of", "distinct"):
                    return False
                z = zones[node.args[0].value]  # a checked expression names a zone here
                seen = (z.visible == "everyone" or (fn == "top" and z.visible == "top")
                        or (fn != "having_all" and z.per_player and z.visible == "owner"))
                if not seen:
                    return False
        return True

    def keyword_flags(self, kw: str) -> list[bool]:
        """For each card id, whether the card bears the keyword ``kw`` (``has``)."""
        flags = self._keywords.get(kw)
        if flags is None:
            flags = self._keywords[kw] = [_has(c, kw) for c in self.cards]
        return flags

    def card_flags(self, code: Any, test: Any) -> list[int] | None:
        """For each card id, 1 when it passes ``test`` (a ``count_if`` test reading only the card
        and the options, ``code`` its code), else 0 — found for every card at the first count;
        None when the test fails on one of them (each count then tests its cards)."""
        flags = self._flags.get(code, _UNSET)
        if flags is _UNSET:
            try:
                flags = [1 if test(c) else 0 for c in self.cards]
            except Exception:  # a card the test cannot read: counted card by card, as written
                flags = None
            self._flags[code] = flags
        return flags

    def card_ops(self, ops: list[tuple]) -> list | None:
        """For a list of operations with an ``if`` on the card alone (:meth:`card_memo`): its
        operations per card id (:meth:`State._card_branches`), filled as cards meet it; None for a
        list with no such test."""
        found = self._card_ops.get(id(ops))
        if found is None:
            pure = any(op[0] == "if" and self.card_memo(op[1]) is not None for op in ops)
            # the list kept with its entry: its identity is not given to another while kept
            found = self._card_ops[id(ops)] = (ops, [_UNSET] * len(self.cards) if pure else None)
        return found[1]

    def card_memo(self, e: Expr) -> list | None:
        """The values of ``e`` per card id, filled as they are computed, for an expression that
        reads only ``card``, the options and the functions of a card (``has``, ``min``…); None
        for any other expression."""
        if not self.shortcuts:
            return None
        key = id(e)
        if key not in self._card_memos:
            pure = e.names <= {"card"} | set(self.rules.options) and e.calls <= {"has", "min", "max", "abs"}
            self._card_memos[key] = [_UNSET] * len(self.cards) if pure else None
        return self._card_memos[key]

    def new_state(self, seed: int | None = None, *, log: bool = True) -> State:
        return State(self, seed, log=log)

    @property
    def secret_choices_only(self) -> bool:
        """Whether every action is a secret choice (:attr:`.language.Rules.secret_choices_only`):
        the « first player » of the measures is only the seat that chooses first."""
        return self.rules.secret_choices_only

    def ending_label(self, name: str) -> str | None:
        """An ending's words (``[[end.conditions]] label``) in the current language, None when
        the rules file gives none (the batches then show a known ending's text, or its name)."""
        for e in self.rules.endings:
            if e.name == name and e.label:
                return e.label.get(current_language()) or e.label.get("fr") or None
        return None


# how an expression failed in play, in words a designer reads (rulesdata.runtime_kind_*)
_FAILURES: dict[type, str] = {TypeError: "types", ZeroDivisionError: "zero", IndexError: "missing",
                              KeyError: "missing", AttributeError: "missing"}


class State(Structures):
    """One game in progress (mutable; :meth:`clone` copies it)."""

    _looping = False  # inside _after_action's loop of turns (set there only, never copied)
    _counted = True  # rule coverage counted (not in a round's random play-out: _playout_copy)

    def __init__(self, game: Game, seed: int | None, *, log: bool = True) -> None:
        self.game = game
        self.rules = r = game.rules
        self.n = n = game.num_players
        self.seed = random.randrange(2**63) if seed is None else seed
        self.rng = random.Random(self.seed)
        self.events: list[tuple] | None = [] if log else None
        # a logged move's card that some seats cannot know: event index → bitmask of those seats
        # (each seat's log names it « une carte cachée », :meth:`log_lines`)
        self.unseen: dict[int, int] = {}
        # what the rules' operations did (cards moved, deals, shuffles, counters): kept apart from
        # ``events`` (which the game digests read), each entry led by the number of events before it
        self.ops_log: list[tuple] | None = [] if log else None
        self.history: list[int] = []
        self.zones: dict[str, list[list[int]]] = {
            z.name: [[] for _ in range(n if z.per_player else 1)] for z in r.zones.values()}
        self.counters = [{c.name: c.start for c in r.counters.values()} for _ in range(n)]
        self.done = [0] * len(r.actions)
        self.round = 0
        self.turns = 0
        self.turn_actions = 0
        self.player = 0
        self.first = 0
        self.winners: list[int] = []
        self.ended_by = ""
        self.cov = {a.name: [0, 0] for a in r.actions} | {t.name: [0, 0] for t in r.tallies}
        # per seat and card (Game.card_keys): [decisions where a legal action could choose it,
        # times chosen], flat: (seat * cards + card) * 2 (+1 for the times chosen)
        self.counts_cards = any(game.card_choice) or bool(game.set_actions)
        # per seat and card (Game.card_keys): [decisions that offered it, times taken]; only the
        # game played counts them: a copy (a bot's look-ahead or search) keeps those counted so far
        # and adds none (State._fork)
        self.card_cov = [[0] * (2 * len(game.card_keys)) for _ in range(n)] if self.counts_cards else []
        self._ending = False
        self._legal: list[int] | None = None
        self.decision: tuple | None = None  # an effect's pending choice (cardbase.games.effects.resolve)
        self.queue: list[tuple] = []  # an effect's actions still to resolve
        self.revealed: list[list[int]] = [[] for _ in range(n)]
        self.shown: frozenset[int] = frozenset()  # cards a ``reveal`` showed to every seat
        self.effect_cov = [0] * 19  # the effect kinds' coverage, as the hand-written engine counts it
        self.paused = False  # the greedy bot's look-ahead stops at the end of the turn (horizon)
        # the greedy bot's next choice, found by its look-ahead of the move it chose (greedy_action)
        self._next: tuple | None = None
        self._then: int | None = None  # the later choice a look-ahead found (_look_ahead)
        self._pause = False
        self._init_structures()
        into = self.zones[r.into]
        for p, pile in enumerate(into):
            pile.extend(game.starts[p] if r.per_player_copy else range(len(game.cards)))
        self._run(r.setup, -1, None)  # -1: the set-up, before any turn
        if r.first_player == "random":
            self.first = self.rng.randrange(n)
        self._start_round()

    # ------------------------------------------------------------------ copying

    def clone(self, *, log: bool = False, reseed: float | None = None, trial: bool = False) -> State:
        """A copy; ``reseed``: its chance from a new generator seeded so (the look-ahead's);
        ``trial``: a look-ahead's copy, which counts no rule coverage (it shares the counts)."""
        if reseed is not None:
            rng: Any = _LazyRng(reseed)
        else:
            rng = random.Random.__new__(random.Random)  # no fresh seeding: the state is copied
            rng.setstate(self.rng.getstate())
        return self._fork(rng, trial, log)

    def _fork(self, rng: Any, trial: bool, log: bool = False) -> State:
        """:meth:`clone` with the generator ``rng``."""
        s = State.__new__(State)
        d = s.__dict__
        d.update(self.__dict__)
        d["rng"] = rng
        d.pop("_looping", None)  # a copy is not inside this state's loop of turns
        d.pop("_log_cache", None)  # nor shares its log's lines (log_lines)
        d["events"] = self.events[:] if (log and self.events is not None) else None
        d["unseen"] = dict(self.unseen) if d["events"] is not None else {}
        d["ops_log"] = self.ops_log[:] if (d["events"] is not None and self.ops_log is not None) else None
        d["history"] = self.history[:]
        d["zones"] = {k: list(map(_copy, v)) for k, v in self.zones.items()}
        d["counters"] = list(map(dict.copy, self.counters))
        d["done"] = self.done[:]
        d["winners"] = self.winners[:]
        if trial:
            d["_pause"] = True
        else:
            d["cov"] = {k: v[:] for k, v in self.cov.items()}
        d["queue"] = self.queue[:]
        d["revealed"] = list(map(_copy, self.revealed))
        d["effect_cov"] = self.effect_cov[:]
        d["_next"] = None
        d["counts_cards"] = False
        return s

    # ------------------------------------------------------------------ expressions

    def _playout_copy(self, r: float) -> State:
        """``clone(reseed=r)`` for the greedy bot's random play-out of a round (``_round_ahead``),
        which counts no rule coverage: the coverage is not copied."""
        s = self._fork(_LazyRng(r), True)
        s._pause = self._pause
        s._counted = False
        return s

    def _pile(self, zone: str, seat: int) -> list[int]:
        piles = self.zones[zone]
        return piles[seat] if seat >= 0 and len(piles) > 1 else piles[0]

    def _eval(self, e: Expr, seat: int, card: CardView | None = None) -> Any:
        fn = e.fn or e.bind(FUNCTIONS)
        try:
            return fn(self, seat, self.counters[seat if seat > 0 else 0], card)
        except (CardbaseError, _HiddenRead):
            raise
        except Exception as exc:  # the designer's formula failed on this card or position
            kind = _FAILURES.get(type(exc))  # Python's own errors in the reader's words
            raise runtime_error(self.rules, e, "rulesdata.runtime", f"rulesdata.runtime_fix_{kind or 'other'}",
                                error=tr(f"rulesdata.runtime_kind_{kind}") if kind
                                else str(exc) or type(exc).__name__,  # the expression language's own words
                                card=getattr(card, "name", card) if card is not None else "—") from None

    def _card_test(self, e: Expr, seat: int, card: CardView) -> Any:
        """``e`` on ``card``: an expression that reads only the card (and the options) is
        evaluated once per card (:meth:`Game.card_memo`)."""
        memo = self.game.card_memo(e)
        if memo is None:
            return self._eval(e, seat, card)
        v = memo[card.id]
        if v is _UNSET:
            v = memo[card.id] = self._eval(e, seat, card)
        return v

    def effect_score(self, seat: int) -> int:
        """``score()``: the seat's hand (``[effects] hand``) scored as the effect language says —
        each card's value plus its score rules, reading the seat's discards, the other players'
        discards, the Cimetière (every discard pile) and the seat's deck. The score counts cards
        of each kind, whatever their order: memoised under the sorted kinds of the hand and of the
        zones its rules read (:attr:`EffectTable.kind`)."""
        eff = self.game.effects
        if eff is None:
            return 0
        if not self.game.shortcuts:
            hand = self._pile(self.rules.effects["hand"], seat)
            total, reads = self._hand_values(hand, eff)
            return total + (self._hand_rules(seat, hand, eff, reads) if reads else 0)
        piles = self.zones[eff.hand_zone]
        hand = piles[seat] if seat >= 0 and len(piles) > 1 else piles[0]
        hk = sum(map(eff.hand_get, hand))
        hit = eff.hand_memo.get(hk)
        if hit is None:
            hit = self._hand_entry(eff, hk, hand)
        return self._score_from(seat, hk, hit, hand)

    def _hand_entry(self, eff: EffectTable, hk: int, hand: list[int]) -> tuple:
        """The memo entry of a hand of kinds ``hk`` (:attr:`EffectTable.hand_memo`), computed and
        kept."""
        # the values (_hand_values), the zones and fields the rules read, the hand's cards with
        # score rules (kind, fields read, a card of that kind) and the counts in the hand: what
        # _hand_rules reads of it — summed over each card's part (EffectTable.parts)
        total = reads = mask = in_hand = 0
        rules = []
        for value, r, m, rule, code in map(eff.parts.__getitem__, hand):
            total += value
            reads |= r
            mask |= m
            in_hand += code
            if rule is not None:
                rules.append(rule)
        hit = (total, reads, mask, tuple(rules), in_hand)
        if len(eff.hand_memo) > 200_000:
            eff.hand_memo.clear()
        eff.hand_memo[hk] = hit
        return hit

    def _score_from(self, seat: int, hk: int, hit: tuple, hand: list[int], without: int = -1) -> int:
        """:meth:`effect_score` once the hand's kinds ``hk`` and their memo entry ``hit`` are known;
        ``hand`` less one copy of ``without`` (a card id, -1 for none) is the hand scored."""
        eff = self.game.effects
        total, reads, mask, rules, in_hand = hit
        if not reads:
            return total
        piles = self.zones[eff.discards_zone]
        sig = sum(map(eff.own_get, piles[seat])) if reads & 6 else 0
        if reads & 12:
            if len(piles) == 2:
                sig += sum(map(eff.opp_get, piles[1 - seat]))
            else:
                for q, pile in enumerate(piles):
                    if q != seat:
                        sig += sum(map(eff.opp_get, pile))
        if reads & 16:
            sig += sum(map(eff.deck_code.__getitem__, self._pile(eff.deck_zone, seat)))
        score = eff.score_memo.get((hk, sig & mask))  # the counts the hand's rules read
        return total + (self._score_rules(seat, hk, hit, sig, hand, without) if score is None else score)

    def _score_rules(self, seat: int, hk: int, hit: tuple, sig: int, hand: list[int], without: int) -> int:
        """The score rules' part of :meth:`_score_from` not found in :attr:`EffectTable.score_memo`,
        the counts outside the hand ``sig`` given (a sum of :attr:`EffectTable.own_code`,
        ``opp_code`` and ``deck_code``, at least the fields the hand's rules read): each card's
        rules read from their memo (:meth:`_hand_rules`), added up and kept."""
        eff = self.game.effects
        _total, reads, mask, rules, in_hand = hit
        key = (hk, sig & mask)
        sig += in_hand
        memo = eff.rule_memo
        score = 0
        for k, m, c in rules:
            rk = (k, sig & m)
            v = memo.get(rk)
            if v is None:
                if len(memo) > 200_000:
                    memo.clear()
                if without >= 0:
                    hand = hand[:]
                    hand.remove(without)
                    without = -1
                v = memo[rk] = self._card_rules(seat, [c], eff, reads, hand)
            score += v
        if len(eff.score_memo) > 200_000:
            eff.score_memo.clear()
        eff.score_memo[key] = score
        return score

    @staticmethod
    def _hand_values(hand: list[int], eff: EffectTable) -> tuple[int, int]:
        """The values of a hand's cards, and the zones their score rules read (bits of
        :func:`_reads`; 32 for rules that read no zone, 0 for no rules)."""
        total = 0
        reads = 0
        for c in hand:
            total += eff.value[c]
            if eff.score_fn[c] is not None:
                reads |= eff.reads[c] | 32
        return total, reads

    def _hand_rules(self, seat: int, hand: list[int], eff: EffectTable, reads: int) -> int:
        """The score rules of the seat's hand, added up (the plain reading; with the shortcuts on,
        :meth:`effect_score` memoises each card's rules under its kind and the counts it reads)."""
        return self._card_rules(seat, hand, eff, reads, hand)

    def _card_rules(self, seat: int, scored: list[int], eff: EffectTable, reads: int, hand: list[int]) -> int:
        """The score rules of the cards ``scored`` of the seat's ``hand``, added up."""
        z = self.rules.effects
        defs, fns = eff.defs, eff.score_fn
        piles = self.zones[z["discards"]]
        zones = _EffZones()
        zones.hand = [defs[c] for c in hand]
        zones.discards = [defs[c] for c in piles[seat]] if reads & 6 else ()
        zones.opponent_discards = [defs[c] for q, pile in enumerate(piles) if q != seat for c in pile] \
            if reads & 12 else ()
        zones.cimetiere = zones.discards + zones.opponent_discards if reads & 4 else ()
        zones.deck = [defs[c] for c in self._pile(z["deck"], seat)] if reads & 16 else ()
        total = 0
        for c in scored:
            fn = fns[c]
            if fn is not None:
                total += fn(defs[c], zones)
        return total

    def pending_size(self, seat: int, kind: str) -> int:
        """``pending('draw')``: the size of the seat's Défausse actions of that kind still waiting
        to be resolved (N of draw N, look N, force_discard N, bury N; 1 for recover, swap,
        reveal). The greedy bot's look-ahead with ``horizon = "choice"`` stops before an effect
        begins: this is how a heuristic credits the effect of the card just discarded."""
        return _pending_size(self.queue, seat, kind)

    def _number(self, e: Expr, seat: int, card: CardView | None) -> int:
        v = self._eval(e, seat, card)
        if isinstance(v, bool) or not isinstance(v, int):
            raise runtime_error(self.rules, e, "rulesdata.runtime_number", "rulesdata.runtime_number_fix",
                                value=repr(v), card=card.name if card is not None else "—")
        if abs(v) > 10**9:
            raise runtime_error(self.rules, e, "rulesdata.runtime_big", "rulesdata.runtime_big_fix")
        return v

    # ------------------------------------------------------------------ operations

    def _run(self, ops: list[tuple], seat: int, card: CardView | None) -> None:
        if card is not None and self.game.shortcuts:  # the tests of the card alone taken once
            flat = self.game.card_ops(ops)
            if flat is not None:
                plain = flat[card.id]
                if plain is _UNSET:
                    plain = flat[card.id] = self._card_branches(ops, seat, card)
                if plain is not None:
                    ops = plain
        logged = self.ops_log is not None  # what the operations do is logged (State.ops_log)
        for op in ops:
            if self._ending:
                return
            verb = op[0]
            if verb == "add":
                if logged:
                    self._op_counter(seat, op[1], self.counters[max(seat, 0)][op[1]]
                                     + self._number(op[2], seat, card))
                else:
                    self.counters[max(seat, 0)][op[1]] += self._number(op[2], seat, card)
                if op[1] in self.game.table_counters:  # one value for the table
                    self._table_counter(seat, op[1])
            elif verb == "set":
                if logged:
                    self._op_counter(seat, op[1], self._number(op[2], seat, card))
                else:
                    self.counters[max(seat, 0)][op[1]] = self._number(op[2], seat, card)
                if op[1] in self.game.table_counters:
                    self._table_counter(seat, op[1])
            elif verb == "if":  # a test of the card alone is found once per card (_card_test)
                branch = op[2] if (self._eval(op[1], seat, card) if card is None
                                   else self._card_test(op[1], seat, card)) else op[3]
                if branch:
                    self._run(branch, seat, card)
            elif verb == "shuffle":
                for pile in (self.zones[op[1]] if self.rules.zones[op[1]].per_player and seat < 0
                             else [self._pile(op[1], seat)]):
                    pile.sort()
                    self.rng.shuffle(pile)
                    if self.shown:  # a shuffled card shown is no longer known where it is
                        self.shown = self.shown.difference(pile)
                if logged:
                    self._op_log("shuffle", seat if self.rules.zones[op[1]].per_player else -1, op[1])
            elif verb == "move":
                _, src, dst, pick, count, at = op
                zs = self.rules.zones
                if seat < 0 and zs[src].per_player and zs[dst].per_player:
                    pairs = list(zip(self.zones[src], self.zones[dst]))  # the set-up: every player
                else:
                    pairs = [(self._pile(src, seat), self._pile(dst, seat))]
                watch = (src, dst) in self.rules.move_triggers
                for who, (a, b) in enumerate(pairs):
                    k = len(a) if pick == "all" else self._number(count, seat, card)
                    owner = who if len(pairs) > 1 else max(seat, 0)
                    moved: list | None = [] if logged else None
                    for _ in range(min(k, len(a))):
                        i = self.rng.randrange(len(a)) if pick == "random" else len(a) - 1
                        c = a.pop(i)
                        if at == "bottom":
                            b.insert(0, c)
                        else:
                            b.append(c)
                        if moved is not None:  # which seats saw the card (as an action's card)
                            moved.append((c, 0 if c in self.shown else self._unseen_by(
                                src, i, len(a) + 1, dst, 0 if at == "bottom" else len(b) - 1, len(b), owner)))
                        if watch:  # [[triggers]] from/to
                            self._moved(src, dst, owner, c)
                    if moved:
                        self._op_log("move", who if len(pairs) > 1 else seat, src, dst, tuple(moved))
            elif verb == "deal":
                _, src, dst, _pick, count = op
                k = self._number(count, seat, card)
                a = self._pile(src, seat)
                watch = (src, dst) in self.rules.move_triggers
                dealt = [0] * self.n
                for _ in range(min(k, len(a))):
                    for p in range(self.n):
                        if a:
                            self.zones[dst][p].append(a.pop())
                            dealt[p] += 1
                            if watch:  # [[triggers]] from/to
                                self._moved(src, dst, p, self.zones[dst][p][-1])
                if logged and any(dealt):
                    self._op_log("deal", seat, src, dst, tuple(dealt))
            elif verb == "end_turn":
                self._ending = True
            elif verb == "effect":
                if card is not None and self.game.effects is not None:
                    acts = self.game.effects.on_discard[card.id]
                    if acts:
                        self._log("effect", seat, card.id)
                        self.queue = [(seat, card.id, x) for x in acts] + self.queue
            elif verb == "end_game":
                self._finish(op[1], [(self.first + i) % self.n for i in range(self.n)])
                self._ending = True
                return
            elif verb == "each":
                self._run_each(op, seat, card)
            elif verb == "reveal":
                self._reveal_zone(op[1], seat)
            elif verb in structures.SEAT_VERBS:  # move_if, for_seat, give, rotate
                self._run_more(op, seat, card)

    def _card_branches(self, ops: list[tuple], seat: int, card: CardView) -> list[tuple] | None:
        """``ops`` for ``card`` with each ``if`` whose test reads only the card (and the options)
        replaced by the operations of the branch it takes — what :meth:`_run` would run, in the
        same order (an ``if`` itself changes nothing); None when a test cannot be read on this
        card (the operations are then run as written, and the test fails where it stands)."""
        out: list[tuple] = []
        for op in ops:
            if op[0] == "if" and self.game.card_memo(op[1]) is not None:
                try:
                    taken = op[2] if self._card_test(op[1], seat, card) else op[3]
                except Exception:
                    return None
                inner = self._card_branches(taken, seat, card) if taken else []
                if inner is None:
                    return None
                out.extend(inner)
            else:
                out.append(op)
        return out

    # ------------------------------------------------------------------ the interface

    @property
    def num_players(self) -> int:
        return self.n

    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def _choices(self, k: int, seat: int) -> list[int]:
        """The argument positions of action ``k`` legal for ``seat`` (``[0]`` for an action
        without a card), ignoring compulsory actions."""
        a = self.rules.actions[k]
        if a.answer_only and self.window is None:  # an answer, only in an answer window
            return []
        if a.limit is not None and self.done[k] >= a.limit:
            return []
        if a.when is not None and not self._eval(a.when, seat):
            return []
        if a.choose_counter is not None:  # a number: one choice per value offered
            if a.choose_filter is None:
                return list(range(len(a.choose_values)))
            return [i for i, v in enumerate(a.choose_values) if self._eval(a.choose_filter, seat, v)]
        if a.source is None:
            return [0]
        pile = self._pile(a.source, seat)
        if not pile:
            return []
        if a.pick == "set":  # one choice per distinct set passing the test
            return sets.choices(self, a, k, seat)
        if a.pick != "choice":
            return [len(pile) - 1]
        if a.filter is None:
            return list(range(len(pile)))
        cards = self.game.cards
        memo = self.game.card_memo(a.filter)
        if memo is None:
            test = self._card_test
            return [i for i, c in enumerate(pile) if test(a.filter, seat, cards[c])]
        out = []  # _card_test with the card's memo looked up once
        for i, c in enumerate(pile):
            v = memo[c]
            if v is _UNSET:
                v = memo[c] = self._eval(a.filter, seat, cards[c])
            if v:
                out.append(i)
        return out

    def legal_actions(self, player: int | None = None) -> list[int]:
        p = self.player
        if p == TERMINAL or (player is not None and player != p):
            return []
        if self.decision is not None:  # an effect's choice (cardbase.games.effects.resolve)
            base = self.game.decision_base
            return [base + x for x in _effects().decision_actions(_EffectView(self))]
        if self.window is not None:  # an answer window: the asked seat answers or passes
            return self._window_actions()
        if self._legal is not None:  # kept until the state changes (apply, a turn's start or end)
            return self._legal[:]
        stride = self.game.stride
        out: list[int] = []
        forced: list[int] = []
        for k, a in enumerate(self.rules.actions):
            ids = [k * stride + i for i in self._choices(k, p)]
            out.extend(ids)
            if a.compulsory:
                forced.extend(ids)
        self._legal = forced or out
        return self._legal[:]

    def apply_action(self, action: int) -> None:
        p = self.player
        if p == TERMINAL:
            raise IllegalActionError(tr("rulesdata.illegal.over"))
        if self.window is not None:  # an answer, or « pass »
            self._answer(action)
            return
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(tr("rulesdata.illegal.action", player=p + 1,
                                        action=self.action_to_string(action),
                                        legal=", ".join(self.action_to_string(x) for x in legal)))
        self._play(action, legal)

    def _play(self, action: int, legal: list[int] | None) -> None:
        """:meth:`apply_action` once ``action`` is known legal (``legal``: the legal actions, None
        in a look-ahead on the undealt position, whose actions are those of the position)."""
        if self.window is not None:  # an answer, or « pass » (checked by the window)
            self._answer(action)
            return
        p = self.player
        self._legal = None
        if self.decision is not None:
            self.history.append(action)
            self.turn_actions += 1
            _effects().apply_decision(_EffectView(self), action - self.game.decision_base, check=False)
            return
        k, i = divmod(action, self.game.stride)
        a = self.rules.actions[k]
        if not self._pause and self._counted:  # rule coverage (not in the greedy bot's look-ahead)
            if legal is None:
                legal = self.legal_actions()
            seen = {x // self.game.stride for x in legal}
            for name, kk in self.game.action_index.items():
                if kk in seen:
                    self.cov[name][0] += 1
            self.cov[a.name][1] += 1
            if self.counts_cards:
                self._count_cards(p, legal, k, i)
        self.history.append(action)
        self.done[k] += 1
        self.turn_actions += 1
        if a.simultaneous:  # a secret choice, played at the end of the round (structures)
            self._choose_secret(p, k, i)
            return
        if self.events is not None:
            self.events.append(("action", p, action) if a.label_parts is None else (
                "action", p, action, words.label(self, a, p, sets.set_cards(self, a, p, i)
                                                 if a.pick == "set" else None)))
        card = None
        if a.choose_counter is not None:
            self.counters[p][a.choose_counter] = a.choose_values[i]
            if a.choose_counter in self.game.table_counters:
                self._table_counter(p, a.choose_counter)
        if a.pick == "set":  # several cards at once, their triggers, the action's then
            cids = sets.play(self, a, k, p, i, then=a.answers is None)
            if a.answers is not None:  # its then runs when the window closes (_close_window)
                if self._open_window(p, k, None):
                    self.window_cards = tuple(cids)
                    return
                sets.run_then(self, a, p, cids)
            self._after_move(p, a, None, then=False)
            return
        if a.source is not None:
            card = self._move_action(a, p, i)
        elif self.game.tallies[a.name]:
            self._tally(a, p, None)
        if a.answers is not None and self._open_window(p, k, card):
            return  # the others answer first; the action's ``then`` runs when the window closes
        self._after_move(p, a, card)

    def _move_action(self, a: Any, p: int, i: int) -> CardView:
        """Action ``a``'s card (at position ``i``, or at random) moved for seat ``p``, logged, its
        triggers run."""
        pile = self._pile(a.source, p)
        at, size = (self.rng.randrange(len(pile)) if a.pick == "random" else i), len(pile)
        cid = pile.pop(at)
        if cid in self.shown:  # a card shown, moved by a player's choice: known no more
            self.shown = self.shown - {cid}
        assert a.dest is not None
        dest = self._pile(a.dest, p)
        if a.at == "bottom":
            dest.insert(0, cid)
        else:
            dest.append(cid)
        card = self.game.cards[cid]
        if self.events is not None:
            unseen = self._unseen_by(a.source, at, size, a.dest, 0 if a.at == "bottom" else len(dest) - 1,
                                     len(dest), p)
            if unseen:
                self.unseen[len(self.events)] = unseen
            self.events.append(("card", p, cid))
        if self.game.tallies[a.name]:
            self._tally(a, p, card)
        for t in self.game.triggers[a.name]:
            if t.card is None or self._card_test(t.card, p, card):
                self._run(t.ops, p, card)
        if self.rules.move_triggers:  # [[triggers]] from/to
            self._moved(a.source, a.dest, p, cid)
        return card

    def _tally(self, a: Any, p: int, card: CardView | None) -> None:
        """The ``[[coverage]]`` rules of action ``a`` just played by seat ``p`` (its cards moved,
        before its triggers and ``then``): an occasion each, a use when the test holds. Not in a
        look-ahead or a play-out, as the actions' coverage."""
        if self._pause or not self._counted:
            return
        for t in self.game.tallies[a.name]:
            slot = self.cov[t.name]
            slot[0] += 1
            if self._eval(t.test, p, card):
                slot[1] += 1

    def _after_move(self, p: int, a: Any, card: CardView | None, then: bool = True) -> None:
        """The rest of an action: its ``then`` (unless ``then`` is False: a set's, run with its
        cards), the end of the turn, a card's effect, what comes next."""
        if a.then and then:
            self._run(a.then, p, card)
        if a.ends_turn:
            self._ending = True
        if self.queue and self.player != TERMINAL:
            if self._pause and self.rules.horizon == "choice":  # the greedy's look-ahead stops here
                self.paused = True
                return
            # the card's effect (docs/effects.md), resolved by the effect language's own code: its
            # choices are actions; when it is over, _effect_done goes on with the turn
            _effects()._resolve(_EffectView(self), p)
            return
        self._after_action()

    def _effect_done(self) -> None:
        """An effect resolved to its end (called by the effect code in place of ending a turn)."""
        self._legal = None
        self._after_action()

    def _after_action(self) -> None:
        # the turns that end by themselves (no legal action) follow one another in this loop, not
        # by recursion: a round where no seat can act reaches the safety net (``round_limit``)
        # instead of Python's recursion limit (``_start_turn`` leaves such a turn to the loop)
        outer = self._looping
        self._looping = True
        try:
            self._after_action_loop()
        finally:
            self._looping = outer

    def _after_action_loop(self) -> None:
        r = self.rules
        while self.player != TERMINAL:
            if len(self.history) + self.turns >= MAX_GAME_STEPS:
                self._finish("step_limit", [])
                return
            if r.check == "action" and self._check_end():
                return
            if not self._ending and self.turn_actions >= r.max_turn_actions:
                self._log("turn_limit", self.player)
                self._ending = True
            if not self._ending and self.legal_actions():
                return
            if not self._ending:
                self._log("no_move", self.player)
            if self._pause:  # the greedy bot's look-ahead: the turn is over, the next not begun
                self.paused = True
                return
            self._end_turn()

    # ------------------------------------------------------------------ turns and rounds

    def _start_round(self) -> None:
        r = self.rules
        self.round += 1
        if r.first_player == "rotate" and self.round > 1:
            self.first = (self.first + 1) % self.n
        for c in r.counters.values():
            if c.reset == "round":
                for p in range(self.n):
                    self.counters[p][c.name] = c.start
        self.seat_index = 0
        self.turn_shift, self.next_seat = 0, -1
        self._log("round", self.round)
        if r.round_start:  # [round] start
            self._round_start_ops()
            if self.player == TERMINAL:
                return
            if self.next_seat >= 0:  # a next_turn: the round opens with that seat
                self._point_next()
        self._start_turn(self._seat_at(0))

    def _start_turn(self, p: int) -> None:
        r = self.rules
        self.player = p
        self.turn_actions = 0
        self.done = [0] * len(r.actions)
        self._ending = False
        for c in r.counters.values():
            if c.reset == "turn":  # a counter of the table: every seat's copy
                for q in (range(self.n) if c.owner == "table" else (p,)):
                    self.counters[q][c.name] = c.start
        self._log("turn", p)
        self._run(r.turn_start, p, None)
        if self.player == TERMINAL:  # an end_game operation
            return
        self._ending = False
        self._legal = None
        if self.queue:  # an effect triggered by the start of the turn (a draw's, [[triggers]] from/to)
            from cardbase.games.effects.resolve import _resolve

            _resolve(_EffectView(self), p)
            return
        if not self.legal_actions() and not self._looping:
            self._after_action()  # (inside the loop of _after_action, the loop goes on with it)

    def _end_turn(self) -> None:
        r = self.rules
        p = self.player
        self._legal = None
        self._ending = False
        self._run(r.turn_end, p, None)
        self._ending = False
        if self.player == TERMINAL:  # an end_game operation
            return
        self.turns += 1
        self._log("end_turn", p)
        if r.check in ("turn", "action") and self._check_end():
            return
        self.seat_index += 1
        if self.next_seat >= 0:  # a next_turn of this turn: the next turn is that seat's
            self._point_next()
        if self._next_in_round(p):  # every seat once, or until [round] until holds
            self._start_turn(self._seat_at(self.seat_index))
            return
        if self.player == TERMINAL:  # a round that never ends (structures)
            return
        if (self.secret or r.round_end) and self._round_over():  # the reveal, [round] end
            return
        if r.check == "round" and self._check_end():
            return
        if self.round >= r.max_rounds:
            self._finish("round_limit", [])
            return
        self._start_round()

    def _check_end(self) -> bool:
        order = [(self.first + i) % self.n for i in range(self.n)]
        for e in self.rules.endings:
            if e.scope == "game":
                if self._eval(e.test, self.player if self.player >= 0 else 0):
                    self._finish(e.name, order)
                    return True
            else:
                reached = [p for p in order if self._eval(e.test, p)]
                if reached:
                    self._finish(e.name, reached if self.rules.winner_among == "reached" else order)
                    return True
        return False

    def _finish(self, reason: str, candidates: list[int]) -> None:
        if candidates:
            self.winners = self._winners_of(candidates)
        self.player = TERMINAL
        self.ended_by = reason
        self._log("end", reason, tuple(self.winners))

    def _winners_of(self, candidates: list[int], log: bool = True) -> list[int]:
        """The seats among ``candidates`` that win by ``[end.winner]`` (with teams: every seat of
        the best team); ``log``: the teams' result is logged (the end of a game, not a search's
        valuation)."""
        r = self.rules
        if r.teams is not None:  # the best team wins: every seat of it
            return self._team_winners(candidates, log)
        vals = {p: self._eval(r.winner_by, p) for p in candidates}
        best = (max if r.winner_order == "highest" else min)(vals.values())
        top = [p for p in candidates if vals[p] == best]
        if len(top) > 1 and r.then_by is not None:  # the tie-break: [end.winner] then_by
            then = {p: self._eval(r.then_by, p) for p in top}
            first = (max if r.then_order == "highest" else min)(then.values())
            top = [p for p in top if then[p] == first]
        return top[:1] if r.ties == "first" else top

    # ------------------------------------------------------------------ results

    def scores(self) -> list[Any]:
        """Each seat's value by ``[end.winner] by`` (its score, for the log's result)."""
        return [self._eval(self.rules.winner_by, p) for p in range(self.n)]

    def returns(self) -> list[float]:
        """The winners share +1, the others share -1; nobody or everybody: 0 for all (with teams,
        shared by the teams: structures)."""
        if self.rules.teams is not None:
            return self._team_returns()
        k = len(self.winners)
        if k == 0 or k == self.n:
            return [0.0] * self.n
        return [1.0 / k if p in self.winners else -1.0 / (self.n - k) for p in range(self.n)]

    def winner(self) -> int:
        return self.winners[0] if len(self.winners) == 1 else -1

    def search_horizon(self) -> int | None:
        """``[scoring] search = "round"``: the search bots (mc, ismcts) play out to the end of the
        round in play (its number is the mark) and value the position there
        (:meth:`horizon_utilities`); None (the default, "game"): to the end of the game."""
        return self.round if self.rules.search == "round" else None

    def horizon_utilities(self, mark: int) -> list[float] | None:
        """None while round ``mark`` is in play; then the returns the game would give if it ended
        there — the seats that lead by ``[end.winner]`` (among every seat, its ``ties``, teams as
        the end of the game counts them) win — or the returns once it is over."""
        if self.player == TERMINAL:
            return self.returns()
        if self.round <= mark:
            return None
        winners = self._winners_of([(self.first + i) % self.n for i in range(self.n)], log=False)
        saved, self.winners = self.winners, winners
        try:
            return self.returns()
        finally:
            self.winners = saved

    def heuristic(self, player: int) -> float:
        if self.player == TERMINAL:
            return 1000.0 * self.returns()[player]
        e = self.rules.heuristic
        if e is None:
            return 0.0
        if e.fn is not None:  # _eval without its call (the look-aheads read it most)
            try:
                return float(e.fn(self, player, self.counters[player if player > 0 else 0], None))
            except (CardbaseError, _HiddenRead):
                raise
            except Exception:  # _eval says what failed
                pass
        return float(self._eval(e, player))

    def greedy_action(self, samples: int | None = None) -> int:
        """The greedy bot's move: the legal action whose result has the best ``[scoring]
        heuristic`` for the seat to play, averaged over ``samples`` deals (``[scoring] samples``,
        4 by default) of what that seat cannot see (it never peeks at a hidden card); every action
        is tried on the same deals. With ``horizon = "turn"`` the result is the position when the
        seat's turn is over, before the next turn deals anything: the seat's own later choices in
        that turn (an effect's) are played greedily too. Seeded by the game's seed and the moves
        so far.

        The look-aheads are first played on the position as it is, each hidden card replaced by
        an :class:`_Unseen` one: when none reads a card the seat cannot see nor draws chance, every
        deal would give the same results, so the deals are not made (the same choice, the same
        sums); otherwise the deals are made and only the look-aheads that read one or drew are
        played again on them, every other action keeping its undealt value (:class:`_PartlyHidden`).

        The look-ahead of the move chosen on the undealt position may have played the seat's next
        choice (a later choice of the same effect) on the position this move leads to: when the
        move is played, that choice is the answer, as the same look-ahead would find it again."""
        nxt, self._next = self._next, None
        if nxt is not None and samples is None and len(self.history) == nxt[0] and self.history[-1] == nxt[1] \
                and self.player == nxt[2] and self.decision is not None and self._undealt_first():
            self.game.undealt[0] += 1  # counted as the look-ahead it stands for
            return nxt[3]
        best, v, _steps = self._greedy(samples)
        if v is not None and samples is None and self._then is not None:
            self._next = (len(self.history) + 1, best, self.player, self._then)
        return best

    def _undealt_first(self) -> bool:
        """Whether :meth:`_greedy` tries the undealt position first."""
        tries = self.game.undealt
        return (self.game.shortcuts and (tries[1] < 16 or tries[1] * 4 < tries[0])
                and self.rules.horizon != "round"
                and (not self.secret or all(rec[0] == self.player for rec in self.secret)))

    def _greedy(self, samples: int | None = None) -> tuple[int, float | None, int]:
        """:meth:`greedy_action`, with what its look-ahead found when it was played on the
        undealt position: the heuristic after the move (None otherwise) and the number of the
        seat's later choices that look-ahead played (:meth:`_look_ahead`)."""
        p = self.player
        legal = self.legal_actions()
        if len(legal) == 1:
            return legal[0], None, 0
        n = self.rules.samples if samples is None else samples
        tries = self.game.undealt
        # a file whose look-aheads read hidden cards (or draw) most of the time is dealt at once;
        # another seat's secret choice is chosen again on every deal, a round's look-ahead draws
        known: dict[int, float | None] = {}
        if self._undealt_first():
            tries[0] += 1
            try:
                return self._greedy_undealt(p, legal, n)
            except _PartlyHidden as e:  # the look-aheads that read nothing hidden keep their values
                known = e.known
                if not any(v is not None for v in known.values()):
                    tries[1] += 1
            except _HiddenRead:
                tries[1] += 1
        if self.rng is _NO_RNG:  # a look-ahead on the undealt position cannot deal (resample)
            raise _HiddenRead
        rng = random.Random(self.seed * 1_000_003 + len(self.history))
        deals = []
        trial = self.rules.horizon in ("choice", "turn")
        for _ in range(n):
            # a deal of resample, without its chance: every look-ahead has a generator of its own
            d = self._redeal(self._fork(_NO_RNG, trial), p, rng)
            d.legal_actions()  # once per deal: every trial's clone inherits it
            deals.append((d, rng.random()))
        best, best_v = legal[0], None
        for a in legal:
            if a in known:  # its sum over the deals, found undealt (None: a copy, never better)
                total = known[a]
                if total is None:
                    continue
            else:
                total = 0.0
                for d, r in deals:
                    total += self._look_ahead(d, a, p, r)[0]
            if best_v is None or total > best_v:
                best, best_v = a, total
        return best, None, 0

    def _greedy_undealt(self, p: int, legal: list[int], n: int) -> tuple[int, float, int]:
        """:meth:`_greedy` on the position as it is, the cards ``p`` cannot see replaced by unseen
        ones: raises :class:`_HiddenRead` when a look-ahead uses one or draws chance.

        When every look-ahead can be read from the memo of ``score()`` (:meth:`_move_scorer`,
        :meth:`_chain_scorer`, :meth:`_last_scorer`), which read only the seat's hand and the
        discard piles, and the seat sees those (:meth:`_scorers_see`), the search is made on the
        position itself, with no copy and nothing hidden: the same reads, the same values. One that
        cannot be read gives that up, and the search is made again as written."""
        tries = self.game.undealt
        if self._scorers_see(p):
            before = tries[0]
            try:
                if self.decision is None and not self.queue:
                    return self._search_moves(p, legal, n)
                return self._search_undealt(p, legal, n, self, True)
            except (_Unread, _HiddenRead):
                tries[0] = before  # the searches counted are counted again
        base = self._undealt_base(p)
        if not self.game.legal_sees_only:  # finding them again stops if it reads an unseen card
            base._legal = None
            base.legal_actions()
        return self._search_undealt(p, legal, n, base, False)

    def _undealt_base(self, p: int) -> State:
        """The position the look-aheads of ``p``'s move are played from: a copy with no chance,
        the cards ``p`` cannot see replaced by unseen ones (a look-ahead's own position — a later
        choice of its seat — is not played on: it is the base)."""
        turn = self.rules.horizon in ("choice", "turn")
        base = self if self.rng is _NO_RNG else self._fork(_NO_RNG, turn)
        zones = base.zones
        shown = self.shown
        for name, q, top in self._hidden_plan(p):
            piles = zones[name]
            size = len(piles[q])
            if top:
                if size > 1:
                    piles[q] = _unseen(size - 1) + piles[q][-1:]
            elif size:
                piles[q] = _unseen(size)
            if shown and size:  # the cards a reveal showed are known
                piles[q] = [c if c in shown else u for c, u in zip(self.zones[name][q], piles[q])]
        return base

    def _hidden_plan(self, p: int) -> list[tuple[str, int, bool]]:
        """The piles ``p`` cannot see (as :meth:`_hidden` says): (zone, index, top card seen)."""
        plan = self.game.hidden_plan.get(p)
        if plan is None:
            plan = self.game.hidden_plan[p] = [
                (name, q, vis == "top") for name, q, owner, vis in self.game.piles
                if not (vis == "everyone" or (vis == "owner" and owner == p)
                        or (vis == "team" and self._teammates(owner, p)))]
        return plan

    def _scorers_see(self, p: int) -> bool:
        """Whether the search of ``p``'s move may be made on the position itself
        (:meth:`_greedy_undealt`): the heuristic reads only ``score()``, ``pending()`` and the
        options, ``p`` sees its own hand and every discard pile (``[effects]``), and finding the
        legal actions reads nothing ``p`` cannot see."""
        game = self.game
        if self.window is not None or p < 0 or not game.shortcuts:
            return False
        sees = game.scorers_see.get(p)
        if sees is None:
            eff = game.effects
            sees = game.scorers_see[p] = (
                eff is not None and game.score_heuristic and game.legal_sees_only
                and self.rules.horizon in ("choice", "turn") and len(self.zones[eff.discards_zone]) == self.n
                and not any(name == eff.discards_zone or (name == eff.hand_zone and q == (p if len(
                    self.zones[eff.hand_zone]) > 1 else 0)) for name, q, _top in self._hidden_plan(p)))
        return sees

    def _search_moves(self, p: int, legal: list[int], n: int) -> tuple[int, float, int]:
        """:meth:`_search_undealt` on the position itself (``fast``) when no choice is pending and
        nothing waits: every legal action a card of the seat's hand moved onto its discard pile or
        into its deck (:meth:`Game._quick`), read as :meth:`_move_scorer` reads it — the same
        values, copies of a card tried once (:meth:`_twin_keys`), in one loop; :class:`_Unread`
        for any other action or a value that cannot be read."""
        game = self.game
        moves = game.move_scoring
        if moves is None or self._ending:  # a turn ending queues no effect (_quick_look_ahead)
            raise _Unread
        eff = game.effects
        piles = self.zones[eff.hand_zone]
        hand = piles[p] if len(piles) > 1 else piles[0]
        hk = sum(map(eff.hand_get, hand))
        sig = self._discard_sig(p)
        memo, code, own, scores, values = eff.hand_memo, eff.hand_code, eff.own_code, eff.score_memo, eff.move_values
        twins, stride = game.twins, game.stride
        pile = self.zones[eff.discards_zone][p]
        tried: set | None = set() if twins is not None else None
        best, best_v, best_one = legal[0], None, 0.0
        for a in legal:
            k, i = divmod(a, stride)
            onto = moves[k]
            if onto is None or i >= len(hand):
                raise _Unread
            c = hand[i]
            if tried is not None:  # a copy of a card already tried gives its value: never better
                key = (k, twins[c])
                if key in tried:
                    continue
                tried.add(key)
            key = hk - code[c]
            hit = memo.get(key)
            if hit is None:
                rest = hand[:]
                del rest[i]
                hit = self._hand_entry(eff, key, rest)
            if hit[1] & 16:
                raise _Unread
            if hit[1]:
                after = sig + own[c] if onto else sig
                score = scores.get((key, after & hit[2]))
                if score is None:
                    if onto:
                        pile.append(c)
                    try:
                        score = self._score_rules(p, key, hit, after, hand, c)
                    finally:
                        if onto:
                            pile.pop()
                score += hit[0]
            else:
                score = hit[0]
            v = values.get((k, c, score))
            if v is None:  # the heuristic with the effects the move queues, read and kept
                scorer = self._move_scorer(p, True)
                v = scorer(a) if scorer is not None else None
                if v is None:
                    raise _Unread
            total = 0.0 + v if n > 0 else 0.0  # the sum over the deals, each giving v
            for _ in range(n - 1):
                total += v
            if best_v is None or total > best_v:
                best, best_v, best_one = a, total, v
        self._then = None
        return best, best_one, 0

    def _search_undealt(self, p: int, legal: list[int], n: int, base: State, fast: bool) -> tuple[int, float, int]:
        """The search of :meth:`_greedy_undealt` on ``base``; ``fast``: ``base`` is the position
        itself, every value read from the memo or :class:`_Unread` raised."""
        best, best_v, best_one, best_steps, best_then = legal[0], None, 0.0, 0, None
        quick = self.game.quick if self.decision is None and self.window is None and not self.queue else ()
        last = base._last_choice(fast)
        twins = self.game.twins
        tried: set | None = set() if twins is not None and self.window is None else None
        pairs, first = base._bottom_pairs(last, twins) if not fast or base.rng is _NO_RNG else (None, 0)
        quick_last = base._last_scorer(p, _unread if fast else None) if last else base._quick_last
        keys = base._twin_keys(legal, p, twins, quick) if tried is not None else None
        chain = None if last or quick else base._chain_scorer(p, fast)
        mover = base._move_scorer(p, fast) if quick and not last else None
        if fast and (quick_last is _unread or (not last and chain is None and mover is None)):
            raise _Unread
        # the sums of the look-aheads that read no hidden card and drew no chance, when another
        # did (None: a copy of a card whose first copy has one) — :class:`_PartlyHidden`
        known: dict[int, float | None] = {}
        hidden = False
        hidden_keys: set[Any] = set()  # the copies whose first copy's look-ahead read one
        for j, a in enumerate(legal):
            if keys is not None:  # a copy of a card already tried gives its value: never better
                key = keys[j]
                if key is not None:
                    if key in tried:
                        if key not in hidden_keys:
                            known[a] = None
                        continue
                    tried.add(key)
            if fast:
                v, steps, then = self._undealt_value(a, p, base, pairs, first, last, quick, quick_last, mover,
                                                     chain, fast)
            else:
                try:
                    v, steps, then = self._undealt_value(a, p, base, pairs, first, last, quick, quick_last,
                                                         mover, chain, fast)
                except _HiddenRead:
                    hidden = True
                    if keys is not None and keys[j] is not None:
                        hidden_keys.add(keys[j])
                    continue
            total = 0.0 + v if n > 0 else 0.0  # the sum over the deals, each giving v
            for _ in range(n - 1):
                total += v
            known[a] = total
            if best_v is None or total > best_v:
                best, best_v, best_one, best_steps, best_then = a, total, v, steps, then
        if hidden:
            raise _PartlyHidden(known)
        self._then = best_then
        return best, best_one, best_steps

    def _undealt_value(self, a: int, p: int, base: State, pairs: dict | None, first: int, last: bool,
                       quick: Any, quick_last: Any, mover: Any, chain: Any, fast: bool) -> tuple[float, int, int | None]:
        """The look-ahead of ``a`` in :meth:`_search_undealt`: its value, the seat's later choices
        it played and the next of them found (or None)."""
        then = None
        stride, twins = self.game.stride, self.game.twins
        if pairs is not None:  # the second card of two under the deck: either order, one value
            second = twins[a - self.game.decision_base]
            key = (first, second) if first <= second else (second, first)
            v, steps = pairs.get(key), 0
            if v is None:
                v = pairs[key] = quick_last(a, p)
        elif last:
            v, steps = quick_last(a, p), 0
        elif quick and quick[a // stride]:
            v = mover(a) if mover is not None else None
            if v is None:
                if fast:
                    raise _Unread
                v = base._quick_look_ahead(a, p)
            steps = 0
        else:
            found = chain(a) if chain is not None else None
            if found is not None:  # the look-ahead read from the memo (_chain_scorer)
                (v, then), steps = found, 1
            else:
                if fast:
                    raise _Unread
                self._then = None
                v, steps = self._look_ahead(base, a, p, None)
                then = self._then
        return v, steps, then

    def _bottom_pairs(self, last: bool, twins: list[int] | None) -> tuple[dict | None, int]:
        """For an effect's « place 2 cards under the deck » (BOTTOM, two left, nothing queued
        after it) in rules whose expressions tell neither copies nor a pile's order apart
        (:attr:`Game.twins`), the look-ahead of the second card ends where the same two cards
        placed the other way round end: the hand and the deck hold the same cards, only the order
        under the deck differs, which nothing reads. Marks such a position (its look-aheads of the
        first card copy the mark) and, on the position after the first card, gives the values of
        the pairs found so far and the first card's kind."""
        if twins is None:
            return None, 0
        d = self.decision
        if d is not None and d[0] == "bottom" and d[3] == 2 and not self.queue:
            self._pairs = (len(self.history), {})
            return None, 0
        mark = self.__dict__.get("_pairs")
        if last and d[0] == "bottom" and mark is not None and mark[0] == len(self.history) - 1:
            return mark[1], twins[self.history[-1] - self.game.decision_base]
        return None, 0

    def _twin_keys(self, legal: list[int], p: int, twins: list[int], quick: Any) -> list[Any]:
        """What the look-ahead of each action of ``legal`` depends on, for rules that cannot tell
        two copies of a card apart (:attr:`Game.twins`): the copy of the card an effect's choice
        names (with the pile a card is picked from), or the action and the copy of the card a
        look-ahead played in place moves; None for another action."""
        d = self.decision
        size = len(twins)
        if d is not None:
            base = self.game.decision_base
            if d[0] == "pick":
                return [(twins[x % size], x // size) if 0 <= x else None for x in [a - base for a in legal]]
            if d[0] in ("bottom", "give", "force", "take"):
                return [twins[x] if 0 <= x < size else None for x in [a - base for a in legal]]
            return [None] * len(legal)
        stride = self.game.stride
        actions = self.rules.actions
        out: list[Any] = []
        for action in legal:
            k, i = divmod(action, stride)
            if not (quick and quick[k]):
                out.append(None)
                continue
            pile = self._pile(actions[k].source, p)
            c = pile[i] if i < len(pile) else None
            out.append((k, twins[c]) if type(c) is int else None)
        return out

    def _quick_look_ahead(self, action: int, p: int) -> float:
        """:meth:`_look_ahead` of an action of :meth:`Game._quick` on the undealt position
        ``self``, played in place and taken back: the same changes as :meth:`_play` (the card
        moved, the move counted, its triggers, the turn ended and the look-ahead stopped), the
        heuristic read, every change undone."""
        k, i = divmod(action, self.game.stride)
        a = self.rules.actions[k]
        saved = (self._legal, self._ending, self.paused, self.queue, self.turn_actions)
        self._legal = None
        self.history.append(action)
        self.done[k] += 1
        self.turn_actions += 1
        zones = self.zones
        piles = zones[a.source]  # _pile, without its call
        pile = piles[p] if p >= 0 and len(piles) > 1 else piles[0]
        piles = zones[a.dest]
        dest = piles[p] if p >= 0 and len(piles) > 1 else piles[0]
        cid = pile.pop(i)
        if a.at == "bottom":
            dest.insert(0, cid)
        else:
            dest.append(cid)
        try:  # taken back even when the look-ahead reads a hidden card (_search_undealt goes on)
            game = self.game
            card = game.cards[cid]
            effects = game.effects
            for t in game.triggers[a.name]:
                if t.card is None or self._card_test(t.card, p, card):
                    for _op in t.ops:  # all « effect » (Game._quick): what _run does for one
                        if self._ending or effects is None:
                            break
                        acts = effects.on_discard[cid]
                        if acts:
                            self._log("effect", p, cid)
                            self.queue = [(p, cid, x) for x in acts] + self.queue
            self._ending = True
            self.paused = True
            return self.heuristic(p)
        finally:
            if a.at == "bottom":
                del dest[0]
            else:
                dest.pop()
            pile.insert(i, cid)
            self.done[k] -= 1
            self.history.pop()
            self._legal, self._ending, self.paused, self.queue, self.turn_actions = saved

    def _move_scorer(self, p: int, copy: bool = False) -> Any:
        """:meth:`_quick_look_ahead` read from the memo of :meth:`effect_score`, for a heuristic
        that reads only ``score()``, ``pending()`` and the options (:attr:`Game.score_heuristic`):
        ``value(action)`` of a card of the seat's hand (``[effects] hand``) moved onto its discard
        pile or into its deck is the heuristic of the hand less the card, the pile with it (in
        place, taken back), and the effects its triggers queue — or None where it must be played
        (another move, a hand whose rules read the deck, a card that cannot be read). None when
        nothing can be so read. ``copy``: as the search's copy of this position sees it (no log;
        the triggers' tests must read only the card)."""
        game = self.game
        e = self.rules.heuristic
        eff = game.effects
        if not (game.shortcuts and game.score_heuristic and eff is not None) \
                or self.queue or (self.events is not None and not copy) or self._ending:
            return None
        if copy and any(t.card is not None and game.card_memo(t.card) is None for t in self.rules.triggers):
            return None
        piles = self.zones[eff.hand_zone]
        hand = piles[p] if p >= 0 and len(piles) > 1 else piles[0]
        discards = self.zones[eff.discards_zone]
        try:
            hk = sum(map(eff.hand_get, hand))
            sig = self._discard_sig(p) if len(discards) == self.n else None
        except _HiddenRead:
            return None
        if sig is None:
            return None
        memo, code, own, fn, scores = eff.hand_memo, eff.hand_code, eff.own_code, e.fn or e.bind(FUNCTIONS), \
            eff.score_memo
        stride, actions, cards, triggers = game.stride, self.rules.actions, game.cards, game.triggers
        # the heuristic of a score and the effects a card's move queues, when the triggers' tests
        # read only the card (the same queue for that card and that move every time)
        values = eff.move_values if all(t.card is None or game.card_memo(t.card) is not None
                                        for t in self.rules.triggers) else {}
        pile = discards[p]
        seen = _Scored(self.n)

        def value(action: int) -> float | None:
            k, i = divmod(action, stride)
            a = actions[k]
            if a.source != eff.hand_zone or a.dest not in (eff.discards_zone, eff.deck_zone) or i >= len(hand):
                return None
            c = hand[i]
            key = hk - code[c]
            onto = a.dest == eff.discards_zone
            try:
                hit = memo.get(key)
                if hit is None:
                    rest = hand[:]
                    del rest[i]
                    hit = self._hand_entry(eff, key, rest)
                if hit[1] & 16:
                    return None
                if hit[1]:
                    after = sig + own[c] if onto else sig
                    score = scores.get((key, after & hit[2]))
                    if score is None:
                        if onto:
                            pile.append(c)
                        try:
                            score = self._score_rules(p, key, hit, after, hand, c)
                        finally:
                            if onto:
                                pile.pop()
                    score += hit[0]
                else:
                    score = hit[0]
                vk = (k, c, score)
                v = values.get(vk)
                if v is None:
                    queue: list[tuple] = []  # what _quick_look_ahead's triggers queue
                    for t in triggers[a.name]:
                        if t.card is None or self._card_test(t.card, p, cards[c]):
                            for _op in t.ops:
                                acts = eff.on_discard[c]
                                if acts:
                                    queue = [(p, c, x) for x in acts] + queue
                    seen.value, seen.queue = score, queue
                    v = float(fn(seen, p, None, None))
                    if len(values) > 200_000:
                        values.clear()
                    values[vk] = v
                return v
            except _HiddenRead:
                raise
            except Exception:  # a card that cannot be read, a formula that fails: as played
                return None

        return value

    def _last_choice(self, copy: bool = False) -> bool:
        """Whether the pending choice is an effect's last one — « place a card under the deck »
        (the effect language's BOTTOM, one card left) or the hand card a swap gives (GIVE) — with
        nothing queued after it, in a look-ahead that stops at the end of the turn: its
        look-ahead can be played in place and taken back (:meth:`_quick_last`). ``copy``: as the
        search's copy of this position sees it (:meth:`_fork`: no log, stopping at the end of the
        turn with ``horizon`` turn or choice)."""
        d = self.decision
        return (d is not None and (d[0] == "give" or (d[0] == "bottom" and d[3] == 1)) and not self.queue
                and self._ending and self.window is None and self.rules.check != "action"
                and (self._pause or (copy and self.rules.horizon in ("choice", "turn")))
                and (copy or self.events is None))

    def _last_scorer(self, p: int, fallback: Any = None) -> Any:
        """:meth:`_quick_last` for the answers to « place a card under the deck » (BOTTOM, the last
        choice) when the heuristic reads only ``score()``, ``pending()`` and the options
        (:attr:`Game.score_heuristic`): nothing waits after that choice, so its value is the
        heuristic of the seat's score with the card out of the hand, read from the memo of
        :meth:`effect_score` under the hand's kinds less the card's — nothing moved. A hand whose
        rules read the deck (where the card goes) or a card that cannot be read is played in place
        by :meth:`_quick_last` (which stops the same way) — or given to ``fallback`` when given,
        which is returned in place of the scorer where it does not apply."""
        fallback = fallback or self._quick_last
        d = self.decision
        game = self.game
        e = self.rules.heuristic
        if d[0] != "bottom" or d[1] != p or not game.score_heuristic:
            return fallback
        eff = game.effects
        piles = self.zones[eff.hand_zone]
        hand = piles[p] if p >= 0 and len(piles) > 1 else piles[0]
        try:
            hk = sum(map(eff.hand_get, hand))
        except _HiddenRead:
            return fallback
        quick_last, memo, code, fn, base = fallback, eff.hand_memo, eff.hand_code, e.fn or e.bind(FUNCTIONS), \
            game.decision_base
        scores, heuristic = eff.score_memo, eff.heuristic_memo
        seen = _Scored(self.n)
        sigs: list[int] = []  # the discard piles' counts (_discard_sig), once read

        def value(action: int, p: int) -> float:
            card = action - base
            key = hk - code[card]
            hit = memo.get(key)
            if hit is None:  # the hand less the card, as _quick_last leaves it
                rest = hand[:]
                rest.remove(card)
                hit = self._hand_entry(eff, key, rest)
            if hit[1] & 16:
                return quick_last(action, p)
            try:
                if hit[1]:
                    if not sigs:
                        sigs.append(self._discard_sig(p))
                    total = scores.get((key, sigs[0] & hit[2]))
                    if total is None:
                        total = self._score_rules(p, key, hit, sigs[0], hand, card)
                    total += hit[0]
                else:
                    total = hit[0]
                v = heuristic.get(total)
                if v is None:
                    seen.value = total
                    v = heuristic[total] = float(fn(seen, p, None, None))
                return v
            except Exception:  # a card that cannot be read, a formula that fails: as played
                return quick_last(action, p)

        return value

    def _discard_sig(self, seat: int) -> int:
        """The counts of every discard pile that score rules read, from ``seat``'s side: its own
        pile's :attr:`EffectTable.own_code` and the others' ``opp_code`` summed — every field of
        :meth:`_score_from` but the deck's (a hand's mask keeps those its rules read)."""
        eff = self.game.effects
        piles = self.zones[eff.discards_zone]
        sig = sum(map(eff.own_get, piles[seat]))
        for q, pile in enumerate(piles):
            if q != seat:
                sig += sum(map(eff.opp_get, pile))
        return sig

    def _chain_scorer(self, p: int, copy: bool = False) -> Any:
        """The look-ahead of an effect's choice whose next choice is its last (a look's card taken,
        then one card under the deck; a card recovered, then one under the deck; the first of two
        cards under the deck; a swap's card, then the hand card given), read from the memo of
        :meth:`effect_score` with nothing moved but the discard piles (in place, taken back):
        ``value(action)`` gives what :meth:`_look_ahead` finds — the best value of the last choice
        as its search (:meth:`_greedy_undealt` with :meth:`_last_scorer`, or the one legal answer
        played) finds it, and that answer — or None where it must be played (a hand whose rules
        read the deck, a card that cannot be read, the next search not on the undealt position).
        None when the position is not such a choice or the heuristic reads more than ``score()``,
        ``pending()`` and the options (:attr:`Game.score_heuristic`). ``copy``: as the search's copy
        of this position sees it (:meth:`_last_choice`)."""
        d = self.decision
        game = self.game
        e = self.rules.heuristic
        if (d is None or d[1] != p or not game.shortcuts or not game.score_heuristic
                or self.queue or self.paused or not self._ending or self.window is not None
                or self.rules.check == "action" or not (copy or (self._pause and self.events is None))
                or not (self._pause or self.rules.horizon in ("choice", "turn"))):
            return None
        tag = d[0]
        if not ((tag == "take" and d[3] == 1 and d[5] == 1) or tag == "pick" or (tag == "bottom" and d[3] == 2)):
            return None
        eff = game.effects
        piles = self.zones[eff.hand_zone]
        hand = piles[p] if p >= 0 and len(piles) > 1 else piles[0]
        try:
            hk = sum(map(eff.hand_get, hand))
            sig = self._discard_sig(p)
        except _HiddenRead:
            return None
        give = tag == "pick" and d[4] == "swap"
        memo, code, own, opp, scores = eff.hand_memo, eff.hand_code, eff.own_code, eff.opp_code, eff.score_memo
        heuristic = eff.heuristic_memo
        fn, base, size, twins, n = e.fn or e.bind(FUNCTIONS), game.decision_base, eff.size, game.twins, self.rules.samples
        discards = self.zones[eff.discards_zone]
        leg = eff.legendary
        seen = _Scored(self.n)

        def value(action: int) -> tuple[float, int | None] | None:
            x = action - base
            pile: list[int] | None = None
            if tag == "pick":
                x, src = x % size, (d[2] + x // size) % self.n
                pile = discards[src]
                at = pile.index(x)
                del pile[at]
                after_sig = sig - (own[x] if src == p else opp[x])
            else:
                after_sig = sig
            try:
                if give:  # the next choice: the hand card given for x, onto the seat's pile
                    rest, after = hand + [x], hk + code[x]
                    answers = sorted({c for c in hand if not leg[c]})
                else:  # the next choice: the last card under the deck
                    if tag == "bottom":
                        rest = hand[:]
                        rest.remove(x)
                        after = hk - code[x]
                    else:
                        rest, after = hand + [x], hk + code[x]
                    answers = sorted(set(rest))
                if not answers or not self._undealt_first():
                    return None
                # the values of the answers a search tries (a copy of a card tried once: _twin_keys)
                values = []
                tried: set | None = set() if twins is not None and len(answers) > 1 else None
                for c in answers:
                    if tried is not None:
                        key = twins[c]
                        if key in tried:
                            continue
                        tried.add(key)
                    key = after - code[c]  # the seat's hand at the end: rest less c
                    hit = memo.get(key)
                    if hit is None:
                        final = rest[:]
                        final.remove(c)
                        hit = self._hand_entry(eff, key, final)
                    if hit[1] & 16:
                        return None
                    if hit[1]:
                        end_sig = after_sig + own[c] if give else after_sig
                        total = scores.get((key, end_sig & hit[2]))
                        if total is None:
                            if give:  # the card given is on the seat's pile
                                discards[p].append(c)
                            try:
                                total = self._score_rules(p, key, hit, end_sig, rest, c)
                            finally:
                                if give:
                                    discards[p].pop()
                        total += hit[0]
                    else:
                        total = hit[0]
                    v = heuristic.get(total)
                    if v is None:
                        seen.value = total
                        v = heuristic[total] = float(fn(seen, p, None, None))
                    values.append((c, v))
            except _HiddenRead:
                raise
            except Exception:  # a card that cannot be read, a formula that fails: as played
                return None
            finally:
                if pile is not None:
                    pile.insert(at, x)
            if len(answers) == 1:  # played without a search (_greedy)
                return values[0][1], None
            game.undealt[0] += 1  # the search the look-ahead would make
            best, best_v, best_one = answers[0], None, 0.0
            for c, v in values:
                total = 0.0 + v if n > 0 else 0.0
                for _ in range(n - 1):
                    total += v
                if best_v is None or total > best_v:
                    best, best_v, best_one = c, total, v
            return best_one, base + best

        return value

    def _quick_last(self, action: int, p: int) -> float:
        """:meth:`_look_ahead` of the answer ``action`` to the choice of :meth:`_last_choice`,
        played in place and taken back: what :meth:`_play` does (the move counted, the card out of
        the hand — and of the cards shown — under the deck, or on the discard pile with the card
        taken by the swap in the hand; the effect over, the turn ended and the look-ahead
        stopped), the heuristic read, every change undone."""
        d = self.decision
        chooser, card = d[1], action - self.game.decision_base
        eff = self.game.effects
        hand = self.zones[eff.hand_zone][chooser]
        dest = self.zones[eff.deck_zone if d[0] == "bottom" else eff.discards_zone][chooser]
        shown = self.revealed[chooser]
        saved = (self._legal, self.player, self.turn_actions, self.paused)
        i = hand.index(card)
        del hand[i]
        j = shown.index(card) if shown and card in shown else -1
        if j >= 0:
            del shown[j]
        if d[0] == "bottom":
            dest.insert(0, card)
        else:
            dest.append(card)
            hand.append(d[3])
        self.history.append(action)
        self.turn_actions += 1
        self._legal = None
        self.decision = None
        self.player = d[2]  # the turn belongs to the effect's owner, over
        self.paused = True
        try:  # taken back even when the heuristic reads a hidden card (_search_undealt goes on)
            return self.heuristic(p)
        finally:
            if d[0] == "bottom":
                del dest[0]
            else:
                dest.pop()
                hand.pop()
            if j >= 0:
                shown.insert(j, card)
            hand.insert(i, card)
            self.history.pop()
            self.decision = d
            self._legal, self.player, self.turn_actions, self.paused = saved

    def _look_ahead(self, deal: State, action: int, p: int, r: float | None) -> tuple[float, int]:
        """The heuristic for ``p`` after ``action`` on ``deal`` and the number of later choices
        of ``p`` played greedily (``horizon`` turn or choice); ``r``: the seed of its chance (None:
        no chance, :data:`_NO_RNG`).

        A later choice found by a look-ahead on the undealt position comes with the heuristic
        after it and its own later choices: when those fit in what is left of the 20 choices,
        this look-ahead would end on that same position, so it stops there with that value."""
        if self.rules.horizon == "round":  # to the end of the round (structures)
            return self._round_ahead(deal, action, p, r), 0
        turn = self.rules.horizon in ("choice", "turn")
        # chance after the move is not known either
        s = deal._fork(_NO_RNG if r is None else _LazyRng(r), turn)
        if r is None:
            s._play(action, None)
        else:
            s.apply_action(action)
        depth = 0
        if turn:
            while not s.paused and s.player == p and s.decision is not None and depth < 20:
                a, v, steps = s._greedy()
                if v is not None and steps <= 19 - depth:
                    if depth == 0:
                        self._then = a  # the seat's next choice after ``action``
                    return v, depth + 1 + steps
                if r is None:
                    s._play(a, None)
                else:
                    s.apply_action(a)
                depth += 1
        return s.heuristic(p), depth

    def coverage(self) -> dict[str, list[int]]:
        """Rule coverage: each action's [decisions where it was legal, times played]."""
        return {k: v[:] for k, v in self.cov.items() if v[0]}

    def _count_cards(self, p: int, legal: list[int], k: int, i: int) -> None:
        """The cards' figures of seat ``p``'s decision among ``legal``, before action ``k`` at
        position ``i`` is played: each card a legal action could choose offered once, the card
        chosen taken once (an action that takes the top or a random card chooses none)."""
        if self.game.set_actions:  # each card of a set offered, each card of the set chosen taken
            sets.count_cards(self, p, legal, k, i)
            return
        stride, choice, key, sources = self.game.card_info
        cov = self.card_cov[p]  # per card: offered at 2 × card, taken at 2 × card + 1
        if legal[0] // stride == legal[-1] // stride:  # one action's choices: action k's (common)
            if choice[k]:
                pile = self._pile(sources[k], p)
                if len(legal) == len(pile):  # every card of the pile
                    offered: Any = set(map(key.__getitem__, pile))
                else:
                    at = k * stride
                    offered = {key[pile[x - at]] for x in legal}
                for c in offered:
                    cov[c] += 1
                cov[key[pile[i]] + 1] += 1
            return
        offered = set()
        for kk in {x // stride for x in legal}:
            if kk < len(choice) and choice[kk]:
                pile = self._pile(sources[kk], p)
                at = kk * stride
                offered.update(key[pile[x - at]] for x in legal if x // stride == kk)
        for c in offered:
            cov[c] += 1
        if choice[k]:
            cov[key[self._pile(sources[k], p)[i]] + 1] += 1

    def card_counts(self, seat: int) -> dict[str, list[int]]:
        """Seat ``seat``'s cards in this game: per card (reference, or name for a card of the
        file) [decisions where a legal action could choose it, times chosen]."""
        if not self.card_cov:
            return {}
        cov = self.card_cov[seat]
        return {name: [o, t] for name, o, t in zip(self.game.card_keys, cov[::2], cov[1::2]) if o}

    def held_cards(self, seat: int) -> set[str]:
        """The cards (reference, or name) seat ``seat`` chose at least once (State.card_counts)."""
        if not self.card_cov:
            return set()
        return {name for name, t in zip(self.game.card_keys, self.card_cov[seat][1::2]) if t}

    def record_facts(self) -> dict[str, Any] | None:
        """A batch's figures of this game: ``cards``, each seat's :meth:`card_counts` (None for
        a game where no action chooses a card)."""
        if not self.card_cov:
            return None
        return {"cards": [self.card_counts(q) for q in range(self.n)]}

    # ------------------------------------------------------------------ information

    def _hidden(self, zone: str, owner: int, player: int, size: int) -> range:
        vis = self.rules.zones[zone].visible
        if vis == "everyone" or (vis == "owner" and owner == player):
            return range(0)
        if vis == "team" and self._teammates(owner, player):
            return range(0)
        if vis == "top":
            return range(max(size - 1, 0))
        return range(size)

    def _unseen_by(self, src: str, at: int, size: int, dst: str, to: int, dsize: int, p: int,
                   dp: int | None = None) -> int:
        """The seats that saw a card moved by seat ``p`` neither where it was (place ``at`` of
        ``size`` in zone ``src``) nor where it went (place ``to`` of ``dsize`` in ``dst``; seat
        ``dp``'s pile when given), as a bitmask: a card drawn from a hidden pile into a hand is its
        owner's alone."""
        zones = self.rules.zones
        so = p if zones[src].per_player else -1
        do = (p if dp is None else dp) if zones[dst].per_player else -1
        mask = 0
        for q in range(self.n):
            if at in self._hidden(src, so, q, size) and to in self._hidden(dst, do, q, dsize):
                mask |= 1 << q
        return mask

    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` sees: each zone's size and the names of the cards it can see (None for
        a hidden one), every counter, the seat to play and the round."""
        zones: dict[str, Any] = {}
        for name, piles in self.zones.items():
            per = self.rules.zones[name].per_player
            rows = []
            for owner, pile in enumerate(piles):
                hidden = set(self._hidden(name, owner if per else -1, player, len(pile)))
                if hidden and self.shown:  # cards a reveal showed to every seat
                    hidden = {i for i in hidden if pile[i] not in self.shown}
                rows.append(tuple(None if i in hidden else self.game.cards[c].name
                                  for i, c in enumerate(pile)))
            zones[name] = tuple(rows)
        out = {"player": player, "current_player": self.player, "round": self.round,
               "zones": zones, "counters": tuple(tuple(sorted(c.items())) for c in self.counters),
               "terminal": self.player == TERMINAL}
        if self.decision is not None:  # an effect's pending choice: its kind, and to the chooser
            from cardbase.games.effects.resolve import decision_view  # the cards offered

            tag, offered = decision_view(_EffectView(self), player)
            size = len(self.game.cards)
            out["decision"] = (tag, tuple(self.game.cards[c % size].name for c in offered))
        if any(self.revealed) and player >= 0:  # cards an effect showed to the others
            out["revealed"] = tuple(tuple(self.game.cards[c].name for c in r) if q != player else ()
                                    for q, r in enumerate(self.revealed))
        if self.window is not None or self.secret:  # an answer window, secret choices
            self._observe_more(player, out)
        return out

    def information_key(self, player: int) -> tuple:
        o = self.observation(player)
        return (o["current_player"], o["round"], tuple(sorted(o["zones"].items())), o["counters"],
                tuple(self.done), o.get("decision"), o.get("revealed"), o.get("window"), o.get("secret"))

    def resample(self, player: int, rng: random.Random, *, trial: bool = False) -> State:
        """A clone where every card ``player`` cannot see is dealt again at random among the
        hidden places (each zone keeps its size). With ``source = "decks"`` each player's deck
        list is public: the unseen cards of a player's zones are dealt again among that player's
        hidden places only (NesPanini ruling R9, ``public``); the cards an effect revealed stay."""
        return self._redeal(self.clone(trial=trial), player, rng)  # trial: no coverage counted

    def _redeal(self, s: State, player: int, rng: random.Random) -> State:
        """:meth:`resample` on ``s``, a copy of this position."""
        by_owner = self.rules.source == "decks"
        if not self.game.phantoms and not any(s.revealed) and not s.shown:
            self._redeal_runs(s, player, rng, by_owner)
        else:
            self._redeal_places(s, player, rng, by_owner)
        if s.secret:  # the others' secret choices, chosen again in the re-dealt position
            s._resample_secret(player, rng)
        s._legal = None
        return s

    def _redeal_places(self, s: State, player: int, rng: random.Random, by_owner: bool) -> None:
        """:meth:`_redeal` place by place: the cards an effect revealed stay, a hidden deck list
        (R9) deals from the card pool."""
        groups: dict[int, list[tuple[list[int], int]]] = {}
        for name, piles in s.zones.items():
            per = self.rules.zones[name].per_player
            for owner, pile in enumerate(piles):
                hidden = self._hidden(name, owner if per else -1, player, len(pile))
                if s.shown:  # the cards a reveal showed stay where they are
                    hidden = [i for i in hidden if pile[i] not in s.shown]
                if not hidden:
                    continue
                known = s.revealed[owner] if (per and owner != player and any(s.revealed)) else ()
                g = groups.setdefault(owner if (by_owner and per) else -1, [])
                if known:
                    left = list(known)
                    for i in hidden:
                        if pile[i] in left:
                            left.remove(pile[i])
                        else:
                            g.append((pile, i))
                else:
                    g.extend((pile, i) for i in hidden)
        for _key, places in sorted(groups.items()):
            if self.game.phantoms and 0 <= _key != player:  # R9 hidden: from the card pool
                s._pool_deal(_key, places, rng)
                continue
            cards = sorted(pile[i] for pile, i in places)  # the deal depends on what is unseen, not where
            rng.shuffle(cards)
            for (pile, i), c in zip(places, cards):
                pile[i] = c

    def _redeal_runs(self, s: State, player: int, rng: random.Random, by_owner: bool) -> None:
        """:meth:`_redeal` when no card was revealed and no pool deals: the hidden places of a pile
        are its first cards (all, or all but the top), so the cards are taken and put back a run
        of a pile at a time — the same places in the same order, the same sorted cards shuffled."""
        groups: dict[int, list[tuple[list[int], int]]] = {}
        zones = self.rules.zones
        for name, piles in s.zones.items():
            per = zones[name].per_player
            for owner, pile in enumerate(piles):
                k = len(self._hidden(name, owner if per else -1, player, len(pile)))
                if k:
                    groups.setdefault(owner if (by_owner and per) else -1, []).append((pile, k))
        for _key, runs in sorted(groups.items(), key=_first):
            cards = sorted(itertools.chain.from_iterable([pile[:k] for pile, k in runs]))
            rng.shuffle(cards)
            at = 0
            for pile, k in runs:
                pile[:k] = cards[at:at + k]
                at += k

    # ------------------------------------------------------------------ text

    def action_to_string(self, action: int) -> str:
        if action == self.game.pass_action and self.window is not None:
            return tr("rulesplay.action.pass")
        if self.decision is not None and action >= self.game.decision_base:
            from cardbase.games.effects.resolve import decision_action_to_string

            return decision_action_to_string(_EffectView(self), action - self.game.decision_base)
        k, i = divmod(action, self.game.stride)
        if not 0 <= k < len(self.rules.actions):
            return str(action)
        a = self.rules.actions[k]
        p = self.player if self.player >= 0 else 0
        if a.pick == "set":  # « Valider la série : 3 rouge, 4 rouge, 5 rouge »
            chosen = sets.set_cards(self, a, p, i)
            return tr("rulesdata.action.card", action=words.label(self, a, p, chosen),
                      card=sets.names(self, chosen) or "—")
        label = words.label(self, a, p)
        if a.choose_counter is not None and 0 <= i < len(a.choose_values):
            return tr("rulesdata.action.number", action=label, value=a.choose_values[i])
        if a.source is None:
            return label
        pile = self._pile(a.source, p)
        hidden = a.pick == "choice" and bool(self._hidden(a.source, p, p, len(pile))) and \
            i in self._hidden(a.source, p, p, len(pile))
        card = "" if hidden or i >= len(pile) else self.game.cards[pile[i]].name
        if a.pick != "choice":
            return label
        if hidden:
            return tr("rulesdata.action.position", action=label, position=i + 1)
        return tr("rulesdata.action.card", action=label, card=card)

    def event_to_string(self, event: tuple) -> str:
        kind = event[0]
        if kind in structures.MORE_EVENTS and _structural(event):
            return self._event_more(event)
        if kind == "round":
            return tr("rulesdata.log.round", round=event[1])
        if kind == "turn":
            return tr("rulesdata.log.turn", player=event[1] + 1)
        if kind == "action":
            k, i = divmod(event[2], self.game.stride)
            a = self.rules.actions[k]
            label = event[3] if len(event) > 3 else (a.label.get(current_language()) or a.label.get("fr") or a.name)
            if a.choose_counter is not None and 0 <= i < len(a.choose_values):
                label = tr("rulesdata.action.number", action=label, value=a.choose_values[i])
            return tr("rulesdata.log.action", player=event[1] + 1, action=label)
        if kind == "card":
            return tr("rulesdata.log.card", player=event[1] + 1, card=self.game.cards[event[2]].name)
        if kind == "cards":  # a set's cards, moved at once
            return tr("rulesdata.log.card", player=event[1] + 1, card=sets.names(self, event[2]))
        if kind == "no_move":
            return tr("rulesdata.log.no_move", player=event[1] + 1)
        if kind == "turn_limit":
            return tr("rulesdata.log.turn_limit", player=event[1] + 1)
        if kind == "end_turn":
            return tr("rulesdata.log.end_turn", player=event[1] + 1)
        if kind in EFFECT_EVENTS:  # the events of an effect (cardbase.games.effects.resolve)
            cards = self.game.cards
            arg = event[2]
            if kind == "pick":
                return tr("rulesdata.log.eff.pick", player=event[1] + 1, card=cards[arg].name,
                          owner=event[3] + 1)
            if isinstance(arg, tuple):
                return tr(f"rulesdata.log.eff.{kind}", player=event[1] + 1,
                          card=", ".join(cards[c].name for c in arg) or "—")
            return tr(f"rulesdata.log.eff.{kind}", player=event[1] + 1, card=cards[arg].name)
        if kind == "end":
            reason = self.game.ending_label(event[1]) or event[1]
            if not event[2]:
                return tr("rulesdata.log.end_none", reason=reason)
            return tr("rulesdata.log.end", reason=reason, players=", ".join(str(p + 1) for p in event[2]))
        return str(event)

    def op_to_string(self, entry: tuple, seat: int | None = None) -> str:
        """A line of the log for what an operation did (``ops_log``), as ``seat`` may know it
        (None: the referee): a moved card is named only to the seats that saw it where it was or
        where it went, and only when at most :data:`OP_NAMED` cards moved; a deal gives counts."""
        kind, who = entry[1], entry[2]
        if kind == "reveal":  # cards shown to every seat
            return tr("rulesdata.log.op.reveal", player=max(who, 0) + 1, zone=entry[3],
                      cards=", ".join(self.game.cards[c].name or "?" for c in entry[4]))
        if kind == "counter":
            return tr("rulesdata.log.op.counter", player=who + 1, counter=entry[3], old=entry[4],
                      new=entry[5])
        if kind == "shuffle":
            if who >= 0:
                return tr("rulesdata.log.op.shuffle_mine", player=who + 1, zone=entry[3])
            return tr("rulesdata.log.op.shuffle", zone=entry[3])
        if kind == "rotate":
            return tr("rulesdata.log.op.rotate", zone=entry[3], k=entry[4])
        if kind == "deal":
            counts = entry[5]
            n = ", ".join(str(x) for x in counts) if len(set(counts)) > 1 else str(counts[0])
            return tr("rulesdata.log.op.deal", counts=n, most=max(counts), src=entry[3],
                      dst=entry[4])
        moved = entry[5]  # a move: ((card, the seats that did not see it), ...)
        if len(moved) > OP_NAMED:
            cards = _op_count(len(moved))
        else:
            shown = [self.game.cards[c].name for c, mask in moved if seat is None or not mask >> seat & 1]
            hidden = len(moved) - len(shown)
            if hidden:
                shown.append(tr("rulesdata.log.op.hidden_one") if hidden == 1
                             else tr("rulesdata.log.op.hidden_many", n=hidden))
            cards = ", ".join(shown)
        dst = entry[4] if len(entry) < 7 else tr("rulesdata.log.op.zone_of", zone=entry[4], player=entry[6] + 1)
        if who >= 0:
            return tr("rulesdata.log.op.move_by", player=who + 1, cards=cards, src=entry[3], dst=dst)
        return tr("rulesdata.log.op.move", cards=cards, src=entry[3], dst=dst)

    def log_lines(self, seat: int | None = None, *, operations: bool = True, start: int = 0) -> list[str]:
        """The game's log in words: all of it (``seat`` None: the referee's log, for the reports
        and the end of a game), or what ``seat`` may know — a card another seat drew or moved out
        of its sight is « une carte cachée », another seat's draws, looks and takes during an
        effect are told without their cards (as at NesPanini's own table). One line a move: an
        action, the card it moved and the answer window it opened are one line (« Joueur 2 :
        Poser face cachée — une carte cachée », « Joueur 2 : Annoncer — les autres peuvent
        répondre »). ``operations``: with the lines of what the rules' operations did
        (:meth:`op_to_string`), each where it happened. ``start``: the lines from that one on
        (those added since a reader's last look).

        Kept per seat, ``operations`` and language as the game goes on: a call words only the
        moves made since the last call (and the last move again, whose events may not all be in)."""
        events = self.events
        if events is None:
            return []
        cache = self.__dict__.get("_log_cache")
        if cache is None or cache[0] is not events:  # a new game's log, or a copy's
            cache = self._log_cache = (events, {})
        key = (seat, operations, current_language())
        kept = cache[1].get(key)
        if kept is None or kept[1] > len(events):
            kept = cache[1][key] = [[], 0, 0, 0]
        self._log_walk(seat, operations, kept)
        return kept[0][start:]

    def _log_walk(self, seat: int | None, operations: bool, kept: list) -> None:
        """:meth:`log_lines` from where ``kept`` (its lines, then the event, operation and line
        where its last move began) stopped: that move's lines made again, then the new ones."""
        lines, i, j, n = kept
        del lines[n:]
        events, ops = self.events or [], self.ops_log or []
        resume = (i, j, n)
        while i < len(events):
            while j < len(ops) and ops[j][0] <= i:
                if operations:
                    lines.append(self.op_to_string(ops[j], seat))
                j += 1
            resume = (i, j, len(lines))
            i = self._move_line(i, j, seat, lines)
        if operations:
            lines.extend(self.op_to_string(e, seat) for e in ops[j:])
        kept[1:] = resume

    def _move_line(self, i: int, j: int, seat: int | None, lines: list[str]) -> int:
        """The line of event ``i`` as ``seat`` may know it — with, for an action, the card it
        moved and the window it opened (the events after it, the same seat's, no operation
        between: ``ops_log[j]`` is the first operation after event ``i``) — added to ``lines``;
        the event after those it told."""
        events = self.events or []
        e = events[i]
        if e[0] != "action":
            lines.append(self._event_line(i, e, seat))
            return i + 1
        ops = self.ops_log or []
        nxt, p = i + 1, e[1]
        line = self.event_to_string(e)

        def follows(kinds: tuple[str, ...]) -> bool:  # event nxt, the same seat's, nothing between
            return (nxt < len(events) and events[nxt][0] in kinds and events[nxt][1] == p
                    and (j >= len(ops) or ops[j][0] > nxt))

        if follows(("card", "cards")):
            line = tr("rulesdata.log.with_card", line=line, card=self._card_words(nxt, seat))
            nxt += 1
        if follows(("window",)) and events[nxt][2] == e[2] // self.game.stride:
            line = tr("rulesdata.log.with_window", line=line)
            nxt += 1
        lines.append(line)
        return nxt

    def _card_words(self, i: int, seat: int | None) -> str:
        """The card (or a set's cards) of event ``i``, as ``seat`` may know them: by name, or
        « une carte cachée » when it did not see the card where it was or where it went."""
        e = self.events[i]  # type: ignore[index]
        masks = self.unseen.get(i) if seat is not None else None
        if e[0] == "cards":
            return sets.names(self, e[2], seat, masks)
        if masks is not None and masks >> seat & 1:  # type: ignore[operator]
            return tr("rulesdata.log.op.hidden_one")
        return self.game.cards[e[2]].name

    def _event_line(self, i: int, e: tuple, seat: int | None) -> str:
        """The line of event ``i`` alone, as ``seat`` may know it (None: the referee)."""
        if seat is None:
            return self.event_to_string(e)
        kind = e[0]
        unseen = self.unseen
        if kind == "card" and unseen.get(i, 0) >> seat & 1:
            return tr("rulesdata.log.card_hidden", player=e[1] + 1)
        if kind == "cards" and i in unseen:  # a set some of whose cards this seat did not see
            return tr("rulesdata.log.card", player=e[1] + 1, card=sets.names(self, e[2], seat, unseen[i]))
        if kind in PRIVATE_EFFECT_EVENTS and len(e) > 2 and e[1] != seat:  # not a structure's
            n = len(e[2]) if isinstance(e[2], tuple) else 1
            return tr(f"rulesdata.log.eff.{kind}_hidden", player=e[1] + 1, n=n)
        return self.event_to_string(e)

    def _log(self, *event: Any) -> None:
        if self.events is not None:
            self.events.append(event)

    def _op_log(self, *entry: Any) -> None:
        """What an operation did (``ops_log``, kept only when the game keeps its log)."""
        assert self.ops_log is not None and self.events is not None
        self.ops_log.append((len(self.events), *entry))

    def _table_counter(self, seat: int, name: str) -> None:
        """A counter of the table set by seat ``seat``: every seat's copy takes its value."""
        v = self.counters[max(seat, 0)][name]
        for c in self.counters:
            c[name] = v

    def _reveal_zone(self, zone: str, seat: int) -> None:
        """``reveal``: the zone's cards (the seat's pile; every pile in the set-up) shown face up to
        every seat until a player's action moves them or their zone is shuffled; logged by name."""
        per = self.rules.zones[zone].per_player
        piles = self.zones[zone] if per and seat < 0 else [self._pile(zone, seat)]
        cids = tuple(c for pile in piles for c in pile if c not in self.shown)
        if not cids:
            return
        self.shown = self.shown.union(cids)
        if self.ops_log is not None:
            self._op_log("reveal", seat, zone, cids)

    def _op_counter(self, seat: int, name: str, new: int) -> None:
        """A counter an operation sets to ``new``: logged when it is a scoring counter whose value
        changes."""
        counters = self.counters[max(seat, 0)]
        old = counters[name]
        counters[name] = new
        if new != old and name in self.game.scoring_counters:
            self._op_log("counter", max(seat, 0), name, old, new)


OP_NAMED = 8  # an operation that moves more cards than this gives their number, not their names


def _op_count(n: int) -> str:
    return tr("rulesdata.log.op.one") if n == 1 else tr("rulesdata.log.op.many", n=n)
