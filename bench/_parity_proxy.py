"""An OpenAI-compatible proxy that records every chat request of a harness, or replays another harness's answers.

For bench/parity_taubench.py. Two modes, one process each:

* ``--record LOG``: every ``POST /v1/chat/completions`` goes to ``--upstream`` (the real model); the request body and
  the answer are appended to ``LOG`` (JSON lines: ``{"role", "index", "request", "response"}``);
* ``--replay LOG --record LOG2``: a request equal to one recorded (of its role, not yet replayed; message fields
  providers ignore left aside: :data:`IGNORED_MESSAGE_FIELDS`) is answered with the recorded answer, without asking
  the model; any other is forwarded to ``--upstream`` and marked ``"replayed": false``. So the second harness meets
  exactly the first one's model as long as it asks the same, whatever requests the first made that it does not
  (τ-bench's user asks the model once each time it is constructed, and drops the answer), and the first request it
  asks otherwise is the parity finding.

The role is the agent's when the request offers tools, else the simulated user's (τ-bench's tool-calling agent and
its LLM user). ``GET /health`` answers when it listens; it prints ``serving http://127.0.0.1:PORT/v1``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

TIMEOUT = aiohttp.ClientTimeout(total=1800)
"""A cold prompt of several thousand tokens takes minutes on these CPUs."""


IGNORED_MESSAGE_FIELDS = ("provider_specific_fields",)
"""What litellm adds to a message it returns and τ-bench passes back as is; providers ignore it."""


def normalised(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` without the message fields providers ignore (:data:`IGNORED_MESSAGE_FIELDS`)."""
    messages = [
        {k: v for k, v in m.items() if k not in IGNORED_MESSAGE_FIELDS} if isinstance(m, dict) else m
        for m in body.get("messages", [])
    ]
    return {**body, "messages": messages}


def role_of(body: dict[str, Any]) -> str:
    """``agent`` when the request offers tools (the tool-calling agent), else ``user`` (the simulated user)."""
    return "agent" if body.get("tools") else "user"


class Proxy:
    """The recorded exchanges so far, and those replayed from the other harness."""

    def __init__(self, upstream: str, record: Path, replay: Path | None) -> None:
        self.upstream, self.record = upstream.rstrip("/"), record
        self.replay: dict[str, list[dict[str, Any]]] = {"agent": [], "user": []}
        if replay is not None:
            for line in replay.read_text(encoding="utf-8").splitlines():
                entry = json.loads(line)
                self.replay[entry["role"]].append(entry)
        self.counts = {"agent": 0, "user": 0}
        self.lock = asyncio.Lock()

    async def chat(self, request: web.Request) -> web.Response:
        body = await request.json()
        role = role_of(body)
        async with self.lock:  # one at a time, in arrival order: the harnesses ask one request at a time anyway
            index = self.counts[role]
            self.counts[role] += 1
            wanted = normalised(body)
            recorded = next((e for e in self.replay[role] if normalised(e["request"]) == wanted), None)
            if recorded is not None:  # the first not yet replayed: a request asked twice gets both answers in turn
                self.replay[role].remove(recorded)
                answer, replayed = recorded["response"], True
            else:
                answer, replayed = await self._forward(body), False
            entry = {"role": role, "index": index, "replayed": replayed, "request": body, "response": answer}
            with self.record.open("a", encoding="utf-8") as sink:
                sink.write(json.dumps(entry) + "\n")
        return web.json_response(answer)

    async def _forward(self, body: dict[str, Any]) -> dict[str, Any]:
        url = f"{self.upstream}/chat/completions"
        async with aiohttp.ClientSession(timeout=TIMEOUT) as session, session.post(url, json=body) as response:
            answer: dict[str, Any] = await response.json(content_type=None)
            return answer


async def health(_: web.Request) -> web.Response:
    return web.json_response({"ok": True})


async def serve(proxy: Proxy, port: int) -> None:
    app = web.Application(client_max_size=64 * 2**20)
    app.router.add_post("/v1/chat/completions", proxy.chat)
    app.router.add_get("/health", health)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    print(f"serving http://127.0.0.1:{runner.addresses[0][1]}/v1", flush=True)
    await asyncio.Event().wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upstream", required=True, help="the real model's OpenAI-compatible base URL (…/v1)")
    parser.add_argument("--record", type=Path, required=True, help="where this harness's exchanges are written")
    parser.add_argument("--replay", type=Path, help="the other harness's exchanges, answered where they match")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    args.record.write_text("", encoding="utf-8")
    try:
        asyncio.run(serve(Proxy(args.upstream, args.record, args.replay), args.port))
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
