"""The process that creates, migrates and seeds a new SQLite file beside the app's server
(issue 29; see :mod:`cardbase.ui.warmup`, which starts it, and :func:`cardbase.ui.common.read`,
which waits for it before reading the file through the read-only path)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

_LOG = logging.getLogger("cardbase.ui.warmup")  # the warm-up's messages

# The longest a page waits for the process preparing the database before taking its own path
# (which then waits for the database lock itself and says so when it stays locked).
PREPARE_WAIT_S = 120.0
_preparing = threading.Lock()
_preparations: dict[str, _Preparation] = {}


class _Preparation:
    """The process creating, migrating and seeding one SQLite file."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc

    def finish(self) -> bool:
        """Wait for the process and log its message if it failed; True when the file is ready."""
        try:
            _out, err = self.proc.communicate(timeout=PREPARE_WAIT_S)
        except subprocess.TimeoutExpired:  # left to finish on its own: the page takes its own path
            _LOG.info("warm-up stopped: the database's preparation still runs after %.0f s", PREPARE_WAIT_S)
            return False
        if self.proc.returncode != 0:
            last = (err or b"").decode("utf-8", "replace").strip().splitlines()[-1:]
            _LOG.info("warm-up stopped: the database's preparation ended with %s: %s", self.proc.returncode,
                      " ".join(last))
        return self.proc.returncode == 0

    def wait(self) -> None:
        """Until the process has ended (at most :data:`PREPARE_WAIT_S`)."""
        try:
            self.proc.wait(timeout=PREPARE_WAIT_S)
        except subprocess.TimeoutExpired:
            pass


def read_only_ready(url: str) -> bool:
    from cardbase.storage import readonly

    snapshot = readonly.open_read_only(url)
    if snapshot is None:
        return False
    snapshot.close()
    return True


def start_preparing(url: str) -> _Preparation | None:
    """Start ``python -m cardbase.storage.prepare`` for ``url`` when it is a SQLite file that the
    read-only path will read once prepared and that is not ready yet; once per process and URL.
    None: nothing to start (ready already, or a database this process prepares itself)."""
    from cardbase.storage import readonly

    if not readonly.applies(url) or read_only_ready(url):
        return None
    with _preparing:
        if url in _preparations:
            return None
        # this cardbase first (``-P``: not one that the working directory holds), in this working
        # directory (a relative SQLite path names the same file)
        root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ, DATABASE_URL=url,
                   PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
        proc = subprocess.Popen([sys.executable, "-P", "-m", "cardbase.storage.prepare"], env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        preparation = _preparations[url] = _Preparation(proc)
    return preparation


def wait_prepared(url: str) -> None:
    """Wait for the process preparing ``url``, if one was started and runs: a page reads the
    database once it is done (and takes its own path if it is not ready then)."""
    preparation = _preparations.get(url)
    if preparation is not None:
        preparation.wait()
