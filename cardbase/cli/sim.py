"""``cardbase sim``: NesPanini playtests — goldfish, duels, round robins and the bot ladder."""

from __future__ import annotations

import functools
import io
import sys
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import typer

from cardbase.cli.batch_common import (  # noqa: F401 - the batch helpers
    _PLAYED_ILLEGAL,
    _deck,
    _executor,
    _legality,
    _progress,
)
from cardbase.cli.common import handle_errors, print_json
from cardbase.cli.drafts import draft_of, plays_drafts, rules_option, say_draft
from cardbase.cli.measures_report import (
    check_measure_counts,
    measures_option,
    outcome_option,
    print_sweep_measures,
    say_measures,
    search_option,
    skill_option,
)
from cardbase.errors import CardbaseError
from cardbase.i18n import fmt_num, fmt_pct, tr

# Help texts are read when the command line starts (language: CARDBASE_LANG); every output line
# is formatted when printed, in the current language (--lang).
app = typer.Typer(help=tr("engine.help.sim"), no_args_is_help=True)

GAMES = typer.Option(1000, "--games", "-n", help=tr("engine.help.games"))
SEED = typer.Option(0, "--seed", "-s", help=tr("engine.help.seed"))
JSON = typer.Option(False, "--json", help=tr("engine.help.json"))
RECORDS = typer.Option(None, "--records", help=tr("engine.help.records"))
WORKERS = typer.Option(None, "--workers", "-j", help=tr("engine.help.workers"))
EDITIONS = typer.Option(None, "--edition", "-e", help=tr("engine.help.edition"))
STALEMATE = typer.Option(10, "--stalemate-rounds", help=tr("engine.help.stalemate"))  # checked by Game (R10)
SCHEDULER = typer.Option(None, "--scheduler", envvar="CARDBASE_DASK_SCHEDULER",
                         help="Dask scheduler address (tcp://host:8786): run the games on that cluster.")
DECK_HELP = tr("engine.help.deck")
RULE = typer.Option(None, "--rule", help=tr("nespanini.help.rule"))  # rulings R1, R9, R10
ALLOW_ILLEGAL = typer.Option(False, "--allow-illegal", help=tr("nespanini.help.allow_illegal"))


# ---------------------------------------------------------------- rulings and legality of a batch


def _rules(rule: list[str] | None, stalemate_rounds: int) -> dict[str, Any]:
    """``--rule NAME=VALUE`` (repeatable) as the options of NesPanini's ``Game`` (every bad one at
    once, exit 2, before any deck is read); ``--stalemate-rounds`` unless a rule sets it."""
    from cardbase.games.rulings import parse_rules

    options = parse_rules("nespanini", rule)
    options.setdefault("stalemate_rounds", stalemate_rounds)
    return options


def _batch_rules(options: dict[str, Any], editions: list[Path] | None) -> tuple[int, dict[str, Any]]:
    """(stalemate rounds, the other options) for the batch functions; ruling R9 ``hidden`` adds the
    card pool its re-deals draw from: the NesPanini cards of the editions (``--edition``), else of
    the database."""
    rest = {k: v for k, v in options.items() if k != "stalemate_rounds"}
    if rest.get("deck_lists") == "hidden":
        if editions:
            from cardbase.playtest.cards import load_edition_defs

            rest["pool"] = [c for c in load_edition_defs(editions) if c.game == "nespanini"]
        else:
            from cardbase.catalog import reads
            from cardbase.cli.common import read

            rest["pool"] = read(lambda s: reads.card_defs(s, game="nespanini", for_print=False))
    return options["stalemate_rounds"], rest


def _marks_illegal(command):
    """A batch on an illegal deck says so on every line of its text report: each line but the
    warning itself starts with « [deck non conforme] » (the JSON report has ``illegal``)."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        token = _PLAYED_ILLEGAL.set(False)
        out = io.StringIO()
        try:
            with redirect_stdout(out):
                command(*args, **kwargs)
        finally:
            text = out.getvalue()
            if _PLAYED_ILLEGAL.get() and not kwargs.get("json_out"):
                mark = tr("nespanini.sim.illegal_mark")
                warning = tr("nespanini.sim.illegal", problems="").split(":")[0]
                text = "".join(line if not line.strip() or line.startswith(warning) else mark + line
                               for line in text.splitlines(keepends=True))
            _PLAYED_ILLEGAL.reset(token)
            sys.stdout.write(text)
            sys.stdout.flush()

    return run


def _in_force(options: dict[str, Any]) -> list[dict[str, Any]]:
    """JSON ``rulings``: the rulings' options in force."""
    from cardbase.games.rulings import in_force

    return in_force("nespanini", options)


