"""An episode's env session: one replica by affinity, every tool call logged, rebuilt by replay when lost.

Every env call carries the episode id as affinity metadata, so it reaches the replica that holds the session
(:mod:`taumesh.rpc.balancing`). When that replica is gone (the env answers ``SESSION_NOT_FOUND``), the session is
rebuilt on another one by replaying the episode's tool calls (:meth:`EpisodeSession.rebuild`): tools are
deterministic, so the same calls give the same state, which the replay checks call by call. A session the env
reaped for being idle answers the same way and is rebuilt the same way.

OpenSession names the run (``run_id``). An env with a per-run cap refuses a session past it (``RUN_SESSION_LIMIT``):
the episode then waits for one of the run's own sessions to close and asks again; when the run holds none open
here, the refusal stands, and the runner counts it as an infrastructure fault (the episode is replayed, then
recorded as an error, never as a reward).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TypeVar

import grpc

from taumesh.common.v1 import common_pb2
from taumesh.convert import task_ref_to_proto
from taumesh.env.v1 import env_pb2
from taumesh.models import TaskRef
from taumesh.orchestrator.clients import RETRIED_HERE, ServiceClients, sent_by_a_service, with_retries
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.episode import open_sessions
from taumesh.rpc.balancing import AFFINITY_HEADER
from taumesh.rpc.errors import error_details, error_reason

log = logging.getLogger(__name__)
T = TypeVar("T")

RUN_SESSION_LIMIT = "RUN_SESSION_LIMIT"
"""The env's reason for an OpenSession refused under its per-run cap (taumesh.services.env.sessions)."""


