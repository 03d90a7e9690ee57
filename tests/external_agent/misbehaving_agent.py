"""An AgentService that makes, on its first step, one of the mistakes an outside agent makes, then plays well.

Built like ``examples/external_agent_server.py`` (only grpcio and the stubs protoc generates from ``protos/``), it
plays τ-bench's gold solutions, but its first message of each episode misbehaves, chosen by the task's index modulo
:data:`MISTAKES`:

- ``role_unset``: every message of the episode leaves ``Message.role`` unset (proto3's default);
- ``not_json``, ``deep_nesting``, ``huge_number``, ``lone_surrogate``: a ``calculate`` call whose arguments are
  ``{not json``, 10,000-deep nested JSON, a 5,000-digit number, or the JSON escape of a lone surrogate;
- ``duplicate_ids``: two ``calculate`` calls with the same id;
- ``empty_id``: a ``calculate`` call with an empty id.

The bad calls change nothing, so a well-run episode still earns its reward. Gold calls carry ids ``ok_N``; the
agent counts those already answered to find its next action (stateless, as the contract asks).

    python misbehaving_agent.py --tasks-dir ../shared/taubench_v1 --port 0

prints ``agent listening on 127.0.0.1:PORT`` once it serves and stops on SIGTERM or SIGINT. Describe names it
``misbehaving-agent``; every answer reports its system prompt (:data:`SYSTEM_PROMPT_HEAD` and the policy).
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

MISTAKES = (
    "role_unset",
    "not_json",
    "deep_nesting",
    "huge_number",
    "lone_surrogate",
    "duplicate_ids",
    "empty_id",
)
BAD_ARGUMENTS = {
    "not_json": "{not json",
    "deep_nesting": '{"expression": ' + "[" * 10_000 + "]" * 10_000 + "}",
    "huge_number": '{"expression": ' + "7" * 5_000 + "}",
    "lone_surrogate": '{"expression": "\\ud800"}',
}
SYSTEM_PROMPT_HEAD = "You are a careless agent. Policy:\n"
CLOSING_LINE = "Is there anything else I can help you with?"


def calculate(call_id: str, arguments: str = '{"expression": "1 + 1"}') -> common_pb2.ToolCall:
    return common_pb2.ToolCall(id=call_id, name="calculate", arguments_json=arguments)


def first_message(mistake: str) -> common_pb2.Message:
    """The misbehaving first message of an episode (``role_unset`` misbehaves on every message instead)."""
    if mistake in BAD_ARGUMENTS:
        calls = [calculate("bad_0", BAD_ARGUMENTS[mistake])]
    elif mistake == "duplicate_ids":
        calls = [calculate("dup"), calculate("dup")]
    else:
        calls = [calculate("")]
    return common_pb2.Message(role=common_pb2.ROLE_ASSISTANT, tool_calls=calls)


class MisbehavingAgent(agent_pb2_grpc.AgentServiceServicer):
    def __init__(self, tasks_dir: Path) -> None:
        self.tasks_dir = tasks_dir
        self._tasks: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def task(self, domain: str, split: str, index: int) -> dict[str, Any]:
        with self._lock:
            if (domain, split) not in self._tasks:
                path = self.tasks_dir / domain / f"tasks_{split}.json"
                self._tasks[(domain, split)] = json.loads(path.read_text(encoding="utf-8"))
            return self._tasks[(domain, split)][index]

    def Describe(self, request: agent_pb2.DescribeRequest, context: grpc.ServicerContext) -> agent_pb2.DescribeResponse:
        return agent_pb2.DescribeResponse(
            name="misbehaving-agent", version="0.1", description="gold actions after one mistake per episode"
        )

    def NextMessage(
        self, request: agent_pb2.NextMessageRequest, context: grpc.ServicerContext
    ) -> agent_pb2.NextMessageResponse:
        ref = request.episode.task
        index = int(ref.task_id)
        task = self.task(ref.domain, ref.split, index)
        mistake = MISTAKES[index % len(MISTAKES)]
        spoke = [m for m in request.conversation if m.role in (common_pb2.ROLE_ASSISTANT, common_pb2.ROLE_UNSPECIFIED)]
        prompt = SYSTEM_PROMPT_HEAD + request.policy  # what it would give its model, for the trajectory
        if mistake != "role_unset" and not spoke:
            return agent_pb2.NextMessageResponse(message=first_message(mistake), system_prompt=prompt)
        made = sum(1 for m in spoke for call in m.tool_calls if call.id.startswith("ok_"))
        actions = task["actions"]
        if made < len(actions):
            action = actions[made]
            arguments = json.dumps(action["kwargs"])
            call = common_pb2.ToolCall(id=f"ok_{made}", name=action["name"], arguments_json=arguments)
            message = common_pb2.Message(tool_calls=[call])
        else:
            message = common_pb2.Message(content=" ".join(task["outputs"]) if task["outputs"] else CLOSING_LINE)
        if mistake != "role_unset":
            message.role = common_pb2.ROLE_ASSISTANT
        return agent_pb2.NextMessageResponse(message=message, system_prompt=prompt)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks-dir", type=Path, required=True, help="τ-bench data: {domain}/tasks_{split}.json")
    parser.add_argument("--port", type=int, default=0, help="0: any free port (printed)")
    args = parser.parse_args(argv)

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    agent_pb2_grpc.add_AgentServiceServicer_to_server(MisbehavingAgent(args.tasks_dir), server)
    port = server.add_insecure_port(f"127.0.0.1:{args.port}")
    server.start()
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    print(f"agent listening on 127.0.0.1:{port}", flush=True)
    while not stop.wait(0.5):
        pass
    server.stop(grace=2.0).wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