def _say_rulings(options: dict[str, Any]) -> None:
    """One line naming the rulings whose option differs from the default."""
    changed = [r for r in _in_force(options) if r["changed"]]
    if changed:
        typer.echo(tr("nespanini.sim.rulings", rules=", ".join(
            f"{r['code']} {r['option']}={r['value']}" for r in changed)))


def _say_illegal(illegal: dict[str, list[str]]) -> None:
    """The report's mark of decks played although illegal (``--allow-illegal``)."""
    for problems in illegal.values():  # each problem names its deck
        typer.echo(tr("nespanini.sim.illegal", problems=" ; ".join(problems)))


def _say_coverage(summary: dict[str, Any]) -> None:
    for line in summary.get("coverage_warnings") or ():
        typer.echo(tr("nespanini.sim.coverage_warning", line=line))


def _ended(ended_by: dict[str, int], games: int) -> None:
    """How the games ended (ruling R10), and a warning when some did not end by the Cimetière."""
    from cardbase.games.nespanini import ENDINGS
    from cardbase.playtest.batch import not_by_cimetiere

    parts = [tr("engine.sim.ending_count", n=n, ending=tr(f"engine.ending.{k}") if k in ENDINGS else k)
             for k, n in ended_by.items() if n]
    typer.echo(tr("engine.sim.ended_by", detail=", ".join(parts)))
    off = not_by_cimetiere(ended_by)
    if off:
        typer.echo(tr("engine.sim.not_cimetiere", n=off, games=games), err=True)


def _table(df: Any) -> Any:
    """A report table with its column names (and yes/no values) in the current language."""
    out = df.rename(columns={c: tr(f"engine.col.{c}") for c in df.columns})
    for c in out.columns:
        if out[c].dtype == bool:
            out[c] = out[c].map({True: tr("engine.sim.yes"), False: tr("engine.sim.no")})
    return out


def _measures(decks: list, names: list[str], *, games: int, seed: int, bots: list[str], rounds: int,
              rules: dict[str, Any], skill_games: int, search_games: int, outcome_games: int,
              both_orders: bool = False) -> dict[str, Any] | None:
    """The measures of a good game of a NesPanini batch (None: ``--measures-games 0``): on its decks
    alone (goldfish), its two decks (deck A in seat 1), or every pair in both seat orders
    (``both_orders``: a round robin), the batch's rulings in force."""
    if not games:
        return None
    from cardbase.playtest.batch import measured_games
    from cardbase.playtest.measures import measures

    built = measured_games(decks, stalemate_rounds=rounds, rules=rules, both_orders=both_orders)
    m = measures(built, games=games, seed=seed, bots=bots, skill_games=skill_games,
                 search_games=search_games, outcome_games=outcome_games, code="nespanini")
    if both_orders:
        m["pool"] = len(built) // 2
    return {**m, "decks": list(names)}


