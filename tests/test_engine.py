"""NesPanini rules engine: the rules, the rulings of docs/rulings/nespanini.md, and invariants on many games."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardbase.games.bots import RandomBot
from cardbase.games.nespanini import ENDINGS, TERMINAL, Game, IllegalActionError, replay
from cardbase.games.effects.resolve import held_cards
from cardbase.playtest.cards import make_card

LEG = ("Légendaire",)
DEF = ("Défausse",)

PLAIN = [make_card(f"Plain {v}", v, colour=c, number=v)
         for v, c in zip(range(1, 9), ["rouge", "bleu", "vert", "rouge", "bleu", "vert", "rouge", "bleu"])]
EFFECTS = [
    make_card("Pioche", 1, colour="vert", keywords=DEF, effect="defausse: draw 2", number=20),
    make_card("Regard", 1, colour="vert", keywords=DEF, effect="defausse: look 3 take 1", number=21),
    make_card("Retour", 2, colour="bleu", keywords=DEF, effect="defausse: recover from cimetiere",
              number=22),
    make_card("Échange", 2, colour="rouge", keywords=DEF,
              effect="defausse: swap with cimetiere where colour = rouge", number=23),
    make_card("Pression", 1, colour="rouge", keywords=DEF, effect="defausse: force_discard 1",
              number=24),
    make_card("Espion", 0, colour="bleu", keywords=DEF, effect="defausse: reveal hand", number=25),
    make_card("Fossoyeur", 1, colour="vert", keywords=DEF, effect="defausse: bury 2 opponent",
              number=26),
    make_card("Enterrement", 1, colour="vert", keywords=DEF, effect="defausse: bury 1", number=27),
    make_card("Meneur", 2, colour="rouge", effect="score: +1 per card in hand where colour = rouge",
              number=28),
    make_card("Veuve", 3, colour="bleu", effect="score: -2 if count(cimetiere) >= 6", number=29),
    make_card("Roi", 6, colour="rouge", keywords=LEG, number=30),
    make_card("Reine", 5, colour="bleu", keywords=LEG, number=31),
]
POOL = PLAIN + EFFECTS


def deck_of(cards, size=20):
    out = []
    while len(out) < size:
        out.extend(cards)
    return out[:size]


RICH = deck_of(EFFECTS + PLAIN[:6])
PLAIN_DECK = deck_of(PLAIN) [:20]


def all_cards(state) -> Counter:
    c = Counter()
    for p in range(state.n):
        c.update(state.decks[p])
        c.update(state.hands[p])
        c.update(state.discards[p])
    c.update(held_cards(state))
    return c


def play_random(game, seed, bot_seed=0, check=None):
    s = game.new_state(seed)
    bot = RandomBot(bot_seed)
    start = all_cards(s)
    leg = s.table.legendary
    steps = 0
    while not s.is_terminal():
        s.apply_action(bot.step(s))
        steps += 1
        assert steps < 500, "the game must end"
        if check:
            check(s, start)
        for p in range(s.n):
            assert not any(leg[k] for k in s.discards[p]), "a Légendaire card was discarded"
    return s, start


# ---------------------------------------------------------------- set-up and turn


def test_setup_deals_five_and_draws_for_the_first_player():
    g = Game([PLAIN_DECK, PLAIN_DECK])
    firsts = set()
    for seed in range(40):
        s = g.new_state(seed)
        firsts.add(s.first_player)
        p = s.current_player()
        assert p == s.first_player
        assert len(s.hands[p]) == 6 and len(s.hands[1 - p]) == 5
        assert len(s.decks[p]) == 14 and len(s.decks[1 - p]) == 15
        assert s.events[0][0] == "setup" and s.events[-1] == ("draw", p, s.hands[p][-1])
    assert firsts == {0, 1}, "the first player is drawn at random"


def test_turn_is_draw_then_discard_and_players_alternate():
    g = Game([PLAIN_DECK, PLAIN_DECK])
    s = g.new_state(3)
    p = s.current_player()
    a = s.legal_actions()[0]
    s.apply_action(a)
    assert s.discards[p] == [a]
    assert len(s.hands[p]) == 5
    assert s.current_player() == 1 - p
    assert len(s.hands[1 - p]) == 6


def test_game_ends_when_cimetiere_holds_ten_and_scores_five_cards():
    g = Game([PLAIN_DECK, PLAIN_DECK])
    s, _ = play_random(g, 11)
    assert s.current_player() == TERMINAL and s.ended_by == "cimetiere"
    assert s.cimetiere_size == 10 and s.turn == 10
    assert [len(h) for h in s.hands] == [5, 5]
    assert s.scores() == [sum(s.table.value[k] for k in h) for h in s.hands]
    assert s.legal_actions() == []
    with pytest.raises(IllegalActionError):
        s.apply_action(0)


def test_legendary_cannot_be_discarded_at_step_two():
    g = Game([deck_of([EFFECTS[-2], EFFECTS[-1]] + PLAIN[:3])])
    for seed in range(20):
        s = g.new_state(seed)
        leg = s.table.legendary
        legal = s.legal_actions()
        assert legal and not any(leg[k] for k in legal)
        k = next((k for k in s.hands[0] if leg[k]), None)
        if k is None:
            continue
        with pytest.raises(IllegalActionError):
            s.apply_action(k)


def test_illegal_discard_names_the_legal_choices():
    s = Game([PLAIN_DECK]).new_state(1)
    missing = next(k for k in range(s.table.size) if k not in s.hands[0])
    with pytest.raises(IllegalActionError, match="choix possibles : défausser"):
        s.apply_action(missing)
    from cardbase import i18n

    with i18n.use_language("en"), pytest.raises(IllegalActionError, match="legal choices are discard"):
        s.apply_action(missing)


def test_action_texts_follow_the_language():
    from cardbase import i18n

    g = Game([[EFFECTS[0]] * 20])
    s = g.new_state(0)
    s.apply_action(s.legal_actions()[0])  # Pioche: draw 2, then put 2 under the deck
    a = s.legal_actions()[0]
    assert s.action_to_string(a).startswith("placer ")
    with i18n.use_language("en"):
        assert s.action_to_string(a) == "put Pioche under the deck"
        assert "turn" in str(s)
    assert "tour" in str(s)


def test_score_breakdown_sums_to_score_with_bonus_and_malus():
    meneur, veuve = EFFECTS[8], EFFECTS[9]
    g = Game([[meneur, veuve, PLAIN[0], PLAIN[3], PLAIN[1]] * 4])
    s = g.new_state(0)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    for p in range(s.n):
        rows = s.score_breakdown(p)
        assert sum(r.points for r in rows) == s.score(p)
        for r in rows:
            if r.card == meneur:
                reds = sum(1 for k in s.hands[p] if s.table.defs[k].colour == "rouge")
                assert r.bonus == reds
            if r.card == veuve:
                assert r.bonus == 0  # goldfish: the Cimetière holds 5 cards, not 6


# ---------------------------------------------------------------- reproducibility


def test_same_seed_same_game_and_replay_reproduces_the_log():
    g = Game([RICH, RICH])
    for seed in range(30):
        a, _ = play_random(g, seed, bot_seed=seed)
        b, _ = play_random(g, seed, bot_seed=seed)
        assert a.events == b.events and a.scores() == b.scores()
        r = replay(g, seed, a.history)
        assert r.events == a.events and r.scores() == a.scores()


def test_clone_is_independent_and_equal():
    g = Game([RICH, RICH])
    s = g.new_state(5)
    for _ in range(3):
        s.apply_action(s.legal_actions()[-1])
    c = s.clone()
    assert c.hands == s.hands and c.decks == s.decks and c.discards == s.discards
    before = (repr(s.hands), repr(s.decks), repr(s.discards), s.player)
    while not c.is_terminal():
        c.apply_action(c.legal_actions()[0])
    assert (repr(s.hands), repr(s.decks), repr(s.discards), s.player) == before


# ---------------------------------------------------------------- hidden information


def test_observation_hides_the_opponent_hand_and_decks():
    g = Game([RICH, RICH])
    s = g.new_state(2)
    p = s.current_player()
    o = s.observation(p)
    assert len(o.hand) == 6 and o.hand_sizes[1 - p] == 5
    assert o.deck_sizes == (len(s.decks[0]), len(s.decks[1]))
    assert o.revealed[1 - p] == ()
    assert not hasattr(o, "decks") and not hasattr(o, "hands")


def test_resample_keeps_what_the_player_sees():
    g = Game([RICH, RICH])
    rng = random.Random(0)
    for seed in range(20):
        s = g.new_state(seed)
        for _ in range(seed % 5):
            s.apply_action(s.legal_actions()[0])
        if s.is_terminal():
            continue
        p = s.current_player()
        r = s.resample(p, rng)
        assert r.hands[p] == s.hands[p] and r.discards == s.discards
        assert all_cards(r) == all_cards(s)
        assert [len(h) for h in r.hands] == [len(h) for h in s.hands]
        assert Counter(r.decks[p]) == Counter(s.decks[p])
        assert sorted(r.revealed[1 - p]) == sorted(s.revealed[1 - p])


# ---------------------------------------------------------------- rulings (docs/rulings/nespanini.md)


def test_r4_hand_of_only_legendary_cards_puts_one_under_the_deck():
    roi, reine = EFFECTS[-2], EFFECTS[-1]
    extra = make_card("Empereur", 7, keywords=LEG, number=32)
    g = Game([[roi, reine, extra] * 6 + [PLAIN[0]] * 2])  # not a legal deck: forces the case
    found = False
    for seed in range(40):
        s = g.new_state(seed)
        while not s.is_terminal():
            leg = s.table.legendary
            hand = s.hands[0]
            if all(leg[k] for k in hand):
                found = True
                deck_before = len(s.decks[0])
                cim = s.cimetiere_size
                a = s.legal_actions()[0]
                s.apply_action(a)
                assert s.cimetiere_size == cim, "nothing is discarded"
                if not s.is_terminal():
                    assert s.decks[0][0] == a or len(s.decks[0]) == deck_before
            else:
                s.apply_action(s.legal_actions()[0])
        assert len(s.hands[0]) == 5
        assert not any(s.table.legendary[k] for k in s.discards[0])
    assert found


def test_r2_empty_deck_at_the_draw_step_ends_the_game():
    g = Game([PLAIN[:8]])  # 5 in hand, 3 in the deck: three turns only
    s = g.new_state(0)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    assert s.ended_by == "empty-deck"
    assert len(s.hands[0]) == 5 and len(s.discards[0]) == 3


def test_r1_recover_makes_the_game_longer_and_bury_shorter():
    retour, bury = EFFECTS[2], EFFECTS[7]
    for card, longer in ((retour, True), (bury, False)):
        g = Game([[card] * 2 + PLAIN * 3][:1] if False else [([card] * 2 + PLAIN * 3)[:20]])
        seen = False
        for seed in range(60):
            s = g.new_state(seed)
            fired = False
            while not s.is_terminal():
                k = s.table.kind(card)
                if s.decision is None and k in s.legal_actions() and s.cimetiere_size >= 1:
                    s.apply_action(k)
                    fired = True
                else:
                    s.apply_action(s.legal_actions()[0])
            if fired and s.ended_by == "cimetiere":
                seen = True
                assert s.cimetiere_size >= 5
                if longer:
                    assert s.turn >= 5
                else:
                    assert s.turn <= 5
        assert seen


def test_r7_goldfish_ends_at_five_and_ignores_opponent_effects():
    pression, espion, fossoyeur = EFFECTS[4], EFFECTS[5], EFFECTS[6]
    g = Game([deck_of([pression, espion, fossoyeur] + PLAIN[:2])])
    for seed in range(30):
        s = g.new_state(seed)
        while not s.is_terminal():
            assert s.current_player() == 0
            s.apply_action(s.legal_actions()[0])
        assert s.ended_by == "cimetiere" and len(s.discards[0]) == 5 and s.turn == 5
        assert s.returns() == [0.0]


def test_r5_equal_scores_are_a_tie():
    same = [make_card("Un", 1)] * 20
    g = Game([same, same])
    s, _ = play_random(g, 1)
    assert s.scores() == [5, 5] and s.returns() == [0.0, 0.0]


def test_force_discard_is_chosen_by_the_opponent_and_keeps_hands_at_five():
    pression = EFFECTS[4]
    g = Game([[pression] * 20, PLAIN_DECK])
    s = g.new_state(0)
    while s.current_player() != 0:
        s.apply_action(s.legal_actions()[0])
    s.apply_action(s.table.kind(pression))
    assert s.current_player() == 1 and s.decision[0] == "force"
    s.apply_action(s.legal_actions()[0])
    assert len(s.hands[1]) == 6 if s.current_player() == 1 else len(s.hands[1]) == 5
    assert len(s.discards[1]) >= 1


# ---------------------------------------------------------------- invariants on many games


def _invariants(s, start):
    assert all_cards(s) == start, "cards are conserved"
    _check_hidden_information(s, random.Random(len(s.history)))  # ruling R9, after every action


@settings(max_examples=60, deadline=None)
@given(
    picks=st.lists(st.sampled_from(range(len(POOL))), min_size=20, max_size=20),
    picks_b=st.lists(st.sampled_from(range(len(POOL))), min_size=20, max_size=20),
    seed=st.integers(0, 2**32),
)
def test_invariants_on_random_decks_and_games(picks, picks_b, seed):
    g = Game([[POOL[i] for i in picks], [POOL[i] for i in picks_b]])
    for i in range(15):
        s, _ = play_random(g, seed + i, bot_seed=i, check=_invariants)
        assert [len(h) for h in s.hands] == [5, 5]
        assert s.ended_by in ENDINGS
        if s.ended_by == "cimetiere":
            assert s.cimetiere_size >= 10


def test_invariants_on_thousands_of_games():
    g = Game([RICH, RICH])
    gf = Game([RICH])
    rng = random.Random(0)
    for i in range(1500):
        s, start = play_random(g if i % 3 else gf, rng.randrange(2**40), bot_seed=i)
        assert all_cards(s) == start
        assert all(len(h) == 5 for h in s.hands)


def test_oracle_is_an_upper_bound_of_random_and_greedy_play():
    from cardbase.games.bots import oracle_search

    score_deck = ((PLAIN + EFFECTS[8:]) * 2)[:20]
    for deck, budget in ((score_deck, 5_000), (RICH, 300)):
        g = Game([deck])
        for seed in range(12):
            res = oracle_search(g.new_state(seed), max_nodes=budget)
            s, _ = play_random(g, seed, bot_seed=seed)
            gs = g.new_state(seed)
            while not gs.is_terminal():
                gs.apply_action(gs.greedy_action())
            assert res.score >= gs.score(0), "the greedy line is the oracle's first line"
            if res.exact:
                assert res.score >= s.score(0)
            if deck is score_deck:
                assert res.exact


# ---------------------------------------------------------------- fast paths agree with the rules

ZONE_CARDS = [
    make_card("Arc", 1, colour="jaune", effect="score: +2 if colours(cimetiere) >= 2", number=40),
    make_card("Mosaïque", 2, colour="vert", effect="score: -1 per colour in discards", number=41),
    make_card("Réserve", 1, colour="bleu",
              effect="score: +1 per card in deck where value >= 5 max 2", number=42),
    make_card("Rival", 3, colour="rouge",
              effect="score: +1 per colour in opponent_discards where value >= 3\n"
                     "score: +3 if count(opponent_discards where colour = rouge) = 1", number=43),
]


def _starter_cards():
    from cardbase.playtest.cards import load_deck_defs, starter_decks

    return {name: load_deck_defs(path) for name, path in starter_decks().items()}


def test_shuffle_is_python_shuffle():
    from cardbase.games.nespanini.state import shuffle

    for n in (0, 1, 2, 5, 20, 40):
        for seed in range(300):
            a, b = list(range(n)), list(range(n))
            random.Random(seed).shuffle(a)
            shuffle(random.Random(seed), b)
            assert a == b


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_compiled_scores_equal_the_effect_interpreter(data):
    """Zone codes, clamping and the score cache give the interpreter's bonus on any zones."""
    from cardbase.games.effects import parse_effect
    from cardbase.games.effects.evaluate import score_bonus
    from cardbase.games.nespanini import Zones

    pool = list(dict.fromkeys(POOL + ZONE_CARDS + [c for d in _STARTERS.values() for c in d]))
    g = Game([pool])
    t = g.table
    kinds = st.sampled_from(range(t.size))
    hand = data.draw(st.lists(kinds, min_size=5, max_size=5))
    d = data.draw(st.lists(kinds, max_size=12))
    o = data.draw(st.lists(kinds, max_size=12))
    deck = data.draw(st.lists(kinds, max_size=15))
    m = t.model
    f = m.decode(m.clamp(m.code(d, o, deck)))
    defs = t.defs
    zones = Zones(tuple(defs[k] for k in hand), tuple(defs[k] for k in d),
                  tuple(defs[k] for k in o), tuple(defs[k] for k in reversed(deck)))
    for k in hand:
        card = defs[k]
        want = score_bonus(parse_effect(card.effect), card, zones) if card.effect else 0
        got = t.iscore[k](k, hand, f) if t.iscore[k] else 0
        assert got == want, card.name


