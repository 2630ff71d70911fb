"""15 en un tour's Playtest view: your turns against bots, the solver's advice, and a designer view.

- **Table**: you are seat 1; bots take the other seats (random, greedy, or the solver's optimal
  policy). Click any face-down card to flip it (flips are blind, ruling PL1), stop, or reshuffle
  after a full pass; on demand the exact solver says « si vous continuez : x % d'atteindre 15 ».
  A game is kept as plain values (seed, actions, bot, players) and replayed on each run.
- **Variantes**: boxes compared side by side with exact figures from the solver — P(15) in one
  turn, expected flips, each seat's chance under optimal play, expected rounds — and a chart.
- **Batch**: the generic batch view of every box game (``cardbase.ui.playtest_box``).
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pandas as pd
import streamlit as st

from cardbase.errors import CardbaseError
from cardbase.ui.common import localized, num_columns, plain, show_error, t
from cardbase.ui.playtest_box import batch, bot_labels, bots_until, game_cards

CODE = "pushluck"
KEY = "pl_game"  # {"seed", "actions", "bot", "players"}
HUMAN = 0
BOTS = ("greedy", "optimal", "random")
# The exact N-player solver grows fast with the seats (PL12: each later seat nests a search per
# score to beat): 0.1 s at 2 players, 1 to 4 s at 3, 30 s at 4, minutes and over a gigabyte at 5,
# more at 6. Up to OPTIMAL_MAX_PLAYERS it is built at once; up to BACKGROUND_MAX_PLAYERS the optimal
# bots and the winning chances are offered with their cost, the solver built once per box and rules
# in a background thread while the page shows the time spent and a cancel button (the advice starts
# it by itself up to AUTO_MAX_PLAYERS, on demand beyond); past that they are not offered (the other
# bots stay).
OPTIMAL_MAX_PLAYERS = 2
AUTO_MAX_PLAYERS = 3
BACKGROUND_MAX_PLAYERS = 5
VARIANTS = ("+3,+5,x2,protection,perdre-tout", "+1,+3,x2,protection,perdre-tout",
            "+1,+3,+5,x2,protection,perdre-tout")
_GAMES: dict[tuple, Any] = {}


def engine_game(players: int, stop15: bool = False):
    """The game of the edition's box for this many players and the reading of PL6 (cached with
    its exact solver: per box, players and rules)."""
    from cardbase.games import registry

    cards = tuple(game_cards(CODE))
    key = (cards, players, stop15)
    game = _GAMES.get(key)
    if game is None and key in _JOBS:  # the game a background solver works (or worked) on
        game = _GAMES[key] = _JOBS[key].game
    if game is None:
        if len(_GAMES) > 8:
            _GAMES.clear()
        game = _GAMES[key] = registry.playable(CODE).build(cards, players, stop_at_target=stop15)
    return game


def record_game(record: dict[str, Any]):
    return engine_game(record["players"], bool(record.get("stop15", False)))


def new_game(bot: str, players: int, *, seed: int | None = None, stop15: bool = False) -> dict[str, Any]:
    return {"seed": seed if seed is not None else random.randrange(10**9), "actions": [], "bot": bot,
            "players": players, "stop15": stop15}


def play(record: dict[str, Any], action: int | None) -> dict[str, Any]:
    """Your action (None: only let the bots open), then the bots' turns, as a new record."""
    from cardbase.games.pushluck.state import replay

    game = record_game(record)
    state = replay(game, record["seed"], record["actions"])
    actions = list(record["actions"])
    if action is not None:
        state.apply_action(action)
        actions.append(action)
    actions += bots_until(state, human=HUMAN, bot=record["bot"], seed=record["seed"], played=len(actions))
    return {**record, "actions": actions}


def advice(state) -> float:
    """P(ending this turn at the target or more) if the player goes on — one more card, then
    playing for the target — exactly (the solver): below the target, the chance to reach it; at
    or above it, the chance that the next card does not lose everything."""
    solver = state.game.solver()
    rem = solver.rem_of(state.remaining_counts()) if state.down else tuple(0 for _ in solver.full)
    return float(solver.reach_if_go(state.points, rem, state.shields))


