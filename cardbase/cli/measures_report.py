"""The measures of a good game in a batch report (cardbase/playtest/measures.py): the options that
size them, their check before any game, and their text — each figure with its 95 % interval and
a sentence saying what it means. Used by every batch command: ``sim game``, ``sim goldfish``,
``sim duel``, ``sim roundrobin``, ``sim ladder``, ``sim sweep`` and ``sim measures``.
"""

from __future__ import annotations

from typing import Any

import typer

from cardbase.i18n import fmt_num, fmt_pct, tr

OUTCOME_MOST = 200  # games whose every decision is replayed (each costs a game per legal action)
COUNT_MOST = 20_000  # measured games, and skill-gap games, at most


def measures_option(default: int = 200) -> Any:
    return typer.Option(default, "--measures-games", help="Games for the measures of a good game after the report (0: none).")


def skill_option() -> Any:
    return typer.Option(0, "--skill-games", help="Measures: games of greedy against random for the skill gap (0: none).")


def search_option() -> Any:
    return typer.Option(0, "--search-games", help="Measures: games of a search bot (mc) against greedy (0: none; slow).")


def outcome_option() -> Any:
    return typer.Option(0, "--outcome-games", help="Measures: games whose decisions are replayed to see which change the winner (0: none; slow).")


def check_measure_counts(measures_games: int, skill_games: int, outcome_games: int,
                         search_games: int = 0) -> None:
    """The game counts of the measures of a good game, checked before any game is played; every
    problem at once."""
    from cardbase.i18n import current_language

    def most_text(most: int) -> str:
        return fmt_num(most, 0) if most < 1000 else \
            f"{most:,}".replace(",", " " if current_language() == "fr" else ",")

    bad = [tr("rulesdata.cli.bad_extra", option=name, games=extra, most=most_text(most))
           for name, extra, most in (("--measures-games", measures_games, COUNT_MOST),
                                     ("--skill-games", skill_games, COUNT_MOST),
                                     ("--search-games", search_games, COUNT_MOST),
                                     ("--outcome-games", outcome_games, OUTCOME_MOST))
           if not 0 <= extra <= most]
    if bad:
        from cardbase.errors import CardbaseError

        raise CardbaseError("\n".join(bad))


def _rate(x: float | None) -> str:
    return "—" if x is None else fmt_pct(x, unit=False)


def _span(ci: list[float], digits: int) -> dict[str, str]:
    return {"lo": fmt_num(ci[0], digits), "hi": fmt_num(ci[1], digits)}


def say_measures(m: dict[str, Any], *, hints: bool = True) -> None:
    """The block a batch report ends with: its title, then :func:`print_measures`."""
    typer.echo(tr("measures.in_report"))
    print_measures(m, hints=hints)


def print_measures(m: dict[str, Any], *, hints: bool = True) -> None:
    """The measures of a good game as text, a sentence after each figure. ``hints``: say which
    measures were not taken and the option that takes them. A solo game gets its own measures
    and the list of those that do not apply, with why."""
    solo = m.get("solo")
    typer.echo(tr("measures.head_solo" if solo else "measures.head", game=m["game"], games=m["games"],
                  players=m["players"], bots=", ".join(m["bots"]), seed=m["seed"]))
    if m.get("rotated"):
        typer.echo(tr("measures.head_rotated", bots=", ".join(m["bots"])))
    if m.get("pool"):
        typer.echo(tr("measures.head_pool", pool=m["pool"]))
    if m.get("rules_file"):
        typer.echo(tr("measures.via_file", file=m["rules_file"]))
    if m.get("decks"):
        typer.echo(tr("measures.decks" if m.get("rules_file") else "measures.decks_played",
                      decks=", ".join(m["decks"])))
    if not solo:
        _say_first_and_seats(m)
    ln = m["length"]
    typer.echo(tr("measures.length", mean=fmt_num(ln["mean"], 1), sd=fmt_num(ln["sd"], 1),
                  min=ln["min"], q25=ln["q25"], median=ln["median"], q75=ln["q75"], max=ln["max"]))
    typer.echo(tr("measures.length_ci", **_span(ln["ci95"], 1)))
    if not solo:
        _say_drama(m)
    dv = m["decisiveness"]
    if dv["mean"] is None:
        typer.echo(tr("measures.decisive_none"))
    else:
        typer.echo(tr("measures.decisive_solo" if solo else "measures.decisive", mean=_rate(dv["mean"]),
                      lo=_rate(dv["ci95"][0]), hi=_rate(dv["ci95"][1]), of=dv["of"]))
    _say_gaps(m, hints)
    dc = m["decisions"]
    typer.echo(tr("measures.decisions", per_game=fmt_num(dc["per_game"], 1), options=fmt_num(dc["options"], 1),
                  distinct=fmt_num(dc.get("distinct_options", dc["options"]), 1),
                  **_span(dc.get("ci95") or [dc["per_game"], dc["per_game"]], 1)))
    oc = m.get("outcome")
    if oc is None:
        if hints:
            typer.echo(tr("measures.not_measured", measure=tr("measures.name.outcome"), option="--outcome-games"))
    elif not oc["decisions"]:
        typer.echo(tr("measures.outcome_none", games=oc["games"]))
    else:
        typer.echo(tr("measures.outcome_solo" if solo else "measures.outcome", rate=_rate(oc["rate"]),
                      lo=_rate(oc["ci95"][0]), hi=_rate(oc["ci95"][1]), decisions=oc["decisions"],
                      games=oc["games"]))
    if solo:
        _say_not_applicable(m)
    from cardbase.playtest.coverage import ending_words

    typer.echo(tr("measures.ended", ended=", ".join(f"{ending_words(k, m.get('game'))} : {v}"
                                                    for k, v in m["ended_by"].items())))