_STARTERS = _starter_cards()


def test_scores_of_played_games_equal_the_effect_interpreter():
    from cardbase.games.effects import parse_effect
    from cardbase.games.effects.evaluate import score_bonus

    decks = [RICH, deck_of(ZONE_CARDS + PLAIN)] + list(_STARTERS.values())
    for i, deck in enumerate(decks):
        g = Game([deck, decks[(i + 1) % len(decks)]])
        for seed in range(40):
            s, _ = play_random(g, seed, bot_seed=seed)
            for p in range(2):
                z = s.zones(p)
                for row in s.score_breakdown(p):
                    c = row.card
                    want = score_bonus(parse_effect(c.effect), c, z) if c.effect else 0
                    assert row.bonus == want


def _outcome(s):
    return (s.history, s.hands, s.discards, s.decks, s.turn, s.ended_by, s.scores(), s.events)


@pytest.mark.parametrize("name", sorted(_STARTERS) + ["rich", "zones"])
def test_play_greedy_makes_exactly_the_greedy_moves(name):
    """The fast greedy path and apply_action(greedy_action()) give the same games."""
    from cardbase.games.nespanini import play_greedy

    deck = {"rich": RICH, "zones": deck_of(ZONE_CARDS + EFFECTS[:3] + PLAIN)}.get(name) or _STARTERS[name]
    other = _STARTERS.get("maree-et-crypte", RICH)
    for decks, games in (([deck], 700), ([deck, deck], 300), ([deck, other], 150)):
        g = Game(decks)
        for seed in range(games):
            slow = g.new_state(seed)
            while not slow.is_terminal():
                slow.apply_action(slow.greedy_action())
            fast = play_greedy(g.new_state(seed))
            assert _outcome(fast) == _outcome(slow), (name, len(decks), seed)


