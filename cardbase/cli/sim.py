"""``cardbase sim``: NesPanini playtests — goldfish, duels, round robins and the bot ladder."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

from cardbase.cli.common import handle_errors, print_json
from cardbase.errors import CardbaseError, NotFoundError

app = typer.Typer(help="NesPanini playtests: goldfish, duels, round robins, bot ladder.",
                  no_args_is_help=True)

GAMES = typer.Option(1000, "--games", "-n", help="Number of games.")
SEED = typer.Option(0, "--seed", "-s", help="Batch seed: the same seed gives the same games.")
JSON = typer.Option(False, "--json", help="Print the result as JSON.")
RECORDS = typer.Option(None, "--records", help="Save the per-game records here (JSON lines).")
WORKERS = typer.Option(None, "--workers", "-j", help="Local processes (default: one per core).")
EDITIONS = typer.Option(None, "--edition", "-e",
                        help="Resolve decks against these edition TOML files instead of the database.")
DECK_HELP = "Deck-list file, saved deck name or starter deck slug (e.g. braises-ardentes)."


def _deck(spec: str, editions: list[Path] | None) -> tuple[str, list[Any]]:
    """A deck by reference: a deck-list file, a saved deck or a starter slug, through the database.

    With ``--edition`` files the deck is resolved against those files instead (no database).
    """
    if editions:
        from cardbase.playtest.cards import load_deck_defs, starter_decks

        path = Path(spec)
        if not path.is_file():
            starters = starter_decks()
            if spec not in starters:
                raise NotFoundError(
                    f"deck {spec!r} not found — with --edition give a deck-list file or one of "
                    f"the starter decks: {', '.join(starters) or '(none)'}")
            path = starters[spec]
        return path.stem, load_deck_defs(path, editions)
    from cardbase.db import session_scope
    from cardbase.playtest.decks import resolve_playtest_deck

    with session_scope() as session:
        deck = resolve_playtest_deck(session, spec)
    return deck.name, list(deck.cards)


@contextmanager
def _progress(label: str, enabled: bool):
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    with typer.progressbar(length=1000, label=label, file=sys.stderr) as bar:
        state = {"done": 0}

        def update(done: int, total: int) -> None:
            pos = int(1000 * done / max(total, 1))
            bar.update(pos - state["done"])
            state["done"] = pos

        yield update


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


@app.command("goldfish")
@handle_errors
def goldfish_command(
    deck: str = typer.Argument(..., help=DECK_HELP),
    games: int = GAMES,
    bot: str = typer.Option("greedy", "--bot", "-b", help="random, greedy, mc or ismcts."),
    seed: int = SEED,
    oracle_games: int = typer.Option(30, "--oracle-games", help="Games also solved by the oracle."),
    swap_games: int = typer.Option(100, "--swap-games",
                                   help="Games per card for the swap test, on the first games' seeds (0: none)."),
    json_out: bool = JSON,
    records: Path | None = RECORDS,
    workers: int | None = WORKERS,
    edition: list[Path] | None = EDITIONS,
) -> None:
    """Play DECK alone N times: score distribution, oracle gap and per-card figures."""
    from cardbase.playtest.batch import goldfish, save_records

    name, cards = _deck(deck, edition)
    with _progress(f"goldfish {name}", not json_out) as progress:
        rep = goldfish(cards, games=games, bot=bot, seed=seed, oracle_games=oracle_games,
                       swap_games=swap_games, workers=workers, progress=progress)
    if records:
        save_records(rep.records, records)
    if json_out:
        print_json({"deck": name, **rep.to_dict()})
        return
    s = rep.summary
    typer.echo(f"{name}: {s['games']} parties ({bot}), seed {seed}")
    typer.echo(f"score moyen {s['mean']:.2f} (écart-type {s['std']:.2f}), min {s['min']}, max {s['max']}")
    typer.echo("percentiles: " + ", ".join(f"p{q}={v:g}" for q, v in s["percentiles"].items()))
    if s["oracle_mean_gap"] is not None:
        typer.echo(f"écart moyen à l'oracle: {s['oracle_mean_gap']:.2f} point(s) sur {s['oracle_games']} "
                   f"partie(s) ({s['oracle_exact']} résolue(s) exactement)")
    typer.echo("")
    typer.echo(rep.cards.to_string(index=False, float_format=lambda v: f"{v:.3f}"))


@app.command("duel")
@handle_errors
def duel_command(
    deck_a: str = typer.Argument(..., help="First deck: " + DECK_HELP),
    deck_b: str = typer.Argument(..., help="Second deck (same kinds of reference)."),
    games: int = GAMES,
    bots: str = typer.Option("greedy,greedy", "--bots", help="Bots of deck A and deck B: A,B."),
    seed: int = SEED,
    json_out: bool = JSON,
    records: Path | None = RECORDS,
    workers: int | None = WORKERS,
    edition: list[Path] | None = EDITIONS,
) -> None:
    """DECK_A against DECK_B, seats swapped on the same seeds, Wilson 95 % intervals."""
    from cardbase.playtest.batch import duel, save_records

    parts = [b.strip() for b in bots.split(",")]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2:
        raise CardbaseError(f"--bots takes two names separated by a comma (A,B), got {bots!r}")
    na, a = _deck(deck_a, edition)
    nb, b = _deck(deck_b, edition)
    with _progress(f"{na} vs {nb}", not json_out) as progress:
        rep = duel(a, b, games=games, bots=(parts[0], parts[1]), seed=seed, workers=workers,
                   names=(na, nb), progress=progress)
    if records:
        save_records(rep.records, records)
    s = rep.summary
    if json_out:
        print_json(s)
        return
    lo, hi = s["ci95"]
    typer.echo(f"{na} ({parts[0]}) contre {nb} ({parts[1]}): {s['games']} parties, seed {seed}")
    typer.echo(f"victoires {s['wins']}, égalités {s['ties']}, défaites {s['losses']}")
    typer.echo(f"taux de victoire {_pct(s['win_rate'])} (IC 95 % {_pct(lo)} – {_pct(hi)})")
    typer.echo(f"premier joueur gagnant: {_pct(s['first_player_win_rate'])}")
    typer.echo(f"marge moyenne {s['mean_margin']:+.2f} ({s['mean_score_a']:.2f} contre {s['mean_score_b']:.2f})")


@app.command("roundrobin")
@handle_errors
def roundrobin_command(
    decks: list[str] = typer.Argument(None, help="Decks (files, saved names or starter slugs); default: all starters."),
    games: int = typer.Option(400, "--games", "-n", help="Games per pair of decks."),
    bots: str = typer.Option("greedy", "--bot", "-b", help="Bot for every deck."),
    seed: int = SEED,
    json_out: bool = JSON,
    workers: int | None = WORKERS,
    edition: list[Path] | None = EDITIONS,
) -> None:
    """Every deck against every other: win-rate matrix and a rating per deck."""
    from cardbase.playtest.batch import roundrobin
    from cardbase.playtest.cards import starter_decks

    specs = list(decks or starter_decks())
    loaded = dict(_deck(d, edition) for d in specs)
    with _progress("round robin", not json_out) as progress:
        rep = roundrobin(loaded, games=games, bots=(bots, bots), seed=seed, workers=workers,
                         progress=progress)
    if json_out:
        print_json(rep.to_dict())
        return
    typer.echo("taux de victoire (ligne contre colonne):")
    typer.echo(rep.matrix.to_string(float_format=lambda v: f"{v:.3f}", na_rep="—"))
    typer.echo("")
    typer.echo(rep.ratings.to_string(index=False))


@app.command("ladder")
@handle_errors
def ladder_command(
    deck: str = typer.Argument(None, help="Deck for the mirror matches (default: first starter)."),
    games: int = typer.Option(200, "--games", "-n", help="Games per rung (pairs × 2)."),
    seed: int = SEED,
    json_out: bool = JSON,
    workers: int | None = WORKERS,
    edition: list[Path] | None = EDITIONS,
) -> None:
    """Each bot against the one below: random < greedy < mc < ismcts, mirror matches."""
    from cardbase.playtest.batch import ladder
    from cardbase.playtest.cards import starter_decks

    if deck is None:
        starters = starter_decks()
        if not starters:
            raise CardbaseError("no starter deck in data/decks — give a deck file")
        deck = next(iter(starters))
    name, cards = _deck(deck, edition)
    with _progress(f"ladder {name}", not json_out) as progress:
        df = ladder(cards, games=games, seed=seed, workers=workers, progress=progress)
    if json_out:
        print_json({"deck": name, "games": games, "seed": seed, "rungs": df.to_dict(orient="records")})
        return
    typer.echo(f"échelle des bots sur {name} (miroir, sièges échangés, seed {seed})")
    typer.echo(df.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
