"""The REST API served over real HTTP by uvicorn in a thread of the test process (no uvicorn process to start)."""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import pytest
import uvicorn

from tests.helpers.api import ApiServer, start_server


@dataclass
class ThreadApi(ApiServer):
    """As :class:`tests.helpers.api.ApiServer` (same settings, read from the same ``TAUMESH_API_*`` variables), served
    from a thread: for tests of what the API answers, not of its process. The ``TAUMESH_API_*`` variables are set
    only while the settings are read; the others of ``extra_env`` (a model's endpoint, ``TAUMESH_LLM_*``) stay set in
    this process while the server runs, since the embedded services read theirs at call time."""

    _env: pytest.MonkeyPatch = field(default_factory=pytest.MonkeyPatch, repr=False)
    _server: uvicorn.Server | None = field(default=None, repr=False)
    _thread: threading.Thread | None = field(default=None, repr=False)

    def start(self) -> None:
        from taumesh.api.app import create_app
        from taumesh.api.settings import API_ENV_PREFIX, ApiSettings

        # the port bound here and handed to uvicorn: a port only picked (free_port) was once taken by another
        # test's server before uvicorn bound it, and the module's every test failed with "address already in use"
        listening = socket.create_server(("127.0.0.1", 0))
        self.port = listening.getsockname()[1]
        variables = self.variables()
        with pytest.MonkeyPatch.context() as settings_env:  # read once, here; gone before the tests run
            for name, value in variables.items():
                if name.startswith(API_ENV_PREFIX):
                    settings_env.setenv(name, value)
            settings = ApiSettings()
        for name, value in variables.items():
            if not name.startswith(API_ENV_PREFIX):
                self._env.setenv(name, value)
        app = create_app(settings)
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_config=None, access_log=False)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [listening]}, name="api", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + 60
        # started: the lifespan (database, services, executor) is up and the socket listens. Not /health, whose
        # first answer imports litellm for its model lists (seconds of CPU a test may not need)
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self._env.undo()
                raise RuntimeError("the API's server did not start")
            time.sleep(0.02)

    def stop(self, kill: bool = False) -> None:
        """A graceful stop (lifespan's end: leases released); a thread cannot be killed as a process is."""
        if kill:
            raise NotImplementedError("a crash needs the API as a process: use tests.helpers.api.ApiServer")
        if self._server is None or self._thread is None:
            return
        self._server.should_exit = True
        self._thread.join(timeout=30)
        self._server = self._thread = None
        self._env.undo()


def start_thread_server(database_url: str, root: Path, data_dir: Path, **extra_env: str) -> ThreadApi:
    """As :func:`tests.helpers.api.start_server`, the server in a thread."""
    return cast(ThreadApi, start_server(database_url, root, data_dir, ThreadApi, **extra_env))
