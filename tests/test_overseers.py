"""Overseers' engine: the box and character powers from the data, every phase, every ruling
(docs/rulings/overseers.md), invariants over many random games, hidden information, determinism."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from cardbase import i18n
from cardbase.bots.base import RandomBot
from cardbase.errors import CardbaseError
from cardbase.games import registry
from cardbase.games.overseers.bots import greedy_action
from cardbase.games.overseers.material import MaterialError, box_from_cards
from cardbase.games.overseers.rules import COLOURS, SPLIT, Rules
from cardbase.games.overseers.state import (
    ADMIT,
    CHARACTER,
    CHOOSE,
    DENY,
    DISCARD,
    GIVE,
    P_CHARACTER,
    P_DISCARD,
    P_DRAFT,
    P_END,
    P_GIVE,
    P_JUDGE,
    P_PENALTY,
    P_PLACE,
    P_SHED,
    P_SPY,
    P_SUCCESSOR,
    P_TAKE,
    P_THIEF_TIE,
    P_VICTIM,
    P_VOTE,
    P_VOTE_TIE,
    PENALIZE,
    PICK,
    SPARE,
    SPY_ON,
    TAKE,
    TERMINAL,
    VICTIM,
    VOTE,
    Game,
    IllegalActionError,
    K,
    replay,
)
from cardbase.playtest.cards import load_edition_defs
from cardbase.playtest.games import simulate

DATA = Path(__file__).resolve().parent.parent / "data" / "editions" / "OVS.toml"
DEFS = load_edition_defs([DATA])
BOX = box_from_cards(DEFS)
CH = {c.name: i for i, c in enumerate(BOX.characters)}
NEUTRAL = ["Le Juge", "Le Saint", "Le Menteur", "Le Voleur", "L'Espion", "L'Alchimiste"]


def game(players: int = 4, **rules) -> Game:
    return Game(BOX, players, Rules(**rules))


def card(name: str) -> int:
    return next(i for i, c in enumerate(BOX.cards) if c.name == name)


def cards(*names: str) -> list[int]:
    return [card(n) for n in names]


def play_random(g: Game, seed: int, check=None):
    s = g.new_state(seed)
    bot = RandomBot(seed)
    while not s.is_terminal():
        if check:
            check(s)
        s.apply_action(bot.step(s))
    return s


def advance(s, phase: int):
    """Play the first legal action until ``phase`` (votes: everyone for the lowest other seat)."""
    while s.phase != phase:
        assert not s.is_terminal()
        s.apply_action(s.legal_actions()[0])
    return s


def judged(players: int = 4, chars: list[str] | None = None, tables=None, leader: int = 3):
    """A state at the judgment with hand-made tables: {seat: (top names, bottom names)}."""
    g = game(players)
    s = g.new_state(0)
    s.chars = [CH[c] for c in (chars or NEUTRAL[:players])]
    advance(s, P_JUDGE)
    assert s.accused == 0  # everyone voted for the lowest other seat: seat 1 for seat 2, seat 2 for the rest
    s.leader = leader
    s.discard = cards("Verte 7", "Bleue 7")
    s.known_discard = [set() for _ in range(players)]
    for p, (top, bottom) in (tables or {}).items():
        s.top[p], s.bottom[p] = cards(*top), cards(*bottom)
    return s


def revealed(s) -> tuple:
    """Every player's cards at the last reveal."""
    return [e for e in s.events if e[0] == "reveal"][-1][1]


LOW = (("Verte 1", "Verte 2", "Verte 3"), ("Violette 1", "Bleue 1"))  # 1+2+2+2+2 = 9


# ------------------------------------------------------------------ the box and the powers (OV13)

def test_box_and_powers_come_from_the_data() -> None:
    assert len(BOX.cards) == 36 and len(BOX.characters) == 11
    by = {c.name: c for c in BOX.characters}
    assert by["Le Juge"].vote == 2 and by["Le Voleur"].vol == 1
    assert by["Le Menteur"].bottom == 3 and by["Le Saint"].admit == 1 and by["L'Espion"].spy == 1
    assert by["L'Ermite"].bonus[COLOURS.index("bleu")] == 1
    assert by["L'Alchimiste"].fixed[COLOURS.index("gris")] == 3
    assert sum(c.vol for c in BOX.cards) == 4 and all(c.colour == 5 for c in BOX.cards if c.vol)


def test_a_designer_changes_a_power_in_the_data() -> None:
    defs = [replace(d, stats=(("vote", 3),)) if d.name == "Le Saint" else d for d in DEFS]
    saint = next(c for c in box_from_cards(defs).characters if c.name == "Le Saint")
    assert saint.vote == 3 and saint.admit == 2


def test_unreadable_powers_and_cards_are_all_listed_with_the_card() -> None:
    defs = [replace(d, stats=(("vote", "deux"),)) if d.name == "Le Juge" else
            replace(d, stats=(("voler", 1),)) if d.name == "Le Voleur" else
            replace(d, stats=(("rangee_bas", 4),)) if d.name == "Le Menteur" else
            replace(d, value=None) if d.name == "Rouge 1" else d for d in DEFS]
    with pytest.raises(MaterialError) as err:
        box_from_cards(defs)
    wheres = sorted(p.where for p in err.value.problems)
    assert wheres == sorted(d.ref for d in DEFS if d.name in ("Le Juge", "Le Voleur", "Le Menteur",
                                                               "Rouge 1"))
    assert all(p.message and p.fix for p in err.value.problems)


def test_a_box_too_small_for_the_split_is_a_clear_error() -> None:
    small = box_from_cards([d for d in DEFS if d.name != "Rouge 5"])
    Game(small, 5)  # 4 red cards at 5 players: still fits
    with pytest.raises(MaterialError) as err, i18n.use_language("en"):
        Game(small, 6)
    assert any("rouge" in p.message and "5" in p.message for p in err.value.problems)
    few = replace(BOX, characters=BOX.characters[:4])
    Game(few, 4)
    with pytest.raises(MaterialError):
        Game(few, 4, Rules(character_choice=True))  # OV22: players + 1 characters


@pytest.mark.parametrize("players", [2, 7])
def test_three_to_six_players(players) -> None:
    with pytest.raises(CardbaseError):
        game(players)


def test_bad_options_are_named() -> None:
    with pytest.raises(CardbaseError, match="split"):
        game(4, split="best")
    with pytest.raises(CardbaseError, match="direction"):
        registry.get("overseers").build(DEFS, 4, direction="right")


# ------------------------------------------------------------------ setup and the deal (OV1, OV2, OV15)

@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_split_by_player_count(players) -> None:
    g = game(players)
    for seed in range(5):
        s = g.new_state(seed)
        split = Counter(COLOURS[BOX.cards[k].colour] for k in s.cards)
        assert split == Counter(SPLIT[players])
        assert all(len(h) == 6 for h in s.hands)
        assert len(s.aside) == sum(SPLIT[players].values()) - 6 * players


