"""The tests' one fake model: a scripted OpenAI-compatible server on 127.0.0.1, for driving litellm's real HTTP path.

Start it one way: the ``fake`` fixture (tests/conftest.py) for a test's own server, emptied and granted in this
process's environment; ``with FakeOpenAI(script) as server:`` where a fixture of a wider scope, a second server or
a process of its own needs one (``server.environment()`` is what that process needs to call it).

Script it one way: a :class:`Reply` is the answer to every request, ``in_turn(a, b, c)`` answers in that order (the
last one again after), and any callable given the parsed request body and the request's ordinal returns the reply
(tests/llm/scripts.py holds the ones that play retail's tasks). A reply is a completion (text and/or tool calls,
with the usage the server reports) or a fault: an HTTP error status (429 with ``Retry-After``, 500, ...), a delay
beyond the client's timeout, or an empty completion. Every request and every reply served is recorded so tests
can assert on what litellm sent and sum what the server reported. ``POST /v1/embeddings`` is answered too, by
``embed`` (one vector a text), for the retrieval tests.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from taumesh.llm.access import ALLOWED_API_BASES_ENV

FAKE_KEY = "sk-taumesh-test-not-a-real-key"
"""The API key a process calling the server is given: the provider's client refuses to call without one."""


@dataclass(frozen=True)
class Reply:
    """What the server answers to one request (frozen: one reply may answer many requests, of many tests)."""

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
    system_fingerprint: str | None = None
    """The ``system_fingerprint`` the completion reports (the backend configuration, as OpenAI and vLLM give it)."""

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
    return dataclasses.replace(then or text("late"), delay=seconds)


def empty(prompt_tokens: int = 10, completion_tokens: int = 0) -> Reply:
    """A well-formed completion with no text and no tool calls."""
    return Reply(content="", prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)


Script = Callable[[dict[str, Any], int], Reply]
"""Given the parsed request body and its ordinal (from 0), the reply."""


def in_turn(*replies: Reply) -> Script:
    """``replies`` in order, one a request; the last one again for every request after them."""
    if not replies:
        raise ValueError("in_turn needs at least one reply")
    return lambda request, ordinal: replies[min(ordinal, len(replies) - 1)]


def _as_script(script: Script | Reply) -> Script:
    return in_turn(script) if isinstance(script, Reply) else script


Embed = Callable[[str], list[float]]
"""The vector the server gives one text sent to ``/v1/embeddings``."""


@dataclass
class Served:
    """One request and the reply it got."""

    request: dict[str, Any]
    reply: Reply
    path: str
    headers: dict[str, str]
    received_at: float
    peer_port: int
    """The client's port: requests sent over one kept connection share it."""


class FakeOpenAI:
    """The server; ``with FakeOpenAI(script) as server: ... server.url`` (``text("hello")`` to all by default)."""

    def __init__(self, script: Script | Reply | None = None, embed: Embed | None = None) -> None:
        self.script: Script = _as_script(script or text("hello"))
        self.embed = embed
        self.served: list[Served] = []
        self.embedded: list[dict[str, Any]] = []
        """Each ``/v1/embeddings`` request: its path, model and texts (``input`` as a list)."""
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

    def environment(self) -> dict[str, str]:
        """What a process needs to call this server: an API key, and the operator's grant of its address."""
        return {"OPENAI_API_KEY": FAKE_KEY, ALLOWED_API_BASES_ENV: self.url}

    @contextlib.contextmanager
    def granted(self) -> Iterator[None]:
        """:meth:`environment` in this process's, meanwhile: for a fixture wider than a test (``fake`` sets it)."""
        with pytest.MonkeyPatch.context() as patch:
            for name, value in self.environment().items():
                patch.setenv(name, value)
            yield

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def reset(self, script: Script | Reply | None = None) -> None:
        """Forget what was served and, when given, switch scripts."""
        with self._lock:
            self.served.clear()
            self.embedded.clear()
            self._count = 0
            if script is not None:
                self.script = _as_script(script)

    def decide(self, request: dict[str, Any], path: str, headers: dict[str, str], peer_port: int) -> Reply:
        with self._lock:
            ordinal = self._count
            self._count += 1
            script = self.script
        reply = script(request, ordinal)
        with self._lock:
            self.served.append(Served(request, reply, path, headers, time.monotonic(), peer_port))
        return reply

    def embeddings(self, request: dict[str, Any], path: str) -> dict[str, Any]:
        """The ``/v1/embeddings`` answer to ``request``, recorded."""
        texts = request["input"] if isinstance(request["input"], list) else [request["input"]]
        with self._lock:
            self.embedded.append({"path": path, "model": request.get("model"), "input": texts})
        assert self.embed is not None
        data = [{"object": "embedding", "index": i, "embedding": self.embed(t)} for i, t in enumerate(texts)]
        usage = {"prompt_tokens": len(texts), "total_tokens": len(texts)}
        return {"object": "list", "data": data, "model": request.get("model"), "usage": usage}

    def embedded_inputs(self) -> list[str]:
        """Every text sent to ``/v1/embeddings``, in order."""
        with self._lock:
            return [text for request in self.embedded for text in request["input"]]

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
    fingerprint = {"system_fingerprint": reply.system_fingerprint} if reply.system_fingerprint else {}
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:16]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "unknown"),
        **fingerprint,
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
            route = self.path.rstrip("/").removeprefix("/v1")
            if route not in ("/chat/completions", "/embeddings") or (route == "/embeddings" and server.embed is None):
                self._send(404, {"error": {"message": f"no route {self.path}", "type": "invalid_request_error"}})
                return
            try:
                request = json.loads(raw)
            except json.JSONDecodeError:
                self._send(400, {"error": {"message": "body is not JSON", "type": "invalid_request_error"}})
                return
            if route == "/embeddings":
                self._send(200, server.embeddings(request, self.path))
                return
            headers = {k.lower(): v for k, v in self.headers.items()}
            reply = server.decide(request, self.path, headers, int(self.client_address[1]))
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
