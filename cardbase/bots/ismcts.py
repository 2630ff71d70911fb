"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse's SO-ISMCTS).

Each iteration deals a determinization of what the searching player cannot see, descends the
tree choosing among the actions legal in that determinization by UCB1 with availability counts,
expands one node, plays out with the greedy policy and backs up the utility of the player who
made each move.
"""

from __future__ import annotations

import math
import random
from typing import Any

from .base import utility
from .greedy import greedy_rollout


class _Node:
    __slots__ = ("avail", "children", "player", "total", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # who made the move leading here
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


class ISMCTSBot:
    """SO-ISMCTS with greedy play-outs. ``iterations`` is the default budget per decision."""

    name = "ismcts"

    def __init__(self, iterations: int = 300, c: float = 0.7, seed: int | None = None) -> None:
        self.iterations = iterations
        self.c = c
        self.rng = random.Random(seed)

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        root = _Node(-1)
        rng = self.rng
        c = self.c
        for _ in range(self.iterations):
            s = state.resample(me, rng)
            node = root
            path = [root]
            while not s.is_terminal():
                acts = s.legal_actions()
                untried = [a for a in acts if a not in node.children]
                mover = s.current_player()
                if untried:
                    a = untried[rng.randrange(len(untried))]
                    child = _Node(mover)
                    node.children[a] = child
                    for b in acts:
                        if b in node.children:
                            node.children[b].avail += 1
                    s.apply_action(a)
                    node = child
                    path.append(node)
                    break
                best, best_v = None, -math.inf
                for b in acts:
                    ch = node.children[b]
                    ch.avail += 1
                    v = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if v > best_v:
                        best, best_v = b, v
                s.apply_action(best)
                node = node.children[best]
                path.append(node)
            greedy_rollout(s)
            n = s.num_players
            utils = [utility(s, q) for q in range(n)]
            for nd in path:
                nd.visits += 1
                if nd.player >= 0:
                    nd.total += utils[nd.player]
        # the most visited action among those legal now
        best, best_n = legal[0], -1
        for a in legal:
            ch = root.children.get(a)
            if ch is not None and ch.visits > best_n:
                best, best_n = a, ch.visits
        return best
