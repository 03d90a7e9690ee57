"""An AgentService written the way an outside team would: only the generated stubs and grpcio.

It plays τ-bench's gold solutions ("oracle"), so taumesh should score it 1.0 on every task. It reads the
task files itself (``{tasks-dir}/{domain}/tasks_{split}.json``, list index == task id) and, being
stateless like the contract asks, works out the next gold action by counting the tool calls already in
the conversation. Once they are all made it answers the user with the task's required outputs joined
by spaces, or a closing sentence.

    python agent_server.py --tasks-dir ../shared/taubench_v1 --port 0

prints ``agent listening on 127.0.0.1:PORT (stubs from DIR)`` once it serves, and stops gracefully on SIGTERM or
SIGINT. It imports nothing of taumesh but the code protoc generates from ``protos/``; the tests generate that code
into a folder of their own and put it first on PYTHONPATH, as another team would:

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
from pathlib import Path
from typing import Any

import grpc

from taumesh.agent.v1 import agent_pb2, agent_pb2_grpc
from taumesh.common.v1 import common_pb2

CLOSING_LINE = "Is there anything else I can help you with?"


class TaskFiles:
    """τ-bench task lists, read on first use and kept."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._cache: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def task(self, domain: str, split: str, index: int) -> dict[str, Any]:
        key = (domain, split)
        with self._lock:
            if key not in self._cache:
                path = self.root / domain / f"tasks_{split}.json"
                if not path.is_file():
                    raise LookupError(f"no task file {path}")
                self._cache[key] = json.loads(path.read_text(encoding="utf-8"))
            tasks = self._cache[key]
        if not 0 <= index < len(tasks):
            raise LookupError(f"{domain}/{split} has no task {index} (it has {len(tasks)})")
        return tasks[index]


AGENT_NAME = "external-oracle"
"""The name this agent gives in Describe, which taumesh puts in results file names and info."""
AGENT_VERSION = "1.0.0"


class OracleAgent(agent_pb2_grpc.AgentServiceServicer):
    """Replays the gold actions one call at a time, then answers the user."""

    def __init__(self, tasks: TaskFiles) -> None:
        self.tasks = tasks

    def Describe(self, request: agent_pb2.DescribeRequest, context: grpc.ServicerContext) -> agent_pb2.DescribeResponse:
        return agent_pb2.DescribeResponse(
            name=AGENT_NAME,
            version=AGENT_VERSION,
            description="Replays τ-bench's gold actions, then tells the user the required outputs (no model).",
        )

    def NextMessage(
        self, request: agent_pb2.NextMessageRequest, context: grpc.ServicerContext
    ) -> agent_pb2.NextMessageResponse:
        ref = request.episode.task
        try:
            task = self.tasks.task(ref.domain, ref.split, int(ref.task_id))
        except LookupError as exc:
            context.abort(grpc.StatusCode.NOT_FOUND, str(exc))
        if not request.conversation:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "empty conversation")
        made = sum(
            len(message.tool_calls) for message in request.conversation if message.role == common_pb2.ROLE_ASSISTANT
        )
        actions = task["actions"]
        if made < len(actions):
            action = actions[made]
            call = common_pb2.ToolCall(
                id=f"ext_{made}", name=action["name"], arguments_json=json.dumps(action["kwargs"])
            )
            message = common_pb2.Message(role=common_pb2.ROLE_ASSISTANT, tool_calls=[call])
        else:
            text = " ".join(task["outputs"]) if task["outputs"] else CLOSING_LINE
            message = common_pb2.Message(role=common_pb2.ROLE_ASSISTANT, content=text)
        return agent_pb2.NextMessageResponse(message=message, usage=common_pb2.Usage())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks-dir", type=Path, required=True, help="τ-bench data: {domain}/tasks_{split}.json")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=50061, help="0: any free port (printed)")
    parser.add_argument("--workers", type=int, default=16)
    args = parser.parse_args(argv)

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=args.workers))
    agent_pb2_grpc.add_AgentServiceServicer_to_server(OracleAgent(TaskFiles(args.tasks_dir)), server)
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
    server.stop(grace=2.0).wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
