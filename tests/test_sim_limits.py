"""Limits of the simulation commands, checked before any game is played (cardbase/playtest/limits.py,
docs/shared-use.md "Limits"), and the Dask scheduler probe: whatever listens at a --scheduler
address, one clear line within a few seconds (cardbase/playtest/cluster.py)."""

from __future__ import annotations

import http.server
import socket
import threading
import time
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.errors import CardbaseError
from cardbase.playtest import limits
from cardbase.playtest.cards import load_deck_defs, starter_decks
from cardbase.playtest.cluster import connect
from cardbase.playtest.sweep import parse_values, sweep

DATA = Path(__file__).resolve().parent.parent / "data" / "editions"
NP1 = str(DATA / "NP1.toml")
BRAISES = load_deck_defs(starter_decks()["braises-ardentes"])
NBSP = "\u202f"
runner = CliRunner()


def sim(*args: str):
    from cardbase.cli.sim import app

    return runner.invoke(app, list(args))


def refused(result, *parts: str) -> str:
    """Exit code 2, no traceback, and every part in the output."""
    out = result.output
    assert result.exit_code == 2, out
    assert "Traceback" not in out
    assert result.exception is None or isinstance(result.exception, SystemExit)
    for part in parts:
        assert part in out, (part, out)
    return out


@pytest.fixture()
def no_games(monkeypatch):
    """Every batch function fails the test if called: a refusal must come before any game."""
    from cardbase.playtest import batch, games
    from cardbase.playtest import sweep as sweep_mod

    def played(*_a, **_k):
        raise AssertionError("a game was played before the input was checked")

    for mod, name in ((batch, "goldfish"), (batch, "duel"), (batch, "roundrobin"), (batch, "ladder"),
                      (games, "simulate"), (sweep_mod, "sweep")):
        monkeypatch.setattr(mod, name, played)


# ----------------------------------------------------------------------------- sweep values


def test_a_huge_range_is_counted_not_built() -> None:
    tracemalloc.start()
    try:
        with pytest.raises(CardbaseError, match=f"Trop de valeurs à essayer \\(30{NBSP}000{NBSP}000\\)"):
            parse_values("1..30000000")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # the list of 30 million values is never made


def test_values_beyond_the_bounds_are_refused_before_any_arithmetic() -> None:
    for text in ("1..100000000000000000000", "1" * 5000, "-1000000001", "3,1..9999999999999"):
        started = time.monotonic()
        with pytest.raises(CardbaseError, match="Valeur hors limites"):
            parse_values(text)
        assert time.monotonic() - started < 1
    # a step larger than the span keeps its first value; the bounds themselves are fine
    assert parse_values("1..9/99999999999999999999999") == [1]
    assert parse_values("-1000000000, 1000000000") == [-1_000_000_000, 1_000_000_000]
    assert len(parse_values("1..200")) == limits.MAX_VALUES
    with pytest.raises(CardbaseError, match=r"\(201\)"):
        parse_values("1..200,7")


def test_cli_sweep_of_a_billion_values_or_huge_numbers_exits_2_at_once(no_games) -> None:
    for values, says in (("1..1000000000", f"Trop de valeurs à essayer (1{NBSP}000{NBSP}000{NBSP}000) : 200 au plus"),
                         ("1..100000000000000000000", "Valeur hors limites")):
        started = time.monotonic()
        refused(sim("sweep", "braises-ardentes", "--edition", NP1, "--card", "NP1-011", "--values", values), says)
        assert time.monotonic() - started < 5


def test_sweep_copies_are_bounded(no_games) -> None:
    out = refused(sim("sweep", "braises-ardentes", "--edition", NP1, "--card", "NP1-011", "--field", "copies",
                      "--values", "1000000"), "--values", "1000000", "de 0 à 100 exemplaires")
    assert "rien n'a été joué" in out
    with pytest.raises(CardbaseError, match="de 0 à 100 exemplaires"):
        sweep(BRAISES, card="NP1-011", field="copies", values=[2, 101], games=2)


