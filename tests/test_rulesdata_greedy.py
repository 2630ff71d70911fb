"""The rules interpreter's greedy bot plays the same moves with its shortcuts as without them
(``Game.shortcuts``): look-aheads on the undealt position with the unseen cards replaced
(``_Unseen``), look-aheads played in place and taken back, score() and card tests memoised. The
speed itself is measured by ``benchmarks/bench_rulesdata_nespanini.py``, never here."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from cardbase.games import registry
from cardbase.games.frame import IllegalActionError
from cardbase.games.rulesdata.engine import Game, _HiddenRead, _unseen, _Unread
from cardbase.games.rulesdata.language import load_rules, parse_rules_text
from cardbase.playtest.batch import game_seed
from cardbase.playtest.cards import load_deck_defs, load_edition_defs, starter_decks

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "data" / "rules"
DECKS = {n: load_deck_defs(p) for n, p in starter_decks().items() if n in (
    "bosquet-en-fete", "braises-ardentes", "cour-arc-en-ciel", "maree-et-crypte")}
P15 = [c for c in load_edition_defs([ROOT / "data" / "editions" / "P15.toml"]) if c.game == "pushluck"]


def _games() -> dict[str, Game]:
    nespanini = load_rules(RULES / "nespanini.toml")
    return {
        "goldfish maree-et-crypte": Game(nespanini, decks=[DECKS["maree-et-crypte"]]),
        "maree-et-crypte v braises-ardentes": Game(nespanini, decks=[DECKS["maree-et-crypte"],
                                                                      DECKS["braises-ardentes"]]),
        "bosquet-en-fete v cour-arc-en-ciel": Game(nespanini, decks=[DECKS["bosquet-en-fete"],
                                                                      DECKS["cour-arc-en-ciel"]]),
        "huit": registry.get("huit").build((), 2),
        "pushluck": Game(load_rules(RULES / "pushluck.toml"), P15, 2),
    }


def _play(game: Game, seed: int):
    s = game.new_state(seed, log=False)
    while not s.is_terminal():
        s.apply_action(s.greedy_action())
    return s


# The greedy games of the interpreter before its shortcuts (commit 39ad447), 30 seeds each
# (game i dealt from game_seed(0, i)): a digest of the moves, the winners and the ending.
BEFORE = {
    "goldfish maree-et-crypte": "7564ffe2b27ed1d8",
    "maree-et-crypte v braises-ardentes": "7ccdc62210d74617",
    "bosquet-en-fete v cour-arc-en-ciel": "8b4a8d7c34941a65",
    "huit": "30fcc3c6b68eda1b",
    "pushluck": "e37939c1d2a51c1e",
}


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_greedy_plays_the_moves_it_played_before_the_shortcuts(name: str) -> None:
    game = _games()[name]
    h = hashlib.sha256()
    for i in range(30):
        s = _play(game, game_seed(0, i))
        h.update(repr((s.history, s.winners, s.ended_by)).encode())
    assert h.hexdigest()[:16] == BEFORE[name]


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_shortcuts_change_no_move(name: str) -> None:
    """The same games, seeds 1000 on (not those pinned above), with and without the shortcuts:
    the same moves, winners, ending, final heuristics and effect coverage; and the shortcut
    taken where the look-aheads read no hidden card (NesPanini), given up where they all do (Le
    Huit's look-ahead reaches the next seat's turn), kept where only some do (15 en un tour's
    draw at random is played on the deals, its « stop » kept from the undealt position)."""
    fast, plain = _games()[name], _games()[name]
    plain.shortcuts = False
    for i in range(25):
        a, b = _play(fast, game_seed(1000, i)), _play(plain, game_seed(1000, i))
        assert a.history == b.history
        assert (a.winners, a.ended_by, a.effect_cov) == (b.winners, b.ended_by, b.effect_cov)
        assert [a.heuristic(p) for p in range(a.n)] == [b.heuristic(p) for p in range(b.n)]
    tried, stopped = fast.undealt
    assert plain.undealt == [0, 0]
    if name == "huit":
        assert stopped == tried == 16  # given up after 16 searches where every look-ahead read one
    elif name == "pushluck":
        assert tried > 2 * stopped >= 32  # a search where one look-ahead reads one keeps the others
    else:
        assert tried > 100 and stopped * 20 < tried


def test_greedy_leaves_the_position_as_it_was() -> None:
    """The look-aheads played in place are taken back: a greedy choice changes nothing in the
    position it is asked on (zones in order, counters, moves, the effect pending)."""
    game = _games()["maree-et-crypte v braises-ardentes"]
    checked = 0
    for i in range(10):
        s = game.new_state(game_seed(7, i), log=False)
        while not s.is_terminal():
            before = (repr(s.zones), repr(s.counters), s.history[:], s.done[:], s.decision, s.queue[:],
                      s.turn_actions, s.paused, s._ending, s.legal_actions())
            x = s.greedy_action()
            assert before == (repr(s.zones), repr(s.counters), s.history, s.done, s.decision, s.queue,
                              s.turn_actions, s.paused, s._ending, s.legal_actions())
            s.apply_action(x)
            checked += 1
    assert checked > 150


def test_an_unseen_card_can_be_moved_and_counted_not_read() -> None:
    pile = [3, *_unseen(2)]
    other = _unseen(1)
    assert len(pile) == 3 and pile[1] is not pile[2]
    moved = other[0]
    pile.append(other.pop())
    assert len(pile) == 4 and pile[-1] is moved and not other
    for use in (lambda: pile[1] == 3, lambda: [0, 1][pile[1]], lambda: sorted(pile), lambda: set(pile),
                lambda: pile[1] + 1, lambda: str(pile[2]), lambda: pile.index(5), lambda: 5 in pile,
                lambda: bool(pile[1]), lambda: pile[1].value):
        with pytest.raises(_HiddenRead):
            use()


def test_legal_actions_found_again_only_when_they_may_read_an_unseen_card() -> None:
    """The legal actions of a look-ahead on the undealt position are those of the position, unless
    a test of an action reads a zone the seat cannot see: then they are found again there (and an
    unseen card read sends the choice to the deals). Le Huit with a draw that peeks at the face-down
    pile's top card plays the same with and without the shortcuts — up to the same refusal, when a
    deal makes illegal the move the position allows."""
    games = _games()
    assert all(g.legal_sees_only for g in games.values())
    text = (RULES / "huit.toml").read_text(encoding="utf-8")
    peek = text.replace('when = "not can(\'jouer\')"', 'when = "not can(\'jouer\') or top(\'pioche\').value == 8"')
    assert peek != text
    fast = Game(parse_rules_text(peek, "huit.toml"), (), 2)
    plain = Game(parse_rules_text(peek, "huit.toml"), (), 2)
    plain.shortcuts = False
    assert not fast.legal_sees_only
    outcomes = set()
    for i in range(15):
        a, b = _outcome(fast, game_seed(3, i)), _outcome(plain, game_seed(3, i))
        assert a == b
        outcomes.add(a[0])
    assert outcomes == {"played", "refused"}


def _outcome(game: Game, seed: int) -> tuple:
    try:
        s = _play(game, seed)
    except IllegalActionError as exc:
        return "refused", str(exc)
    return "played", s.history


def _constructs() -> dict[str, tuple[str, int]]:
    """The rules texts of tests/test_rulesdata_structures.py (answer windows and team zones,
    every effect kind from a trigger, votes, rounds until a condition) and Enchères d'équipe
    (teams, simultaneous choices, ``horizon = "round"``), with a player count."""
    from test_rulesdata_structures import EFFECTS, MANCHE, RIPOSTE, VOTE

    return {
        "riposte": (RIPOSTE.replace("until_by", "partners").replace("until_mode", "all"), 4),
        "effets": (EFFECTS.replace('on = "trigger_on"', 'from = "deck"\nto = "main"'), 3),
        "effets-defausser": (EFFECTS.replace("trigger_on", "defausser"), 2),
        "vote": (VOTE, 3),
        "manche": (MANCHE, 2),
        "encheres": ((RULES / "encheres.toml").read_text(encoding="utf-8"), 4),
    }


@pytest.mark.parametrize("name", ["riposte", "effets", "effets-defausser", "vote", "manche", "encheres"])
def test_shortcuts_change_no_move_with_teams_windows_and_secret_choices(name: str) -> None:
    text, players = _constructs()[name]
    fast = Game(parse_rules_text(text, f"{name}.toml"), (), players)
    plain = Game(parse_rules_text(text, f"{name}.toml"), (), players)
    plain.shortcuts = False
    for i in range(12):
        assert _outcome(fast, game_seed(5, i)) == _outcome(plain, game_seed(5, i))


# The greedy games of every NesPanini starter deck (goldfish) and every pair (duel) written as data,
# logged, 20 seeds each (game i dealt from game_seed(2028, i)), as the interpreter of commit 6213995
# played them — before copies of a card were tried once, an effect's next choice kept from the
# look-ahead, score() keyed by counts, its last choices looked ahead in place: a digest of the
# moves, the log, the rule and effect coverage, the final scores and returns.
BEFORE_COPIES = {
    "bosquet-en-fete": "93ae789c84c1d69a",
    "braises-ardentes": "c525e718463b23c1",
    "cour-arc-en-ciel": "3a32e1b66fa37423",
    "maree-et-crypte": "1b2ba9756d335c60",
    "bosquet-en-fete v braises-ardentes": "986a851b9c3f98f8",
    "bosquet-en-fete v cour-arc-en-ciel": "c3facee0f0163b8a",
    "bosquet-en-fete v maree-et-crypte": "0aa3930fecfafb30",
    "braises-ardentes v cour-arc-en-ciel": "fcd5a3bf17df93c7",
    "braises-ardentes v maree-et-crypte": "eaf3db4dbe6453ef",
    "cour-arc-en-ciel v maree-et-crypte": "c4ce311f70bff21e",
}


@pytest.mark.parametrize("row", sorted(BEFORE_COPIES))
def test_every_starter_deck_and_pair_plays_the_games_it_played_before(row: str) -> None:
    game = Game(load_rules(RULES / "nespanini.toml"), decks=[DECKS[d] for d in row.split(" v ")])
    h = hashlib.sha256()
    for i in range(20):
        s = game.new_state(game_seed(2028, i))
        while not s.is_terminal():
            s.apply_action(s.greedy_action())
        h.update(repr((s.history, s.winners, s.ended_by, s.events, s.coverage(), s.effect_cov,
                       [s.effect_score(p) for p in range(s.n)], s.returns())).encode())
    assert h.hexdigest()[:16] == BEFORE_COPIES[row]


def _nespanini_variant(old: str, new: str) -> Game:
    text = (RULES / "nespanini.toml").read_text(encoding="utf-8")
    assert old in text
    return Game(parse_rules_text(text.replace(old, new), "nespanini.toml"),
                decks=[DECKS["maree-et-crypte"], DECKS["braises-ardentes"]])


def test_copies_of_a_card_tried_once_only_when_no_expression_tells_them_apart() -> None:
    """Game.twins: the two copies of each NesPanini card are twins; a file whose expressions read a
    card's id or a pile's top card has none. The filter and the condition added below are always
    true: the three files play the same moves, copies tried once or every one tried."""
    plain = _games()["maree-et-crypte v braises-ardentes"]
    twins = plain.twins
    assert twins is not None and len(set(twins)) < len(twins)
    ids = _nespanini_variant("filter = \"not has(card, 'Légendaire')\"",
                             "filter = \"not has(card, 'Légendaire') and card.id >= 0\"")
    top = _nespanini_variant("when = \"having('main', 'Légendaire') == count('main')\"",
                             "when = \"having('main', 'Légendaire') == count('main') and top('defausse').value != -1\"")
    assert ids.twins is None and top.twins is None
    for i in range(8):
        seed = game_seed(11, i)
        assert _play(plain, seed).history == _play(ids, seed).history == _play(top, seed).history


def test_the_next_choice_kept_from_the_look_ahead_is_the_one_found_again() -> None:
    """After a move whose look-ahead played the seat's next choice of the same effect, greedy_action
    answers it from that look-ahead: the answer a fresh search (a copy, which keeps nothing) finds."""
    game = _games()["maree-et-crypte v braises-ardentes"]
    kept = 0
    for i in range(12):
        s = game.new_state(game_seed(17, i), log=False)
        while not s.is_terminal():
            nxt = s._next
            kept += nxt is not None and nxt[0] == len(s.history) and nxt[1] == s.history[-1]
            fresh = s.clone().greedy_action()
            x = s.greedy_action()
            assert x == fresh
            s.apply_action(x)
    assert kept > 10


def test_unseen_cards_handed_out_in_turn_are_never_the_same_card() -> None:
    """_unseen takes its cards in turn from a ring: the piles of one position never share one (nor
    do the next calls, until the ring has gone round), and a request larger than the ring gets
    new cards."""
    piles = [_unseen(k) for k in (20, 0, 5, 1, 30)]
    cards = [c for pile in piles for c in pile]
    assert [len(p) for p in piles] == [20, 0, 5, 1, 30]
    assert len({id(c) for c in cards}) == len(cards) == 56
    big = _unseen(70_000)
    assert len(big) == 70_000 and len({id(c) for c in big}) == 70_000


def test_the_heuristic_reads_score_and_pending_as_the_functions_do() -> None:
    """The file's heuristic compiled with score() and pending() read without a call each (pending
    only when an effect waits) gives 10 * score() + the credits of the pending Défausse actions,
    as effect_score and pending_size say, on every position of a few games — with effects
    waiting and not."""
    game = _games()["maree-et-crypte v braises-ardentes"]
    credits = {"draw": 3, "look": 3, "recover": 10, "swap": 10, "force_discard": 5, "reveal": 1}
    waiting = 0
    for i in range(6):
        s = game.new_state(game_seed(23, i), log=False)
        while not s.is_terminal():
            # the position and, for a card discarded, the look-ahead's stop before its effect
            trials = [s.clone(trial=True) for _ in s.legal_actions()] if s.decision is None else []
            for t, a in zip(trials, s.legal_actions()):
                t.apply_action(a)
            for t in [s, *trials]:
                for p in range(t.n):
                    want = 10 * t.effect_score(p) + sum(k * t.pending_size(p, kind) for kind, k in credits.items())
                    assert t.heuristic(p) == float(want)
                waiting += bool(t.queue)
            s.apply_action(s.greedy_action())
    assert waiting > 20


def test_a_last_card_under_the_deck_scored_from_the_memo_as_played_in_place() -> None:
    """State._last_scorer: the value of each card put under the deck as the last choice, read from
    the score memo under the hand's kinds less the card's, is the one the look-ahead played in place
    and taken back (_quick_last) finds — on every such choice of a few games — and the position is
    left as it was."""
    game = _games()["maree-et-crypte v braises-ardentes"]
    assert game.score_heuristic
    from cardbase.games.rulesdata.engine import _NO_RNG

    compared = 0
    for i in range(12):
        s = game.new_state(game_seed(29, i), log=False)
        while not s.is_terminal():
            d = s.decision
            if d is not None and d[0] == "bottom" and d[3] == 1 and not s.queue:
                t = s._fork(_NO_RNG, True)
                assert t._last_choice()
                p = t.player
                scorer = t._last_scorer(p)
                assert scorer != t._quick_last
                before = (repr(t.zones), t.history[:], t.decision, t.player)
                for _ in range(2):  # the second time, every hand less a card is memoised
                    for a in t.legal_actions():
                        assert scorer(a, p) == t._quick_last(a, p)
                        compared += 1
                assert before == (repr(t.zones), t.history, t.decision, t.player)
            s.apply_action(s.greedy_action())
    assert compared > 50


def _deck_reader(deck: list) -> list:
    """``deck`` with its Capitaine au long cours scoring the cards left in its owner's deck (a
    score rule that reads the deck, which the scorers read from the memo cannot know)."""
    import dataclasses

    out = [dataclasses.replace(c, effect="score: +1 per card in deck where value >= 3 max 3")
           if c.name == "Capitaine au long cours" else c for c in deck]
    assert out != deck
    return out


def _positions(game: Game, seed: int, games: int):
    """Every position of ``games`` greedy games where the seat to play has a choice."""
    for i in range(games):
        s = game.new_state(game_seed(seed, i), log=False)
        while not s.is_terminal():
            if len(s.legal_actions()) > 1:
                yield s
            s.apply_action(s.greedy_action())


@pytest.mark.parametrize("deck_reader", [False, True])
def test_an_effect_choice_read_from_the_memo_as_its_look_ahead_finds(deck_reader: bool) -> None:
    """State._chain_scorer: for a look's card taken, a card recovered, a swap's card and the first
    of two cards under the deck, the value of each answer and the next choice read from the memo
    (on the position itself, nothing hidden) are those its look-ahead finds, played on a copy with
    the unseen cards hidden (_look_ahead, which searches the next choice) — with the searches
    counted alike and the position left as it was. A hand whose score rules read the deck is not
    read (None), and the games are those of the plain reading."""
    decks = [DECKS["maree-et-crypte"], DECKS["braises-ardentes"]]
    if deck_reader:
        decks = [_deck_reader(decks[0]), decks[1]]
    game = Game(load_rules(RULES / "nespanini.toml"), decks=decks)
    kinds, compared, unread = set(), 0, 0
    for s in _positions(game, 31, 14):
        p, d = s.player, s.decision
        chain = s._chain_scorer(p, True)
        if chain is None:
            continue
        kinds.add(d[0])
        before = (repr(s.zones), s.history[:], s.decision, s.player)
        base = s._undealt_base(p)
        for a in s.legal_actions():
            tries = game.undealt[:]
            found = chain(a)
            counted = game.undealt[0] - tries[0]
            if found is None:
                unread += 1
                continue
            game.undealt[:] = tries
            s._then = None
            v, steps = s._look_ahead(base, a, p, None)
            assert found == (v, s._then) and steps == 1
            assert game.undealt[0] - tries[0] == counted
            compared += 1
        assert before == (repr(s.zones), s.history, s.decision, s.player)
    assert kinds == {"take", "pick", "bottom"}
    assert unread > 10 if deck_reader else (compared > 100 and unread == 0)
    if deck_reader:
        plain = Game(load_rules(RULES / "nespanini.toml"), decks=decks)
        plain.shortcuts = False
        for i in range(6):
            assert _play(game, game_seed(37, i)).history == _play(plain, game_seed(37, i)).history


def test_a_card_discarded_read_from_the_memo_as_played_in_place() -> None:
    """State._search_moves: the move of a card of the hand searched on the position itself, each
    value read from the memo, finds the move, the value and the later choice that the search on a
    copy with the unseen cards hidden finds (each look-ahead played in place, _quick_look_ahead) —
    on every such choice of a few games."""
    game = _games()["maree-et-crypte v braises-ardentes"]
    assert game.move_scoring == [True, False]
    compared = 0
    for s in _positions(game, 41, 10):
        if s.decision is not None:
            continue
        p, legal = s.player, s.legal_actions()
        fast = s._search_moves(p, legal, 1), s._then
        s._then = "unset"
        plain = s._search_undealt(p, legal, 1, s._undealt_base(p), False), s._then
        assert fast == plain
        compared += 1
    assert compared > 100


def test_the_search_on_the_position_itself_only_where_its_reads_are_seen() -> None:
    """The search made on the position itself (State._scorers_see, Game.move_scoring) needs a
    heuristic of score(), pending() and the options, a seat that sees its hand and every discard
    pile, and triggers whose test reads only the card. Each file below breaks one of those: the
    shortcut is not taken there, and the first two play the moves of the plain reading (with
    hidden discard piles the plain reading itself may deal a picked card away: not played)."""
    heuristic = _nespanini_variant('heuristic = "10 * score()', 'heuristic = "count(\'deck\') + 10 * score()')
    trigger = _nespanini_variant("card = \"has(card, 'Défausse')\"",
                                 "card = \"has(card, 'Défausse') and count('deck') >= 0\"")
    hidden = _nespanini_variant('ordered = true\nvisible = "everyone"', 'ordered = true\nvisible = "owner"')
    plain = _games()["maree-et-crypte v braises-ardentes"]
    assert plain.score_heuristic and plain.move_scoring is not None
    assert not heuristic.score_heuristic and heuristic.move_scoring is None
    assert trigger.score_heuristic and trigger.move_scoring is None
    assert hidden.move_scoring is not None
    for game in (plain, heuristic, hidden):
        s = game.new_state(game_seed(43, 0), log=False)
        assert s._scorers_see(s.player) == (game is plain)
    for game in (heuristic, trigger):
        s = game.new_state(game_seed(43, 0), log=False)
        with pytest.raises(_Unread):
            s._search_moves(s.player, s.legal_actions(), 1)
        reference = Game(game.rules, decks=[DECKS["maree-et-crypte"], DECKS["braises-ardentes"]])
        reference.shortcuts = False
        for i in range(5):
            assert _play(game, game_seed(43, i)).history == _play(reference, game_seed(43, i)).history
