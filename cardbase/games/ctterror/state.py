"""CT vs Terror, 2 to 8 players in two teams: the state of one game (OpenSpiel-shaped).

Cards of the draw pile are *kinds* (small integers indexing ``box.kinds``): two copies of a kind are
the same card, so hands are counts per kind and the pile and discard pile are lists of kinds.
Characters and life cards stay in front of their players (or in the box when fewer than eight play).

Actions are integers ``move * 16 + arg``: ``PASS`` (0: no offensive move, no defence, no Masque),
``CHARACTER + target`` (move 1: the character's own weapon), ``(2 + kind) * 16 + arg`` to play a card
of that kind (``arg``: the target of an attack, the enemy of a Tir ami, the teammate called by a
Renfort, the attacker for a counter-attack, the player's own seat for a Grenade à gaz / flash), and
``BOTH`` to play a Casque and a Gilet together. Whoever must decide is the current player: the player
whose turn it is, the teammate called by a Renfort, the defender (or the teammate who defends for
them), each player answering a Grenade à gaz / flash with a Masque — one after the other (CT20).

Chance is sampled: the state owns a seeded ``random.Random`` (shuffles, the deal, the Ricochet's
hand game), so a seed replays a game exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardbase.errors import CardbaseError, Problem
from cardbase.games import frame
from cardbase.games.frame import IllegalActionError, replay  # noqa: F401 - one for every game
from cardbase.i18n import tr

from .material import Box
from .rules import (
    ARMOUR,
    BOMB,
    CT,
    DEFUSE,
    DODGE,
    DRAW,
    FLASH,
    FRIENDLY,
    GAS,
    HAND,
    HEADSHOT,
    MASK,
    RENFORT,
    RICOCHET,
    TEAMS,
    TERROR,
    WEAPON,
    Rules,
)

PASS = 0
CHARACTER = 16
TERMINAL = -1
HIDDEN = -1  # a face-down card of the discard pile, as the observation shows it (CT16)

# Rule coverage (cardbase.playtest.coverage): each kind of decision, the Bombe's defuse, the endings.
COVERAGE_KEYS = (
    "move:none", "move:character", "move:weapon", "move:grenade", "move:headshot", "move:gas",
    "move:flash", "move:renfort", "defend:none", "defend:armour", "defend:both", "defend:dodge",
    "defend:counter", "defend:friendly", "defend:ricochet", "defend:renfort", "mask",
    "bomb:defuse", "game:victory", "game:turn_limit")
_K = {key: 2 * i for i, key in enumerate(COVERAGE_KEYS)}  # offsets in State.cov (occasions, used)
# phases: who is deciding what
TURN, CALLED, DEFEND, MASKING, OVER = "turn", "called", "defend", "mask", "over"
# attack modes
NORMAL, EXPLOSIVE, HEADSHOT_MODE = 0, 1, 2




@dataclass(slots=True, frozen=True)
class Observation:
    """What one player knows: their own hand, the table, the discard pile, the hand sizes."""

    player: int
    current_player: int
    phase: str
    turn_player: int
    round: int
    turns: int
    teams: tuple[str, ...]
    characters: tuple[str, ...]
    life: tuple[int, ...]
    alive: tuple[bool, ...]
    hand: tuple[int, ...]  # your cards: count per kind
    hand_sizes: tuple[int, ...]
    pile_size: int
    discard: tuple[int, ...]  # kinds, oldest first (CT19); HIDDEN: a dead player's card, face down (CT16)
    table: tuple[tuple[int, str, int], ...]  # (owner, gas/flash, affected seats as a bit mask)
    attack: tuple[int, ...] | None  # (attacker, target, damage, kind or -1, mode, helper or -1)
    caller: int
    asking: tuple[int, ...]  # players still to answer a Grenade à gaz / flash
    terminal: bool
    winner: str | None


class Game:
    """A CT vs Terror box, a player count and the rules options; states are dealt from it."""

    min_players = 2
    max_players = 8

    def __init__(self, box: Box, players: int = 4, rules: Rules | None = None) -> None:
        self.box = box
        self.rules = rules or Rules()
        bad = self.rules.problems()
        if bad:
            raise CardbaseError(tr("ctterror.rules.bad", options=", ".join(bad)))
        if not isinstance(players, int) or not 2 <= players <= 8:
            raise CardbaseError(tr("ctterror.rules.players", players=players))
        self.num_players = n = players
        # CT1: Terror in seat 1, the teams alternate; an odd count seats two of a team together
        seats = [TERROR if i % 2 == 0 else CT for i in range(n)]
        if n % 2 and self.rules.odd_extra == "CT":
            seats[-1] = CT
        self.team = tuple(seats)
        self.mates = tuple(tuple(q for q in range(n) if seats[q] == seats[p] and q != p) for p in range(n))
        self.enemies = tuple(tuple(q for q in range(n) if seats[q] != seats[p]) for p in range(n))
        self.by_team = {t: [i for i, ch in enumerate(box.characters) if ch.team == t] for t in (TERROR, CT)}
        problems = []
        for t in (TERROR, CT):
            need = seats.count(t)
            if len(self.by_team[t]) < need:
                problems.append(Problem("ctterror-characters", tr(
                    "ctterror.material.few_characters", team=tr(f"ctterror.team.{TEAMS[t]}"), count=len(self.by_team[t]),
                    need=need), tr("ctterror.material.few_characters_fix"), ""))
        if box.life_cards < n:
            problems.append(Problem("ctterror-life", tr("ctterror.material.few_life", count=box.life_cards,
                                                        need=n), tr("ctterror.material.few_life_fix"), ""))
        if problems:
            from .material import MaterialError

            raise MaterialError(tr("ctterror.material.title"), problems)
        kinds = box.kinds
        self.kinds = kinds
        self.K = len(kinds)
        self.BOTH = (2 + self.K) * 16
        self.effect = [k.effect for k in kinds]
        self.figure = [k.figure for k in kinds]
        self.of: dict[str, list[int]] = {}
        for i, k in enumerate(kinds):
            self.of.setdefault(k.effect, []).append(i)
        for e in (BOMB, GAS, DEFUSE, DODGE, FRIENDLY, FLASH, HEADSHOT, RENFORT, RICOCHET, ARMOUR,
                  MASK, WEAPON):
            self.of.setdefault(e, [])
        self.counter_weapons = [i for i in self.of[WEAPON] if kinds[i].counter]
        self.attack_weapons = self.of[WEAPON]
        self.is_bomb = [k.effect == BOMB for k in kinds]
        self.deck = [i for i, k in enumerate(kinds) for _ in range(k.copies)]
        self.life = box.life
        self.cov_of = self._coverage_tables()

    def _coverage_tables(self) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
        """Per phase (offensive move, defence, Masque): each action's coverage offset."""
        move = {PASS: _K["move:none"]}
        defend = {PASS: _K["defend:none"], self.BOTH: _K["defend:both"]}
        mask: dict[int, int] = {}
        for t in range(16):
            move[CHARACTER + t] = _K["move:character"]
        by_move = {HEADSHOT: "move:headshot", GAS: "move:gas", FLASH: "move:flash",
                   RENFORT: "move:renfort"}
        by_defence = {ARMOUR: "defend:armour", DODGE: "defend:dodge", WEAPON: "defend:counter",
                      FRIENDLY: "defend:friendly", RICOCHET: "defend:ricochet",
                      RENFORT: "defend:renfort"}
        for k, kind in enumerate(self.kinds):
            eff = kind.effect
            for arg in range(16):
                a = (2 + k) * 16 + arg
                if eff == WEAPON:
                    move[a] = _K["move:weapon" if kind.counter else "move:grenade"]
                elif eff in by_move:
                    move[a] = _K[by_move[eff]]
                if eff in by_defence:
                    defend[a] = _K[by_defence[eff]]
                if eff == MASK:
                    mask[a] = _K["mask"]
        return move, defend, mask

    def analytics(self, records: Sequence[Any]) -> dict[str, Any]:
        """The batch report's CT vs Terror figures: with an odd count, ``odd_count`` says which team
        has the extra player (CT1, a contested ruling): that choice decides most games."""
        n = self.num_players
        if n % 2 == 0:
            return {}
        extra = TEAMS[CT] if self.rules.odd_extra == "CT" else TEAMS[TERROR]
        return {"odd_count": {"players": n, "extra_team": extra, "ruling": "CT1",
                              "option": "odd_extra", "contested": True}}

    def analytics_text(self, figures: dict[str, Any]) -> list[str]:
        odd = figures.get("odd_count")
        if not odd:
            return []
        return [tr("ctterror.analytics.odd_count", players=odd["players"], team=odd["extra_team"])]
    def new_state(self, seed: int | None = None, *, log: bool = True) -> State:
        return State(self, seed, log=log)

    def team_of(self, seat: int) -> str:
        return TEAMS[self.team[seat]]


