"""Simulations on a real Dask ``LocalCluster`` (2 worker processes) and value sweeps.

A batch run on the cluster gives the same figures, to the last digit, as the same batch run here;
a sweep plays the same deals for every value (common random numbers); an unreachable scheduler is a
clear error after the connection timeout, not a hang.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.errors import CardbaseError, NotFoundError
from cardbase.playtest.batch import duel, goldfish
from cardbase.playtest.cards import load_deck_defs, load_edition_defs, starter_decks
from cardbase.playtest.cluster import (
    SCHEDULER_ENV,
    connect,
    open_executor,
    run_chunks,
    scheduler_address,
)
from cardbase.playtest.games import simulate
from cardbase.playtest.sweep import parse_values, sweep

DATA = Path(__file__).resolve().parent.parent / "data" / "editions"
NP1 = str(DATA / "NP1.toml")
OVK = load_edition_defs([DATA / "OVK.toml"])
BRAISES = load_deck_defs(starter_decks()["braises-ardentes"])
MAREE = load_deck_defs(starter_decks()["maree-et-crypte"])
UNREACHABLE = "tcp://127.0.0.1:9"  # the discard port: nothing listens there
runner = CliRunner()


@pytest.fixture(scope="module")
def cluster():
    """A real cluster on this machine: a scheduler and 2 worker processes (one thread each)."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as lc:
        yield lc.scheduler_address


@pytest.fixture()
def executor(cluster):
    ex = connect(cluster)
    yield ex
    ex.close()


def test_the_cluster_runs_on_two_worker_processes(executor) -> None:
    workers = executor.client.scheduler_info()["workers"]
    assert len(workers) == 2 and executor.parallelism == 2
    pids = executor.client.run(__import__("os").getpid)
    assert len(set(pids.values())) == 2 and __import__("os").getpid() not in pids.values()


def test_nespanini_duel_on_the_cluster_is_identical_to_a_local_run(executor) -> None:
    seen: list[tuple[int, int]] = []
    remote = duel(BRAISES, MAREE, games=240, seed=11, executor=executor,
                  progress=lambda d, n: seen.append((d, n)))
    local = duel(BRAISES, MAREE, games=240, seed=11)
    assert remote.summary == local.summary
    assert remote.records.equals(local.records)
    # progress counts every pair once, whatever order the chunks finish in
    assert seen[-1] == (120, 120) and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_goldfish_on_the_cluster_is_identical_to_a_local_run(executor) -> None:
    remote = goldfish(BRAISES, games=120, seed=4, oracle_games=3, swap_games=10, executor=executor)
    local = goldfish(BRAISES, games=120, seed=4, oracle_games=3, swap_games=10)
    assert remote.to_dict() == local.to_dict()
    assert remote.records.equals(local.records)


def test_sim_game_overkill_on_the_cluster_is_identical_to_a_local_run(executor) -> None:
    rep_d, rec_d = simulate("overkill", OVK, bots=["greedy", "random"], games=80, seed=7, executor=executor)
    rep_l, rec_l = simulate("overkill", OVK, bots=["greedy", "random"], games=80, seed=7)
    assert rec_d == rec_l
    assert rep_d.as_dict() == rep_l.as_dict()


def test_cli_duel_with_scheduler_prints_the_local_figures(cluster, monkeypatch) -> None:
    from cardbase.cli.sim import app

    args = ["duel", "braises-ardentes", "maree-et-crypte", "--edition", NP1, "--games", "60",
            "--seed", "2", "--json"]
    local = runner.invoke(app, args)
    remote = runner.invoke(app, [*args, "--scheduler", cluster])
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    assert json.loads(remote.stdout) == json.loads(local.stdout)
    monkeypatch.setenv(SCHEDULER_ENV, cluster)  # the environment variable names the cluster too
    env = runner.invoke(app, args)
    assert env.exit_code == 0 and json.loads(env.stdout) == json.loads(local.stdout)


def test_sweep_on_the_cluster_is_identical_to_a_local_sweep(cluster) -> None:
    kw = dict(card="NP1-011", field="value", values="4..10/3", against=MAREE, games=60, seed=5)
    seen: list[tuple[int, int]] = []
    remote = sweep(BRAISES, scheduler=cluster, progress=lambda d, n: seen.append((d, n)), **kw)
    assert remote == sweep(BRAISES, **kw)
    assert seen[-1] == (180, 180)  # 3 values x 60 games


