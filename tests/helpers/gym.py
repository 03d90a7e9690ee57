"""An env service on a loop of its own, for the Gym API that blocks its caller's thread."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from taumesh.domains import Catalog
from taumesh.rpc.server import RunningServer, start_server
from taumesh.services.env import env_service


class EnvServerThread:
    """An env service on a loop of its own (the Gym API blocks the caller's thread), its servicer at hand."""

    def __init__(self, data_dir: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.service = env_service(Catalog(data_dir))
        self.server: RunningServer = asyncio.run_coroutine_threadsafe(start_server([self.service]), self.loop).result()

    @property
    def open_sessions(self) -> int:
        return len(self.service.servicer.sessions)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(grace=1.0), self.loop).result()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()