def test_card_points_are_the_breakdown():
    for deck in [RICH, deck_of(ZONE_CARDS + PLAIN)] + list(_STARTERS.values()):
        g = Game([deck, deck])
        for seed in range(30):
            s, _ = play_random(g, seed, bot_seed=seed)
            for p in range(2):
                assert s.card_points(p) == tuple(r.points for r in s.score_breakdown(p))
                assert sum(s.card_points(p)) == s.score(p)


def test_play_greedy_from_the_middle_of_a_game_and_of_an_effect():
    """Play-outs of search bots start anywhere, pending effect choices included."""
    from cardbase.games.nespanini import play_greedy

    for deck in (RICH, _STARTERS.get("maree-et-crypte", RICH)):
        g = Game([deck, deck])
        pending = 0
        for seed in range(300):
            s = g.new_state(seed)
            bot = RandomBot(seed)
            for _ in range(seed % 12):
                if s.is_terminal():
                    break
                s.apply_action(bot.step(s))
            pending += s.decision is not None
            slow, fast = s.clone(log=True), s.clone(log=True)
            while not slow.is_terminal():
                slow.apply_action(slow.greedy_action())
            play_greedy(fast)
            assert _outcome(fast) == _outcome(slow), seed
        assert pending > 10


@pytest.mark.parametrize("n_players", [1, 2])
def test_play_greedy_on_cold_caches_matches_the_general_engine(n_players):
    """The fast path computing its own choices (cache misses, effect offers) on a fresh game
    plays as the general engine on another fresh game: maree-et-crypte, an effect every turn."""
    from cardbase.games.nespanini import play_greedy

    deck = _STARTERS.get("maree-et-crypte", RICH)
    fast_game, slow_game = Game([deck] * n_players), Game([deck] * n_players)
    for seed in range(400 if n_players == 1 else 200):
        fast = play_greedy(fast_game.new_state(seed))
        slow = slow_game.new_state(seed)
        while not slow.is_terminal():
            slow.apply_action(slow.greedy_action())
        assert _outcome(fast) == _outcome(slow), (n_players, seed)


