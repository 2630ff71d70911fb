"""Batches on a Dask cluster against local processes. Prints figures; asserts nothing.

    python benchmarks/bench_dask.py [--pairs N] [--repeat 3] [--big-workers 8]

Workload: a NesPanini duel (braises-ardentes against maree-et-crypte, greedy bots), N seeds, each
played twice with seats swapped (``run_duel_chunk``), through the same chunk runner the commands
use (:func:`cardbase.playtest.cluster.run_chunks`). Figures:

1. throughput in this process, on 2 local processes (``ProcessPoolExecutor``) and on a 2-worker
   ``LocalCluster`` (processes, one thread each), same chunks; the cluster's overhead as a ratio;
2. the chunk size's effect on the cluster (games a chunk, from a few to a quarter of the batch);
3. a simulated larger cluster (more workers than cores): games run by each worker (where each
   chunk's result lives), and whether the results are the same as in this process.

Every runner starts with fresh processes (spawned: nothing inherited), plays the same number of other
seeds first (the engine's score caches fill as in a long run), then is timed on new seeds; a
reference run in a fresh process checks that the rows are the same. Cluster start-up is printed apart.
Figures depend on the machine's load (printed first).
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from cardbase.playtest.batch import run_duel_chunk
from cardbase.playtest.cards import load_deck_defs, starter_decks
from cardbase.playtest.cluster import DaskExecutor, chunks, run_chunks

DECKS = (tuple(load_deck_defs(starter_decks()["braises-ardentes"])),
         tuple(load_deck_defs(starter_decks()["maree-et-crypte"])))


def args(seed: int) -> tuple:
    return (DECKS, ("greedy", "greedy"), seed, 10)


def timed(executor, pairs: int, parts: int, seed: int) -> tuple[float, list]:
    """Games/s of a duel of ``pairs`` seeds cut into ``parts`` chunks, and its rows in order."""
    spans = chunks(pairs, parts)
    t = time.perf_counter()
    out = run_chunks(run_duel_chunk, spans, args(seed), executor)
    dt = time.perf_counter() - t
    return 2 * pairs / dt, [r for p in out for r in p]


def best(executor, pairs: int, parts: int, seed: int, repeat: int) -> tuple[float, list]:
    """The best of ``repeat`` timings, each on new seeds (the machine is shared); first run's rows."""
    rate, rows = timed(executor, pairs, parts, seed)
    for k in range(1, repeat):
        rate = max(rate, timed(executor, pairs, parts, seed + 1000 * k)[0])
    return rate, rows


def warm(executor, pairs: int, parts: int) -> None:
    """Fill the score caches of ``executor``'s processes as a long run would (other seeds)."""
    run_chunks(run_duel_chunk, chunks(pairs, parts), args(999), executor)


def reference(pairs: int, seed: int) -> list:
    """The rows of the same duel played in a fresh process (nothing shared with the runs above)."""
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as one:
        return one.submit(run_duel_chunk, 0, pairs, *args(seed)).result()


def cluster(workers: int):
    import logging

    from distributed import Client, LocalCluster

    t = time.perf_counter()
    lc = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=logging.CRITICAL)
    ex = DaskExecutor(Client(lc.scheduler_address, set_as_default=False))
    return lc, ex, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=1500, help="seeds of the duel (2 games each)")
    ap.add_argument("--repeat", type=int, default=3, help="timings kept: the best of this many")
    ap.add_argument("--big-workers", type=int, default=8, help="workers of the simulated larger cluster")
    a = ap.parse_args()
    n = a.pairs
    print(f"cores: {os.cpu_count()}, load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"workload: duel braises-ardentes v maree-et-crypte, greedy, {n} seeds = {2 * n} games;")
    print(f"every runner first plays {n} other seeds (warm score caches), then is timed on new seeds")

    print(f"\n1. throughput (games/s, best of {a.repeat}), 8 chunks")
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as one:
        warm(one, n, 1)
        here, _ = best(one, n, 1, 1, a.repeat)
    print(f"   1 process               : {here:8.0f}")
    with ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn")) as pool:
        warm(pool, n, 8)
        local, res_local = best(pool, n, 8, 2, a.repeat)
    print(f"   2 local processes       : {local:8.0f}")
    lc, ex, start = cluster(2)
    try:
        warm(ex, n, 8)
        remote, res_dask = best(ex, n, 8, 2, a.repeat)
        print(f"   LocalCluster, 2 workers : {remote:8.0f}   (cluster start {start:.2f} s)")
        print(f"   overhead ratio (2 processes / cluster): {local / remote:.3f}")
        ref = reference(n, 2)
        print(f"   same rows as a single process: 2 processes {res_local == ref}, cluster {res_dask == ref}")

        print(f"\n2. chunk size on the 2-worker cluster (best of {a.repeat}, each on new seeds)")
        print("   seeds/chunk  chunks   games/s  same rows as a single process")
        for k, size in enumerate((5, 25, 100, max(1, n // 8), max(1, n // 2))):
            parts = -(-n // size)
            rate, res = best(ex, n, parts, 10 + k, a.repeat)
            print(f"   {size:>11} {parts:>7} {rate:9.0f}  {res == reference(n, 10 + k)}")
    finally:
        ex.close()
        lc.close()

    w = a.big_workers
    print(f"\n3. simulated larger cluster: {w} workers (1 thread each) on {os.cpu_count()} cores")
    lc, ex, start = cluster(w)
    try:
        print(f"   cluster start {start:.2f} s")
        warm(ex, n, 4 * w)
        for k, per_worker in enumerate((1, 4)):
            spans = chunks(n, per_worker * w)
            t = time.perf_counter()
            futures = [ex.submit(run_duel_chunk, s, e, *args(20 + k)) for s, e in spans]
            parts = ex.client.gather(futures)
            rate = 2 * n / (time.perf_counter() - t)
            where = ex.client.who_has(futures)
            games = Counter()
            for (s, e), f in zip(spans, futures):
                games[where[f.key][0]] += 2 * (e - s)
            res = [r for p in parts for r in p]
            counts = sorted(games.values())
            print(f"   {len(spans)} chunks ({per_worker} a worker): {rate:.0f} games/s; games per worker "
                  f"{counts} (min/max {counts[0] / counts[-1]:.2f}, {len(games)} of {w} workers used); "
                  f"same rows as a single process: {res == reference(n, 20 + k)}")
            del futures
    finally:
        ex.close()
        lc.close()


if __name__ == "__main__":
    main()
