"""``cardbase games check FILE``: a rules file checked (every problem at once) and tried by bots."""

from __future__ import annotations

from pathlib import Path

import typer

from cardbase.cli.common import handle_errors, print_json
from cardbase.cli.drafts import draft_of, plays_drafts, rules_option, say_draft
from cardbase.i18n import fmt_num, tr


def _deck_names(rules, refs: list[str]) -> list[str]:
    """The names of the decks :func:`_decks` plays (the refs given, else the starter slugs)."""
    from cardbase.playtest.cards import starter_decks

    if refs:
        return list(refs)
    starters = [k for k, p in sorted(starter_decks().items())
                if f"# game: {rules.code}" in p.read_text(encoding="utf-8")]
    return starters[: rules.default_players or rules.min_players]


def _decks(rules, refs: list[str], edition, players: int | None = None) -> list | None:
    """The decks of a game played with decks (``source = "decks"``): those given, else the
    game's starter decks (``data/decks``), as many as ``players`` (default: its default player
    count)."""
    from cardbase.playtest.cards import load_deck_defs, starter_decks

    paths = []
    starters = {k: p for k, p in sorted(starter_decks().items())
                if f"# game: {rules.code}" in p.read_text(encoding="utf-8")}
    for ref in refs:
        paths.append(starters.get(ref) or Path(ref))
    if not paths:
        paths = list(starters.values())[: players or rules.default_players or rules.min_players]
    if not paths:
        return None
    return [load_deck_defs(p, edition or None) for p in paths]


