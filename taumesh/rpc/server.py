"""Building and running a grpc.aio server: health checking, reflection, channelz, TLS and token, graceful shutdown."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from grpc_channelz.v1 import channelz, channelz_pb2_grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio  # type: ignore[attr-defined]
from grpc_reflection.v1alpha import reflection

from taumesh.rpc.balancing import SERVER_KEEPALIVE_OPTIONS, connection_age_options
from taumesh.rpc.interceptors import DecodeRequests, RequireToken
from taumesh.rpc.security import ServerSecurity

log = logging.getLogger(__name__)

CHANNELZ_SERVICE = "grpc.channelz.v1.Channelz"
DRAIN_SECONDS = 2.0
"""How long a service told to stop says NOT_SERVING before it refuses new calls (its clients move meanwhile)."""
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""What a client sends and receives at most: conversations travel whole with every call."""
CONVERSATION_REQUEST_BYTES = 16 * 1024 * 1024
"""Largest request of a service that receives a whole conversation (agent, user simulator, scorer).

A conversation is bounded by the context window of the model that reads it: 2 M tokens at most today, under
8 MB of UTF-8 even at 4 bytes a token; twice that leaves room for tool schemas, the policy and protobuf framing.
"""
TOOL_CALL_REQUEST_BYTES = 4 * 1024 * 1024
"""Largest request of the env: one tool call, written by a model (its output is a small part of its context)."""

CHANNEL_OPTIONS: list[tuple[str, Any]] = [
    ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
]


@dataclass(frozen=True)
class Service:
    """A servicer and how to register it."""

    name: str
    """Full service name, for health checking and reflection (``taumesh.env.v1.EnvService``)."""
    register: Callable[[Any, grpc.aio.Server], None]
    servicer: Any
    background: Sequence[Callable[[], Coroutine[Any, Any, None]]] = ()
    """Tasks that run as long as the server does (the env's session reaper); cancelled on stop."""
    max_request_bytes: int = CONVERSATION_REQUEST_BYTES
    """Largest request accepted (``grpc.max_receive_message_length``): larger ones get RESOURCE_EXHAUSTED from
    gRPC before any of it is decoded. Sized to the service's largest legitimate message (see its proto)."""


@dataclass
class RunningServer:
    """A started server and the port it bound."""

    server: grpc.aio.Server
    port: int
    health: health_aio.HealthServicer
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def stop(self, grace: float = 5.0, drain: float = 0.0) -> None:
        """Mark every service NOT_SERVING, wait ``drain`` seconds, let calls in flight finish within ``grace``, stop.

        Clients that watch health (:mod:`taumesh.rpc.balancing`) send their next calls to other replicas as soon
        as they see NOT_SERVING; ``drain`` gives them that moment before new calls are refused.
        """
        await self.health.enter_graceful_shutdown()
        if drain > 0:
            await asyncio.sleep(min(drain, grace))
        await self.server.stop(grace)
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def server_options(services: Sequence[Service]) -> list[tuple[str, Any]]:
    """Message limits of a server: responses as large as a client takes, requests no larger than its services'."""
    cap = max((service.max_request_bytes for service in services), default=CONVERSATION_REQUEST_BYTES)
    return [("grpc.max_send_message_length", MAX_MESSAGE_BYTES), ("grpc.max_receive_message_length", cap)]


async def start_server(
    services: Sequence[Service],
    host: str = "127.0.0.1",
    port: int = 0,
    interceptors: Sequence[grpc.aio.ServerInterceptor[Any, Any]] = (),
    security: ServerSecurity | None = None,
    max_connection_age: float = 0.0,
) -> RunningServer:
    """Start serving ``services`` on ``host:port`` (port 0: any free port).

    Before ``interceptors`` run, a call is refused without the token (when ``security`` sets one) and its request
    is decoded (undecodable bytes: INVALID_ARGUMENT). With a certificate in ``security`` the port speaks TLS only.
    ``max_connection_age`` (seconds, 0: never) closes client connections that old, so clients see new replicas.
    """
    security = security or ServerSecurity()
    checks: list[grpc.aio.ServerInterceptor[Any, Any]] = [RequireToken(security.token)] if security.token else []
    options = [*server_options(services), *SERVER_KEEPALIVE_OPTIONS, *connection_age_options(max_connection_age)]
    server = grpc.aio.server(options=options, interceptors=[*checks, DecodeRequests(), *interceptors])
    health = health_aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    for service in services:
        service.register(service.servicer, server)
    names = [service.name for service in services]
    # per-server call counts, for operators and the replica tests
    channelz_pb2_grpc.add_ChannelzServicer_to_server(channelz.aio.ChannelzServicer(), server)  # type: ignore[attr-defined]
    reflection.enable_server_reflection(
        [*names, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, CHANNELZ_SERVICE, reflection.SERVICE_NAME],
        server,
    )
    credentials = security.credentials()
    address = f"{host}:{port}"
    bound = server.add_secure_port(address, credentials) if credentials else server.add_insecure_port(address)
    if bound == 0:
        raise OSError(f"could not bind {host}:{port}")
    await server.start()
    for name in [*names, ""]:
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    tasks = [asyncio.create_task(job(), name=job.__qualname__) for service in services for job in service.background]
    return RunningServer(server, bound, health, tasks)


async def serve_forever(
    services: Sequence[Service],
    host: str,
    port: int,
    grace: float = 10.0,
    interceptors: Sequence[grpc.aio.ServerInterceptor[Any, Any]] = (),
    security: ServerSecurity | None = None,
    max_connection_age: float = 0.0,
) -> None:
    """Run until SIGINT or SIGTERM, then shut down gracefully (``max_connection_age``: see :func:`start_server`)."""
    security = security or ServerSecurity()
    running = await start_server(services, host, port, interceptors, security, max_connection_age)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    mode = ("TLS" if security.uses_tls else "plaintext") + (", token required" if security.token else "")
    if security.tls_client_ca:
        mode += ", client certificates required"
    log.info("serving %s on %s:%d (%s)", ", ".join(s.name for s in services), host, running.port, mode)
    # stdout gets exactly "serving NAMES on HOST:PORT": scripts and tests read the address from its end
    print(f"serving {', '.join(s.name for s in services)} on {host}:{running.port}", flush=True)
    await stop.wait()
    log.info("draining, then shutting down (grace %.0fs)", grace)
    await running.stop(grace, drain=DRAIN_SECONDS)
