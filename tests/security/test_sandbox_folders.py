"""The shell's folders on the host: a killed env's are removed by the next env that starts using the shell.

Issue 37's probe found session folders and notes surviving an env's SIGKILL. Here a real ``taumesh serve env``
process keeps a writable session's notes in its own folder (``<shell root>/proc-<boot>-<pid>-<start>``); killed
with SIGKILL, it leaves the folder; the next ``taumesh serve env`` removes it when it first opens a shell session,
with the folder of another process whose pid was reused (its start time differs), and leaves alone the folder of a
live process, another host's (a container sharing the volume) and any other name. An env that exits normally
removes its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from taumesh.domains.tau2_banking_knowledge.shell_folders import process_name, shell_root
from taumesh.rpc.server import CHANNEL_OPTIONS
from taumesh.testing.processes import ServerProcess, start_service
from tests.domains.tau2_banking_knowledge.support import data_dir_with_fixtures, imported_cache
from tests.helpers.cli import child_env
from tests.security.sandbox_shell import NEEDS_SANDBOX, READ_ONLY, WRITABLE, Agent

pytestmark = NEEDS_SANDBOX


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    with imported_cache(tmp_path / "cache"):  # the served envs get it too (TAUMESH_CACHE_DIR)
        (tmp_path / "data").mkdir()
        yield data_dir_with_fixtures(tmp_path / "data")


def _serve_env(data_dir: Path, log: Path) -> ServerProcess:
    return start_service("env", log, "--data-dir", str(data_dir), env=child_env())


def test_a_killed_envs_folder_is_removed_by_the_next_env(data_dir: Path, tmp_path: Path) -> None:
    root = shell_root()
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    killed = _serve_env(data_dir, tmp_path / "killed.log")
    after: ServerProcess | None = None
    try:
        with grpc.insecure_channel(killed.address, options=CHANNEL_OPTIONS) as channel:
            agent = Agent(channel)
            session = agent.open(WRITABLE)
            assert agent.shell(session, "echo the fee is waived > notes.txt") == "(no output)"
        killed_folder = root / process_name(killed.pid)
        assert [note.read_text() for note in killed_folder.glob("*/notes.txt")] == ["the fee is waived\n"]
        live_folder = root / process_name(live.pid)
        reused_pid = root / f"{process_name(os.getpid()).rsplit('-', 1)[0]}-1"  # this pid, an earlier start
        other_name = root / "kept-not-a-process-folder"
        _, boot, pid, start = killed_folder.name.removeprefix("proc-").rsplit("-", 3)
        other_host = root / f"proc-another-container-{boot}-{pid}-{start}"  # its pid means nothing here
        for folder in (live_folder, reused_pid, other_name, other_host):
            folder.mkdir()
        killed.kill()  # SIGKILL: nothing of the env runs after it
        assert killed_folder.is_dir()

        after = _serve_env(data_dir, tmp_path / "after.log")
        with grpc.insecure_channel(after.address, options=CHANNEL_OPTIONS) as channel:
            agent = Agent(channel)
            assert agent.shell(agent.open(READ_ONLY), "head -1 INDEX.md") == "# Knowledge Base Index\n"
        assert not killed_folder.exists() and not reused_pid.exists()
        assert live_folder.is_dir() and other_name.is_dir() and other_host.is_dir()
        after_folder = root / process_name(after.pid)
        assert after_folder.is_dir()
        assert after.terminate() == 0
        assert not after_folder.exists()  # a normal exit removes its own
    finally:
        killed.kill()
        if after is not None:
            after.kill()
        live.kill()
        live.wait()
        for leftover in [root / process_name(live.pid), root / "kept-not-a-process-folder"]:
            if leftover.is_dir():
                leftover.rmdir()
        for leftover in root.glob("proc-another-container-*"):
            leftover.rmdir()