def win_advice(state) -> tuple[float | None, float] | None:
    """Several players: (P(win the game) if you stop now — None when you may not —, if you go on
    and then play optimally), every other seat optimal, for the rules in force. Solo: the same in
    expected points of the round (PL12). None beyond :data:`OPTIMAL_MAX_PLAYERS` players."""
    game = state.game
    if game.num_players > OPTIMAL_MAX_PLAYERS and not _solved(game.num_players, state.rules.stop_at_target):
        return None  # not built yet: the table builds it in the background on demand
    solver = game.solver()
    rem = solver.rem_of(state.remaining_counts()) if state.down else tuple(0 for _ in solver.full)
    may_stop = bool(state.turn_flips)
    if game.num_players == 1:
        from cardbase.games.pushluck.solo import NoExactSolo

        try:
            u = solver.unlimited()
        except NoExactSolo:
            return None
        go = float(u.value(state.points, rem, state.shields, first=True)[0])
        return (float(state.points) if may_stop else None), go
    stop, go = solver.seats(game.num_players).chances(state.player, state.points, rem, state.shields)
    return (stop if may_stop else None), go


def render(code: str = CODE) -> None:
    mode = st.segmented_control(t("playtest.mode"), ["table", "variants", "batch"], key="pl_mode",
                                default="table", format_func=lambda m: t(f"pushluck_page.mode_{m}"),
                                label_visibility="collapsed", required=True) or "table"
    if mode == "batch":
        batch(code, prefix="plb")
    elif mode == "variants":
        variants()
    else:
        table()