# ---------------------------------------------------------------- revealed record (ruling R9)

NP1 = "data/editions/NP1.toml"
REVEAL_DECK = """2 Bouffon
2 Cartographe
2 Navigatrice
2 Kraken
2 Bûcheron
2 Ours brun
2 Garde royal
2 Trésorier
2 Apprentie forgeronne
2 Forgeron des Braises
"""
LEGENDS_DECK = """2 Dragonne des Braises
2 Le Colosse de Fer
2 Oracle des marées
2 Le Grand Chêne
2 La Liche
2 La Reine des Ombres
2 Le Roi Soleil
2 La Reine Mère
2 Navigatrice
2 Kraken
"""


def np1_deck(text):
    from cardbase.playtest.cards import deck_from_text, load_edition_defs

    return deck_from_text(text, load_edition_defs([NP1]))


def _check_hidden_information(s, rng):
    """After every action: the revealed record is part of the hand, the observation shows exactly
    it, and every player's re-deal works and keeps what that player sees."""
    for q in range(s.n):
        assert not Counter(s.revealed[q]) - Counter(s.hands[q]), "revealed card not in the hand"
    for p in range(s.n):
        o = s.observation(p)
        for q in range(s.n):
            shown = Counter(c.name for c in o.revealed[q])
            held = Counter(s.table.defs[k].name for k in s.hands[q])
            assert not shown - held, "the observation shows a card the opponent no longer holds"
        r = s.resample(p, rng)
        assert r.hands[p] == s.hands[p] and r.discards == s.discards
        assert all_cards(r) == all_cards(s)
        for q in range(s.n):
            assert not Counter(r.revealed[q]) - Counter(r.hands[q])
            assert Counter(r.hands[q]) & Counter(s.revealed[q]) == Counter(s.revealed[q])


