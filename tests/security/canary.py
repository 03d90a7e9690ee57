"""A canary key and HTTP listeners on 127.0.0.1 that record every request's headers: where did the key go?"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CANARY = "sk-canary-0f1e2d3c4b5a69788796a5b4c3d2e1f0"
"""The operator's key in these tests: it must reach no listener the operator did not name."""


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


Answer = Callable[[Seen], tuple[int, dict[str, str], bytes]]
"""Status, headers and body for a request."""


def json_answer(body: object, status: int = 200) -> Answer:
    def answer(seen: Seen) -> tuple[int, dict[str, str], bytes]:
        return status, {"Content-Type": "application/json"}, json.dumps(body).encode()

    return answer


def redirect_to(location: str, status: int = 302) -> Answer:
    def answer(seen: Seen) -> tuple[int, dict[str, str], bytes]:
        return status, {"Location": location + seen.path, "Content-Length": "0"}, b""

    return answer


class Listener:
    """An HTTP server on a free loopback port answering every method with ``answer``, recording each request."""

    def __init__(self, answer: Answer | None = None) -> None:
        self.answer = answer or json_answer({})
        self.seen: list[Seen] = []
        listener = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                seen = Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()},
                            self.rfile.read(length))  # fmt: skip
                listener.seen.append(seen)
                status, headers, body = listener.answer(seen)
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up first
                    self.send_response(status)
                    for key, value in headers.items():
                        self.send_header(key, value)
                    if "Content-Length" not in headers:
                        self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _any

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> Listener:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def saw_canary(self) -> list[Seen]:
        """The requests that carried the canary anywhere: a header or the body."""
        return [s for s in self.seen if CANARY in json.dumps(s.headers) or CANARY.encode() in s.body]