@handle_errors
def check_command(
    file: Path = typer.Argument(..., help="A rules file (data/rules/<code>.toml)."),
    edition: list[Path] | None = typer.Option(None, "--edition", "-e", help="Edition files with the game's cards."),
    games: int = typer.Option(20, "--games", "-n", help="Random games played to see that the game ends (0: none)."),
    deck: list[str] | None = typer.Option(None, "--deck", "-d", help="A deck (file or starter slug), one per player, for a game played with decks."),
    search_states: int = typer.Option(2000, "--search-states", help="Bounded search for an ending: positions visited per deal at most (0: none)."),
    search_deals: int = typer.Option(2, "--search-deals", help="Bounded search for an ending: deals searched (seeds 0, 1…)."),
    players: int | None = typer.Option(None, "--players", "-p", help="Try this player count only (default: every count the file allows)."),
    rule: list[str] | None = typer.Option(None, "--rule", help="NAME=VALUE (repeatable): an option of the file (or its ruling's code) for the trial games and the search."),
    json_out: bool = typer.Option(False, "--json", help="JSON output."),
) -> None:
    """Check a rules file: every problem at once with its line and key, then a few random games
    and a bounded search that finds an ending or proves there is none, at every player count the
    file allows (the random games shared out over the counts) or at ``--players`` only, under the
    options of ``--rule`` (else the file's)."""
    from cardbase.errors import CardbaseError
    from cardbase.games.rulesdata.checking import mid_turn_endings
    from cardbase.games.rulesdata.language import load_rules, locate
    from cardbase.i18n import current_language
    from cardbase.playtest.measures import player_counts, search_counts, try_counts

    bad = []
    if not 0 <= games <= 1000:
        bad.append(tr("rulesdata.cli.bad_games", games=games))
    if not 0 <= search_states <= 100_000:
        bad.append(tr("rulesdata.cli.bad_states", states=search_states,
                      most="100 000" if current_language() == "fr" else "100,000"))
    if not 1 <= search_deals <= 20:
        bad.append(tr("rulesdata.cli.bad_deals", deals=search_deals))
    if players is not None and not 1 <= players <= 12:
        bad.append(tr("rulesdata.cli.bad_players", players=players, min=1, max=12))
    if bad:  # every problem at once, before the file is read
        raise CardbaseError("\n".join(bad))
    from cardbase.playtest.cards import edition_figures

    rules = load_rules(file, card_fields=edition_figures(edition))  # a misspelt card field: a problem
    options: dict = {}
    if rule:  # read against the file's own options and rulings, every bad one at once
        from cardbase.games.rulesdata.checking import option_rulings
        from cardbase.games.rulings import parse_rules

        options = parse_rules(rules.code, rule, rulings=option_rulings(rules))
        rules = load_rules(file, options=options, card_fields=edition_figures(edition))
    cards = []
    if edition:
        from cardbase.playtest.cards import load_edition_defs

        cards = [c for c in load_edition_defs(edition) if c.game == rules.code]
    if players is not None and not rules.min_players <= players <= rules.max_players:
        raise CardbaseError(tr("rulesdata.cli.bad_players", players=players, min=rules.min_players,
                               max=rules.max_players))
    decks = _decks(rules, deck or [], edition, players) if rules.source == "decks" else None
    if decks is not None and players is not None and len(decks) != players:
        raise CardbaseError(tr("rulesdata.cli.players_decks", players=players, decks=len(decks)))
    # a game played with decks is tried at as many players as decks; else at every count allowed
    counts = [len(decks)] if decks is not None else player_counts(rules, players)
    playable = bool(cards or rules.source == "generated" or decks)
    tried = try_counts(rules, cards, games, counts, decks=decks) if games and playable else None
    searched = search_counts(rules, cards, counts, seeds=search_deals, most_states=search_states,
                             decks=decks) if search_states and playable else None
    # every action a secret choice but a greedy horizon that reads the position before the reveal:
    # every seat but the last to choose sees no difference between its picks (docs: horizon)
    blind = rules.secret_choices_only and rules.horizon != "round"
    mid_turn = mid_turn_endings(rules)  # check = "action" and a turn of several actions
    hints = _ending_hints(rules, tried["never_ended_by"]) if tried is not None else {}
    for name, found in hints.items():  # the same trial under the reading that could let it hold
        for one in found:
            one["tried"] = _try_reading(file, edition, rules, options, one, name, cards, games, counts, decks)
    if json_out:
        print_json({"file": str(file), "code": rules.code, "ok": True, "players": counts if playable else [],
                    "rules": options, "tried": tried, "search": searched,
                    "advice": (["horizon_secret"] if blind else []) + (["check_action"] if mid_turn else []),
                    "mid_turn_endings": mid_turn, "endings_options": hints})
        if searched is not None and searched["verdict"] == "cannot_end":
            raise typer.Exit(2)
        return
    typer.echo(tr("rulesdata.cli.ok", file=str(file), code=rules.code, zones=len(rules.zones),
                  actions=len(rules.actions)))
    if blind:
        typer.echo(tr("rulesdata.cli.horizon_secret", horizon=rules.horizon))
    if mid_turn:
        line = locate(rules.text, ["end", "check"]) if rules.text else None
        where = (tr("rulesdata.where", file=str(file), line=line, key="end.check") if line
                 else tr("rulesdata.where_noline", file=str(file), key="end.check"))
        for one in mid_turn:
            typer.echo(tr("rulesdata.cli.check_action", where=where, **one))
    if options:
        typer.echo(tr("rulesdata.cli.rules_in_force", rules=", ".join(f"{k} = {v}" for k, v in options.items())))
    if not playable:
        typer.echo(tr("rulesdata.cli.not_tried"))
        return
    typer.echo(tr("rulesdata.cli.counts", counts=_counts_text(counts), min=rules.min_players,
                  max=rules.max_players))
    many = len(counts) > 1  # each count's own lines start with it

    def at(p: int) -> str:
        return tr("rulesdata.cli.at_players", players=p) if many else ""

    if tried is None:  # --games 0: the bounded search may still answer
        typer.echo(tr("rulesdata.cli.no_trial_asked"))
    else:
        for t in tried["by_players"]:
            typer.echo(at(t["players"]) + tr("rulesdata.cli.tried", games=t["games"], ended=t["ended"],
                                              mean=fmt_num(t["mean_turns"], 1)))
            if t["ended"] < t["games"]:
                typer.echo(at(t["players"]) + tr("rulesdata.cli.safety", count=t["games"] - t["ended"]))
        for name in tried["never_legal"]:
            typer.echo(tr("rulesdata.cli.never_legal", action=name, games=tried["games"]))
            if name in tried.get("sets", {}):  # a set action: was a set ever looked for, did one pass?
                seen = tried["sets"][name]
                typer.echo(tr("rulesdata.cli.set_never_tested" if seen["tested"] else "rulesdata.cli.set_never_listed",
                              action=name, listed=seen["listed"], tested=seen["tested"]))
        for name, where in tried["never_legal_at"].items():
            typer.echo(tr("rulesdata.cli.never_legal_at", action=name, counts=_counts_text(where),
                          games=sum(t["games"] for t in tried["by_players"] if t["players"] in where)))
        for name in tried["never_ended_by"]:
            typer.echo(tr("rulesdata.cli.never_ended_by", condition=name, games=tried["games"]))
            for one in hints.get(name, []):  # the condition reads an option: the --rule to try
                key = "rulesdata.cli.ending_option_try" if one["rules"] else "rulesdata.cli.ending_option"
                typer.echo("  " + tr(key, condition=name, option=one["option"], value=one["value"],
                                     file=str(file), rule=" ".join(f"--rule {r}" for r in one["rules"][:1]),
                                     others=tr("rulesdata.cli.ending_option_others", rules=", ".join(
                                         "--rule " + r for r in one["rules"][1:])) if one["rules"][1:] else ""))
                if one["tried"] is not None:
                    key = "rulesdata.cli.ending_option_met" if one["tried"] else "rulesdata.cli.ending_option_unmet"
                    typer.echo("  " + tr(key, rule=one["rules"][0], condition=name, ended=one["tried"],
                                         games=tried["games"]))
    if searched is not None:
        for one in searched["by_players"]:
            _say_search(one, at(one["players"]))
        if searched["verdict"] == "cannot_end":
            raise typer.Exit(2)


