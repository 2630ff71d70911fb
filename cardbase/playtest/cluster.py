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
import threading
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


SUPPORTED_SCHEMES = ("tcp",)  # tls:// needs certificates given to the client, ucx:// its own stack
HANDSHAKE_MAX = 64 * 1024  # a scheduler's first message is well under 1 KiB


def connect(address: str, *, timeout: float | None = None) -> DaskExecutor:
    """A client of the Dask scheduler at ``address``; a clear error when it cannot be reached
    within ``timeout`` seconds (default :data:`CONNECT_TIMEOUT`).

    Only ``tcp://`` addresses are taken (a bare ``host:port`` is tcp). Before the Dask client is
    built, :func:`probe` checks that a Dask scheduler answers there, connection *and* first
    message within ``timeout``: a web server, a silent socket or a closed port is one clear line.
    """
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
        if scheme in SUPPORTED_SCHEMES:
            host, port = parse_host_port(location)
            if not 0 < int(port) < 65536:
                raise ValueError(port)
    except (ValueError, TypeError) as exc:
        raise CardbaseError(tr("dask.bad_address", address=address)) from exc
    if scheme not in SUPPORTED_SCHEMES:
        raise CardbaseError(tr("dask.unsupported_scheme", address=address, scheme=scheme))
    probe(host, port, address, timeout)
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except Exception as exc:  # whatever the client meets: one line for the user
        raise CardbaseError(tr("dask.unreachable", address=address, timeout=f"{timeout:g}",
                               detail=str(exc).splitlines()[0] if str(exc) else type(exc).__name__)) from exc
    try:
        _check_workers(client, address, timeout)
    except BaseException:
        client.close()
        raise
    return DaskExecutor(client)


def probe(host: str, port: int, address: str, timeout: float) -> None:
    """Check, within ``timeout`` seconds in all, that a Dask scheduler listens at ``host:port``.

    A Dask peer speaks first: on a new connection it sends its handshake (Dask's TCP framing: the
    byte length of the frames as a little-endian 64-bit number, the frame count and lengths, then
    one msgpack frame: a map with ``compression``, ``python`` and ``pickle-protocol``). The probe
    connects, reads that first message with a deadline and checks it; it sends nothing, so a
    scheduler only sees a connection closed before its handshake. The work runs in a daemon thread
    joined with the deadline, so even a name lookup that hangs does not hold the command.
    """
    outcome: dict[str, BaseException | None] = {}

    def run() -> None:
        try:
            _probe(host, port, address, timeout)
            outcome["error"] = None
        except BaseException as exc:  # handed back to the caller's thread
            outcome["error"] = exc

    import contextvars

    # the thread gets this context, so its messages are in the command's language (--lang)
    thread = threading.Thread(target=contextvars.copy_context().run, args=(run,),
                              name="cardbase-dask-probe", daemon=True)
    thread.start()
    thread.join(timeout + 0.5)
    if "error" not in outcome:
        raise CardbaseError(tr("dask.unreachable", address=address, timeout=f"{timeout:g}",
                               detail=tr("dask.probe_timeout")))
    error = outcome["error"]
    if isinstance(error, CardbaseError):
        raise error
    if error is not None:  # anything else the socket layer raised: still one line
        raise CardbaseError(tr("dask.unreachable", address=address, timeout=f"{timeout:g}",
                               detail=str(error) or type(error).__name__)) from error


def _probe(host: str, port: int, address: str, timeout: float) -> None:
    import socket
    import struct
    import time

    deadline = time.monotonic() + timeout
    left = f"{timeout:g}"
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as exc:
        detail = tr("dask.probe_timeout") if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise CardbaseError(tr("dask.unreachable", address=address, timeout=left, detail=detail)) from exc
    try:
        def read(n: int) -> bytes:
            data = bytearray()
            while len(data) < n:
                rest = deadline - time.monotonic()
                if rest <= 0:
                    raise TimeoutError
                sock.settimeout(rest)
                got = sock.recv(min(n - len(data), 65536))
                if not got:
                    raise ConnectionError
                data += got
            return bytes(data)

        try:
            (size,) = struct.unpack("<Q", read(8))
            if not 16 <= size <= HANDSHAKE_MAX:
                raise ValueError(size)
            body = read(size)
        except TimeoutError as exc:
            raise CardbaseError(tr("dask.not_answering", address=address, timeout=left)) from exc
        except (ValueError, OSError) as exc:  # ConnectionError is an OSError
            raise CardbaseError(tr("dask.not_dask", address=address)) from exc
    finally:
        sock.close()
    if not _is_handshake(body):
        raise CardbaseError(tr("dask.not_dask", address=address))


def _is_handshake(body: bytes) -> bool:
    """Whether ``body`` (the frames of a first message) is a Dask handshake."""
    import struct

    import msgpack

    try:
        (count,) = struct.unpack_from("<Q", body, 0)
        if not 1 <= count <= 16:
            return False
        lengths = struct.unpack_from(f"<{count}Q", body, 8)
        start = 8 + 8 * count
        if start + sum(lengths) != len(body):
            return False
        info = msgpack.unpackb(body[start:start + lengths[0]], raw=False, strict_map_key=False)
    except (struct.error, ValueError, TypeError, msgpack.UnpackException):
        return False
    return isinstance(info, dict) and "pickle-protocol" in info


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


def game_seed(seed: int, i: int) -> int:
    """The deal seed of game ``i`` of a batch seeded ``seed`` (every batch: NesPanini's, a box
    game's, Overseers'; here, so that a box game's batch loads no NesPanini engine)."""
    return (seed * 1_000_003 + i * 7_919 + 12_345) % (2**63)


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
