"""Where batch chunks run: in this process, on local processes, or on a Dask cluster.

A batch is cut into chunks of consecutive games (``spans``); :func:`run_chunks` hands each chunk
to an executor and puts the results back in chunk order, so a batch gives the same figures, to the
last digit, whatever runs it. Any ``concurrent.futures`` executor works (an object with
``submit(fn, *args)`` returning futures with ``result()``); :class:`DaskExecutor` adapts a
``dask.distributed`` client to the same shape.

A Dask cluster is named by its scheduler's address (``tcp://host:8786``), given with
``--scheduler`` or the ``CARDBASE_DASK_SCHEDULER`` environment variable. Chunk functions are module
functions of cardbase and their arguments are plain values (the cards as :class:`CardDef`), so a
worker needs cardbase (same version) installed and nothing else: no database, no files. See
docs/cluster.md.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from cardbase.errors import CardbaseError
from cardbase.i18n import tr

Progress = Callable[[int, int], None]
SCHEDULER_ENV = "CARDBASE_DASK_SCHEDULER"
CONNECT_TIMEOUT = 5.0  # seconds to reach a scheduler before giving up


def scheduler_address(address: str | None = None) -> str | None:
    """The scheduler to use: ``address`` if given, else ``CARDBASE_DASK_SCHEDULER``, else None."""
    address = (address or "").strip() or os.environ.get(SCHEDULER_ENV, "").strip()
    return address or None


class DaskExecutor:
    """A ``dask.distributed`` client seen as an executor: ``submit`` returns futures.

    ``parallelism`` is the number of worker threads of the cluster (how many chunks run at once),
    used to size chunks. Tasks are submitted impure (``pure=False``): every chunk is its own task.
    """

    def __init__(self, client: Any) -> None:
        self.client = client

    @property
    def address(self) -> str:
        return self.client.scheduler.address

    @property
    def parallelism(self) -> int:
        threads = self.client.nthreads()
        return max(1, sum(threads.values())) if threads else 1

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        return self.client.submit(fn, *args, pure=False)

    def as_completed(self, futures: Sequence[Any]) -> Iterator[Any]:
        from distributed import as_completed

        return iter(as_completed(list(futures), loop=self.client.loop))

    def close(self) -> None:
        self.client.close()


def connect(address: str, *, timeout: float | None = None) -> DaskExecutor:
    """A client of the Dask scheduler at ``address``; a clear error when it cannot be reached
    within ``timeout`` seconds (default :data:`CONNECT_TIMEOUT`)."""
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    try:
        from distributed import Client
        from distributed.comm.addressing import parse_address, parse_host_port
        from distributed.comm.registry import backends
    except ImportError as exc:
        raise CardbaseError(tr("dask.not_installed")) from exc
    try:  # a malformed address is said at once (a client built on it would not close cleanly)
        scheme, location = parse_address(address)
        if scheme not in backends:
            raise ValueError(scheme)
        if scheme in ("tcp", "tls"):
            parse_host_port(location)
    except (ValueError, TypeError) as exc:
        raise CardbaseError(tr("dask.bad_address", address=address)) from exc
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise CardbaseError(tr("dask.unreachable", address=address, timeout=f"{timeout:g}",
                               detail=str(exc).splitlines()[0] if str(exc) else type(exc).__name__)) from exc
    try:
        _check_workers(client, address, timeout)
    except BaseException:
        client.close()
        raise
    return DaskExecutor(client)


def worker_version() -> str:
    """Run on each worker at connection: the cardbase version it has (fails if it has none)."""
    import cardbase

    return cardbase.__version__


def _check_workers(client: Any, address: str, timeout: float) -> None:
    """A cluster without workers would wait for ever, and one without cardbase (or with another
    version) would fail or play other rules: both are said before any game is sent."""
    import cardbase

    try:
        client.wait_for_workers(1, timeout=timeout)
    except (TimeoutError, OSError) as exc:
        raise CardbaseError(tr("dask.no_workers", address=address, timeout=f"{timeout:g}")) from exc
    found = client.run(worker_version, on_error="return")
    bad = sorted(f"{w} ({v if isinstance(v, str) else type(v).__name__})"
                 for w, v in found.items() if v != cardbase.__version__)
    if bad:
        raise CardbaseError(tr("dask.bad_workers", workers=", ".join(bad), version=cardbase.__version__))


@contextmanager
def open_executor(scheduler: str | None = None, *, timeout: float | None = None) -> Iterator[DaskExecutor | None]:
    """The Dask executor of ``scheduler`` (or ``CARDBASE_DASK_SCHEDULER``) for the ``with`` block;
    None when no scheduler is named (batches then run on local processes)."""
    address = scheduler_address(scheduler)
    if address is None:
        yield None
        return
    ex = connect(address, timeout=timeout)
    try:
        yield ex
    finally:
        ex.close()


def parallelism(executor: Any, workers: int | None = None) -> int:
    """How many chunks ``executor`` runs at once (its workers), to size the chunks."""
    par = getattr(executor, "parallelism", None)
    if par:
        return int(par)
    return workers or getattr(executor, "_max_workers", None) or os.cpu_count() or 2


def chunks(n: int, parts: int) -> list[tuple[int, int]]:
    """``range(n)`` cut into at most ``parts`` spans of consecutive items, as (start, stop)."""
    size = max(1, -(-n // max(1, parts)))
    return [(i, min(n, i + size)) for i in range(0, n, size)]


def run_chunks(fn: Callable[..., list], spans: Sequence[tuple[int, int]], args: tuple, executor: Any,
               *, progress: Progress | None = None, total: int | None = None,
               weights: Sequence[int] | None = None) -> list[list]:
    """``fn(start, stop, *args)`` for every span on ``executor`` (None: here); results in span order.

    ``args`` may also be a list with one argument tuple per span. ``progress(done, total)`` is called
    as chunks finish (in any order); ``done`` counts the items (``stop - start``, or ``weights``).
    """
    per_span = isinstance(args, list)
    weights = list(weights) if weights is not None else [b - a for a, b in spans]
    total = total if total is not None else sum(weights)
    if executor is None:
        out, done = [], 0
        for j, (a, b) in enumerate(spans):
            out.append(fn(a, b, *(args[j] if per_span else args)))
            done += weights[j]
            if progress:
                progress(done, total)
        return out
    futures = [executor.submit(fn, a, b, *(args[j] if per_span else args)) for j, (a, b) in enumerate(spans)]
    index = {id(f): j for j, f in enumerate(futures)}
    results: list[Any] = [None] * len(futures)
    done = 0
    completed = executor.as_completed(futures) if hasattr(executor, "as_completed") else cf.as_completed(futures)
    try:
        for fut in completed:
            j = index[id(fut)]
            results[j] = fut.result()
            done += weights[j]
            if progress:
                progress(done, total)
    except BaseException:
        for f in futures:
            f.cancel()
        raise
    return results