def test_r9_revealed_record_follows_every_card_leaving_a_hand():
    """Reveal effects, all-Légendaire hands (R4), forced discards, swaps and draws, many games."""
    spy, pression, echange, pioche = EFFECTS[5], EFFECTS[4], EFFECTS[3], EFFECTS[0]
    roi, reine = EFFECTS[-2], EFFECTS[-1]
    empereur = make_card("Empereur", 7, keywords=LEG, number=32)
    spy_deck = deck_of([spy, spy, pression, echange, pioche, *PLAIN[:3]])
    legend_deck = deck_of([roi, reine, empereur, roi, reine, empereur, spy, pioche])
    pairs = [
        (np1_deck(REVEAL_DECK), np1_deck(LEGENDS_DECK)),
        (spy_deck, legend_deck),
        (legend_deck, spy_deck),
        (RICH, legend_deck),
    ]
    rng = random.Random(1)
    r4_after_reveal = 0
    for decks in pairs:
        g = Game(decks)
        for seed in range(60):
            s = g.new_state(seed)
            bot = RandomBot(seed)
            while not s.is_terminal():
                p = s.current_player()
                was_shown = any(s.revealed)
                leg = s.table.legendary
                if s.decision is None and all(leg[k] for k in s.hands[p]) and was_shown:
                    r4_after_reveal += 1
                s.apply_action(bot.step(s))
                _check_hidden_information(s, rng)
    assert r4_after_reveal > 20, "the games must put shown cards under the deck (R4)"