def test_split_first_takes_the_lowest_numbers_and_random_varies() -> None:
    s = game(3, split="first").new_state(1)
    reds = [k for k in s.cards if BOX.cards[k].colour == 0]
    assert [BOX.cards[k].name for k in reds] == ["Rouge 1", "Rouge 2", "Rouge 3"]
    g = game(3)
    assert len({tuple(g.new_state(seed).cards) for seed in range(10)}) > 1


def test_first_leader_is_random_and_every_round_deals_afresh() -> None:
    g = game(5)
    assert len({g.new_state(seed).leader for seed in range(40)}) == 5
    s = g.new_state(3)
    deals = [e for e in s.play_greedy().events if e[0] == "deal"]
    assert len(deals) == 3
    for e in deals:
        assert sorted(k for h in e[1] for k in h) != [] and len({k for h in e[1] for k in h}) == 30


# ------------------------------------------------------------------ the draft (OV3, OV4)

def test_draft_passes_to_the_left_and_the_last_card_is_kept() -> None:
    s = game(4).new_state(2)
    before = [list(h) for h in s.hands]
    picks = {}
    for _ in range(4):
        p = s.player
        a = s.legal_actions()[-1]
        picks[p] = a - PICK * K
        s.apply_action(a)
    for p in range(4):  # seat p now holds what seat p-1 held, without its pick
        assert sorted(s.hands[p]) == sorted(k for k in before[p - 1] if k != picks[(p - 1) % 4])
    advance(s, P_DISCARD)
    assert all(len(k) == 6 for k in s.kept) and all(not h for h in s.hands)
    assert [len(x) for x in s.seen] == [6] * 4  # hands of 6, 5, 4, 3, 2, 1 cards were seen


def test_variant_passes_to_the_right_in_round_two() -> None:
    s = game(4, alternate_direction=True).new_state(2)
    while s.round < 2:
        s.apply_action(greedy_action(s))
    assert s._direction() == -1
    before = [list(h) for h in s.hands]
    picks = {}
    for _ in range(4):
        p = s.player
        picks[p] = s.legal_actions()[0] - PICK * K
        s.apply_action(s.legal_actions()[0])
    for p in range(4):
        assert sorted(s.hands[p]) == sorted(k for k in before[(p + 1) % 4] if k != picks[(p + 1) % 4])
    while s.round < 3:
        s.apply_action(greedy_action(s))
    assert s._direction() == 1


def test_simultaneous_decisions_start_from_the_leader() -> None:
    s = game(5).new_state(4)
    assert s.queue == [(s.leader + i) % 5 for i in range(5)] and s.player == s.leader


def test_discard_goes_face_down_to_the_common_discard() -> None:
    s = advance(game(4).new_state(5), P_DISCARD)
    p = s.player
    a = s.legal_actions()[0]
    s.apply_action(a)
    assert s.discard == [a - DISCARD * K] and len(s.kept[p]) == 5
    assert s.observation(p).known_discard == (a - DISCARD * K,)
    assert s.observation(s.player).known_discard == () and s.observation(s.player).discard_size == 1


# ------------------------------------------------------------------ placement and the spy (OV5, OV14)

def test_placement_three_up_two_down_and_the_menteur() -> None:
    s = game(4).new_state(6)
    s.chars = [CH[c] for c in ("Le Menteur", "Le Juge", "Le Saint", "Le Voleur")]
    advance(s, P_PLACE)
    for _ in range(4):
        legal = s.legal_actions(s.player)
        n = 20 if s.player == 0 else 10  # C(5,2) placements, + C(5,3) for the Menteur
        assert len(legal) == n
        watcher = (s.player + 1) % 4
        tops = s.observation(watcher).tops  # OV5: revealed together, once all have placed
        assert all(t is None for q, t in enumerate(tops) if q != watcher)
        p = s.player
        s.apply_action(legal[-1])
        if not s.placed:
            own = s.observation(p)
            assert own.tops[p] == tuple(sorted(s.top[p])) and own.bottoms[p] == tuple(sorted(s.bottom[p]))
            assert all(t is None for q, t in enumerate(own.tops) if q != p)
    assert s.placed and all(len(t) + len(b) == 5 for t, b in zip(s.top, s.bottom, strict=True))
    assert len(s.bottom[0]) == 3 and all(len(s.bottom[p]) == 2 for p in (1, 2, 3))
    assert s.observation(1).tops[0] == tuple(sorted(s.top[0])) and s.observation(1).bottoms[0] == 3


def test_the_espion_sees_one_bottom_card_only_they_see() -> None:
    s = game(4).new_state(7)
    s.chars = [CH[c] for c in ("L'Espion", "Le Juge", "Le Saint", "Le Voleur")]
    advance(s, P_SPY)
    assert s.player == 0 and s.legal_actions() == [SPY_ON * K + 1, SPY_ON * K + 2, SPY_ON * K + 3]
    with pytest.raises(IllegalActionError):
        s.apply_action(SPY_ON * K + 0)
    s.apply_action(SPY_ON * K + 2)
    (target, seen), = s.peeks[0]
    assert target == 2 and seen in s.bottom[2]
    assert s.observation(0).peeks == ((2, seen),)
    assert all(s.observation(p).peeks == () for p in (1, 2, 3))
    assert s.phase == P_VOTE


# ------------------------------------------------------------------ the vote (OV6)

def vote(s, targets: dict[int, int]) -> None:
    while s.phase == P_VOTE:
        s.apply_action(VOTE * K + targets[s.player])


def test_nobody_votes_for_themself_and_votes_stay_hidden_until_all_voted() -> None:
    s = advance(game(4).new_state(8), P_VOTE)
    p = s.player
    assert VOTE * K + p not in s.legal_actions()
    with pytest.raises(IllegalActionError):
        s.apply_action(VOTE * K + p)
    s.apply_action(VOTE * K + (p + 1) % 4)
    q = s.player
    assert s.observation(q).votes is None and s.observation(q).my_vote == -1
    assert s.observation(p).my_vote == (p + 1) % 4


def test_a_vote_tie_is_the_leaders_call_who_may_name_themself() -> None:
    s = game(4).new_state(8)
    s.chars = [CH[c] for c in NEUTRAL[1:5]]
    advance(s, P_VOTE)
    s.leader = 0
    vote(s, {0: 1, 1: 0, 2: 1, 3: 0})
    assert s.phase == P_VOTE_TIE and s.player == 0
    assert s.legal_actions() == [CHOOSE * K + 0, CHOOSE * K + 1]
    s.apply_action(CHOOSE * K + 0)
    assert s.accused == 0 and s.phase == P_JUDGE and s.player == 0


