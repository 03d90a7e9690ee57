"""The services behind a Gym environment, run on an event loop of their own, and one episode at a time on them.

Gymnasium's API is synchronous; the services and the turn loop are asyncio and gRPC. The driver owns a thread
running an event loop, on which it starts the Gym caller's seat (:mod:`taumesh.orchestrator.gym.seats`) and the
other services (in-process on loopback, or remote ones by address), and plays each episode with the orchestrator's
own :func:`~taumesh.orchestrator.episode.turn_loop.run_episode`. Every public method blocks until the loop has answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Coroutine
from contextlib import AsyncExitStack
from functools import partial
from pathlib import Path
from typing import Any, Literal, TypeVar

from taumesh.audit import read_audit
from taumesh.env.v1 import env_pb2
from taumesh.llm.limiter import ProviderLimiters, ProviderStats
from taumesh.models import ChatMessage, TaskRef
from taumesh.orchestrator.clients import ServiceClients, list_tasks, with_retries
from taumesh.orchestrator.config import RunConfig, ServiceAddresses
from taumesh.orchestrator.domain_info import listing_request, release_of, resolve_domain
from taumesh.orchestrator.episode.grading import strict_exclusions
from taumesh.orchestrator.episode.turn_loop import EpisodeOutcome, run_episode
from taumesh.orchestrator.gym.seats import Seat, Turn, agent_seat_service, user_seat_service
from taumesh.orchestrator.provider_limits import provider_limits, shared_limiters
from taumesh.orchestrator.run.certified import split_digest
from taumesh.orchestrator.run.stack import serving_targets
from taumesh.rpc.server import start_server

T = TypeVar("T")
SeatRole = Literal["agent", "user"]

RPC_TIMEOUT = 60.0
"""Deadline of the driver's own listing calls, in seconds."""


class EpisodeDriver:
    """The services and the running episode of one Gym environment."""

    def __init__(self, role: SeatRole, addresses: ServiceAddresses, data_dir: Path) -> None:
        self.role, self.seat = role, Seat()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name=f"taumesh-gym-{role}", daemon=True)
        self.thread.start()
        self.clients: ServiceClients | None = None
        self.episode: asyncio.Task[EpisodeOutcome] | None = None
        self.limiters: ProviderLimiters | None = None
        """The provider limiters of every episode this driver plays (made by the first one with limits)."""
        self._exit = AsyncExitStack()
        try:
            self.call(self._open(addresses, data_dir))
        except BaseException:
            self.close()
            raise

    def call(self, work: Coroutine[Any, Any, T]) -> T:
        """Run ``work`` on the driver's loop and wait for its result (its exception is raised here)."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result()

    async def _open(self, addresses: ServiceAddresses, data_dir: Path) -> None:
        service = agent_seat_service(self.seat) if self.role == "agent" else user_seat_service(self.seat)
        server = await start_server([service])
        self._exit.push_async_callback(partial(server.stop, grace=1.0))
        addresses = addresses.model_copy(update={self.role: server.address})
        targets = await self._exit.enter_async_context(serving_targets(addresses, data_dir))
        targets = targets.model_copy(update={"embedded": targets.embedded | {self.role}})  # our loopback seat
        self.clients = targets.connect()
        self._exit.push_async_callback(self.clients.close)

    def _clients(self) -> ServiceClients:
        if self.clients is None:
            raise RuntimeError("the environment is closed")
        return self.clients

    async def domains(self, only: str | None = None) -> dict[str, list[str]]:
        """Every domain with data, and its splits (the first is the default).

        ``only``: describe that domain alone (every reset asks for its own; describing every domain costs the env a
        read of each one's tasks); the others are named with no splits.
        """
        request = listing_request(only) if only is not None else env_pb2.ListDomainsRequest()
        listed: env_pb2.ListDomainsResponse = await with_retries(
            partial(self._clients().env.ListDomains, request, timeout=RPC_TIMEOUT)
        )
        return {
            domain.name: [split.name for split in domain.splits]
            for domain in listed.domains
            if domain.splits or only is not None
        }

    async def tasks(self, domain: str, split: str) -> list[env_pb2.TaskSummary]:
        """The split's tasks, in order."""
        return await list_tasks(self._clients(), domain, split, RPC_TIMEOUT)

    async def certified(self, domain: str, split: str, tasks: list[env_pb2.TaskSummary]) -> set[str]:
        """The ids of the split's tasks the stored audit of the served data certifies (NoStoredAudit: none stored)."""
        listed: env_pb2.ListDomainsResponse = await with_retries(
            partial(self._clients().env.ListDomains, listing_request(domain), timeout=RPC_TIMEOUT)
        )
        return read_audit(domain, split, release_of(listed, domain) or None, split_digest(tasks)).unflagged()

    async def ungradable(self, config: RunConfig, tasks: list[env_pb2.TaskSummary]) -> dict[str, str]:
        """Under ``grader="strict"``: the split's tasks the scorer will not grade (their gold errors), with why."""
        return await strict_exclusions(self._clients(), config, tasks, range(len(tasks)))

    async def start(self, config: RunConfig, task: TaskRef) -> Turn | EpisodeOutcome:
        """Give up any episode in play, start one of ``task``: the seat's first turn, or the outcome."""
        await self.abandon()
        self.episode = asyncio.create_task(self._play(config, task))
        return await self._next()

    async def _play(self, config: RunConfig, task: TaskRef) -> EpisodeOutcome:
        """One episode, its model calls within the provider limits (the seat's own calls take no permit).

        What the configuration leaves unset (limits, seed) is the domain's own, as the env sends it.
        """
        config, _ = await resolve_domain(self._clients(), config)
        if not config.provider_limits:
            return await run_episode(self._clients(), config, task, trial=0)
        if self.limiters is None:
            self.limiters = ProviderLimiters(config.provider_limits, config.max_concurrency)
        with shared_limiters(self.limiters), provider_limits(config) as limits:
            limits.exempt(self.role)
            return await run_episode(self._clients(), config, task, trial=0)

    def provider_stats(self) -> list[ProviderStats]:
        """Each limited provider's calls in flight, window and 429s so far (none without limits)."""
        return self.limiters.stats() if self.limiters is not None else []

    async def answer(self, turn: Turn, message: ChatMessage) -> Turn | EpisodeOutcome:
        """Answer ``turn`` with ``message``: the seat's next turn, or the episode's outcome."""
        turn.answer.set_result(message)
        return await self._next()

    async def _next(self) -> Turn | EpisodeOutcome:
        assert self.episode is not None
        waiting = asyncio.ensure_future(self.seat.turns.get())
        await asyncio.wait({waiting, self.episode}, return_when=asyncio.FIRST_COMPLETED)
        if waiting.done():
            return waiting.result()
        waiting.cancel()
        episode, self.episode = self.episode, None
        return episode.result()  # the scored outcome, or the fault that ended the episode

    async def abandon(self) -> None:
        """Stop the episode in play, if any: its env session is closed, nothing is scored."""
        episode, self.episode = self.episode, None
        if episode is not None and not episode.done():
            episode.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):  # its fault no longer matters
                await episode
        self.seat.abandon()

    async def _shutdown(self) -> None:
        await self.abandon()
        await self._exit.aclose()
        self.clients = None

    def close(self) -> None:
        """Give up the episode in play, stop the embedded services and the loop. Idempotent."""
        if self.loop.is_closed():
            return
        if self.thread.is_alive():
            with contextlib.suppress(Exception):
                self.call(self._shutdown())
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join()
        self.loop.close()
