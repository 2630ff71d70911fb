"""``cardbase games list|show|add|edit`` and ``cardbase sim game``: the games, as data and as engines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from cardbase.cli.common import handle_errors, print_json
from cardbase.cli.drafts import draft_of, plays_drafts, rules_option, say_draft
from cardbase.cli.measures_report import (
    check_measure_counts,
    measures_option,
    outcome_option,
    say_measures,
    search_option,
    skill_option,
)
from cardbase.i18n import fmt_num, fmt_pct, tr

app = typer.Typer(help="The games in the database and which ones can be played.", no_args_is_help=True)


@app.command("list")
@handle_errors
def list_command(json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Every game: players, whether it has an engine and plays in teams."""
    from sqlmodel import select

    from cardbase.cli.common import session
    from cardbase.games import registry
    from cardbase.storage.models import Game

    with session() as s:
        games = [(g.code, g.name, g.min_players, g.max_players) for g in s.exec(select(Game).order_by(Game.code))]
    rows = []
    for code, name, lo, hi in games:
        spec = registry.REGISTRY.get(code)
        rows.append({"code": code, "name": name, "min_players": lo, "max_players": hi,
                     "engine": bool(spec and spec.engine), "teams": bool(spec and spec.teams),
                     "rules_file": spec.rules_file if spec else None, "in_database": True})
    listed = {r["code"] for r in rows}
    for code, spec in sorted(registry.REGISTRY.items()):  # a rules file's game not in the database yet
        if code not in listed:
            rows.append({"code": code, "name": spec.title or code, "min_players": spec.min_players,
                         "max_players": spec.max_players, "engine": bool(spec.engine), "teams": bool(spec.teams),
                         "rules_file": spec.rules_file, "in_database": False})
    if json_out:
        print_json(rows)
        return
    for r in rows:
        lo, hi = r["min_players"], r["max_players"]
        typer.echo(tr("games.cli.line", code=r["code"], name=r["name"],
                      players=tr("games.cli.players_one", n=lo) if lo == hi else
                      tr("games.cli.players_range", min=lo, max=hi),
                      engine=(tr("games.cli.engine_no") if not r["engine"] else
                              tr("games.cli.engine_yes") if not r["rules_file"] else
                              tr("games.cli.rules_yes") if r["in_database"] else
                              tr("games.cli.rules_not_in_db", code=r["code"])),
                      teams=tr("games.cli.teams") if r["teams"] else ""))


