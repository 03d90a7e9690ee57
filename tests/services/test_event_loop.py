"""taumesh.rpc.loop.run: a gRPC server and its client answer on it, and it hands the result over without its repr."""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from taumesh.rpc.loop import run
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