def test_the_juges_vote_counts_twice() -> None:
    s = game(4).new_state(8)
    s.chars = [CH[c] for c in ("Le Saint", "Le Menteur", "Le Juge", "Le Voleur")]
    advance(s, P_VOTE)
    vote(s, {0: 1, 1: 0, 2: 1, 3: 0})
    assert s.phase == P_JUDGE and s.accused == 1


# ------------------------------------------------------------------ judgment and the reveal (OV7, OV8)

def test_admitting_discards_two_cards_of_ones_choice() -> None:
    s = judged(tables={0: (("Rouge 5", "Rouge 4", "Rouge 3"), ("Orange 1", "Verte 1")),
                       1: LOW, 2: LOW, 3: LOW})
    s.chars[0] = CH["Le Juge"]
    s.apply_action(ADMIT)
    assert s.phase == P_SHED and s.player == 0
    s.apply_action(K * 9 + card("Verte 1"))
    assert s.phase == P_SHED
    s.apply_action(K * 9 + card("Rouge 5"))  # a top-row card: everyone saw it leave
    assert s.phase != P_SHED and revealed(s)[0] == tuple(cards("Rouge 3", "Rouge 4", "Orange 1"))
    assert card("Rouge 5") in s.known_discard[2] and card("Verte 1") not in s.known_discard[2]
    assert card("Verte 1") in s.known_discard[0]


def test_the_saint_discards_one_card_on_admitting() -> None:
    s = judged(chars=["Le Saint", "Le Juge", "Le Menteur", "Le Voleur"],
               tables={0: LOW, 1: LOW, 2: LOW, 3: LOW})
    s.apply_action(ADMIT)
    s.apply_action(s.legal_actions()[0])
    assert s.phase != P_SHED and len(revealed(s)[0]) == 4


def test_denying_with_the_best_score_loses_the_two_best_cards() -> None:
    s = judged(tables={0: (("Rouge 5", "Rouge 4", "Rouge 3"), ("Orange 1", "Verte 1")),
                       1: LOW, 2: LOW, 3: LOW})
    s.apply_action(DENY)
    assert sorted(BOX.cards[k].value for k in s.cards_of(0)) == [1, 4, 7]
    assert {card("Rouge 5")} <= set(s.discard) and len(s.discard) == 4
    assert all(card("Rouge 5") in s.observation(p).known_discard for p in range(4))  # lost face up


def test_a_tie_for_the_best_score_is_the_leaders_call() -> None:
    best = (("Rouge 5", "Rouge 4", "Rouge 3"), ("Orange 1", "Verte 1"))  # 8+7+7+4+1 = 27
    same = (("Rouge 1", "Rouge 2", "Orange 6"), ("Orange 5", "Verte 4"))  # 6+6+6+6+3 = 27
    for choice, left in ((PENALIZE, 3), (SPARE, 5)):
        s = judged(tables={0: best, 1: same, 2: LOW, 3: LOW}, leader=2)
        assert s.score(0) == s.score(1) == 27
        s.apply_action(DENY)
        assert s.phase == P_PENALTY and s.player == 2
        s.apply_action(choice)
        assert len(s.cards_of(0)) == left


def test_the_wrongly_accused_takes_a_card_of_their_choice_from_the_discard() -> None:
    s = judged(tables={0: LOW, 1: (("Rouge 5", "Rouge 4", "Rouge 3"), ("Orange 1", "Verte 1")),
                       2: LOW, 3: LOW})
    s.apply_action(DENY)
    assert s.phase == P_TAKE and s.player == 0
    assert s.legal_actions() == sorted(TAKE * K + k for k in s.discard)
    s.apply_action(TAKE * K + card("Bleue 7"))
    assert card("Bleue 7") in s.cards_of(0) and card("Bleue 7") not in s.discard
    assert s.observation(0).known_discard == (card("Verte 7"),)  # they looked through it


# ------------------------------------------------------------------ the steal (OV9)

def test_no_vol_card_no_steal_even_with_the_voleur() -> None:
    s = judged(chars=["Le Voleur", "Le Juge", "Le Saint", "Le Menteur"],
               tables={0: LOW, 1: LOW, 2: LOW,
                       3: (("Rouge 1", "Verte 4", "Verte 5"), ("Verte 6", "Violette 2"))})
    s.apply_action(ADMIT)
    while s.phase == P_SHED:
        s.apply_action(s.legal_actions()[0])
    assert s.thief == -1 and not any(e[0] == "thief" for e in s.events)
    assert s.round == 2 or s.phase == P_SUCCESSOR


STEAL = {0: LOW, 1: (("Grise 1", "Grise 2", "Verte 4"), ("Verte 5", "Verte 6")),
         2: (("Grise 3", "Bleue 6", "Bleue 5"), ("Bleue 4", "Rouge 1")),
         3: (("Bleue 7", "Verte 7", "Orange 2"), ("Orange 3", "Orange 4"))}


def test_the_most_vol_cards_steals_and_the_victim_chooses_the_card() -> None:
    s = judged(chars=["Le Juge", "Le Saint", "L'Ermite", "Le Menteur"], tables=STEAL)
    s.discard = []
    s.apply_action(ADMIT)
    while s.phase == P_SHED:
        s.apply_action(s.legal_actions()[0])
    assert s.phase == P_VICTIM and s.player == 1 and s.thief == 1
    assert VICTIM * K + 1 not in s.legal_actions()
    s.apply_action(VICTIM * K + 2)
    assert s.phase == P_GIVE and s.player == 2
    assert s.legal_actions() == sorted(GIVE * K + k for k in s.cards_of(2))
    s.apply_action(GIVE * K + card("Bleue 6"))
    assert ("give", 2, 1, card("Bleue 6")) in s.events
    # the Ermite's blue card (worth 5 + 1 to them) is worth its printed 5 to the thief (OV9)
    assert s.points[1][0] == 1 + 1 + 3 + 3 + 4 + 5 and s.points[2][0] == 1 + 5 + 5 + 6


def test_a_tie_in_vol_cards_is_the_leaders_call_and_the_voleur_counts_one_more() -> None:
    s = judged(chars=["Le Juge", "Le Saint", "Le Voleur", "Le Menteur"], tables=STEAL, leader=3)
    s.apply_action(ADMIT)
    while s.phase == P_SHED:
        s.apply_action(s.legal_actions()[0])
    assert s.phase == P_THIEF_TIE and s.player == 3  # seat 3: 1 Vol card + 1 (Voleur) = seat 2's 2
    assert s.legal_actions() == [CHOOSE * K + 1, CHOOSE * K + 2]
    s.apply_action(CHOOSE * K + 2)
    assert s.thief == 2 and s.phase == P_VICTIM


