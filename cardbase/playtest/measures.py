"""The measures of a good game, for every game (written as data or hand-written): played by bots,
seeded, each figure with its 95 % interval.

* **first-player advantage**: how often the seat that played first wins, among decided games,
  with its 95 % (Wilson) interval — a fair game of ``n`` players sits near ``1/n``;
* **seat advantage**: each seat's wins among decided games, with its interval, beside the fair
  share (where seats hold different decks, the deck weighs in too);
* **game length**: turns per game, mean, spread and quantiles;
* **lead changes**: after every turn the leader is the single best player by the rules file's
  ``[end.winner] by`` (highest or lowest as it says); a change is a new single leader;
* **comebacks** (drama): among decided games, how often the eventual winner was strictly behind at
  the middle turn of the game, and by how much on average (in ``[end.winner] by`` units);
* **decisiveness**: how early the winner is known — the share of the turns played before the
  eventual winner became the single leader for good (0 from the start, 1 only at the end);
* **skill gap** (``skill_games``): a greedy seat against random seats, its win rate beside the
  fair share; ``search_games``: a search seat (mc) against greedy seats;
* **decisions that change the outcome** (``outcome_games``): the share of the moves with a choice
  where another legal action, the game finished by the same bots and the same chance, gives
  another winner;
* **decisions**: moves where the player had more than one legal action, per game, and the mean
  number of options of those moves.

A **solo** game (one side: NesPanini's goldfish, 15 en un tour alone) has no winner: its outcome
is its final score (its standing, as above). Its measures are those that keep a meaning there —
length, decisiveness (the share of the turns played before the score reached its final value for
good), the skill gap (the strong bot's mean final score against the weak one's on the same deals,
the paired difference with its interval), the decisions that change the outcome (another action
gives another final score) and the decisions — and ``not_applicable`` names the others with why:
first-player and seat advantage (one seat), lead changes (nobody else to lead), comebacks (no
winner, nobody to be behind).

``game`` may be a list of games (a round robin's pairs of decks, both seat orders): game ``i`` of
a batch is played on ``game[i % len(game)]``.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardbase.domain import CardDef
from cardbase.playtest.cluster import game_seed
from cardbase.playtest.stats import wilson

if TYPE_CHECKING:  # pragma: no cover
    from cardbase.games.rulesdata.engine import State
    from cardbase.games.rulesdata.language import Rules

_INTERPRETER = "cardbase.games.rulesdata.engine"


def _written_as_data(state: Any) -> bool:
    """Whether ``state`` is the rules interpreter's (a game written as data). Its module is loaded
    by such a game only: a hand-written game's measures do not load it."""
    engine = sys.modules.get(_INTERPRETER)
    return engine is not None and isinstance(state, engine.State)


def _side(state: Any, player: int) -> Any:
    """The side a seat plays for: its team in a team game (``state.team_of``), else the seat."""
    team_of = getattr(state, "team_of", None)
    return team_of(player) if team_of is not None else player


def _pick(game: Any, i: int) -> Any:
    """The game that game ``i`` of a batch is played on (``game``, or one of a list in turn)."""
    return game[i % len(game)] if isinstance(game, (list, tuple)) else game


def _first(game: Any) -> Any:
    return game[0] if isinstance(game, (list, tuple)) else game


def standing(state: Any) -> dict[Any, float]:
    """Each side's standing, higher is better: for a game written as data its ``[end.winner] by``
    (negated when the lowest wins); for a hand-written engine its ``scores()`` (OVERKILL's and
    Overseers' points, NesPanini's score, CT vs Terror's life left, 15 en un tour's turn score),
    summed over a team's seats."""
    if _written_as_data(state):
        r = state.rules
        if r.teams is not None:  # a team's value ([teams] value of its seats' [end.winner] by)
            return state.team_standing()
        sign = 1 if r.winner_order == "highest" else -1
        return {p: sign * state._eval(r.winner_by, p) for p in range(state.n)}
    out: dict[Any, float] = {}
    for p, v in enumerate(state.scores()):
        side = _side(state, p)
        out[side] = out.get(side, 0) + v
    return out