def test_sweep_games_times_values_is_bounded(no_games) -> None:
    out = refused(sim("sweep", "braises-ardentes", "--edition", NP1, "--card", "NP1-011", "--values", "1..100",
                      "--games", "2000"),
                  f"2{NBSP}000 parties × 100 valeurs = 200{NBSP}000 parties",
                  f"limite de 100{NBSP}000 parties par appel", "--games 1000 au plus", "--seed")
    assert out.count("  - ") == 1
    with pytest.raises(CardbaseError, match="--games 500 au plus"):
        sweep(BRAISES, card="NP1-011", values="1..200", games=1000)


def test_sweep_players_without_a_game_and_empty_bots_are_refused(no_games) -> None:
    out = refused(sim("sweep", "braises-ardentes", "--edition", NP1, "--card", "NP1-011", "--values", "1..2",
                      "--players", "0", "--bots", ",", "--workers", "-4"),
                  "3 problèmes", "--players ne sert qu'avec --game", "nom de bot vide", "entre 1 et 64")
    assert "--workers" in out and "--bots" in out
    refused(sim("sweep", "--game", "overkill", "--edition", str(DATA / "OVK.toml"), "--card", "OVK-025",
                "--field", "objectif", "--values", "15", "--players", "0"), "overkill se joue de", "pas 0")


# ----------------------------------------------------------------------------- game counts


@pytest.mark.sqlite_only("the limits are checked before the database is read; the backend does not matter")
def test_sim_game_refuses_a_trillion_games_and_bad_seats_at_once(cli_env, no_games) -> None:
    from cardbase.cli import app

    started = time.monotonic()
    out = refused(runner.invoke(app, ["sim", "game", "overkill", "--games", "1000000000000", "--players", "0",
                                      "--bots", ",", "--workers", "-4"]),
                  "4 problèmes", f"1{NBSP}000{NBSP}000{NBSP}000{NBSP}000 parties",
                  f"limite de 100{NBSP}000 parties par appel", "--games 100000 au plus", "pas 0",
                  "nom de bot vide", "-4 processus")
    assert time.monotonic() - started < 10 and "rien n'a été joué" in out


def test_goldfish_and_duel_limits(no_games) -> None:
    refused(sim("goldfish", "braises-ardentes", "--edition", NP1, "--games", "100001"),
            f"100{NBSP}001 parties", "--games 100000 au plus")
    refused(sim("goldfish", "braises-ardentes", "--edition", NP1, "--oracle-games", "-1", "--swap-games", "-3",
                "--bot", ","), "3 problèmes", "--oracle-games", "--swap-games", "ne peut pas être négatif",
            "nom de bot vide")
    refused(sim("goldfish", "braises-ardentes", "--edition", NP1, "--bot", "greedy,mc"), "n'en prend qu'un")
    refused(sim("goldfish", "braises-ardentes", "--edition", NP1, "--bot", "genius"), "bot inconnu 'genius'")
    refused(sim("duel", "braises-ardentes", "maree-et-crypte", "--edition", NP1, "--bots", ",",
                "--games", "1"), "2 problèmes", "nom de bot vide", "il en faut au moins 2")
    refused(sim("duel", "braises-ardentes", "maree-et-crypte", "--edition", NP1, "--workers", "65"),
            "65 processus", "--scheduler")


def test_roundrobin_and_ladder_count_every_pair_and_rung(no_games) -> None:
    refused(sim("roundrobin", "braises-ardentes", "maree-et-crypte", "bosquet-en-fete", "--edition", NP1,
                "--games", "40000"), f"40{NBSP}000 parties × 3 paires de decks = 120{NBSP}000 parties",
            "--games 33333 au plus")
    refused(sim("roundrobin", "--edition", NP1, "--bot", "greedy,mc"), "n'en prend qu'un")
    refused(sim("ladder", "braises-ardentes", "--edition", NP1, "--games", "40000", "--workers", "0"),
            "2 problèmes", "× 3 échelons", "--games 33333 au plus", "0 processus")


