"""The ``shell`` tool's sandbox: the documents exported as files, each command run by bubblewrap over them.

Upstream exports each document to ``<sanitized id>.md`` (``# {title}`` and its content) beside an ``INDEX.md``,
refuses commands showing an obvious way out (``..``, ``~``, ``$HOME``, an absolute path), and runs the rest with
the folder as working directory in sandbox-runtime over bubblewrap: no network, writes there only when the
configuration allows them, a few host paths hidden. Here bubblewrap (``bwrap``, Debian's ``bubblewrap``) runs the
command itself, and the folder plus the read-only system directories are all it mounts: no host file outside them
(no ``/etc/passwd``, no home) and no network is reachable. The refusals, the exit-status texts of the tool, the
30-second limit and the fixed user, group and date of ``ls -l`` lines are upstream's.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO

from taumesh.domains import Document

BWRAP = "bwrap"
TIMEOUT_SECONDS = 30
"""Upstream's limit per command; the tool then answers exit status 124."""
OUTPUT_LIMIT_KIB = 16 * 1024
"""What a command may write to its output (each of stdout and stderr), in KiB: a runaway ``yes`` stops there."""
MOUNT_POINT = "/knowledge_base"
"""Where the exported documents appear in the sandbox, and its working directory."""
SYSTEM_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64")
"""Mounted read-only (or linked, on a merged-/usr system) beside ``/usr``, so the usual tools run."""
SYSTEM_FILES = ("/etc/alternatives", "/etc/ld.so.cache")
"""The only things of ``/etc`` the tools need (Debian's ``awk`` is an alternative); never passwd or shadow."""
INDEX_NAME = "INDEX.md"
LS_USER, LS_GROUP, LS_DATE = "kb_user", "kb_group", "Jan  1 00:00"
_SINGLE_QUOTED = re.compile(r"'[^']*'")
_DOUBLE_QUOTED = re.compile(r'"[^"]*"')
_ABSOLUTE = re.compile(r"(?:^|[\s;|&])(/[a-zA-Z][^\s;|&]*)")
_LS_LINE = re.compile(
    r"^([d\-lrwxst@]+\s+\d+\s+)(\S+)\s+(\S+)\s+(\d+)\s+(\w{3}\s+\d+\s+[\d:]+)\s+(.*)$",
    re.MULTILINE,
)


def bwrap_path() -> str | None:
    """The path of bubblewrap (``bwrap``) on this machine's PATH; None without it."""
    return shutil.which(BWRAP)


@cache
def sandbox_problem() -> str | None:
    """Why no command can run in the sandbox on this machine, or None.

    Bubblewrap is missing, or cannot make its namespaces (a container without user namespaces): tried once per
    process, with ``true`` over an empty folder, so a shell configuration is refused up front rather than answering
    every command with bubblewrap's error.
    """
    if bwrap_path() is None:
        return "needs bubblewrap (`bwrap`; Debian: apt-get install bubblewrap) on the machine running the env"
    with tempfile.TemporaryDirectory() as folder:
        try:
            code, _, stderr = Sandbox(Path(folder), writable=False).run("true", timeout=TIMEOUT_SECONDS)
        except OSError as exc:
            return f"cannot start bubblewrap: {exc}"
    if code != 0:
        return f"bubblewrap cannot make a sandbox on this machine (exit status {code}): {stderr.strip()[:300]}"
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
    """A folder of exported documents and how commands see it: read-only, or writable by them."""

    folder: Path
    writable: bool

    def run(self, command: str, timeout: int = TIMEOUT_SECONDS) -> tuple[int, str, str]:
        """``command`` by bash in the sandbox: exit status, stdout and stderr (a refusal: 1 and why)."""
        blocked = escape_pattern(command)
        if blocked is not None:
            return 1, "", f"Error: Command blocked - contains '{blocked}' which could escape the sandbox"
        bwrap = bwrap_path()
        if bwrap is None:
            raise RuntimeError("the shell tool needs bubblewrap (`bwrap`), which is not on this machine's PATH")
        with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
            try:
                completed = subprocess.run(  # noqa: S603 - the command runs inside the sandbox, which is its point
                    self._argv(bwrap, command),
                    stdin=subprocess.DEVNULL,
                    stdout=stdout,
                    stderr=stderr,
                    timeout=timeout,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                return 124, "", f"Command timed out after {timeout} seconds"
            return completed.returncode, _read(stdout), _read(stderr)

    def _argv(self, bwrap: str, command: str) -> list[str]:
        argv = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--clearenv"]
        argv += ["--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin", "--setenv", "LANG", "C.UTF-8"]
        argv += ["--ro-bind", "/usr", "/usr", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]  # noqa: S108 - the sandbox's own
        for folder in SYSTEM_DIRS:
            if os.path.islink(folder):
                argv += ["--symlink", os.readlink(folder), folder]
            elif os.path.isdir(folder):
                argv += ["--ro-bind", folder, folder]
        for path in SYSTEM_FILES:
            argv += ["--ro-bind-try", path, path]
        argv += ["--bind" if self.writable else "--ro-bind", str(self.folder), MOUNT_POINT, "--chdir", MOUNT_POINT]
        return [*argv, "bash", "-c", f"ulimit -f {OUTPUT_LIMIT_KIB}; {command}"]


def _read(output: IO[bytes]) -> str:
    output.seek(0)
    return sanitize(output.read().decode("utf-8", errors="replace"))
