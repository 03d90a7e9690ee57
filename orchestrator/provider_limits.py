"""``--provider-limit``: the run's model calls in flight, per provider, granted by the orchestrator.

The agent, user-sim and scorer services are stateless and may run as several processes or replicas, so a
semaphore in them would limit each process, not the run. The orchestrator decides when each of their calls
starts, and each such call makes at most one model call at a time; so the orchestrator holds one permit of the
side's provider (:class:`~taumesh.llm.limiter.ProviderLimiter`) for the length of each call: the agent's and the
user's models for theirs, the judge model's (``--judge-model``) for every ScoreEpisode of a run that has one (the
client cannot tell which episodes have NL assertions to judge; one without any holds its permit for milliseconds).
The calls carry :data:`~taumesh.llm.retry.RATE_LIMITS_METADATA`: a service answers a provider's 429 at once
(UNAVAILABLE, ``MODEL_RATE_LIMITED``, the Retry-After in RetryInfo) instead of retrying it, so the limiter learns of
every 429 as it happens, may narrow its window, holds new calls back for the Retry-After, and the call is made again
with a new permit (up to :data:`RATE_LIMIT_ATTEMPTS` times).

The limits apply to the RPCs of :class:`~taumesh.orchestrator.clients.ServiceClients` made within
:func:`provider_limits` (a context variable, so concurrent runs in one process keep theirs apart). The
workers of a run (``--workers N``, or pods joining its store) lease the caps' call slots from the work store
instead (:mod:`~taumesh.orchestrator.scale.permit_shares`), so the run's total never passes a cap whichever machine a
worker runs on.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, cast

import grpc

from taumesh.agent.v1 import agent_pb2
from taumesh.llm.limiter import ProviderLimiter, ProviderLimiters, ProviderStats, provider_of
from taumesh.llm.retry import RATE_LIMITS_METADATA
from taumesh.llm.status import RATE_LIMITED_REASON
from taumesh.models import AgentSettings, ModelSettings, UserSettings
from taumesh.orchestrator.config import RunConfig
from taumesh.rpc.errors import error_details
from taumesh.scorer.v1 import scorer_pb2
from taumesh.services.agent.strategies import calls_model as agent_calls_model
from taumesh.services.user_sim.strategies import calls_model as user_calls_model
from taumesh.user_sim.v1 import user_sim_pb2

RATE_LIMIT_ATTEMPTS = 30
"""Calls a limited RPC gets when the provider keeps answering 429 (each after the limiter's pause)."""

_AGENT = agent_pb2.DESCRIPTOR.services_by_name["AgentService"].full_name
_USER = user_sim_pb2.DESCRIPTOR.services_by_name["UserSimService"].full_name
_SCORER = scorer_pb2.DESCRIPTOR.services_by_name["ScorerService"].full_name
AGENT_METHODS = (f"/{_AGENT}/NextMessage",)
USER_METHODS = (f"/{_USER}/StartConversation", f"/{_USER}/Reply")
JUDGE_METHODS = (f"/{_SCORER}/ScoreEpisode", f"/{_SCORER}/AnalyzeFaults")
"""Calls that may ask the judge model: ScoreEpisode (τ²'s NL assertions: the client cannot tell which episodes have
any), and AnalyzeFaults (``taumesh analyze``: one episode a call, its model calls one at a time)."""
SERVICE_METHODS = {"agent": AGENT_METHODS, "user": USER_METHODS, "scorer": JUDGE_METHODS}
"""The limited calls of each service whose channel takes the provider-limit interceptor."""


class RunLimits:
    """Which RPC methods take a permit of which provider's limiter, in one run (or one worker of it)."""

    def __init__(self, config: RunConfig, ceiling: int, shared: ProviderLimiters | None = None) -> None:
        self.limiters = shared if shared is not None else ProviderLimiters(config.provider_limits, ceiling)
        self.by_method: dict[str, ProviderLimiter] = {}
        if agent_calls_model(config.agent.strategy) and config.agent.model.model:
            agent = self.limiters.get(provider_of(config.agent.model))
            self.by_method.update(dict.fromkeys(AGENT_METHODS, agent))
        if user_calls_model(config.user.strategy) and config.user.model.model:
            user = self.limiters.get(provider_of(config.user.model))
            self.by_method.update(dict.fromkeys(USER_METHODS, user))
        if config.judge.model:
            judge = self.limiters.get(provider_of(config.judge))
            self.by_method.update(dict.fromkeys(JUDGE_METHODS, judge))

    def exempt(self, service: str) -> None:
        """Take no permit for ``service``'s calls: a Gym caller's seat, which calls no model of the run's."""
        for method in SERVICE_METHODS.get(service, ()):
            self.by_method.pop(method, None)

    def stats(self) -> list[ProviderStats]:
        """Each provider's calls in flight, window and 429s so far."""
        return self.limiters.stats()


_CURRENT: contextvars.ContextVar[RunLimits | None] = contextvars.ContextVar("taumesh_run_limits", default=None)


def current_limits() -> RunLimits | None:
    """The limits of the run this task belongs to, if any."""
    return _CURRENT.get()


_SHARED: contextvars.ContextVar[ProviderLimiters | None] = contextvars.ContextVar(
    "taumesh_shared_limiters", default=None
)


@contextmanager
def shared_limiters(limiters: ProviderLimiters) -> Iterator[None]:
    """Runs within the block hold ``limiters`` instead of their own: an API server's caps over all it plays."""
    token = _SHARED.set(limiters)
    try:
        yield
    finally:
        _SHARED.reset(token)


@contextmanager
def provider_limits(config: RunConfig, ceiling: int | None = None) -> Iterator[RunLimits]:
    """Limit the model calls of the RPCs made within the block.

    ``ceiling``: the most calls ever in flight (default ``config.max_concurrency``), a provider's window with no cap.
    Within :func:`shared_limiters` the run holds those instead of limiters of its own.
    """
    limits = RunLimits(config, ceiling or config.max_concurrency, _SHARED.get())
    token = _CURRENT.set(limits)
    try:
        yield limits
    finally:
        _CURRENT.reset(token)


@contextmanager
def judge_limits(judge: ModelSettings, caps: Mapping[str, int], ceiling: int) -> Iterator[RunLimits]:
    """:func:`provider_limits` for a command whose only model is ``judge`` (``taumesh analyze``, ``rescore``)."""
    only_judge = RunConfig(
        agent=AgentSettings(strategy="oracle"),
        user=UserSettings(strategy="scripted"),
        judge=judge,
        provider_limits=dict(caps),
        max_concurrency=max(1, ceiling),
    )
    with provider_limits(only_judge) as limits:
        yield limits


class ProviderLimitInterceptor(grpc.aio.UnaryUnaryClientInterceptor):  # type: ignore[type-arg]  # generic in stubs
    """Holds a permit of the side's provider around each agent, user-sim and judged scorer call of a limited run."""

    async def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        limits = _CURRENT.get()
        method = details.method.decode() if isinstance(details.method, bytes) else str(details.method)
        limiter = limits.by_method.get(method) if limits is not None else None
        if limiter is None:
            return await continuation(details, request)
        details = details._replace(metadata=grpc.aio.Metadata(*(details.metadata or ()), RATE_LIMITS_METADATA))
        for attempt in range(1, RATE_LIMIT_ATTEMPTS + 1):
            permit = await limiter.acquire()
            try:
                call = await continuation(details, request)
            except BaseException:
                limiter.abandon(permit)
                raise
            try:
                await call
            except grpc.aio.AioRpcError as exc:
                found = error_details(exc)
                if found.get("reason") != RATE_LIMITED_REASON:
                    limiter.abandon(permit)
                    return call  # the caller sees the error when it awaits the call
                limiter.release(permit, rate_limited=True, retry_after=found.get("retry_after"))
                if attempt == RATE_LIMIT_ATTEMPTS:
                    return call
                continue
            except BaseException:
                limiter.abandon(permit)
                raise
            limiter.release(permit)
            return call
        raise AssertionError("unreachable: the last attempt returns")


def interceptors_for(service: str) -> list[grpc.aio.ClientInterceptor]:
    """The interceptors the channel to ``service`` (``agent``, ``user``, ``scorer``, …) takes for provider limits."""
    if service not in SERVICE_METHODS:
        return []
    return [cast(grpc.aio.ClientInterceptor, ProviderLimitInterceptor())]  # grpc-stubs: a partial stub