class EpisodeSession:
    """The env session of one episode, whichever replica holds it now.

    ``opened`` is the env's answer to the current session's OpenSession (policy, tools, user's instruction, …); a
    rebuild replaces it with the new session's, identical but for the session id.
    """

    def __init__(self, clients: ServiceClients, config: RunConfig, task: TaskRef, episode_id: str, name: str) -> None:
        self.clients, self.config, self.task, self.episode_id, self.name = clients, config, task, episode_id, name
        self.affinity = ((AFFINITY_HEADER, episode_id),)
        """The metadata of every env call: one episode, one replica."""
        self.opened = env_pb2.OpenSessionResponse()  # filled by open()
        self.tool_log: list[tuple[common_pb2.ToolCall, env_pb2.CallToolResponse]] = []
        """Every tool call the session ran, with its answer: what a rebuilt session replays and must match."""
        self.rebuilds = 0
        self.closed = False  # the env closed the session when it reported the final state

    @property
    def session_id(self) -> str:
        return self.opened.session_id

    async def _open(self) -> env_pb2.OpenSessionResponse:
        """A new env session, recorded among the run's open sessions (closed for it if the run is stopped).

        Refused under the env's per-run cap, it waits for one of the run's sessions to close, then asks again.
        """
        request = env_pb2.OpenSessionRequest(task=task_ref_to_proto(self.task), run_id=open_sessions.run_id())
        while True:
            call = with_retries(
                partial(self.clients.env.OpenSession, request, timeout=self.config.rpc_timeout, metadata=self.affinity),
                retry=_retry_open,
            )
            try:
                return await open_sessions.opening(call, self.affinity)
            except grpc.aio.AioRpcError as exc:
                details = error_details(exc)
                if details.get("reason") != RUN_SESSION_LIMIT:
                    raise
                if not await open_sessions.wait_for_a_close(max(details.get("retry_after", 1.0), 0.1)):
                    raise

    async def open(self) -> env_pb2.OpenSessionResponse:
        """A fresh env session for the task."""
        self.opened = await self._open()
        return self.opened

    async def call_tool(self, tool_call: common_pb2.ToolCall, request_id: str) -> env_pb2.CallToolResponse:
        """Run one tool call (a retry with the same ``request_id`` runs it once) and log it for a rebuild."""

        async def call(session_id: str) -> env_pb2.CallToolResponse:
            request = env_pb2.CallToolRequest(session_id=session_id, tool_call=tool_call, request_id=request_id)
            answer: env_pb2.CallToolResponse = await with_retries(
                partial(self.clients.env.CallTool, request, timeout=self.config.rpc_timeout, metadata=self.affinity)
            )
            return answer

        answer = await self.in_session(call)
        self.ran(tool_call, answer)
        return answer

    def ran(self, tool_call: common_pb2.ToolCall, answer: env_pb2.CallToolResponse) -> None:
        """Log a tool call the session ran by another way (the agent's calls over MCP)."""
        self.tool_log.append((tool_call, answer))

    async def final_state(self) -> env_pb2.GetFinalStateResponse:
        """The session's final state; the env closes the session as it answers."""

        async def call(session_id: str) -> env_pb2.GetFinalStateResponse:
            answer: env_pb2.GetFinalStateResponse = await with_retries(
                partial(
                    self.clients.env.GetFinalState,
                    env_pb2.GetFinalStateRequest(session_id=session_id, close_session=True),
                    timeout=self.config.rpc_timeout,
                    metadata=self.affinity,
                )
            )
            self.closed = True  # the env closed it: no CloseSession call
            open_sessions.closed(session_id)
            return answer

        return await self.in_session(call)

    async def in_session(self, call: Callable[[str], Awaitable[T]]) -> T:
        """``call(session_id)``; if the env lost the session (its replica died or drained), rebuild it, call again."""
        try:
            return await call(self.session_id)
        except grpc.aio.AioRpcError as exc:
            if exc.code() != grpc.StatusCode.NOT_FOUND or error_reason(exc) != "SESSION_NOT_FOUND":
                raise
            await self.rebuild(exc)
        return await call(self.session_id)

    async def rebuild(self, lost: grpc.aio.AioRpcError) -> None:
        """Open a new session for the task and replay every tool call the lost one ran, checking each answer.

        Raises ``lost`` (the episode is then replayed whole) when the new session starts elsewhere or any replayed
        call answers differently: the rebuilt state would not be the one the agent and user acted on.
        """
        opened = await self._open()
        if opened.initial_data_hash != self.opened.initial_data_hash:
            log.warning("%s: the new env session starts from other data; replaying the episode", self.name)
            raise lost
        self.rebuilds += 1
        for number, (tool_call, expected) in enumerate(self.tool_log, 1):
            request = env_pb2.CallToolRequest(
                session_id=opened.session_id,
                tool_call=tool_call,
                request_id=f"{self.episode_id}:rebuild{self.rebuilds}:{number}",
            )
            answer: env_pb2.CallToolResponse = await with_retries(
                partial(self.clients.env.CallTool, request, timeout=self.config.rpc_timeout, metadata=self.affinity)
            )
            if answer != expected:
                log.warning(
                    "%s: replayed tool call %d (%s) answered differently; replaying the episode",
                    self.name,
                    number,
                    tool_call.name,
                )
                raise lost
        self.opened = opened
        log.warning(
            "%s: env session lost (%s); rebuilt on a new session by replaying %d tool calls",
            self.name,
            lost.details(),
            len(self.tool_log),
        )

    async def close(self) -> None:
        """Close the session unless the env already did; a failure here loses nothing (the session expires)."""
        if self.closed or not self.session_id:
            return
        timeout = self.config.rpc_timeout
        current = asyncio.current_task()
        if current is not None and current.cancelling():  # the run is stopping: it exits within a bound
            timeout = min(timeout, open_sessions.CLOSE_SESSIONS_S)
        with contextlib.suppress(grpc.aio.AioRpcError):
            await self.clients.env.CloseSession(
                env_pb2.CloseSessionRequest(session_id=self.session_id), timeout=timeout, metadata=self.affinity
            )
            open_sessions.closed(self.session_id)


def _retry_open(exc: BaseException) -> bool:
    """What :func:`with_retries` tries again of an OpenSession: as of any call, but a per-run refusal.

    That one is waited out in :meth:`EpisodeSession._open`, until one of the run's own sessions closes.
    """
    if not isinstance(exc, grpc.aio.AioRpcError) or error_reason(exc) == RUN_SESSION_LIMIT:
        return False
    return exc.code() in RETRIED_HERE or (exc.code() == grpc.StatusCode.UNAVAILABLE and sent_by_a_service(exc))
