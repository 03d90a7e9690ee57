"""How taumesh's processes run their event loop: :func:`run`, :func:`asyncio.run` without its exit cost.

uvloop was tried here (about 10 % less CPU per gRPC call on each end, grpc.aio 1.85) and dropped: its subprocess
pipes failed the ``--workers`` coordinator's hand-over to its workers now and then ("handler is closed",
MagicStack/uvloop#506), and the gain at 1,000 live episodes was within the bench's noise.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")

GC_THRESHOLDS = (50_000, 20, 100)
"""While a loop runs: the youngest generation collected every 50,000 net allocations (CPython: 700), the oldest
after 100 collections of the middle one (CPython: 10)."""


@contextmanager
def long_lived_heap() -> Iterator[None]:
    """Inside, the objects alive on entry are frozen and collections are rarer; the process's settings after.

    Frozen objects are never examined by a collection; on exit they are collectable again. A server or a run holds
    many long-lived objects (modules, a domain's data, the live episodes' messages and protobufs, finished results):
    with CPython's defaults, the orchestrator at 1,000 live episodes spent 2.6-3.5 s of a 38 s run collecting, each
    full collection walking all of them; with these settings 0.4 s (bench/README.md).
    """
    previous = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*previous)


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to completion on a new event loop and close it, as :func:`asyncio.run` does.

    The loop's main task returns nothing, and ``main``'s result is handed over beside it: Python 3.11's
    ``Runner.run`` builds the repr of its main task, result included, twice on the way out (``signal.getsignal``
    formats a ValueError about the SIGINT handler that holds the task). For ``taumesh run`` that result is the
    whole run: the repr of 3,000 episodes took seconds of CPU after the last one ended. The loop runs in a
    :func:`long_lived_heap`.
    """
    results: list[T] = []

    async def main_task() -> None:
        results.append(await main)

    with long_lived_heap(), asyncio.Runner() as runner:
        runner.run(main_task())
    return results[0]
