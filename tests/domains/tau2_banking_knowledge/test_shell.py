"""The ``shell`` of ``terminal_use``, ``terminal_use_write`` and AllTools: upstream's export, refusals and texts.

The exported files and ``INDEX.md`` equal the shared ``shell_sandbox`` records byte for byte (by SHA-256), and the six
recorded refusals come out of the tool word for word. Real commands run in bubblewrap: the documents are there and
nothing else of the host is (no ``/etc/passwd``, no network), a read-only shell cannot write, a writable one keeps
what it wrote for its own session only, and a runaway command stops at the time limit. The last test plays the
writable shell through a real EnvService over gRPC.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from taumesh.common.v1 import common_pb2
from taumesh.domains import DataError, Document
from taumesh.domains.tau2_banking_knowledge import configs, sandbox
from taumesh.domains.tau2_banking_knowledge.configs import CONFIGS, check_runnable
from taumesh.domains.tau2_banking_knowledge.knowledge import load_documents
from taumesh.domains.tau2_banking_knowledge.retrieval_tools import SHELL_KEY, retrieval_tools
from taumesh.domains.tau2_banking_knowledge.sandbox import Sandbox, export_documents
from taumesh.domains.tau2_banking_knowledge.shell_folders import hand_over, new_folder, remove_folder
from taumesh.domains.tau2_banking_knowledge.toolkit import SESSION_TASK
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from tests.domains.tau2_banking_knowledge.support import (
    CHECKOUT,
    ENV,
    FIXTURES,
    NEEDS_CHECKOUT,
    NEEDS_FIXTURES,
    RPC_TIMEOUT,
    serving_env,
)

pytestmark = [
    NEEDS_FIXTURES,
    pytest.mark.skipif(sandbox.sandbox_problem() is not None, reason=f"no sandbox here: {sandbox.sandbox_problem()}"),
]
Shell = Callable[[str], str]


@cache
def _records() -> dict[str, dict[str, Any]]:
    with (FIXTURES / "retrieval.jsonl").open(encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    return {record["config"]: record for record in records if record["record"] == "shell_sandbox"}


@cache
def _documents() -> tuple[Document, ...]:
    return tuple(Document(id=doc.id, title=doc.title, text=doc.content) for doc in load_documents(FIXTURES / "data"))


def _shell(config: str, data: dict[str, Any] | None = None) -> Shell:
    """The configuration's shell tool, called as a session calls it."""
    (tool,) = [tool for tool in retrieval_tools(CONFIGS[config]) if tool.name == "shell"]
    documents = _documents()
    return lambda command: str(tool.invoke(data=data or {}, documents=documents, command=command))


def _writable_session(token: str) -> dict[str, Any]:
    return {SESSION_TASK: {SHELL_KEY: token}}


def test_the_exported_files_and_index_are_upstreams(tmp_path: Path) -> None:
    export_documents(_documents(), tmp_path)
    for record in _records().values():
        exported = {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in tmp_path.iterdir()}
        assert exported == record["files_sha256"]
        assert (tmp_path / sandbox.INDEX_NAME).read_text(encoding="utf-8") == record["index_md"]
        assert len(exported) == record["num_files"]


@pytest.mark.parametrize("config", ["terminal_use", "terminal_use_write"])
def test_the_recorded_refusals_come_out_word_for_word(config: str) -> None:
    shell = _shell(config, _writable_session("refusals"))
    for blocked in _records()[config]["blocked_command_outputs"]:
        assert shell(blocked["command"]) == blocked["output"]


def test_commands_see_the_documents_and_nothing_else_of_the_host() -> None:
    shell = _shell("terminal_use")
    assert shell("ls | wc -l") == "699\n"
    assert shell("head -1 INDEX.md") == "# Knowledge Base Index\n"
    assert shell("grep -c 'Total documents' INDEX.md") == "1\n"
    assert shell("grep -c 'no such words here at all' INDEX.md") == "No matches found."  # grep's status 1
    listing = shell("ls -l INDEX.md")
    assert listing.startswith("-r") and f" {sandbox.LS_USER}  {sandbox.LS_GROUP} " in listing, listing
    assert sandbox.LS_DATE in listing
    assert shell("true") == "(no output)"
    assert shell("exit 3") == "Command failed with exit code 3"
    # the host's files are not mounted: the filter lets a path it cannot see through, the sandbox still has none
    hidden = shell("python3 -c \"print(open(chr(47) + 'etc' + chr(47) + 'passwd').read())\"")
    assert hidden.startswith("Error (exit code 1)") and "No such file or directory" in hidden, hidden
    offline = shell("python3 -c \"import socket; socket.create_connection(('1.1.1.1', 53), timeout=2)\"")
    assert offline.startswith("Error (exit code 1)") and "unreachable" in offline.lower(), offline