def _leader(state: Any) -> Any:
    vals = standing(state)
    best = max(vals.values())
    top = [side for side, v in vals.items() if v == best]
    return top[0] if len(top) == 1 else None


def _gaps(state: Any) -> dict[Any, float]:
    """How far each side is behind the best other side (0 when it is not behind)."""
    vals = standing(state)
    out = {}
    for side, mine in vals.items():
        others = [v for s, v in vals.items() if s != side]
        out[side] = float(max(0, max(others) - mine)) if others else 0.0
    return out


def winner_side(state: Any) -> Any:
    """The side that won a finished game alone (None: a tie, a shared win, nobody)."""
    if _written_as_data(state) and state.rules.teams is None:
        return state.winners[0] if len(state.winners) == 1 else None
    won = {_side(state, p) for p, x in enumerate(state.returns()) if x > 0}
    return next(iter(won)) if len(won) == 1 else None


def _turns(state: Any) -> int:
    turns = getattr(state, "turns", None)
    if turns is None:
        turns = getattr(state, "turn", None)  # NesPanini counts its turns in ``turn``
    return int(turns) if turns is not None else len(state.history)


def decided_at(leaders: Sequence[int | None], winner: int | None) -> float | None:
    """How early the winner is known: the share of the game's turns played before the eventual
    winner became the single leader for good (0: led from the first turn on; 1: only at the end).
    None for a game nobody won. A solo game passes its score after each turn and its final
    score: the share of the turns played before the score was final for good."""
    if winner is None:
        return None
    if not leaders:
        return 1.0
    i = len(leaders)
    while i > 0 and leaders[i - 1] == winner:
        i -= 1
    return i / len(leaders)


def _mean_ci(xs: Sequence[float], low: float = 0.0, high: float | None = None) -> list[float]:
    """The 95 % (normal) interval of the mean of ``xs``, kept within what the figure can be
    (``low``…``high``: a count is never below 0, a share never above 1)."""
    if len(xs) < 2:
        return [float(xs[0]), float(xs[0])] if xs else [0.0, 0.0]
    m, h = statistics.fmean(xs), 1.96 * statistics.stdev(xs) / len(xs) ** 0.5
    lo, hi = m - h, m + h
    if low is not None:
        lo = max(low, lo)
    if high is not None:
        hi = min(high, hi)
    return [lo, hi]


