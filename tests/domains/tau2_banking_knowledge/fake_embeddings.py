"""A scripted OpenAI-compatible embeddings server on 127.0.0.1: each text's vector counts a few keywords."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

KEYWORDS = ("credit", "debit", "card", "lost", "stolen", "fee", "dispute", "account", "savings", "transfer")


def vector(text: str) -> list[float]:
    """The server's embedding of ``text``: keyword counts, plus a constant so that no vector is zero."""
    lowered = text.lower()
    return [float(lowered.count(word)) for word in KEYWORDS] + [1.0]


class FakeEmbeddings:
    """``POST /v1/embeddings``; every input received is recorded, by request."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def inputs(self) -> list[str]:
        return [text for request in self.requests for text in request["input"]]

    def __enter__(self) -> FakeEmbeddings:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def _handler(server: FakeEmbeddings) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return None

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            server.requests.append({"path": self.path, "model": body.get("model"), "input": texts})
            data = [{"object": "embedding", "index": i, "embedding": vector(t)} for i, t in enumerate(texts)]
            usage = {"prompt_tokens": len(texts), "total_tokens": len(texts)}
            payload = json.dumps({"object": "list", "data": data, "model": body.get("model"), "usage": usage})
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload.encode())

    return Handler
