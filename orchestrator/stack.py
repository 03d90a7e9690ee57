"""The services a run talks to: remote ones by address, the rest started in-process on loopback.

Even in-process, every call goes over real gRPC, so the embedded default exercises the same wire
path as a deployment.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from taumesh.domains import Catalog
from taumesh.orchestrator.clients import ServiceClients
from taumesh.orchestrator.config import ServiceAddresses
from taumesh.rpc.server import RunningServer, Service, start_server
from taumesh.services.agent import agent_service
from taumesh.services.env import env_service
from taumesh.services.scorer import scorer_service
from taumesh.services.user_sim import user_sim_service
from taumesh.telemetry import current as current_telemetry

TELEMETRY_KEYS = {"env": "env", "user": "user-sim", "agent": "agent", "scorer": "scorer"}
"""Stack name → telemetry service key (each in-process service reports its own ``service.name``)."""


@asynccontextmanager
async def service_stack(addresses: ServiceAddresses, data_dir: Path) -> AsyncIterator[ServiceClients]:
    """Clients for the four services, starting each one that has no address on 127.0.0.1.

    Remote services are dialled with the TLS and token of ``TAUMESH_TLS_*``/``TAUMESH_TOKEN*``; the in-process
    ones, on loopback, in plaintext.
    """
    catalog = Catalog(data_dir)  # one shared copy of the base data for all in-process services
    builders: dict[str, Callable[[], Service]] = {
        "env": lambda: env_service(catalog),
        "user": user_sim_service,
        "agent": lambda: agent_service(catalog),
        "scorer": lambda: scorer_service(catalog),
    }
    servers: list[RunningServer] = []
    resolved: dict[str, str] = {}
    embedded: set[str] = set()
    try:
        for name, build in builders.items():
            address = getattr(addresses, name)
            if address is None:
                interceptors = current_telemetry().service(TELEMETRY_KEYS[name]).server_interceptors()
                running = await start_server([build()], interceptors=interceptors)
                servers.append(running)
                embedded.add(name)
                address = running.address
            resolved[name] = address
        clients = ServiceClients.connect(**resolved, embedded=embedded)
        try:
            yield clients
        finally:
            await clients.close()
    finally:
        for running in servers:
            await running.stop(grace=1.0)