@app.command("goldfish", help=tr("engine.help.goldfish"))
@handle_errors
@_marks_illegal
def goldfish_command(
    deck: str = typer.Argument(..., help=DECK_HELP),
    games: int = GAMES,
    bot: str = typer.Option("greedy", "--bot", "-b", help=tr("engine.help.bot")),
    seed: int = SEED,
    oracle_games: int = typer.Option(30, "--oracle-games", help=tr("engine.help.oracle_games")),
    swap_games: int = typer.Option(100, "--swap-games", help=tr("engine.help.swap_games")),
    json_out: bool = JSON,
    records: Path | None = RECORDS,
    workers: int | None = WORKERS,
    edition: list[Path] | None = EDITIONS,
    stalemate_rounds: int = STALEMATE,
    scheduler: str | None = SCHEDULER,
    rule: list[str] | None = RULE,
    allow_illegal: bool = ALLOW_ILLEGAL,
    measures_games: int = measures_option(),
    skill_games: int = skill_option(),
    search_games: int = search_option(),
    outcome_games: int = outcome_option(),
) -> None:
    """Play DECK alone N times: score distribution, oracle gap and per-card figures."""
    from cardbase.playtest.batch import goldfish, save_records
    from cardbase.playtest.limits import check_sim

    check_measure_counts(measures_games, skill_games, outcome_games, search_games)
    check_sim(games=games, counts={"--oracle-games": oracle_games, "--swap-games": swap_games},
              workers=workers, records=records, bots=bot, bots_option="--bot", single_bot=True,
              nespanini_bots=True, editions=edition)
    options = _rules(rule, stalemate_rounds)
    name, cards = _deck(deck, edition)
    illegal = _legality({name: cards}, allow_illegal, edition)
    rounds, rules = _batch_rules(options, edition)
    with _executor(scheduler, json_out) as ex, \
            _progress(tr("engine.sim.progress_goldfish", name=name), not json_out) as progress:
        rep = goldfish(cards, games=games, bot=bot, seed=seed, oracle_games=oracle_games,
                       swap_games=swap_games, workers=workers, progress=progress,
                       stalemate_rounds=rounds, executor=ex, rules=rules, illegal=illegal)
    if records:
        save_records(rep.records, records)
    measured = _measures([cards], [name], games=min(measures_games, games), seed=seed, bots=[bot],
                         rounds=rounds, rules=rules, skill_games=skill_games, search_games=search_games,
                         outcome_games=outcome_games)
    if json_out:
        print_json({"deck": name, **rep.to_dict(), "rulings": _in_force(options)}
                   | ({"measures": measured} if measured else {}))
        return
    s = rep.summary
    typer.echo(tr("engine.sim.goldfish_head", name=name, games=s["games"], bot=bot, seed=seed))
    _say_illegal(illegal)
    _say_rulings(options)
    _ended(s["ended_by"], s["games"])
    _say_coverage(s)
    typer.echo(tr("engine.sim.goldfish_mean", mean=fmt_num(s['mean']), std=fmt_num(s['std']),
                  min=s["min"], max=s["max"]))
    typer.echo(tr("engine.sim.percentiles",
                  values=", ".join(f"p{q}={v:g}" for q, v in s["percentiles"].items())))
    if s["oracle_mean_gap"] is not None:
        typer.echo(tr("engine.sim.oracle_gap", gap=fmt_num(s['oracle_mean_gap']),
                      games=s["oracle_games"], exact=s["oracle_exact"]))
    typer.echo("")
    _say_illegal(illegal)
    typer.echo(_table(rep.cards.drop(columns=["goldfish_blind"])).to_string(
        index=False, float_format=lambda v: fmt_num(v, 3)))
    blind = [tr("nespanini.sim.blind_card", card=r["card"], reasons=", ".join(
        tr(f"nespanini.blind.{x}") for x in r["goldfish_blind"]))
        for r in rep.cards.to_dict(orient="records") if r["goldfish_blind"]]
    if blind:
        typer.echo(tr("nespanini.sim.not_judged", cards=" ; ".join(blind)))
    if measured is not None:
        say_measures(measured)