def _say_first_and_seats(m: dict[str, Any]) -> None:
    fp = m["first_player"]
    typer.echo(tr("measures.first", rate=_rate(fp["rate"]), lo=_rate(fp["ci95"][0]),
                  hi=_rate(fp["ci95"][1]), fair=_rate(fp["fair"]), decided=m["decided"]))
    typer.echo(tr("measures.first_secret" if fp.get("secret_choices") else "measures.first_means"))
    seats = m.get("seats")
    if seats:
        typer.echo(tr("measures.seats", decided=seats["decided"], fair=_rate(seats["fair"]), seats=", ".join(
            tr("measures.seat", seat=s["seat"], bot=tr("measures.rotation") if s["bot"] == "rotation" else s["bot"], rate=_rate(s["rate"]), lo=_rate(s["ci95"][0]),
               hi=_rate(s["ci95"][1])) for s in seats["seats"])))
        typer.echo(tr("measures.seats_means"))


def _say_drama(m: dict[str, Any]) -> None:
    lc = m["lead_changes"]
    typer.echo(tr("measures.leads", mean=fmt_num(lc["mean"], 2)))
    typer.echo(tr("measures.leads_ci", **_span(lc["ci95"], 2)))
    cb = m["comebacks"]
    typer.echo(tr("measures.comebacks", rate=_rate(cb["rate"]), lo=_rate(cb["ci95"][0]),
                  hi=_rate(cb["ci95"][1]), count=cb["count"], of=cb["of"]))
    typer.echo(tr("measures.comebacks_means"))
    if cb["mean_gap"] is not None:
        typer.echo(tr("measures.comeback_gap", gap=fmt_num(cb["mean_gap"], 1),
                      **_span(cb.get("gap_ci95") or [cb["mean_gap"], cb["mean_gap"]], 1)))


def _say_gaps(m: dict[str, Any], hints: bool) -> None:
    for key, option, name in (("skill_gap", "--skill-games", "skill"), ("search_gap", "--search-games", "search")):
        g = m.get(key)
        if g is None:
            if hints:
                typer.echo(tr("measures.not_measured", measure=tr(f"measures.name.{name}"), option=option))
        elif g.get("basis") == "score":
            none = g["diff"] is None
            typer.echo(tr(f"measures.{name}_solo", games=g["games"],
                          strong="—" if none else fmt_num(g["strong_mean"], 1),
                          weak="—" if none else fmt_num(g["weak_mean"], 1),
                          diff="—" if none else fmt_num(g["diff"], 1, signed=True), **_span(g["ci95"], 1)))
        else:
            typer.echo(tr(f"measures.{name}", rate=_rate(g["rate"]), lo=_rate(g["ci95"][0]), hi=_rate(g["ci95"][1]),
                          fair=_rate(g["fair"]), decided=g["decided"]))


# ------------------------------------------------------------------ a sweep: one row a value

def print_sweep_measures(res: dict[str, Any]) -> None:
    """A sweep's measures: one row a value, every figure with its interval, then what each column
    means (and, solo, the measures that do not apply)."""
    points = [p for p in res["points"] if p.get("measures")]
    if points:
        print_measures_table(points, head=tr("measures.sweep_head", games=points[0]["measures"]["games"]))


def print_measures_table(points: list[dict[str, Any]], *, head: str, row_key: str = "value") -> None:
    """Measures side by side, one row a point (``value``: a swept value, a ruling's reading), every
    figure with its interval, then what each column means (and, solo, what does not apply)."""
    from cardbase.playtest.measures import sweep_table

    cols, rows, meanings = sweep_table(points, num=lambda x, d, signed=False: fmt_num(x, d, signed=signed),
                                       pct=lambda x, unit=True: fmt_pct(x, unit=unit), row_key=row_key)
    heads = [tr(f"measures.col.{c}") for c in cols]
    widths = [max(len(x) for x in [h] + [r[i] for r in rows]) for i, h in enumerate(heads)]
    typer.echo(head)
    for line in [heads, *rows]:
        typer.echo("  " + "  ".join(x.rjust(w) if i else x.ljust(w) for i, (x, w) in enumerate(zip(line, widths))))
    typer.echo(tr("measures.sweep_legend"))
    for col, key in meanings:
        typer.echo(tr("measures.legend", column=tr(f"measures.col.{col}"), meaning=tr(f"measures.means.{key}")))
    if points[0]["measures"].get("solo"):
        _say_not_applicable(points[0]["measures"])


def _say_not_applicable(m: dict[str, Any]) -> None:
    """A solo game's measures that do not apply, each with why."""
    typer.echo(tr("measures.na_head"))
    for key, why in (m.get("not_applicable") or {}).items():
        typer.echo(tr("measures.legend", column=tr(f"measures.na_name.{key}"), meaning=tr(f"measures.why.{why}")))
