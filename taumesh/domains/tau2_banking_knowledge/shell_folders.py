"""Where the ``shell`` tool's folders live on the host, who owns them, and how those of a killed env are cleaned.

Every folder the shell uses (the exported documents, a writable shell's notes, each command's captured output)
is in this process's own folder, ``<shell root>/proc-<host>-<boot>-<pid>-<start>``, never in the host's ``/tmp``. The
shell root is ``<cache>/shell`` (``TAUMESH_CACHE_DIR``); a process running as root runs bubblewrap as the
unprivileged ``nobody`` (:data:`taumesh.sandbox.SANDBOX_ID`), which must reach the folders through every parent, so as
root the root is :data:`ROOT_SHELL_ROOT` (``/root`` is closed to other users). A process removes its own folder
when it exits; the folder of one killed (SIGKILL, a crash) is removed by the next process of the same host (its
name: a container's own) that starts using the shell: its pid is gone, or now names another process (its start
time or boot differs).
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import stat
import threading
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from uuid import uuid4

from taumesh.data import cache_dir
from taumesh.sandbox import sandbox_identity

ROOT_SHELL_ROOT = Path("/var/lib/taumesh/shell")
"""The shell root of a process running as root: a path ``nobody`` can traverse (``/var/lib`` is 0755)."""
PROCESS_PREFIX = "proc-"
_TRAVERSE_ONLY = 0o711
"""The shell root's and the process folder's mode: passable to reach a folder, but no listing of the others."""
_MAKING = threading.Lock()


def shell_root() -> Path:
    """Where every process's shell folder is: :data:`ROOT_SHELL_ROOT` as root, else ``<cache>/shell``."""
    return ROOT_SHELL_ROOT if os.geteuid() == 0 else cache_dir() / "shell"


def process_folder() -> Path:
    """The folder of this process in :func:`shell_root`, made (the stale ones beside it removed) on first use."""
    with _MAKING:  # the env's worker threads may all ask at once
        return _process_folder_in(shell_root())


@cache
def _process_folder_in(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    root.chmod(_TRAVERSE_ONLY)
    clean_stale(root)
    folder = root / process_name(os.getpid())
    folder.mkdir(mode=_TRAVERSE_ONLY)
    folder.chmod(_TRAVERSE_ONLY)  # whatever the umask
    atexit.register(remove_folder, folder)
    return folder


def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text(encoding="ascii").strip().replace("-", "")[:12]
    except OSError:
        return "unknown"


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks after boot, ``/proc/<pid>/stat``); None when there is none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    return fields.rsplit(")", 1)[-1].split()[19]  # field 22, counted after the command's name and its parentheses


def process_name(pid: int) -> str:
    """The name of process ``pid``'s folder: ``proc-<host>-<boot>-<pid>-<start time>``."""
    return f"{PROCESS_PREFIX}{_host()}-{_boot_id()}-{pid}-{_start_time(pid) or 0}"


def _host() -> str:
    return "".join(c if c.isalnum() or c in ".-" else "_" for c in socket.gethostname())[:64] or "host"


def clean_stale(root: Path) -> list[Path]:
    """Remove the folders in ``root`` of this host's processes that are gone; returns them.

    Other names, and the folders of other hosts (containers sharing the volume), are left alone.
    """
    removed = []
    for entry in root.iterdir():
        parts = entry.name.removeprefix(PROCESS_PREFIX).rsplit("-", 3)
        if not entry.name.startswith(PROCESS_PREFIX) or len(parts) != 4 or not parts[2].isdigit():
            continue
        if parts[0] == _host() and entry.name != process_name(int(parts[2])):  # gone, or a pid reused since
            remove_folder(entry)
            removed.append(entry)
    return removed


def new_folder(kind: str) -> Path:
    """A new empty folder in this process's folder, named ``<kind>-<random>``."""
    folder = process_folder() / f"{kind}-{uuid4().hex}"
    folder.mkdir(mode=0o700)
    return folder


def remove_folder(folder: Path) -> None:
    """``folder`` and all it holds, whatever modes a command left on what it wrote; nothing if it is gone."""
    shutil.rmtree(folder, onerror=_writable_then_retry)


def _writable_then_retry(function: Callable[..., object], path: str, error: object) -> None:
    if isinstance(error, tuple) and isinstance(error[1], FileNotFoundError):
        return
    parent = os.path.dirname(path)
    os.chmod(parent, stat.S_IRWXU)  # a folder a command made 0000 (a root process never needs this)
    if os.path.isdir(path) and not os.path.islink(path):
        os.chmod(path, stat.S_IRWXU)
    function(path)


def empty_folder(folder: Path) -> None:
    """Remove everything ``folder`` holds, keeping the folder."""
    for entry in list(folder.iterdir()):
        if entry.is_dir() and not entry.is_symlink():
            remove_folder(entry)
        else:
            entry.unlink(missing_ok=True)


def hand_over(folder: Path, writable: bool) -> None:
    """Make ``folder`` (and what it holds) readable by the sandbox, and when ``writable`` also its own to change."""
    identity = sandbox_identity()
    for path in (folder, *folder.rglob("*")):
        if path.is_symlink():
            continue
        path.chmod(0o755 if path.is_dir() else 0o644)
        if writable and identity is not None:
            os.chown(path, identity.uid, identity.gid)


@dataclass(frozen=True)
class Usage:
    """What a folder holds: bytes of its files (their apparent size) and entries; counting stops past a limit."""

    size: int
    entries: int


def folder_usage(folder: Path, max_size: int, max_entries: int) -> Usage:
    """What ``folder`` holds, counted until either limit is passed (so a huge tree costs no more than the limit)."""
    size = entries = 0
    pending = [folder]
    while pending and size <= max_size and entries <= max_entries:
        for entry in _entries(pending.pop()):
            entries += 1
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(Path(entry.path))
                elif entry.is_file(follow_symlinks=False):
                    size += entry.stat(follow_symlinks=False).st_size
            except OSError:
                continue  # removed by the command meanwhile
    return Usage(size, entries)


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    """What ``folder`` holds; one a command closed (``chmod 000``, when the sandbox runs as this uid) is opened."""
    for attempt in range(2):
        try:
            with os.scandir(folder) as scan:
                return list(scan)
        except PermissionError:
            if attempt == 0:
                with suppress(OSError):
                    folder.chmod(stat.S_IRWXU)
        except OSError:
            break
    return []
