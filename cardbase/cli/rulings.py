"""``cardbase games rulings GAME`` and ``cardbase sim rulings GAME``: the rulings and their weight."""

from __future__ import annotations

from pathlib import Path

import typer

from cardbase.cli.common import handle_errors, print_json
from cardbase.cli.drafts import draft_of, plays_drafts, rules_option, say_draft
from cardbase.cli.measures_report import check_measure_counts, measures_option, print_measures_table
from cardbase.i18n import fmt_num, fmt_pct, tr


def _value(v: object) -> str:
    if isinstance(v, bool):
        return tr("rulings.cli.true") if v else tr("rulings.cli.false")
    if isinstance(v, float):
        return fmt_num(v, None)
    return str(v)


@handle_errors
@plays_drafts
def rulings_command(
    game: str | None = typer.Argument(None, help="Game code (cardbase games list)."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
    rules_path: Path | None = rules_option(),
) -> None:
    """Every ruling of a game: code, title, text, option, default, allowed values, contested."""
    from cardbase.games import registry
    from cardbase.games.rulings import game_rulings

    spec = registry.get(game)
    rows = [r.as_dict() for r in game_rulings(spec.code)]
    draft = draft_of(spec.code)
    if json_out:
        print_json({"game": spec.code, "rulings": rows} | ({"draft": draft} if draft else {}))
        return
    say_draft(draft, played=False)
    if not rows:
        typer.echo(tr("rulings.cli.none", game=spec.code))
        return
    typer.echo(tr("rulings.cli.head", game=spec.code, count=len(rows),
                  contested=sum(1 for r in rows if r["contested"])))
    for r in rows:
        mark = tr("rulings.cli.contested") if r["contested"] else ""
        typer.echo(tr("rulings.cli.line", code=r["code"], title=r["title"], mark=mark))
        typer.echo("    " + r["text"])
        if r["option"]:
            allowed = ", ".join(_value(v) for v in r["allowed"]) if r["allowed"] else (
                f"{r['bounds'][0]}..{r['bounds'][1]}" if r["bounds"] else "—")
            typer.echo("    " + tr("rulings.cli.option", option=r["option"], default=_value(r["default"]),
                                   allowed=allowed))


def rules_line(rulings: list[dict]) -> str | None:
    """One line saying which contested or changed rulings a report rests on (None: no option)."""
    parts = [f"{r['code']} {r['option']}={_value(r['value'])}" + (" *" if r["changed"] else "")
             for r in rulings if r["contested"] or r["changed"]]
    if not parts:
        return None
    return tr("rulings.cli.in_force", rulings=", ".join(parts))


@handle_errors
@plays_drafts
def sim_rulings_command(
    game: str | None = typer.Argument(None, help="Game code (cardbase games list)."),
    players: int | None = typer.Option(None, "--players", "-p", help="Number of players."),
    bots: str = typer.Option("greedy", "--bots", "-b", help="One bot, or one per seat, comma-separated."),
    games: int = typer.Option(1000, "--games", "-n", help="Games per reading."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the batch (the same deals for every reading)."),
    only: str | None = typer.Option(None, "--only", help="Rulings to weigh, by code: OK2,PL6 (default: the contested ones)."),
    workers: int | None = typer.Option(None, "--workers", "-j", help="Worker processes."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
    scheduler: str | None = typer.Option(None, "--scheduler", envvar="CARDBASE_DASK_SCHEDULER",
                                         help="Dask scheduler address: run the games on that cluster."),
    deck: str | None = typer.Option(None, "--deck", help="NesPanini: deck A (default: the first starter deck)."),
    against: str | None = typer.Option(None, "--against", help="NesPanini: deck B (default: the second starter deck)."),
    measures_games: int = measures_option(100),
    rules_path: Path | None = rules_option(),
) -> None:
    """Play the same games under every reading of each contested ruling: how the figures move."""
    from cardbase.catalog import cards as catalog
    from cardbase.cli.common import session
    from cardbase.cli.batch_common import _executor, _progress
    from cardbase.errors import CardbaseError
    from cardbase.games import registry
    from cardbase.games.rulings import contested
    from cardbase.playtest.weights import weigh

    check_measure_counts(measures_games, 0, 0)
    spec = registry.playable(game)
    codes = [c for c in (only or "").split(",") if c.strip()] or None
    weighed = contested(spec.code, codes)  # an unknown code fails before any game is played
    if not weighed:
        raise CardbaseError(tr("rulings.cli.nothing", game=spec.code))
    bare = [r.code for r in weighed if not r.variants()]
    if codes and bare:  # asked by name, but nothing to play besides the default: say so, play nothing
        raise CardbaseError(tr("rulings.cli.no_readings", codes=", ".join(bare)))
    from cardbase.playtest.limits import check_sim

    readings = 1 + sum(len(r.variants()) for r in weighed)  # every reading plays the whole batch
    if spec.material != "box":  # NesPanini: one duel, deck A against deck B, every deal from both seats
        names = check_sim(games=games, min_games=2, runs=readings, unit="limits.unit.readings",
                          workers=workers, bots=bots, nespanini_bots=True)
        res = _weigh_duel(deck, against, names, games, seed, codes, workers, scheduler, json_out, measures_games)
    else:
        names = check_sim(games=games, runs=readings, unit="limits.unit.readings", workers=workers, bots=bots,
                          players=players, spec=spec)
        cards = []
        if not spec.own_cards:  # a game written as data may describe its own cards (data/rules/)
            with session() as s:
                cards = catalog.card_defs(s, game=spec.code)
        with _executor(scheduler, json_out) as ex, _progress(spec.code, not json_out) as progress:
            res = weigh(spec.code, cards, players=players, bots=names or None, games=games, seed=seed,
                        only=codes, workers=workers, executor=ex, progress=progress,
                        measures_games=measures_games)
    draft = draft_of(spec.code)
    if draft is not None:  # figures of a draft, not of the game the project ships
        res["draft"] = draft
    if json_out:
        print_json(res)
        return
    typer.echo(tr("rulings.cli.weight_head", game=spec.code, games=res["games"], players=res["players"],
                  seed=seed, bots=", ".join(res["bots"])))
    say_draft(draft)
    if res["variants"]:  # how a verdict is reached: the paired tests, corrected together (Holm)
        typer.echo(tr("rulings.cli.questions", tests=res.get("correction", {}).get("tests", 1)))
    typer.echo(tr("rulings.cli.baseline"))
    for side in res["baseline"]["seats"]:
        typer.echo("  " + _side(side, res["teams"]))
    from cardbase.games.rulesdata.register import rounds_go_around

    rounds_key = "rulings.cli.rounds_around" if rounds_go_around(res["game"]) else "rulings.cli.rounds"
    from cardbase.i18n import current_language
    from cardbase.playtest.verdict import verdict_text

    for v in res["variants"]:
        mark = verdict_text(v, res, lang=current_language())
        typer.echo(tr("rulings.cli.variant", code=v["ruling"], title=v["title"], option=v["option"],
                      value=_value(v["value"]), default=_value(v["default"]), mark=mark))
        for side in v["seats"]:
            lo, hi = side["delta_ci95"]
            typer.echo("  " + _side(side, res["teams"]) + "  " +
                       tr("rulings.cli.delta", delta=fmt_pct(side["delta"], signed=True),
                          lo=fmt_pct(lo, signed=True), hi=fmt_pct(hi, signed=True)))
        same, other = v.get("same_games"), v.get("same_moves_other_outcome") or 0
        if same is not None and same == res["games"]:
            hint = "" if all(b == "random" for b in res["bots"]) else tr("rulings.cli.same_hint")
            typer.echo("  " + tr("rulings.cli.same_all", games=res["games"], hint=hint))
        elif same is not None and same + other == res["games"]:
            typer.echo("  " + tr("rulings.cli.outcome_only", games=res["games"], other=other,
                                 rate=fmt_pct(other / res["games"])))
        else:
            if same:
                typer.echo("  " + tr("rulings.cli.same_some", same=same, games=res["games"],
                                     rate=fmt_pct(same / res["games"])))
            if other:
                typer.echo("  " + tr("rulings.cli.outcome_some", other=other, games=res["games"],
                                     rate=fmt_pct(other / res["games"])))
        typer.echo("  " + tr(rounds_key, rounds=_value(round(v["mean_rounds"], 2)),
                             delta=_value(round(v["delta_rounds"], 2))))
        if v["cards"]:
            typer.echo("  " + tr("rulings.cli.cards", cards=", ".join(
                f"{c['name']} {fmt_pct(c['delta'], signed=True)}" for c in v["cards"])))
    if res["baseline"].get("measures"):  # the measures of a good game under every reading
        print_measures_table(reading_points(res), row_key="reading",
                             head=tr("measures.readings_head", games=res["baseline"]["measures"]["games"]))


def reading_points(res: dict) -> list[dict]:
    """The measures of every reading of ``sim rulings`` as a table's points: the default readings,
    then each ruling's other reading (« R1 end_rule=turns »)."""
    return [{"value": tr("measures.reading_default"), "measures": res["baseline"]["measures"]}] + [
        {"value": f"{v['ruling']} {v['option']}={_value(v['value'])}", "measures": v["measures"]}
        for v in res["variants"] if v.get("measures")]


def _weigh_duel(deck: str | None, against: str | None, bots: list[str], games: int, seed: int,
                codes: list[str] | None, workers: int | None, scheduler: str | None, quiet: bool,
                measures_games: int = 0) -> dict:
    """``sim rulings nespanini``: the decks (starter decks by default), checked legal, then
    :func:`cardbase.playtest.weights.weigh_duel`."""
    from cardbase.catalog import cards as catalog
    from cardbase.cli.common import session
    from cardbase.cli.batch_common import _deck, _executor, _legality, _progress
    from cardbase.playtest.cards import starter_decks
    from cardbase.playtest.weights import weigh_duel

    starters = list(starter_decks())
    a_name, a_cards = _deck(deck or starters[0], None)
    b_name, b_cards = _deck(against or starters[1], None)
    _legality({a_name: a_cards, b_name: b_cards}, False, None)
    with session() as s:
        pool = catalog.card_defs(s, game="nespanini")
    pair = (bots[0], bots[-1]) if bots else ("greedy", "greedy")
    with _executor(scheduler, quiet) as ex, _progress("nespanini", not quiet) as progress:
        return weigh_duel(a_cards, b_cards, names=(a_name, b_name), bots=pair, games=games, seed=seed,
                          only=codes, pool=pool, workers=workers, executor=ex, progress=progress,
                          measures_games=measures_games)


def _side(side: dict, teams: bool) -> str:
    lo, hi = side["ci95"]
    if side["side"] == "first":  # NesPanini's first player
        return tr("rulings.cli.first", wins=side["wins"], rate=fmt_pct(side["win_rate"]), lo=fmt_pct(lo), hi=fmt_pct(hi))
    if not side["side"].isdigit() and not teams:  # a NesPanini deck
        return tr("rulings.cli.deck", side=side["side"], wins=side["wins"], rate=fmt_pct(side["win_rate"]),
                  lo=fmt_pct(lo), hi=fmt_pct(hi))
    key = "rulings.cli.team" if teams else "rulings.cli.seat"
    return tr(key, side=side["side"], wins=side["wins"], rate=fmt_pct(side["win_rate"]), lo=fmt_pct(lo),
              hi=fmt_pct(hi))
