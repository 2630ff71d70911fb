"""OVERKILL's greedy heuristic: it sees only what its player sees.

It estimates the round from its own lines, the opponent's face-up cards and the average of the
cards it has not seen, to the half point (for the opponent's face-down cards), then plays, in this order: a Helper
(information is free), a repair of its own overkill, the atout that most improves its estimate,
a Negociater when the estimate is clearly for or against it, and finally draw or stand by the
expected estimate after one more card, among the cards its Helpers leave possible (Snake eye's
colour, Overseer's three values, Spy's yes or no; Retracer tells it nothing it does not know).
"""

from __future__ import annotations

from math import tanh

from .rules import (
    BET,
    BLACK,
    GIFTER,
    HELPERS,
    INITIAL_OBJECTIVE,
    OBJECTIVE,
    OVERSEER,
    PATCHER,
    RED,
    REMOVER,
    REWINDER,
    SAVER,
    SNAKE_EYE,
    SPY,
    SWITCHER,
    YOINKER,
)
from .state import DRAW, PASS, PLAY, State

MARGIN = 0.15  # how much better an atout must make the estimate to be worth playing


class _View:
    """The greedy player's picture of the round (no hidden card is read)."""

    __slots__ = ("colour", "mine", "mode", "obj", "opp_down", "opp_up", "p", "pool", "value")

    def __init__(self, s: State, p: int) -> None:
        game = s.game
        value, colour = game.value, game.colour
        self.p, self.value, self.colour, self.mode = p, value, colour, s.rules.points
        self.obj = s.objective()
        q = 1 - p
        seen = set(s.removed)
        for line in s.lines[p]:
            seen.update(line)
        self.mine = [sum(value[k] for k in s.lines[p][c]) for c in (RED, BLACK)]
        up = [0, 0]
        down = [False, False]
        for c in (RED, BLACK):
            line = s.lines[q][c]
            start = 1 if s._face_down(q, c) else 0
            down[c] = start == 1
            for k in line[start:]:
                up[c] += value[k]
                seen.add(k)
        self.pool = [k for k in range(game.n_numbers) if k not in seen]
        self.opp_up = up
        avg = [0.0, 0.0]
        for c in (RED, BLACK):
            vals = [value[k] for k in self.pool if colour[k] == c]
            # to the half point: the estimate does not need more, and the fast path memoises on it
            avg[c] = round(2 * sum(vals) / len(vals)) / 2 if (vals and down[c]) else 0.0
        self.opp_down = avg

    def estimate(self, mine=None, opp=None, obj=None) -> float:
        """-1 … +1: how sure the player is to win the round as things stand."""
        obj = self.obj if obj is None else obj
        mine = self.mine if mine is None else mine
        opp = [self.opp_up[c] + self.opp_down[c] for c in (RED, BLACK)] if opp is None else opp
        my_ok = (mine[0] > obj) + (mine[1] > obj)
        op_ok = (opp[0] > obj) + (opp[1] > obj)
        if my_ok != op_ok:
            return 1.0 if my_ok < op_ok else -1.0
        return tanh((self._points(mine, obj) - self._points(opp, obj)) / 4.0)

    def _points(self, sums, obj) -> float:
        if self.mode == "all":
            return sums[0] + sums[1]
        under = [x for x in sums if x <= obj]
        if self.mode == "best_line":
            return max(under, default=0)
        return sum(under)

    def candidates(self, info: dict) -> list[int]:
        value, colour = self.value, self.colour
        out = self.pool
        if SNAKE_EYE in info:
            out = [k for k in out if colour[k] == info[SNAKE_EYE]]
        if OVERSEER in info:
            out = [k for k in out if value[k] in info[OVERSEER]]
        if SPY in info:  # is the next card's value among the player's cards (when asked)?
            mine = info["_spy_values"]
            out = [k for k in out if (value[k] in mine) == info[SPY]]
        return out or self.pool

    def after_draw(self, cards: list[int], *, for_opponent: bool = False) -> float:
        if not cards:
            return self.estimate()
        total = 0.0
        value, colour = self.value, self.colour
        for k in cards:
            if for_opponent:
                opp = [self.opp_up[c] + self.opp_down[c] for c in (RED, BLACK)]
                opp[colour[k]] += value[k]
                total += self.estimate(opp=opp)
            else:
                mine = self.mine[:]
                mine[colour[k]] += value[k]
                total += self.estimate(mine=mine)
        return total / len(cards)