def _ending_hints(rules, names: list[str]) -> dict[str, list[dict]]:
    """For each end condition of ``names`` (met by no trial game) that reads options: those
    options, their values in force and the ``--rule`` readings that could let it hold."""
    from cardbase.games.rulesdata.checking import condition_options

    out = {}
    for e in rules.endings:
        if e.name in names:
            found = condition_options(rules, e)
            if found:
                out[e.name] = found
    return out


def _try_reading(file: Path, edition, rules, options: dict, one: dict, condition: str, cards, games: int,
                 counts: list[int], decks) -> int | None:
    """The trial games played again under the first reading of ``one["rules"]`` (an option an
    end condition no game met reads; ``rules``: the file as checked, under ``options``): how many
    ended by ``condition`` (None: no reading to try)."""
    from cardbase.games.rulesdata.checking import option_rulings
    from cardbase.games.rulesdata.language import RulesFileError, load_rules
    from cardbase.games.rulings import parse_rules
    from cardbase.playtest.cards import edition_figures
    from cardbase.playtest.measures import try_counts

    if not one["rules"]:
        return None
    try:
        other = parse_rules(rules.code, [one["rules"][0]], rulings=option_rulings(rules))
        rules = load_rules(file, options={**options, **other}, card_fields=edition_figures(edition))
    except RulesFileError:
        return None
    return try_counts(rules, cards, games, counts, decks=decks)["ended_by"].get(condition, 0)


def _counts_text(counts: list[int]) -> str:
    """Player counts as a user reads them: « 2, 3, 4, 5 »."""
    return ", ".join(str(c) for c in counts)


def _say_search(searched: dict, prefix: str = "") -> None:
    """The bounded search's answer at one player count (``prefix`` names it when several were
    searched); a game proved unable to end is a problem of the file (exit 2, by the caller)."""
    verdict = searched["verdict"]
    if verdict == "ending":
        d = next(x for x in searched["deals"] if x["result"] == "ending")
        typer.echo(prefix + tr("rulesdata.cli.search_ending", condition=d["condition"], moves=d["moves"],
                               seed=d["seed"], states=d["states"]))
    elif verdict == "cannot_end":
        typer.echo(prefix + tr("rulesdata.cli.search_cannot_end", deals=searched["seeds"],
                               states=", ".join(str(x["states"]) for x in searched["deals"])), err=True)
    else:
        typer.echo(prefix + tr("rulesdata.cli.search_bound", most=searched["most_states"],
                               deals=searched["seeds"]))


