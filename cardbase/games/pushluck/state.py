"""15 en un tour, 1 to 6 players: the state of one game (OpenSpiel-shaped, like OVERKILL's).

Cards are small integers ``0 … n-1`` indexing ``Box.cards``. At the start of a turn every card is
shuffled face down in a row (``down``); the player flips the card at a position of the row (the
order is unknown to everyone, PL1), or stops; after a full pass the player reshuffles and goes on
or stops (PL4).

Actions (integers): ``STOP``, ``RESHUFFLE`` and ``FLIP + i`` to flip the face-down card at
position ``i``. Chance is sampled: the state owns a seeded ``random.Random`` and every shuffle
comes from it, so ``seed`` replays a game exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardbase.errors import CardbaseError
from cardbase.games import frame
from cardbase.games.frame import IllegalActionError, replay  # noqa: F401 - one for every game
from cardbase.i18n import tr

from .material import Box
from .rules import ADD, LOSE, MUL, PROTECTION, Rules

STOP, RESHUFFLE, FLIP = 0, 1, 2
TERMINAL = -1

# Rule coverage (``State.coverage``): each key's [occasions, used] live in one flat list of ints
# (slot 2 i: occasions of COV_KEYS[i], slot 2 i + 1: used), the cheapest to count in play-outs.
COV_KEYS = ("stop", "reshuffle", "multiplier", "protection", "stop_at_target", "finish_round",
            "tie", "end:target", "end:rounds", "end:round_limit")
_STOP_C, _RESH_C, _MUL_C, _PROT_C, _TIE_C = 0, 2, 4, 6, 12
_END_C = {"target": 14, "rounds": 16, "round_limit": 18}




@dataclass(slots=True, frozen=True)
class Observation:
    """What a player sees (everyone sees the same: the face-down order is unknown to all)."""

    player: int
    current_player: int
    round: int
    target: int
    points: int  # the turn's points so far
    shields: int  # Protections flipped and not yet spent
    face_down: int
    flipped: tuple[str, ...]  # names of the cards flipped in this pass, in order
    reshuffles: int  # reshuffles in this turn
    full_pass: bool  # every card is face up: reshuffle or stop
    round_scores: tuple[int | None, ...]  # each seat's turn score this round (None: not played)
    totals: tuple[int, ...]  # banked points (solo)
    terminal: bool


class Game:
    """A box of 15 en un tour, a number of players and the rules options."""

    min_players = 1
    max_players = 6

    def __init__(self, box: Box, rules: Rules | None = None, players: int = 2) -> None:
        self.box = box
        self.rules = rules or Rules()
        bad = self.rules.problems()
        if bad:
            raise CardbaseError(tr("pushluck.rules.bad", options=", ".join(bad)))
        if not self.min_players <= players <= self.max_players:
            raise CardbaseError(tr("pushluck.rules.bad_players", players=players))
        self.num_players = players
        self.target = self.rules.target
        self.kind = [c.kind for c in box.cards]
        self.figure = [c.figure for c in box.cards]
        self._solver: Any = None

    def new_state(self, seed: int | None = None, *, log: bool = True) -> State:
        return State(self, seed, log=log)

    def solver(self) -> Any:
        """The exact solver of this box and rules (built once, on demand)."""
        if self._solver is None:
            from .solver import Solver

            r = self.rules
            self._solver = Solver(self.box, target=r.target, tie=r.tie,
                                  stop_at_target=r.stop_at_target, finish_round=r.finish_round)
        return self._solver

    def analytics(self, records: Sequence[Any]) -> dict[str, Any]:
        """A solo batch's figures: the distribution of the game's total (PL8) — mean with its 95 %
        interval, quantiles, the 95 % range of the scores; ``seat_win_rates: False`` tells the
        report that "winning" means nothing alone. Several players: nothing of its own."""
        if self.num_players != 1 or not records:
            return {}
        import statistics

        xs = sorted(float(r.returns[0]) for r in records)
        n = len(xs)
        mean = statistics.fmean(xs)
        sd = statistics.pstdev(xs) if n > 1 else 0.0
        half = 1.96 * sd / n ** 0.5

        def q(f: float) -> float:  # the lower empirical quantile
            return xs[min(n - 1, max(0, int(f * n - 1e-9)))]

        return {"seat_win_rates": False,
                "solo": {"rounds": self.rules.solo_rounds, "games": n, "mean": mean,
                         # a total is never negative (PL8): the interval stops at 0 (heavy tails)
                         "mean_ci95": [max(0.0, mean - half), mean + half], "sd": sd,
                         "quantiles": {"min": xs[0], "q10": q(0.10), "q25": q(0.25), "median": q(0.5),
                                       "q75": q(0.75), "q90": q(0.90), "max": xs[-1]},
                         "range95": [q(0.025), q(0.975)],
                         "zero_share": sum(1 for x in xs if x == 0) / n}}

    def analytics_text(self, figures: dict[str, Any]) -> list[str]:
        solo = figures.get("solo")
        if not solo:
            return []

        def num(x: float) -> str:
            from cardbase.i18n import current_language

            text = f"{x:.2f}"
            return text.replace(".", ",") if current_language() == "fr" else text

        qs = solo["quantiles"]
        return [tr("pushluck.batch.solo_mean", rounds=solo["rounds"], mean=num(solo["mean"]),
                   lo=num(solo["mean_ci95"][0]), hi=num(solo["mean_ci95"][1])),
                tr("pushluck.batch.solo_quantiles", q10=num(qs["q10"]), q25=num(qs["q25"]),
                   median=num(qs["median"]), q75=num(qs["q75"]), q90=num(qs["q90"]),
                   lo=num(solo["range95"][0]), hi=num(solo["range95"][1]), max=num(qs["max"]),
                   zero=num(100 * solo["zero_share"]))]

    def make_bot(self, name: str, seed: int | None = None) -> Any:
        """This game's own bots (``optimal``); ``None`` for the generic ones."""
        return frame.own_bot(self, name, seed)


