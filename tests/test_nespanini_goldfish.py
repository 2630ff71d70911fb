"""The goldfish fast path (cardbase/games/nespanini/solo.py) plays exactly the greedy moves.

Pinned: digests of the first games of every starter deck as the engine played them before the
path existed (every move, zone, score, log entry and rule-coverage count); the benchmark
(``benchmarks/bench_engine.py --before CHECKOUT``) compares thousands more per deck.
"""

from __future__ import annotations

import hashlib

import pytest

from cardbase.games.bots import RandomBot
from cardbase.games.nespanini import Game, play_greedy
from cardbase.games.nespanini import solo as solo_module
from cardbase.playtest.cards import deck_from_text, load_deck_defs, load_edition_defs, starter_decks

from tests.test_engine import LEGENDS_DECK, NP1, REVEAL_DECK, RICH, _outcome

STARTERS = {name: load_deck_defs(path) for name, path in starter_decks().items()}

# sha256 (first 16 hex digits) of games 0..299 of each starter deck, logged, before solo.py
PINNED = {
    "bosquet-en-fete": "6fdf25a2ddeff05c",
    "braises-ardentes": "dc89ae1f05965222",
    "cour-arc-en-ciel": "7da0e47b74e69495",
    "maree-et-crypte": "3609d4fb67c0b64f",
}


def game_digest(game: Game, seeds) -> str:
    h = hashlib.sha256()
    for seed in seeds:
        s = play_greedy(game.new_state(seed))
        h.update(repr((s.history, s.hands, s.discards, s.decks, s.turn, s.ended_by, s.scores(),
                       s.events, s.cov, s.peak, s.peak_turn, s.skipped, s.revealed, s.player,
                       s.decision, s.queue)).encode())
    return h.hexdigest()[:16]


def general(state):
    while not state.is_terminal():
        state.apply_action(state.greedy_action())
    return state


def test_pinned_starter_goldfish_games_are_unchanged():
    assert set(PINNED) == set(STARTERS)
    for name, deck in STARTERS.items():
        assert game_digest(Game([deck]), range(300)) == PINNED[name], name


def test_pinned_games_played_again_from_the_memos_are_unchanged():
    """The same seeds played twice on one game: the second time every choice comes from the
    path's memos (step-2 plans, a recover's or swap's whole resolution, the worth of a take
    shared by every hand and card making the same hand, a Look's card put under the deck) and
    the games are still the pinned ones; a third pass of other seeds against the general engine."""
    for name, deck in STARTERS.items():
        game = Game([deck])
        assert game_digest(game, range(300)) == PINNED[name], name
        assert game_digest(game, range(300)) == PINNED[name], name
        slow_game = Game([deck])
        for seed in range(300, 700):
            fast = play_greedy(game.new_state(seed))
            slow = general(slow_game.new_state(seed))
            assert _outcome(fast) == _outcome(slow) and fast.cov == slow.cov, (name, seed)
            assert (fast.peak, fast.peak_turn) == (slow.peak, slow.peak_turn), (name, seed)


def np1(text):
    return deck_from_text(text, load_edition_defs([NP1]))


@pytest.mark.parametrize("which", ["rich", "maree", "legends", "reveal"])
def test_goldfish_from_the_middle_of_a_game_and_of_an_effect(which):
    """Play-outs start anywhere: after random moves, pending effect choices included."""
    deck = {"rich": lambda: RICH, "maree": lambda: STARTERS["maree-et-crypte"],
            "legends": lambda: np1(LEGENDS_DECK), "reveal": lambda: np1(REVEAL_DECK)}[which]()
    g = Game([deck])
    pending = 0
    for seed in range(250):
        s = g.new_state(seed)
        bot = RandomBot(seed)
        for _ in range(seed % 9):
            if s.is_terminal():
                break
            s.apply_action(bot.step(s))
        pending += s.decision is not None
        slow, fast = s.clone(log=True), s.clone(log=True)
        assert _outcome(play_greedy(fast)) == _outcome(general(slow)), (which, seed)
        assert fast.cov == slow.cov and fast.peak == slow.peak and fast.peak_turn == slow.peak_turn
    if which in ("rich", "maree"):
        assert pending > 5


@pytest.mark.parametrize("options", [
    {"end_rule": "turns"}, {"end_rule": "first"}, {"stalemate_rounds": 0},
    {"stalemate_rounds": 1}, {"deck_lists": "hidden"},
])
def test_goldfish_under_every_ending_option(options):
    """The fast path's end-of-turn checks (rulings R1, R6, R10) end games as State._end_turn."""
    for deck in (STARTERS["maree-et-crypte"], STARTERS["bosquet-en-fete"], RICH, np1(LEGENDS_DECK)):
        fast_game, slow_game = Game([deck], **options), Game([deck], **options)
        endings = set()
        for seed in range(120):
            fast = play_greedy(fast_game.new_state(seed))
            slow = general(slow_game.new_state(seed))
            assert _outcome(fast) == _outcome(slow), (options, seed)
            assert fast.cov == slow.cov and fast.peak_turn == slow.peak_turn
            endings.add(fast.ended_by)
        assert endings


def test_goldfish_caches_cleared_midway_play_the_same(monkeypatch):
    """Every memo of the path starts again when full; the moves do not change."""
    monkeypatch.setattr(solo_module, "_CACHE_LIMIT", 5)
    for name in ("maree-et-crypte", "braises-ardentes"):
        deck = STARTERS[name]
        fast_game, slow_game = Game([deck]), Game([deck])
        for seed in range(150):
            fast = play_greedy(fast_game.new_state(seed))
            slow = general(slow_game.new_state(seed))
            assert _outcome(fast) == _outcome(slow) and fast.cov == slow.cov, (name, seed)


def test_goldfish_hand_code_holds_every_count():
    """A hand holding many copies of one card: the multiset code's fields do not overflow."""
    plain, pioche = RICH[-1], RICH[0]
    for deck in ([plain] * 30 + [pioche] * 10, [pioche] * 12 + [plain] * 3):
        fast_game, slow_game = Game([deck]), Game([deck])
        for seed in range(60):
            fast = play_greedy(fast_game.new_state(seed))
            slow = general(slow_game.new_state(seed))
            assert _outcome(fast) == _outcome(slow) and fast.cov == slow.cov, seed


def test_card_put_under_the_deck_read_from_the_points_order():
    """The card a hand puts under the deck when no score rule counts hand cards: the first kind of
    the points order found in the hand's code is the first kind of least points in the hand
    (what ``min(hand, key=rank)`` gave), at every zone code the pinned games met."""
    import random

    deck = STARTERS["maree-et-crypte"]
    game = Game([deck])
    for seed in range(200):
        play_greedy(game.new_state(seed, log=False))
    (solo,) = game._solo.values()
    assert solo.model.hand_free and len(solo.points) > 20
    _, _, _, _, _, _, _, _, _, _, _, _, _, _, fm = solo.ctx
    rng = random.Random(3)
    size = len(solo.w)
    for pts, order in solo.points.values():
        assert sorted(order) == list(range(size)) and isinstance(pts, list)
        for _ in range(30):
            hand = [rng.randrange(size) for _ in range(rng.randint(1, 7))]
            hk = sum(solo.w[k] for k in hand)
            got = next(c for c in order if hk & fm[c])
            least = min(pts[k] for k in hand)
            assert got == min(k for k in hand if pts[k] == least)
