"""taumesh.rpc.loop.run: a gRPC server and its client answer on it, it hands the result over without its repr, and
it collects garbage as a long-running process should while it runs."""

from __future__ import annotations

import gc

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from taumesh.rpc.loop import GC_THRESHOLDS, run
from taumesh.rpc.server import start_server


async def round_trip() -> int:
    """A health check through a real server started on the running loop: the status."""
    running = await start_server([])
    try:
        async with grpc.aio.insecure_channel(running.address) as channel:
            answer = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
    finally:
        await running.stop(grace=0)
    return int(answer.status)


def test_a_server_and_its_client_answer_on_the_loop() -> None:
    assert run(round_trip()) == health_pb2.HealthCheckResponse.SERVING


class Result:
    """A run's result that counts the times its repr is built."""

    reprs = 0

    def __repr__(self) -> str:
        Result.reprs += 1
        return "Result()"


async def result() -> Result:
    return Result()


def test_the_result_is_returned_without_building_its_repr() -> None:
    """asyncio.run on 3.11 builds it twice on the way out (a run's summary: seconds for thousands of episodes)."""
    Result.reprs = 0
    assert isinstance(run(result()), Result)
    assert Result.reprs == 0


def test_an_exception_of_the_coroutine_propagates() -> None:
    async def fails() -> None:
        raise LookupError("from inside")

    with pytest.raises(LookupError, match="from inside"):
        run(fails())


def test_while_it_runs_the_heap_it_started_with_is_frozen_and_collections_are_rarer() -> None:
    before = gc.get_threshold()
    seen: list[tuple[tuple[int, ...], int]] = []

    async def look() -> None:
        seen.append((gc.get_threshold(), gc.get_freeze_count()))

    run(look())
    ((thresholds, frozen),) = seen
    assert thresholds == GC_THRESHOLDS and frozen > 0
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0  # the process's own settings come back


def test_the_settings_come_back_after_an_exception_too() -> None:
    before = gc.get_threshold()

    async def fails() -> None:
        raise LookupError("from inside")

    with pytest.raises(LookupError):
        run(fails())
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
