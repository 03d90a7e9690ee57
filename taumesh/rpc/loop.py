"""How taumesh's processes run their event loop: :func:`run`, :func:`asyncio.run` without its exit cost.

uvloop was tried here (about 10 % less CPU per gRPC call on each end, grpc.aio 1.85) and dropped: its subprocess
pipes failed the ``--workers`` coordinator's hand-over to its workers now and then ("handler is closed",
MagicStack/uvloop#506), and the gain at 1,000 live episodes was within the bench's noise.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to completion on a new event loop and close it, as :func:`asyncio.run` does.

    The loop's main task returns nothing, and ``main``'s result is handed over beside it: Python 3.11's
    ``Runner.run`` builds the repr of its main task, result included, twice on the way out (``signal.getsignal``
    formats a ValueError about the SIGINT handler that holds the task). For ``taumesh run`` that result is the
    whole run: the repr of 3,000 episodes took seconds of CPU after the last one ended.
    """
    results: list[T] = []

    async def main_task() -> None:
        results.append(await main)

    with asyncio.Runner() as runner:
        runner.run(main_task())
    return results[0]
