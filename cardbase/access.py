"""Editor mode: who may change data.

Reading is open to anyone. Changing data (cards, editions, imports, deleting decks) needs editor
mode, unlocked by a password from the environment variable ``CARDBASE_EDITOR_PASSWORD`` or from
Streamlit secrets (same key). The password is compared in constant time.

Two layers use this module:

* a **face** (the app) calls :func:`unlock` with what the user typed and keeps the returned
  token (a plain string, safe in ``st.session_state``); on every run it wraps its work in
  ``with editor_context(token):``;
* a **service function** that writes calls :func:`require_editor` first. It raises
  :class:`~cardbase.errors.PermissionDenied` when the process enforces editor mode (the app calls
  :func:`enforce` once) and neither the ``editor`` argument nor the current context carries a
  valid token. Command-line and library use do not enforce: whoever runs the command already
  owns the database file.

Tokens are HMAC signatures made with a key that lives only in this process, so a token cannot be
forged from the outside and dies with the server.

Repeated wrong passwords slow down (:func:`unlock` raises :class:`TooManyAttempts`, saying how long
to wait, without even looking at the attempt): per client (an app session) after
:data:`CLIENT_FREE_ATTEMPTS` failures, and for the whole process after :data:`PROCESS_FREE_ATTEMPTS`
failures from any clients (a new browser tab does not start afresh). Each further failure doubles
the wait, up to :data:`CLIENT_MAX_WAIT` / :data:`PROCESS_MAX_WAIT` seconds; the right password
resets the count of its client and of the process.
"""

from __future__ import annotations

import contextvars
import hashlib
import hmac
import math
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from cardbase.errors import PermissionDenied
from cardbase.i18n import tr

__all__ = [
    "PASSWORD_ENV",
    "EditorToken",
    "TooManyAttempts",
    "editor_context",
    "enforce",
    "enforced",
    "has_editor",
    "is_configured",
    "is_valid",
    "password_source",
    "require_editor",
    "unlock",
    "wait_before_unlock",
]

PASSWORD_ENV = "CARDBASE_EDITOR_PASSWORD"

EditorToken = str

_PROCESS_KEY = secrets.token_bytes(32)
_MESSAGE = b"cardbase-editor-v1"
_enforced = False
_current: contextvars.ContextVar[str | None] = contextvars.ContextVar("cardbase_editor", default=None)


# Where the face that runs keeps its secrets (the app sets Streamlit's ``st.secrets.get``, see
# cardbase/ui/common.py): this module never imports a face. None: the environment only.
secret_reader: Callable[[str], Any] | None = None


def _secret_password() -> str | None:
    """The password from the face's secrets (the app: Streamlit secrets, when a file is present)."""
    if secret_reader is None:
        return None
    try:
        value = secret_reader(PASSWORD_ENV)
    except Exception:
        return None
    return str(value) if value else None


def configured_password() -> str | None:
    """The editor password: environment variable first, then Streamlit secrets."""
    return os.environ.get(PASSWORD_ENV) or _secret_password()


def password_source() -> str | None:
    """Where the password comes from: ``"env"``, ``"secrets"`` or ``None`` (not configured)."""
    if os.environ.get(PASSWORD_ENV):
        return "env"
    if _secret_password():
        return "secrets"
    return None


def is_configured() -> bool:
    return configured_password() is not None


def _sign(password: str) -> str:
    # The token depends on the password too: changing the password logs every editor out.
    digest = hashlib.sha256(password.encode("utf-8")).digest()
    return hmac.new(_PROCESS_KEY, _MESSAGE + digest, hashlib.sha256).hexdigest()


# --------------------------------------------------------------------------- slowing down guesses

CLIENT_FREE_ATTEMPTS = 3  # wrong passwords a client may type before waiting
CLIENT_FIRST_WAIT = 2.0  # seconds after the first counted failure; doubles with each one
CLIENT_MAX_WAIT = 300.0
PROCESS_FREE_ATTEMPTS = 10  # wrong passwords from all clients before everyone waits
PROCESS_FIRST_WAIT = 2.0
PROCESS_MAX_WAIT = 900.0
_MAX_CLIENTS = 10_000  # remembered clients; the oldest are forgotten first

_clock = time.monotonic  # replaced in tests


class TooManyAttempts(PermissionDenied):
    """Too many wrong editor passwords: the next attempt is accepted after ``wait_seconds``."""

    def __init__(self, wait_seconds: float) -> None:
        self.wait_seconds = max(1, math.ceil(wait_seconds))
        super().__init__(tr("access.too_many_attempts", wait=_duration(self.wait_seconds)))