def test_a_given_card_takes_the_worth_of_its_new_holder() -> None:
    g = game(4)
    s = g.new_state(0)
    ermite, juge = CH["L'Ermite"], CH["Le Juge"]
    blue = cards("Bleue 7")
    assert s.score_cards(blue, ermite) == 6 and s.score_cards(blue, juge) == 5
    alch = CH["L'Alchimiste"]
    assert s.score_cards(cards("Grise 1", "Grise 2", "Rouge 1"), alch) == 3 + 1 + 6  # OV13 fixe_gris
    assert s.score_cards(cards("Rouge 1"), alch) == 6


# ------------------------------------------------------------------ the count and the end (OV10, OV11)

def test_the_lowest_round_score_leads_next_and_a_tie_is_the_leaders_call() -> None:
    s = judged(tables={0: (("Rouge 5", "Rouge 4", "Rouge 3"), ("Orange 1", "Verte 1")),
                       1: (("Verte 1", "Verte 2", "Verte 3"), ("Violette 1", "Bleue 1")),
                       2: (("Rouge 1", "Rouge 2", "Orange 6"), ("Orange 5", "Verte 3")),
                       3: (("Verte 4", "Verte 5", "Verte 6"), ("Violette 2", "Bleue 2"))}, leader=3)
    s.apply_action(ADMIT)
    while s.phase == P_SHED:
        s.apply_action(s.legal_actions()[-1])
    assert s.round == 2 and s.leader == 1 and s.leaders == [s.leaders[0], 1]
    assert s.observation(2).my_points == (s.points[2][0],) and s.observation(2).totals is None
    s = judged(tables={0: (("Rouge 5", "Rouge 4", "Rouge 3"), ("Orange 1", "Verte 1")),
                       1: LOW, 2: LOW, 3: (("Rouge 1", "Rouge 2", "Orange 6"), ("Orange 5", "Verte 3"))},
               leader=3)
    s.apply_action(ADMIT)
    while s.phase == P_SHED:
        s.apply_action(s.legal_actions()[-1])
    assert s.phase == P_SUCCESSOR and s.player == 3
    assert s.legal_actions() == [CHOOSE * K + 1, CHOOSE * K + 2]
    s.apply_action(CHOOSE * K + 2)
    assert s.round == 2 and s.leader == 2


def test_the_end_highest_total_then_never_leader_then_shared() -> None:
    s = game(4).new_state(0)
    s.totals, s.led = [50, 40, 30, 20], {0}
    s._finish()
    assert s.returns() == [1.0, 0.0, 0.0, 0.0] and s.phase == P_END and s.is_terminal()
    s = game(4).new_state(0)
    s.totals, s.led = [50, 50, 30, 50], {0, 2}
    s._finish()
    assert s.returns() == [0.0, 1.0, 0.0, 1.0]  # both never led: they share
    s = game(4).new_state(0)
    s.totals, s.led = [50, 50, 30, 20], {0, 1, 2}
    s._finish()
    assert s.returns() == [1.0, 1.0, 0.0, 0.0]
    s = game(4).new_state(0)
    s.totals, s.led = [50, 50, 30, 20], {1}
    s._finish()
    assert s.returns() == [1.0, 0.0, 0.0, 0.0]


# ------------------------------------------------------------------ the variant characters (OV22)

def test_character_choice_by_ascending_points() -> None:
    s = game(4, character_choice=True).new_state(11)
    while s.round < 2:
        s.apply_action(greedy_action(s))
    assert s.phase == P_CHARACTER and len(s.offered) == 5
    last = [s.points[p][-1] for p in range(4)]
    order = []
    while s.phase == P_CHARACTER:
        order.append(s.player)
        assert s.legal_actions() == sorted(CHARACTER * K + c for c in s.offered)
        s.apply_action(s.legal_actions()[0])
    assert [last[p] for p in order] == sorted(last)
    assert len(set(s.chars)) == 4 and s.phase == P_DRAFT


# ------------------------------------------------------------------ invariants over many games

def _check(s) -> None:
    everything = sorted([k for h in s.hands for k in h] + [k for h in s.kept for k in h]
                        + [k for h in s.top for k in h] + [k for h in s.bottom for k in h]
                        + s.discard + s.aside)
    assert everything == s.cards, "cards conserved"
    if s.phase == P_VOTE:
        assert VOTE * K + s.player not in s.legal_actions()
    if not s.revealed:
        for p in range(s.n):
            o = s.observation(p)
            assert o.table is None
            mine = {k for k in o.hand} | set(o.kept) | set(o.known_discard)
            if s.placed:
                mine |= {k for t in o.tops for k in t}
            mine |= {k for _, k in o.peeks}
            peeked = {k for _, k in s.peeks[p]}
            for q in range(s.n):
                if q != p:
                    hidden = (set(s.bottom[q]) - peeked if s.placed else
                              set(s.kept[q]) | set(s.hands[q]) | set(s.top[q]) | set(s.bottom[q]))
                    assert not hidden & mine, "a hidden card in another player's observation"
                    assert not isinstance(o.bottoms[q], tuple)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_invariants_over_random_games(players) -> None:
    for seed in range(40):
        g = game(players, alternate_direction=seed % 2 == 1, character_choice=seed % 3 == 0)
        s = play_random(g, seed, _check)
        _check(s)
        assert s.round == 3 and all(len(pts) == 3 for pts in s.points) and len(s.leaders) == 3
        assert s.totals == [sum(pts) for pts in s.points]
        assert sum(s.returns()) >= 1 and s.ended_by == "rounds"
        for e in s.events:
            if e[0] == "votes":
                assert all(v != p for p, v in enumerate(e[1])), "nobody votes for themself"


def test_others_hidden_choices_never_change_ones_observation() -> None:
    for seed in range(15):
        s = game(5).new_state(seed)
        bot = RandomBot(seed)
        while not s.is_terminal():
            p = s.player
            mid_step = len(s.queue) > 1 and s.phase in (P_DRAFT, P_DISCARD, P_PLACE, P_VOTE)
            watchers = {q: s.observation(q) for q in range(5) if q != p}
            s.apply_action(bot.step(s))
            if mid_step:
                for q, o in watchers.items():  # the discard's size is public (OV16)
                    assert replace(s.observation(q), current_player=o.current_player,
                                   discard_size=o.discard_size) == o


# ------------------------------------------------------------------ determinism, replay, resample

def test_same_seed_same_game_and_replay() -> None:
    g = game(5, character_choice=True)
    a, b = play_random(g, 21), play_random(g, 21)
    assert a.history == b.history and a.events == b.events and a.totals == b.totals
    r = replay(g, 21, a.history)
    assert r.events == a.events and r.returns() == a.returns()
    assert play_random(g, 22).history != a.history


def test_clone_is_independent() -> None:
    s = advance(game(4).new_state(3), P_PLACE)
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert s.phase == P_PLACE and not s.top[s.player] and c.history != s.history
    c.play_greedy()
    assert not s.is_terminal()