def test_r4_shown_hand_is_known_and_the_card_put_under_is_forgotten():
    spy = EFFECTS[5]
    roi, reine = EFFECTS[-2], EFFECTS[-1]
    g = Game([[spy] * 20, [roi, reine] * 10])
    s = g.new_state(0)
    while s.current_player() != 0:  # player 2 only holds Légendaire cards
        s.apply_action(s.legal_actions()[0])
    s.apply_action(s.table.kind(spy))  # reveal hand: the five cards of player 2 are known
    assert len(s.revealed[1]) == 5 and not Counter(s.revealed[1]) - Counter(s.hands[1])
    hand_before = list(s.hands[1])
    a = s.legal_actions()[-1]
    s.apply_action(a)  # R4: one card goes under the deck, the rest is shown
    assert Counter(s.revealed[1]) == Counter(hand_before) - Counter([a])
    o = s.observation(0)
    assert Counter(c.name for c in o.revealed[1]) == Counter(s.table.defs[k].name for k in s.revealed[1])
    s.resample(0, random.Random(0))  # used to fail: the card put under was still "revealed"


@pytest.mark.parametrize("name", ["mc", "ismcts"])
def test_search_bots_play_reveal_and_legendary_decks(name):
    from cardbase.games.bots import GreedyBot, make_bot

    opts = {"samples": 4} if name == "mc" else {"iterations": 40}
    g = Game([np1_deck(REVEAL_DECK), np1_deck(LEGENDS_DECK)])
    for seed in range(3):
        for seat in (0, 1):
            s = g.new_state(seed)
            bots = [GreedyBot(), GreedyBot()]
            bots[seat] = make_bot(name, seed=seed, **opts)
            while not s.is_terminal():
                a = bots[s.current_player()].step(s)
                assert a in s.legal_actions()
                s.apply_action(a)