def test_a_read_only_shell_cannot_write() -> None:
    shell = _shell("terminal_use")
    refused = shell("echo note > notes.txt")
    assert refused.startswith("Error (exit code 1)") and "Read-only file system" in refused, refused
    assert shell("ls notes.txt").startswith("Error (exit code 2)")


def test_a_writable_shell_keeps_its_notes_for_its_own_session() -> None:
    mine, other = (
        _shell("terminal_use_write", _writable_session("a")),
        _shell("terminal_use_write", _writable_session("b")),
    )
    assert mine("echo remember the fee > notes.txt") == "(no output)"
    assert mine("cat notes.txt") == "remember the fee\n"
    assert other("ls notes.txt").startswith("Error (exit code 2)")
    assert _shell("terminal_use_write")("ls") == "Error: Sandbox not initialized"  # no session of its own


def test_a_runaway_command_stops_at_the_time_limit() -> None:
    folder = new_folder("kb")  # in the shell's own folder, which the sandbox's uid can reach (a root env's too)
    try:
        export_documents(_documents()[:2], folder)
        hand_over(folder, writable=False)
        code, stdout, stderr = Sandbox(folder, writable=False).run("sleep 30", timeout=1)
    finally:
        remove_folder(folder)
    assert (code, stdout, stderr) == (124, "", "Command timed out after 1 seconds")


def _call(env: env_pb2_grpc.EnvServiceStub, session_id: str, command: str, index: int) -> str:
    call = common_pb2.ToolCall(
        id=f"c{index}",
        name="shell",
        arguments_json=json.dumps({"command": command}),
        requestor=common_pb2.REQUESTOR_ASSISTANT,
    )
    request = env_pb2.CallToolRequest(session_id=session_id, tool_call=call, request_id=f"{session_id}-{index}")
    return env.CallTool(request, timeout=RPC_TIMEOUT).observation


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[env_pb2_grpc.EnvServiceStub]:
    if not CHECKOUT:
        pytest.skip(NEEDS_CHECKOUT)
    with serving_env(tmp_path_factory) as channel:
        yield env_pb2_grpc.EnvServiceStub(channel)


def test_sessions_of_the_writable_shell_are_isolated_over_grpc(env: env_pb2_grpc.EnvServiceStub) -> None:
    ref = common_pb2.TaskRef(domain=f"{ENV}:terminal_use_write", split="base", task_id="task_001")
    sessions: Sequence[str] = [
        env.OpenSession(env_pb2.OpenSessionRequest(task=ref), timeout=RPC_TIMEOUT).session_id for _ in range(2)
    ]
    before = env.GetFinalState(env_pb2.GetFinalStateRequest(session_id=sessions[0]), timeout=RPC_TIMEOUT).data_hash
    assert _call(env, sessions[0], "echo checked the platinum card > notes.txt", 0) == "(no output)"
    assert _call(env, sessions[0], "cat notes.txt", 1) == "checked the platinum card\n"
    assert _call(env, sessions[1], "ls notes.txt", 2).startswith("Error (exit code 2)")
    after = env.GetFinalState(env_pb2.GetFinalStateRequest(session_id=sessions[0]), timeout=RPC_TIMEOUT).data_hash
    assert after == before  # notes are not the bank's database
    for session_id in sessions:
        env.CloseSession(env_pb2.CloseSessionRequest(session_id=session_id), timeout=RPC_TIMEOUT)


def test_a_bubblewrap_that_cannot_make_a_sandbox_refuses_the_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a container without user namespaces: bwrap is there but fails, so the configuration is refused up front."""
    monkeypatch.setattr(sandbox, "bwrap_path", lambda: "/usr/bin/false")  # exits 1 whatever it is given
    problem = sandbox.sandbox_problem.__wrapped__()
    assert problem is not None and problem.startswith(
        "bubblewrap cannot make a sandbox on this machine (exit status 1)"
    )
    monkeypatch.setattr(configs, "sandbox_problem", lambda: problem)
    with pytest.raises(
        DataError, match=r"'terminal_use'.*bubblewrap cannot make a sandbox.*choose one of: no_knowledge"
    ):
        check_runnable(CONFIGS["terminal_use"])
