"""A game's playable rules file (``data/rules/<code>.toml``, docs/rules-language.md): read with its
version, checked (every problem at once), and saved whole or not at all — refused when someone saved
the file since the version the change started from, never overwriting their work.

The Jeux page's rules panel and ``cardbase games rules CODE`` both go through here. The version of a
file is a short digest of its text (``""`` when the game has no rules file yet), so any change made
in between — by the app, the command line or an editor — is seen, not only the ones made here.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from pathlib import Path

from cardbase import access
from cardbase.errors import CardbaseError, Problem, StaleEditError
from cardbase.i18n import tr

NO_FILE = ""  # the version of a game that has no rules file yet


def rules_version(text: str) -> str:
    """The version of a rules text: the first 12 hex digits of its SHA-256."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def read_rules(code: str) -> tuple[str, str]:
    """The text of the game's rules file and its version (``("", NO_FILE)`` without a file)."""
    from cardbase.games.rulesdata.language import read_rules_text
    from cardbase.games.rulesdata.register import rules_path

    path = rules_path(code)
    if not path.exists():
        return "", NO_FILE
    text = read_rules_text(path)
    return text, rules_version(text)


def check_text(code: str, text: str, name: str | None = None, *,
               card_fields: Callable[[str], Iterable[str] | None] | None = None) -> tuple[object | None, list[Problem]]:
    """The rules read from ``text`` (None when it does not pass) and its problems (``name``: the
    file named in them, by default the game's own; ``card_fields``: the figures of the game's
    cards, so that a misspelt ``card.field`` is a problem — see ``parse_rules_text``)."""
    from cardbase.games.rulesdata.language import MAX_FILE_BYTES, RulesFileError, parse_rules_text

    name = name or f"{code}.toml"
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        return None, [Problem("rules-file", tr("rulesdata.too_big", file=name, limit=MAX_FILE_BYTES),
                              tr("rulesdata.ui.too_big_fix"), name)]
    try:
        rules = parse_rules_text(text, name, card_fields=card_fields)
    except RulesFileError as exc:
        return None, list(exc.problems)
    if rules.code != code:
        return None, [Problem("rules-file", tr("rulesdata.ui.code_mismatch", code=rules.code, game=code),
                              tr("rulesdata.ui.code_mismatch_fix", game=code), name)]
    return rules, []


@contextmanager
def _folder_locked(folder: Path):
    """Hold an exclusive lock on the rules folder while a save compares and replaces, so two saves
    started at once are taken one after the other (the second then sees the first one's version)."""
    try:
        import fcntl
    except ImportError:  # no POSIX locks here: the version check still refuses most stale saves
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def save_rules(code: str, text: str, expected_version: str, *, name: str | None = None,
               card_fields: Callable[[str], Iterable[str] | None] | None = None) -> str:
    """Write the rules file of ``code`` whole or not at all, after checking it; refused (nothing
    written) when it has problems or when the file's version is no longer ``expected_version``.
    Returns the new version."""
    from cardbase.games.rulesdata.register import rules_path

    access.require_editor(action="save a rules file")
    rules, problems = check_text(code, text, name, card_fields=card_fields)
    if rules is None:
        raise CardbaseError(tr("rulesdata.ui.not_saved"), problems)
    path = rules_path(code)
    path.parent.mkdir(parents=True, exist_ok=True)
    with _folder_locked(path.parent):
        current = read_rules(code)[1]
        if current != expected_version:
            raise StaleEditError(tr("rulesfiles.stale", code=code, expected=expected_version or "—",
                                    current=current or "—"),
                                 current={"version": current}, attempted={"version": expected_version})
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{code}.", suffix=".toml")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    return rules_version(text)
