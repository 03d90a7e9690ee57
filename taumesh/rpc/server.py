"""Building and running a grpc.aio server: health checking, reflection, graceful shutdown."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio  # type: ignore[attr-defined]
from grpc_reflection.v1alpha import reflection

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""Conversations travel whole with every call; allow long ones."""

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


@dataclass
class RunningServer:
    """A started server and the port it bound."""

    server: grpc.aio.Server
    port: int
    health: health_aio.HealthServicer

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def stop(self, grace: float = 5.0) -> None:
        """Mark every service NOT_SERVING, let calls in flight finish within ``grace``, then stop."""
        await self.health.enter_graceful_shutdown()
        await self.server.stop(grace)


async def start_server(
    services: Sequence[Service],
    host: str = "127.0.0.1",
    port: int = 0,
    interceptors: Sequence[grpc.aio.ServerInterceptor[Any, Any]] = (),
) -> RunningServer:
    """Start serving ``services`` on ``host:port`` (port 0: any free port)."""
    server = grpc.aio.server(options=CHANNEL_OPTIONS, interceptors=list(interceptors))
    health = health_aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    for service in services:
        service.register(service.servicer, server)
    names = [service.name for service in services]
    reflection.enable_server_reflection(
        [*names, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME], server
    )
    bound = server.add_insecure_port(f"{host}:{port}")
    if bound == 0:
        raise OSError(f"could not bind {host}:{port}")
    await server.start()
    for name in [*names, ""]:
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    return RunningServer(server, bound, health)


async def serve_forever(
    services: Sequence[Service],
    host: str,
    port: int,
    grace: float = 10.0,
    interceptors: Sequence[grpc.aio.ServerInterceptor[Any, Any]] = (),
) -> None:
    """Run until SIGINT or SIGTERM, then shut down gracefully."""
    running = await start_server(services, host, port, interceptors)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    log.info("serving %s on %s:%d", ", ".join(s.name for s in services), host, running.port)
    print(f"serving {', '.join(s.name for s in services)} on {host}:{running.port}", flush=True)
    await stop.wait()
    log.info("shutting down (grace %.0fs)", grace)
    await running.stop(grace)