def test_limits_are_said_in_english_too() -> None:
    from cardbase.i18n import use_language

    with use_language("en"):
        problems = limits.games_problems(200_000, runs=3, unit="limits.unit.rungs")
    assert "200,000 games × 3 rungs = 600,000 games" in problems[0].message
    assert "--games 33333 at most" in problems[0].fix


# ----------------------------------------------------------------------------- --records


def test_records_paths_are_checked_before_any_game(tmp_path, no_games) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x", encoding="utf-8")
    cases = [
        (tmp_path, "est un dossier, pas un fichier"),
        (tmp_path / "missing" / "records.jsonl", "n'existe pas"),
        (a_file / "records.jsonl", "n'est pas un dossier"),
        (Path("/sys/cardbase-records.jsonl"), "impossible d'écrire"),
    ]
    for path, says in cases:
        refused(sim("goldfish", "braises-ardentes", "--edition", NP1, "--games", "10", "--records", str(path)),
                says, f"--records {path}")
        refused(sim("duel", "braises-ardentes", "maree-et-crypte", "--edition", NP1, "--games", "10",
                    "--records", str(path)), says)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]  # the probe left nothing behind


def test_an_existing_records_file_is_left_as_it_is_until_written(tmp_path) -> None:
    target = tmp_path / "records.jsonl"
    target.write_text("old\n", encoding="utf-8")
    assert limits.records_problems(target) == []
    assert target.read_text(encoding="utf-8") == "old\n"
    assert limits.records_problems(tmp_path / "new.jsonl") == [] and not (tmp_path / "new.jsonl").exists()


@pytest.mark.sqlite_only("the path is checked before the database is read; the backend does not matter")
def test_sim_game_records_is_checked_before_any_game(cli_env, tmp_path, no_games) -> None:
    from cardbase.cli import app

    out = tmp_path / "out"
    out.mkdir()
    refused(runner.invoke(app, ["sim", "game", "overkill", "--games", "10", "--records", str(out)]),
            "est un dossier")
    refused(runner.invoke(app, ["sim", "game", "overkill", "--games", "10",
                                "--records", str(out / "no" / "r.jsonl")]), "n'existe pas")
    assert list(out.iterdir()) == []


@pytest.mark.sqlite_only("a short real batch; the backend does not matter")
def test_sim_game_within_the_limits_writes_its_records(cli_env, tmp_path) -> None:
    from cardbase.cli import app

    target = tmp_path / "r.jsonl"
    r = runner.invoke(app, ["sim", "game", "overkill", "--games", "4", "--players", "2", "--workers", "1",
                            "--bots", "greedy,random", "--records", str(target), "--json"])
    assert r.exit_code == 0, r.output
    assert len(target.read_text(encoding="utf-8").splitlines()) == 4
    r = runner.invoke(app, ["sim", "game", "overkill", "--games", "4", "--bots", "greedy,"])
    refused(r, "nom de bot vide")  # a trailing comma used to be dropped silently


# ----------------------------------------------------------------------------- Dask addresses


def _bounded(fn, seconds: float = 15.0):
    """Run ``fn`` in a thread: (seconds taken, exception raised); a hang fails the test."""
    out: dict = {}

    def target() -> None:
        try:
            fn()
        except BaseException as exc:
            out["error"] = exc

    started = time.monotonic()
    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "still waiting: the connection is not bounded"
    return time.monotonic() - started, out.get("error")


@pytest.fixture()
def http_server():
    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield f"tcp://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture()
def silent_socket():
    """A socket that accepts connections (the kernel's backlog) and never says a word."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(8)
    yield f"tcp://127.0.0.1:{s.getsockname()[1]}"
    s.close()


@pytest.fixture()
def chatty_server():
    """A server that speaks first, but not Dask: a banner whose first 8 bytes read as 3 EiB."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(8)
    stop = threading.Event()

    def serve() -> None:
        s.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = s.accept()
            except OSError:
                continue
            conn.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")
            time.sleep(0.5)
            conn.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    yield f"tcp://127.0.0.1:{s.getsockname()[1]}"
    stop.set()
    t.join(2)
    s.close()