def table() -> None:
    from cardbase.games.pushluck.state import FLIP, RESHUFFLE, STOP, replay

    a, b, c = st.columns([1, 2, 1], vertical_alignment="bottom")
    players = a.number_input(t("pushluck_page.players"), 1, 6, 2, key="pl_players",
                             help=t("pushluck_page.players_help"))
    offered = BOTS if players <= BACKGROUND_MAX_PLAYERS else tuple(x for x in BOTS if x != "optimal")
    bot = b.selectbox(t("pushluck_page.bots"), offered, key="pl_bot", format_func=bot_labels())
    stop15 = st.toggle(t("pushluck.table.stop15"), key="pl_stop15", help=t("pushluck.table.stop15_help"))
    if players > BACKGROUND_MAX_PLAYERS:
        st.caption(t("pushluck.table.optimal_limit", most=BACKGROUND_MAX_PLAYERS, players=int(players)))
    elif players > OPTIMAL_MAX_PLAYERS and not _solved(int(players), stop15):
        st.caption(t("pushluck.table.optimal_cost", players=int(players), cost=_cost(int(players))))
    if c.button(t("pushluck_page.new"), key="pl_new", type="primary") or KEY not in st.session_state:
        try:
            if bot == "optimal" and players > OPTIMAL_MAX_PLAYERS and not _solved(int(players), stop15):
                # built in the background: the game starts once it is ready (you play first)
                solver_job(int(players), stop15, start=True)
                st.session_state[KEY] = {**new_game(bot, int(players), stop15=stop15), "pending": True}
            else:
                with _busy(bot, int(players), stop15):
                    st.session_state[KEY] = play(new_game(bot, int(players), stop15=stop15), None)
        except CardbaseError as exc:
            show_error(exc)
            return
    record = st.session_state[KEY]
    if record.get("pending"):
        record = _wait_for_solver(record)
        if record is None:
            return
    try:
        game = record_game(record)
        state = replay(game, record["seed"], record["actions"])
    except CardbaseError as exc:
        show_error(exc)
        return
    obs = state.observation(HUMAN)
    over = state.is_terminal()
    m = st.columns(4)
    m[0].metric(t("pushluck_page.round"), obs.round)
    if over:  # the game is over: your result, not the last bot's turn
        mine = obs.totals[HUMAN] if record["players"] == 1 else (obs.round_scores[HUMAN] or 0)
        m[1].metric(t("pushluck.table.final_score"), mine)
        best = max((s or 0) for s in obs.round_scores)
        m[2].metric(t("pushluck.table.best_score"), best)
        m[3].metric(t("pushluck.table.rounds_played"), obs.round)
    else:
        m[1].metric(t("pushluck_page.points"), obs.points)
        m[2].metric(t("pushluck_page.shields"), obs.shields)
        m[3].metric(t("pushluck_page.face_down"), obs.face_down)
    scores = [t("pushluck_page.seat_score", seat=i + 1, score="—" if s is None else s,
                who=t("pushluck_page.you") if i == HUMAN else t("pushluck_page.bot"))
              for i, s in enumerate(obs.round_scores)]
    st.caption(" · ".join(scores))
    if record["players"] == 1:
        st.caption(t("pushluck_page.totals", total=obs.totals[0]))
    if obs.flipped and not over and state.current_player() == HUMAN:
        st.markdown(t("pushluck_page.flipped") + " " + " ".join(f"**{plain(n)}**" for n in obs.flipped))
    if over:
        winners = [w for w in range(record["players"]) if state.returns()[w] > 0]
        text = t("pushluck_page.you_won") if HUMAN in winners else t(
            "pushluck_page.won_by", seats=", ".join(str(w + 1) for w in winners) or "—")
        best = max((sc or 0) for sc in obs.round_scores)
        if len(winners) == 1 and sum(1 for sc in obs.round_scores if (sc or 0) == best) > 1:
            text += " " + t("pushluck_page.tie_first")  # PL7: at equal scores, the first to reach it
        # a win is green, a shared win blue, a loss red: never a green box for a lost game
        box = st.success if winners == [HUMAN] else st.info if HUMAN in winners else st.error
        box(t("pushluck_page.over", result=text))
    elif state.current_player() == HUMAN:
        legal = state.legal_actions()
        flips = [x for x in legal if x >= FLIP]
        if flips:
            st.markdown(f"**{t('pushluck_page.pick')}**")
            cols = st.columns(min(len(flips), 8))
            for i, act in enumerate(flips):
                if cols[i % len(cols)].button("🂠", key=f"pl_flip_{i}", help=state.action_to_string(act)):
                    _act(record, act)
        row = st.columns(3)
        if STOP in legal and row[0].button(t("pushluck_page.stop", points=obs.points), key="pl_stop"):
            _act(record, STOP)
        if RESHUFFLE in legal and row[1].button(t("pushluck_page.reshuffle"), key="pl_reshuffle"):
            _act(record, RESHUFFLE)
        # the toggle's state outlives the runs where it is not drawn (bots' turns, game over)
        on = st.toggle(t("pushluck_page.advice"), key="pl_advice",
                       value=bool(st.session_state.get("pl_advice_on", False)))
        st.session_state["pl_advice_on"] = on
        if on:
            try:
                show_advice(state, obs.target)
            except CardbaseError as exc:
                show_error(exc)
    st.markdown(f"**{t('pushluck_page.log')}**")
    st.text("\n".join(state.log_lines()[-40:]) or "—")


def _num(x: float) -> str:
    text = f"{x:.1f}"
    return text.replace(".", ",") if t("pushluck.table.decimal") == "," else text


def _pct(x: float) -> str:
    return _num(100 * x)


