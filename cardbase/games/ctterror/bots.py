"""CT vs Terror's greedy heuristic: it sees only what its player sees (its own hand, the table).

Offensive move, in this order: a Tir à la tête on the living enemy with the most life; a Grenade
flash when it would blind more enemies than teammates and no strong weapon is at hand; a Grenade à
gaz when low on life; a Renfort to a teammate with cards when the player has no weapon; else the
strongest weapon (the character's own if none) at the enemy it can kill, else the weakest one.
Answer: the defence that keeps the most life for its team, counting what each card is worth
keeping and a large penalty for dying; a Masque whenever it can.
"""

from __future__ import annotations

from .rules import ARMOUR, DODGE, FLASH, FRIENDLY, GAS, HEADSHOT, MASK, RENFORT, RICOCHET, WEAPON
from .state import (
    CALLED,
    CHARACTER,
    DEFEND,
    EXPLOSIVE,
    HEADSHOT_MODE,
    MASKING,
    PASS,
    TERMINAL,
    TURN,
    State,
)

DEATH = 500.0  # what dying costs, in life points
KEEP = {ARMOUR: 0.5, DODGE: 30.0, FRIENDLY: 15.0, RICOCHET: 10.0, RENFORT: 20.0, WEAPON: 0.5}


def play_greedy(state: State) -> State:
    """Play to the end with the greedy heuristic for every player, in place (the moves are those
    of :func:`greedy_action`, applied without the legality check: they are legal)."""
    while state.player != TERMINAL:
        state._apply(greedy_action(state))
    return state


def greedy_action(s: State) -> int:
    """The greedy choice of the player to act."""
    phase = s.phase
    if phase == TURN or phase == CALLED:
        return _offensive(s, s.player)
    if phase == DEFEND:
        return _defence(s, s.player)
    if phase == MASKING:
        hand = s.hands[s.player]
        for k in s.game.of[MASK]:
            if hand[k]:
                return (2 + k) * 16
        return PASS
    return PASS


def _offensive(s: State, p: int) -> int:
    game = s.game
    hand = s.hands[p]
    life = s.life
    targets = s.targets(p)
    if not targets:
        for k in game.of[FLASH]:
            if hand[k]:
                return (2 + k) * 16 + p
        return PASS
    for k in game.of[HEADSHOT]:
        if hand[k]:
            t = max(targets, key=lambda q: (life[q], -q))
            return (2 + k) * 16 + t
    best_k, best = -1, game.box.characters[s.character[p]].damage
    for k in game.attack_weapons:
        if hand[k]:
            f = game.figure[k]
            if f > best or (f == best and best_k >= 0 and not game.kinds[k].counter):
                best_k, best = k, f
    if best <= 40:
        for k in game.of[FLASH]:
            if hand[k]:
                alive, blinded = s.alive, s.blinded
                foes = sum(1 for q in game.enemies[p] if alive[q] and not blinded(q))
                mates = sum(1 for q in game.mates[p] if alive[q] and not blinded(q)) \
                    if s.rules.flash_teammates else 0
                if foes - mates >= 1 and foes >= 2:
                    return (2 + k) * 16 + p
        if life[p] <= 40:
            for k in game.of[GAS]:
                if hand[k]:
                    return (2 + k) * 16 + p
    if best_k < 0 and s.phase == TURN:
        for k in game.of[RENFORT]:
            if hand[k]:
                mates = [m for m in s.callable_mates(p) if s.hand_n[m] >= 3]
                if mates:
                    return (2 + k) * 16 + max(mates, key=lambda q: (s.hand_n[q], -q))
    hand_n = s.hand_n
    t = min(targets, key=lambda q: (life[q] > best, life[q], hand_n[q], q))
    return (2 + best_k) * 16 + t if best_k >= 0 else CHARACTER + t


def _defence(s: State, p: int) -> int:
    game = s.game
    a, t, dmg, _kind, mode, _helper = s.att
    life = s.life
    lt = life[t]
    hand = s.hands[p]
    if mode == HEADSHOT_MODE:
        dmg = lt
    best_a, best_v = PASS, None
    for act in s.legal_actions():
        dealt = 0.0
        kill = 0.0
        cost = 0.0
        if act == PASS:
            taken = dmg
        elif act == game.BOTH:
            taken = max(0, dmg - sum(game.figure[k] for k in game.of[ARMOUR] if hand[k]))
            cost = sum(game.figure[k] * KEEP[ARMOUR] for k in game.of[ARMOUR] if hand[k])
        else:
            k, arg = (act >> 4) - 2, act & 15
            eff = game.effect[k]
            cost = KEEP.get(eff, 10.0) * (game.figure[k] if eff in (ARMOUR, WEAPON) else 1.0)
            if eff == ARMOUR:
                taken = max(0, dmg - game.figure[k])
            elif eff == DODGE:
                taken = dmg // 2 if mode == EXPLOSIVE else 0
            elif eff == WEAPON:
                c = game.figure[k]
                taken = max(0, dmg - c)
                dealt = max(0, c - dmg)
                if dealt and dealt >= life[a]:
                    kill = DEATH
            elif eff == FRIENDLY:
                taken = 0
                dealt = game.figure[k] if s.rules.friendly_fire == "card" else dmg
                if dealt >= life[arg]:
                    kill = DEATH
            elif eff == RICOCHET:
                alive = [q for q in range(s.n) if s.alive[q]]
                mine = sum(1 for q in alive if game.team[q] == game.team[t])
                taken = game.figure[k] * mine / len(alive)
                dealt = game.figure[k] * (len(alive) - mine) / len(alive)
            else:  # RENFORT: the teammate's hand is unknown; half the damage is a guess
                taken = dmg / 2
        v = -taken - (DEATH if taken >= lt else 0.0) + 0.7 * dealt + kill - cost
        if best_v is None or v > best_v:
            best_a, best_v = act, v
    return best_a


class GreedyBot:
    """CT vs Terror's greedy heuristic as a bot."""

    name = "greedy"

    def step(self, state: State) -> int:
        return greedy_action(state)
