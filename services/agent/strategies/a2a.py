"""``a2a``: the agent under test is an A2A 1.0 agent; this service is its client (a2a-sdk).

The agent's URL is ``config.model.api_base`` and must be one the operator allowed as an agent
(``TAUMESH_ALLOWED_AGENT_URLS``; ``taumesh run`` allows its own ``--api-base``): no request chooses where this
service connects. Every interface its agent card names is checked against the same list before the client is made,
and only the allowed ones remain on the card: a card naming another host or port is never dialed there (a card
naming none allowed is refused). ``config.model.model`` picks the transport: ``jsonrpc``, ``grpc``, ``http+json``,
or anything else (``a2a``) for the first the allowed card offers. The card is read once per URL and transport and
kept. No HTTP redirect is followed, for the card or the exchange.

Whose failure: a reply that is neither words nor tool calls, or a task the agent failed, rejected or cancelled, is
the agent's (OUT_OF_RANGE: the episode ends and is scored); a network failure, timeout or unavailable agent is the
infrastructure's (UNAVAILABLE: retried); any other A2A error answers FAILED_PRECONDITION (a refused request).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import ClassVar

import grpc
import httpx
from a2a.client import (
    A2ACardResolver,
    A2AClientError,
    A2AClientTimeoutError,
    Client,
    ClientCallContext,
    ClientConfig,
    ClientFactory,
)
from a2a.types.a2a_pb2 import AgentCard, Part, SendMessageRequest, StreamResponse, TaskState
from a2a.utils.constants import TransportProtocol
from a2a.utils.errors import A2AError

from taumesh.domains import Catalog
from taumesh.llm.access import OperatorGrants, current_grants
from taumesh.rpc.errors import FailedPrecondition, InvalidArgument, OutOfRange, PermissionDenied, Unavailable, clip
from taumesh.services.agent.strategies.a2a_wire import Mark, UnparsableReply, context_id, outgoing, reply_message
from taumesh.services.agent.strategies.base import AgentReply, AgentTurn

TRANSPORTS: dict[str, list[str]] = {
    "jsonrpc": [TransportProtocol.JSONRPC],
    "grpc": [TransportProtocol.GRPC],
    "http+json": [TransportProtocol.HTTP_JSON],
    "rest": [TransportProtocol.HTTP_JSON],
}
"""``config.model.model`` values naming one transport; any other value takes what the card prefers."""
ANY_TRANSPORT: list[str] = [TransportProtocol.JSONRPC, TransportProtocol.GRPC, TransportProtocol.HTTP_JSON]
REPLY_TIMEOUT = 600.0
"""Seconds an A2A agent may take to answer one message."""
_FAILED_STATES = {TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_REJECTED, TaskState.TASK_STATE_CANCELED}
_OPEN_STATES = {TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED}
_TRANSIENT_GRPC = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.RESOURCE_EXHAUSTED}


class A2AAgent:
    """Plays each episode by talking to an A2A agent in one context per episode."""

    name = "a2a"
    calls_model: ClassVar[bool] = False
    """It calls an A2A agent, whose model is its own: ``config.model.model`` names only the transport."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._clients: dict[tuple[str, str], tuple[OperatorGrants, Client]] = {}
        """By URL and transport: the client, and the grants its card's interfaces were checked against."""
        self._lock = asyncio.Lock()

    async def next_message(self, turn: AgentTurn) -> AgentReply:
        url = turn.settings.model.api_base.strip()
        if not url:
            raise InvalidArgument(
                "agent strategy 'a2a' needs the A2A agent's URL in config.model.api_base (--api-base)",
                fields=[("config.model.api_base", "empty")],
            )
        current_grants().check_agent_url(url, "config.model.api_base")
        if not turn.episode.episode_id:
            raise InvalidArgument(
                "agent strategy 'a2a' needs episode.episode_id: the A2A context is derived from it",
                fields=[("episode.episode_id", "empty")],
            )
        context = context_id(turn.episode.episode_id)
        message, _ = outgoing(context, turn.conversation, turn.policy, turn.tools)
        key = (url, turn.settings.model.model.strip().lower())
        try:
            client = await self._client(key)
            parts, task_id, state = await _exchange(client, message)
        except Exception as exc:
            if not isinstance(exc, A2AError | httpx.HTTPError | grpc.RpcError | ValueError):
                raise
            self._clients.pop(key, None)  # the card may have changed: read it again next time
            raise _as_status(exc, url) from exc
        if state in _FAILED_STATES:
            what = TaskState.Name(state).removeprefix("TASK_STATE_").lower()
            raise OutOfRange(f"the A2A agent's task ended {what}", reason="A2A_TASK_" + what.upper())
        mark = Mark(a2a_context=context, a2a_task=task_id if state in _OPEN_STATES else "")
        used = sum(len(m.tool_calls) for m in turn.conversation if m.role == "assistant")
        try:
            reply = reply_message(parts, mark, used)
        except UnparsableReply as exc:
            raise OutOfRange(f"unparsable A2A reply: {exc}", reason="A2A_REPLY_UNPARSABLE") from exc
        return AgentReply(message=reply)

    async def _client(self, key: tuple[str, str]) -> Client:
        """The client of this URL and transport: its card read on first use, and again when the grants changed."""
        async with self._lock:
            grants = current_grants()  # the same object while the operator's lists are unchanged
            known = self._clients.get(key)
            if known is None or known[0] is not grants:
                url, transport = key
                http = httpx.AsyncClient(timeout=httpx.Timeout(REPLY_TIMEOUT, connect=10.0), follow_redirects=False)
                bindings = TRANSPORTS.get(transport, ANY_TRANSPORT)
                config = ClientConfig(
                    streaming=True,
                    httpx_client=http,
                    grpc_channel_factory=_channel,
                    supported_protocol_bindings=bindings,
                    use_client_preference=transport in TRANSPORTS,
                )
                card = await A2ACardResolver(http, url).get_agent_card()
                allowed_interfaces(card, url, grants, bindings)
                known = self._clients[key] = (grants, ClientFactory(config).create(card))
            return known[1]