@app.command("duel", help=tr("engine.help.duel"))
@handle_errors
@_marks_illegal
def duel_command(
    deck_a: str = typer.Argument(..., help=tr("engine.help.deck_a", deck=DECK_HELP)),
    deck_b: str = typer.Argument(..., help=tr("engine.help.deck_b")),
    games: int = GAMES,
    bots: str = typer.Option("greedy,greedy", "--bots", help=tr("engine.help.bots")),
    seed: int = SEED,
    json_out: bool = JSON,
    records: Path | None = RECORDS,
    workers: int | None = WORKERS,
    edition: list[Path] | None = EDITIONS,
    stalemate_rounds: int = STALEMATE,
    scheduler: str | None = SCHEDULER,
    rule: list[str] | None = RULE,
    allow_illegal: bool = ALLOW_ILLEGAL,
    measures_games: int = measures_option(),
    skill_games: int = skill_option(),
    search_games: int = search_option(),
    outcome_games: int = outcome_option(),
) -> None:
    """DECK_A against DECK_B, seats swapped on the same seeds, Wilson 95 % intervals."""
    from cardbase.playtest.batch import duel, save_records
    from cardbase.playtest.limits import check_sim

    check_measure_counts(measures_games, skill_games, outcome_games, search_games)

    parts = check_sim(games=games, min_games=2, workers=workers, records=records, bots=bots,
                      nespanini_bots=True, editions=edition)
    options = _rules(rule, stalemate_rounds)
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2:
        raise CardbaseError(tr("engine.sim.bots_format", bots=bots))
    na, a = _deck(deck_a, edition)
    nb, b = _deck(deck_b, edition)
    illegal = _legality({na: a, nb: b}, allow_illegal, edition)
    rounds, rules = _batch_rules(options, edition)
    with _executor(scheduler, json_out) as ex, \
            _progress(tr("engine.sim.progress_duel", a=na, b=nb), not json_out) as progress:
        rep = duel(a, b, games=games, bots=(parts[0], parts[1]), seed=seed, workers=workers,
                   names=(na, nb), progress=progress, stalemate_rounds=rounds, executor=ex,
                   rules=rules, illegal=illegal)
    if records:
        save_records(rep.records, records)
    s = rep.summary
    # the measures of a good game, on the batch's first deals (deck A in seat 1)
    measured = _measures([a, b], [na, nb], games=min(measures_games, games), seed=seed, bots=list(parts),
                         rounds=rounds, rules=rules, skill_games=skill_games, search_games=search_games,
                         outcome_games=outcome_games)
    if json_out:
        print_json({**s, "rulings": _in_force(options)} | ({"measures": measured} if measured else {}))
        return
    lo, hi = s["ci95"]
    typer.echo(tr("engine.sim.duel_head", a=na, bot_a=parts[0], b=nb, bot_b=parts[1],
                  games=s["games"], seed=seed))
    _say_illegal(illegal)
    _say_rulings(options)
    _ended(s["ended_by"], s["games"])
    _say_coverage(s)
    typer.echo(tr("engine.sim.duel_wtl", wins=s["wins"], ties=s["ties"], losses=s["losses"]))
    typer.echo(tr("engine.sim.duel_rate", rate=fmt_pct(s["win_rate"]), lo=fmt_pct(lo), hi=fmt_pct(hi)))
    fp = s["first_player"]
    if fp["win_rate"] is None:
        typer.echo(tr("nespanini.sim.first_none", ties=fp["ties"]))
    else:
        typer.echo(tr("nespanini.sim.first", rate=fmt_pct(fp["win_rate"]), lo=fmt_pct(fp["ci95"][0]),
                      hi=fmt_pct(fp["ci95"][1]), wins=fp["wins"], decided=fp["decided"], ties=fp["ties"]))
    for seat in ("first", "second"):
        r = s["seats"][seat]
        if r["win_rate"] is not None:
            typer.echo(tr(f"nespanini.sim.seat_{seat}", deck=na, rate=fmt_pct(r["win_rate"]),
                          lo=fmt_pct(r["ci95"][0]), hi=fmt_pct(r["ci95"][1]), wins=r["wins"],
                          decided=r["decided"], ties=r["ties"]))
    typer.echo(tr("engine.sim.duel_margin", margin=("+" if s['mean_margin'] >= 0 else "") + fmt_num(s['mean_margin']),
                  a=fmt_num(s['mean_score_a']), b=fmt_num(s['mean_score_b'])))
    if measured is not None:
        say_measures(measured)


