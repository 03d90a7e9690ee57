"""A purple A2A agent written from the A2A 1.0 spec and the public text convention only (no taumesh import).

It plays τ-bench v1 tasks by their gold actions: it reads the task file it is given, recognises the task by the
customer's first message (the task's instruction, as the scripted user opens), then calls each gold action in turn
and finally says the task's outputs. It keeps its state per A2A context, as an A2A agent does.

    python a2a_gold_agent.py --tasks tasks_test.json --port 9100 [--grpc-port 9101] [--reply text|data] [--garbage-once]

``--reply text`` answers with messages in the text convention (``<json>{"name", "arguments"}</json>``, and
``respond`` for its last words); ``--reply data`` answers through a task: an artifact holding a data part
``{"tool_calls": [...]}`` or a text part. ``--garbage-once`` makes its very first answer unparsable.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import uuid
from pathlib import Path
from typing import Any

import grpc
import uvicorn
from a2a.helpers import new_data_part, new_text_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler, GrpcHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import a2a_pb2_grpc
from a2a.types.a2a_pb2 import AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Task, TaskState, TaskStatus
from starlette.applications import Starlette

CLOSING = "Is there anything else I can help you with?"


class Episode:
    """One context: the task found from the customer's first words, and how many gold actions are done."""

    def __init__(self, task: dict[str, Any]) -> None:
        self.actions: list[dict[str, Any]] = task["actions"]
        self.outputs: list[str] = task.get("outputs") or []
        self.done = 0


class GoldExecutor(AgentExecutor):
    def __init__(self, tasks: list[dict[str, Any]], reply: str, garbage_once: bool) -> None:
        self.by_instruction = {task["instruction"].strip(): task for task in tasks}
        self.reply, self.garbage_left = reply, garbage_once
        self.episodes: dict[str, Episode] = {}

    def episode(self, context_id: str, texts: list[str]) -> Episode:
        if context_id not in self.episodes:
            first_words = texts[-1].strip() if texts else ""  # the customer speaks last in the opening message
            task = self.by_instruction.get(first_words)
            if task is None:
                raise ValueError(f"no task opens with {first_words[:80]!r}")
            self.episodes[context_id] = Episode(task)
        return self.episodes[context_id]

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        assert message is not None
        texts = [part.text for part in message.parts if part.HasField("text")]
        context_id = context.context_id or message.context_id
        episode = self.episode(context_id, texts)
        if self.garbage_left:
            self.garbage_left = False
            await event_queue.enqueue_event(
                new_text_message('<json>{"name": "get_order_details", </json>', context_id=context_id)
            )
            return
        if episode.done < len(episode.actions):
            action = episode.actions[episode.done]
            call = {"id": f"gold-{episode.done}", "name": action["name"], "arguments": action["kwargs"]}
            episode.done += 1
        else:
            call = None
        words = " ".join(episode.outputs) if episode.outputs else CLOSING
        if self.reply == "text":
            if call is None:
                text = "<json>" + json.dumps({"name": "respond", "arguments": {"content": words}}) + "</json>"
            else:
                text = "<json>" + json.dumps({"name": call["name"], "arguments": call["arguments"]}) + "</json>"
            await event_queue.enqueue_event(new_text_message(text, context_id=context_id))
            return
        task_id = context.task_id or str(uuid.uuid4())
        await event_queue.enqueue_event(
            Task(id=task_id, context_id=context_id, status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED))
        )
        updater = TaskUpdater(event_queue, task_id, context_id)
        part = new_text_part(words) if call is None else new_data_part({"tool_calls": [call]})
        await updater.add_artifact([part], name="reply")
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise NotImplementedError


def card(port: int, grpc_port: int | None, reply: str) -> AgentCard:
    interfaces = [AgentInterface(url=f"http://127.0.0.1:{port}/", protocol_binding="JSONRPC", protocol_version="1.0")]
    if grpc_port:
        interfaces.append(AgentInterface(url=f"127.0.0.1:{grpc_port}", protocol_binding="GRPC", protocol_version="1.0"))
    return AgentCard(
        name=f"gold-{reply}",
        description="Plays τ-bench tasks by their gold actions (a test agent).",
        version="1.0",
        supported_interfaces=interfaces,
        capabilities=AgentCapabilities(streaming=reply == "data"),
        default_input_modes=["text/plain", "application/json"],
        default_output_modes=["text/plain", "application/json"],
        skills=[
            AgentSkill(
                id="customer-service", name="customer service", description="Solves retail tasks.", tags=["tau-bench"]
            )
        ],
    )


async def serve(args: argparse.Namespace) -> None:
    tasks = json.loads(Path(args.tasks).read_text(encoding="utf-8"))
    agent_card = card(args.port, args.grpc_port, args.reply)
    handler = DefaultRequestHandler(
        agent_executor=GoldExecutor(tasks, args.reply, args.garbage_once),
        task_store=InMemoryTaskStore(),
        agent_card=agent_card,
    )
    app = Starlette(routes=[*create_agent_card_routes(agent_card), *create_jsonrpc_routes(handler, "/")])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=args.port, log_level="warning"))
    grpc_server = None
    if args.grpc_port:
        grpc_server = grpc.aio.server()
        a2a_pb2_grpc.add_A2AServiceServicer_to_server(GrpcHandler(handler), grpc_server)
        grpc_server.add_insecure_port(f"127.0.0.1:{args.grpc_port}")
        await grpc_server.start()
    try:
        await server.serve()
    finally:
        if grpc_server is not None:
            await grpc_server.stop(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", required=True, help="a τ-bench v1 tasks file (tasks_test.json)")
    parser.add_argument("--port", type=int, required=True, help="JSON-RPC port (the agent card is served there)")
    parser.add_argument("--grpc-port", type=int, default=0, help="also serve the gRPC binding on this port")
    parser.add_argument("--reply", choices=["text", "data"], default="text")
    parser.add_argument("--garbage-once", action="store_true", help="make the very first answer unparsable")
    asyncio.run(serve(parser.parse_args()))


if __name__ == "__main__":
    main()
