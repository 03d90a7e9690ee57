"""The ``shell`` tool's sandbox: the documents exported as files, each command run by bubblewrap over them.

Upstream exports each document to ``<sanitized id>.md`` (``# {title}`` and its content) beside an ``INDEX.md``,
refuses commands showing an obvious way out (``..``, ``~``, ``$HOME``, an absolute path), and runs the rest with
the folder as working directory in sandbox-runtime over bubblewrap: no network, writes there only when the
configuration allows them, a few host paths hidden. Here bubblewrap (``bwrap``, Debian's ``bubblewrap``) runs the
command itself, and the folder plus the read-only system directories are all it mounts: no host file outside them
(no ``/etc/passwd``, no home) and no network is reachable. The refusals, the exit-status texts of the tool, the
30-second limit and the fixed user, group and date of ``ls -l`` lines are upstream's.

The sandbox holds when the env runs as root, as CI does. Bubblewrap started by root would keep every capability
(a command could remount ``/usr`` and the documents writable, or write ``/proc/sys``), so a root process runs it
as the unprivileged ``nobody`` (:func:`.shell_folders.sandbox_identity`), in a user namespace of its own with
every capability dropped and no further user namespace; ``/``, ``/proc`` and ``/dev`` are read-only, ``/tmp`` a
small tmpfs. Bubblewrap is found once, at an absolute path in a root-owned system folder, never on the PATH.
Each command has :class:`SandboxLimits` (processes, memory, CPU, ``/tmp``, and a quota on a writable folder,
checked while it runs). Without all this (no bubblewrap, one older than 0.8, no user namespaces for ``nobody``)
:func:`sandbox_problem` says why and the shell configurations are refused.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO, Literal

from pydantic import BaseModel, ConfigDict

from taumesh.domains import Document
from taumesh.domains.tau2_banking_knowledge.shell_folders import (
    Usage,
    empty_folder,
    folder_usage,
    hand_over,
    new_folder,
    process_folder,
    remove_folder,
    sandbox_identity,
    shell_root,
)

BWRAP_LOCATIONS = ("/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap")
"""Where bubblewrap is looked for, in order, once per process: never on the PATH (a folder on it may be writable)."""
SETPRIV_LOCATIONS = ("/usr/bin/setpriv", "/bin/setpriv")
"""Where util-linux's ``setpriv`` is looked for, the same way: a root env starts bubblewrap through it as ``nobody``.

Not Python's ``Popen(user=...)``: that forks instead of vforking, and grpcio's fork handlers then crash the child.
"""
MINIMUM_BWRAP = (0, 8)
"""The first bubblewrap with ``--size`` (a bounded ``/tmp``) and ``--disable-userns``."""
TIMEOUT_SECONDS = 30
"""Upstream's limit per command; the tool then answers exit status 124."""
OUTPUT_LIMIT_KIB = 16 * 1024
"""What a command may write to its output (each of stdout and stderr), in KiB: a runaway ``yes`` stops there."""
QUOTA_POLL_SECONDS = 0.2
"""How often a writable folder is measured while a command runs."""
MOUNT_POINT = "/knowledge_base"
"""Where the exported documents appear in the sandbox, and its working directory."""
SYSTEM_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64")
"""Mounted read-only (or linked, on a merged-/usr system) beside ``/usr``, so the usual tools run."""
SYSTEM_FILES = ("/etc/alternatives", "/etc/ld.so.cache")
"""The only things of ``/etc`` the tools need (Debian's ``awk`` is an alternative); never passwd or shadow."""
INDEX_NAME = "INDEX.md"
LS_USER, LS_GROUP, LS_DATE = "kb_user", "kb_group", "Jan  1 00:00"
_PROBE = "grep -q '^CapEff:[[:space:]]*0*$' '/proc/self/status' && echo sandboxed || echo capabilities-kept"
_SINGLE_QUOTED = re.compile(r"'[^']*'")
_DOUBLE_QUOTED = re.compile(r'"[^"]*"')
_ABSOLUTE = re.compile(r"(?:^|[\s;|&])(/[a-zA-Z][^\s;|&]*)")
_LS_LINE = re.compile(
    r"^([d\-lrwxst@]+\s+\d+\s+)(\S+)\s+(\S+)\s+(\d+)\s+(\w{3}\s+\d+\s+[\d:]+)\s+(.*)$",
    re.MULTILINE,
)
_VERSION = re.compile(r"(\d+)\.(\d+)")
_MIB = 1 << 20