class State:
    """One CT vs Terror game in progress. Mutable; :meth:`clone` is a cheap hand-written copy."""

    __slots__ = (
        "alive",
        "asking",
        "att",
        "caller",
        "character",
        "cov",
        "discard",
        "ended_by",
        "events",
        "game",
        "hand_n",
        "hands",
        "held",
        "history",
        "life",
        "n",
        "phase",
        "pile",
        "player",
        "rng",
        "round",
        "rules",
        "secret",
        "seed",
        "table",
        "turn_player",
        "turns",
        "winner_team",
    )

    def __init__(self, game: Game, seed: int | None, *, log: bool = True) -> None:
        self.game = game
        self.rules = game.rules
        if seed is None:
            seed = random.randrange(2**63)
        self.seed = seed
        self.rng = rng = random.Random(seed)
        n = self.n = game.num_players
        self.life = [game.life] * n
        self.alive = [True] * n
        self.hands = [[0] * game.K for _ in range(n)]
        self.hand_n = [0] * n
        self.discard: list[int] = []
        self.table: list[list[int]] = []  # [owner, kind, affected mask] of a Grenade à gaz / flash
        self.phase = TURN
        self.player = 0
        self.turn_player = 0
        self.att: list[int] | None = None
        self.caller = -1
        self.asking: list[int] = []
        self.history: list[int] = []
        self.events: list[tuple] | None = [] if log else None
        self.ended_by = ""
        self.winner_team = -1
        self.turns = 0
        self.round = 1
        self.held = [0] * n  # bit mask of the kinds each seat ever held (a card's impact)
        self.secret: list[int] = []  # positions of face-down cards in the discard pile (CT16)
        self.cov = [0] * (2 * len(COVERAGE_KEYS))  # rule coverage: occasions, used per key
        # characters: a random one of the seat's team each (CT1)
        chars = {t: rng.sample(game.by_team[t], len(game.by_team[t])) for t in (TERROR, CT)}
        self.character = [chars[game.team[p]].pop() for p in range(n)]
        pile = game.deck[:]
        rng.shuffle(pile)
        self.pile = pile
        # CT2: five cards each, one at a time from seat 1; CT3: the Bombes are resolved after the deal
        bombs: list[list[int]] = [[] for _ in range(n)]
        at_once = self.rules.deal_bomb == "on_receipt"
        self._log("deal", tuple(self.character))
        for _ in range(HAND):
            for p in range(n):
                if pile and self.alive[p] and self.phase != OVER:
                    self._receive(p, pile.pop(), bombs[p])
                    if at_once and bombs[p]:  # CT3, option: it goes off as it is dealt
                        self._bomb(p, bombs[p].pop(), deal=True)
        for p in range(n):
            for k in bombs[p]:
                self._bomb(p, k, deal=True)
        if self.phase != OVER:  # with a small life figure the deal's Bombes can end the game
            self._begin_turn(0)

    # ------------------------------------------------------------------ copying

    def clone(self, *, log: bool = False) -> State:
        s = State.__new__(State)
        s.game = self.game
        s.rules = self.rules
        s.seed = self.seed
        s.rng = random.Random()
        s.rng.setstate(self.rng.getstate())
        s.n = self.n
        s.life = self.life[:]
        s.alive = self.alive[:]
        s.hands = [h[:] for h in self.hands]
        s.hand_n = self.hand_n[:]
        s.pile = self.pile[:]
        s.discard = self.discard[:]
        s.table = [t[:] for t in self.table]
        s.phase = self.phase
        s.player = self.player
        s.turn_player = self.turn_player
        s.att = self.att[:] if self.att is not None else None
        s.caller = self.caller
        s.asking = self.asking[:]
        s.history = self.history[:]
        s.events = self.events[:] if (log and self.events is not None) else None
        s.ended_by = self.ended_by
        s.winner_team = self.winner_team
        s.turns = self.turns
        s.round = self.round
        s.held = self.held[:]
        s.character = self.character[:]
        s.secret = self.secret[:]
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

    def team_of(self, seat: int) -> str:
        """The team of ``seat``: "Terror" or "CT" (stable names, for reports)."""
        return TEAMS[self.game.team[seat]]

    @property
    def teams(self) -> tuple[str, ...]:
        return tuple(TEAMS[t] for t in self.game.team)

    def blinded(self, p: int) -> bool:
        """Blinded by a Grenade flash still on the table (CT14)."""
        bit = 1 << p
        eff = self.game.effect
        for _owner, k, mask in self.table:
            if mask & bit and eff[k] == FLASH:
                return True
        return False

    def gassed(self, attacker: int, target: int) -> bool:
        """May ``attacker`` not attack ``target`` because of ``target``'s Grenade à gaz (CT13)?"""
        bit = 1 << attacker
        eff = self.game.effect
        for owner, k, mask in self.table:
            if owner == target and mask & bit and eff[k] == GAS:
                return True
        return False

    def targets(self, a: int) -> list[int]:
        alive = self.alive
        if not self.table:
            return [t for t in self.game.enemies[a] if alive[t]]
        return [t for t in self.game.enemies[a] if alive[t] and not self.gassed(a, t)]

    def callable_mates(self, p: int) -> list[int]:
        """Teammates a Renfort may call: living and not blinded (CT10, CT11)."""
        return [m for m in self.game.mates[p] if self.alive[m] and not self.blinded(m)]

    def legal_actions(self, player: int | None = None) -> list[int]:
        p = self.player
        if p == TERMINAL or (player is not None and player != p):
            return []
        game = self.game
        hand = self.hands[p]
        phase = self.phase
        out = [PASS]
        if phase == TURN or phase == CALLED:
            targets = self.targets(p)
            out += [CHARACTER + t for t in targets]
            for k in game.attack_weapons:
                if hand[k]:
                    out += [(2 + k) * 16 + t for t in targets]
            for k in game.of[HEADSHOT]:
                if hand[k]:
                    out += [(2 + k) * 16 + t for t in targets]
            for k in game.of[GAS] + game.of[FLASH]:
                if hand[k]:
                    out.append((2 + k) * 16 + p)
            if phase == TURN:  # CT10: a called player cannot call another
                for k in game.of[RENFORT]:
                    if hand[k]:
                        out += [(2 + k) * 16 + m for m in self.callable_mates(p)]
        elif phase == DEFEND:  # CT6: one answer (or Casque and Gilet together)
            a, t, _dmg, _kind, mode, helper = self.att
            blind = self.blinded(p)
            if mode == HEADSHOT_MODE:  # CT15: only the Esquive
                if not blind:
                    out += [(2 + k) * 16 for k in game.of[DODGE] if hand[k]]
                return sorted(out)
            held = [k for k in game.of[ARMOUR] if hand[k]]
            out += [(2 + k) * 16 for k in held]
            if len(held) > 1:
                out.append(game.BOTH)
            if not blind:  # CT14: a blinded player defends with armour only
                out += [(2 + k) * 16 for k in game.of[DODGE] if hand[k]]
                if mode == NORMAL:
                    out += [(2 + k) * 16 + a for k in game.counter_weapons if hand[k]]
                    for k in game.of[FRIENDLY]:
                        if hand[k]:
                            out += [(2 + k) * 16 + e for e in game.mates[a] if self.alive[e]]
                    out += [(2 + k) * 16 for k in game.of[RICOCHET] if hand[k]]
                if helper < 0:  # CT11: no Renfort for the teammate who defends
                    for k in game.of[RENFORT]:
                        if hand[k]:
                            out += [(2 + k) * 16 + m for m in self.callable_mates(t)]
        elif phase == MASKING:  # only players not blinded before this Grenade are asked (CT14)
            out += [(2 + k) * 16 for k in game.of[MASK] if hand[k]]
        return sorted(out)

    def apply_action(self, action: int) -> None:
        if self.player == TERMINAL:
            raise IllegalActionError(tr("ctterror.illegal.over"))
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(tr("ctterror.illegal.action", player=self.player + 1,
                                        action=self.action_to_string(action),
                                        legal=", ".join(self.action_to_string(a)
                                                        for a in legal)))
        self._apply(action, legal)

    def _apply(self, action: int, legal: list[int] | None = None) -> None:
        """Apply a legal action (no check: the fast path of the greedy play-out)."""
        self._count(action, self.legal_actions() if legal is None else legal)
        self.history.append(action)
        phase = self.phase
        if phase == TURN or phase == CALLED:
            self._offensive(self.player, action)
        elif phase == DEFEND:
            self._defend(self.player, action)
        else:
            self._mask(self.player, action)

    def _count(self, action: int, legal: list[int]) -> None:
        """Rule coverage of one decision: each kind of move it allowed, and the one made."""
        phase = self.phase
        table = self.game.cov_of[0 if phase == TURN or phase == CALLED else 1 if phase == DEFEND else 2]
        cov = self.cov
        for off in {table[a] for a in legal if a in table}:
            cov[off] += 1
        off = table.get(action)
        if off is not None:
            cov[off + 1] += 1

    def coverage(self) -> dict[str, list[int]]:
        """Rule coverage (``cardbase.playtest.coverage``): per key, [occasions, used]: each kind of
        offensive move, defence and Masque (decisions where it was legal / made), each Bombe
        received (defused or not) and the game's ending."""
        cov = self.cov
        return {key: [cov[2 * i], cov[2 * i + 1]] for i, key in enumerate(COVERAGE_KEYS)}

    # ------------------------------------------------------------------ turns

    def _begin_turn(self, p: int) -> None:
        """Start ``p``'s turn, or the next possible one (blinded players skip theirs, CT14)."""
        n = self.n
        for _ in range(3 * n):
            if self.table:
                self._expire(p)
            if self.alive[p] and not self.blinded(p):
                if self.turns >= self.rules.max_turns:
                    self._finish(-1, "turn_limit")  # CT18
                    return
                self.turns += 1
                self.turn_player = p
                self.caller = -1
                self._log("turn", p)
                self._draw(p)
                if self.phase == OVER:
                    return
                if self.alive[p]:
                    self.phase = TURN
                    self.player = p
                    return
            elif self.alive[p]:
                self._log("blind_skip", p)
            p = (p + 1) % n
            if p == 0:
                self.round += 1  # CT21
        raise AssertionError("no player can play")  # pragma: no cover - both teams have a living player

    def _end_move(self) -> None:
        """The offensive move of the turn is over: the next seat's turn."""
        if self.phase == OVER:
            return
        self.att = None
        self.caller = -1
        p = (self.turn_player + 1) % self.n
        if p == 0:
            self.round += 1
        self._begin_turn(p)

    def _expire(self, p: int) -> None:
        """The Grenades à gaz / flash in front of ``p`` end when the turn comes back to p (CT13)."""
        keep = []
        for entry in self.table:
            if entry[0] == p:
                self.discard.append(entry[1])
                self._log("status_end", p, entry[1])
            else:
                keep.append(entry)
        self.table = keep

    def _receive(self, p: int, k: int, bombs: list[int]) -> None:
        if self.game.is_bomb[k]:
            bombs.append(k)  # shown to all, resolved after the deal or the draw (CT3, CT4)
        else:
            self.hands[p][k] += 1
            self.hand_n[p] += 1
            self.held[p] |= 1 << k

    def _draw(self, p: int) -> None:
        bombs: list[int] = []
        got = 0
        for _ in range(DRAW):
            if not self.pile:
                if not self.discard:
                    break  # CT5: nothing left to draw
                self.pile = self.discard
                self.discard = []
                self.secret = []
                self.rng.shuffle(self.pile)
                self._log("reshuffle", len(self.pile))
            self._receive(p, self.pile.pop(), bombs)
            got += 1
        self._log("draw", p, got)
        for k in bombs:  # CT4: both cards are drawn before the Bombe goes off
            self._bomb(p, k, deal=False)  # (a second Bombe still goes to the discard pile)

    def _bomb(self, p: int, k: int, *, deal: bool) -> None:
        game = self.game
        hand = self.hands[p]
        self.cov[_K["bomb:defuse"]] += 1
        for d in game.of[DEFUSE]:
            if hand[d]:
                self.cov[_K["bomb:defuse"] + 1] += 1
                hand[d] -= 1
                self.hand_n[p] -= 1
                self.discard.append(d)
                self.discard.append(k)
                self._log("defuse", p, k, d)
                return
        self.discard.append(k)
        self._log("bomb", p, k, deal)
        self._damage(p, game.kinds[k].figure)
        if deal and self.rules.deal_bomb_teammates:  # CT3: only right after the deal
            for m in game.mates[p]:
                if self.alive[m]:
                    self._damage(m, game.kinds[k].team_figure)

    def _use(self, p: int, k: int) -> None:
        self.hands[p][k] -= 1
        self.hand_n[p] -= 1
        self.discard.append(k)

    # ------------------------------------------------------------------ offensive moves

    def _offensive(self, p: int, action: int) -> None:
        game = self.game
        if action == PASS:
            self._log("pass", p)
            self._end_move()
            return
        move, arg = action >> 4, action & 15
        if move == 1:
            self._log("attack", p, arg, -1)
            self._attack(p, arg, game.box.characters[self.character[p]].damage, -1, NORMAL)
            return
        k = move - 2
        eff = game.effect[k]
        self.hands[p][k] -= 1
        self.hand_n[p] -= 1
        if eff == WEAPON:
            self.discard.append(k)
            self._log("attack", p, arg, k)
            self._attack(p, arg, game.figure[k], k, NORMAL if game.kinds[k].counter else EXPLOSIVE)
        elif eff == HEADSHOT:
            self.discard.append(k)
            self._log("attack", p, arg, k)
            self._attack(p, arg, 0, k, HEADSHOT_MODE)
        elif eff == RENFORT:
            self.discard.append(k)
            self._log("call", p, arg, k)
            self.caller = p
            self.phase = CALLED
            self.player = arg
        else:  # GAS or FLASH: the card stays on the table in front of the thrower
            # CT22: thrown by a called teammate, the Grenade is the caller's move made "in their
            # place": it lies in front of the caller (the player whose turn it is), lasts until
            # the caller's next turn, shields the caller (gas) and spares the caller and the
            # thrower (flash)
            owner = self.turn_player
            if eff == GAS:
                asked = [q for q in game.enemies[p] if self.alive[q]]
            else:
                asked = [q for q in range(self.n) if q != p and q != owner and self.alive[q]
                         and (self.rules.flash_teammates or q not in game.mates[p])]
            n = self.n
            asked.sort(key=lambda q: (q - p) % n)
            mask = 0
            for q in asked:
                mask |= 1 << q
            # CT20: everyone affected answers in turn; a player already blinded cannot play a Masque
            self.asking = [q for q in asked if not self.blinded(q)]
            self.table.append([owner, k, mask])
            self._log("throw", p, k)
            self._next_mask()

    def _attack(self, a: int, t: int, dmg: int, kind: int, mode: int) -> None:
        self.att = [a, t, dmg, kind, mode, -1]
        self.phase = DEFEND
        self.player = t

    def _next_mask(self) -> None:
        if self.asking:
            self.phase = MASKING
            self.player = self.asking[0]
        else:
            self._end_move()

    def _mask(self, p: int, action: int) -> None:
        self.asking.pop(0)
        if action != PASS:
            k = (action >> 4) - 2
            self._use(p, k)
            self.table[-1][2] &= ~(1 << p)
            self._log("mask", p, k)
        self._next_mask()

    # ------------------------------------------------------------------ answers

    def _defend(self, p: int, action: int) -> None:
        game = self.game
        a, t, dmg, _kind, mode, _helper = self.att
        if action == PASS:
            self._log("no_defence", p)
            if mode == HEADSHOT_MODE:
                self._log("headshot", t)
                self._damage(t, self.life[t])
            else:
                self._damage(t, dmg)
            self._end_move()
            return
        if action == game.BOTH:
            total = 0
            for k in game.of[ARMOUR]:
                if self.hands[p][k]:
                    self._use(p, k)
                    total += game.figure[k]
                    self._log("defend", p, k)
            self._damage(t, max(0, dmg - total))
            self._end_move()
            return
        move, arg = action >> 4, action & 15
        k = move - 2
        eff = game.effect[k]
        self._use(p, k)
        self._log("defend", p, k)
        if eff == ARMOUR:
            self._damage(t, max(0, dmg - game.figure[k]))
        elif eff == DODGE:
            if mode == EXPLOSIVE:  # CT12: the Esquive halves a Grenade
                self._damage(t, dmg // 2)
        elif eff == WEAPON:  # CT7: the larger wins, the loser takes the difference
            c = game.figure[k]
            if c > dmg:
                self._damage(a, c - dmg)
            elif c < dmg:
                self._damage(t, dmg - c)
        elif eff == FRIENDLY:  # CT8
            self._damage(arg, game.figure[k] if self.rules.friendly_fire == "card" else dmg)
        elif eff == RICOCHET:  # CT9: the hand game's loser, uniformly at random
            pool = [q for q in range(self.n) if self.alive[q]
                    and (self.rules.ricochet_pool == "all" or q != p)]
            loser = pool[self.rng.randrange(len(pool))]
            self._log("ricochet", loser)
            self._damage(loser, game.figure[k])
        elif eff == RENFORT:  # CT11: the teammate defends in the target's place
            self.att[5] = arg
            self.player = arg
            return
        self._end_move()

    # ------------------------------------------------------------------ life and death

    def _damage(self, p: int, x: int) -> None:
        if x <= 0 or not self.alive[p]:
            return
        self.life[p] = max(0, self.life[p] - x)
        self._log("damage", p, x, self.life[p])
        if self.life[p] <= 0:  # CT16: dead at 0 or less
            self.alive[p] = False
            hand = self.hands[p]
            for k in range(self.game.K):
                if hand[k]:  # face down: cards never played stay hidden (CT16, CT19)
                    for _ in range(hand[k]):
                        self.secret.append(len(self.discard))
                        self.discard.append(k)
                    hand[k] = 0
            self.hand_n[p] = 0
            self._log("death", p)
            team = self.game.team[p]
            if not any(self.alive[q] for q in range(self.n) if self.game.team[q] == team):
                self._finish(1 - team, "victory")  # CT17

    def _finish(self, winner: int, reason: str) -> None:
        if self.phase == OVER:
            return
        self.phase = OVER
        self.player = TERMINAL
        self.ended_by = reason
        self.winner_team = winner
        self.cov[_K["game:victory"]] += 1
        self.cov[_K["game:turn_limit"]] += 1
        self.cov[_K["game:" + reason] + 1] += 1
        self.att = None
        self.asking = []
        self._log("end", reason, TEAMS[winner] if winner >= 0 else None)

    # ------------------------------------------------------------------ results

    def scores(self) -> list[int]:
        """Life left per seat."""
        return self.life[:]

    def returns(self) -> list[float]:
        """Team-shared: +1 to every player of the winning team, -1 to every loser (0 at the limit)."""
        w = self.winner_team
        if self.player != TERMINAL or w < 0:
            return [0.0] * self.n
        team = self.game.team
        return [1.0 if team[p] == w else -1.0 for p in range(self.n)]

    def utilities(self) -> list[float]:
        """What the search bots maximise (docs/bots.md): each seat's team return plus 0.2 × its
        team's life margin (its life left minus the other team's, over the life the game started
        with), so that among play-outs that end alike the one where the team keeps more life (and
        the enemies less) counts for more."""
        r = self.returns()
        team = self.game.team
        total = float(self.n * self.game.life) or 1.0  # the life the game started with
        mine = [0.0, 0.0]
        for q in range(self.n):
            mine[team[q]] += self.life[q]
        return [r[p] + 0.2 * (mine[team[p]] - mine[1 - team[p]]) / total for p in range(self.n)]

    def winner(self) -> str | None:
        """The winning team's name, or None (game not over, or turn limit)."""
        return TEAMS[self.winner_team] if self.winner_team >= 0 else None

    def greedy_action(self) -> int:
        """The greedy heuristic's choice for the player to act (:mod:`.bots`, through the frame)."""
        return frame.greedy(self)

    def play_greedy(self) -> State:
        """Play to the end with the greedy heuristic for every player, in place."""
        return frame.play_greedy(self)

    def heuristic(self, player: int) -> float:
        """The life of the player's team minus the other's (what a look-ahead compares)."""
        team = self.game.team
        mine = team[player]
        return float(sum(self.life[q] if team[q] == mine else -self.life[q] for q in range(self.n)))

    def held_cards(self, seat: int) -> set[str]:
        """Refs of the draw pile's cards ``seat`` held at any time (for a card's impact).

        Characters are left out: they differ only by name, so their "impact" would be their team's.
        A Bombe is never held (it is resolved when received, CT3/CT4).
        """
        kinds = self.game.kinds
        return {kinds[k].ref for k in range(self.game.K) if self.held[seat] >> k & 1}

    def card_count(self) -> dict[str, int]:
        """Where the box's cards are (the invariant: they add up to the box)."""
        game = self.game
        placed = len(self.pile) + len(self.discard) + sum(self.hand_n) + len(self.table)
        return {"pile": placed, "characters": len(game.box.characters),
                "life": game.box.life_cards}

    # ------------------------------------------------------------------ hidden information

    def observation(self, player: int) -> Observation:
        game = self.game
        chars = game.box.characters
        return Observation(
            player=player, current_player=self.player, phase=self.phase,
            turn_player=self.turn_player, round=self.round, turns=self.turns,
            teams=self.teams, characters=tuple(chars[c].name for c in self.character),
            life=tuple(self.life), alive=tuple(self.alive), hand=tuple(self.hands[player]),
            hand_sizes=tuple(self.hand_n), pile_size=len(self.pile), discard=self.public_discard(),
            table=tuple((o, game.effect[k], m) for o, k, m in self.table),
            attack=tuple(self.att) if self.att is not None else None, caller=self.caller,
            asking=tuple(self.asking), terminal=self.player == TERMINAL, winner=self.winner(),
        )

    def public_discard(self) -> tuple[int, ...]:
        """The discard pile as everyone sees it: a dead player's unplayed cards are face down
        (``HIDDEN``, CT16)."""
        if not self.secret:
            return tuple(self.discard)
        out = list(self.discard)
        for i in self.secret:
            out[i] = HIDDEN
        return tuple(out)

    def information_key(self, player: int) -> Observation:
        """What ``player`` knows, hashable (an information set's key for tree search)."""
        return self.observation(player)

    def resample(self, player: int, rng: random.Random) -> State:
        """A clone where what ``player`` cannot see is dealt again at random.

        Hidden from ``player``: the other players' hands and the pile's order. Their cards and the
        pile are shuffled together and dealt back with the same hand sizes; a Bombe never sits in a
        hand (it is resolved when received), so the Bombes stay in the pile. Future chance (the
        Ricochet's hand game, reshuffles) is reseeded from ``rng``.
        """
        s = self.clone()
        game = self.game
        is_bomb = game.is_bomb
        pool: list[int] = []
        bombs: list[int] = []
        for k in s.pile:
            (bombs if is_bomb[k] else pool).append(k)
        pool.extend(s.discard[i] for i in s.secret)  # the dead's face-down cards (CT16)
        others = [q for q in range(self.n) if q != player]
        for q in others:
            hand = s.hands[q]
            for k in range(game.K):
                if hand[k]:
                    pool.extend([k] * hand[k])
                    hand[k] = 0
        pool.sort()
        rng.shuffle(pool)
        for q in others:
            for _ in range(s.hand_n[q]):
                s.hands[q][pool.pop()] += 1
        for i in s.secret:
            s.discard[i] = pool.pop()
        pile = pool + bombs
        rng.shuffle(pile)
        s.pile = pile
        s.rng = random.Random(rng.getrandbits(64))
        return s

    # ------------------------------------------------------------------ text

    def seat_name(self, p: int) -> str:
        return tr("ctterror.seat", seat=p + 1,
                  name=self.game.box.characters[self.character[p]].name,
                  team=tr(f"ctterror.team.{TEAMS[self.game.team[p]]}"))

    def action_to_string(self, action: int) -> str:
        game = self.game
        phase = self.phase
        if action == PASS:
            key = {TURN: "pass_turn", CALLED: "pass_turn", DEFEND: "pass_defence",
                   MASKING: "pass_mask"}.get(phase, "pass_turn")
            return tr(f"ctterror.action.{key}")
        if action == game.BOTH:
            names = " + ".join(game.kinds[k].name for k in game.of[ARMOUR])
            return tr("ctterror.action.both", cards=names)
        move, arg = action >> 4, action & 15
        if move == 1 and arg < self.n:
            dmg = game.box.characters[self.character[self.player if self.player >= 0 else 0]].damage
            return tr("ctterror.action.character", target=self.seat_name(arg), damage=dmg)
        k = move - 2
        if not 0 <= k < game.K or (arg >= self.n and arg):
            return tr("ctterror.action.unknown", action=action)
        card = game.kinds[k].name
        eff = game.effect[k]
        if eff in (WEAPON, HEADSHOT) and phase in (TURN, CALLED):
            return tr("ctterror.action.attack", card=card, target=self.seat_name(arg))
        if eff == WEAPON:
            return tr("ctterror.action.counter", card=card, damage=game.figure[k])
        if eff == RENFORT:
            return tr("ctterror.action.call", card=card, target=self.seat_name(arg))
        if eff == FRIENDLY:
            return tr("ctterror.action.friendly", card=card, target=self.seat_name(arg))
        return tr("ctterror.action.play", card=card)

    def event_to_string(self, event: tuple) -> str:
        """One event of the log in the current language (what every player saw)."""
        kind, *rest = event
        game = self.game
        name = self.seat_name
        card = lambda k: game.kinds[k].name if k >= 0 else tr("ctterror.event.own_weapon")
        if kind == "deal":
            return tr("ctterror.event.deal", players=self.n)
        if kind in ("turn", "pass", "no_defence", "blind_skip", "death", "headshot"):
            return tr(f"ctterror.event.{kind}", player=name(rest[0]))
        if kind == "draw":
            return tr("ctterror.event.draw", player=name(rest[0]), count=rest[1])
        if kind == "reshuffle":
            return tr("ctterror.event.reshuffle", count=rest[0])
        if kind == "defuse":
            return tr("ctterror.event.defuse", player=name(rest[0]))
        if kind == "bomb":
            return tr("ctterror.event.bomb", player=name(rest[0]))
        if kind == "attack":
            return tr("ctterror.event.attack", player=name(rest[0]), target=name(rest[1]),
                      card=card(rest[2]))
        if kind == "call":
            return tr("ctterror.event.call", player=name(rest[0]), target=name(rest[1]))
        if kind == "throw":
            return tr("ctterror.event.throw", player=name(rest[0]), card=card(rest[1]))
        if kind in ("mask", "defend"):
            return tr("ctterror.event.defend", player=name(rest[0]), card=card(rest[1]))
        if kind == "status_end":
            return tr("ctterror.event.status_end", player=name(rest[0]), card=card(rest[1]))
        if kind == "ricochet":
            return tr("ctterror.event.ricochet", player=name(rest[0]))
        if kind == "damage":
            return tr("ctterror.event.damage", player=name(rest[0]), damage=rest[1], life=rest[2])
        if kind == "end":
            if rest[1] is None:
                return tr("ctterror.event.turn_limit")
            return tr("ctterror.event.victory", team=tr(f"ctterror.team.{rest[1]}"))
        return str(event)

    def _log(self, *event: Any) -> None:
        if self.events is not None:
            self.events.append(event)

    def __str__(self) -> str:
        rows = [tr("ctterror.text.header", round=self.round, turns=self.turns, pile=len(self.pile))]
        for p in range(self.n):
            rows.append(tr("ctterror.text.seat", seat=self.seat_name(p), life=self.life[p],
                           cards=self.hand_n[p]))
        return "\n".join(rows)
