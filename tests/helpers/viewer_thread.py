"""The viewer's app served over real HTTP from a thread of the test process (no ``taumesh view`` process to start)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import uvicorn

from taumesh.viewer import RunLibrary
from taumesh.viewer.app import create_app
from tests.helpers.processes import free_port
from tests.helpers.viewer import ViewerClient


class ThreadViewer(ViewerClient):
    """As :class:`tests.helpers.viewer.ServedViewer` (``url``, ``get``, ``run_id``, ``close``), served by uvicorn in a
    thread: for tests of what the viewer serves, not of its process. The library is built as ``taumesh view`` does."""

    def __init__(self, paths: list[Path]) -> None:
        library = RunLibrary(paths)
        library.refresh()
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(create_app(library), host="127.0.0.1", port=self.port, log_level="warning")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="viewer", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the viewer's server did not start")
            time.sleep(0.01)

    def close(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