class SandboxLimits(BaseModel):
    """What one command may use. Processes count per sandbox (its own user namespace), memory per process."""

    model_config = ConfigDict(frozen=True)

    processes: int = 64
    """RLIMIT_NPROC in the sandbox: a fork bomb stops there."""
    memory_mib: int = 512
    """RLIMIT_AS of each process."""
    cpu_seconds: int = TIMEOUT_SECONDS
    """RLIMIT_CPU of each process."""
    tmp_mib: int = 64
    """The size of the sandbox's ``/tmp`` (a tmpfs: memory, so bounded)."""
    notes_mib: int = 64
    """What a writable folder may hold beyond the documents it started with."""
    notes_files: int = 10_000
    """Files and folders a writable folder may hold beyond those it started with."""
    output_kib: int = OUTPUT_LIMIT_KIB
    """RLIMIT_FSIZE: each of stdout and stderr, and any file written."""

    def ulimits(self) -> str:
        """The bash that sets them in the sandbox, before the command (soft and hard: it cannot raise them)."""
        limits = {"f": self.output_kib, "u": self.processes, "v": self.memory_mib * 1024, "t": self.cpu_seconds}
        return "; ".join(f"ulimit -{flag} {value}" for flag, value in limits.items())


DEFAULT_LIMITS = SandboxLimits()


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


def _trusted(path: Path) -> bool:
    """Owned by root or this uid, and writable by no group or other user."""
    info = path.stat()
    return info.st_uid in (0, os.geteuid()) and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def bwrap_version(bwrap: str) -> tuple[int, int] | None:
    """``bwrap --version``'s major and minor; None when it does not say."""
    try:
        said = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=10, check=False)  # noqa: S603 - a fixed absolute path
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = _VERSION.search(said.stdout)
    return (int(found.group(1)), int(found.group(2))) if found else None


@cache
def sandbox_problem() -> str | None:
    """Why no command can run in the sandbox on this machine, or None.

    Bubblewrap is missing or older than 0.8, cannot make its namespaces (a container without user namespaces;
    as root: none for ``nobody``), or leaves the command a capability: tried once per process with a command
    that reads its own capabilities, so a shell configuration is refused up front rather than answering every
    command with bubblewrap's error.
    """
    bwrap = bwrap_path()
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
    try:
        folder = new_folder("probe")
    except OSError as exc:
        return f"cannot make the shell's folders in {shell_root()}: {exc}"
    try:
        hand_over(folder, writable=False)
        code, stdout, stderr = Sandbox(folder, writable=False).run(_PROBE, timeout=TIMEOUT_SECONDS)
    except OSError as exc:
        return f"cannot start bubblewrap: {exc}"
    finally:
        remove_folder(folder)
    if stdout == "capabilities-kept\n":
        return "bubblewrap cannot drop every capability on this machine (its probe kept some)"
    if code != 0 or stdout != "sandboxed\n":
        identity = sandbox_identity()
        as_whom = f" (run as uid {identity.uid}, as a root env runs it)" if identity is not None else ""
        return f"bubblewrap cannot make a sandbox on this machine (exit status {code}): {stderr.strip()[:300]}{as_whom}"
    return None


def file_name(document_id: str) -> str:
    """The file a document is exported to, without its extension: the id with anything unusual made ``_``."""
    safe = document_id.replace("/", "_").replace("\\", "_").replace("..", "_")
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in safe)[:255]


def index_text(documents: Sequence[Document]) -> str:
    """``INDEX.md``: every exported file and its document's title, in id order."""
    lines = [f"- **{file_name(doc.id)}.md** - {doc.title or doc.id}\n" for doc in sorted(documents, key=_by_id)]
    header = f"# Knowledge Base Index\n\n**Total documents:** {len(documents)}\n\n## Documents\n\n"
    return header + "".join(lines)


def _by_id(document: Document) -> str:
    return document.id


def export_documents(documents: Sequence[Document], folder: Path) -> None:
    """Each document as ``<file name>.md`` in ``folder``, and ``INDEX.md``."""
    for doc in documents:
        text = f"# {doc.title or doc.id}\n\n{doc.text}"
        (folder / f"{file_name(doc.id)}.md").write_text(text, encoding="utf-8", newline="")
    (folder / INDEX_NAME).write_text(index_text(documents), encoding="utf-8", newline="")


def escape_pattern(command: str) -> str | None:
    """What in ``command`` could leave the documents' folder (upstream's check, quoted text aside); None if nothing."""
    stripped = _DOUBLE_QUOTED.sub('""', _SINGLE_QUOTED.sub('""', command))
    if ".." in stripped:
        return ".."
    absolute = _ABSOLUTE.search(stripped)
    if absolute:
        return f"absolute path: {absolute.group(1)}"
    if stripped.strip().startswith("/"):
        return "absolute path at start"
    if "~" in stripped:
        return "~"
    if "$HOME" in stripped or "${HOME}" in stripped:
        return "$HOME"
    return None


def sanitize(output: str) -> str:
    """``ls -l`` lines with upstream's fixed user, group and date."""
    return _LS_LINE.sub(
        lambda line: f"{line.group(1)}{LS_USER}  {LS_GROUP}  {line.group(4)} {LS_DATE} {line.group(6)}", output
    )


Stopped = Literal["exited", "timed out", "over quota"]