def show_advice(state, target: int) -> None:
    """The solver's advice: the chance to win the game if you go on and if you stop (solo: the
    expected points), then the chance to end this turn at the target or more if you go on."""
    lines = []
    n = state.game.num_players
    stop15 = state.rules.stop_at_target
    if OPTIMAL_MAX_PLAYERS < n <= BACKGROUND_MAX_PLAYERS and not _solved(n, stop15):
        job = solver_job(n, stop15)
        if job is None and n <= AUTO_MAX_PLAYERS:  # a few seconds: started without asking (once)
            job = solver_job(n, stop15, start=True)
        if job is not None and not job.done.is_set():
            _progress(n, stop15)
        elif job is not None and job.error:
            st.error(job.error)
        if (job is None or job.done.is_set()) and st.button(t("pushluck.table.compute_advice", cost=_cost(n)), key="pl_compute"):
            solver_job(n, stop15, start=True)
            st.rerun()
        st.info(t("pushluck.table.advice_reach", pct=_pct(advice(state)), target=target))
        return
    with _busy("optimal" if n <= OPTIMAL_MAX_PLAYERS else "greedy", n, stop15):
        chances = win_advice(state)
    if chances is None:
        lines.append(t("pushluck.table.advice_no_win", most=BACKGROUND_MAX_PLAYERS))
    elif state.game.num_players == 1:
        stop, go = chances
        lines.append(t("pushluck.table.advice_solo_go", points=_num(go)))
        if stop is not None:
            lines.append(t("pushluck.table.advice_solo_stop", points=_num(stop)))
        u = state.game.solver().unlimited()
        if not (u.s.stop_at_target or u.stats["rho"] < 1):  # PL12: a limit, never attained
            lines.append(t("pushluck.table.advice_solo_limit"))
    else:
        stop, go = chances
        lines.append(t("pushluck.table.advice_go", pct=_pct(go)))
        if stop is not None:
            lines.append(t("pushluck.table.advice_stop", pct=_pct(stop)))
    lines.append(t("pushluck.table.advice_reach", pct=_pct(advice(state)), target=target))
    st.info("  \n".join(lines))


class _busy:
    """A spinner while the exact solver of a box and player count is built (once per process:
    the games are cached by cards and players), so a long first click never shows a grey page."""

    def __init__(self, bot: str, players: int, stop15: bool = False) -> None:
        self.show = bot == "optimal" and players >= 2 and not _solved(players, stop15)
        self.spin: Any = None

    def __enter__(self) -> None:
        if self.show:
            self.spin = st.spinner(t("pushluck.table.solving"))
            self.spin.__enter__()

    def __exit__(self, *exc: Any) -> None:
        if self.spin is not None:
            self.spin.__exit__(*exc)


def _solved(players: int, stop15: bool = False) -> bool:
    try:
        game = engine_game(players, stop15)
    except CardbaseError:
        return True
    solver = game._solver
    return solver is not None and players in solver._seat_cache


def _cost(players: int) -> str:
    return t(f"pushluck.table.cost_{min(max(players, 3), BACKGROUND_MAX_PLAYERS)}")