@app.command("roundrobin", help=tr("engine.help.roundrobin"))
@handle_errors
@_marks_illegal
def roundrobin_command(
    decks: list[str] = typer.Argument(None, help=tr("engine.help.rr_decks")),
    games: int = typer.Option(400, "--games", "-n", help=tr("engine.help.games_per_pair")),
    bots: str = typer.Option("greedy", "--bot", "-b", help=tr("engine.help.rr_bot")),
    seed: int = SEED,
    json_out: bool = JSON,
    workers: int | None = WORKERS,
    edition: list[Path] | None = EDITIONS,
    stalemate_rounds: int = STALEMATE,
    scheduler: str | None = SCHEDULER,
    rule: list[str] | None = RULE,
    allow_illegal: bool = ALLOW_ILLEGAL,
    measures_games: int = measures_option(),
    skill_games: int = skill_option(),
    search_games: int = search_option(),
    outcome_games: int = outcome_option(),
) -> None:
    """Every deck against every other: win-rate matrix and a rating per deck."""
    from cardbase.playtest.batch import roundrobin
    from cardbase.playtest.cards import starter_decks
    from cardbase.playtest.limits import check_sim

    check_measure_counts(measures_games, skill_games, outcome_games, search_games)
    options = _rules(rule, stalemate_rounds)
    specs = list(decks or starter_decks())
    check_sim(games=games, min_games=2, runs=len(specs) * (len(specs) - 1) // 2, unit="limits.unit.pairs",
              workers=workers, bots=bots, bots_option="--bot", single_bot=True, nespanini_bots=True,
              editions=edition)
    loaded = dict(_deck(d, edition) for d in specs)
    illegal = _legality(loaded, allow_illegal, edition)
    rounds, rules = _batch_rules(options, edition)
    with _executor(scheduler, json_out) as ex, \
            _progress(tr("engine.sim.progress_rr"), not json_out) as progress:
        rep = roundrobin(loaded, games=games, bots=(bots, bots), seed=seed, workers=workers,
                         progress=progress, stalemate_rounds=rounds, executor=ex, rules=rules,
                         illegal=illegal)
    # the measures of a good game of the tournament: its games spread over every pair of decks,
    # both seat orders (as many as the batch played at most)
    total = sum(rep.ended_by.values())
    measured = _measures(list(loaded.values()), list(loaded), games=min(measures_games, total), seed=seed,
                         bots=[bots, bots], rounds=rounds, rules=rules, skill_games=skill_games,
                         search_games=search_games, outcome_games=outcome_games, both_orders=True)
    if json_out:
        print_json({**rep.to_dict(), "rulings": _in_force(options)}
                   | ({"measures": measured} if measured else {}))
        return
    typer.echo(tr("engine.sim.rr_head", decks=len(loaded), games=total, seed=seed))
    _say_illegal(illegal)
    _say_rulings(options)
    _ended(rep.ended_by, total)
    _say_coverage(rep.to_dict())
    typer.echo(tr("engine.sim.rr_matrix"))
    typer.echo(rep.matrix.to_string(float_format=lambda v: fmt_num(v, 3), na_rep="—"))
    typer.echo("")
    typer.echo(_table(rep.ratings).to_string(index=False))
    if measured is not None:
        say_measures(measured)


