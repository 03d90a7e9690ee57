"""An asynchronous OpenAI-compatible model server that plays τ² retail perfectly, for bench/live_llm.py.

Both roles of an episode ask it (told apart by the request's model name: one containing ``user`` is the user):

* as the **user**, it finds the task whose scenario its system prompt holds and says the task's opening (who the
  customer is and why they call); once it has spoken, it answers the stop token ``###STOP###``;
* as the **agent**, it finds the task from the customer's first message, answers the task's gold actions one tool
  call at a time (counting the tool calls the conversation already holds), then one text with every
  ``communicate_info`` of the task.

Each answer comes after the role's latency (an asyncio sleep, as a remote model would take), and with
``--rate-429`` that share of requests is refused with 429 and ``Retry-After``. ``GET /stats`` reports the requests
per role, the 429s, the peak of requests in flight and the first and last request's time; ``POST /reset`` zeroes
them. Run as a process of its own: ``python bench/_live_model.py --tasks tasks.json`` prints
``serving http://127.0.0.1:PORT/v1`` when it listens.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

STOP = "###STOP###"


def words(text: str) -> str:
    """``text`` with its whitespace runs as single spaces (a runner may reflow or strip what it passes on)."""
    return " ".join(text.split())


def opening(task: dict[str, Any]) -> str:
    """The customer's first message: who they are and why they call (unique per τ² retail task)."""
    instructions = task["user_scenario"]["instructions"]
    return words(f"{instructions['known_info']} {instructions['reason_for_call']}")


def fingerprint(task: dict[str, Any]) -> tuple[str, ...]:
    """Texts of the task's scenario that a user prompt rendering it must hold."""
    instructions = task["user_scenario"]["instructions"]
    keys = ("reason_for_call", "known_info", "task_instructions")
    return tuple(words(str(instructions[key])) for key in keys if instructions[key])


class Player:
    """Decides each answer from the tasks' gold data and the conversation so far."""

    def __init__(self, tasks: list[dict[str, Any]]) -> None:
        self.tasks = tasks
        self.by_opening = {opening(task): task for task in tasks}
        if len(self.by_opening) != len(tasks):
            raise SystemExit("two tasks share an opening: the agent could not tell them apart")
        self._by_prompt: dict[str, dict[str, Any]] = {}

    def task_of_prompt(self, system: str) -> dict[str, Any]:
        """The task whose scenario ``system`` renders (the longest match, should one contain another)."""
        known = self._by_prompt.get(system)
        if known is not None:
            return known
        flat = words(system)
        matches = [task for task in self.tasks if all(text in flat for text in fingerprint(task))]
        if not matches:
            raise LookupError("no task's scenario is in the user's system prompt")
        task = max(matches, key=lambda t: sum(map(len, fingerprint(t))))
        self._by_prompt[system] = task
        return task

    def user(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        system = next((m["content"] for m in messages if m["role"] == "system"), "")
        task = self.task_of_prompt(system)
        spoken = any(m["role"] == "assistant" for m in messages)  # the user's own turns, mirrored
        return {"role": "assistant", "content": STOP if spoken else opening(task)}

    def agent(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        first = next((m["content"] for m in messages if m["role"] == "user"), "")
        task = self.by_opening.get(words(str(first)))
        if task is None:
            raise LookupError("no task opens with the customer's first message")
        criteria = task["evaluation_criteria"]
        actions = criteria.get("actions") or []
        made = sum(len(m.get("tool_calls") or []) for m in messages if m["role"] == "assistant")
        if made < len(actions):
            action = actions[made]
            call = {
                "id": f"call_{uuid.uuid4().hex[:12]}",
                "type": "function",
                "function": {"name": action["name"], "arguments": json.dumps(action["arguments"])},
            }
            return {"role": "assistant", "content": None, "tool_calls": [call]}
        said = " ".join(str(info) for info in criteria.get("communicate_info") or [])
        return {"role": "assistant", "content": f"Done. {said}".strip()}


@dataclass
class Stats:
    """What the server counted since the last reset."""

    requests: dict[str, int] = field(default_factory=lambda: {"agent": 0, "user": 0})
    refused_429: int = 0
    failed: int = 0
    in_flight: int = 0
    peak_in_flight: int = 0
    first_request: float | None = None
    last_reply: float | None = None

    def view(self) -> dict[str, Any]:
        return {
            "requests": dict(self.requests),
            "refused_429": self.refused_429,
            "failed": self.failed,
            "peak_in_flight": self.peak_in_flight,
            "first_request": self.first_request,
            "last_reply": self.last_reply,
        }


def completion(model: str, message: dict[str, Any]) -> dict[str, Any]:
    """The chat-completion body around ``message``."""
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:16]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
                "logprobs": None,
            }
        ],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
    }


def build_app(
    player: Player, latency: dict[str, float], rate_429: float, retry_after: float, seed: int
) -> web.Application:
    stats = Stats()
    chance = random.Random(seed)

    async def chat(request: web.Request) -> web.Response:
        now = time.time()
        if stats.first_request is None:
            stats.first_request = now
        body = await request.json()
        model = str(body.get("model", ""))
        role = "user" if "user" in model else "agent"
        stats.requests[role] += 1
        if rate_429 and chance.random() < rate_429:
            stats.refused_429 += 1
            error = {"error": {"message": "rate limited", "type": "rate_limit_error", "code": "rate_limit"}}
            return web.json_response(error, status=429, headers={"Retry-After": f"{retry_after:g}"})
        stats.in_flight += 1
        stats.peak_in_flight = max(stats.peak_in_flight, stats.in_flight)
        try:
            await asyncio.sleep(latency[role])
            try:
                message = player.user(body["messages"]) if role == "user" else player.agent(body["messages"])
            except (LookupError, KeyError, TypeError) as exc:
                stats.failed += 1
                error = {"error": {"message": str(exc), "type": "invalid_request_error"}}
                return web.json_response(error, status=400)
        finally:
            stats.in_flight -= 1
        stats.last_reply = time.time()
        return web.json_response(completion(model, message))

    async def show(request: web.Request) -> web.Response:
        return web.json_response(stats.view())

    async def reset(request: web.Request) -> web.Response:
        nonlocal stats
        fresh = Stats(in_flight=stats.in_flight)
        stats = fresh
        return web.json_response(stats.view())

    app = web.Application(client_max_size=64 * 1024**2)
    app.router.add_post("/v1/chat/completions", chat)
    app.router.add_post("/chat/completions", chat)
    app.router.add_get("/stats", show)
    app.router.add_post("/reset", reset)
    return app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", type=Path, required=True, help="τ² retail's tasks.json")
    parser.add_argument("--agent-latency", type=float, default=2.0, help="seconds per agent answer")
    parser.add_argument("--user-latency", type=float, default=1.0, help="seconds per user answer")
    parser.add_argument("--rate-429", type=float, default=0.0, help="share of requests refused with 429")
    parser.add_argument("--retry-after", type=float, default=1.0, help="Retry-After of a 429, in seconds")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    player = Player(json.loads(args.tasks.read_text(encoding="utf-8")))
    latency = {"agent": args.agent_latency, "user": args.user_latency}
    app = build_app(player, latency, args.rate_429, args.retry_after, args.seed)

    async def serve() -> None:
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", args.port, backlog=4096)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        print(f"serving http://127.0.0.1:{port}/v1", flush=True)
        parent = os.getppid()
        while os.getppid() == parent:  # the bench that started it died: stop too
            await asyncio.sleep(1.0)

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
