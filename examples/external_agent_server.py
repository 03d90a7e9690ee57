"""An AgentService written the way an outside team would: only the generated stubs and grpcio.

It plays the gold solutions ("oracle"), so taumesh should score it 1.0 on every task. It reads the task
files itself and, being stateless like the contract asks, works out its next move from the conversation:

* τ-bench v1 (``--tasks-dir``, ``{dir}/{domain}/tasks_{split}.json``, list index == task id): the next gold
  action is the one after the tool calls already made; once they are all made it answers the user with the
  task's required outputs joined by spaces, or a closing sentence.
* τ² (``--tau2-dir``, the folder ``taumesh data fetch tau2`` fills; domains ``tau2-NAME``, tasks by id in
  ``{dir}/data/domains/NAME/tasks.json``): only the gold actions whose ``requestor`` is the assistant are
  its own; it never calls a tool the episode did not offer it, so the user's phone tools (telecom) are left to
  the user. Where the user's gold actions come next it hands over (says :data:`HANDOVER_LINE`), and goes on
  once the user has answered, so the two sides act in the gold order. Then it says the ``communicate_info``.

    python examples/external_agent_server.py --tasks-dir ../shared/taubench_v1 --tau2-dir ~/.cache/taumesh/tau2 --port 0

prints ``agent listening on 127.0.0.1:PORT (stubs from DIR)`` once it serves, and stops gracefully on SIGTERM or
SIGINT. It serves the standard ``grpc.health.v1.Health`` too (package grpcio-health-checking), SERVING for ``""`` and
for the AgentService until it stops, so probes check it as they check taumesh's own services. It imports nothing of
taumesh but the code protoc generates from ``protos/``; the tests generate that code into a folder of their own and
put it first on PYTHONPATH, as another team would:

    python -m grpc_tools.protoc -I protos --python_out=gen --grpc_python_out=gen \
        protos/taumesh/common/v1/common.proto protos/taumesh/agent/v1/agent.proto
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from concurrent import futures
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from taumesh.agent.v1 import agent_pb2, agent_pb2_grpc
from taumesh.common.v1 import common_pb2

CLOSING_LINE = "Is there anything else I can help you with?"
HANDOVER_LINE = "Please do the next steps on your phone and tell me when you are done."
"""What the agent says where the user's own gold actions come next (τ² telecom: the user acts on its phone)."""


@dataclass(frozen=True)
class Play:
    """How the oracle plays one task: its own tool calls, where it hands over to the user, what it says last."""

    calls: list[tuple[str, dict[str, Any]]]
    """The agent's gold actions in order: (tool name, arguments)."""
    handovers: list[int]
    """After how many of its own calls the agent hands over to the user (the user's gold actions come next)."""
    outputs: list[str]


def v1_play(task: dict[str, Any]) -> Play:
    """τ-bench v1: every gold action is the agent's."""
    return Play([(action["name"], action["kwargs"]) for action in task["actions"]], [], task["outputs"])


def tau2_play(task: dict[str, Any]) -> Play:
    """τ²: the agent plays the actions whose requestor is the assistant and hands over before each run of the user's."""
    criteria = task.get("evaluation_criteria") or {}
    calls: list[tuple[str, dict[str, Any]]] = []
    handovers: list[int] = []
    previous = "user"
    for action in criteria.get("actions") or []:
        requestor = action.get("requestor") or "assistant"
        if requestor == "assistant":
            calls.append((action["name"], action.get("arguments") or {}))
        elif previous == "assistant":
            handovers.append(len(calls))
        previous = requestor
    return Play(calls, handovers, criteria.get("communicate_info") or [])