def test_one_way_out_of_a_hand():
    """Every path that takes a card out of a hand goes through State.leave_hand (R9)."""
    import inspect
    import re

    from cardbase.games.nespanini import fast, state
    from cardbase.games.effects import resolve as effects

    for mod in (state, effects, fast):
        src = inspect.getsource(mod)
        src = src.replace("self.hands[player].remove(kind)", "")  # leave_hand itself
        assert not re.search(r"\bhands?(\[[^\]]*\])?\.(remove|pop)\(", src), mod.__name__


# ---------------------------------------------------------------- the Défausse keyword


def test_defausse_effect_fires_only_with_the_defausse_keyword():
    with_kw = make_card("Pioche", 1, keywords=DEF, effect="defausse: draw 2", number=40)
    without = make_card("Pioche muette", 1, effect="defausse: draw 2", number=41)
    g = Game([deck_of([with_kw, without, *PLAIN[:3]])])
    t = g.table
    assert t.has_discard_effect[t.kind(with_kw)] and t.on_discard[t.kind(with_kw)]
    assert not t.has_discard_effect[t.kind(without)] and t.on_discard[t.kind(without)] == ()
    for seed in range(30):
        s = g.new_state(seed)
        while not s.is_terminal():
            acts = s.legal_actions()
            s.apply_action(t.kind(without) if t.kind(without) in acts else acts[0])
        effects = [ev for ev in s.events if ev[0] == "effect"]
        assert all(ev[2] == t.kind(with_kw) for ev in effects)
        fast = g.new_state(seed).play_greedy()
        slow = g.new_state(seed)
        while not slow.is_terminal():
            slow.apply_action(slow.greedy_action())
        assert fast.history == slow.history


