"""Single-observer information-set MCTS (after Cowling, Powley & Whitehouse's SO-ISMCTS).

Each iteration deals a determinization of what the searching player cannot see, descends the
tree choosing among the actions legal in that determinization by UCB1 with availability counts,
expands one node, plays out with the greedy policy and backs up the utility of the player who
made each move. Any number of players and teams: each move is credited with the utility of the
seat that made it (in a team game, its team's). A state with a search horizon is searched and
played out to it only, and valued there.

Three choices make it stronger than plain SO-ISMCTS in a shallow card game (measured in
docs/bots.md):

* **Greedy first.** A node's first expansion is the greedy action, then the others at random:
  the first visit of every line is the greedy line, as in the Monte Carlo bot's play-outs,
  instead of a random move that misjudges both players.
* **Nodes are information sets of the searcher.** Below a move, the node for the searcher's next
  decision is keyed by the searcher's own hand as well (``state.information_key``) — after a draw
  the searcher knows which card came, so decisions after different draws are not pooled.
  Opponent decisions are keyed by the move sequence only (the searcher cannot see their hand).
* **Common determinizations at the root.** Iteration *i* uses determinization *i mod W* from a
  fixed set of W deals, so root actions are compared on the same hidden cards (like the Monte
  Carlo bot's common random numbers) while the tree still searches deeper lines.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from cardbase.games.frame import greedy_of

from .base import horizon_of, out_of_time, playout_utilities


class _Edge:
    """An action from a node, with the statistics UCB reads and the nodes below it."""

    __slots__ = ("avail", "below", "player", "total", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # who makes this move
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.below: dict[Any, dict[int, _Edge]] = {}  # next node (its edges) by information key


class ISMCTSBot:
    """Information-set MCTS with greedy play-outs.

    ``iterations``: play-outs per decision (the default keeps a decision under 100 ms on the
    starter decks); ``max_ms``: optional time limit per decision (the search then depends on the
    machine's speed, so it is off by default); ``c``: UCB1 exploration constant below the root
    (utilities are about ±1); ``widen``: visits per extra action tried at a node below the root;
    ``opponent``: "greedy" (modelled by the greedy policy) or "search" (searched like the
    searcher's own moves, by UCB on the move sequence).
    """

    name = "ismcts"

    def __init__(self, iterations: int = 300, c: float = 0.5, seed: int | None = None, *,
                 max_ms: float | None = None, widen: int = 8, opponent: str = "greedy") -> None:
        self.iterations = iterations
        self.c = c
        self.max_ms = max_ms
        self.widen = widen
        self.opponent = opponent
        self.rng = random.Random(seed)

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        horizon = horizon_of(state)
        rng = self.rng
        deadline = None if self.max_ms is None else time.perf_counter() + self.max_ms / 1000
        trees: dict[int, _Edge] = {a: _Edge(me) for a in legal}
        alive = list(legal)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        left = self.iterations
        first_deal = True  # until every move has been tried once, on the first deal
        for r in range(rounds):
            # sequential halving: every surviving action is played on the same new deals
            per = max(1, left // (len(alive) * (rounds - r)))
            for _ in range(per):
                if deadline is not None and left < self.iterations and time.perf_counter() > deadline:
                    break
                world = state.resample(me, rng)
                for n, a in enumerate(alive):
                    if first_deal and n and deadline is not None and time.perf_counter() > deadline:
                        # the first deal not done for every move within the time: greedy's move
                        return out_of_time(state, alive[:n], [trees[x].total / max(trees[x].visits, 1)
                                                              for x in alive[:n]])
                    s = world.clone()
                    s.apply_action(a)
                    self._iterate(s, trees[a], me, horizon)
                    left -= 1
                first_deal = False
            alive.sort(key=lambda a: -trees[a].total / max(trees[a].visits, 1))  # stable: legal order on ties
            alive = alive[: max(1, (len(alive) + 1) // 2)]
            if len(alive) == 1:
                break
        return alive[0]

    def _iterate(self, s: Any, first: _Edge, me: int, horizon: Any = None) -> None:
        """One iteration below the root action ``first`` (already applied to ``s``)."""
        rng = self.rng
        c = self.c
        widen = self.widen
        # the game's greedy, from the frame (else the state's own method)
        greedy = greedy_of(s)
        if greedy is None and hasattr(s, "greedy_action"):
            greedy = type(s).greedy_action
        model_opp = self.opponent == "greedy" and greedy is not None
        has_greedy = greedy is not None
        info = getattr(s, "information_key", None)
        reached = (lambda: False) if horizon is None else (
            lambda: s.horizon_utilities(horizon) is not None)
        path = [first]
        edge = first
        while True:
            while model_opp and not s.is_terminal() and s.current_player() != me and not reached():
                s.apply_action(greedy(s))  # the others are modelled, not searched
            if s.is_terminal() or reached():
                break
            mover = s.current_player()
            # the node below ``edge``: the searcher's information set (it sees its own draws),
            # or the move sequence alone for a searched opponent
            key = info(me) if (mover == me and info is not None) else None
            edges = edge.below.get(key)
            if edges is None:
                edges = edge.below[key] = {}
            acts = s.legal_actions()
            untried = []
            tried = seen = 0
            for a in acts:
                e = edges.get(a)
                if e is None:
                    untried.append(a)
                else:
                    e.avail += 1
                    tried += 1
                    seen += e.visits
            # progressive widening: one more action every ``widen`` visits, the greedy one first
            if untried and (not tried or tried * widen <= seen):
                a = None
                if has_greedy:
                    g = greedy(s)
                    if g in untried:
                        a = g
                if a is None:
                    a = untried[rng.randrange(len(untried))]
                e = edges[a] = _Edge(mover)
                e.avail = 1
                s.apply_action(a)
                path.append(e)
                break
            best, best_v, choice = None, -math.inf, None
            for a in acts:
                e = edges.get(a)
                if e is None:
                    continue
                v = e.total / e.visits + c * math.sqrt(math.log(e.avail) / e.visits)
                if v > best_v:
                    best, best_v, choice = e, v, a
            s.apply_action(choice)
            path.append(best)
            edge = best
        utils = playout_utilities(s, horizon)
        for e in path:
            e.visits += 1
            e.total += utils[e.player]
