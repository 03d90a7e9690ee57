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
small tmpfs. Bubblewrap is found once, at an absolute path in a root-owned system folder, never on the PATH; finding it,
its command line and running one command are :mod:`taumesh.sandbox`'s, shared with other domains.
Each command has :class:`SandboxLimits` (processes, memory, CPU, ``/tmp``, and a quota on a writable folder,
checked while it runs). Without all this (no bubblewrap, one older than 0.8, no user namespaces for ``nobody``)
:func:`sandbox_problem` says why and the shell configurations are refused.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from taumesh.domains import Document
from taumesh.domains.tau2_banking_knowledge.shell_folders import (
    Usage,
    empty_folder,
    folder_usage,
    hand_over,
    new_folder,
    process_folder,
    remove_folder,
    shell_root,
)
from taumesh.sandbox import BWRAP_LOCATIONS, Limits, bwrap_path, run_sandboxed, sandbox_identity, setup_problem

__all__ = ["BWRAP_LOCATIONS", "bwrap_path"]  # the shell's tests check the path bubblewrap is found at, as before

TIMEOUT_SECONDS = 30
"""Upstream's limit per command; the tool then answers exit status 124."""
OUTPUT_LIMIT_KIB = 16 * 1024
"""What a command may write to its output (each of stdout and stderr), in KiB: a runaway ``yes`` stops there."""
QUOTA_POLL_SECONDS = 0.2
"""How often a writable folder is measured while a command runs."""
MOUNT_POINT = "/knowledge_base"
"""Where the exported documents appear in the sandbox, and its working directory."""
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
_MIB = 1 << 20


class SandboxLimits(Limits):
    """What one shell command may use: the sandbox's limits, and a quota on a writable folder."""

    cpu_seconds: int = TIMEOUT_SECONDS
    """RLIMIT_CPU of each process."""
    output_kib: int = OUTPUT_LIMIT_KIB
    """RLIMIT_FSIZE: each of stdout and stderr, and any file written."""
    notes_mib: int = 64
    """What a writable folder may hold beyond the documents it started with."""
    notes_files: int = 10_000
    """Files and folders a writable folder may hold beyond those it started with."""


DEFAULT_LIMITS = SandboxLimits()


@cache
def sandbox_problem() -> str | None:
    """Why no command can run in the sandbox on this machine, or None.

    Bubblewrap is missing or older than 0.8, cannot make its namespaces (a container without user namespaces;
    as root: none for ``nobody``), or leaves the command a capability: tried once per process with a command
    that reads its own capabilities, so a shell configuration is refused up front rather than answering every
    command with bubblewrap's error.
    """
    problem = setup_problem(bwrap_path())
    if problem is not None:
        return problem
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
        outcome = run_sandboxed(
            bwrap,
            self.folder,
            MOUNT_POINT,
            command,
            writable=self.writable,
            limits=self.limits,
            timeout=timeout,
            scratch=process_folder(),
            watch=self._over_quota if self.writable else None,
            poll_seconds=QUOTA_POLL_SECONDS,
        )
        if outcome.stopped == "timed out":
            return 124, "", f"Command timed out after {timeout} seconds"
        if outcome.stopped == "over quota":
            self._restore()
            return 1, "", over_quota_text(self.limits)
        return outcome.code, sanitize(outcome.stdout), sanitize(outcome.stderr)

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
