"""Finding bubblewrap and building its command line: one command, one folder mounted at a mount point.

Bubblewrap started by root would keep every capability (a command could remount ``/usr`` writable, or write
``/proc/sys``), so a root process runs it as the unprivileged ``nobody`` through ``setpriv``, in a user namespace
of its own with every capability dropped and no further user namespace; ``/``, ``/proc`` and ``/dev`` are
read-only, ``/tmp`` a small tmpfs. Bubblewrap and setpriv are found once, at absolute paths in root-owned system
folders, never on the PATH (a folder on it may be writable).
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

BWRAP_LOCATIONS = ("/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap")
"""Where bubblewrap is looked for, in order, once per process: never on the PATH (a folder on it may be writable)."""
SETPRIV_LOCATIONS = ("/usr/bin/setpriv", "/bin/setpriv")
"""Where util-linux's ``setpriv`` is looked for, the same way: a root env starts bubblewrap through it as ``nobody``.

Not Python's ``Popen(user=...)``: that forks instead of vforking, and grpcio's fork handlers then crash the child.
"""
MINIMUM_BWRAP = (0, 8)
"""The first bubblewrap with ``--size`` (a bounded ``/tmp``) and ``--disable-userns``."""
SANDBOX_ID = 65534
"""The uid and gid bubblewrap runs as when this process is root: Debian's ``nobody``/``nogroup``, the kernel's
overflow id, owning nothing on the host."""
SYSTEM_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64")
"""Mounted read-only (or linked, on a merged-/usr system) beside ``/usr``, so the usual tools run."""
SYSTEM_FILES = ("/etc/alternatives", "/etc/ld.so.cache")
"""The only things of ``/etc`` the tools need (Debian's ``awk`` is an alternative); never passwd or shadow."""
DEFAULT_SECONDS = 30
"""The CPU seconds a process may use unless a caller's limits say otherwise."""
_VERSION = re.compile(r"(\d+)\.(\d+)")
_MIB = 1 << 20


@dataclass(frozen=True)
class Identity:
    """Whom bubblewrap runs as."""

    uid: int
    gid: int


def sandbox_identity() -> Identity | None:
    """The unprivileged uid and gid bubblewrap runs as when this process is root; None: as this process."""
    return Identity(SANDBOX_ID, SANDBOX_ID) if os.geteuid() == 0 else None


class Limits(BaseModel):
    """What one command may use. Processes count per sandbox (its own user namespace), memory per process."""

    model_config = ConfigDict(frozen=True)

    processes: int = 64
    """RLIMIT_NPROC in the sandbox: a fork bomb stops there."""
    memory_mib: int = 512
    """RLIMIT_AS of each process."""
    cpu_seconds: int = DEFAULT_SECONDS
    """RLIMIT_CPU of each process."""
    tmp_mib: int = 64
    """The size of the sandbox's ``/tmp`` (a tmpfs: memory, so bounded)."""
    output_kib: int = 16 * 1024
    """RLIMIT_FSIZE: each of stdout and stderr, and any file written."""

    def ulimits(self) -> str:
        """The bash that sets them in the sandbox, before the command (soft and hard: it cannot raise them)."""
        limits = {"f": self.output_kib, "u": self.processes, "v": self.memory_mib * 1024, "t": self.cpu_seconds}
        return "; ".join(f"ulimit -{flag} {value}" for flag, value in limits.items())


@cache
def bwrap_path() -> str | None:
    """Bubblewrap's absolute path: the first of :data:`BWRAP_LOCATIONS` that only root (or this uid) can change."""
    return _program(BWRAP_LOCATIONS)


@cache
def setpriv_path() -> str | None:
    """``setpriv``'s absolute path, found as bubblewrap's is."""
    return _program(SETPRIV_LOCATIONS)


def _program(locations: Sequence[str]) -> str | None:
    for location in locations:
        path = Path(location).resolve()
        if path.is_file() and os.access(path, os.X_OK) and _trusted(path) and _trusted(path.parent):
            return str(path)
    return None


def _trusted(path: Path) -> bool:
    """Owned by root or this uid, and writable by no group or other user."""
    info = path.stat()
    return info.st_uid in (0, os.geteuid()) and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def launcher() -> list[str]:
    """What bubblewrap's command line starts with: nothing, or as root ``setpriv`` making it ``nobody``."""
    identity = sandbox_identity()
    if identity is None:
        return []
    setpriv = setpriv_path()
    if setpriv is None:
        raise RuntimeError(
            f"a root env runs bubblewrap as uid {identity.uid} with setpriv, which is not at {SETPRIV_LOCATIONS}"
        )
    return [setpriv, f"--reuid={identity.uid}", f"--regid={identity.gid}", "--clear-groups", "--"]


def bwrap_version(bwrap: str) -> tuple[int, int] | None:
    """``bwrap --version``'s major and minor; None when it does not say."""
    try:
        said = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=10, check=False)  # noqa: S603 - a fixed absolute path
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = _VERSION.search(said.stdout)
    return (int(found.group(1)), int(found.group(2))) if found else None


def setup_problem(bwrap: str | None) -> str | None:
    """Why ``bwrap`` (:func:`bwrap_path`'s answer) cannot even be started here, or None.

    Missing, no setpriv for a root env, or older than 0.8. Whether it can make its namespaces is for the caller
    to try with a probe command of its own.
    """
    if bwrap is None:
        return (
            "needs bubblewrap (`bwrap`; Debian: apt-get install bubblewrap) in "
            + " or ".join(str(Path(location).parent) for location in BWRAP_LOCATIONS)
            + " on the machine running the env, owned by root"
        )
    if sandbox_identity() is not None and setpriv_path() is None:
        return "needs util-linux's setpriv (in /usr/bin or /bin): an env running as root runs bubblewrap as nobody"
    version = bwrap_version(bwrap)
    if version is not None and version < MINIMUM_BWRAP:
        return f"needs bubblewrap 0.8 or later (--size, --disable-userns); {bwrap} is {version[0]}.{version[1]}"
    return None


def bwrap_argv(
    bwrap: str, folder: Path, mount_point: str, command: str, *, writable: bool, limits: Limits
) -> list[str]:
    """Bubblewrap's command line running ``command`` by bash with ``folder`` at ``mount_point``, its working directory.

    No network, no host file but the folder and the read-only system directories, a fresh session, a clear
    environment, and ``limits`` set by ``ulimit`` before the command.
    """
    argv = [bwrap, "--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL"]
    argv += ["--die-with-parent", "--new-session", "--clearenv"]
    argv += ["--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin", "--setenv", "LANG", "C.UTF-8"]
    argv += ["--ro-bind", "/usr", "/usr", "--proc", "/proc", "--remount-ro", "/proc"]  # /proc/sys and all
    argv += ["--dev", "/dev", "--remount-ro", "/dev"]  # its null, zero, ... stay writable, its tmpfs not
    argv += ["--size", str(limits.tmp_mib * _MIB), "--tmpfs", "/tmp"]  # noqa: S108 - the sandbox's own
    for system in SYSTEM_DIRS:
        if os.path.islink(system):
            argv += ["--symlink", os.readlink(system), system]
        elif os.path.isdir(system):
            argv += ["--ro-bind", system, system]
    for path in SYSTEM_FILES:
        argv += ["--ro-bind-try", path, path]
    argv += ["--bind" if writable else "--ro-bind", str(folder), mount_point, "--chdir", mount_point]
    argv += ["--remount-ro", "/"]  # bubblewrap's own root (a tmpfs) last, once all is mounted on it
    return [*argv, "bash", "-c", f"{limits.ulimits()}; {command}"]