def test_resample_keeps_the_players_observation_and_respects_the_set_aside() -> None:
    rng = random.Random(5)
    for seed in range(6):
        s = game(3 + seed % 4).new_state(seed)
        bot = RandomBot(seed)
        i = 0
        while not s.is_terminal():
            if i % 7 == 0:
                for p in range(s.n):
                    r = s.resample(p, rng)
                    assert r.observation(p) == s.observation(p)
                    _check(r)
                    seen = {k for h in s.seen[p] for k in h}
                    assert not set(r.aside) & seen
            s.apply_action(bot.step(s))
            i += 1


def test_the_greedy_bot_reads_only_what_its_player_sees() -> None:
    rng = random.Random(1)
    differs = 0
    for seed in range(8):
        s = game(5).new_state(seed)
        while not s.is_terminal():
            p = s.player
            a = greedy_action(s)
            r = s.resample(p, rng)
            assert greedy_action(r) == a  # OV17
            differs += r.observation((p + 1) % 5) != s.observation((p + 1) % 5)
            s.apply_action(a)
    assert differs > 0  # the resampled states did hide something from the greedy player


def test_illegal_actions_are_refused_with_the_legal_ones() -> None:
    s = game(4).new_state(0)
    with pytest.raises(IllegalActionError) as err, i18n.use_language("fr"):
        s.apply_action(DISCARD * K)
    assert "Garder" in str(err.value)
    s.play_greedy()
    with pytest.raises(IllegalActionError):
        s.apply_action(PICK * K)
    assert s.legal_actions() == [] and s.current_player() == TERMINAL


def test_actions_are_said_in_french_and_in_english() -> None:
    s = game(4).new_state(0)
    a = s.legal_actions()[0]
    with i18n.use_language("fr"):
        assert s.action_to_string(a).startswith("Garder ")
        assert s.action_to_string(VOTE * K + 2) == "Voter pour J3"
        assert s.action_to_string(ADMIT) == "Admettre" and s.action_to_string(DENY) == "Nier"
    with i18n.use_language("en"):
        assert s.action_to_string(VOTE * K + 2) == "Vote for P3"
    advance(s, P_PLACE)
    with i18n.use_language("fr"):
        assert s.action_to_string(s.legal_actions()[0]).startswith("Placer en haut")


# ------------------------------------------------------------------ the registry and the batch runner

def test_registry_builds_overseers_and_the_batch_runs_at_every_count() -> None:
    spec = registry.playable("overseers")
    assert spec.min_players == 3 and spec.max_players == 6 and "greedy" in spec.bots
    for players in (3, 4, 5, 6):
        rep, recs = simulate("overseers", DEFS, players=players, bots=["greedy"], games=30, seed=1)
        assert len(rep.seats) == players and all(r.rounds == 3 for r in recs)
        wins = sum(s["wins"] for s in rep.seats)
        shared = sum(1 for r in recs if sum(x > 0 for x in r.returns) > 1)
        assert rep.ties == shared and wins == 30 + sum(sum(x > 0 for x in r.returns) - 1 for r in recs)
        names = {row["name"] for row in rep.cards}
        assert names <= {c.name for c in BOX.characters}  # impact of the characters only
    rep, _ = simulate("overseers", DEFS, players=4, bots=["random", "greedy", "random", "greedy"],
                      games=20, seed=2, options={"character_choice": True})
    assert rep.games == 20


def test_batch_figures_do_not_depend_on_the_workers() -> None:
    one, _ = simulate("overseers", DEFS, players=5, games=40, seed=3, workers=1)
    two, _ = simulate("overseers", DEFS, players=5, games=40, seed=3, workers=2)
    assert one.as_dict() == two.as_dict()


def test_analysis_gives_seats_the_first_leader_rounds_led_and_colours() -> None:
    from cardbase.games.overseers.analysis import analyse

    a = analyse(DEFS, 4, games=40, seed=5)
    b = analyse(DEFS, 4, games=40, seed=5)
    assert a == b and len(a["seats"]) == 4
    assert sum(x["games"] for x in a["rounds_led"]) == 4 * 40
    assert a["first_leader"]["fair_share"] == 0.25 and 0 <= a["first_leader"]["wins"] <= 40
    assert [c["colour"] for c in a["colours"]] == list(COLOURS)
    # every counted card is one of the game's cards: 3 counts of at most 6 cards each a player
    assert all(0 < c["per_winner"] + c["per_other"] for c in a["colours"])
    with pytest.raises(CardbaseError):
        analyse(DEFS, 7, games=1)


# ------------------------------------------------------------------ belief (OV18)


def _where(s, k: int) -> int | None:
    """The seat whose hidden lists hold card ``k``; -1 in the discard, None when set aside."""
    for q in range(s.n):
        if k in s.hands[q] or k in s.kept[q] or k in s.top[q] or k in s.bottom[q]:
            return q
    return -1 if k in s.discard else None


def test_belief_is_never_wrong_and_resamples_keep_to_it() -> None:
    rng = random.Random(9)
    checked = narrowed = 0
    for seed in range(12):
        s = game(3 + seed % 4).new_state(seed)
        bot = RandomBot(seed)
        i = 0
        while not s.is_terminal():
            if i % 3 == 0:
                for p in range(s.n):
                    belief = s.belief(p)
                    for k, seats in belief.items():
                        assert p not in seats
                        where = _where(s, k)
                        assert where == -1 or where in seats  # the truth is a possible world
                        narrowed += len(seats) < s.n - 1
                    r = s.resample(p, rng)
                    assert r.observation(p) == s.observation(p)
                    _check(r)
                    for k, seats in belief.items():
                        where = _where(r, k)
                        assert where == -1 or where in seats
                        checked += 1
            s.apply_action(bot.step(s))
            i += 1
    assert checked > 1000 and narrowed > 100


def test_a_card_passed_on_is_placed_with_the_next_players_only() -> None:
    s = game(5).new_state(4)
    p = s.player
    while s.step < 2:  # two picks each: what p passed at step 0 is with p+1 or p+2
        s.apply_action(greedy_action(s))
    passed = set(s.seen[p][0]) - set(s.kept[p])
    rng = random.Random(0)
    for _ in range(50):
        r = s.resample(p, rng)
        for k in passed:
            assert _where(r, k) in ((p + 1) % 5, (p + 2) % 5)
    assert all(s.belief(p)[k] == {(p + 1) % 5, (p + 2) % 5} for k in passed)


def test_the_belief_bot_plays_legal_moves_and_runs_in_the_batch_runner() -> None:
    from cardbase.games.overseers.bots import BeliefBot
    g = game(4)
    assert isinstance(g.make_bot("belief", 3), BeliefBot) and g.make_bot("greedy", 3) is None
    s = g.new_state(2)
    bots = [BeliefBot(seed=p) for p in range(4)]
    while not s.is_terminal():
        a = bots[s.player].step(s)
        assert a in s.legal_actions()
        s.apply_action(a)
    _check(s)
    rep, _ = simulate("overseers", DEFS, players=4, bots=["belief", "greedy", "greedy", "greedy"],
                            games=8, seed=1)
    assert rep.games == 8 and rep.seats[0]["bot"] == "belief"