@app.command("ladder", help=tr("engine.help.ladder"))
@handle_errors
@_marks_illegal
def ladder_command(
    deck: str = typer.Argument(None, help=tr("engine.help.ladder_deck")),
    games: int = typer.Option(200, "--games", "-n", help=tr("engine.help.games_per_rung")),
    seed: int = SEED,
    json_out: bool = JSON,
    workers: int | None = WORKERS,
    edition: list[Path] | None = EDITIONS,
    stalemate_rounds: int = STALEMATE,
    scheduler: str | None = SCHEDULER,
    rule: list[str] | None = RULE,
    allow_illegal: bool = ALLOW_ILLEGAL,
    measures_games: int = measures_option(),
    skill_games: int = skill_option(),
    search_games: int = search_option(),
    outcome_games: int = outcome_option(),
) -> None:
    """Each bot against the one below: random < greedy < mc < ismcts, mirror matches."""
    from cardbase.playtest.batch import LADDER, ladder
    from cardbase.playtest.cards import starter_decks
    from cardbase.playtest.limits import check_sim

    check_measure_counts(measures_games, skill_games, outcome_games, search_games)
    check_sim(games=games, min_games=2, runs=len(LADDER) - 1, unit="limits.unit.rungs", workers=workers,
              editions=edition)
    options = _rules(rule, stalemate_rounds)
    if deck is None:
        starters = starter_decks()
        if not starters:
            raise CardbaseError(tr("engine.sim.no_starter"))
        deck = next(iter(starters))
    name, cards = _deck(deck, edition)
    illegal = _legality({name: cards}, allow_illegal, edition)
    rounds, rules = _batch_rules(options, edition)
    with _executor(scheduler, json_out) as ex, \
            _progress(tr("engine.sim.progress_ladder", name=name), not json_out) as progress:
        df = ladder(cards, games=games, seed=seed, workers=workers, progress=progress,
                    stalemate_rounds=rounds, executor=ex, rules=rules, illegal=illegal)
    # the measures of a good game of the mirror match, greedy in both seats (the rungs above are
    # the skill gap of every level)
    measured = _measures([cards, cards], [name, name], games=min(measures_games, games), seed=seed,
                         bots=["greedy", "greedy"], rounds=rounds, rules=rules, skill_games=skill_games,
                         search_games=search_games, outcome_games=outcome_games)
    if json_out:
        from cardbase.playtest.batch import ended_counts

        ended = ended_counts(k for e in df["ended_by"] for k, n in e.items() for _ in range(n))
        print_json({"deck": name, "games": games, "seed": seed, "stalemate_rounds": rounds,
                    "ended_by": ended, "rungs": df.to_dict(orient="records"),
                    "illegal": bool(illegal), "illegal_decks": illegal, "rulings": _in_force(options)}
                   | ({"measures": measured} if measured else {}))
        return
    typer.echo(tr("engine.sim.ladder_head", name=name, seed=seed))
    _say_illegal(illegal)
    _say_rulings(options)
    typer.echo(_table(df.drop(columns=["ended_by", "illegal"])).to_string(
        index=False, float_format=lambda v: fmt_num(v, 3)))
    for _, row in df.iterrows():
        typer.echo(tr("engine.sim.ladder_rung", level=row["level"], against=row["against"]))
        _say_illegal(illegal)
        _ended(row["ended_by"], row["games"])
    if measured is not None:
        say_measures(measured)