class TaskFiles:
    """τ-bench v1 and τ² task files, each read on first use and kept."""

    def __init__(self, v1_root: Path | None, tau2_root: Path | None = None) -> None:
        self.v1_root = v1_root
        self.tau2_root = tau2_root
        self._v1: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self._tau2: dict[str, dict[str, dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def play(self, ref: common_pb2.TaskRef) -> Play:
        if ref.domain.startswith("tau2-"):
            return tau2_play(self._tau2_task(ref.domain, ref.task_id))
        return v1_play(self._v1_task(ref.domain, ref.split, ref.task_id))

    def _v1_task(self, domain: str, split: str, task_id: str) -> dict[str, Any]:
        if self.v1_root is None:
            raise LookupError(f"no --tasks-dir for τ-bench domain {domain}")
        key = (domain, split)
        with self._lock:
            if key not in self._v1:
                self._v1[key] = _read_json(self.v1_root / domain / f"tasks_{split}.json")
            tasks = self._v1[key]
        if not task_id.isdigit() or int(task_id) >= len(tasks):
            raise LookupError(f"{domain}/{split} has no task {task_id} (it has {len(tasks)})")
        return tasks[int(task_id)]

    def _tau2_task(self, domain: str, task_id: str) -> dict[str, Any]:
        if self.tau2_root is None:
            raise LookupError(f"no --tau2-dir for τ² domain {domain}")
        name = domain.removeprefix("tau2-").removesuffix("-workflow")  # tau2-telecom-workflow: telecom's tasks
        with self._lock:
            if name not in self._tau2:
                tasks = _read_json(self.tau2_root / "data" / "domains" / name / "tasks.json")
                self._tau2[name] = {task["id"]: task for task in tasks}
            by_id = self._tau2[name]
        if task_id not in by_id:
            raise LookupError(f"{domain} has no task {task_id!r}")
        return by_id[task_id]


def _read_json(path: Path) -> Any:
    if not path.is_file():
        raise LookupError(f"no task file {path}")
    return json.loads(path.read_text(encoding="utf-8"))


MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""Every request carries the whole conversation: accept what taumesh sends (docs/agent-contract.md)."""
AGENT_NAME = "external-oracle"
"""The name this agent gives in Describe, which taumesh puts in results file names and info."""
AGENT_VERSION = "1.1.0"


class OracleAgent(agent_pb2_grpc.AgentServiceServicer):
    """Replays the agent's gold actions one call at a time, hands over where the user acts, then answers the user."""

    def __init__(self, tasks: TaskFiles) -> None:
        self.tasks = tasks

    def Describe(self, request: agent_pb2.DescribeRequest, context: grpc.ServicerContext) -> agent_pb2.DescribeResponse:
        return agent_pb2.DescribeResponse(
            name=AGENT_NAME,
            version=AGENT_VERSION,
            description="Replays τ-bench's and τ²'s gold actions, then tells the user the required outputs (no model).",
        )

    def NextMessage(
        self, request: agent_pb2.NextMessageRequest, context: grpc.ServicerContext
    ) -> agent_pb2.NextMessageResponse:
        try:
            play = self.tasks.play(request.episode.task)
        except LookupError as exc:
            context.abort(grpc.StatusCode.NOT_FOUND, str(exc))
        if not request.conversation:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "empty conversation")
        mine = [message for message in request.conversation if message.role == common_pb2.ROLE_ASSISTANT]
        made = sum(len(message.tool_calls) for message in mine)
        said = sum(1 for message in mine if not message.tool_calls)
        if said < len(play.handovers) and made == play.handovers[said]:
            message = common_pb2.Message(role=common_pb2.ROLE_ASSISTANT, content=HANDOVER_LINE)
        elif made < len(play.calls):
            name, arguments = play.calls[made]
            if name not in {tool.name for tool in request.tools}:
                # never call a tool the episode did not offer the agent (in telecom, the user's phone tools)
                context.abort(grpc.StatusCode.FAILED_PRECONDITION, f"gold action {name!r} is not an agent tool")
            call = common_pb2.ToolCall(
                id=f"ext_{made}",
                name=name,
                arguments_json=json.dumps(arguments),
                requestor=common_pb2.REQUESTOR_ASSISTANT,
            )
            message = common_pb2.Message(role=common_pb2.ROLE_ASSISTANT, tool_calls=[call])
        else:
            text = " ".join(play.outputs) if play.outputs else CLOSING_LINE
            message = common_pb2.Message(role=common_pb2.ROLE_ASSISTANT, content=text)
        return agent_pb2.NextMessageResponse(message=message, usage=common_pb2.Usage())


def main(argv: list[str] | None = None) -> int:
    """Serve the oracle agent and the health service until SIGTERM or SIGINT; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks-dir", type=Path, help="τ-bench v1 data: {domain}/tasks_{split}.json")
    parser.add_argument(
        "--tau2-dir", type=Path, help="τ² data (taumesh data fetch tau2): data/domains/{name}/tasks.json"
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=50061, help="0: any free port (printed)")
    parser.add_argument("--workers", type=int, default=16)
    args = parser.parse_args(argv)

    limits = [(f"grpc.max_{way}_message_length", MAX_MESSAGE_BYTES) for way in ("receive", "send")]
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=args.workers), options=limits)
    agent_pb2_grpc.add_AgentServiceServicer_to_server(OracleAgent(TaskFiles(args.tasks_dir, args.tau2_dir)), server)
    probes = health.HealthServicer()
    for service in ("", agent_pb2.DESCRIPTOR.services_by_name["AgentService"].full_name):
        probes.set(service, health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(probes, server)
    port = server.add_insecure_port(f"{args.host}:{args.port}")
    if port == 0:
        print(f"could not bind {args.host}:{args.port}", file=sys.stderr)
        return 1
    server.start()

    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    print(f"agent listening on {args.host}:{port} (stubs from {Path(agent_pb2.__file__).parent})", flush=True)
    while not stop.wait(0.5):
        pass
    probes.enter_graceful_shutdown()  # NOT_SERVING: probes stop sending work while the calls under way finish
    server.stop(grace=2.0).wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
