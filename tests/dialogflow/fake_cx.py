"""A fake Dialogflow CX: the Sessions and Tools gRPC services on loopback, spoken with the CX package's own messages.

The agent it plays knows τ-bench v1's gold solutions (test data): in each CX session it calls the task's gold
actions one by one as CX function tools, then says the reference run's closing words. Failures are injected per
session: ``error_at`` answers a CX error at that call of a session, ``expire_first`` forgets the first session after
its first turn (its next call is NOT_FOUND, as a CX session past its lifetime).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from google.cloud.dialogflowcx_v3beta1 import types as cx
from google.protobuf import json_format, struct_pb2

from tests.helpers.paths import V1_DATA, V1_VECTORS, read_jsonl

SESSIONS = "google.cloud.dialogflow.cx.v3beta1.Sessions"
TOOLS = "google.cloud.dialogflow.cx.v3beta1.Tools"


@dataclass
class _Session:
    task_id: int
    done: int = 0
    calls: int = 0


@dataclass
class FakeCx:
    """The fake's behaviour and what it saw."""

    tools: list[dict[str, Any]]
    """The agent's tools, as ``taumesh tools export --format dialogflow-cx`` wrote them."""
    error_at: int | None = None
    expire_first: bool = False
    requests: list[cx.DetectIntentRequest] = field(default_factory=list)
    sessions: dict[str, _Session] = field(default_factory=dict)
    expired: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.tasks = json.loads((V1_DATA / "retail" / "tasks_test.json").read_text(encoding="utf-8"))
        self.closing = {row["task_id"]: row["respond_content"] for row in read_jsonl(V1_VECTORS / "retail_test.jsonl")}

    def tool_name(self, agent: str, display_name: str) -> str:
        index = next(i for i, tool in enumerate(self.tools) if tool["displayName"] == display_name)
        return f"{agent}/tools/tool-{index}"

    def list_tools(self, request: cx.ListToolsRequest, context: grpc.ServicerContext) -> cx.ListToolsResponse:
        return cx.ListToolsResponse(
            tools=[
                cx.Tool(name=f"{request.parent}/tools/tool-{i}", display_name=tool["displayName"])
                for i, tool in enumerate(self.tools)
            ]
        )

    def detect_intent(self, request: cx.DetectIntentRequest, context: grpc.ServicerContext) -> cx.DetectIntentResponse:
        with self.lock:
            self.requests.append(request)
            name = request.session
            if name in self.expired:
                context.abort(grpc.StatusCode.NOT_FOUND, f"Session {name} expired.")
            session = self.sessions.get(name)
            if session is None:
                parameters = json_format.MessageToDict(cx.QueryParameters.pb(request.query_params).parameters)
                if "taumesh_task_id" not in parameters:
                    context.abort(grpc.StatusCode.INVALID_ARGUMENT, "unknown session and no task parameters")
                session = self.sessions[name] = _Session(task_id=int(parameters["taumesh_task_id"]))
            session.calls += 1
            if self.error_at is not None and session.calls == self.error_at:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, "Playbook execution failed: the flow has no route.")
            if self.expire_first and len(self.sessions) == 1 and session.calls == 1:
                self.expired.add(name)
            kind = cx.QueryInput.pb(request.query_input).WhichOneof("input")
            if kind == "tool_call_result":
                session.done += 1
            actions = self.tasks[session.task_id]["actions"]
            agent = name.split("/sessions/")[0]
            if session.done < len(actions):
                action = actions[session.done]
                arguments = struct_pb2.Struct()
                arguments.update(action["kwargs"])
                message = cx.ResponseMessage(
                    tool_call=cx.ToolCall(
                        tool=self.tool_name(agent, action["name"]), action=action["name"], input_parameters=arguments
                    )
                )
            else:
                message = cx.ResponseMessage(text=cx.ResponseMessage.Text(text=[self.closing[session.task_id]]))
            return cx.DetectIntentResponse(query_result=cx.QueryResult(response_messages=[message]))


def _handler(method: Any, request_type: Any, response_type: Any) -> grpc.RpcMethodHandler:
    return grpc.unary_unary_rpc_method_handler(
        method, request_deserializer=request_type.deserialize, response_serializer=response_type.serialize
    )


@contextmanager
def serving(fake: FakeCx) -> Iterator[str]:
    """The fake on a free loopback port; yields ``127.0.0.1:PORT``."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    server.add_generic_rpc_handlers(
        (
            grpc.method_handlers_generic_handler(
                SESSIONS,
                {"DetectIntent": _handler(fake.detect_intent, cx.DetectIntentRequest, cx.DetectIntentResponse)},
            ),
            grpc.method_handlers_generic_handler(
                TOOLS, {"ListTools": _handler(fake.list_tools, cx.ListToolsRequest, cx.ListToolsResponse)}
            ),
        )
    )
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.stop(grace=None)


def exported_tools(path: Path) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return tools
