"""What the shell sandbox's security tests share: a real EnvService over gRPC serving ``tau2-banking-knowledge``, and
an agent's side of its ``shell`` tool.

The tests run as whoever runs pytest; as root (CI, and the machine issue 37's probe ran on) they show the sandbox
holding as root. They need bubblewrap, the shared banking fixtures and ``TAUMESH_TAU2_CHECKOUT`` (the tools' texts),
and skip naming what is missing.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from taumesh.common.v1 import common_pb2
from taumesh.domains.tau2_banking_knowledge import sandbox
from taumesh.domains.tau2_banking_knowledge.shell_folders import process_folder
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from tests.domains.tau2_banking_knowledge.support import ENV, NEEDS_FIXTURES_AND_CHECKOUT, RPC_TIMEOUT, serving_env

NEEDS_SANDBOX = [
    *NEEDS_FIXTURES_AND_CHECKOUT,
    pytest.mark.skipif(sandbox.sandbox_problem() is not None, reason=f"no sandbox here: {sandbox.sandbox_problem()}"),
]
READ_ONLY = f"{ENV}:terminal_use"
WRITABLE = f"{ENV}:terminal_use_write"


class Agent:
    """An agent calling ``shell`` in sessions of a real EnvService."""

    def __init__(self, channel: grpc.Channel) -> None:
        self.env = env_pb2_grpc.EnvServiceStub(channel)
        self.health = health_pb2_grpc.HealthStub(channel)

    def open(self, domain: str) -> str:
        ref = common_pb2.TaskRef(domain=domain, split="base", task_id="task_001")
        return str(self.env.OpenSession(env_pb2.OpenSessionRequest(task=ref), timeout=RPC_TIMEOUT).session_id)

    def shell(self, session_id: str, command: str) -> str:
        call = common_pb2.ToolCall(
            id=uuid.uuid4().hex,
            name="shell",
            arguments_json=json.dumps({"command": command}),
            requestor=common_pb2.REQUESTOR_ASSISTANT,
        )
        request = env_pb2.CallToolRequest(session_id=session_id, tool_call=call, request_id=uuid.uuid4().hex)
        return str(self.env.CallTool(request, timeout=RPC_TIMEOUT).observation)

    def serving(self) -> bool:
        answer = self.health.Check(health_pb2.HealthCheckRequest(service=""), timeout=RPC_TIMEOUT)
        return bool(answer.status == health_pb2.HealthCheckResponse.SERVING)

    def folder_of(self, session_id: str) -> Path:
        """Where a writable session's folder is on the host (the env runs in this process): found by a file in it."""
        marker = f"marker-{uuid.uuid4().hex}"
        assert self.shell(session_id, f"touch {marker}") == "(no output)"
        (found,) = process_folder().glob(f"*/{marker}")
        return found.parent


@contextmanager
def serving_agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Agent]:
    """An EnvService over the shared banking data, in this process, and an agent talking to it over gRPC."""
    with serving_env(tmp_path_factory) as channel:
        yield Agent(channel)