def _duration(seconds: int) -> str:
    if seconds < 60:
        return tr("access.seconds", n=seconds)
    minutes = math.ceil(seconds / 60)
    return tr("access.minutes", n=minutes)


@dataclass(slots=True)
class _Failures:
    count: int = 0
    until: float = 0.0  # clock time before which no attempt is looked at

    def fail(self, now: float, free: int, first: float, cap: float) -> None:
        self.count += 1
        if self.count >= free:
            self.until = now + min(cap, first * 2 ** (self.count - free))


_lock = threading.Lock()
_process = _Failures()
_clients: dict[str, _Failures] = {}


def _wait(client: str | None, now: float) -> float:
    waits = [_process.until - now]
    if client is not None and client in _clients:
        waits.append(_clients[client].until - now)
    return max(0.0, *waits)


def wait_before_unlock(client: str | None = None) -> float:
    """Seconds before an unlock attempt from ``client`` will be looked at (0: now)."""
    with _lock:
        return _wait(client, _clock())


def reset_attempts() -> None:
    """Forget every failed attempt (tests; a server restart does the same)."""
    global _process
    with _lock:
        _process = _Failures()
        _clients.clear()


def _record(client: str | None, ok: bool, now: float) -> None:
    """Count an attempt (the caller holds ``_lock``)."""
    if ok:
        _process.count, _process.until = 0, 0.0
        if client is not None:
            _clients.pop(client, None)
        return
    _process.fail(now, PROCESS_FREE_ATTEMPTS, PROCESS_FIRST_WAIT, PROCESS_MAX_WAIT)
    if client is not None:
        if client not in _clients and len(_clients) >= _MAX_CLIENTS:
            _clients.pop(next(iter(_clients)))
        _clients.setdefault(client, _Failures()).fail(now, CLIENT_FREE_ATTEMPTS, CLIENT_FIRST_WAIT,
                                                      CLIENT_MAX_WAIT)


def unlock(attempt: str, *, client: str | None = None) -> EditorToken | None:
    """A token when ``attempt`` is the editor password (constant-time), else ``None``.

    ``client`` names who is trying (the app passes its session id). After too many wrong
    passwords from that client, or from everyone in this process, raises :class:`TooManyAttempts`
    without looking at ``attempt``.
    """
    password = configured_password()
    if not password or not isinstance(attempt, str):
        return None
    with _lock:  # check, compare and count at once: parallel attempts cannot slip past the wait
        now = _clock()
        wait = _wait(client, now)
        if wait <= 0:
            ok = hmac.compare_digest(attempt.encode("utf-8"), password.encode("utf-8"))
            _record(client, ok, now)
    if wait > 0:
        raise TooManyAttempts(wait)
    return _sign(password) if ok else None


def is_valid(token: object) -> bool:
    """Whether ``token`` was issued by :func:`unlock` in this process for the current password."""
    if not isinstance(token, str) or not token:
        return False
    password = configured_password()
    if not password:
        return False
    return hmac.compare_digest(token.encode("ascii", "replace"), _sign(password).encode("ascii"))


def enforce(on: bool = True) -> None:
    """Make every write in this process require editor mode (the app calls this at start-up)."""
    global _enforced
    _enforced = bool(on)


def enforced() -> bool:
    return _enforced


@contextmanager
def editor_context(token: EditorToken | None) -> Iterator[None]:
    """Run a block with ``token`` as the current editor credential (``None``: a reader)."""
    reset = _current.set(token)
    try:
        yield
    finally:
        _current.reset(reset)


def has_editor(editor: EditorToken | None = None) -> bool:
    """Whether a write would be allowed now (see :func:`require_editor`)."""
    if not _enforced:
        return True
    if editor is not None:
        return is_valid(editor)
    return is_valid(_current.get())


def require_editor(editor: EditorToken | None = None, *, action: str = "change data") -> None:
    """Refuse a write unless editor mode is unlocked.

    ``editor`` is a token from :func:`unlock`; with ``None`` the token of the current
    :func:`editor_context` is used. Outside an enforcing process (command line, scripts, library
    use) everything is allowed: whoever runs them already owns the database.
    """
    if has_editor(editor):
        return
    if not is_configured():
        raise PermissionDenied(
            f"cannot {action}: editor mode is off and no editor password is configured — set the "
            f"environment variable {PASSWORD_ENV} or add {PASSWORD_ENV} = \"…\" to "
            ".streamlit/secrets.toml, restart the app, then unlock editor mode")
    raise PermissionDenied(
        f"cannot {action}: editor mode is locked — unlock it with the editor password "
        "(sidebar of the app), then try again")
