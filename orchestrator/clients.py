"""Typed clients of the four services, with deadlines and retries on infrastructure faults.

Each service is one target that may resolve to several replicas; :mod:`taumesh.rpc.balancing` says how calls
spread over them and how gRPC itself retries UNAVAILABLE. What gRPC's retry policy cannot do is left to
:func:`with_retries`: a deadline that ran out (a new call gets a new deadline), RESOURCE_EXHAUSTED (a full
env, whose RetryInfo asks the client to come back later) and an UNAVAILABLE a service sent itself.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

import grpc
from pydantic import ValidationError
from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter
from tenacity.wait import WaitBaseT

from taumesh.agent.v1 import agent_pb2_grpc
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.orchestrator.provider_limits import interceptors_for
from taumesh.rpc.balancing import client_options
from taumesh.rpc.errors import error_reason
from taumesh.rpc.security import ClientSecurity, SecurityError
from taumesh.rpc.server import CHANNEL_OPTIONS
from taumesh.scorer.v1 import scorer_pb2, scorer_pb2_grpc
from taumesh.telemetry import ServiceTelemetry
from taumesh.telemetry import current as current_telemetry
from taumesh.user_sim.v1 import user_sim_pb2, user_sim_pb2_grpc

T = TypeVar("T")

RETRYABLE = frozenset(
    {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.RESOURCE_EXHAUSTED}
)
"""Status codes that say the infrastructure, not the request, failed: worth another try."""

RETRIED_HERE = frozenset({grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.RESOURCE_EXHAUSTED})
"""The ones :func:`with_retries` tries again; UNAVAILABLE the channel could not reach a service with has been
retried by the channel already."""


def sent_by_a_service(exc: grpc.aio.AioRpcError) -> bool:
    """Whether a service answered with this status (taumesh's carry an ``ErrorInfo``), rather than the channel.

    gRPC's retry policy retries only answers sent before the call committed. A taumesh service sends its status
    after its handler returned (``taumesh.rpc.errors.send_status``: raising grpc.aio's abort would keep the request
    alive in a reference cycle), which commits the call, so a service's UNAVAILABLE (its model or judge is down)
    is retried here instead.
    """
    return bool(error_reason(exc))


def is_infrastructure_fault(exc: BaseException) -> bool:
    """True for an RPC failure that a retry may cure."""
    return isinstance(exc, grpc.aio.AioRpcError) and exc.code() in RETRYABLE


def _retried_here(exc: BaseException) -> bool:
    if not isinstance(exc, grpc.aio.AioRpcError):
        return False
    return exc.code() in RETRIED_HERE or (exc.code() == grpc.StatusCode.UNAVAILABLE and sent_by_a_service(exc))


RPC_RETRY_WAIT = wait_exponential_jitter(multiplier=0.2, max=5.0, jitter=0.2)
"""Wait before trying an RPC again: 0.2-0.4 s, then 0.4-0.6 s, … at most 5.2 s."""


async def with_retries(
    call: Callable[[], Awaitable[T]],
    attempts: int = 4,
    *,
    retry: Callable[[BaseException], bool] = _retried_here,
    wait: WaitBaseT = RPC_RETRY_WAIT,
) -> T:
    """Run ``call``; while it raises what ``retry`` accepts, wait (exponential backoff with jitter) and run it again.

    By default it retries a run-out deadline, RESOURCE_EXHAUSTED or a service's own UNAVAILABLE, for idempotent
    calls only (CallTool is made idempotent by its request id). The first try is a plain call: tenacity's
    bookkeeping (about 25 µs, more per episode than the episode's own logic at 1,000 in flight) is paid only once a
    try has failed in a way worth retrying.
    """
    try:
        return await call()
    except Exception as exc:
        if attempts <= 1 or not retry(exc):
            raise
        first_failure: list[BaseException] = [exc]

    async def again() -> T:  # the first try, already made and failed, then new ones
        if first_failure:
            raise first_failure.pop()
        return await call()

    async for attempt in AsyncRetrying(
        retry=retry_if_exception(retry), stop=stop_after_attempt(attempts), wait=wait, reraise=True
    ):
        with attempt:
            return await again()
    raise AssertionError("unreachable")


async def list_tasks(clients: ServiceClients, domain: str, split: str, timeout: float) -> list[env_pb2.TaskSummary]:
    """Every task of a split, page by page, in the split's order."""
    tasks: list[env_pb2.TaskSummary] = []
    token = ""
    while True:
        request = env_pb2.ListTasksRequest(domain=domain, split=split, page_size=1000, page_token=token)
        page: env_pb2.ListTasksResponse = await with_retries(partial(clients.env.ListTasks, request, timeout=timeout))
        tasks += page.tasks
        token = page.next_page_token
        if not token:
            return tasks


def client_security() -> ClientSecurity:
    """TLS and token settings for channels to remote services, from ``TAUMESH_TLS_*`` and ``TAUMESH_TOKEN*``.

    Raises :class:`SecurityError` with one line naming the problem.
    """
    try:
        return ClientSecurity()
    except ValidationError as exc:
        raise SecurityError("; ".join(error["msg"].removeprefix("Value error, ") for error in exc.errors())) from exc


def remote_channel(address: str, interceptors: Sequence[grpc.aio.ClientInterceptor] = ()) -> grpc.aio.Channel:
    """A channel to a service this process did not start, with TLS and token as :func:`client_security` says."""
    return client_security().channel(address, CHANNEL_OPTIONS, interceptors)


CONNECT_TIMEOUT_ENV = "TAUMESH_CONNECT_TIMEOUT"
"""Environment variable: seconds a run waits for each remote service to accept a connection before it starts."""
DEFAULT_CONNECT_TIMEOUT = 10.0


def connect_timeout() -> float:
    """:data:`CONNECT_TIMEOUT_ENV`, or the default when unset or not a positive number."""
    try:
        value = float(os.environ.get(CONNECT_TIMEOUT_ENV, ""))
    except ValueError:
        return DEFAULT_CONNECT_TIMEOUT
    return value if value > 0 else DEFAULT_CONNECT_TIMEOUT


async def unreachable_services(targets: Mapping[str, str], timeout: float) -> list[str]:
    """The names of ``targets`` (name → remote address) whose channel is not ready within ``timeout`` seconds.

    Dialled as every call will be (TLS and token from the environment), all at once; nothing is called.
    """

    async def ready(address: str) -> bool:
        channel = remote_channel(address)
        try:
            await asyncio.wait_for(channel.channel_ready(), timeout)
            return True
        except TimeoutError:
            return False
        finally:
            await channel.close(grace=None)

    names = list(targets)
    answers = await asyncio.gather(*(ready(targets[name]) for name in names))
    return [name for name, answered in zip(names, answers, strict=True) if not answered]


_BALANCING = {
    "env": client_options(env_pb2.DESCRIPTOR.services_by_name["EnvService"].full_name, sticky=True),
    "user": client_options(user_sim_pb2.DESCRIPTOR.services_by_name["UserSimService"].full_name, attempts=2),
    "agent": client_options(None, attempts=2),  # an external agent need not serve health for its service name
    "scorer": client_options(scorer_pb2.DESCRIPTOR.services_by_name["ScorerService"].full_name),
}
"""Channel options per service: the env's calls stick to the replica holding the episode's session; the others
are spread call by call. Agent and user-sim calls wait for a model that those services retry themselves."""


@dataclass
class ServiceClients:
    """One channel and stub per service."""

    env: env_pb2_grpc.EnvServiceAsyncStub
    user: user_sim_pb2_grpc.UserSimServiceAsyncStub
    agent: agent_pb2_grpc.AgentServiceAsyncStub
    scorer: scorer_pb2_grpc.ScorerServiceAsyncStub
    channels: list[grpc.aio.Channel]

    @classmethod
    def connect(
        cls,
        env: str,
        user: str,
        agent: str,
        scorer: str,
        *,
        embedded: Collection[str] = (),
        telemetry: ServiceTelemetry | None = None,
    ) -> ServiceClients:
        """Open channels to the four addresses (host:port), traced when telemetry is on.

        The services named in ``embedded`` run in this process on loopback and are dialled in plaintext; the
        others with the TLS and token the environment configures (:func:`remote_channel`). Client spans are
        ``telemetry``'s (default: the process's primary service, the orchestrator of ``taumesh run``).
        """
        interceptors = (telemetry or current_telemetry().primary).client_interceptors()
        security = client_security()
        channels: dict[str, grpc.aio.Channel] = {}
        for name, address in (("env", env), ("user", user), ("agent", agent), ("scorer", scorer)):
            options = [*CHANNEL_OPTIONS, *_BALANCING[name]]
            chain = [*interceptors_for(name), *interceptors]  # a permit per attempt, each attempt its own span
            channels[name] = (
                grpc.aio.insecure_channel(address, options=options, interceptors=chain or None)
                if name in embedded
                else security.channel(address, options, chain)
            )
        return cls(
            env=env_pb2_grpc.EnvServiceStub(channels["env"]),
            user=user_sim_pb2_grpc.UserSimServiceStub(channels["user"]),
            agent=agent_pb2_grpc.AgentServiceStub(channels["agent"]),
            scorer=scorer_pb2_grpc.ScorerServiceStub(channels["scorer"]),
            channels=list(channels.values()),
        )

    async def close(self) -> None:
        """Close every channel."""
        for channel in self.channels:
            await channel.close(grace=None)
