"""The API's own files, its SQLite database and its audit log, are the operator's alone: 0600, in folders of 0700.

The database holds the API keys' hashes and every run's configuration and results; the audit log says who called
what and when. Created here, they get those modes whatever the umask (SQLite gives its ``-wal`` and ``-shm`` files
the database's mode). Found with wider modes (made by an older taumesh, or by hand), a file is tightened to 0600
with a warning naming it. A folder that exists already is never changed (it may be a mount the operator shares on
purpose): one that others may write to gets a warning, as anyone could replace the files in it.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700


def private_dir(path: Path) -> None:
    """Create ``path`` and its missing parents 0700; warn when it exists already and others may write to it."""
    missing = [folder for folder in (path, *path.parents) if not folder.exists()]
    for folder in reversed(missing):
        folder.mkdir(mode=PRIVATE_DIR, exist_ok=True)
    mode = path.stat().st_mode
    if mode & stat.S_IWOTH and not mode & stat.S_ISVTX:
        log.warning(
            "%s is writable by every user (mode %o): anyone may replace the API's files in it; "
            "chmod o-w it or choose another folder",
            path,
            stat.S_IMODE(mode),
        )


def private_file(path: Path) -> None:
    """Create ``path`` empty and 0600 when missing (its folder 0700); tighten it to 0600 when others may use it."""
    private_dir(path.parent)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, PRIVATE_FILE))
    tighten(path)


def tighten(path: Path) -> None:
    """Make ``path`` 0600 when it exists with bits for group or others, saying so; a warning when it cannot."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return
    if not mode & 0o077:
        return
    try:
        path.chmod(mode & PRIVATE_FILE)  # the owner's read and write bits, as they were
    except OSError as exc:
        log.warning("%s is open to other users (mode %o) and could not be tightened: %s", path, mode, exc)
        return
    log.warning("%s was open to other users (mode %o): tightened to %o", path, mode, stat.S_IMODE(path.stat().st_mode))


def append_private(path: Path, text: str) -> None:
    """Append ``text`` to ``path`` in one write, creating it 0600 when missing (after a rotation, say)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, PRIVATE_FILE)
    with os.fdopen(descriptor, "a", encoding="utf-8") as handle:
        handle.write(text)
