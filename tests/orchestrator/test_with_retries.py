"""with_retries over a real gRPC server: which failures are tried again, and how many times in all."""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import partial
from typing import Any

import grpc
import pytest
from tenacity import wait_exponential_jitter

from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.orchestrator.clients import with_retries
from taumesh.rpc.server import Service, start_server


class FailingEnv(env_pb2_grpc.EnvServiceServicer):
    """ListTasks fails with ``code`` on its first ``failures`` calls, then answers; counts the calls it got."""

    def __init__(self) -> None:
        self.code = grpc.StatusCode.RESOURCE_EXHAUSTED
        self.failures = 0
        self.calls = 0

    async def ListTasks(
        self, request: env_pb2.ListTasksRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> env_pb2.ListTasksResponse:
        self.calls += 1
        if self.calls <= self.failures:
            await context.abort(self.code, f"failure {self.calls}")
        return env_pb2.ListTasksResponse(next_page_token=f"answered at call {self.calls}")


@pytest.fixture
async def env() -> AsyncIterator[tuple[FailingEnv, env_pb2_grpc.EnvServiceAsyncStub]]:
    servicer = FailingEnv()  # type: ignore[abstract]  # serves ListTasks only
    name = env_pb2.DESCRIPTOR.services_by_name["EnvService"].full_name
    server = await start_server([Service(name, env_pb2_grpc.add_EnvServiceServicer_to_server, servicer)])
    channel = grpc.aio.insecure_channel(server.address)
    try:
        yield servicer, env_pb2_grpc.EnvServiceStub(channel)
    finally:
        await channel.close(grace=None)
        await server.stop(grace=0)


FAST_WAIT = wait_exponential_jitter(multiplier=0.01, max=0.05, jitter=0.01)
"""The backoff between tries, shortened: which failures are tried again, and how often, does not depend on it."""


async def list_tasks(stub: env_pb2_grpc.EnvServiceAsyncStub, attempts: int = 4) -> str:
    call = partial(stub.ListTasks, env_pb2.ListTasksRequest(domain="retail"), timeout=10)
    answer: env_pb2.ListTasksResponse = await with_retries(call, attempts, wait=FAST_WAIT)
    return answer.next_page_token


async def test_a_call_that_succeeds_is_made_once(env: tuple[FailingEnv, Any]) -> None:
    servicer, stub = env
    assert await list_tasks(stub) == "answered at call 1"
    assert servicer.calls == 1


@pytest.mark.parametrize("code", [grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.DEADLINE_EXCEEDED])
async def test_retryable_failures_are_tried_again_until_an_answer(
    env: tuple[FailingEnv, Any], code: grpc.StatusCode
) -> None:
    servicer, stub = env
    servicer.code, servicer.failures = code, 3
    assert await list_tasks(stub) == "answered at call 4"


async def test_after_all_attempts_the_last_failure_is_raised(env: tuple[FailingEnv, Any]) -> None:
    servicer, stub = env
    servicer.failures = 10
    with pytest.raises(grpc.aio.AioRpcError) as raised:
        await list_tasks(stub, attempts=3)
    assert (raised.value.code(), raised.value.details()) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "failure 3")
    assert servicer.calls == 3


async def test_one_attempt_means_no_retry(env: tuple[FailingEnv, Any]) -> None:
    servicer, stub = env
    servicer.failures = 1
    with pytest.raises(grpc.aio.AioRpcError):
        await list_tasks(stub, attempts=1)
    assert servicer.calls == 1


async def test_a_failure_of_the_request_is_not_retried(env: tuple[FailingEnv, Any]) -> None:
    servicer, stub = env
    servicer.code, servicer.failures = grpc.StatusCode.INVALID_ARGUMENT, 1
    with pytest.raises(grpc.aio.AioRpcError) as raised:
        await list_tasks(stub)
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert servicer.calls == 1