def greedy_action(s: State) -> int:
    """The greedy choice of the player to act."""
    p = s.player
    q = 1 - p
    game = s.game
    atouts = game.atouts
    v = _View(s, p)
    now = v.estimate()
    hand = sorted(set(s.hands[p]))
    timer = s.timers[p]
    best, best_gain = -1, MARGIN
    for k in hand:
        a = atouts[k]
        e = a.effect
        base = PLAY + 8 * k
        if a.cls == HELPERS:
            if timer > 3:
                return base
            continue
        if e == OBJECTIVE:
            gain = v.estimate(obj=a.figure) - now
            if gain > best_gain:
                best, best_gain = base, gain
        elif e in (PATCHER, SAVER, SWITCHER, YOINKER, REWINDER):
            for c in (RED, BLACK):
                act = base + c
                if act not in s._atout_actions(p, k):
                    continue
                gain = _line_change(s, v, e, p, q, c) - now
                if gain > best_gain:
                    best, best_gain = act, gain
        elif e == GIFTER and s.pile:
            gain = v.after_draw(v.pool, for_opponent=True) - now
            if gain > best_gain:
                best, best_gain = base, gain
        elif e == REMOVER:
            for i, target in enumerate(s.active[q]):
                t = atouts[target]
                if t.effect == OBJECTIVE and s.objectives and s.objectives[-1][0] == target:
                    prev = s.objectives[-2][1] if len(s.objectives) > 1 else INITIAL_OBJECTIVE
                    gain = v.estimate(obj=prev) - now
                elif t.effect == BET:
                    gain = -t.figure * now / max(s.stake(), 1)
                else:
                    gain = 0.05 if t.cls == HELPERS else 0.0
                if gain > best_gain:
                    best, best_gain = base + i, gain
    if best >= 0:
        return best
    for k in hand:
        a = atouts[k]
        if a.effect == BET and ((a.figure > 0 and now > 0.3) or (a.figure < 0 and now < -0.3)):
            return PLAY + 8 * k
    # draw or stand
    if not s.pile or timer <= 1:
        return PASS
    if s.passes == 1 and now > 0:
        return PASS  # the opponent stood and the player is ahead: the round ends in their favour
    draw = v.after_draw(v.candidates(s.info[p]))
    need = -0.1 if now <= 0 else 0.05
    return DRAW if draw > now + need else PASS


def _line_change(s: State, v: _View, effect: str, p: int, q: int, c: int) -> float:
    value = v.value
    if effect in (PATCHER, SAVER, SWITCHER):
        mine = v.mine[:]
        line = s.lines[p][c]
        if effect == PATCHER:
            mine[c] -= value[line[-1]]
        elif effect == SAVER:  # OK8: the dealt cards it keeps
            mine[c] = sum(value[k] for k in line[: min(s.rules.reset_keeps, s.dealt[p][c])])
        else:
            theirs = s.lines[q][c][-1]
            mine[c] += value[theirs] - value[line[-1]]
            opp = [v.opp_up[x] + v.opp_down[x] for x in (RED, BLACK)]
            opp[c] += value[line[-1]] - value[theirs]
            return v.estimate(mine=mine, opp=opp)
        return v.estimate(mine=mine)
    opp = [v.opp_up[x] + v.opp_down[x] for x in (RED, BLACK)]
    line = s.lines[q][c]
    if effect == YOINKER:
        opp[c] -= value[line[-1]]
    else:  # REWINDER
        keep = min(s.rules.reset_keeps, s.dealt[q][c])
        kept = line[:keep]
        opp[c] = (v.opp_down[c] if s._face_down(q, c) and keep else 0) + sum(
            value[k] for k in kept[1 if s._face_down(q, c) else 0:])
    return v.estimate(opp=opp)


class GreedyBot:
    """OVERKILL's greedy heuristic as a bot."""

    name = "greedy"

    def step(self, state: State) -> int:
        return greedy_action(state)