@app.command("show")
@handle_errors
def show_command(
    code: str = typer.Argument(..., help="Game code."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """One game: players, deck rules, template, declared card fields and version."""
    from cardbase.catalog import gamesdata
    from cardbase.cli.common import session

    with session() as s:
        data = gamesdata.game_dict(gamesdata.get_game(s, code))
    _print_game(data, json_out)


@app.command("add")
@handle_errors
def add_command(
    code: str = typer.Argument(..., help="Code of the new game (lower case, e.g. monjeu)."),
    name: str = typer.Option(..., "--name", help="Name of the game."),
    players: str = typer.Option(..., "--players", help="Players, MIN-MAX (2-4) or one number."),
    deck_size: int | None = typer.Option(None, "--deck-size", help="Cards in a constructed deck."),
    copy_limit: int | None = typer.Option(None, "--copy-limit", help="Most copies of a card name in a deck."),
    keyword_limit: list[str] = typer.Option([], "--keyword-limit", help="KEYWORD=N: copy limit of cards with that keyword (repeatable)."),
    template: str | None = typer.Option(None, "--template", help="Card template (a name in card_templates/)."),
    field: list[str] = typer.Option([], "--field", help="Declared card field NAME:TYPE[:MIN..MAX][:required] (repeatable)."),
    description: str | None = typer.Option(None, "--description", help="Description of the game."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Create a game with its deck rules, card template and card fields."""
    from cardbase.catalog import gamesdata
    from cardbase.cli.common import session
    from cardbase.errors import ValidationError

    lo, hi, problems = gamesdata.parse_players(players)
    limits, more = gamesdata.parse_keyword_limits(keyword_limit)
    problems += more
    values = {"code": code, "name": name, "min_players": lo, "max_players": hi,
              "deck_size": deck_size, "copy_limit": copy_limit, "keyword_limits": limits,
              "template": template, "fields": list(field), "description": description}
    with session() as s:
        _, more = gamesdata.new_game_problems(s, **values)
        problems = [p for p in problems] + [p for p in more if p not in problems]
        if problems:
            raise ValidationError(tr("gamesdata.not_created", code=code, count=len(problems)), problems)
        game = gamesdata.create_game(s, **values)
        data = gamesdata.game_dict(game)
    if not json_out:
        typer.echo(tr("gamesdata.cli.created", code=data["code"], name=data["name"]))
    _print_game(data, json_out)


@app.command("edit")
@handle_errors
def edit_command(
    code: str = typer.Argument(..., help="Game code."),
    version: int = typer.Option(..., "--version", help="Version you start from (games show CODE)."),
    set_: list[str] = typer.Option(..., "--set", help="SETTING=VALUE (repeatable): name, players, deck_size, copy_limit, keyword_limits, template, fields, fields+=SPEC, fields-=NAME, rules_file, description."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Change a game; refused if someone saved it since --version."""
    from cardbase.catalog import gamesdata
    from cardbase.cli.common import session
    from cardbase.errors import ValidationError

    with session() as s:
        game = gamesdata.get_game(s, code)
        changes, problems = gamesdata.setting_changes(game, set_)
        if problems:
            raise ValidationError(tr("gamesdata.not_saved", code=game.code, count=len(problems)), problems)
        game = gamesdata.update_game(s, code=code, expected_version=version, changes=changes)
        data = gamesdata.game_dict(game)
    if not json_out:
        typer.echo(tr("gamesdata.cli.saved", code=data["code"], version=data["version"]))
    _print_game(data, json_out)


def _print_game(data: dict, json_out: bool) -> None:
    from cardbase.catalog.gamesdata import FieldDecl

    if json_out:
        print_json(data)
        return
    lo, hi = data["min_players"], data["max_players"]
    players = "—" if lo is None else (tr("games.cli.players_one", n=lo) if lo == hi else
                                      tr("games.cli.players_range", min=lo, max=hi))
    typer.echo(tr("gamesdata.cli.game", code=data["code"], name=data["name"], players=players,
                  version=data["version"]))
    if data["deck_size"] is None:
        typer.echo("  " + tr("gamesdata.cli.no_deck"))
    else:
        limits = ", ".join(f"{k} {v}" for k, v in data["keyword_limits"].items())
        typer.echo("  " + tr("gamesdata.cli.deck", size=data["deck_size"],
                             copies=data["copy_limit"] if data["copy_limit"] is not None else "—",
                             limits=limits or "—"))
    typer.echo("  " + tr("gamesdata.cli.template", template=data["template"] or data["code"]))
    for raw in data["fields"]:
        decl = FieldDecl(**{k: tuple(v) if k == "choices" else v for k, v in raw.items()})
        typer.echo("  " + tr("gamesdata.cli.field", spec=decl.spec))


@handle_errors
@plays_drafts
def sim_game_command(
    game: str | None = typer.Argument(None, help="Game code (cardbase games list)."),
    players: int | None = typer.Option(None, "--players", "-p", help="Number of players."),
    bots: str = typer.Option("greedy", "--bots", "-b", help="One bot, or one per seat, comma-separated."),
    games: int = typer.Option(1000, "--games", "-n", help="Number of games."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the batch."),
    workers: int | None = typer.Option(None, "--workers", "-j", help="Worker processes."),
    records: Path | None = typer.Option(None, "--records", help="Write one JSON line per game."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
    scheduler: str | None = typer.Option(None, "--scheduler", envvar="CARDBASE_DASK_SCHEDULER",
                                         help="Dask scheduler address: run the games on that cluster."),
    rule: list[str] | None = typer.Option(None, "--rule", help="NAME=VALUE (repeatable): a ruling's option (cardbase games rulings GAME)."),
    measures_games: int = measures_option(),
    skill_games: int = skill_option(),
    search_games: int = search_option(),
    outcome_games: int = outcome_option(),
    log: int = typer.Option(0, "--log", help=tr("games.help.log")),
    seat: int | None = typer.Option(None, "--seat", help=tr("games.help.seat")),
    rules_path: Path | None = rules_option(),
) -> None:
    """Play N games of a box game (OVERKILL…, or a game written as data) with bots: seats, ties,
    endings, rule coverage and, for a game that follows each seat's cards, each card's impact (a
    game written as data: how often the bots take it when it is offered, and the wins of those who
    took it)."""
    import json
    import os

    from cardbase.catalog import reads
    from cardbase.cli.common import read
    from cardbase.games import registry
    from cardbase.games.rulings import parse_rules
    from cardbase.playtest.games import simulate
    from cardbase.playtest.limits import check_sim, log_problems, raise_problems

    spec = registry.playable(game)
    names = check_sim(games=games, workers=workers, records=records, bots=bots, players=players, spec=spec)
    check_measure_counts(measures_games, skill_games, outcome_games, search_games)
    raise_problems(log_problems(log, seat, games))
    options = parse_rules(spec.code, rule)  # a bad --rule fails before any card is read
    cards = []
    if not spec.own_cards:  # a game written as data may describe its own cards (data/rules/)
        cards = read(lambda s: reads.card_defs(s, game=spec.code, for_print=False))
    built = _logged_game(spec, cards, players, names, games, options, log, seat)
    if workers is None:  # one process for small batches, one per core for large ones
        workers = (os.cpu_count() or 1) if games >= 2000 else 1
    from cardbase.cli.batch_common import _executor, _progress

    with _executor(scheduler, json_out) as ex, _progress(spec.code, not json_out) as progress:
        rep, recs = simulate(spec.code, cards, players=players, bots=names, games=games, seed=seed,
                             workers=workers, executor=ex, progress=progress, options=options)
    if records:
        with records.open("w", encoding="utf-8") as fh:
            for i, r in enumerate(recs):
                fh.write(json.dumps({"game": i, "returns": list(r.returns), "teams": list(r.teams), "turns": r.turns,
                                     "rounds": r.rounds, "ended_by": r.ended_by,
                                     "held": [sorted(h) for h in r.held]}, ensure_ascii=False) + "\n")
    data = rep.as_dict()
    solo = data.get("seat_win_rates") is False  # a solo batch: its score distribution, no win rate
    if solo:
        data["seats"] = [{"seat": x["seat"], "bot": x["bot"]} for x in data["seats"]]
    measured = None
    if measures_games:  # the measures of a good game, for every game (a solo game: those that apply)
        from cardbase.playtest.measures import measures

        assert spec.build is not None
        measured = measures(spec.build(cards, rep.players, **options), games=min(measures_games, games),
                            seed=seed, bots=list(rep.bots), skill_games=skill_games,
                            search_games=search_games, outcome_games=outcome_games, code=spec.code)
        data["measures"] = measured
    logs = _logs(built, log, seed, rep.bots, seat)
    if logs:
        data["logs"] = logs
    draft = draft_of(spec.code)
    if draft is not None:  # figures of a draft, not of the game the project ships
        data["draft"] = draft
    if json_out:
        print_json(data)
        return
    for one in logs:  # the logs first: the batch's summary stays at the end, in sight
        _say_log(one, built)
    typer.echo(tr("games.cli.head", game=spec.code, games=rep.games, players=rep.players, seed=seed))
    say_draft(draft)
    from cardbase.cli.rulings import rules_line

    line = rules_line(rep.rulings)
    if line:
        typer.echo(line)
    for seat in [] if solo else rep.seats:
        lo, hi = seat["ci95"]
        team = tr("games.cli.seat_team", team=seat["team"]) if seat.get("team") else ""
        typer.echo(tr("games.cli.seat", seat=seat["seat"], bot=seat["bot"], team=team, wins=seat["wins"],
                      rate=fmt_pct(seat["win_rate"], unit=False), lo=fmt_pct(lo, unit=False), hi=fmt_pct(hi, unit=False)))
        if rep.ties and seat.get("win_rate_decided") is not None and not rep.teams:
            dlo, dhi = seat["ci95_decided"]
            typer.echo("  " + tr("games.cli.seat_decided", wins=seat["wins_decided"], decided=seat["decided"],
                                 rate=fmt_pct(seat["win_rate_decided"], unit=False), lo=fmt_pct(dlo, unit=False), hi=fmt_pct(dhi, unit=False)))
    for name, team in (rep.teams or {}).items():
        lo, hi = team["ci95"]
        typer.echo(tr("games.cli.team", team=name, seats=", ".join(map(str, team["seats"])),
                      count=len(team["seats"]), wins=team["wins"], rate=fmt_pct(team["win_rate"], unit=False), lo=fmt_pct(lo, unit=False), hi=fmt_pct(hi, unit=False)))
    if not solo:
        from cardbase.games.rulesdata.register import rounds_go_around

        summary = "games.cli.summary_around" if rounds_go_around(spec.code) else "games.cli.summary"
        typer.echo(tr(summary, ties=rep.ties, turns=fmt_num(rep.mean_turns, 1),
                      rounds=fmt_num(rep.mean_rounds, 2)))
    typer.echo(tr("games.cli.ended", detail=", ".join(tr("games.cli.ended_item", how=_ending(k, built, spec.code), n=v)
                                                      for k, v in rep.ended_by.items())))
    if rep.cards and "offered" in rep.cards[0]:  # a rules file's game: the cards the bots chose
        _say_choices(rep.cards, rep.bots)
    elif rep.cards:
        typer.echo(tr("games.cli.cards_head"))
        for c in sorted(rep.cards, key=lambda c: -c["win_rate_held"]):
            lo, hi = c["ci95_held"]
            typer.echo(tr("games.cli.card", ref=c["ref"], name=c["name"], held=c["games_held"],
                          rate=fmt_pct(c["win_rate_held"], unit=False), lo=fmt_pct(lo, unit=False), hi=fmt_pct(hi, unit=False),
                          other=fmt_pct(c["win_rate_not_held"], unit=False)))
    for line in rep.extra_lines:  # a game's own figures (Overseers: the Leader, the colours)
        typer.echo(line)
    from cardbase.playtest.coverage import tallies

    counted = {k: [v["occasions"], v["used"]] for k, v in (rep.coverage or {}).items()}
    for line in tallies(rep.game, counted):  # a rules file's [[coverage]]: a bluff's share
        typer.echo(line)
    for line in rep.coverage_warnings:  # a rulebook rule the bots almost never used
        typer.echo(line, err=True)
    if measured is not None:
        say_measures(measured)


TOP_CARDS = 12  # the cards a rules file's batch names in its text (all are in --json)


def _say_choices(cards: list[dict[str, Any]], bots: list[str]) -> None:
    """A rules file's cards in the text: the most telling by their effect (wins when taken
    against wins otherwise), what the figures mean, the never-taken after."""
    top = sorted(cards, key=lambda c: (c["effect"] is None, -abs(c["effect"] or 0.0), c["name"]))[:TOP_CARDS]
    typer.echo(tr("games.cli.choices_head", bots=", ".join(dict.fromkeys(bots)), shown=len(top),
                  total=len(cards)))
    typer.echo(tr("games.cli.choices_meaning"))
    for c in top:
        if not c["taken"]:
            typer.echo(tr("games.cli.choice_never", name=c["name"], offered=c["offered"]))
            continue
        lo, hi = c["ci95_take"]
        wlo, whi = c["ci95_held"]
        olo, ohi = c["ci95_not_held"]
        wins = tr("games.cli.choice_all") if c["effect"] is None else tr(
            "games.cli.choice_wins", won=fmt_pct(c["win_rate_held"], unit=False), wlo=fmt_pct(wlo, unit=False),
            whi=fmt_pct(whi, unit=False), held=c["games_held"], other=fmt_pct(c["win_rate_not_held"], unit=False),
            olo=fmt_pct(olo, unit=False), ohi=fmt_pct(ohi, unit=False), others=c["games_not_held"],
            effect=fmt_pct(c["effect"], signed=True))
        typer.echo(tr("games.cli.choice", name=c["name"], offered=c["offered"], taken=c["taken"],
                      rate=fmt_pct(c["take_rate"], unit=False), lo=fmt_pct(lo, unit=False),
                      hi=fmt_pct(hi, unit=False), wins=wins))
    if len(cards) > len(top):
        typer.echo(tr("games.cli.choices_more", n=len(cards) - len(top)))


def _ending(key: str, game: Any = None, code: str | None = None) -> str:
    """How a game ended, in words: a rules file's ending by its label (from the game played, or
    from the rules file of the game ``code`` when no game was built), a hand-written engine's by
    its text (an ending without either is shown as its code)."""
    from cardbase.playtest.coverage import ending_words

    label = getattr(game, "ending_label", None)
    return (label(key) if label is not None else None) or ending_words(key, code)


def _logged_game(spec: Any, cards: list, players: int | None, bots: list[str], games: int,
                 options: dict[str, Any], log: int, seat: int | None) -> Any:
    """The game the batch plays (None without ``--log``), once ``--seat`` is known to be one of
    its seats and its log known to be printable — before any game is played."""
    if not log:
        return None
    from cardbase.errors import CardbaseError
    from cardbase.games import registry
    from cardbase.playtest.games import log_support
    from cardbase.playtest.limits import log_problems, raise_problems

    n, _ = registry.seat_bots(spec, players, bots or None, games)
    raise_problems(log_problems(log, seat, games, n))
    assert spec.build is not None
    game = spec.build(cards, n, **options)
    why = log_support(game, None if seat is None else seat - 1)
    if why is not None:
        raise CardbaseError(tr(why, game=spec.code))
    return game


def _logs(game: Any, log: int, seed: int, bots: list[str], seat: int | None) -> list[dict[str, Any]]:
    """The first ``log`` games of the batch played again with their log (as ``seat`` may know it)."""
    if game is None:
        return []
    from cardbase.playtest.games import game_log

    out = []
    for i in range(log):
        one = game_log(game, i, seed, bots, None if seat is None else seat - 1)
        one["ending"] = _ending(one["ended_by"], game)
        out.append(one)
    return out


def _say_log(one: dict[str, Any], game: Any) -> None:
    """One game's log: its seed and seats, every line, its result."""
    seats = ", ".join(tr("games.log.seat", seat=x["seat"], bot=x["bot"]) for x in one["seats"])
    who = tr("games.log.referee") if one["seat"] is None else tr("games.log.of_seat", seat=one["seat"])
    typer.echo(tr("games.log.head", game=one["game"] + 1, seed=one["seed"], seats=seats, who=who))
    for line in one["lines"]:
        typer.echo("  " + line)
    scores = " ; ".join(tr("games.log.score", seat=p + 1, score=x if isinstance(x, int) else fmt_num(x))
                        for p, x in enumerate(one.get("scores") or one["returns"]))
    winners = ", ".join(map(str, one["winners"])) if one["winners"] else tr("games.log.nobody")
    typer.echo(tr("games.log.result", scores=scores, winners=winners, count=len(one["winners"]),
                  ending=one["ending"]))
    if one["safety_net"]:
        typer.echo(tr("games.log.safety_net", ending=one["ending"]))
    typer.echo("")


# ``cardbase games rulings GAME``: every ruling of a game (cardbase/cli/rulings.py).
from cardbase.cli.rulings import rulings_command as _rulings_command  # noqa: E402

app.command("rulings")(_rulings_command)

# ``cardbase games check FILE``: a rules file of the rules language (cardbase/cli/rulesdata.py).
from cardbase.cli.rulesdata import check_command as _check_command  # noqa: E402

app.command("check")(_check_command)

# ``cardbase games rules CODE``: a game's rules file, shown or replaced (cardbase/cli/rules_file.py).
from cardbase.cli.rules_file import rules_command as _rules_command  # noqa: E402

app.command("rules")(_rules_command)
