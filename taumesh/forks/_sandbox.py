"""How a fork's worker process is started: a clean environment, and bubblewrap or an unprivileged uid around it.

The worker runs a fork's own Python, so it gets nothing of the process that starts it but what running Python needs:

* **its environment** is an allowlist (``PATH``, ``LANG``, ``LANGUAGE``, ``TZ``, ``TERM``, ``LC_*``, ``PYTHON*``),
  without any name that looks like a credential, plus a throwaway ``HOME`` and ``TMPDIR`` and litellm's offline
  switch: no ``TAUMESH_TOKEN``, no provider key, whatever the env service holds;
* **with bubblewrap** (``TAUMESH_FORK_SANDBOX=auto``, the default, when ``/usr/bin/bwrap`` works; ``bwrap`` requires
  it): new user, pid, network, IPC, UTS and cgroup namespaces, every capability dropped, uid 65534 inside, nothing
  of the host's files but the system's (``/usr``, the dynamic loader's cache), Python's installation, taumesh's own
  package and the fork's checkout, all read-only; a fresh ``/proc`` (its ``sys`` read-only) and ``/dev``, an empty
  ``/tmp``; it dies with the process that started it. It sees none of the host's processes, so it cannot signal
  the env service;
* **without it** (``TAUMESH_FORK_SANDBOX=process``, or ``auto`` where bwrap is missing or cannot make a user
  namespace): its own session (process group), and, when taumesh runs as root, uid and gid 65534 (``nobody``), so
  it can neither signal the env nor read its files; as root, the fork's checkout is copied where 65534 can read it
  (root-owned, so it cannot write it). Run as another user, the worker has that user's rights (see docs/forks.md).

The bubblewrap binary is looked up once, at a fixed absolute path, never on ``PATH``.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import shutil
import site
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import taumesh

SANDBOX_ENV = "TAUMESH_FORK_SANDBOX"
MODES = ("auto", "bwrap", "process")
BWRAP = Path("/usr/bin/bwrap")
"""Debian's and Fedora's bubblewrap; a fixed path, so nothing earlier on ``PATH`` can stand in for it."""
UNPRIVILEGED = 65534
"""The uid and gid (``nobody``/``nogroup``) the worker runs as: in bubblewrap, and outside it when taumesh is root."""
SANDBOX_TMP = "/tmp"  # noqa: S108 - the sandbox's own empty tmpfs, not the host's
SANDBOX_HOME = f"{SANDBOX_TMP}/home"

KEPT_NAMES = frozenset({"PATH", "LANG", "LANGUAGE", "TZ", "TERM"})
KEPT_PREFIXES = ("LC_", "PYTHON")
CREDENTIAL = re.compile(r"KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|COOKIE|SESSION", re.IGNORECASE)
"""Names never passed on, even when allowlisted (``PYTHON_KEYRING_...``)."""
OFFLINE = {"LITELLM_LOCAL_MODEL_COST_MAP": "True"}
"""Set for the worker, which has no network under bubblewrap: τ-bench's ``envs/user.py`` imports litellm, which
would otherwise try (three times, seconds apart) to fetch its model cost map on import."""

SYSTEM_PATHS = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/alternatives",
)
"""Host paths the bubblewrapped worker sees (read-only), besides Python, taumesh and the fork: what running needs."""
COVERED_PROC = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus")
"""Parts of the fresh ``/proc`` made read-only: bubblewrap started by root maps uid 65534 inside to root outside."""

log = logging.getLogger(__name__)


class SandboxError(RuntimeError):
    """The worker cannot be started as configured (``TAUMESH_FORK_SANDBOX=bwrap`` without a working bubblewrap)."""


def sandbox_mode() -> str:
    """``$TAUMESH_FORK_SANDBOX``: ``auto`` (default), ``bwrap`` or ``process``; ValueError on anything else."""
    mode = os.environ.get(SANDBOX_ENV, "auto").strip() or "auto"
    if mode not in MODES:
        raise ValueError(f"{SANDBOX_ENV}={mode!r}: expected one of {', '.join(MODES)}")
    return mode


def clean_environment(home: str) -> dict[str, str]:
    """The environment of this process reduced to the allowlist, with ``HOME`` and ``TMPDIR`` set to ``home``."""
    kept = {
        name: value
        for name, value in os.environ.items()
        if (name in KEPT_NAMES or name.startswith(KEPT_PREFIXES)) and not CREDENTIAL.search(name)
    }
    return kept | {"HOME": home, "TMPDIR": home} | OFFLINE


@functools.cache
def bwrap_problem() -> str | None:
    """Why bubblewrap cannot hold the worker here (None: it can); probed once per process."""
    if not os.access(BWRAP, os.X_OK):
        return f"{BWRAP} is not installed (Debian: apt-get install bubblewrap)"
    probe = [str(BWRAP), *_namespaces(), "--ro-bind", "/", "/", "--", "/bin/true"]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=30, check=False)  # noqa: S603
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{BWRAP} did not run: {exc}"
    if done.returncode != 0:
        return f"{BWRAP} cannot make the worker's namespaces here: {done.stderr.strip()[:300]}"
    return None


def use_bwrap() -> bool:
    """Whether workers start under bubblewrap, per :func:`sandbox_mode`; SandboxError when required and unusable."""
    mode = sandbox_mode()
    if mode == "process":
        return False
    problem = bwrap_problem()
    if problem is None:
        return True
    if mode == "bwrap":
        raise SandboxError(f"{SANDBOX_ENV}=bwrap, but {problem}")
    log.warning("fork workers run without bubblewrap (its own session%s): %s", _uid_note(), problem)
    return False


def _uid_note() -> str:
    return f", uid {UNPRIVILEGED}" if os.geteuid() == 0 else ""


def _namespaces() -> list[str]:
    return [
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--uid",
        str(UNPRIVILEGED),
        "--gid",
        str(UNPRIVILEGED),
        "--cap-drop",
        "ALL",
        "--die-with-parent",
        "--new-session",
    ]


@dataclass
class Launched:
    """A started worker: its process (bubblewrap's, or the worker's keeper) and the folders made for it."""

    process: subprocess.Popen[bytes]
    folders: list[Path] = field(default_factory=list)

    def cleanup(self) -> None:
        """Remove the folders made for the worker (its process must be gone)."""
        for folder in self.folders:
            shutil.rmtree(folder, ignore_errors=True)
        self.folders.clear()


def launch(root: Path, control_fd: int, memory_mb: int) -> Launched:
    """Start ``python -m taumesh.forks._worker ROOT CONTROL_FD MEMORY_MB`` for the fork at ``root``, held as above."""
    if use_bwrap():
        worker = [sys.executable, "-m", "taumesh.forks._worker", str(root), str(control_fd), str(memory_mb)]
        argv = [str(BWRAP), *_namespaces(), *_filesystem(root), "--chdir", str(root), "--", *worker]
        process = subprocess.Popen(  # noqa: S603 - our own module, under bubblewrap at a fixed path
            argv,
            env=clean_environment(SANDBOX_HOME),  # bubblewrap's own processes too: the sandbox can read theirs
            pass_fds=(control_fd,),
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        return Launched(process)
    as_root = os.geteuid() == 0
    if as_root and not _reachable_by_others(Path(sys.executable).resolve()):
        raise SandboxError(
            f"without bubblewrap, a root taumesh runs fork workers as uid {UNPRIVILEGED}, which cannot run "
            f"{Path(sys.executable).resolve()} (a folder above it is closed to others): install bubblewrap, or "
            "run taumesh as an unprivileged user"
        )
    home = Path(tempfile.mkdtemp(prefix="taumesh-fork-home-"))
    launched_folders = [home]
    if as_root:
        os.chown(home, UNPRIVILEGED, UNPRIVILEGED)
        root = _readable_copy(root, launched_folders)
    worker = [sys.executable, "-m", "taumesh.forks._worker", str(root), str(control_fd), str(memory_mb)]
    unprivileged = UNPRIVILEGED if as_root else None
    try:
        process = subprocess.Popen(  # noqa: S603 - our own module, by the interpreter running us
            worker,
            cwd=root,
            env=clean_environment(str(home)),
            pass_fds=(control_fd,),
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            user=unprivileged,
            group=unprivileged,
            extra_groups=[] if as_root else None,
        )
    except BaseException:
        for folder in launched_folders:
            shutil.rmtree(folder, ignore_errors=True)
        raise
    return Launched(process, folders=launched_folders)


def _filesystem(root: Path) -> list[str]:
    """The bubblewrap arguments of the worker's filesystem: fresh /proc, /dev and /tmp, and read-only binds."""
    argv = ["--proc", "/proc"]
    for covered in COVERED_PROC:
        argv += ["--ro-bind-try", covered, covered]
    argv += ["--dev", "/dev", "--tmpfs", SANDBOX_TMP, "--dir", SANDBOX_HOME]
    for name in SYSTEM_PATHS:
        path = Path(name)
        if path.is_symlink():
            argv += ["--symlink", os.readlink(path), name]
        elif path.exists():
            argv += ["--ro-bind", name, name]
    python = {Path(sys.base_prefix), Path(sys.prefix), *map(Path, site.getsitepackages())}
    python.add(Path(taumesh.__file__).resolve().parent)
    bound: list[Path] = []
    for path in sorted({p.resolve() for p in python if p.exists()} | {root.resolve()}):
        if not any(path.is_relative_to(outer) for outer in bound):
            bound.append(path)
            argv += ["--ro-bind", str(path), str(path)]
    return argv


def _readable_copy(root: Path, folders: list[Path]) -> Path:
    """``root``, or (when uid 65534 cannot read it) a root-owned copy it can read but not write."""
    if _readable_by_others(root):
        return root
    folder = Path(tempfile.mkdtemp(prefix="taumesh-fork-copy-"))
    folders.append(folder)
    folder.chmod(0o755)
    copy = folder / root.name
    shutil.copytree(root, copy, symlinks=True)
    for path in [copy, *copy.rglob("*")]:
        if not path.is_symlink():
            path.chmod(0o755 if path.is_dir() else 0o644)
    return copy


def _reachable_by_others(path: Path) -> bool:
    """Whether others (uid 65534) may pass every folder above ``path``, by the mode bits."""
    return all(folder.stat().st_mode & stat.S_IXOTH for folder in path.parents)


def _readable_by_others(root: Path) -> bool:
    """Whether others (uid 65534) can reach ``root`` and read everything under it, by the mode bits."""
    if not _reachable_by_others(root):
        return False
    for path in [root, *root.rglob("*")]:
        if path.is_symlink():
            continue
        need = stat.S_IROTH | (stat.S_IXOTH if path.is_dir() else 0)
        if path.stat().st_mode & need != need:
            return False
    return True