def test_np1_defausse_parts_and_keywords_agree():
    """Every NP1 card with a ``defausse:`` part carries Défausse, and every Défausse card has one."""
    from cardbase.playtest.cards import load_edition_defs

    defs = load_edition_defs([NP1])
    t = Game([defs]).table
    for k, c in enumerate(t.defs):
        from cardbase.games.nespanini.cards import _effect_parts

        parts = _effect_parts(c)[2]
        assert bool(parts) == c.has_keyword("Défausse"), c.name
        assert t.has_discard_effect[k] == bool(parts), c.name


# ---------------------------------------------------------------- R10: games that cannot end by the Cimetière

RECOVER = make_card("Retour", 2, colour="bleu", keywords=DEF, effect="defausse: recover from discards",
                    number=50)
RECOVER_2 = make_card("Ressac", 1, colour="bleu", keywords=DEF, effect="defausse: recover from discards",
                      number=51)
LEGENDS = [make_card(f"Roi {i}", 6 + i % 3, keywords=LEG, number=52 + i) for i in range(8)]
LOOP_DECK = [RECOVER, RECOVER, RECOVER_2, RECOVER_2] + [c for c in LEGENDS for _ in (0, 1)]
LOOP_OTHER = [RECOVER, RECOVER, RECOVER_2, RECOVER_2] + PLAIN[:4] + PLAIN[:2] + LOOP_DECK[4:14]


def _greedy_both_ways(g, seed):
    fast = g.new_state(seed).play_greedy()
    slow = g.new_state(seed)
    while not slow.is_terminal():
        slow.apply_action(slow.greedy_action())
    assert _outcome(fast) == _outcome(slow), seed
    return fast


def test_r10_a_cimetiere_out_of_reach_ends_after_five_turns_each():
    legends = np1_deck(LEGENDS_DECK)  # 4 cards that can be discarded: 8 between two players
    for decks in ([legends, legends], [legends]):
        g = Game(decks)
        assert g.unreachable
        off = Game(decks, stalemate_rounds=0)
        for seed in range(40):
            s = _greedy_both_ways(g, seed)
            assert s.ended_by == "unreachable" and s.turn == 5 * len(decks)
            assert all(len(h) == 5 for h in s.hands) and s.cimetiere_size < g.end_at
            t = _greedy_both_ways(off, seed)
            assert t.ended_by == "turn-limit" and t.turn == 60  # R6 only: what the ruling replaces


def test_r10_a_cimetiere_that_stops_growing_ends_the_game():
    g = Game([LOOP_DECK, LOOP_OTHER])
    assert not g.unreachable
    off = Game([LOOP_DECK, LOOP_OTHER], stalemate_rounds=0)
    stalled = 0
    for seed in range(60):
        s = _greedy_both_ways(g, seed)
        assert s.ended_by in ("cimetiere", "stalled", "turn-limit")
        if s.ended_by == "stalled":
            stalled += 1
            assert s.turn - s.peak_turn == 10 * 2  # ten rounds with no new Cimetière maximum
            assert s.cimetiere_size <= s.peak < g.end_at
        assert _greedy_both_ways(off, seed).ended_by != "stalled"
    assert stalled > 40
    s, _ = play_random(g, 3)  # random play ends too, by one rule or another
    assert s.ended_by in ENDINGS


def test_r10_starter_games_are_not_cut():
    """The stall limit is far above the starter decks' longest quiet stretch (7–8 turns)."""
    for name, deck in _STARTERS.items():
        for decks in ([deck], [deck, deck]):
            g = Game(decks)
            for seed in range(150):
                assert g.new_state(seed, log=False).play_greedy().ended_by == "cimetiere", name


def test_r10_stalemate_rounds_is_checked_and_survives_pickling():
    import pickle

    from cardbase.errors import CardbaseError

    with pytest.raises(CardbaseError, match="stalemate_rounds"):
        Game([RICH], stalemate_rounds=-1)
    g = pickle.loads(pickle.dumps(Game([RICH, RICH], stalemate_rounds=3)))
    assert g.stalemate_rounds == 3 and g.stall_turns == 6