def allowed_interfaces(card: AgentCard, url: str, grants: OperatorGrants, bindings: list[str]) -> None:
    """Keep on ``card`` only the interfaces the operator allowed; PERMISSION_DENIED when none offers ``bindings``.

    A card is the agent's own word: an allowed agent could otherwise send this service, with the policy, the tools
    and the conversation, to any host or port it names.
    """
    allowed, refused = [], []
    for interface in card.supported_interfaces:
        try:
            grants.check_agent_url(interface.url, "agent_card.supported_interfaces.url")
        except PermissionDenied:
            refused.append(f"{interface.protocol_binding} {clip(interface.url, 100)!r}")
        else:
            allowed.append(interface)
    if not any(interface.protocol_binding in bindings for interface in allowed):
        raise PermissionDenied(
            f"the agent card of {clip(url, 200)!r} names no {'/'.join(bindings)} interface this server's operator "
            f"allowed (not allowed: {', '.join(refused[:5]) or 'none'}); list the one to use in "
            "TAUMESH_ALLOWED_AGENT_URLS",
            reason="AGENT_URL_NOT_ALLOWED",
            fields=[("config.model.api_base", "its agent card names no allowed interface")],
        )
    del card.supported_interfaces[:]
    card.supported_interfaces.extend(allowed)


def _channel(target: str) -> grpc.aio.Channel:
    """A gRPC channel to an agent's ``host:port`` (or ``grpc://host:port``)."""
    return grpc.aio.insecure_channel(target.removeprefix("grpc://"))


async def _exchange(client: Client, message: object) -> tuple[list[Part], str, int]:
    """Send ``message``; the reply's parts, its task id (if any) and the task's last state."""
    request = SendMessageRequest(message=message)  # type: ignore[arg-type]
    parts: list[Part] = []
    artifact_parts: list[Part] = []
    task_id, state = "", TaskState.TASK_STATE_UNSPECIFIED
    context = ClientCallContext(timeout=REPLY_TIMEOUT)
    event: StreamResponse
    async for event in client.send_message(request, context=context):
        if event.HasField("message"):
            parts = list(event.message.parts)
        elif event.HasField("task"):
            task = event.task
            task_id, state = task.id, task.status.state
            if task.status.HasField("message"):
                parts = list(task.status.message.parts)
            artifact_parts = [p for artifact in task.artifacts for p in artifact.parts]
        elif event.HasField("status_update"):
            update = event.status_update
            task_id, state = update.task_id, update.status.state
            if update.status.HasField("message"):
                parts = list(update.status.message.parts)
        elif event.HasField("artifact_update"):
            artifact_parts.extend(event.artifact_update.artifact.parts)
    return parts or artifact_parts, task_id, state


def _causes(exc: BaseException) -> Iterator[BaseException]:
    seen: BaseException | None = exc
    while seen is not None:
        yield seen
        seen = seen.__cause__ or seen.__context__


def _as_status(exc: Exception, url: str) -> Exception:
    """A transport failure is UNAVAILABLE (retried); any other A2A error a refused request."""
    where = f"A2A agent {clip(url, 200)!r}"
    for cause in _causes(exc):
        transient_http = isinstance(cause, httpx.HTTPStatusError) and cause.response.status_code in {429, 502, 503, 504}
        transient_grpc = isinstance(cause, grpc.aio.AioRpcError) and cause.code() in _TRANSIENT_GRPC
        if isinstance(cause, httpx.TransportError | A2AClientTimeoutError) or transient_http or transient_grpc:
            return Unavailable(f"{where} unreachable: {clip(str(exc), 300)}", reason="A2A_AGENT_UNAVAILABLE")
    if isinstance(exc, A2AClientError) and "Network communication error" in str(exc):
        return Unavailable(f"{where} unreachable: {clip(str(exc), 300)}", reason="A2A_AGENT_UNAVAILABLE")
    return FailedPrecondition(f"{where} refused the exchange: {clip(str(exc), 300)}", reason="A2A_AGENT_ERROR")