@dataclass(frozen=True)
class Sandbox:
    """A folder of exported documents and how commands see it: read-only, or writable by them.

    A writable folder holds at most :attr:`SandboxLimits.notes_mib` beyond ``pristine`` (the documents it started
    as): a command passing that is stopped, and the folder is restored to ``pristine`` (emptied without one).
    """

    folder: Path
    writable: bool
    pristine: Path | None = None
    limits: SandboxLimits = DEFAULT_LIMITS

    def run(self, command: str, timeout: int = TIMEOUT_SECONDS) -> tuple[int, str, str]:
        """``command`` by bash in the sandbox: exit status, stdout and stderr (a refusal: 1 and why).

        Blocks until the command ends (``timeout`` seconds at most): the env runs it in its worker pool.
        """
        blocked = escape_pattern(command)
        if blocked is not None:
            return 1, "", f"Error: Command blocked - contains '{blocked}' which could escape the sandbox"
        bwrap = bwrap_path()
        if bwrap is None:
            raise RuntimeError(f"the shell tool needs bubblewrap (`bwrap`), which is not at {BWRAP_LOCATIONS}")
        with _output() as stdout, _output() as stderr:
            process = subprocess.Popen(  # noqa: S603 - the command runs inside the sandbox, which is its point
                [*launcher(), *self._argv(bwrap, command)],
                stdin=subprocess.DEVNULL,
                stdout=stdout,
                stderr=stderr,
                cwd="/",
            )
            stopped = self._wait(process, timeout)
            if stopped == "timed out":
                return 124, "", f"Command timed out after {timeout} seconds"
            if stopped == "over quota":
                self._restore()
                return 1, "", over_quota_text(self.limits)
            return process.returncode, _read(stdout), _read(stderr)

    def _wait(self, process: subprocess.Popen[bytes], timeout: int) -> Stopped:
        """Until ``process`` ends, is past ``timeout`` or (writable) its folder is over quota; then it is killed."""
        deadline = time.monotonic() + timeout
        poll = QUOTA_POLL_SECONDS if self.writable else float(timeout)
        while True:
            try:
                process.wait(timeout=max(min(poll, deadline - time.monotonic()), 0.0))
            except subprocess.TimeoutExpired:
                stopped: Stopped | None = None
                if time.monotonic() >= deadline:
                    stopped = "timed out"
                elif self._over_quota():
                    stopped = "over quota"
                if stopped is not None:
                    process.kill()  # bubblewrap; --die-with-parent takes the sandbox and all in it along
                    process.wait()
                    return stopped
                continue
            return "over quota" if self.writable and self._over_quota() else "exited"

    def _quota(self) -> Usage:
        start = _usage(self.pristine) if self.pristine is not None else Usage(0, 0)
        return Usage(start.size + self.limits.notes_mib * _MIB, start.entries + self.limits.notes_files)

    def _over_quota(self) -> bool:
        quota = self._quota()
        used = folder_usage(self.folder, quota.size, quota.entries)
        return used.size > quota.size or used.entries > quota.entries

    def _restore(self) -> None:
        empty_folder(self.folder)
        if self.pristine is not None:
            shutil.copytree(self.pristine, self.folder, dirs_exist_ok=True)
        hand_over(self.folder, writable=True)

    def _argv(self, bwrap: str, command: str) -> list[str]:
        argv = [bwrap, "--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL"]
        argv += ["--die-with-parent", "--new-session", "--clearenv"]
        argv += ["--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin", "--setenv", "LANG", "C.UTF-8"]
        argv += ["--ro-bind", "/usr", "/usr", "--proc", "/proc", "--remount-ro", "/proc"]  # /proc/sys and all
        argv += ["--dev", "/dev", "--remount-ro", "/dev"]  # its null, zero, ... stay writable, its tmpfs not
        argv += ["--size", str(self.limits.tmp_mib * _MIB), "--tmpfs", "/tmp"]  # noqa: S108 - the sandbox's own
        for folder in SYSTEM_DIRS:
            if os.path.islink(folder):
                argv += ["--symlink", os.readlink(folder), folder]
            elif os.path.isdir(folder):
                argv += ["--ro-bind", folder, folder]
        for path in SYSTEM_FILES:
            argv += ["--ro-bind-try", path, path]
        argv += ["--bind" if self.writable else "--ro-bind", str(self.folder), MOUNT_POINT, "--chdir", MOUNT_POINT]
        argv += ["--remount-ro", "/"]  # bubblewrap's own root (a tmpfs) last, once all is mounted on it
        return [*argv, "bash", "-c", f"{self.limits.ulimits()}; {command}"]


def over_quota_text(limits: SandboxLimits) -> str:
    """What a command that filled a writable folder past its quota gets as its stderr (exit status 1)."""
    return (
        f"the writable folder went over its quota ({limits.notes_mib} MiB and {limits.notes_files} files beyond "
        "the documents): the command was stopped and the folder restored to the documents"
    )


@cache
def _usage(pristine: Path) -> Usage:
    """What a pristine export holds (it never changes: one per knowledge base)."""
    return folder_usage(pristine, max_size=1 << 62, max_entries=1 << 62)


def _output() -> IO[bytes]:
    """A nameless file for a command's stdout or stderr, in this process's shell folder (never the host's /tmp)."""
    return tempfile.TemporaryFile(dir=process_folder())


def _read(output: IO[bytes]) -> str:
    output.seek(0)
    return sanitize(output.read().decode("utf-8", errors="replace"))