def test_the_playtest_table_can_seat_belief_bots() -> None:
    from cardbase.ui import playtest_overseers as ovs

    record = ovs.play(ovs.new_game("belief", 4, 2, seed=5), None)
    for _ in range(300):
        state = ovs.replay_state(record)
        if state.is_terminal():
            break
        record = ovs.play(record, state.legal_actions(2)[0])
    assert ovs.replay_state(record).is_terminal()


def test_the_batch_report_adds_the_leader_and_the_colours() -> None:
    rep, records = simulate("overseers", DEFS, players=4, bots=["greedy"], games=60, seed=2)
    data = rep.as_dict()
    lead = data["leader"]
    assert lead["games"] == 60 and lead["fair_share"] == 0.25
    first = sum(1 for r in records if r.returns[r.facts[0]] > 0)
    assert lead["wins"] == first and lead["ci95"][0] <= lead["win_rate"] <= lead["ci95"][1]
    assert [c["colour"] for c in data["colours"]] == list(COLOURS)
    held = sum(sum(sum(row) for row in r.facts[1]) for r in records)
    assert held > 0 and all(c["per_winner"] >= 0 and c["per_other"] >= 0 for c in data["colours"])
    with i18n.use_language("fr"):
        rep, _ = simulate("overseers", DEFS, players=4, bots=["greedy"], games=10, seed=2)
    assert rep.extra_lines[0].startswith("Premier Leader")
    assert "leader" not in simulate("overkill", load_edition_defs([DATA.parent / "OVK.toml"]),
                                    games=4, seed=0)[0].as_dict()