def test_crossing_is_where_the_win_rate_passes_one_half() -> None:
    from cardbase.playtest.sweep import _crossing

    pts = [{"value": v, "win_rate": w} for v, w in ((1, 0.2), (3, 0.4), (5, 0.6), (7, 0.9))]
    assert _crossing(pts) == pytest.approx(4.0)
    assert _crossing(pts[:2]) is None
    assert _crossing([{"value": 2, "win_rate": None}]) is None


def test_sweep_uses_common_random_numbers() -> None:
    res = sweep(BRAISES, card="NP1-011", values=[6, 6, 9], against=MAREE, games=80, seed=3)
    a, b, c = res["points"]
    assert {k: v for k, v in a.items()} == {k: v for k, v in b.items()}  # same value, same games
    assert c != a
    assert set(a) >= {"value", "win_rate", "ci95", "mean_score"}
    assert a["ci95"][0] <= a["win_rate"] <= a["ci95"][1]


def test_raising_a_cards_value_raises_the_goldfish_mean_score() -> None:
    res = sweep(BRAISES, card="Champion de l'arène", values="0..20/10", games=150, seed=1)
    means = [p["mean_score"] for p in res["points"]]
    assert res["mode"] == "goldfish" and [p["value"] for p in res["points"]] == [0, 10, 20]
    assert means[0] < means[1] < means[2]
    assert all(p["win_rate"] is None and p["ci95"][0] < p["mean_score"] < p["ci95"][1]
               for p in res["points"])


def test_sweep_copies_and_score_fields() -> None:
    res = sweep(BRAISES, card="NP1-011", field="copies", values="0..2", games=40, seed=1)
    assert [p["value"] for p in res["points"]] == [0, 1, 2]
    score_card = next(c for c in MAREE if (c.effect or "").startswith("score: +"))
    res = sweep(MAREE, card=score_card.ref, field="score", values=[1, 8], games=80, seed=1)
    assert res["points"][0]["mean_score"] < res["points"][1]["mean_score"]
    with pytest.raises(CardbaseError, match="Valeur 0 :"):  # a bonus of 0 is no effect: said first
        sweep(MAREE, card=score_card.ref, field="score", values=[0, 1, 2], games=10)


def test_sweep_of_a_box_games_card_stat() -> None:
    res = sweep(game="overkill", cards=OVK, card="OVK-025", field="objectif", values="15..27/12",
                games=40, seed=2)
    assert res["game"] == "overkill" and [p["value"] for p in res["points"]] == [15, 27]
    assert all(0 <= p["win_rate"] <= 1 for p in res["points"])
    again = sweep(game="overkill", cards=OVK, card="OVK-025", field="objectif", values=[15],
                  games=40, seed=2)
    assert again["points"][0] == res["points"][0]


def test_sweep_errors_name_the_problem() -> None:
    with pytest.raises(NotFoundError, match="NP1-999") as exc:
        sweep(BRAISES, card="NP1-999", values="1..3", games=10)
    assert "NP1-011" in str(exc.value)  # the cards the deck has
    with pytest.raises(CardbaseError, match="couleur.*value, copies, score"):
        sweep(BRAISES, card="NP1-011", field="couleur", values="1..3", games=10)
    with pytest.raises(CardbaseError, match="objectif"):
        sweep(game="overkill", cards=OVK, card="OVK-025", field="pari", values="1..3", games=10)
    for bad in ("9..1", "1..x", "", "1..9/0"):
        with pytest.raises(CardbaseError):
            parse_values(bad)
    assert parse_values("1..3,7, 9..13/2") == [1, 2, 3, 7, 9, 11, 13]
    with pytest.raises(CardbaseError, match="moins de 5 cartes"):
        sweep(BRAISES[:5], card=BRAISES[0].ref, field="copies", values="0..2", games=10)


