"""``cardbase proof colours``: which printed card colours a colour-blind player cannot tell apart."""

from __future__ import annotations

import typer

from cardbase.cli.common import fail, handle_errors, print_json

app = typer.Typer(help="Proofs: check what the printed cards show before ordering them.",
                  no_args_is_help=True, add_completion=False)

C_GAME = typer.Option(None, "--game", "-g", help="The colours of every card of this game.")
C_EDITION = typer.Option(None, "--edition", "-e", help="The colours of the cards of this edition.")
C_THRESHOLD = typer.Option(None, "--threshold", "-t",
    help="ΔE (CAM02-UCS) under which two colours count as not distinct (default 10).")
C_JSON = typer.Option(False, "--json", help="Print machine-readable JSON.")


def _table(report: dict) -> str:
    """Worst pairs first: those under the threshold, with the fix to consider."""
    from cardbase.i18n import tr
    from cardbase.outputs.printing.colourblind import deficiency_label, fix_for

    pairs = report["pairs"]
    risky = [p for p in pairs if not p["distinct"]]
    colours = report["colours"]
    lines = [tr("shop.proof.head", n=len(colours), threshold=f"{report['threshold']:g}")]
    if colours:
        lines.append("  " + ", ".join(f"{name} {hex_}" for name, hex_ in colours.items()))
    lines.append("")
    if len(colours) < 2:
        lines.append(tr("shop.proof.too_few"))
        return "\n".join(lines)
    if not risky:
        lines.append(tr("shop.proof.all_distinct", n=len(pairs)))
    else:
        rows = [(tr("shop.proof.col_vision"), tr("shop.proof.col_pair"), "ΔE",
                 tr("shop.proof.col_cue"), tr("shop.proof.col_fix"))]
        for p in risky:
            rows.append((deficiency_label(p["deficiency"]), f"{p['a']} / {p['b']}",
                         f"{p['delta_e']:.1f}", tr(f"shop.cvd.cue.{p['cue']}"),
                         fix_for(p, report.get("symbols"))))
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        for i, row in enumerate(rows):
            lines.append("  ".join(cell.ljust(widths[j]) for j, cell in enumerate(row[:4]))
                         + "  " + row[4])
            if i == 0:
                lines.append("  ".join("-" * w for w in widths) + "  " + "-" * len(row[4]))
        lines += ["", tr("shop.proof.summary", risky=len(risky), n=len(pairs))]
    worst_normal = min((p["delta_e"] for p in pairs if p["deficiency"] == "normal"), default=None)
    if worst_normal is not None:
        lines.append(tr("shop.proof.normal", delta=f"{worst_normal:.1f}"))
    lines.append(tr("shop.proof.method"))
    return "\n".join(lines)


def colours_command(
    game: str | None = C_GAME,
    edition: str | None = C_EDITION,
    threshold: float | None = C_THRESHOLD,
    as_json: bool = C_JSON,
) -> None:
    """Colour-blind proof: how far apart the cards' printed colours are for each deficiency."""
    from cardbase.catalog import cards as catalog
    from cardbase.cli.common import session
    from cardbase.i18n import tr
    from cardbase.outputs.printing.colourblind import DEFAULT_THRESHOLD, colour_report
    from cardbase.catalog.stickers import colour_table

    if (game is None) == (edition is None):
        fail(tr("shop.proof.one_source"))
    with session() as s:
        cards = catalog.card_defs(s, game=game) if game else catalog.card_defs(s, edition=edition)
        table = colour_table(s)
    if not cards:
        fail(tr("shop.proof.no_cards", what=game or edition))
    report = colour_report(cards, threshold=DEFAULT_THRESHOLD if threshold is None else threshold,
                           sticker_table=table)
    if as_json:
        print_json({k: report[k] for k in ("method", "threshold", "colours", "pairs")})
    else:
        typer.echo(_table(report))


app.command("colours")(handle_errors(colours_command))
