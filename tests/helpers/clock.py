"""A clock a test moves by hand, for the work store's and the API's leases (``WorkStore(clock=...)``)."""

from __future__ import annotations

import threading
import time


class FakeClock:
    """Seconds since the epoch, starting at the real now and moving only by :meth:`advance` (safe across threads)."""

    def __init__(self, start: float | None = None) -> None:
        self._now = time.time() if start is None else start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds
