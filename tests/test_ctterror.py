"""CT vs Terror's engine: the box from the data, every card, every ruling (docs/rulings/ctterror.md,
cited CT<n>), invariants over thousands of random games, hidden information, determinism, the batch
runner's team figures."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from cardbase import i18n
from cardbase.errors import CardbaseError
from cardbase.games import registry
from cardbase.games.ctterror.bots import GreedyBot, greedy_action
from cardbase.games.ctterror.material import MaterialError, box_from_cards
from cardbase.games.ctterror.rules import CT, TERROR, Rules
from cardbase.games.ctterror.state import (
    CALLED,
    CHARACTER,
    DEFEND,
    HIDDEN,
    MASKING,
    PASS,
    TERMINAL,
    TURN,
    Game,
    IllegalActionError,
    Observation,
    replay,
)
from cardbase.playtest.cards import load_edition_defs

DATA = Path(__file__).resolve().parent.parent / "data" / "editions" / "CTT.toml"
DEFS = load_edition_defs([DATA])
BOX = box_from_cards(DEFS)


def kind(name: str) -> int:
    return next(i for i, k in enumerate(BOX.kinds) if k.name == name)


def play(name: str, arg: int = 0) -> int:
    return (2 + kind(name)) * 16 + arg


def setup(n: int = 4, hands: dict[int, list[str]] | None = None, *, life: dict[int, int] | None = None,
          top: list[str] = (), seat: int = 0, begin: bool = False, **rules):
    """A game set up by hand: hands by card name, the pile's next cards (``top``, first drawn
    first), ``seat`` to decide its offensive move (``begin``: its turn starts with the draw)."""
    g = Game(BOX, n, Rules(**rules))
    s = g.new_state(0)
    pool = Counter(g.deck)
    s.hands = [[0] * g.K for _ in range(n)]
    s.held = [0] * n
    for p, names in (hands or {}).items():
        for name in names:
            k = kind(name)
            pool[k] -= 1
            assert pool[k] >= 0
            s.hands[p][k] += 1
    s.hand_n = [sum(h) for h in s.hands]
    tops = [kind(name) for name in top]
    for k in tops:
        pool[k] -= 1
        assert pool[k] >= 0
    rest = sorted(pool.elements(), key=lambda k: (not g.is_bomb[k], k))  # Bombes at the bottom
    s.pile = rest + list(reversed(tops))
    s.discard, s.table, s.asking, s.secret = [], [], [], []
    s.life = [100] * n
    for p, v in (life or {}).items():
        s.life[p] = v
    s.alive = [v > 0 for v in s.life]
    s.att, s.caller = None, -1
    s.events = []
    s.turns = 0
    if begin:
        s._begin_turn(seat)
    else:
        s.phase, s.player, s.turn_player, s.turns = TURN, seat, seat, 1
    return s


def cards_everywhere(s) -> Counter:
    c = Counter(s.pile) + Counter(s.discard) + Counter(k for _, k, _ in s.table)
    for h in s.hands:
        c.update({k: v for k, v in enumerate(h) if v})
    return c


# --------------------------------------------------------------------------- the box


def test_box_from_the_data_file() -> None:
    assert BOX.total == 68 and BOX.pile_size == 52 and len(BOX.characters) == 8
    assert BOX.life == 100 and BOX.life_step == 20 and BOX.life_cards == 8
    assert sum(1 for c in BOX.characters if c.team == CT) == 4
    figures = {k.name: k.figure for k in BOX.kinds}
    assert figures["AK 47"] == 60 and figures["Grenade"] == 80 and figures["Gilet"] == 40
    assert figures["Casque"] == 20 and figures["Bombe"] == 40 and figures["Tir ami"] == 20
    assert {k.name for k in BOX.kinds if k.effect == "weapon" and not k.counter} == {"Grenade"}


def test_figures_come_from_the_data() -> None:
    defs = [replace(d, stats=(("damage", 70),)) if d.name == "AK 47" else d for d in DEFS]
    box = box_from_cards(defs)
    assert next(k for k in box.kinds if k.name == "AK 47").figure == 70


def test_unreadable_cards_are_all_named_at_once() -> None:
    defs = []
    for d in DEFS:
        if d.name == "AK 47":
            d = replace(d, stats=())
        elif d.name == "Contre-terroriste 1":
            d = replace(d, banner=None)
        elif d.name == "Ricochet":
            d = replace(d, name="Boomerang")
        defs.append(d)
    with pytest.raises(MaterialError) as err:
        box_from_cards(defs)
    text = str(err.value) + " ".join(str(p) for p in err.value.problems)
    assert "AK 47" in text and "Contre-terroriste 1" in text and "Boomerang" in text
    assert len(err.value.problems) == 3


def test_seating_alternates_terror_first_ct1() -> None:
    assert Game(BOX, 2).team == (TERROR, CT)
    assert Game(BOX, 4).team == (TERROR, CT, TERROR, CT)
    assert Game(BOX, 8).team == (TERROR, CT) * 4
    assert Game(BOX, 3).team == (TERROR, CT, CT)
    assert Game(BOX, 5).team == (TERROR, CT, TERROR, CT, CT)
    assert Game(BOX, 5, Rules(odd_extra="Terror")).team == (TERROR, CT, TERROR, CT, TERROR)
    s = Game(BOX, 6).new_state(3)
    assert s.current_player() == 0 and s.team_of(0) == "Terror" and s.teams[1] == "CT"
    assert all(BOX.characters[c].team == Game(BOX, 6).team[p] for p, c in enumerate(s.character))
    assert len(set(s.character)) == 6


def test_players_and_characters_are_checked() -> None:
    with pytest.raises(CardbaseError):
        Game(BOX, 9)
    few = [d for d in DEFS if d.name not in ("Terroriste 3", "Terroriste 4")]
    Game(box_from_cards(few), 4)
    with pytest.raises(MaterialError) as err:
        Game(box_from_cards(few), 6)
    assert "Terror" in str(err.value.problems[0])


def test_deal_five_cards_each_ct2() -> None:
    for seed in range(50):
        s = Game(BOX, 8).new_state(seed)
        deal = s.events[: s.events.index(("turn", 0))]
        for p in range(1, 8):  # seat 0 has drawn already
            bombs = sum(1 for e in deal if e[0] in ("bomb", "defuse") and e[1] == p)
            defused = sum(1 for e in deal if e[0] == "defuse" and e[1] == p)
            assert s.hand_n[p] == 5 - bombs - defused  # a Bombe is not replaced (CT3)
        assert sum(cards_everywhere(s).values()) == 52


# --------------------------------------------------------------------------- Bombes


def test_bomb_on_the_deal_hurts_the_holder_and_teammates_ct3() -> None:
    g = Game(BOX, 4)
    seen = {"bomb": 0, "defuse": 0}
    for seed in range(400):
        s = g.new_state(seed)
        deal = s.events[: s.events.index(("turn", 0))]
        for e in deal:
            if e[0] == "bomb":
                seen["bomb"] += 1
                hits = [x for x in deal if x[0] == "damage"]
                holder = e[1]
                assert (holder, 40) in {(x[1], x[2]) for x in hits}
                mate = g.mates[holder][0]
                assert (mate, 20) in {(x[1], x[2]) for x in hits}
                assert all(x[1] in (holder, mate) for x in hits if not any(
                    b[0] == "bomb" and b[1] not in (holder, mate) for b in deal))
            if e[0] == "defuse":
                seen["defuse"] += 1
    assert seen["bomb"] > 10 and seen["defuse"] > 0


def test_bomb_on_the_deal_option_spares_teammates_ct3() -> None:
    g = Game(BOX, 4, Rules(deal_bomb_teammates=False))
    for seed in range(200):
        s = g.new_state(seed)
        bombed = {e[1] for e in s.events if e[0] == "bomb"}
        for p in range(4):
            if p not in bombed:
                assert s.life[p] == 100


def test_a_deal_bomb_can_end_the_game_with_a_small_life_figure_ct3() -> None:
    defs = [replace(d, stats=(("life", 40), ("life_step", 20))) if d.card_type == "Points de vie"
            else d for d in DEFS]
    g = Game(box_from_cards(defs), 2)
    ended = 0
    for seed in range(300):
        s = g.new_state(seed)
        assert s.life[0] <= 40 and s.life[1] <= 40
        if any(e[0] == "bomb" for e in s.events[:3]) and s.is_terminal():
            ended += 1
            assert s.turns == 0 and s.ended_by == "victory" and s.legal_actions() == []
            assert not any(e[0] == "turn" for e in s.events)
    assert ended > 0


def test_bomb_on_the_draw_second_card_defuses_ct4() -> None:
    s = setup(hands={0: ["Casque"]}, top=["Bombe", "Désamorçage"], begin=True)
    assert s.life[0] == 100 and s.phase == TURN and s.player == 0
    assert s.hands[0][kind("Désamorçage")] == 0 and s.discard.count(kind("Bombe")) == 1
    assert any(e[0] == "defuse" for e in s.events)


def test_bomb_on_the_draw_explodes_on_the_drawer_only_ct4() -> None:
    s = setup(hands={0: ["Casque"]}, top=["Bombe", "Gilet"], begin=True)
    assert s.life == [60, 100, 100, 100]
    assert s.hand_n[0] == 2  # no replacement for the Bombe


def test_bomb_on_the_draw_uses_a_defuse_in_hand_ct4() -> None:
    s = setup(hands={0: ["Désamorçage"]}, top=["Gilet", "Bombe"], begin=True)
    assert s.life[0] == 100 and s.hand_n[0] == 1


def test_bomb_on_the_draw_can_kill_and_the_turn_passes_ct4() -> None:
    s = setup(hands={0: ["AK 47"]}, top=["Bombe", "Gilet"], begin=True, life={0: 40})
    assert not s.alive[0] and s.player == 1 and s.phase == TURN
    assert s.hand_n[0] == 0  # CT16: the dead player's hand is discarded


# --------------------------------------------------------------------------- the turn


def test_turn_draws_two_then_one_move_ct5() -> None:
    s = setup(hands={0: ["AK 47"], 1: []}, top=["Casque", "Gilet"], begin=True)
    assert s.hand_n[0] == 3 and s.turns == 1
    legal = s.legal_actions()
    assert PASS in legal and CHARACTER + 1 in legal and CHARACTER + 3 in legal
    assert CHARACTER + 2 not in legal  # never a teammate
    s.apply_action(CHARACTER + 1)
    assert s.phase == DEFEND and s.current_player() == 1 and s.legal_actions() == [PASS]
    s.apply_action(PASS)
    assert s.life[1] == 80 and s.current_player() == 1 and s.phase == TURN and s.turn_player == 1


def test_passing_is_allowed_ct5() -> None:
    s = setup()
    s.apply_action(PASS)
    assert s.turn_player == 1 and s.life == [100] * 4


def test_illegal_actions_are_refused_with_the_legal_ones() -> None:
    s = setup(hands={0: []})
    with pytest.raises(IllegalActionError) as err:
        s.apply_action(play("AK 47", 1))
    assert "AK 47" in str(err.value) and "Attaquer" in str(err.value)


def test_reshuffle_the_discard_when_the_pile_is_empty_ct5() -> None:
    s = setup(hands={0: []})
    s.discard = s.pile[:-1]
    s.pile = s.pile[-1:]
    before = cards_everywhere(s)
    s._begin_turn(0)
    assert s.hand_n[0] == 2 and any(e[0] == "reshuffle" for e in s.events)
    assert cards_everywhere(s) == before and s.discard == []


def test_nothing_to_draw_ct5() -> None:
    s = setup(hands={0: []})
    for k in s.pile:
        s.hands[2][k] += 1
    s.hand_n[2] += len(s.pile)
    s.pile = []
    s._begin_turn(0)
    assert s.hand_n[0] == 0 and s.phase == TURN and ("draw", 0, 0) in s.events


# --------------------------------------------------------------------------- answers


def attacked(card: str | None, defender_hand: list[str], n: int = 4, life: dict | None = None,
             attacker_hand: list[str] = (), **rules):
    hands = {0: ([card] if card else []) + list(attacker_hand), 1: defender_hand}
    s = setup(n, hands, life=life, **rules)
    s.apply_action(play(card, 1) if card else CHARACTER + 1)
    assert s.phase == DEFEND and s.current_player() == 1
    return s


@pytest.mark.parametrize("defence, damage", [("Casque", 40), ("Gilet", 20)])
def test_armour_reduces_ct6(defence: str, damage: int) -> None:
    s = attacked("AK 47", [defence])
    s.apply_action(play(defence))
    assert s.life[1] == 100 - damage


def test_casque_and_gilet_together_ct6() -> None:
    s = attacked("Fusil de sniper", ["Casque", "Gilet", "Esquive"])
    assert s.game.BOTH in s.legal_actions()
    s.apply_action(s.game.BOTH)
    assert s.life[1] == 80 and s.turn_player == 1 and s.hand_n[1] == 1 + 2  # it drew for its turn
    s = attacked(None, ["Casque", "Gilet"])
    s.apply_action(s.game.BOTH)
    assert s.life[1] == 100  # never below 0 damage


def test_only_one_defence_card_ct6() -> None:
    s = attacked("AK 47", ["Casque", "Esquive"])
    s.apply_action(play("Casque"))
    assert s.phase == TURN and s.current_player() == 1 and s.life[1] == 60


@pytest.mark.parametrize("counter, attacker_life, defender_life", [
    ("Fusil de sniper", 80, 100), ("9 mm", 100, 80), ("AK 47", 100, 100)])
def test_counter_attack_ct7(counter: str, attacker_life: int, defender_life: int) -> None:
    s = attacked("AK 47", [counter])
    assert play(counter, 0) in s.legal_actions()
    s.apply_action(play(counter, 0))
    assert s.life[0] == attacker_life and s.life[1] == defender_life


def test_no_counter_with_the_character_weapon_or_against_a_grenade_ct7_ct12() -> None:
    s = attacked("Grenade", ["AK 47", "Tir ami", "Ricochet", "Esquive", "Casque", "Renfort"])
    legal = s.legal_actions()
    assert play("AK 47", 0) not in legal
    assert not any(a >> 4 == kind("Tir ami") + 2 for a in legal)
    assert play("Ricochet") not in legal
    assert play("Esquive") in legal and play("Casque") in legal and play("Renfort", 3) in legal
    s = attacked(None, ["9 mm"])
    assert s.legal_actions() == [PASS, play("9 mm", 0)]
    s.apply_action(play("9 mm", 0))
    assert s.life[0] == 80  # the .38 (20) loses to the 9 mm (40)


def test_grenade_cannot_counter_ct12() -> None:
    s = attacked("AK 47", [])
    s.hands[1][kind("Grenade")] += 1
    assert play("Grenade", 0) not in s.legal_actions()


def test_esquive_avoids_a_weapon_and_halves_a_grenade_ct12() -> None:
    s = attacked("AK 47", ["Esquive"])
    s.apply_action(play("Esquive"))
    assert s.life[1] == 100
    s = attacked("Grenade", ["Esquive"])
    s.apply_action(play("Esquive"))
    assert s.life[1] == 60


def test_tir_ami_ct8() -> None:
    s = attacked("AK 47", ["Tir ami"])
    legal = s.legal_actions()
    assert play("Tir ami", 2) in legal and play("Tir ami", 0) not in legal  # not the attacker
    s.apply_action(play("Tir ami", 2))
    assert s.life == [100, 100, 80, 100]
    s = attacked("AK 47", ["Tir ami"], friendly_fire="attack")
    s.apply_action(play("Tir ami", 2))
    assert s.life == [100, 100, 40, 100]
    s = attacked("AK 47", ["Tir ami"], n=2)  # the attacker has no teammate
    assert s.legal_actions() == [PASS]


def test_ricochet_a_uniform_loser_among_the_living_ct9() -> None:
    losers = Counter()
    for seed in range(800):
        s = attacked("AK 47", ["Ricochet"], life={3: 0})
        s.rng.seed(seed)
        s.apply_action(play("Ricochet"))
        hit = [p for p in range(4) if s.life[p] == 80]
        assert len(hit) == 1 and sum(s.life) == 280  # 20 damage to one, the attack cancelled
        losers[hit[0]] += 1
    assert set(losers) == {0, 1, 2}  # the one who played it and the attacker included
    assert all(200 < v < 340 for v in losers.values())
    seen = set()
    for seed in range(200):
        s = attacked("AK 47", ["Ricochet"], ricochet_pool="others")
        s.rng.seed(seed)
        s.apply_action(play("Ricochet"))
        seen |= {p for p in range(4) if s.life[p] < 100}
    assert seen == {0, 2, 3}


def test_renfort_attack_ct10() -> None:
    s = setup(hands={0: ["Renfort"], 2: ["AK 47", "Renfort"]})
    s.apply_action(play("Renfort", 2))
    assert s.phase == CALLED and s.current_player() == 2
    legal = s.legal_actions()
    assert play("AK 47", 1) in legal and not any(a >> 4 == kind("Renfort") + 2 for a in legal)
    s.apply_action(play("AK 47", 3))
    assert s.phase == DEFEND and s.att[0] == 2 and s.current_player() == 3
    s.hands[3][kind("Fusil de sniper")] += 1
    s.hand_n[3] += 1
    s.pile.remove(kind("Fusil de sniper"))
    s.apply_action(play("Fusil de sniper", 2))
    assert s.life[2] == 80  # the called player is the attacker who loses (CT7)
    assert s.turn_player == 1  # the turn passes on from the caller; seat 3 keeps its turn later


def test_renfort_defence_ct11() -> None:
    s = attacked("AK 47", ["Renfort"], attacker_hand=[])
    s.hands[3][kind("Gilet")] += 1
    s.hand_n[3] += 1
    s.pile.remove(kind("Gilet"))
    s.apply_action(play("Renfort", 3))
    assert s.phase == DEFEND and s.current_player() == 3
    assert play("Gilet") in s.legal_actions()
    assert not any(a >> 4 == kind("Renfort") + 2 for a in s.legal_actions())
    s.apply_action(play("Gilet"))
    assert s.life[1] == 80 and s.life[3] == 100 and s.hand_n[3] == 0


def test_renfort_not_against_a_head_shot_ct15() -> None:
    s = attacked("Tir à la tête", ["Renfort", "Casque", "Esquive"])
    assert s.legal_actions() == [PASS, play("Esquive")]
    s.apply_action(play("Esquive"))
    assert s.life[1] == 100


def test_head_shot_kills_whatever_the_life_ct15() -> None:
    s = attacked("Tir à la tête", ["Casque", "Gilet"])
    s.apply_action(PASS)
    assert not s.alive[1] and s.life[1] == 0 and s.hand_n[1] == 0


def test_gas_grenade_and_masque_ct13() -> None:
    s = setup(hands={0: ["Grenade à gaz"], 1: ["Masque", "AK 47"], 3: ["AK 47"]})
    s.apply_action(play("Grenade à gaz", 0))
    assert s.phase == MASKING and s.current_player() == 1 and s.asking == [1, 3]
    s.apply_action(play("Masque"))
    assert s.current_player() == 3 and s.legal_actions() == [PASS]
    s.apply_action(PASS)
    assert s.phase == TURN and s.current_player() == 1
    assert CHARACTER + 0 in s.legal_actions()  # masked: may attack the thrower
    s.apply_action(CHARACTER + 2)
    s.apply_action(PASS)  # seat 2 takes it
    s.apply_action(PASS)  # seat 2 makes no move
    assert s.current_player() == 3
    assert CHARACTER + 0 not in s.legal_actions() and play("AK 47", 0) not in s.legal_actions()
    s.apply_action(PASS)
    assert s.table == []  # the thrower's turn: the gas ends and goes to the discard
    assert kind("Grenade à gaz") in s.discard


def test_gas_allows_a_counter_attack_ct13() -> None:
    s = setup(hands={0: ["Grenade à gaz"], 1: ["Uzi", "AK 47"], 2: ["AK 47"]})
    s.apply_action(play("Grenade à gaz", 0))
    s.apply_action(PASS)
    s.apply_action(PASS)
    s.apply_action(CHARACTER + 2)  # seat 1 cannot attack seat 0
    s.apply_action(PASS)
    s.apply_action(play("AK 47", 1))  # seat 2 attacks seat 1 ...
    assert play("AK 47", 2) in s.legal_actions()  # ... who may still counter-attack
    s.apply_action(PASS)


def test_flash_blinds_for_a_round_ct14() -> None:
    s = setup(hands={0: ["Grenade flash"], 1: ["Masque", "Casque", "Esquive"], 2: ["Casque", "9 mm"],
                     3: ["Casque", "Esquive", "AK 47"]})
    s.apply_action(play("Grenade flash", 0))
    assert s.asking == [1, 2, 3]  # the thrower's teammate too
    s.apply_action(play("Masque"))
    s.apply_action(PASS)
    s.apply_action(PASS)
    assert not s.blinded(1) and s.blinded(2) and s.blinded(3)
    assert s.current_player() == 1 and s.phase == TURN
    pile = len(s.pile)
    s.apply_action(CHARACTER + 2)
    assert s.legal_actions() == [PASS, play("Casque")]  # armour only (no 9 mm, no Esquive)
    s.apply_action(play("Casque"))
    # seats 2 and 3 miss their turn without drawing; the flash ends at seat 0's turn
    assert s.current_player() == 0 and s.table == [] and len(s.pile) == pile - 2
    assert any(e == ("blind_skip", 2) for e in s.events) and any(e == ("blind_skip", 3) for e in s.events)


def test_flash_option_spares_teammates_and_blinded_cannot_be_called_ct14() -> None:
    s = setup(hands={0: ["Grenade flash"]}, flash_teammates=False)
    s.apply_action(play("Grenade flash", 0))
    assert s.asking == [1, 3]
    s = setup(hands={1: ["Grenade flash"], 2: ["Renfort", "Masque"]}, seat=1)
    s.apply_action(play("Grenade flash", 1))
    assert s.asking == [2, 3, 0]
    s.apply_action(play("Masque"))
    s.apply_action(PASS)
    s.apply_action(PASS)
    assert s.blinded(0) and s.blinded(3) and not s.blinded(2) and s.current_player() == 2
    assert s.callable_mates(2) == [] and not any(a >> 4 == kind("Renfort") + 2 for a in s.legal_actions())


def test_answers_are_sequential_decisions_ct20() -> None:
    s = setup(hands={0: ["Grenade flash", "AK 47"], 2: ["Masque"]})
    s.apply_action(play("Grenade flash", 0))
    asked = []
    while s.phase == MASKING:  # everyone affected is asked in seat order, with or without a Masque
        asked.append(s.current_player())
        s.apply_action(s.legal_actions()[-1])
    assert asked == [1, 2, 3] and kind("Masque") in s.discard
    assert s.current_player() == 2  # seat 1 is blinded and misses its turn; seat 2 wore the Masque
    s = setup(hands={0: ["AK 47"], 1: ["Renfort"], 3: ["Casque"]})
    s.apply_action(play("AK 47", 1))
    assert s.current_player() == 1 and s.turn_player == 0
    s.apply_action(play("Renfort", 3))
    assert s.current_player() == 3 and s.observation(0).attack == (0, 1, 60, kind("AK 47"), 0, 3)
    s.apply_action(play("Casque"))
    assert s.life[1] == 60 and s.current_player() == 1 and s.turn_player == 1


def test_turns_and_rounds_ct21() -> None:
    s = setup(hands={1: ["Grenade flash"]}, seat=1)
    s.turns, s.round = 1, 1
    s.apply_action(play("Grenade flash", 1))
    for _ in range(3):
        s.apply_action(PASS)  # no Masque: seats 2, 3 and 0 are blinded
    # seats 2, 3, 0 miss their turn (not counted); the order came back to seat 1 once
    assert s.current_player() == 1 and s.turns == 2 and s.round == 2
    s.apply_action(PASS)
    assert s.current_player() == 2 and s.turns == 3 and s.round == 2


def test_death_victory_and_team_returns_ct16_ct17() -> None:
    s = setup(hands={0: ["AK 47"], 1: ["Casque"]}, life={1: 40, 3: 0})
    s.apply_action(play("AK 47", 1))
    s.apply_action(PASS)
    assert s.is_terminal() and s.ended_by == "victory" and s.winner() == "Terror"
    assert s.returns() == [1.0, -1.0, 1.0, -1.0] and s.current_player() == TERMINAL
    assert s.legal_actions() == []


def test_dead_players_never_act_and_are_never_targets_ct16() -> None:
    s = setup(hands={0: []}, life={1: 0})
    assert CHARACTER + 1 not in s.legal_actions()
    s.apply_action(PASS)
    assert s.current_player() == 2


def test_turn_limit_is_reported_ct18() -> None:
    s = Game(BOX, 4, Rules(max_turns=3)).new_state(1)
    while not s.is_terminal():
        s.apply_action(PASS)
    assert s.ended_by == "turn_limit" and s.turns == 3 and s.returns() == [0.0] * 4
    assert s.winner() is None


def test_rules_options_are_checked() -> None:
    with pytest.raises(CardbaseError) as err:
        Game(BOX, 4, Rules(odd_extra="both", max_turns=0))
    assert "odd_extra" in str(err.value) and "max_turns" in str(err.value)
    with pytest.raises(CardbaseError) as err:
        registry.get("ctterror").build(DEFS, 4, nope=1)
    assert "nope" in str(err.value)


# --------------------------------------------------------------------------- text


def test_french_texts_and_english_on_request() -> None:
    s = setup(hands={0: ["AK 47", "Renfort"]})
    assert s.action_to_string(play("AK 47", 1)).startswith("Jouer AK 47 contre J2")
    assert "Attaquer" in s.action_to_string(CHARACTER + 1)
    with i18n.use_language("en"):
        assert s.action_to_string(play("Renfort", 2)).startswith("Play Renfort: call P3")
    g = Game(BOX, 6)
    s = g.new_state(4)
    rng = random.Random(0)
    while not s.is_terminal():
        legal = s.legal_actions()
        for a in legal:
            assert s.action_to_string(a)
        s.apply_action(legal[rng.randrange(len(legal))])
    for e in s.events:
        text = s.event_to_string(e)
        assert text and not text.startswith("(")
    assert "gagné" in s.event_to_string(s.events[-1])


def test_every_event_has_its_text_in_both_languages() -> None:
    s = setup()
    k = kind("Grenade flash")
    events = [("deal", (0, 1, 2, 3)), ("turn", 0), ("draw", 0, 2), ("reshuffle", 30), ("pass", 1),
              ("no_defence", 1), ("blind_skip", 2), ("death", 3), ("headshot", 3),
              ("defuse", 0, kind("Bombe"), kind("Désamorçage")), ("bomb", 0, kind("Bombe"), True),
              ("attack", 0, 1, -1), ("attack", 0, 1, kind("AK 47")), ("call", 0, 2, kind("Renfort")),
              ("throw", 0, k), ("mask", 1, kind("Masque")), ("defend", 1, kind("Casque")),
              ("status_end", 0, k), ("ricochet", 2), ("damage", 1, 20, 80), ("end", "victory", "CT"),
              ("end", "turn_limit", None)]
    for lang in ("fr", "en"):
        with i18n.use_language(lang):
            texts = [s.event_to_string(e) for e in events]
            assert all(t and not t.startswith("(") for t in texts)
            assert len(set(texts)) == len(texts)


# --------------------------------------------------------------------------- random play


def test_random_play_invariants() -> None:
    """Cards conserved (68), life in 0..100, the dead never decide, every game ends (CT18)."""
    limit = 0
    games = 0
    for n in range(2, 9):
        g = Game(BOX, n)
        for i in range(500 if n in (2, 4, 6) else 250):
            s = g.new_state(n * 10_000 + i, log=False)
            rng = random.Random(i)
            steps = 0
            while not s.is_terminal():
                p = s.current_player()
                assert s.alive[p]
                assert sum(cards_everywhere(s).values()) + len(BOX.characters) + BOX.life_cards == 68
                assert all(0 <= v <= 100 for v in s.life)
                assert all(v > 0 for v, a in zip(s.life, s.alive) if a)
                assert all(v % BOX.life_step == 0 for v in s.life)  # the life card's five levels
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
                assert steps < 5000
            assert cards_everywhere(s) == Counter(g.deck) - Counter() or \
                sum(cards_everywhere(s).values()) == 52
            assert s.ended_by in ("victory", "turn_limit")
            limit += s.ended_by == "turn_limit"
            games += 1
            if s.ended_by == "victory":
                losers = [p for p in range(n) if s.returns()[p] < 0]
                assert losers and not any(s.alive[p] for p in losers)
    assert games == 2500
    assert limit == 0  # CT18: the safety net is never reached by random play


@pytest.mark.parametrize("options", [
    {"odd_extra": "Terror", "friendly_fire": "attack"},
    {"ricochet_pool": "others", "flash_teammates": False, "deal_bomb_teammates": False},
])
def test_options_keep_the_invariants(options: dict) -> None:
    for n in (3, 5, 8):
        g = Game(BOX, n, Rules(**options))
        for i in range(120):
            s = g.new_state(i)
            rng = random.Random(i)
            while not s.is_terminal():
                assert s.alive[s.current_player()] and all(0 <= v <= 100 for v in s.life)
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
            assert cards_everywhere(s) == Counter(g.deck) and s.ended_by == "victory"


def test_cards_are_conserved_by_kind() -> None:
    g = Game(BOX, 5)
    for i in range(200):
        s = g.new_state(i)
        rng = random.Random(i)
        while not s.is_terminal():
            assert cards_everywhere(s) == Counter(g.deck)
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        assert cards_everywhere(s) == Counter(g.deck)


# --------------------------------------------------------------------------- information


def test_observation_never_shows_other_hands_ct19() -> None:
    g = Game(BOX, 4)
    rng = random.Random(0)
    changed = 0
    for seed in range(30):
        s = g.new_state(seed)
        obs = s.observation(0)
        assert obs.hand == tuple(s.hands[0]) and obs.hand_sizes == tuple(s.hand_n)
        r = s.resample(0, rng)  # the other hands dealt again, same sizes
        assert r.observation(0) == obs
        if r.hands[1] != s.hands[1]:
            changed += 1
            assert r.observation(1) != s.observation(1)  # seat 1's own view does show its hand
    assert changed > 20
    assert "hands" not in Observation.__dataclass_fields__


def test_resample_keeps_what_the_player_knows() -> None:
    rng = random.Random(3)
    for n in (2, 4, 7):
        g = Game(BOX, n)
        for i in range(60):
            s = g.new_state(i)
            while not s.is_terminal():
                for viewer in range(n):
                    r = s.resample(viewer, rng)
                    assert r.observation(viewer) == s.observation(viewer)
                    assert r.information_key(viewer) == s.information_key(viewer)
                    assert cards_everywhere(r) == cards_everywhere(s)
                    assert r.hands[viewer] == s.hands[viewer]
                    assert all(not r.hands[q][k] for q in range(n) for k in range(g.K) if g.is_bomb[k])
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])


def test_greedy_never_reads_hidden_cards() -> None:
    rng = random.Random(4)
    for n in (3, 4, 6):
        g = Game(BOX, n)
        for i in range(60):
            s = g.new_state(i)
            while not s.is_terminal():
                choice = greedy_action(s)
                assert choice in s.legal_actions()
                for _ in range(2):
                    assert greedy_action(s.resample(s.current_player(), rng)) == choice
                s.apply_action(choice)


def test_same_seed_same_game_and_replay() -> None:
    g = Game(BOX, 6)
    a, b = g.new_state(42), g.new_state(42)
    bot = GreedyBot()
    while not a.is_terminal():
        act = bot.step(a)
        a.apply_action(act)
        b.apply_action(act)
    assert a.events == b.events and a.scores() == b.scores()
    assert replay(g, 42, a.history).events == a.events
    c = g.new_state(42).clone(log=True)
    assert c.hands == g.new_state(42).hands
    fast = g.new_state(42, log=False).play_greedy()
    assert fast.history == a.history


def test_greedy_team_beats_random_team() -> None:
    g = Game(BOX, 4)
    wins = 0
    n = 400
    for i in range(n):
        s = g.new_state(i)
        rng = random.Random(i)
        greedy_team = i % 2
        while not s.is_terminal():
            if g.team[s.current_player()] == greedy_team:
                s.apply_action(greedy_action(s))
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
        wins += s.winner_team == greedy_team
    assert wins / n > 0.75


# --------------------------------------------------------------------------- the batch runner


def test_simulate_reports_teams() -> None:
    from cardbase.playtest.games import simulate

    rep, _recs = simulate("ctterror", DEFS, players=4, bots=["greedy"], games=300, seed=1)
    data = rep.as_dict()
    assert set(data["teams"]) == {"CT", "Terror"}
    assert data["teams"]["CT"]["seats"] == [2, 4] and data["teams"]["Terror"]["seats"] == [1, 3]
    assert data["teams"]["CT"]["wins"] + data["teams"]["Terror"]["wins"] + data["ties"] == 300
    lo, hi = data["teams"]["CT"]["ci95"]
    assert lo <= data["teams"]["CT"]["win_rate"] <= hi
    assert [s["team"] for s in data["seats"]] == ["Terror", "CT", "Terror", "CT"]
    assert data["seats"][0]["wins"] == data["teams"]["Terror"]["wins"]
    assert data["ended_by"] == {"victory": 300}
    assert any(c["name"] == "Tir à la tête" for c in data["cards"])
    rep2, _ = simulate("ctterror", DEFS, players=3, bots=["random", "greedy", "greedy"], games=50,
                       seed=1, options={"odd_extra": "Terror"})
    assert rep2.as_dict()["teams"]["Terror"]["seats"] == [1, 3]


def test_search_bots_play_for_their_team() -> None:
    """mc and ismcts search over teams: a seat's return is its team's (team-shared returns)."""
    from cardbase.playtest.games import simulate

    spec = registry.get("ctterror")
    assert spec.engine and spec.teams and {"mc", "ismcts"} <= set(spec.bots)
    _rep, records = simulate("ctterror", DEFS, players=4, bots=["mc", "greedy", "mc", "greedy"], games=2)
    for r in records:
        assert r.returns[0] == r.returns[2] and r.returns[1] == r.returns[3]
    with pytest.raises(CardbaseError):
        simulate("ctterror", DEFS, players=4, bots=["genius"], games=2)


def test_overkill_report_has_no_teams() -> None:
    from cardbase.playtest.games import simulate

    defs = load_edition_defs([DATA.parent / "OVK.toml"])
    rep, _ = simulate("overkill", defs, games=4, seed=0)
    assert "teams" not in rep.as_dict() and rep.seats[0]["team"] is None


# --------------------------------------------------------------------------- audit fixes

def test_flash_thrown_by_a_called_teammate_lasts_until_the_callers_turn_ct22() -> None:
    """CT22: the called teammate makes the caller's move "in their place": the flash spares the
    caller and the thrower, and lasts until the caller's next turn, so every enemy seated after
    the thrower misses a turn too."""
    s = setup(hands={0: ["Renfort"], 2: ["Grenade flash"]})
    s.apply_action(play("Renfort", 2))
    s.apply_action(play("Grenade flash", 2))
    assert s.asking == [3, 1]  # seat 0, the caller, is not blinded
    s.apply_action(PASS)
    s.apply_action(PASS)
    assert s.blinded(1) and s.blinded(3) and not s.blinded(0) and not s.blinded(2)
    assert s.current_player() == 2  # seat 1 missed its turn; seat 2 plays
    assert s.blinded(3)  # still blinded: the flash is the caller's, it ends at seat 0's turn
    s.apply_action(PASS)
    assert s.current_player() == 0 and s.table == []
    assert ("blind_skip", 1) in s.events and ("blind_skip", 3) in s.events


def test_gas_thrown_by_a_called_teammate_shields_the_caller_ct22() -> None:
    s = setup(hands={0: ["Renfort"], 2: ["Grenade à gaz"]})
    s.apply_action(play("Renfort", 2))
    s.apply_action(play("Grenade à gaz", 2))
    s.apply_action(PASS)
    s.apply_action(PASS)
    assert s.current_player() == 1
    assert CHARACTER + 0 not in s.legal_actions() and CHARACTER + 2 in s.legal_actions()
    s.apply_action(PASS)
    s.apply_action(PASS)  # seat 2
    assert s.current_player() == 3 and CHARACTER + 0 not in s.legal_actions()


def test_a_dead_players_hand_stays_hidden_ct16() -> None:
    """CT16/CT19: the unplayed cards of a dead player go to the discard pile face down."""
    s = setup(hands={0: ["AK 47"], 1: ["Esquive", "Tir ami", "Casque"]}, life={1: 40})
    s.apply_action(play("AK 47", 1))
    s.apply_action(PASS)
    assert not s.alive[1]
    seen = s.observation(2).discard
    assert seen.count(HIDDEN) == 3 and len(seen) == len(s.discard)
    assert kind("Esquive") not in seen and kind("AK 47") in seen
    r = s.resample(2, random.Random(1))
    assert r.observation(2) == s.observation(2) and cards_everywhere(r) == cards_everywhere(s)


def test_deal_bomb_goes_off_as_dealt_when_the_defuse_comes_later_ct3() -> None:
    """CT3 (contested): a Bombe goes off after the whole deal (a Désamorçage dealt later in the
    same hand defuses it) or, option deal_bomb = "on_receipt", as it is dealt (only a
    Désamorçage already in hand defuses it)."""
    found = 0
    for seed in range(400):
        after = Game(BOX, 4).new_state(seed)
        now = Game(BOX, 4, Rules(deal_bomb="on_receipt")).new_state(seed)
        if any(e[0] == "defuse" for e in after.events) and any(e[0] == "bomb" for e in now.events) \
                and not any(e[0] == "bomb" for e in after.events):
            found += 1
            assert sum(now.life) < sum(after.life)
    assert found > 0


def test_odd_count_warns_which_team_has_the_extra_player_ct1() -> None:
    from cardbase.playtest.games import simulate

    assert Game(BOX, 4).analytics([]) == {} and Game(BOX, 4).analytics_text({}) == []
    g = Game(BOX, 3)
    figures = g.analytics([])
    assert figures["odd_count"]["extra_team"] == "CT" and figures["odd_count"]["contested"]
    with i18n.use_language("fr"):
        line = g.analytics_text(figures)[0]
    assert "impair" in line and "CT1" in line and "odd_extra" in line
    report, _ = simulate("ctterror", DEFS, players=5, bots=["greedy"] * 5, games=20, seed=1,
                         options={"odd_extra": "Terror"})
    assert report.as_dict()["odd_count"]["extra_team"] == "Terror" and report.extra_lines


def test_coverage_counts_every_play_path() -> None:
    """Rule coverage: the fast greedy play-out and the checked step-by-step loop count alike."""
    from cardbase.games.ctterror.rulings import COVERAGE

    total: dict[str, list[int]] = {}
    for n in (2, 4, 5):
        g = Game(BOX, n)
        for seed in range(60):
            a = g.new_state(seed, log=False)
            a.play_greedy()
            b = g.new_state(seed, log=False)
            while not b.is_terminal():
                b.apply_action(greedy_action(b))
            assert a.coverage() == b.coverage()
            cov = a.coverage()
            assert cov["game:victory"][1] + cov["game:turn_limit"][1] == 1
            offensive = sum(cov[k][1] for k in cov if k.startswith("move:"))
            calls = sum(n for key, (_, n) in cov.items() if key == "move:renfort")
            # one offensive decision a turn (none when a Bombe kills the drawer), one more a call
            assert offensive <= a.turns + calls and offensive >= a.turns - 2
            for key, (occ, used) in cov.items():
                assert 0 <= used <= occ, key
                slot = total.setdefault(key, [0, 0])
                slot[0] += occ
                slot[1] += used
    assert set(total) == set(COVERAGE)
    assert total["move:character"][1] > 0 and total["bomb:defuse"][0] > 0


def test_every_ruling_of_the_doc_is_data() -> None:
    import re

    from cardbase.games.ctterror.rulings import RULINGS
    from cardbase.games.rulings import contested, parse_rules

    doc = (Path(__file__).resolve().parent.parent / "docs" / "rulings" / "ctterror.md").read_text()
    codes = sorted(set(re.findall(r"\*\*(CT\d+) —", doc)))
    assert codes == sorted(r.code for r in RULINGS)
    for r in RULINGS:
        if r.option:
            assert getattr(Rules(), r.option) == r.default, r.code
    assert {r.code for r in contested("ctterror")} >= {"CT1", "CT3"}
    assert parse_rules("ctterror", ["deal_bomb=on_receipt", "CT1=Terror"]) == {
        "deal_bomb": "on_receipt", "odd_extra": "Terror"}


def test_search_utility_adds_the_team_life_margin() -> None:
    """The search bots' utility: the team return plus 0.2 × the team's life margin over the life
    the game started with (docs/bots.md): a larger win is worth more than a narrow one."""
    s = setup(hands={0: ["AK 47"]}, life={1: 40, 3: 0, 2: 20})
    s.apply_action(play("AK 47", 1))
    s.apply_action(PASS)
    assert s.is_terminal() and s.returns() == [1.0, -1.0, 1.0, -1.0]
    u = s.utilities()
    assert u[0] == u[2] == pytest.approx(1 + 0.2 * 120 / 400)
    assert u[1] == u[3] == pytest.approx(-1 - 0.2 * 120 / 400)
    from cardbase.games.bots.base import utilities

    assert utilities(s) == u