class _Job:
    """The exact seats solver of one box, player count and rules, built in a thread of its own;
    ``stop`` cancels it (the solver asks now and then), nothing of a cancelled build is kept."""

    def __init__(self, game: Any, players: int) -> None:
        self.game, self.players = game, players
        self.started = time.monotonic()
        self.stop = threading.Event()
        self.done = threading.Event()
        self.error: str | None = None
        self.thread = threading.Thread(target=self._run, name=f"pushluck-seats-{players}", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        from cardbase.games.pushluck.solver import SolverCancelled

        try:
            self.game.solver().seats(self.players, cancel=self.stop.is_set)
        except SolverCancelled:
            pass
        except (CardbaseError, MemoryError, RecursionError) as exc:
            self.error = str(exc) or type(exc).__name__
            import logging

            logging.getLogger(__name__).warning("pushluck solver (%s players): %r", self.players, exc)
        finally:
            self.done.set()

    @property
    def ok(self) -> bool:
        return self.done.is_set() and self.players in self.game.solver()._seat_cache


_JOBS: dict[tuple, _Job] = {}  # per box, players and rules, shared by every session of the server
_JOBS_LOCK = threading.Lock()


def solver_job(players: int, stop15: bool, *, start: bool = False) -> _Job | None:
    """The background build of this player count's solver (``start``: begin it, or begin it again
    after a cancel or a failure); None when none was started."""
    with _JOBS_LOCK:
        game = engine_game(players, stop15)
        key = (tuple(game_cards(CODE)), players, stop15)
        job = _JOBS.get(key)
        if start and (job is None or (job.done.is_set() and not job.ok)):
            job = _JOBS[key] = _Job(game, players)
        return job


def _wait_for_solver(record: dict[str, Any]) -> dict[str, Any] | None:
    """A game waiting for its background solver: the game once it is ready (None meanwhile, the
    page showing the time spent and a cancel button, or why it stopped)."""
    players, stop15 = record["players"], bool(record.get("stop15", False))
    if _solved(players, stop15):
        ready = {k: v for k, v in record.items() if k != "pending"}
        try:
            st.session_state[KEY] = play(ready, None)
        except CardbaseError as exc:
            show_error(exc)
            return None
        return st.session_state[KEY]
    job = solver_job(players, stop15)
    if job is None or job.done.is_set():
        if job is not None and job.error:
            st.error(job.error)
        st.warning(t("pushluck.table.cancelled"))
        return None
    _progress(players, stop15)
    return None


@st.fragment(run_every=1.0)
def _progress(players: int, stop15: bool) -> None:
    """The time spent by the background solver, redrawn every second, with a cancel button; the
    whole page is drawn again when it is done."""
    job = solver_job(players, stop15)
    if job is None or job.done.is_set():
        st.rerun()
    st.info(t("pushluck.table.computing", players=players, cost=_cost(players),
              elapsed=int(time.monotonic() - job.started)))
    if st.button(t("pushluck.table.cancel"), key="pl_cancel"):
        job.stop.set()
        job.done.wait(5.0)
        st.rerun()


def _act(record: dict[str, Any], action: int) -> None:
    try:
        with _busy(record["bot"], record["players"], bool(record.get("stop15", False))):
            st.session_state[KEY] = play(record, action)
    except CardbaseError as exc:
        show_error(exc)
        return
    st.rerun()


def compare(boxes: list[str], players: int) -> pd.DataFrame:
    """Exact figures of each box, side by side (the solver; no simulation)."""
    from cardbase.games.pushluck.material import parse_box
    from cardbase.games.pushluck.solver import solve

    rows = []
    for text in boxes:
        data = solve(parse_box(text), players=players, reshuffles=1)
        seats = data.get("seats", {}).get(str(players), {})
        win = seats.get("win") or []
        rows.append({"box": text, "p15": data["p_reach_15"], "flips": data["expected_flips"],
                     "seat1": win[0] if win else None, "last_seat": win[-1] if win else None,
                     "rounds": seats.get("expected_rounds")})
    return pd.DataFrame(rows)


def variants() -> None:
    import altair as alt

    st.caption(t("pushluck_page.variants_help"))
    text = st.text_area(t("pushluck_page.variants_boxes"), "\n".join(VARIANTS), key="pl_variants", height=110)
    players = st.number_input(t("pushluck_page.players"), 2, 3, 2, key="pl_var_players")
    if st.button(t("pushluck_page.compare"), key="pl_compare", type="primary"):
        boxes = [line.strip() for line in text.splitlines() if line.strip()][:6]
        try:
            with st.spinner(t("pushluck_page.solving")):
                st.session_state["pl_cmp"] = compare(boxes, int(players)).to_dict(orient="records")
        except CardbaseError as exc:
            show_error(exc)
            return
    rows = st.session_state.get("pl_cmp")
    if not rows:
        return
    df = pd.DataFrame(rows)
    labels = {"box": t("pushluck_page.col_box"), "p15": t("pushluck_page.col_p15"),
              "flips": t("pushluck_page.col_flips"), "seat1": t("pushluck_page.col_seat1"),
              "last_seat": t("pushluck_page.col_last"), "rounds": t("pushluck_page.col_rounds")}
    chart = alt.Chart(df).mark_bar(color="#4c78a8").encode(
        x=alt.X("p15:Q", title=labels["p15"], axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("box:N", title=None, sort=None, axis=alt.Axis(labelLimit=320)),
        tooltip=[alt.Tooltip("box:N"), alt.Tooltip("p15:Q", format=".1%"), alt.Tooltip("flips:Q", format=".2f")])
    st.altair_chart(localized(chart), width="stretch")
    # figures written for the interface language (« 42,5 % », « 3,20 »)
    st.dataframe(num_columns(df, percent=("p15", "seat1", "last_seat")).rename(columns=labels),
                 hide_index=True, width="stretch")