def play_measured(game: Any, seed: int, bots: Sequence[str]) -> dict[str, Any]:
    """One game played by ``bots`` (a game written as data or a hand-written engine); what the
    measures need of it."""
    from cardbase.playtest.games import seat_bot

    s = game.new_state(seed, log=False)
    players = [seat_bot(b, seed * 31 + i, game) for i, b in enumerate(bots)]
    first = _side(s, s.current_player())
    seat_sides = [_side(s, p) for p in range(len(bots))]
    solo = len(set(seat_sides)) == 1  # one side: no winner, the final score is the outcome
    leaders: list[Any] = []
    snapshots: list[dict[Any, float]] = []  # after each turn: how far each side is behind
    running: list[float] = []  # solo: the score after each turn
    decisions = options = distinct = 0
    turns = _turns(s)
    while not s.is_terminal():
        legal = s.legal_actions()
        if len(legal) > 1:
            decisions += 1
            options += len(legal)
            # identical cards (three Pommes in a hand) are one option each but one choice
            name = getattr(s, "action_to_string", None)
            distinct += len({name(a) for a in legal}) if name is not None else len(legal)
        s.apply_action(players[s.current_player()].step(s))
        if _turns(s) != turns and not s.is_terminal():
            turns = _turns(s)
            if solo:
                running.append(standing(s)[first])
            else:
                leaders.append(_leader(s))
                snapshots.append(_gaps(s))
    changes = 0
    last = None
    for lead in leaders:
        if lead is not None and lead != last:
            if last is not None:
                changes += 1
            last = lead
    winner = winner_side(s)
    comeback = gap = None
    if winner is not None and snapshots:
        gap = snapshots[len(snapshots) // 2].get(winner, 0.0)
        comeback = gap > 0
    coverage = getattr(s, "coverage", None)
    score = settled = None
    if solo:
        score = float(standing(s)[first])
        settled = decided_at(running, score)  # the score "leads for good" once it is final
    return {"first": first, "winner": winner, "turns": _turns(s), "ended_by": s.ended_by,
            "lead_changes": changes, "comeback": comeback, "gap": gap,
            "seat_sides": seat_sides, "sides": len(set(seat_sides)),
            "decided_at": decided_at(leaders, winner), "decisions": decisions, "options": options,
            "distinct": distinct,
            "score": score, "settled_at": settled,
            "coverage": coverage() if coverage is not None else {}}


def skill_gap(game: Any, *, games: int, seed: int = 0, strong: str = "greedy",
              weak: str = "random") -> dict[str, Any]:
    """``strong`` against ``weak`` (greedy against random; a search bot against greedy): one seat
    ``strong``, the others ``weak``, the strong seat turning from game to game; its win rate
    among decided games with its interval, beside the fair share. A solo game: every deal played
    once by ``strong`` and once by ``weak``; their mean final scores and the mean of the paired
    differences with its interval (``basis`` "score")."""
    g0 = _first(game)
    if _sides(g0) == 1:
        return _solo_gap(game, games=games, seed=seed, strong=strong, weak=weak)
    wins = decided = 0
    sides = g0.num_players
    k = len(game) if isinstance(game, (list, tuple)) else 1
    for i in range(games):
        g = _pick(game, i)
        names = [weak] * g.num_players
        seat = (i // k) % g.num_players  # every game of a list gets the strong bot in every seat
        names[seat] = strong
        row = play_measured(g, game_seed(seed, i), names)
        sides = row["sides"]
        if row["winner"] is not None:
            decided += 1
            wins += row["winner"] == row["seat_sides"][seat]
    lo, hi = wilson(wins, decided)
    return {"games": games, "decided": decided, "wins": wins, "bots": [strong, weak],
            "rate": wins / decided if decided else None, "ci95": [lo, hi], "fair": 1 / sides,
            "basis": "winner"}


def _sides(game: Any) -> int:
    """How many sides a game's deal has (1: a solo game)."""
    s = game.new_state(0, log=False)
    return len({_side(s, p) for p in range(game.num_players)})


def _solo_gap(game: Any, *, games: int, seed: int, strong: str, weak: str) -> dict[str, Any]:
    hi_scores, lo_scores = [], []
    for i in range(games):
        g, gs = _pick(game, i), game_seed(seed, i)
        hi_scores.append(play_measured(g, gs, [strong] * g.num_players)["score"])
        lo_scores.append(play_measured(g, gs, [weak] * g.num_players)["score"])
    diffs = [a - b for a, b in zip(hi_scores, lo_scores)]
    return {"games": games, "bots": [strong, weak], "basis": "score",
            "strong_mean": statistics.fmean(hi_scores) if games else None,
            "weak_mean": statistics.fmean(lo_scores) if games else None,
            "diff": statistics.fmean(diffs) if games else None, "ci95": _mean_ci(diffs, low=None)}


def outcome_share(game: Any, *, games: int, seed: int = 0, bots: Sequence[str] | None = None,
                  most_moves: int = 400) -> dict[str, Any]:
    """The share of decisions that change the outcome: in ``games`` games played by ``bots``, at
    every move with more than one legal action, each other action is played instead and the game
    finished by the same bots with the same chance (the state's generator is copied); the
    decision counts when some other action gives another winner (a solo game: another final
    score; every finish of a decision is played by bots seeded alike, so only the action
    differs). With its interval."""
    from cardbase.playtest.games import seat_bot

    names = list(bots or ["greedy"])
    if len(names) == 1:
        names = names * _first(game).num_players
    changed = total = 0
    for i in range(games):
        gs = game_seed(seed, i)
        g = _pick(game, i)
        s = g.new_state(gs, log=False)
        players = [seat_bot(b, gs * 31 + q, g) for q, b in enumerate(names)]
        sides = {_side(s, p) for p in range(len(names))}
        solo = next(iter(sides)) if len(sides) == 1 else None

        def finish(t: Any, at: int, gs: int = gs, g: Any = g, solo: Any = solo) -> tuple:
            # the same fresh bots for every alternative of a decision: only the action differs
            bots_now = [seat_bot(b, gs * 31 + q + 7_919 * at, g) for q, b in enumerate(names)]
            moves = 0
            while not t.is_terminal() and moves < most_moves:
                t.apply_action(bots_now[t.current_player()].step(t))
                moves += 1
            if not t.is_terminal():
                return ("?",)
            # a solo game's outcome is its final score
            return (winner_side(t),) if solo is None else (standing(t)[solo],)

        while not s.is_terminal():
            legal = s.legal_actions()
            chosen = players[s.current_player()].step(s)
            if len(legal) > 1:
                base = s.clone()
                base.apply_action(chosen)
                at = len(s.history)
                mine = finish(base, at)
                total += 1
                for a in legal:
                    if a == chosen:
                        continue
                    alt = s.clone()
                    alt.apply_action(a)
                    if finish(alt, at) != mine:
                        changed += 1
                        break
            s.apply_action(chosen)
    lo, hi = wilson(changed, total)
    return {"games": games, "decisions": total, "changed": changed,
            "rate": changed / total if total else None, "ci95": [lo, hi]}


def _length(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    lengths = sorted(r["turns"] for r in rows)
    n = len(lengths)

    def q(f: float) -> int:
        return lengths[min(n - 1, max(0, int(f * n - 1e-9)))]

    return {"mean": statistics.fmean(lengths), "sd": statistics.pstdev(lengths),
            "ci95": _mean_ci(lengths), "min": lengths[0], "q25": q(0.25), "median": q(0.5),
            "q75": q(0.75), "max": lengths[-1]}


def _decisions(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    dec = sum(r["decisions"] for r in rows)
    return {"per_game": dec / len(rows), "ci95": _mean_ci([r["decisions"] for r in rows]),
            "options": (sum(r["options"] for r in rows) / dec) if dec else 0.0,
            # the options told apart by what they say (identical cards counted once)
            "distinct_options": (sum(r.get("distinct", r["options"]) for r in rows) / dec) if dec else 0.0}


def _ended(rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    ended: dict[str, int] = {}
    for r in rows:
        ended[r["ended_by"]] = ended.get(r["ended_by"], 0) + 1
    return dict(sorted(ended.items()))


# the measures a solo game has no use for, and why (their names: measures.na_name.<measure>,
# the reasons: measures.why.<reason>)
SOLO_NOT_APPLICABLE = {"first_player": "one_seat", "seats": "one_seat", "lead_changes": "no_rival",
                       "comebacks": "no_winner"}


def _lineup(names: Sequence[str], i: int) -> list[str]:
    """The bots of game ``i`` when they differ: the list turned by ``i`` seats."""
    k = i % len(names)
    return list(names[k:]) + list(names[:k])


def measures(game: Any, *, games: int = 200, seed: int = 0, bots: Sequence[str] | None = None,
             skill_games: int = 0, search_games: int = 0, outcome_games: int = 0,
             code: str | None = None) -> dict[str, Any]:
    """The measures over ``games`` seeded games (game ``i`` dealt from ``game_seed(seed, i)``);
    ``skill_games``: that many more games for the skill gap (greedy against random),
    ``search_games`` for a search bot (mc) against greedy, ``outcome_games`` for the share of
    decisions that change the outcome. ``game``: one game or a list played in turn. A solo game
    gets the measures that apply to it (``solo`` True, ``not_applicable``)."""
    if games < 1:
        raise ValueError("measures need at least one game")
    g0 = _first(game)
    names = list(bots or ["greedy"])
    if len(names) == 1:
        names = names * g0.num_players
    # Different bots at the table (greedy against random): the line-up turns one seat a game, so
    # every seat — the first player's included — is played by each bot as often, and the seat
    # figures measure the seats, not the bots' strength (a fixed line-up put greedy first every game).
    rotated = len(set(names)) > 1
    rows = [play_measured(_pick(game, i), game_seed(seed, i), _lineup(names, i) if rotated else names)
            for i in range(games)]
    n = len(rows)
    sides = rows[0]["sides"]
    code = code or g0.rules.code
    head = {"game": code, "games": n, "players": g0.num_players, "bots": names, "seed": seed,
            "solo": sides == 1, "rotated": rotated}
    extra = {"skill_gap": skill_gap(game, games=skill_games, seed=seed + 1) if skill_games else None,
             "search_gap": skill_gap(game, games=search_games, seed=seed + 2, strong="mc", weak="greedy")
             if search_games else None,
             "outcome": outcome_share(game, games=outcome_games, seed=seed, bots=names)
             if outcome_games else None,
             "decisions": _decisions(rows), "ended_by": _ended(rows)}
    if sides == 1:
        settled = [r["settled_at"] for r in rows]
        return {**head, "decided": 0, "length": _length(rows),
                "decisiveness": {"mean": statistics.fmean(settled), "ci95": _mean_ci(settled, 0.0, 1.0),
                                 "of": len(settled), "basis": "score"},
                **{k: None for k in SOLO_NOT_APPLICABLE}, **extra,
                "not_applicable": dict(SOLO_NOT_APPLICABLE)}
    decided = [r for r in rows if r["winner"] is not None]
    first_wins = sum(1 for r in decided if r["winner"] == r["first"])
    lo, hi = wilson(first_wins, len(decided))
    seats = []
    for p, bot in enumerate(names):
        wins = sum(1 for r in decided if r["winner"] == r["seat_sides"][p])
        slo, shi = wilson(wins, len(decided))
        seats.append({"seat": p + 1, "bot": "rotation" if rotated else bot, "wins": wins,
                      "rate": wins / len(decided) if decided else None, "ci95": [slo, shi]})
    backs = [r for r in decided if r["comeback"] is not None]
    cb = sum(1 for r in backs if r["comeback"])
    clo, chi = wilson(cb, len(backs))
    gaps = [r["gap"] for r in backs if r["comeback"]]
    known = [r["decided_at"] for r in rows if r["decided_at"] is not None]
    return {**head, "decided": len(decided),
            "first_player": {"wins": first_wins, "rate": first_wins / len(decided) if decided else None,
                             "ci95": [lo, hi], "fair": 1 / sides,
                             # every action a secret choice: the first seat only chooses first
                             "secret_choices": bool(getattr(g0, "secret_choices_only", False))},
            "seats": {"decided": len(decided), "fair": 1 / sides, "seats": seats},
            "length": _length(rows),
            "lead_changes": {"mean": statistics.fmean(r["lead_changes"] for r in rows),
                             "ci95": _mean_ci([r["lead_changes"] for r in rows])},
            "comebacks": {"count": cb, "of": len(backs), "rate": cb / len(backs) if backs else None,
                          "ci95": [clo, chi],
                          "mean_gap": statistics.fmean(gaps) if gaps else None,
                          "gap_ci95": _mean_ci(gaps) if gaps else None},
            "decisiveness": {"mean": statistics.fmean(known) if known else None,
                             "ci95": _mean_ci(known, 0.0, 1.0), "of": len(known), "basis": "winner"},
            **extra}


def sweep_table(points: Sequence[dict[str, Any]], *, num: Any, pct: Any, row_key: str = "value"
                ) -> tuple[list[str], list[list[str]], list[tuple[str, str]]]:
    """The measures of every point of a sweep as a table (``sim sweep`` and the app's balance
    view; ``sim rulings``: a point a reading, ``row_key`` "reading"): the columns' keys
    (``measures.col.<key>``), one row of cells a point (its ``value``) — each figure with its
    interval in brackets — and each column's meaning key (``measures.means.<key>``).
    ``num(x, digits, signed=False)`` and ``pct(rate, unit=True)`` write the numbers (the
    language's comma; ``unit`` False: without « % », for the interval after the figure)."""

    def cell(value: float | None, ci: Sequence[float] | None, *, percent: bool = False, digits: int = 1,
             signed: bool = False) -> str:
        if value is None:
            return "—"
        if percent:
            return f"{pct(value)} [{pct(ci[0], unit=False)}–{pct(ci[1], unit=False)}]" if ci else pct(value)
        text = num(value, digits, signed=signed)
        return f"{text} [{num(ci[0], digits, signed=signed)}–{num(ci[1], digits, signed=signed)}]" if ci else text

    ms = [p["measures"] for p in points]
    solo = bool(ms and ms[0].get("solo"))
    cols = [row_key, "length"] + (["settled"] if solo else ["first", "leads", "comebacks", "decisive"])
    cols += [col for key, col in (("skill_gap", "skill"), ("search_gap", "search"), ("outcome", "outcome"))
             if any(m.get(key) for m in ms)]
    rows = []
    for p, m in zip(points, ms):
        dv = m["decisiveness"]
        cells = {row_key: str(p["value"]), "length": cell(m["length"]["mean"], m["length"]["ci95"]),
                 "settled": cell(dv["mean"], dv["ci95"], percent=True),
                 "decisive": cell(dv["mean"], dv["ci95"], percent=True)}
        if not solo:
            fp, cb, lc = m["first_player"], m["comebacks"], m["lead_changes"]
            cells.update(first=cell(fp["rate"], fp["ci95"], percent=True),
                         leads=cell(lc["mean"], lc["ci95"], digits=2),
                         comebacks=cell(cb["rate"], cb["ci95"], percent=True))
        for key, col in (("skill_gap", "skill"), ("search_gap", "search")):
            g = m.get(key)
            cells[col] = "—" if g is None else (cell(g["diff"], g["ci95"], signed=True) if g.get("basis") == "score"
                                                else cell(g["rate"], g["ci95"], percent=True))
        oc = m.get("outcome")
        cells["outcome"] = cell(oc["rate"], oc["ci95"], percent=True) if oc and oc["decisions"] else "—"
        rows.append([cells[c] for c in cols])
    meanings = {"length": "length_short", "settled": "settled", "first": "first", "leads": "leads",
                "comebacks": "comebacks", "decisive": "decisive",
                "skill": "skill_solo_short" if solo else "skill", "search": "search_solo" if solo else "search",
                "outcome": "outcome_solo" if solo else "outcome"}
    return cols, rows, [(c, meanings[c]) for c in cols if c in meanings]


def try_random(rules: Rules, cards: Sequence[CardDef], games: int, seed: int = 0, *,
               decks: Sequence[Sequence[CardDef]] | None = None, players: int | None = None) -> dict[str, Any]:
    """``games`` random games at ``players`` (the default player count when None): how many ended
    by a condition of the file rather than a safety net (the check that a game can end). ``decks``:
    one per player, for a game played with decks."""
    from cardbase.games.rulesdata.engine import Game

    game = Game(rules, cards, players, decks=decks)
    names = ["random"] * game.num_players
    rows = [play_measured(game, game_seed(seed, i), names) for i in range(games)]
    conditions = {e.name for e in rules.endings}
    legal_somewhere = {k for r in rows for k in r["coverage"]}
    return {"players": game.num_players, "games": games,
            "ended": sum(1 for r in rows if r["ended_by"] in conditions),
            "mean_turns": round(statistics.fmean(r["turns"] for r in rows), 1) if rows else 0.0,
            "never_legal": [a.name for a in rules.actions if a.name not in legal_somewhere],
            "never_ended_by": [e.name for e in rules.endings
                               if not any(r["ended_by"] == e.name for r in rows)],
            "ended_by": {e.name: sum(1 for r in rows if r["ended_by"] == e.name) for e in rules.endings},
            # a set action (pick = "set"): positions whose sets were listed, sets tested, sets legal
            "sets": {rules.actions[k].name: dict(zip(("listed", "tested", "legal"), v))
                     for k, v in getattr(game, "set_stats", {}).items()}}


def player_counts(rules: Rules, players: int | None = None) -> list[int]:
    """The player counts a check tries: ``players`` alone when given, else every count the file
    allows (``[game] players = [min, max]``)."""
    if players is not None:
        return [players]
    return list(range(rules.min_players, rules.max_players + 1))


def share_games(games: int, counts: Sequence[int]) -> list[int]:
    """``games`` trial games shared out over the player counts as evenly as possible (the first
    counts get one more), every count at least one game when any is asked."""
    if not games or not counts:
        return [0] * len(counts)
    base, extra = divmod(games, len(counts))
    return [max(1, base + (1 if i < extra else 0)) for i in range(len(counts))]


def try_counts(rules: Rules, cards: Sequence[CardDef], games: int, counts: Sequence[int], *,
               decks: Sequence[Sequence[CardDef]] | None = None) -> dict[str, Any]:
    """The random games of :func:`try_random` shared out over the player counts ``counts``: the
    totals, and each count's own figures in ``by_players``. An action ``never_legal`` was legal at
    no count; ``never_legal_at`` maps an action legal at some counts only to the counts where it
    never was; an ending ``never_ended_by`` ended no game at any count."""
    parts = [try_random(rules, cards, n, decks=decks, players=p)
             for p, n in zip(counts, share_games(games, counts))]
    total = sum(t["games"] for t in parts)
    names = [a.name for a in rules.actions]
    never_at = {a: [t["players"] for t in parts if a in t["never_legal"]] for a in names}
    return {"players": [t["players"] for t in parts], "games": total,
            "ended": sum(t["ended"] for t in parts),
            "mean_turns": round(sum(t["mean_turns"] * t["games"] for t in parts) / total, 1) if total else 0.0,
            "never_legal": [a for a in names if len(never_at[a]) == len(parts)],
            "never_legal_at": {a: c for a, c in never_at.items() if c and len(c) < len(parts)},
            "never_ended_by": [e.name for e in rules.endings
                               if all(e.name in t["never_ended_by"] for t in parts)],
            "sets": {a: {key: sum(t["sets"][a][key] for t in parts) for key in ("listed", "tested", "legal")}
                     for a in (parts[0]["sets"] if parts else {})},
            "ended_by": {e.name: sum(t["ended_by"][e.name] for t in parts) for e in rules.endings},
            "by_players": parts}


def search_counts(rules: Rules, cards: Sequence[CardDef], counts: Sequence[int], *, seeds: int = 1,
                  most_states: int = 2000, decks: Sequence[Sequence[CardDef]] | None = None) -> dict[str, Any]:
    """The bounded search of :func:`search_ending` at each player count of ``counts``: the verdict
    is ``cannot_end`` when the game cannot end at some count (``cannot_end_at`` names them),
    ``ending`` when an ending was found at every count, else ``bound``; ``by_players`` holds each
    count's own search."""
    parts = [dict(search_ending(rules, cards, seeds=seeds, most_states=most_states, decks=decks,
                                players=p), players=p) for p in counts]
    stuck = [s["players"] for s in parts if s["verdict"] == "cannot_end"]
    verdict = ("cannot_end" if stuck else "ending" if all(s["verdict"] == "ending" for s in parts)
               else "bound")
    return {"verdict": verdict, "players": list(counts), "cannot_end_at": stuck, "seeds": seeds,
            "most_states": most_states, "timeless": all(s["timeless"] for s in parts),
            "deals": [dict(d, players=s["players"]) for s in parts for d in s["deals"]],
            "by_players": parts}


def _exprs(obj: Any, seen: set[int] | None = None) -> list[Any]:
    """Every expression of a rules description (walking its dataclasses, lists and dicts)."""
    from dataclasses import fields, is_dataclass

    from cardbase.games.rulesdata.expr import Expr

    seen = set() if seen is None else seen
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    if isinstance(obj, Expr):
        return [obj]
    if isinstance(obj, dict):
        return [e for v in obj.values() for e in _exprs(v, seen)]
    if isinstance(obj, (list, tuple)):
        return [e for v in obj for e in _exprs(v, seen)]
    if is_dataclass(obj) and not isinstance(obj, type):
        return [e for f in fields(obj) for e in _exprs(getattr(obj, f.name), seen)]
    return []


def _position(s: State, timeless: bool) -> tuple:
    """What decides a position's future: whose move, the zones, the counters, the turn's progress
    (and the order of turns a ``next_turn`` moved on),
    an effect's pending choice, the generator of chance; the round and turn numbers too unless no
    expression of the file reads them (then two positions that differ only there are one)."""
    key = (s.player, s.first, getattr(s, "seat_index", 0), getattr(s, "turn_shift", 0),
           getattr(s, "next_seat", -1), s.turn_actions, tuple(s.done),
           tuple(tuple(tuple(p) for p in piles) for piles in s.zones.values()),
           tuple(tuple(sorted(c.items())) for c in s.counters), repr(s.decision), repr(s.queue),
           tuple(tuple(r) for r in s.revealed), s.rng.getstate(),
           (s.window, s.answered, s.cause_id, s.secret))  # an answer window, secret choices
    return key if timeless else key + (s.round, s.turns)


def search_ending(rules: Rules, cards: Sequence[CardDef], *, seeds: int = 1, most_states: int = 2000,
                  decks: Sequence[Sequence[CardDef]] | None = None,
                  players: int | None = None) -> dict[str, Any]:
    """A bounded search for an ending: from the deal of each seed ``0 … seeds-1`` (chance fixed
    by the deal's generator, which is part of a position), every sequence of legal actions,
    depth first, positions seen once, at most ``most_states`` positions a deal. Either
    a position where a condition of the file ends the game is found (with the moves of that line), or
    every reachable position was visited without one — proof that the game cannot end from
    those deals (the safety net's round limit apart) — or the bound was hit first (no answer).
    Round and turn numbers are left out of a position when no expression of the file reads them,
    so that a game that loops is seen to loop. ``players``: the player count (None: the default)."""
    from collections import deque

    from cardbase.games.rulesdata.engine import Game

    game = Game(rules, cards, players, decks=decks)
    conditions = {e.name for e in rules.endings}
    timeless = not any({"round", "turn"} & set(e.names) for e in _exprs(rules))
    out: list[dict[str, Any]] = []
    for seed in range(seeds):
        start = game.new_state(seed, log=False)
        seen = {_position(start, timeless)}
        todo = deque([(start, 0)])
        found = None
        while todo and found is None and len(seen) <= most_states:
            s, depth = todo.pop()  # depth first: a game that ends is ended by playing on
            for a in s.legal_actions():
                t = s.clone()
                t.apply_action(a)
                if t.is_terminal():
                    if t.ended_by in conditions:
                        found = {"condition": t.ended_by, "moves": depth + 1}
                        break
                    continue  # the safety net (round limit): not an ending of the file
                key = _position(t, timeless)
                if key not in seen:
                    seen.add(key)
                    todo.append((t, depth + 1))
        result = "ending" if found else ("cannot_end" if not todo else "bound")
        out.append({"seed": seed, "result": result, "states": len(seen), **(found or {})})
    verdict = ("ending" if any(r["result"] == "ending" for r in out)
               else "cannot_end" if all(r["result"] == "cannot_end" for r in out) else "bound")
    return {"verdict": verdict, "seeds": seeds, "most_states": most_states, "timeless": timeless,
            "deals": out}
