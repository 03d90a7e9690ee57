"""The audit log: one JSON line per request (time, key id, route, status, latency, request id, run id).

Never a secret and never a body: the key id is the public half of a key, the route its template (a request
answered before routing, such as the key gate's 401 and 429, also has its path, clipped).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taumesh.api.private_files import append_private, private_file
from taumesh.api.telemetry import tag_request

REQUEST_ID_HEADER = b"x-request-id"


class AuditLog:
    """Appends JSON lines to a file (one ``write`` each: workers can share the file), readable by its owner alone.

    The file is created 0600 in a folder of 0700, and tightened to 0600 when found wider
    (:mod:`taumesh.api.private_files`).
    """

    def __init__(self, path: Path) -> None:
        private_file(path)
        self.path = path
        self._lock = threading.Lock()

    def write(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, separators=(",", ":")) + "\n"
        with self._lock:
            append_private(self.path, line)


MAX_PATH = 200
"""Characters of an unrouted request's path kept in its audit line."""


class AuditMiddleware:
    """Gives each request an id (``X-Request-ID``) and writes its audit line when the answer has gone."""

    def __init__(self, app: ASGIApp, log: AuditLog) -> None:
        self.app = app
        self.log = log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        request_id = uuid.uuid4().hex
        state: dict[str, Any] = scope.setdefault("state", {})
        state["request_id"] = request_id
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                tag_request(state.get("run_id"))  # the HTTP span (when traced) ends with the body's last part
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (REQUEST_ID_HEADER, request_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            route = getattr(scope.get("route"), "path", None)
            record = {
                "time": datetime.now(UTC).isoformat(),
                "key_id": state.get("key_id"),
                "method": scope.get("method"),
                "route": route or "<unmatched>",
                "status": status,
                "latency_ms": round((time.perf_counter() - started) * 1000, 2),
                "request_id": request_id,
                "run_id": state.get("run_id"),
            }
            if route is None:  # answered before routing (the key gate's 401 and 429) or no route: say where it went
                record["path"] = str(scope.get("path", ""))[:MAX_PATH]
            self.log.write(record)