@handle_errors
@plays_drafts
def measures_command(
    game: str | None = typer.Argument(None, help="The code of a game written as data (data/rules/<code>.toml)."),
    games: int = typer.Option(500, "--games", "-n", help="Number of games."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the batch."),
    bots: str = typer.Option("greedy", "--bots", "-b", help="One bot, or one per seat, comma-separated."),
    players: int | None = typer.Option(None, "--players", "-p", help="Number of players."),
    edition: list[Path] | None = typer.Option(None, "--edition", "-e", help="Edition files with the game's cards."),
    skill: int = typer.Option(200, "--skill-games", help="Games of greedy against random for the skill gap (0: none)."),
    search: int = typer.Option(0, "--search-games", help="Games of a search bot (mc) against greedy (0: none; slow)."),
    outcome: int = typer.Option(20, "--outcome-games", help="Games whose decisions are replayed to see which change the winner (0: none)."),
    deck: list[str] | None = typer.Option(None, "--deck", "-d", help="A deck (file or starter slug), one per player, for a game played with decks."),
    json_out: bool = typer.Option(False, "--json", help="JSON output."),
    rules_path: Path | None = rules_option(),
) -> None:
    """The measures of a good game: first-player advantage, length, lead changes, comebacks, decisions."""
    from cardbase.errors import CardbaseError
    from cardbase.games import registry
    from cardbase.playtest.measures import measures

    spec = registry.playable(game)
    if not 1 <= games <= 20_000:
        raise CardbaseError(tr("rulesdata.cli.bad_count", games=games))
    for extra in (skill, search, outcome):
        if not 0 <= extra <= 20_000:
            raise CardbaseError(tr("rulesdata.cli.bad_count", games=extra))
    rules = None
    if spec.rules_file is None:
        # a hand-written engine whose rules are also written as data (nespanini, pushluck): the
        # measures are taken on the rules file's games, which agree with the engine's
        # (docs/rules-language.md)
        from cardbase.games.rulesdata.language import RulesFileError, load_rules
        from cardbase.games.rulesdata.register import rules_path

        path = rules_path(spec.code)
        try:
            rules = load_rules(path) if path.is_file() else None
        except RulesFileError:
            rules = None
        # a hand-written engine without a rules file is measured on its own games
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if rules is not None and any(b not in ("random", "greedy", "mc", "ismcts") for b in names):
        raise CardbaseError(tr("rulesdata.cli.file_bots", game=spec.code, bots=", ".join(names)))
    decks = _decks(rules, deck or [], edition) if rules is not None and rules.source == "decks" else None
    if decks is not None:
        players = len(decks)
    count, names = registry.seat_bots(spec, players, names, games)
    cards = []
    if not spec.own_cards and decks is None:
        if edition:
            from cardbase.playtest.cards import load_edition_defs

            cards = [c for c in load_edition_defs(edition) if c.game == spec.code]
        else:
            from cardbase.catalog import cards as catalog
            from cardbase.cli.common import session

            with session() as s:
                cards = catalog.card_defs(s, game=spec.code)
    if rules is not None:
        from cardbase.games.rulesdata.engine import Game

        built = Game(rules, cards, count, decks=decks)
    else:
        assert spec.build is not None
        built = spec.build(cards, count)
    m = measures(built, games=games, seed=seed, bots=names, skill_games=skill, search_games=search,
                 outcome_games=outcome, code=spec.code)
    if rules is not None:
        m["rules_file"] = f"data/rules/{spec.code}.toml"
        if decks is not None:
            m["decks"] = _deck_names(rules, deck or [])
    draft = draft_of(spec.code)
    if draft is not None:  # figures of a draft, not of the game the project ships
        m["draft"] = draft
    if json_out:
        print_json(m)
        return
    from cardbase.cli.measures_report import print_measures

    say_draft(draft)
    print_measures(m)
