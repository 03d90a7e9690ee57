"""The gateway tests' servers on 127.0.0.1: a token-reporting OpenAI-compatible backend, and the gateway itself.

:class:`TokenBackend` answers ``/v1/chat/completions`` the way a policy server would for the tool-calling agent: a
tool call after the user's message, a text answer after a tool's result. It reports token data only when asked,
as vLLM (``return_token_ids``: ``prompt_token_ids``, ``choices[0].token_ids``) or llama.cpp (``logprobs``: each
``logprobs.content[]`` with its ``id``) do, so the gateway must ask for it. Every request is recorded, headers too.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Literal

import uvicorn
from pydantic import SecretStr

from taumesh.gateway.app import GatewaySettings, gateway_app

Style = Literal["vllm", "llama.cpp"]


@dataclass
class Seen:
    """One request the backend received."""

    path: str
    body: dict[str, Any]
    headers: dict[str, str]


def reply_body(request: dict[str, Any], ordinal: int, style: Style) -> dict[str, Any]:
    """The completion for ``request``: a tool call to the first tool offered after a user message, else text.

    Its token data: the prompt's ids (3 a message, from 1000), the completion's (4, from ``10 * ordinal``) with
    log-probabilities -0.5, -0.25, ... so each call's tokens are its own.
    """
    messages = request.get("messages") or []
    tools = request.get("tools") or []
    last = messages[-1] if messages else {}
    message: dict[str, Any] = {"role": "assistant", "content": None}
    if tools and last.get("role") == "user":
        name = tools[0]["function"]["name"]
        message["tool_calls"] = [
            {"id": f"call_{ordinal}", "type": "function", "function": {"name": name, "arguments": "{}"}}
        ]
        finish = "tool_calls"
    else:
        message["content"] = f"All done (reply {ordinal})."
        finish = "stop"
    prompt = list(range(1000, 1000 + 3 * len(messages)))
    completion = [10 * ordinal + i for i in range(4)]
    logprobs = [-0.5 / (i + 1) for i in range(4)]
    choice: dict[str, Any] = {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
    body: dict[str, Any] = {
        "id": f"chatcmpl-{ordinal}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "policy"),
        "choices": [choice],
        "usage": {"prompt_tokens": len(prompt), "completion_tokens": 4, "total_tokens": len(prompt) + 4},
    }
    if request.get("logprobs"):
        content = []
        for token, logprob in zip(completion, logprobs, strict=True):
            entry: dict[str, Any] = {"token": f"t{token}", "logprob": logprob, "bytes": [], "top_logprobs": []}
            if style == "llama.cpp":
                entry["id"] = token
            elif request.get("return_tokens_as_token_ids"):
                entry["token"] = f"token_id:{token}"
            content.append(entry)
        choice["logprobs"] = {"content": content}
    if style == "vllm" and request.get("return_token_ids"):
        body["prompt_token_ids"] = prompt
        choice["token_ids"] = completion
    return body


class TokenBackend:
    """``with TokenBackend("vllm") as backend: backend.url``; ``backend.seen`` holds every request."""

    def __init__(self, style: Style = "vllm") -> None:
        self.style: Style = style
        self.seen: list[Seen] = []
        self._lock = threading.Lock()
        backend = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                with backend._lock:
                    ordinal = len(backend.seen)
                    backend.seen.append(Seen(self.path, body, {k.lower(): v for k, v in self.headers.items()}))
                payload = json.dumps(reply_body(body, ordinal, backend.style)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="token-backend", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> TokenBackend:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


@contextmanager
def running_gateway(backend: str, traces: Path, key: str, **settings: Any) -> Iterator[str]:
    """``taumesh serve gateway``'s app on 127.0.0.1 (a thread of its own) until the block ends; yields its /v1 URL."""
    app = gateway_app(GatewaySettings(backend=backend, traces=traces, key=SecretStr(key), **settings))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, name="gateway", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the gateway did not start")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
