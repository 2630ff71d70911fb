"""A throwaway PostgreSQL cluster for the test suite.

One cluster per test session: ``initdb`` into a temporary directory, ``pg_ctl start`` on a free
loopback port with its unix socket inside that directory, durability switched off for speed, and
everything deleted at the end. PostgreSQL refuses to run as root, so when the tests run as root the
server runs as the unprivileged ``postgres`` system user (or ``CARDBASE_PG_USER``).

Each test gets its own database, copied from a migrated template with ``CREATE DATABASE … TEMPLATE``
(a file copy: milliseconds, where running the migrations and the seeding would take a second).

Environment:
- ``CARDBASE_PG_BIN``: folder holding ``initdb`` and ``pg_ctl`` (default: the newest
  ``/usr/lib/postgresql/*/bin``, then ``pg_config --bindir``, then ``PATH``);
- ``CARDBASE_PG_USER``: system user that runs the server when the tests run as root.
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

ADMIN_USER = "cardbase"
SPEED_SETTINGS = (
    "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
    "-c max_connections=200 -c shared_buffers=64MB -c log_min_messages=warning"
)


class PgUnavailable(RuntimeError):
    """PostgreSQL server binaries are not installed, or the cluster could not start."""


def find_pg_bin() -> Path:
    """The folder of ``initdb`` / ``pg_ctl``; raises :class:`PgUnavailable` when there is none."""
    env = os.environ.get("CARDBASE_PG_BIN")
    candidates: list[Path] = [Path(env)] if env else []

    def version(path: str) -> tuple[int, ...]:
        part = Path(path).parent.name
        return tuple(int(x) for x in part.split(".") if x.isdigit())

    candidates += [Path(p).parent for p in sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                                                   key=lambda p: version(str(Path(p).parent)),
                                                   reverse=True)]
    if shutil.which("pg_config"):
        try:
            out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True)
            candidates.append(Path(out.stdout.strip()))
        except (OSError, subprocess.CalledProcessError):
            pass
    if shutil.which("initdb"):
        candidates.append(Path(shutil.which("initdb")).parent)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    raise PgUnavailable(
        "PostgreSQL server binaries (initdb, pg_ctl) not found — install Debian's `postgresql` "
        "package (apt-get install postgresql) or set CARDBASE_PG_BIN to their folder")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class PgCluster:
    """A running throwaway cluster. Use :meth:`start` and :meth:`stop` (or ``with``)."""

    bin_dir: Path
    root: Path
    port: int
    run_as: str | None  # system user that owns and runs the server; None: the current user
    _counter: itertools.count = field(default_factory=lambda: itertools.count(1))
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    @property
    def socket_dir(self) -> Path:
        return self.root / "sock"

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    def start(cls) -> PgCluster:
        bin_dir = find_pg_bin()
        run_as = None
        if os.geteuid() == 0:
            run_as = os.environ.get("CARDBASE_PG_USER", "postgres")
            try:
                pw = pwd.getpwnam(run_as)
            except KeyError as exc:
                raise PgUnavailable(
                    f"running as root and there is no {run_as!r} system user to run PostgreSQL — "
                    "install the postgresql package or set CARDBASE_PG_USER") from exc
        root = Path(tempfile.mkdtemp(prefix="cardbase-pg-"))
        cluster = cls(bin_dir=bin_dir, root=root, port=free_port(), run_as=run_as)
        try:
            cluster.socket_dir.mkdir()
            if run_as:
                for path in (root, cluster.socket_dir):
                    os.chown(path, pw.pw_uid, pw.pw_gid)
            cluster._run("initdb", "-D", str(cluster.data_dir), "-U", ADMIN_USER, "-A", "trust",
                         "-E", "UTF8", "--locale=C", "--no-sync")
            options = (f"-p {cluster.port} -k {cluster.socket_dir} -c listen_addresses=127.0.0.1 "
                       f"{SPEED_SETTINGS}")
            cluster._run("pg_ctl", "-D", str(cluster.data_dir), "-l", str(root / "server.log"),
                         "-o", options, "-w", "-t", "60", "start")
        except BaseException:
            cluster._log_tail_and_cleanup()
            raise
        (root / "owner.pid").write_text(str(os.getpid()))
        atexit.register(cluster.stop)  # also when the session ends without running its fixtures
        return cluster

    @staticmethod
    def remove_orphans() -> list[Path]:
        """Stop and delete clusters left by test sessions that were killed (their owner is dead)."""
        removed = []
        for owner in Path(tempfile.gettempdir()).glob("cardbase-pg-*/owner.pid"):
            try:
                os.kill(int(owner.read_text()), 0)
                continue  # the session that made it is still running
            except ProcessLookupError:
                pass
            except (ValueError, OSError):
                continue
            root = owner.parent
            try:
                bin_dir = find_pg_bin()
            except PgUnavailable:
                return removed
            run_as = os.environ.get("CARDBASE_PG_USER", "postgres") if os.geteuid() == 0 else None
            orphan = PgCluster(bin_dir=bin_dir, root=root, port=0, run_as=run_as)
            orphan.stop()
            removed.append(root)
        return removed

    def stop(self) -> None:
        if not self.root.exists():
            return
        try:
            if (self.data_dir / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data_dir), "-m", "immediate", "-w", "stop",
                          check=False)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def _run(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        cmd = [str(self.bin_dir / tool), *args]
        if self.run_as:
            cmd = ["runuser", "-u", self.run_as, "--", *cmd]
        proc = subprocess.run(cmd, check=False, capture_output=True, text=True, cwd=self.root,
                              stdin=subprocess.DEVNULL)
        if check and proc.returncode != 0:
            raise PgUnavailable(f"{tool} failed ({proc.returncode}): {proc.stderr.strip() or proc.stdout.strip()}")
        return proc

    def _log_tail_and_cleanup(self) -> None:
        log = self.root / "server.log"
        if log.exists():
            print(log.read_text(errors="replace")[-2000:])
        self.stop()

    # ------------------------------------------------------------------ databases

    def url(self, database: str = "postgres") -> str:
        """SQLAlchemy URL (psycopg 3) of ``database`` on this cluster, over loopback TCP."""
        return f"postgresql+psycopg://{ADMIN_USER}@127.0.0.1:{self.port}/{database}"

    def _admin(self):
        import psycopg

        return psycopg.connect(host="127.0.0.1", port=self.port, user=ADMIN_USER, dbname="postgres",
                               autocommit=True)

    def execute(self, sql: str) -> None:
        """Run one statement on the maintenance database (outside any transaction)."""
        with self._admin() as conn:
            conn.execute(sql)

    def server_version(self) -> int:
        if not hasattr(self, "_version"):
            with self._admin() as conn:
                self._version = int(conn.execute("SHOW server_version_num").fetchone()[0])
        return self._version

    def new_name(self, prefix: str = "t") -> str:
        with self._lock:
            return f"{prefix}_{os.getpid()}_{next(self._counter)}"

    def create_database(self, name: str | None = None, *, template: str | None = None) -> str:
        """Create a database (a copy of ``template`` when given); returns its name."""
        name = name or self.new_name()
        sql = f'CREATE DATABASE "{name}"'
        if template:
            # PostgreSQL ≥ 15 copies through the WAL by default: no checkpoint, so it stays fast
            # (about 0.1 s) while other tests write; FILE_COPY measured 2-3× slower here.
            sql += f' TEMPLATE "{template}"'
        else:
            sql += " TEMPLATE template0"
        self.execute(sql)
        return name

    def drop_database(self, name: str) -> None:
        self.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def mark_template(self, name: str) -> None:
        """Forbid connections to a template database so that copies of it never wait."""
        self.execute(f"ALTER DATABASE \"{name}\" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false")


class DatabaseSupply:
    """Copies of template databases made ahead of need, and used ones dropped, in a background
    thread: a test takes a ready database instead of waiting for ``CREATE DATABASE``, and never
    waits for a ``DROP DATABASE``."""

    def __init__(self, cluster: PgCluster, templates: list[str], ahead: int = 2) -> None:
        import queue

        self.cluster = cluster
        self.ahead = ahead
        self.ready: dict[str, queue.Queue[str]] = {t: queue.Queue() for t in templates}
        self.used: queue.Queue[str] = queue.Queue()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._work, name="pg-database-supply", daemon=True)
        self._thread.start()

    def take(self, template: str) -> str:
        """The name of a fresh copy of ``template`` (made now if none is ready)."""
        import queue

        try:
            name = self.ready[template].get_nowait()
        except queue.Empty:
            name = self.cluster.create_database(template=template)
        self._wake.set()
        return name

    def release(self, name: str) -> None:
        self.used.put(name)
        self._wake.set()

    def _work(self) -> None:
        while not self._stop.is_set():
            busy = False
            for template, ready in self.ready.items():
                if ready.qsize() < self.ahead and not self._stop.is_set():
                    try:
                        ready.put(self.cluster.create_database(template=template))
                    except Exception:
                        return
                    busy = True
            if not self.used.empty() and not self._stop.is_set():
                name = self.used.get_nowait()
                try:
                    self.cluster.drop_database(name)
                except Exception as exc:
                    print(f"could not drop test database {name}: {exc}")
                busy = True
            if not busy:
                self._wake.wait(0.5)
                self._wake.clear()

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(30)