def test_cli_sweep_json_and_errors() -> None:
    from cardbase.cli.sim import app

    r = runner.invoke(app, ["sweep", "braises-ardentes", "--edition", NP1, "--card", "NP1-011",
                            "--values", "4..8/4", "--against", "maree-et-crypte", "--games", "40",
                            "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert [p["value"] for p in data["points"]] == [4, 8]
    assert all(set(p) >= {"value", "win_rate", "ci95", "mean_score"} for p in data["points"])
    r = runner.invoke(app, ["sweep", "braises-ardentes", "--edition", NP1, "--card", "NP1-011",
                            "--values", "9..1"])
    assert r.exit_code == 2 and "Intervalle vide" in r.output
    r = runner.invoke(app, ["sweep", "braises-ardentes", "--edition", NP1, "--card", "NP1-011",
                            "--values", "1..2", "--against", "maree-et-crypte", "--goldfish"])
    assert r.exit_code == 2 and "s'excluent" in r.output
    r = runner.invoke(app, ["sweep", "--game", "overkill", "--edition", str(DATA / "OVK.toml"),
                            "--card", "OVK-025", "--field", "objectif", "--values", "15..27/12",
                            "--games", "20"])
    assert r.exit_code == 0, r.output
    assert "Minimiser" in r.output and "15" in r.output and "27" in r.output


def _finishes(fn, seconds: float):
    """Run ``fn`` in a thread; (finished, outcome): a hang shows as finished=False."""
    out: dict = {}

    def target() -> None:
        try:
            out["value"] = fn()
        except BaseException as exc:
            out["error"] = exc

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(seconds)
    return not t.is_alive(), out


def test_unreachable_scheduler_is_a_clear_error_not_a_hang() -> None:
    finished, out = _finishes(lambda: connect(UNREACHABLE, timeout=1), 60)
    assert finished
    err = out.get("error")
    assert isinstance(err, CardbaseError)
    assert UNREACHABLE in str(err) and "Impossible de joindre l'ordonnanceur Dask" in str(err)


def test_cli_with_unreachable_scheduler_exits_2(monkeypatch) -> None:
    from cardbase.cli.sim import app
    from cardbase.playtest import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
    r = runner.invoke(app, ["goldfish", "braises-ardentes", "--edition", NP1, "--games", "10",
                            "--scheduler", UNREACHABLE])
    assert r.exit_code == 2 and "ordonnanceur Dask" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["duel", "braises-ardentes", "maree-et-crypte", "--edition", NP1,
                            "--games", "10", "--scheduler", "http://127.0.0.1:9"])
    assert r.exit_code == 2 and "Adresse d'ordonnanceur Dask illisible" in r.output
    monkeypatch.setenv(SCHEDULER_ENV, UNREACHABLE)
    assert scheduler_address(None) == UNREACHABLE
    r = runner.invoke(app, ["sweep", "braises-ardentes", "--edition", NP1, "--card", "NP1-011",
                            "--values", "1..2", "--games", "4"])
    assert r.exit_code == 2 and UNREACHABLE in r.output


def test_no_scheduler_means_local_and_run_chunks_keeps_order() -> None:
    with open_executor(None) as ex:
        assert ex is None
    parts = run_chunks(lambda a, b, k: [k * i for i in range(a, b)], [(0, 2), (2, 5)], (3,), None)
    assert parts == [[0, 3], [6, 9, 12]]


def test_a_scheduler_without_workers_is_an_error_not_a_hang() -> None:
    from distributed import LocalCluster

    with LocalCluster(n_workers=0, processes=True, dashboard_address=":0") as lc:
        finished, out = _finishes(lambda: connect(lc.scheduler_address, timeout=1), 60)
    assert finished and isinstance(out.get("error"), CardbaseError)
    assert "aucun worker" in str(out["error"]) and "dask worker" in str(out["error"])


def test_workers_with_another_cardbase_are_named(executor, monkeypatch) -> None:
    import cardbase
    from cardbase.playtest.cluster import _check_workers

    _check_workers(executor.client, "here", 5)  # the cluster's workers have this cardbase
    real = cardbase.__version__
    monkeypatch.setattr(cardbase, "__version__", "9.9.9")
    with pytest.raises(CardbaseError, match=r"cardbase 9\.9\.9.*\(" + re.escape(real) + r"\)"):
        _check_workers(executor.client, "here", 5)


@pytest.mark.sqlite_only("the cards are read before the cluster is used; the backend does not matter")
def test_cli_sim_game_with_scheduler_prints_the_local_figures(cli_env, cluster) -> None:
    from cardbase.cli import app

    args = ["sim", "game", "overkill", "--games", "30", "--seed", "3", "--bots", "greedy,random", "--json"]
    local = runner.invoke(app, args)
    remote = runner.invoke(app, [*args, "--scheduler", cluster])
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    assert json.loads(remote.stdout) == json.loads(local.stdout)