class State:
    """One game in progress. Mutable; :meth:`clone` is a cheap hand-written copy."""

    __slots__ = (
        "cov",
        "down",
        "ended_by",
        "events",
        "flipped",
        "flips",
        "full",
        "game",
        "history",
        "n",
        "player",
        "points",
        "reshuffles",
        "rng",
        "round",
        "round_scores",
        "rules",
        "seed",
        "shields",
        "totals",
        "turn_flips",
        "turns",
        "winners",
    )

    def __init__(self, game: Game, seed: int | None, *, log: bool = True) -> None:
        self.game = game
        self.rules = game.rules
        if seed is None:
            seed = random.randrange(2**63)
        self.seed = seed
        self.rng = random.Random(seed)
        self.n = game.num_players
        self.round = 0
        self.turns = 0  # turns played (one per seat and round)
        self.flips = 0  # cards flipped in the game
        self.totals = [0] * self.n  # banked points (PL8; solo)
        self.winners: list[int] = []
        self.history: list[int] = []
        self.events: list[tuple] | None = [] if log else None
        self.ended_by = ""
        self.cov = [0] * (2 * len(COV_KEYS))  # rule coverage (COV_KEYS)
        self._start_round()

    # ------------------------------------------------------------------ copying

    def clone(self, *, log: bool = False) -> State:
        s = State.__new__(State)
        s.game, s.rules, s.seed, s.n = self.game, self.rules, self.seed, self.n
        s.rng = random.Random()
        s.rng.setstate(self.rng.getstate())
        s.player, s.round, s.turns, s.flips = self.player, self.round, self.turns, self.flips
        s.points, s.shields, s.reshuffles = self.points, self.shields, self.reshuffles
        s.full, s.turn_flips = self.full, self.turn_flips
        s.down, s.flipped = self.down[:], self.flipped[:]
        s.round_scores, s.totals, s.winners = self.round_scores[:], self.totals[:], self.winners[:]
        s.history = self.history[:]
        s.events = self.events[:] if (log and self.events is not None) else None
        s.ended_by = self.ended_by
        s.cov = self.cov[:]
        return s

    # ------------------------------------------------------------------ the interface

    @property
    def num_players(self) -> int:
        return self.n

    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def legal_actions(self, player: int | None = None) -> list[int]:
        p = self.player
        if p == TERMINAL or (player is not None and player != p):
            return []
        if self.full:
            return [STOP, RESHUFFLE]  # PL4
        out = [FLIP + i for i in range(len(self.down))]
        if self.turn_flips:  # PL5: a turn starts with a flip
            out.insert(0, STOP)
        return out

    def apply_action(self, action: int) -> None:
        p = self.player
        if p == TERMINAL:
            raise IllegalActionError(tr("pushluck.illegal.over"))
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(tr("pushluck.illegal.action", player=p + 1,
                                        action=self.action_to_string(action),
                                        legal=", ".join(self.action_to_string(a) for a in legal)))
        self.history.append(action)
        self._count_decision(action)
        if action == STOP:
            self._log("stop", p, self.points)
            self._end_turn(self.points)
        elif action == RESHUFFLE:
            self._reshuffle()
        else:
            self._flip(action - FLIP)

    # ------------------------------------------------------------------ a turn

    def _start_round(self) -> None:
        self.round += 1
        self.round_scores: list[int | None] = [None] * self.n
        self._log("round", self.round)
        self._start_turn(0)  # PL9: seat 1 starts every round

    def _start_turn(self, p: int) -> None:
        self.player = p
        self.points = 0
        self.shields = 0
        self.reshuffles = 0
        self.turn_flips = 0
        self.full = False
        self.flipped: list[int] = []
        self.down = list(range(len(self.game.box)))
        self.rng.shuffle(self.down)  # PL5: every turn starts from the whole box, shuffled
        self._log("turn", p)

    def _reshuffle(self) -> None:
        self.reshuffles += 1
        self.shields = 0  # PL3: a Protection does not carry over a reshuffle
        self.full = False
        self.flipped = []
        self.down = list(range(len(self.game.box)))
        self.rng.shuffle(self.down)
        self._log("reshuffle", self.player, self.points)

    def _flip(self, i: int) -> None:
        k = self.down.pop(i)
        self.flipped.append(k)
        self.flips += 1
        self.turn_flips += 1
        kind, fig = self.game.kind[k], self.game.figure[k]
        before = self.points
        note = ""
        if kind == ADD:
            self.points += fig
        elif kind == MUL:
            c = self.cov  # PL2: a multiplier is used when it doubles something
            c[_MUL_C] += 1
            if self.points:
                c[_MUL_C + 1] += 1
            self.points *= fig  # PL2: the turn's points so far
        elif kind == PROTECTION:
            self.shields += 1  # PL3: each Protection stops one Perdre tout
        elif kind == LOSE:
            c = self.cov  # PL3: a Perdre tout met by a Protection
            c[_PROT_C] += 1
            if self.shields:
                c[_PROT_C + 1] += 1
            if self.shields:
                self.shields -= 1  # PL3: the Protection is spent on it
                note = "saved"
            else:
                self.points = 0
                self._log("flip", self.player, k, before, 0, "lost")
                self._end_turn(0, lost=True)
                return
        self._log("flip", self.player, k, before, self.points, note)
        if before < self.game.target <= self.points:
            auto = self.rules.stop_at_target
            self._cover("stop_at_target", auto)
            if auto:
                self._log("stop", self.player, self.points)  # PL6 (stop_at_target): it stops
                self._end_turn(self.points)
                return
        if not self.down:
            self.full = True

    def _end_turn(self, score: int, lost: bool = False) -> None:
        p = self.player
        self.turns += 1
        self.round_scores[p] = score
        self.totals[p] += score
        self._log("end_turn", p, score, lost)
        if score >= self.game.target and p + 1 < self.n:  # PL14: later seats remain
            self._cover("finish_round", not self.rules.finish_round)
            if not self.rules.finish_round:
                self.winners = [p]  # PL14 (finish_round = False): the game ends at once
                self._finish("target")
                return
        if p + 1 < self.n:
            self._start_turn(p + 1)
            return
        self._end_round()

    def _end_round(self) -> None:
        rules = self.rules
        if self.n == 1:  # PL8: solo, a fixed number of rounds; reaching 15 does not end it
            if self.round >= rules.solo_rounds:
                self._finish("rounds")
            else:
                self._start_round()
            return
        scores = [s or 0 for s in self.round_scores]
        reached = [p for p in range(self.n) if scores[p] >= rules.target]
        if reached:  # PL6: the round is finished, then the game ends
            best = max(scores[p] for p in reached)
            top = [p for p in reached if scores[p] == best]
            self.winners = top[:1] if rules.tie == "first" else top  # PL7
            self._finish("target")
        elif self.round >= rules.max_rounds:
            self._finish("round_limit")  # PL10
        else:
            self._start_round()

    def _finish(self, reason: str) -> None:
        c = self.cov
        if self.n > 1:  # the endings this game could have: 15 reached (PL6) or the net (PL10)
            c[14] += 1
            c[18] += 1
        else:  # solo: only its rounds end it (PL8); 15 is no ending there
            c[16] += 1
        c[_END_C[reason] + 1] += 1
        if reason == "target" and self.n > 1:  # PL7: the best score was shared
            scores = [s or 0 for s in self.round_scores]
            c[_TIE_C] += 1
            if scores.count(max(scores)) > 1:
                c[_TIE_C + 1] += 1
        self.player = TERMINAL
        self.ended_by = reason
        self.full = False
        self._log("end", reason, tuple(self.winners))

    # ------------------------------------------------------------------ results

    def scores(self) -> list[int]:
        """Solo: the banked total. Several players: each seat's turn score in the last round."""
        if self.n == 1:
            return self.totals[:]
        return [s or 0 for s in self.round_scores]

    def returns(self) -> list[float]:
        """Solo: the banked total. Else zero-sum: the winners share +1, the others share -1."""
        if self.player != TERMINAL:
            return [0.0] * self.n
        if self.n == 1:
            return [float(self.totals[0])]
        k = len(self.winners)
        if k == 0 or k == self.n:
            return [0.0] * self.n
        return [1.0 / k if p in self.winners else -1.0 / (self.n - k) for p in range(self.n)]

    def winner(self) -> int:
        return self.winners[0] if len(self.winners) == 1 else -1

    def best_before(self) -> int | None:
        """The best score of at least the target already made in this round (None: none yet)."""
        best = None
        for p in range(self.player if self.player >= 0 else self.n):
            s = self.round_scores[p]
            if s is not None and s >= self.rules.target and (best is None or s > best):
                best = s
        return best

    def remaining_counts(self) -> dict[tuple[str, int], int]:
        """The face-down cards by (kind, figure)."""
        out: dict[tuple[str, int], int] = {}
        for k in self.down:
            key = (self.game.kind[k], self.game.figure[k])
            out[key] = out.get(key, 0) + 1
        return out

    def greedy_action(self) -> int:
        """Go until the target, then stop (:mod:`.bots`, through the frame)."""
        return frame.greedy(self)

    def play_greedy(self) -> State:
        """Play to the end with the greedy rule for every seat, in place (the moves of
        :func:`.bots.greedy_action`, applied without the legality check: they are legal)."""
        target = self.rules.target
        history = self.history
        # rule coverage, counted here and added once (the decisions of _count_decision)
        stops = stop_occ = reshuffles = full = 0
        while self.player != TERMINAL:
            if self.full:
                full += 1
                if self.points < target:
                    reshuffles += 1
                    history.append(RESHUFFLE)
                    self._reshuffle()
                else:
                    history.append(STOP)
                    self._log("stop", self.player, self.points)
                    self._end_turn(self.points)
            elif self.turn_flips and self.points >= target:
                stop_occ += 1
                stops += 1
                history.append(STOP)
                self._log("stop", self.player, self.points)
                self._end_turn(self.points)
            else:
                if self.turn_flips:
                    stop_occ += 1
                history.append(FLIP)
                self._flip(0)
        c = self.cov
        c[_STOP_C] += stop_occ
        c[_STOP_C + 1] += stops
        c[_RESH_C] += full
        c[_RESH_C + 1] += reshuffles
        return self

    # ------------------------------------------------------------------ rule coverage

    def _cover(self, key: str, used: bool) -> None:
        i = 2 * COV_KEYS.index(key)
        self.cov[i] += 1
        if used:
            self.cov[i + 1] += 1

    def _count_decision(self, action: int) -> None:
        """A decision: stop in the middle of a pass (PL5), or reshuffle after a full pass (PL4)."""
        if self.full:
            self._cover("reshuffle", action == RESHUFFLE)
        elif self.turn_flips:
            self._cover("stop", action == STOP)

    def coverage(self) -> dict[str, list[int]]:
        """Rule coverage (``cardbase.playtest.coverage``): key -> [occasions, used]; the keys are
        named in :data:`.rulings.COVERAGE`."""
        c = self.cov
        return {k: [c[2 * i], c[2 * i + 1]] for i, k in enumerate(COV_KEYS) if c[2 * i]}

    def heuristic(self, player: int) -> float:
        return float(self.points if player == self.player else 0)

    # ------------------------------------------------------------------ information

    def observation(self, player: int) -> Observation:
        names = [c.name for c in self.game.box.cards]
        return Observation(
            player=player, current_player=self.player, round=self.round, target=self.rules.target,
            points=self.points, shields=self.shields, face_down=len(self.down),
            flipped=tuple(names[k] for k in self.flipped), reshuffles=self.reshuffles,
            full_pass=self.full, round_scores=tuple(self.round_scores), totals=tuple(self.totals),
            terminal=self.player == TERMINAL)

    def information_key(self, player: int) -> tuple:
        o = self.observation(player)
        return (o.current_player, o.round, o.points, o.shields, tuple(sorted(self.flipped)),
                o.full_pass, o.round_scores, o.totals, o.reshuffles)

    def resample(self, player: int, rng: random.Random) -> State:
        """A clone whose face-down row is shuffled again (nobody knows its order)."""
        s = self.clone()
        rng.shuffle(s.down)
        return s

    # ------------------------------------------------------------------ text

    def action_to_string(self, action: int) -> str:
        if action == STOP:
            return tr("pushluck.action.stop")
        if action == RESHUFFLE:
            return tr("pushluck.action.reshuffle")
        return tr("pushluck.action.flip", position=action - FLIP + 1)

    def event_to_string(self, event: tuple) -> str:
        """One line of the turn log, in the current language."""
        kind = event[0]
        names = [c.name for c in self.game.box.cards]
        if kind == "round":
            return tr("pushluck.log.round", round=event[1])
        if kind == "turn":
            return tr("pushluck.log.turn", player=event[1] + 1)
        if kind == "flip":
            _, p, k, before, after, note = event
            key = {"saved": "pushluck.log.saved", "lost": "pushluck.log.lost"}.get(note, "pushluck.log.flip")
            return tr(key, player=p + 1, card=names[k], before=before, points=after)
        if kind == "reshuffle":
            return tr("pushluck.log.reshuffle", player=event[1] + 1, points=event[2])
        if kind == "stop":
            return tr("pushluck.log.stop", player=event[1] + 1, points=event[2])
        if kind == "end_turn":
            return tr("pushluck.log.end_turn", player=event[1] + 1, points=event[2])
        if kind == "end":
            if not event[2]:
                return tr("pushluck.log.end_none", reason=event[1])
            return tr("pushluck.log.end", players=", ".join(str(p + 1) for p in event[2]))
        return str(event)

    def log_lines(self) -> list[str]:
        return [self.event_to_string(e) for e in (self.events or [])]

    def _log(self, *event: Any) -> None:
        if self.events is not None:
            self.events.append(event)

    def __str__(self) -> str:
        return tr("pushluck.text.state", round=self.round, player=self.player + 1,
                  points=self.points, shields=self.shields, down=len(self.down))