@pytest.mark.sqlite_only("the command-line output does not depend on the database")
def test_sim_game_overseers_prints_the_leader_and_the_colours(cli_env) -> None:
    import json

    from typer.testing import CliRunner

    from cardbase.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["sim", "game", "overseers", "--players", "4", "--games", "20",
                                 "--json", "--workers", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["leader"]["games"] == 20 and len(data["colours"]) == len(COLOURS)
    result = runner.invoke(app, ["--lang", "fr", "sim", "game", "overseers", "--players", "4",
                                 "--games", "20", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "Premier Leader" in result.output and "gagnants / autres joueurs" in result.output
    result = runner.invoke(app, ["--lang", "en", "sim", "game", "overseers", "--players", "4",
                                 "--games", "20", "--workers", "1"])
    assert "First Leader" in result.output


def test_the_taker_keeps_the_discard_it_looks_through() -> None:
    s = _record_state_at(P_TAKE)
    p = s.player
    rng = random.Random(2)
    for _ in range(20):
        r = s.resample(p, rng)
        assert r.discard == s.discard and r.legal_actions() == s.legal_actions()


def _record_state_at(phase: int):
    for seed in range(400):
        s = game(4).new_state(seed)
        while not s.is_terminal() and s.phase != phase:
            s.apply_action(greedy_action(s))
        if s.phase == phase:
            return s
    raise AssertionError("phase not reached")


# ------------------------------------------------------------------ the greedy judgement (OV20)

def test_the_greedy_denies_when_a_shown_top_row_promises_better_face_down_cards() -> None:
    """OV20: a player hides their best cards, so a top row of fives promises face-down cards of
    five or more; an accused scoring 25 is then not the best, and denies."""
    mine = (("Rouge 1", "Rouge 2", "Orange 5"), ("Orange 6", "Grise 1"))  # 6 + 6 + 6 + 6 + 1 = 25
    fives = (("Orange 3", "Orange 4", "Violette 6"), ("Rouge 3", "Rouge 4"))  # 15 shown, 29 in all
    low = (("Bleue 2", "Bleue 3", "Verte 4"), ("Verte 5", "Violette 2"))
    s = judged(tables={0: mine, 1: fives, 2: LOW, 3: low})
    assert s.player == 0 and s.score(0) == 25
    assert greedy_action(s) == DENY
    s.apply_action(DENY)  # wrongly accused: the compensation (OV8)
    assert s.phase == P_TAKE and s.player == 0
    # the same accused, when every top row shows small cards, believes it is the best and admits
    s = judged(tables={0: mine, 1: LOW, 2: low, 3: (("Verte 6", "Verte 7", "Bleue 4"),
                                                    ("Violette 3", "Violette 4"))})
    assert greedy_action(s) == ADMIT


def test_the_face_down_estimate_is_at_least_the_best_card_shown() -> None:
    from cardbase.games.overseers.bots import estimate

    for seed in range(6):
        s = advance(game(4).new_state(seed), P_VOTE)
        for p in range(4):
            for q in range(4):
                if q != p:
                    worth = s.game.worth[s.chars[q]]
                    floor = max(worth[k] for k in s.top[q])
                    looked = [k for r, k in s.peeks[p] if r == q]
                    assert estimate(s, p, q) >= sum(worth[k] for k in s.top[q] + looked) \
                        + floor * (len(s.bottom[q]) - len(looked)) - 1e-9


def test_greedy_games_deny_and_the_penalty_and_compensation_happen() -> None:
    """Before OV20 the greedy bot admitted in 99.5 % of judgements (the face-down cards valued at
    the mean of unseen cards): Nier's penalty and compensation almost never came up."""
    total: Counter = Counter()
    for seed in range(150):
        s = game(4).new_state(seed, log=False)
        s.play_greedy()
        for key, (occ, used) in s.coverage().items():
            total[key, 0] += occ
            total[key, 1] += used
    judgements = total["deny", 0]
    assert judgements == 450 and total["admit", 1] + total["deny", 1] == judgements
    assert total["deny", 1] > 0.15 * judgements
    assert total["penalty", 1] > 0 and total["compensation", 1] > 0.1 * judgements
    assert total["admit_not_best", 1] < 0.1 * total["admit", 1]  # admitting is mostly right


# ------------------------------------------------------------------ OV9 and OV10 against the text

DUCHESS_STEALS = {0: LOW, 1: (("Grise 1", "Grise 2", "Verte 4"), ("Verte 5", "Verte 6")),
                  2: (("Grise 3", "Violette 4", "Bleue 5"), ("Bleue 4", "Rouge 1")),
                  3: (("Bleue 7", "Verte 7", "Orange 2"), ("Orange 3", "Orange 4"))}


@pytest.mark.parametrize("stolen_value, worth", [("printed", 4), ("holder", 5)])
def test_a_stolen_card_is_worth_its_printed_value_to_the_thief(stolen_value, worth) -> None:
    """OV9: « la carte retrouve sa valeur d'origine entre les mains du voleur » — La Duchesse
    (violet +1) stealing a Violette 4 counts 4 for it, not 5; option stolen_value=holder: 5."""
    g = game(4, stolen_value=stolen_value)
    s = g.new_state(0)
    s.chars = [CH[c] for c in ("Le Juge", "La Duchesse", "Le Saint", "Le Menteur")]
    advance(s, P_JUDGE)
    s.leader = 3
    s.discard, s.discard_from = [], []
    for p, (top, bottom) in DUCHESS_STEALS.items():
        s.top[p], s.bottom[p] = cards(*top), cards(*bottom)
    s.apply_action(ADMIT)
    while s.phase == P_SHED:
        s.apply_action(s.legal_actions()[0])
    assert s.thief == 1 and s.phase == P_VICTIM
    s.apply_action(VICTIM * K + 2)
    s.apply_action(GIVE * K + card("Violette 4"))
    assert s.points[1][0] == 1 + 1 + 3 + 3 + 4 + worth
    assert s.coverage()["stolen_value"] == [1, 1]


def test_no_successor_is_asked_after_the_third_count() -> None:
    """OV10: the lowest score leads the *next* round; after the third count there is none, so a
    tie for the lowest score asks the Leader nothing and the game ends."""
    s = judged(tables={0: (("Rouge 5", "Rouge 4", "Rouge 3"), ("Orange 1", "Verte 1")),
                       1: LOW, 2: LOW, 3: (("Rouge 1", "Rouge 2", "Orange 6"), ("Orange 5", "Verte 3"))},
               leader=3)
    s.round = 3
    s.apply_action(ADMIT)
    while s.phase == P_SHED:
        s.apply_action(s.legal_actions()[-1])
    assert s.is_terminal() and s.phase == P_END
    assert not any(e[0] == "leader_choice" and e[1] == "successor" for e in s.events)
    assert "successor_tie" not in s.coverage()


# ------------------------------------------------------------------ resample hides what is hidden (OV16)

def _world(s) -> tuple:
    """Everything a state holds but its event log (sets and lists compared as values)."""
    out = []
    for name in type(s).__slots__:
        if name in ("game", "rules", "events"):
            continue
        v = getattr(s, name)
        if name == "rng":
            v = v.getstate()
        elif name in ("known_discard", "held"):
            v = [sorted(x) for x in v]
        elif name == "led":
            v = sorted(v)
        out.append((name, v))
    return tuple(out)


def _perturb(s, p: int, rng: random.Random):
    """Another state ``p`` cannot tell from ``s``: every hidden thing changed at random."""
    t = s.clone()
    t.seed, t.history = rng.getrandbits(60), [rng.randrange(99) for _ in s.history]
    t.rng = random.Random(rng.random())
    n = s.n
    for q in range(n):
        if q != p:
            t.seen[q] = [tuple(rng.sample(s.cards, len(h))) for h in s.seen[q]]
            t.known_discard[q] = set(rng.sample(s.discard, rng.randrange(len(s.discard) + 1)))
            t.peeks[q] = [(rng.randrange(n), rng.choice(s.cards)) for _ in s.peeks[q]]
    if s.phase == P_VOTE:
        for q in range(n):
            if q != p and s.votes[q] >= 0:
                t.votes[q] = rng.choice([r for r in range(n) if r != q])
    if s.phase == P_PLACE:
        for q in range(n):
            if q != p and (s.top[q] or s.bottom[q]):
                mixed = t.top[q] + t.bottom[q]
                rng.shuffle(mixed)
                size = rng.choice((2, 3)) if s.character(q).bottom == 3 else 2
                t.bottom[q], t.top[q] = mixed[:size], mixed[size:]
    if not (s.revealed or s.is_terminal()):
        pinned = {k for r, k in s.peeks[p] if s.discard_from.count(r) <= 1}
        slots = []
        for q in range(n):
            if q != p:
                lists = (t.bottom[q],) if s.placed else (t.hands[q], t.kept[q], t.top[q], t.bottom[q])
                slots += [(lst, i) for lst in lists for i, k in enumerate(lst) if k not in pinned]
        known = set(s.discard) if (s.phase == P_TAKE and s.player == p) else s.known_discard[p]
        slots += [(t.discard, i) for i, k in enumerate(t.discard) if k not in known]
        slots += [(t.aside, i) for i in range(len(t.aside))]
        hidden = [lst[i] for lst, i in slots]
        rng.shuffle(hidden)
        for (lst, i), k in zip(slots, hidden):
            lst[i] = k
    return t


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_resample_depends_only_on_what_the_player_knows(players) -> None:
    """OV16, over many states and seeds: perturb everything ``p`` cannot see (the others' hidden
    cards, the votes cast while the vote is on, the rows placed while placement is on, the other
    spies' looks, the others' memories, the seed); ``p``'s observation stays the same, and so must
    ``resample(p, rng)``. Before, a resample kept the true hidden votes."""
    chooser = random.Random(players)
    checked = 0
    for seed in range(5):
        g = game(players, character_choice=seed % 2 == 1)
        s = g.new_state(seed)
        if seed < 3:  # the Espion and the Menteur at the table
            s.chars[:2] = [CH["L'Espion"], CH["Le Menteur"]]
        bot = RandomBot(seed)
        while not s.is_terminal():
            if chooser.random() < 0.3:
                for p in range(players):
                    t = _perturb(s, p, chooser)
                    assert t.observation(p) == s.observation(p)
                    k = chooser.getrandbits(32)
                    a, b = s.resample(p, random.Random(k)), t.resample(p, random.Random(k))
                    assert _world(a) == _world(b), (s.phase, p)
                    assert a.observation(p) == s.observation(p)
                    _check(a)
                    checked += 1
            s.apply_action(bot.step(s))
    assert checked > 200


def test_resample_never_shows_the_votes_not_yet_revealed() -> None:
    s = advance(game(5).new_state(2), P_VOTE)
    while s.queue[1:]:  # everyone has voted but the last
        s.apply_action(s.legal_actions()[-1])
    last = s.player
    truth = [v for q, v in enumerate(s.votes) if q != last]
    assert s.observation(last).votes is None
    drawn = {tuple(v for q, v in enumerate(s.resample(last, random.Random(i)).votes) if q != last)
             for i in range(30)}
    assert len(drawn) > 1 and any(list(d) != truth for d in drawn)


# ------------------------------------------------------------------ copies (OV19)

def _with_copies(copies: dict[str, int]):
    return [replace(d, copies=copies.get(d.name, d.copies)) for d in DEFS]


def test_one_card_at_a_thousand_copies_is_playable() -> None:
    """OV19: actions were ``kind * 1000 + card``: with 1,000 copies a card's number ran into the
    next kind, and the engine refused the legal move it offered."""
    g = registry.get("overseers").build(_with_copies({"Rouge 1": 1000}), 4)
    for seed in range(10):
        s = play_random(g, seed)
        assert s.is_terminal()
    picked = Counter()
    for seed in range(400):  # Rouge 1 is 1,000 of the 1,004 red cards: nearly always in the game
        s = g.new_state(seed)
        picked[sum(1 for k in s.cards if g.box.cards[k].name == "Rouge 1")] += 1
    assert picked[3] > 390  # three reds at 4 players, nearly all Rouge 1


def test_copies_are_drawn_as_from_the_whole_box_and_seeds_stay() -> None:
    """With one copy of each card, a game draws exactly what ``rng.sample`` over the box drew."""
    from cardbase.games.overseers.material import draw, groups

    rng_a, rng_b = random.Random(3), random.Random(3)
    pool = list(range(len(BOX.cards)))
    assert draw(rng_a, groups(BOX.cards), 9) == rng_b.sample(pool, 9)
    box = box_from_cards(_with_copies({"Rouge 1": 10**6, "Le Juge": 10**6}))
    assert len(box.cards) == len(BOX.cards) + 4 and len(box.characters) == len(BOX.characters) + 6


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_box_the_data_accepts_plays_to_the_end(players) -> None:
    """OV19 and OV14: any number of copies (1 to 1,000,000, the data's bound) and any Espion figure
    (a look per face-down card of the others at most) play to the end — or, past the engines' box
    limit (copies counted, registry.MAX_BOX_CARDS), are refused before the box is built, with a
    message naming the limit."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from cardbase.errors import CardbaseError

    names = [d.name for d in DEFS]

    @settings(max_examples=12, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.dictionaries(st.sampled_from(names),
                           st.one_of(st.integers(1, 2_000), st.integers(1, 1_000_000)), max_size=6),
           st.integers(0, 2**32), st.booleans(), st.integers(0, 1_000_000))
    def check(copies, seed, choice, looks):
        defs = [replace(d, stats=(("espion", looks),)) if d.name == "L'Espion" else d
                for d in _with_copies(copies)]
        if sum(d.copies for d in defs) > registry.MAX_BOX_CARDS:
            with pytest.raises(CardbaseError, match="au plus"), i18n.use_language("fr"):
                registry.get("overseers").build(defs, players, character_choice=choice)
            return
        g = registry.get("overseers").build(defs, players, character_choice=choice)
        s = play_random(g, seed)
        assert s.is_terminal() and s.round == 3
        assert all(0 <= k < len(g.box.cards) for k in s.cards)

    check()


def test_a_box_beyond_the_action_numbers_is_refused_in_french(monkeypatch) -> None:
    from cardbase.games.overseers import material

    monkeypatch.setattr(material, "ACTIONS", 20)
    with pytest.raises(MaterialError) as err, i18n.use_language("fr"):
        box_from_cards(DEFS)
    assert "le moteur en joue au plus 19" in str(err.value.problems[0])


# ------------------------------------------------------------------ rulings and coverage as data

def test_every_ruling_of_the_doc_is_in_rulings_with_a_real_option() -> None:
    import re

    from cardbase.games.overseers.rulings import RULINGS
    from cardbase.games.rulings import parse_rules

    doc = (Path(__file__).resolve().parent.parent / "docs" / "rulings" / "overseers.md").read_text()
    codes = set(re.findall(r"\*\*(OV\d+) —", doc))
    assert codes == {r.code for r in RULINGS}
    defaults = Rules()
    for r in RULINGS:
        assert r.title["fr"] and r.title["en"] and r.text["fr"] and r.text["en"]
        if r.option:
            assert getattr(defaults, r.option) == r.default
        assert not r.contested or r.option
    assert [r.code for r in RULINGS if r.contested] == ["OV1"]
    opts = parse_rules("overseers", ["OV9=holder", "split=first"])
    assert opts == {"stolen_value": "holder", "split": "first"}
    assert game(4, **opts).rules.stolen_value == "holder"


def test_coverage_counts_every_judgement_in_every_play_path() -> None:
    """The fast play-out and the bots step by step count the same; used <= occasions; known
    actions are counted (admit/deny each judgement, endings each game, steals each gift)."""
    from cardbase.games.overseers.bots import GreedyBot
    from cardbase.games.overseers.rulings import COVERAGE

    for players in (3, 5, 6):
        g = game(players)
        for seed in range(6):
            fast = g.new_state(seed).play_greedy()
            slow = g.new_state(seed)
            bot = GreedyBot()
            while not slow.is_terminal():
                slow.apply_action(bot.step(slow))
            cov = fast.coverage()
            assert cov == slow.coverage() and set(cov) <= set(COVERAGE)
            assert all(0 <= used <= occ for occ, used in cov.values())
            ev = Counter(e[0] for e in fast.events)
            assert cov["admit"][0] == cov["deny"][0] == 3 == cov["admit"][1] + cov["deny"][1]
            assert cov["deny"][1] == sum(1 for e in fast.events
                                         if e[0] == "judgment" and e[2] == "deny")
            assert cov.get("penalty", [0, 0])[1] == ev["penalty"]
            assert cov.get("compensation", [0, 0])[1] == ev["take"]
            assert cov["steal"] == [3, ev["give"]]
            assert sum(cov.get(k, [0, 0])[1] for k in ("end:alone", "end:never_led", "end:shared")) == 1
            tied = cov["end:alone"][1] == 0  # OV11's tie-breaks count only in a tie at the top
            assert cov.get("end:never_led", [0, 0])[0] == cov.get("end:shared", [0, 0])[0] == int(tied)
            assert cov["successor_tie"][0] == 2
    rnd = play_random(game(4, character_choice=True), 7)
    assert all(0 <= used <= occ for occ, used in rnd.coverage().values())


def test_a_batch_without_a_tie_at_the_top_never_warns_about_ov11_tie_breaks() -> None:
    """OV11's tie-breaks (never led, shared win) are counted over the games tied at the highest
    total: a batch without such a tie no longer warns that the bots « hardly use » them."""
    from cardbase.playtest.coverage import warnings

    total: dict[str, list[int]] = {}
    ties = 0
    for seed in range(40):
        cov = game(4).new_state(seed).play_greedy().coverage()
        ties += cov["end:alone"][1] == 0
        for k, (occ, used) in cov.items():
            slot = total.setdefault(k, [0, 0])
            slot[0] += occ
            slot[1] += used
    assert total.get("end:never_led", [0, 0])[0] == ties == total.get("end:shared", [0, 0])[0]
    assert ties < 40 and total["end:alone"][0] == 40
    with i18n.use_language("fr"):
        lines = [x for x in warnings("overseers", total) if "OV11" in x]
    # a tie-break rate, if any, is over the tied games, never over all 40 games
    assert all(f"sur {ties})" in x and "à égalité au plus haut total" in x for x in lines)
    assert not any("sur 40)" in x for x in lines)