@app.command("sweep", help="Sweep one field of a card over a range of values, on the same deals.")
@handle_errors
@plays_drafts(required=False)
@_marks_illegal
def sweep_command(
    deck: str = typer.Argument(None, help=DECK_HELP),
    card: str = typer.Option(..., "--card", "-c", help="Card reference or name."),
    field: str = typer.Option("value", "--field", "-f", help="value, copies, score or a stats figure."),
    values: str = typer.Option(..., "--values", "-v", help="1..9, 1..9/2 or 1,3,5."),
    against: str | None = typer.Option(None, "--against", "-a", help="Opposing deck."),
    goldfish: bool = typer.Option(False, "--goldfish", help="Solitaire games."),
    game: str | None = typer.Option(None, "--game", "-g", help="A box game code."),
    games: int = GAMES,
    seed: int = SEED,
    bots: str = typer.Option("greedy", "--bots", "-b", help="Bots, comma-separated."),
    players: int | None = typer.Option(None, "--players", "-p", help="Players of a box game."),
    json_out: bool = JSON,
    workers: int | None = WORKERS,
    edition: list[Path] | None = EDITIONS,
    stalemate_rounds: int = STALEMATE,
    scheduler: str | None = SCHEDULER,
    rule: list[str] | None = RULE,
    allow_illegal: bool = ALLOW_ILLEGAL,
    measures_games: int = measures_option(100),
    skill_games: int = skill_option(),
    search_games: int = search_option(),
    outcome_games: int = outcome_option(),
    rules_path: Path | None = rules_option(),
) -> None:
    """One card's field at every value of a range: win rate, its interval and mean score."""
    from cardbase.games import registry
    from cardbase.playtest.limits import check_sim
    from cardbase.playtest.sweep import parse_values, sweep

    check_measure_counts(measures_games, skill_games, outcome_games, search_games)
    vals = parse_values(values)  # a bad range fails before any deck is read
    spec = registry.playable(game) if game is not None else None
    names = check_sim(games=games, min_games=2 if against is not None else 1, runs=len(vals),
                      unit="limits.unit.values", workers=workers, bots=bots, nespanini_bots=game is None,
                      players=players, spec=spec, players_allowed=game is not None,
                      copies=vals if field == "copies" else None, editions=edition)
    np_options = _rules(rule, stalemate_rounds) if game is None else {}
    kwargs: dict[str, Any] = {}
    if spec is not None:
        if deck is not None or against is not None or goldfish:
            raise CardbaseError(tr("dask.sweep.deck_and_game", deck=deck or "--against/--goldfish"))
        from cardbase.games.rulings import parse_rules

        options = parse_rules(spec.code, rule)
        if edition:
            from cardbase.playtest.cards import load_edition_defs

            cards = [c for c in load_edition_defs(edition) if c.game == spec.code]
        else:
            from cardbase.catalog import reads
            from cardbase.cli.common import read

            cards = read(lambda s: reads.card_defs(s, game=spec.code, for_print=False))
        kwargs = {"game": spec.code, "cards": cards, "players": players, "options": options}
        label = {"game": spec.code}
        draft = draft_of(spec.code)
        if draft is not None:  # figures of a draft, not of the game the project ships
            label["draft"] = draft
    else:
        if deck is None:
            raise CardbaseError(tr("dask.sweep.no_deck"))
        if against is not None and goldfish:
            raise CardbaseError(tr("dask.sweep.against_and_goldfish"))
        name, cards = _deck(deck, edition)
        label = {"deck": name}
        named = {name: cards}
        if against is not None:
            aname, acards = _deck(against, edition)
            label["against"] = aname
            named[aname] = acards
        illegal = _legality(named, allow_illegal, edition)
        rounds, np_rules = _batch_rules(np_options, edition)
        kwargs = {"deck_name": name, "stalemate_rounds": rounds, "options": np_rules}
        if against is not None:
            kwargs["against"] = acards
        label.update({"illegal": bool(illegal), "illegal_decks": illegal,
                      "rulings": _in_force(np_options)})
    with _executor(scheduler, json_out) as ex, \
            _progress(tr("dask.sweep.progress", card=card, field=field), not json_out) as progress:
        res = sweep(cards if game is None else None, card=card, field=field, values=vals, games=games,
                    seed=seed, bots=names, executor=ex, workers=workers, progress=progress,
                    measures_games=measures_games, skill_games=skill_games, search_games=search_games,
                    outcome_games=outcome_games, **kwargs)
    res = {**label, **res}
    if json_out:
        print_json(res)
        return
    head = {"game": "dask.sweep.head_game", "duel": "dask.sweep.head_duel"}.get(res["mode"],
                                                                            "dask.sweep.head_goldfish")
    typer.echo(tr(head, name=res["name"], card=res["card"], field=field, deck=label.get("deck", ""),
                  against=label.get("against", ""), game=res.get("game", ""),
                  players=res.get("players", ""), games=res["games"], seed=seed))
    say_draft(label.get("draft"))
    _say_illegal(label.get("illegal_decks") or {})
    if game is None:
        _say_rulings(np_options)
    for p in res["points"]:
        lo, hi = p["ci95"]
        score = "—" if p["mean_score"] is None else fmt_num(p['mean_score'])
        if p["win_rate"] is None:
            typer.echo(tr("dask.sweep.point_goldfish", value=p["value"], score=score,
                          lo=fmt_num(lo), hi=fmt_num(hi)))
        else:
            typer.echo(tr("dask.sweep.point", value=p["value"], rate=fmt_pct(p["win_rate"]), lo=fmt_pct(lo),
                          hi=fmt_pct(hi), score=score))
    if res["mode"] != "goldfish":
        typer.echo(tr("dask.sweep.crossing", value=fmt_num(res['crossing'])) if res["crossing"] is not None
                   else tr("dask.sweep.no_crossing"))
    print_sweep_measures(res)


# ``cardbase sim game``: every box game of the registry (OVERKILL…), see cardbase/cli/games.py.
from cardbase.cli.games import sim_game_command as _sim_game_command  # noqa: E402

app.command("game")(_sim_game_command)

# ``cardbase sim rulings``: each contested ruling's weight (cardbase/cli/rulings.py).
from cardbase.cli.rulings import sim_rulings_command as _sim_rulings_command  # noqa: E402

app.command("rulings")(_sim_rulings_command)

# ``cardbase sim measures``: the measures of a good game written as data (cardbase/cli/rulesdata.py).
from cardbase.cli.rulesdata import measures_command as _measures_command  # noqa: E402

app.command("measures")(_measures_command)
