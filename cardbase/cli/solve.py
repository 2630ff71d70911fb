"""``cardbase solve``: exact answers for games small enough to be solved (15 en un tour)."""

from __future__ import annotations

from pathlib import Path

import typer

from cardbase.cli.common import handle_errors, print_json
from cardbase.i18n import fmt_num, fmt_pct, tr

app = typer.Typer(help="Exact answers for small games.", no_args_is_help=True)


def _ranges(ranges: list) -> str:
    if not ranges:
        return tr("pushluck.cli.never")
    parts = []
    for lo, hi in ranges:
        parts.append(f"{lo}+" if hi is None else (str(lo) if lo == hi else f"{lo}–{hi}"))
    return ", ".join(parts)


@app.command("pushluck")
@handle_errors
def pushluck_command(
    box: str | None = typer.Option(None, "--box", help="Cards of the box, comma-separated."),
    players: int = typer.Option(2, "--players", "-p", help="Seats: 2 to N players."),
    reshuffles: int = typer.Option(3, "--reshuffles", help="Solo: reshuffles allowed in the table."),
    edition: Path | None = typer.Option(None, "--edition", "-e", help="Edition file of the box."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
    rule: list[str] | None = typer.Option(None, "--rule", "-r",
                                          help="A ruling's option, NAME=VALUE (stop_at_target=true…)."),
) -> None:
    """15 en un tour: P(15) in one turn, solo expectation, each seat's chance (exact)."""
    from cardbase.errors import CardbaseError
    from cardbase.games.pushluck.material import box_from_cards, parse_box
    from cardbase.games.pushluck.solver import solve

    if not 1 <= players <= 6:
        raise CardbaseError(tr("pushluck.cli.bad_players", players=players))
    if not 0 <= reshuffles <= 6:
        raise CardbaseError(tr("pushluck.cli.bad_reshuffles", reshuffles=reshuffles))
    if box is not None:
        the_box = parse_box(box)
    else:
        from cardbase.playtest.cards import DATA_DIR, load_edition_defs

        path = edition or DATA_DIR / "editions" / "P15.toml"
        if not path.is_file():
            raise CardbaseError(tr("pushluck.cli.no_edition", path=str(path)))
        the_box = box_from_cards(load_edition_defs([path]))
    from cardbase.games.rulings import parse_rules

    opts = parse_rules("pushluck", rule)
    keep = {k: opts[k] for k in ("target", "tie", "stop_at_target", "finish_round") if k in opts}
    data = solve(the_box, players=players, reshuffles=reshuffles, **keep)
    if json_out:
        print_json(data)
        _refuse_cut_seats(data)
        return
    echo = typer.echo
    echo(tr("pushluck.cli.head", box=", ".join(data["box"]), target=data["target"]))
    echo(tr("pushluck.cli.reach", p=fmt_pct(data["p_reach_15"]), exact=data["p_reach_15_exact"],
            flips=fmt_num(data["expected_flips"])))
    fp = data["full_pass"]
    echo(tr("pushluck.cli.pass", survive=fp["survive"], multiplier=fp["multiplier"],
            growth=fp["growth"]))
    solo = data["solo"]
    unl = solo.get("unlimited")
    if unl is not None:
        echo(tr("pushluck.cli.solo_unlimited", value=fmt_num(unl["value"]), exact=unl["value_exact"]))
        if not unl["attained"]:
            echo(tr("pushluck.cli.solo_not_attained", gap=fmt_num(unl['bot_shortfall_bound'])))
    elif solo["status"] == "exact" and data["full_pass"]["survive"] == "0":
        echo(tr("pushluck.cli.solo_exact", value=fmt_num(solo["expected_points_per_round"])))
    elif solo["status"] == "exact":
        echo(tr("pushluck.cli.solo_converged", value=fmt_num(solo["expected_points_per_round"]),
                exact=solo["expected_points_per_round_exact"], k=solo["exact_from_reshuffles"]))
    elif solo["status"] == "bounded" and solo["upper_bound"] is None:
        echo(tr("pushluck.cli.solo_unknown", k=reshuffles, value=fmt_num(solo["capped_expected_points"])))
    elif solo["status"] == "bounded":
        echo(tr("pushluck.cli.solo_bounded", k=reshuffles, value=fmt_num(solo["capped_expected_points"]),
                upper=fmt_num(solo["upper_bound"])))
    else:
        echo(tr("pushluck.cli.solo_unbounded", growth=fp["growth"], added=fp["points_added"]))
    echo(tr("pushluck.cli.solo_capped", k=reshuffles,
            values=" ; ".join(fmt_num(v) for v in solo["by_reshuffles"])))
    echo(tr("pushluck.cli.policy_head", k=reshuffles))
    for row in solo["policy"]:
        if row["go_on"] == [[0, None]]:
            continue
        echo(tr("pushluck.cli.policy_row", left=row["reshuffles_left"], cards=row["face_down"],
                protection=row["protection"], go=_ranges(row["go_on"])))
    if unl is not None:
        echo(tr("pushluck.cli.unlimited_head"))
        for row in unl["policy"]:
            echo(tr("pushluck.cli.unlimited_row", cards=row["face_down"], protection=row["protection"],
                    go=_ranges(row["go_on"])))
    if "seats_error" in data and "seats_limit" not in data:
        echo(data["seats_error"])
    for n, seats in data["seats"].items():
        wins = ", ".join(tr("pushluck.cli.seat", seat=i + 1, p=fmt_pct(w)) for i, w in enumerate(seats["win"]))
        rounds = seats["expected_rounds"]
        echo(tr("pushluck.cli.seats", players=n, wins=wins,
                rounds=fmt_num(rounds) if rounds is not None else "∞"))
        for pol in seats["policies"]:
            stop = pol["stop_from"]
            echo(tr("pushluck.cli.seat_policy", seat=pol["seat"],
                    stop=stop if stop is not None else tr("pushluck.cli.never")))
    _refuse_cut_seats(data)


def _refuse_cut_seats(data: dict) -> None:
    """PL13: the seats' search went past its limit at some player count: what was computed is
    printed, then the refusal (exit code 2) says from which count and what to do."""
    if "seats_limit" in data:
        from cardbase.errors import CardbaseError

        raise CardbaseError(data["seats_error"])
