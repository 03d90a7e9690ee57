"""The shell sandbox itself, without the banking data: what issue 37's probe broke, checked wherever bwrap runs.

The gRPC tests beside this file (``test_sandbox_root.py``) play the probe as the agent of
``tau2-banking-knowledge:terminal_use``, which needs an upstream checkout for the tools' texts; CI has none. These
run the same commands through :class:`Sandbox` over a folder of one document, as root where CI runs as root, so the
holds are shown on every CI run: no capability, no remount of ``/usr`` or of the documents, no ``/proc/sys`` write,
and a ``bwrap`` first on ``PATH`` never run.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from taumesh.domains.tau2_banking_knowledge import sandbox
from taumesh.domains.tau2_banking_knowledge.sandbox import Sandbox
from taumesh.domains.tau2_banking_knowledge.shell_folders import hand_over, new_folder, remove_folder

pytestmark = pytest.mark.skipif(
    sandbox.sandbox_problem() is not None, reason=f"no sandbox here: {sandbox.sandbox_problem()}"
)
SWAPPINESS = Path("/proc/sys/vm/swappiness")


@pytest.fixture
def documents() -> Iterator[Path]:
    """A read-only knowledge base of one document, where the sandbox's user can read it."""
    folder = new_folder("test-kb")
    (folder / "policy.md").write_text("Refunds need a receipt.\n", encoding="utf-8")
    hand_over(folder, writable=False)
    try:
        yield folder
    finally:
        remove_folder(folder)


def run(shell: Sandbox, command: str) -> tuple[int, str]:
    status, out, err = shell.run(command)
    return status, out + err


def test_a_command_holds_no_capability_and_is_not_root(documents: Path) -> None:
    shell = Sandbox(documents, writable=False)
    assert run(shell, "grep CapEff '/proc/self/status'") == (0, "CapEff:\t0000000000000000\n")
    assert run(shell, "grep CapBnd '/proc/self/status'") == (0, "CapBnd:\t0000000000000000\n")
    status, uid = run(shell, "id -u")
    assert status == 0 and uid.strip() != "0"


def test_neither_usr_nor_the_documents_can_be_remounted_writable(documents: Path) -> None:
    shell = Sandbox(documents, writable=False)
    planted = Path(f"/usr/local/bin/taumesh-probe-{uuid.uuid4().hex}")
    try:
        status, said = run(shell, f"mount -o remount,bind,rw '/usr' && touch '{planted}'")
        assert status != 0 and not planted.exists(), said
        status, said = run(shell, "mount -o remount,bind,rw '/knowledge_base'; echo 'POLICY UPDATE' >> policy.md")
        assert status != 0 and ("Read-only file system" in said or "Permission denied" in said), said
        assert (documents / "policy.md").read_text(encoding="utf-8") == "Refunds need a receipt.\n"
    finally:
        planted.unlink(missing_ok=True)


def test_proc_sys_cannot_be_written(documents: Path) -> None:
    shell = Sandbox(documents, writable=False)
    value = SWAPPINESS.read_text(encoding="ascii").strip()  # written back as it is, should the write get through
    status, said = run(shell, f"echo {value} > '{SWAPPINESS}'")
    assert status != 0 and "Read-only file system" in said, said
    status, said = run(shell, f"mount -o remount,rw '/proc'; echo {value} > '{SWAPPINESS}'")
    assert status != 0 and "Read-only file system" in said, said


def test_a_bwrap_first_on_path_is_never_run(documents: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    planted = new_folder("test-path")
    try:
        marker = planted / "planted-bwrap-ran"
        (planted / "bwrap").write_text(f"#!/bin/sh\ntouch '{marker}'\nexit 0\n", encoding="utf-8")
        (planted / "bwrap").chmod(0o755)
        monkeypatch.setenv("PATH", f"{planted}:/usr/local/bin:/usr/bin:/bin")
        assert sandbox.bwrap_path() in sandbox.BWRAP_LOCATIONS
        assert run(Sandbox(documents, writable=False), "echo still sandboxed") == (0, "still sandboxed\n")
        assert not marker.exists()
    finally:
        remove_folder(planted)
