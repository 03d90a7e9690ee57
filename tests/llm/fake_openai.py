"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for driving litellm's real HTTP path.

The reply to each request is decided by a *script*: a callable given the parsed request body (and the
request's ordinal) that returns a :class:`Reply`. A reply is a completion (text and/or tool calls, with the
usage the server reports) or a fault: an HTTP error status (429 with ``Retry-After``, 500, ...), a delay
beyond the client's timeout, or an empty completion. Every request and every reply served is recorded so
tests can assert on what litellm sent and sum what the server reported.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """What the server answers to one request."""

    content: str | None = None
    tool_calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """(function name, arguments) pairs; ids are generated."""
    prompt_tokens: int = 10
    completion_tokens: int = 5
    status: int = 200
    """An HTTP error status (429, 500, ...) returns an OpenAI error body instead of a completion."""
    retry_after: str | None = None
    """``Retry-After`` header value sent with an error status."""
    delay: float = 0.0
    """Seconds to wait before answering (longer than the client's timeout makes a slow reply)."""
    finish_reason: str | None = None
    error_message: str | None = None
    """Message of the error body sent with an error status (default ``scripted <status>``)."""
    no_choices: bool = False
    """A completion whose ``choices`` list is empty (usage still reported)."""

    @property
    def is_completion(self) -> bool:
        return self.status == 200


def text(content: str, prompt_tokens: int = 10, completion_tokens: int = 5) -> Reply:
    """A plain text completion."""
    return Reply(content=content, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)


def tool_call(name: str, arguments: dict[str, Any], prompt_tokens: int = 10, completion_tokens: int = 5) -> Reply:
    """A completion with one tool call."""
    return Reply(tool_calls=[(name, arguments)], prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)


def rate_limited(retry_after: str = "1") -> Reply:
    """429 Too Many Requests with a Retry-After header."""
    return Reply(status=429, retry_after=retry_after)


def context_window_exceeded() -> Reply:
    """400: the conversation is longer than the model's context window (OpenAI's wording)."""
    return Reply(
        status=400,
        error_message="This model's maximum context length is 128000 tokens. However, your messages resulted in "
        "131072 tokens. Please reduce the length of the messages.",
    )


def server_error(status: int = 500) -> Reply:
    """A 5xx error."""
    return Reply(status=status)


def slow(seconds: float, then: Reply | None = None) -> Reply:
    """``then`` (a short text by default), delivered after ``seconds``."""
    reply = then or text("late")
    reply.delay = seconds
    return reply


def empty(prompt_tokens: int = 10, completion_tokens: int = 0) -> Reply:
    """A well-formed completion with no text and no tool calls."""
    return Reply(content="", prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)


Script = Callable[[dict[str, Any], int], Reply]
"""Given the parsed request body and its ordinal (from 0), the reply."""


@dataclass
class Served:
    """One request and the reply it got."""

    request: dict[str, Any]
    reply: Reply
    path: str
    headers: dict[str, str]
    received_at: float


class FakeOpenAI:
    """The server; ``with FakeOpenAI(script) as server: ... server.url``."""

    def __init__(self, script: Script | None = None) -> None:
        self.script: Script = script or (lambda request, n: text("hello"))
        self.served: list[Served] = []
        self._lock = threading.Lock()
        self._count = 0
        handler = _handler_for(self)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="fake-openai", daemon=True)

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """Base URL to give litellm as ``api_base``."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def reset(self, script: Script | None = None) -> None:
        """Forget what was served and, when given, switch scripts."""
        with self._lock:
            self.served.clear()
            self._count = 0
            if script is not None:
                self.script = script

    def decide(self, request: dict[str, Any], path: str, headers: dict[str, str]) -> Reply:
        with self._lock:
            ordinal = self._count
            self._count += 1
            script = self.script
        reply = script(request, ordinal)
        with self._lock:
            self.served.append(Served(request, reply, path, headers, time.monotonic()))
        return reply

    @property
    def requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return [s.request for s in self.served]

    def completions(self, model: str | None = None) -> list[Served]:
        """Requests answered with a completion (status 200), optionally for one model."""
        with self._lock:
            return [s for s in self.served if s.reply.is_completion and (model is None or s.request["model"] == model)]


def completion_body(request: dict[str, Any], reply: Reply) -> dict[str, Any]:
    """The OpenAI chat-completion JSON for ``reply``."""
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": f"call_{uuid.uuid4().hex[:12]}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
            for name, arguments in reply.tool_calls
        ]
    finish = reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:16]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "unknown"),
        "choices": []
        if reply.no_choices
        else [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": {
            "prompt_tokens": reply.prompt_tokens,
            "completion_tokens": reply.completion_tokens,
            "total_tokens": reply.prompt_tokens + reply.completion_tokens,
        },
    }


def _handler_for(server: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
                self._send(404, {"error": {"message": f"no route {self.path}", "type": "invalid_request_error"}})
                return
            try:
                request = json.loads(raw)
            except json.JSONDecodeError:
                self._send(400, {"error": {"message": "body is not JSON", "type": "invalid_request_error"}})
                return
            reply = server.decide(request, self.path, {k.lower(): v for k, v in self.headers.items()})
            if reply.delay:
                time.sleep(reply.delay)
            if not reply.is_completion:
                headers = {"Retry-After": reply.retry_after} if reply.retry_after is not None else {}
                kind = {429: "rate_limit_exceeded", 400: "invalid_request_error"}.get(reply.status, "server_error")
                message = reply.error_message or f"scripted {reply.status}"
                self._send(reply.status, {"error": {"message": message, "type": kind}}, headers)
                return
            self._send(200, completion_body(request, reply))

        def _send(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
            payload = json.dumps(body).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a slow reply past its timeout)

    return Handler