def _closed_port() -> str:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"tcp://127.0.0.1:{port}"


def test_a_web_server_is_not_a_scheduler(http_server) -> None:
    took, err = _bounded(lambda: connect(http_server, timeout=1))
    assert isinstance(err, CardbaseError) and took < 5
    assert "ne répond pas comme un ordonnanceur Dask en 1 s" in str(err) and "8787" in str(err)


def test_a_socket_that_never_answers_is_bounded(silent_socket) -> None:
    took, err = _bounded(lambda: connect(silent_socket, timeout=1))
    assert isinstance(err, CardbaseError) and took < 5
    assert "ne répond pas comme un ordonnanceur Dask" in str(err)


def test_the_probe_speaks_the_commands_language(silent_socket, http_server) -> None:
    """The probe runs in a thread of its own: its messages used to come in French under --lang en."""
    from cardbase.i18n import use_language

    def in_english(address: str) -> None:
        with use_language("en"):
            connect(address, timeout=1)

    for address in (silent_socket, http_server):
        took, err = _bounded(lambda address=address: in_english(address))
        assert isinstance(err, CardbaseError) and took < 5
        assert "does not answer as a Dask scheduler" in str(err), str(err)
        assert "ne répond pas" not in str(err)


def test_a_server_speaking_another_protocol_is_named(chatty_server) -> None:
    took, err = _bounded(lambda: connect(chatty_server, timeout=1))
    assert isinstance(err, CardbaseError) and took < 5
    assert "n'est pas un ordonnanceur Dask" in str(err)


def test_a_closed_port_is_unreachable_at_once() -> None:
    import distributed  # noqa: F401 - imported before the clock starts

    address = _closed_port()
    took, err = _bounded(lambda: connect(address, timeout=4))
    assert isinstance(err, CardbaseError)
    assert "Impossible de joindre l'ordonnanceur Dask" in str(err) and address in str(err)
    # refused is said at once, with the reason, instead of retrying until the timeout
    assert took < 3 and "Connection refused" in str(err)


@pytest.mark.parametrize("address", ["tls://127.0.0.1:8786", "ucx://127.0.0.1:8786", "ws://127.0.0.1:8786"])
def test_only_tcp_addresses_are_taken(address) -> None:
    took, err = _bounded(lambda: connect(address, timeout=1))
    assert isinstance(err, CardbaseError) and took < 5
    assert "n'est pas pris en charge, seul tcp:// l'est" in str(err) and address in str(err)


def test_cli_scheduler_at_a_web_server_or_tls_is_one_line(http_server, monkeypatch) -> None:
    from cardbase.playtest import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
    for address, says in ((http_server, "ne répond pas comme un ordonnanceur Dask"),
                          ("tls://127.0.0.1:8786", "seul tcp:// l'est")):
        started = time.monotonic()
        r = sim("goldfish", "braises-ardentes", "--edition", NP1, "--games", "10", "--scheduler", address)
        out = refused(r, says)
        assert time.monotonic() - started < 10
        assert len(out.strip().splitlines()) == 1


def test_edition_folders_and_missing_files_are_said_before_any_deck(tmp_path, no_games) -> None:
    missing = tmp_path / "nope.toml"
    for args in (["goldfish", "braises-ardentes"], ["ladder", "braises-ardentes"],
                 ["sweep", "braises-ardentes", "--card", "NP1-011", "--values", "1..2"]):
        refused(sim(*args, "--edition", str(tmp_path), "--edition", str(missing)), "2 problèmes",
                f"« {tmp_path} » est un dossier", f"« {missing} » n'existe pas")


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:99999", "tcp://127.0.0.1:0"])
def test_a_port_out_of_range_is_an_unreadable_address(address) -> None:
    took, err = _bounded(lambda: connect(address, timeout=1))
    assert isinstance(err, CardbaseError) and took < 5
    assert "Adresse d'ordonnanceur Dask illisible" in str(err)
