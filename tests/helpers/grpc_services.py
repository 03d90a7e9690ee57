"""Real gRPC servers on a loop of their own, and thin synchronous helpers over their stubs."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from taumesh.common.v1 import common_pb2
from taumesh.domains import Catalog
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.rpc.server import RunningServer
from taumesh.scorer.v1 import scorer_pb2_grpc

T = TypeVar("T")
RPC_TIMEOUT = 60.0
"""Deadline of every call a test makes (the first call of a domain loads and hashes its data)."""


class LoopThread:
    """An asyncio loop running forever in a daemon thread; coroutines are submitted from the tests."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="grpc-test-servers", daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = RPC_TIMEOUT) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


@dataclass
class Servers:
    """The running env and scorer servers (one process, shared catalog, separate ports)."""

    catalog: Catalog
    env: RunningServer
    scorer: RunningServer


Tau2Stubs = tuple[env_pb2_grpc.EnvServiceStub, scorer_pb2_grpc.ScorerServiceStub]


def task_ref(domain: str, split: str = "test", index: int = 0) -> common_pb2.TaskRef:
    return common_pb2.TaskRef(domain=domain, split=split, task_id=str(index))


def tool_call(name: str, arguments_json: str, call_id: str = "call-0") -> common_pb2.ToolCall:
    return common_pb2.ToolCall(id=call_id, name=name, arguments_json=arguments_json)


class EnvClient:
    """Thin helpers over the env stub, so tests read as the episode they play."""

    def __init__(self, stub: env_pb2_grpc.EnvServiceStub) -> None:
        self.stub = stub

    def open(self, domain: str, split: str = "test", index: int = 0) -> env_pb2.OpenSessionResponse:
        return self.stub.OpenSession(
            env_pb2.OpenSessionRequest(task=task_ref(domain, split, index)), timeout=RPC_TIMEOUT
        )

    def call(self, session_id: str, name: str, arguments_json: str, request_id: str = "") -> env_pb2.CallToolResponse:
        return self.stub.CallTool(
            env_pb2.CallToolRequest(
                session_id=session_id, tool_call=tool_call(name, arguments_json), request_id=request_id
            ),
            timeout=RPC_TIMEOUT,
        )

    def final(self, session_id: str) -> env_pb2.GetFinalStateResponse:
        return self.stub.GetFinalState(env_pb2.GetFinalStateRequest(session_id=session_id), timeout=RPC_TIMEOUT)

    def close(self, session_id: str) -> None:
        self.stub.CloseSession(env_pb2.CloseSessionRequest(session_id=session_id), timeout=RPC_TIMEOUT)


def done(result: Any) -> bool:
    """The call ended the episode (a terminate tool ran, or the tool broke)."""
    from taumesh.env.v1 import env_pb2

    return result.status in (env_pb2.TOOL_CALL_STATUS_TERMINATED, env_pb2.TOOL_CALL_STATUS_ABORTED)


def aborted(result: Any) -> bool:
    from taumesh.env.v1 import env_pb2

    return bool(result.status == env_pb2.TOOL_CALL_STATUS_ABORTED)


def errored(result: Any) -> bool:
    """The observation reports an error (a terminate tool's error shows only in its observation)."""
    from taumesh.env.v1 import env_pb2

    if result.status == env_pb2.TOOL_CALL_STATUS_TERMINATED:
        return bool(result.observation.startswith("Error"))
    return result.status in (env_pb2.TOOL_CALL_STATUS_ERROR, env_pb2.TOOL_CALL_STATUS_ABORTED)
