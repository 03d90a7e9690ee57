"""The shell tool off the env's event loop, and each command's limits: issue 37's probe, through a real EnvService.

A command that waits never delays another session's command or the health check (they finish while it still
waits, on a file the test makes only after them); a command starting 400 processes, allocating 1 GiB, filling
``/tmp`` or the writable folder is stopped by its limit and the env serves on; nothing is written to the host's temp
folder; a CPU-bound command is stopped by its CPU limit before its time limit.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Iterator

import pytest

from taumesh.domains.tau2_banking_knowledge.sandbox import Sandbox, SandboxLimits, export_documents, over_quota_text
from taumesh.domains.tau2_banking_knowledge.shell_folders import hand_over, new_folder, remove_folder
from tests.security.sandbox_shell import NEEDS_SANDBOX, READ_ONLY, WRITABLE, Agent, serving_agent

pytestmark = NEEDS_SANDBOX
DOCUMENTS = 699
"""Files of the read-only export: the fixtures' documents and INDEX.md."""
FOUND_IN_TIME = 60.0
"""How long the test waits for the waiting command to start (a guard against hanging, not a measurement)."""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Agent]:
    with serving_agent(tmp_path_factory) as serving:
        yield serving


def test_a_waiting_command_delays_no_other_session_nor_the_health_check(agent: Agent) -> None:
    waiter, other = agent.open(WRITABLE), agent.open(READ_ONLY)
    folder = agent.folder_of(waiter)
    answers: dict[str, str] = {}
    started = threading.Event()

    def wait_for_go() -> None:
        answers["waiter"] = agent.shell(waiter, "touch started; while [ ! -e go ]; do sleep 0.1; done")

    waiting = threading.Thread(target=wait_for_go)
    waiting.start()
    try:
        for _ in range(int(FOUND_IN_TIME / 0.1)):
            if (folder / "started").exists():
                started.set()
                break
            started.wait(0.1)
        assert started.is_set(), "the waiting command never started"
        answers["other"] = agent.shell(other, "echo not delayed")  # while the waiter still waits
        answers["health"] = "SERVING" if agent.serving() else "NOT SERVING"
        assert "waiter" not in answers
    finally:
        (folder / "go").touch()  # only now can the waiter end
        waiting.join()
    assert answers == {"other": "not delayed\n", "health": "SERVING", "waiter": "(no output)"}


def test_a_fork_bomb_stops_at_its_process_limit(agent: Agent) -> None:
    session = agent.open(READ_ONLY)
    forks = (
        'python3 -c "import os, time\nstarted = 0\ntry:\n    for _ in range(400):\n'
        "        if os.fork() == 0:\n            time.sleep(20)\n            os._exit(0)\n        started += 1\n"
        'except OSError as exc:\n    print(started, exc.errno)"'
    )
    started, errno = agent.shell(session, forks).split()
    assert int(started) < SandboxLimits().processes and errno == "11", (started, errno)  # EAGAIN
    assert agent.shell(session, "echo serving") == "serving\n"


def test_a_big_allocation_stops_at_its_memory_limit(agent: Agent) -> None:
    session = agent.open(READ_ONLY)
    allocated = agent.shell(session, 'python3 -c "memory = bytearray(1 << 30)"')
    assert allocated.startswith("Error (exit code 1)") and "MemoryError" in allocated, allocated
    assert agent.shell(session, "echo serving") == "serving\n"


def test_tmp_is_a_small_tmpfs(agent: Agent) -> None:
    session = agent.open(READ_ONLY)
    filled = agent.shell(session, "for i in 1 2 3 4 5 6 7 8; do head -c 15M '/dev/zero' > \"/tmp/f$i\"; done")
    assert filled.startswith("Error (exit code 1)") and "No space left on device" in filled, filled
    assert agent.shell(session, "echo serving") == "serving\n"


def test_a_writable_folder_over_its_quota_is_stopped_and_restored(agent: Agent) -> None:
    session = agent.open(WRITABLE)
    assert agent.shell(session, "echo a note > notes.txt") == "(no output)"
    limits = SandboxLimits()
    blocks = limits.notes_mib // 15 + 2
    filled = agent.shell(session, f"for i in $(seq {blocks}); do head -c 15M '/dev/zero' > big$i; done")
    assert filled == f"Error (exit code 1): {over_quota_text(limits)}", filled
    assert agent.shell(session, "ls | wc -l") == f"{DOCUMENTS}\n"  # the documents, as the session started
    many = agent.shell(session, f"mkdir many && cd many && touch $(seq {limits.notes_files + 10})")
    assert many.startswith("Error (exit code 1): the writable folder went over its quota"), many
    assert agent.shell(session, "ls | wc -l") == f"{DOCUMENTS}\n"


def test_nothing_is_written_to_the_hosts_temp_folder(agent: Agent, monkeypatch: pytest.MonkeyPatch) -> None:
    """The env's temp folder is one that cannot be written: every kind of shell works as before."""
    monkeypatch.setattr(tempfile, "tempdir", "/nonexistent/taumesh-host-tmp")
    read_only, writable = agent.open(READ_ONLY), agent.open(WRITABLE)
    assert agent.shell(read_only, "head -1 INDEX.md") == "# Knowledge Base Index\n"
    assert agent.shell(writable, "echo kept > note.txt && cat note.txt") == "kept\n"
    assert agent.shell(writable, "head -c 1M '/dev/zero' | wc -c") == "1048576\n"


def test_a_cpu_bound_command_stops_at_its_cpu_limit() -> None:
    folder = new_folder("kb")
    try:
        export_documents([], folder)
        hand_over(folder, writable=False)
        spin = Sandbox(folder, writable=False, limits=SandboxLimits(cpu_seconds=1))
        code, _, _ = spin.run("while :; do :; done", timeout=60)
    finally:
        remove_folder(folder)
    assert code in (128 + 9, 128 + 24), code  # SIGKILL or SIGXCPU, not the time limit's 124
