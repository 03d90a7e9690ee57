"""taumesh.rpc.loop.run: a gRPC server and its client on uvloop, and asyncio's own loop when uvloop is missing."""

from __future__ import annotations

import asyncio
import sys

import grpc
import pytest
import uvloop
from grpc_health.v1 import health_pb2, health_pb2_grpc

from taumesh.rpc.loop import run
from taumesh.rpc.server import start_server


async def round_trip() -> tuple[type[asyncio.AbstractEventLoop], int]:
    """A health check through a real server started on the running loop: (the loop's type, the status)."""
    running = await start_server([])
    try:
        async with grpc.aio.insecure_channel(running.address) as channel:
            answer = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
    finally:
        await running.stop(grace=0)
    return type(asyncio.get_running_loop()), answer.status


def test_server_and_client_answer_on_uvloop() -> None:
    assert run(round_trip()) == (uvloop.Loop, health_pb2.HealthCheckResponse.SERVING)


def test_without_uvloop_asyncio_runs_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop now raises ImportError
    loop_type, status = run(round_trip())
    assert not issubclass(loop_type, uvloop.Loop) and issubclass(loop_type, asyncio.BaseEventLoop)
    assert status == health_pb2.HealthCheckResponse.SERVING


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
