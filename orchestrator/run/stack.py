"""The services a run talks to: remote ones by address, the rest started in-process on loopback.

Even in-process, every call goes over real gRPC, so the embedded default exercises the same wire
path as a deployment. :func:`serving_targets` yields where the four services answer (other processes, the
workers of ``--workers N``, dial them too); :func:`service_stack` yields clients of them. Embedded services that
``ServiceAddresses.processes`` names (``--embedded-processes``) run in child processes of their own
(:mod:`.service_processes`), so the run uses more than one core.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from pydantic import BaseModel

from taumesh.domains import Catalog
from taumesh.orchestrator.clients import ServiceClients
from taumesh.orchestrator.config import ServiceAddresses
from taumesh.orchestrator.run.service_processes import start_processes, stop_processes
from taumesh.rpc.server import RunningServer, Service, start_server
from taumesh.services.agent import agent_service
from taumesh.services.env import env_service
from taumesh.services.scorer import scorer_service
from taumesh.services.user_sim import user_sim_service
from taumesh.telemetry import ServiceTelemetry
from taumesh.telemetry import current as current_telemetry

TELEMETRY_KEYS = {"env": "env", "user": "user-sim", "agent": "agent", "scorer": "scorer"}
"""Stack name → telemetry service key (each in-process service reports its own ``service.name``)."""


class ServiceTargets(BaseModel):
    """The gRPC target of each service, and which of them run embedded (plaintext on loopback)."""

    env: str
    user: str
    agent: str
    scorer: str
    embedded: frozenset[str] = frozenset()

    def connect(self, telemetry: ServiceTelemetry | None = None) -> ServiceClients:
        """Clients of the four services (close them with :meth:`ServiceClients.close`).

        Remote services are dialled with the TLS and token of ``TAUMESH_TLS_*``/``TAUMESH_TOKEN*``; the embedded
        ones, on loopback, in plaintext. Their client spans are ``telemetry``'s (default: the primary service).
        """
        return ServiceClients.connect(
            env=self.env,
            user=self.user,
            agent=self.agent,
            scorer=self.scorer,
            embedded=self.embedded,
            telemetry=telemetry,
        )


@asynccontextmanager
async def serving_targets(addresses: ServiceAddresses, data_dir: Path) -> AsyncIterator[ServiceTargets]:
    """The four services' targets, each one ``addresses`` leaves out started here on 127.0.0.1 until the exit."""
    catalog = Catalog(data_dir)  # one shared copy of the base data for all in-process services
    builders: dict[str, Callable[[], Service]] = {
        "env": lambda: env_service(catalog),
        "user": lambda: user_sim_service(data_dir=data_dir),
        "agent": lambda: agent_service(catalog),
        "scorer": lambda: scorer_service(catalog),
    }
    servers: list[RunningServer] = []
    resolved: dict[str, str] = {}
    apart = {name for name in addresses.processes if getattr(addresses, name) is None}
    children = await start_processes(frozenset(apart), data_dir) if apart else {}
    try:
        for name, build in builders.items():
            address = getattr(addresses, name)
            if name in children:
                address = children[name].address
            elif address is None:
                interceptors = current_telemetry().service(TELEMETRY_KEYS[name]).server_interceptors()
                running = await start_server([build()], interceptors=interceptors)
                servers.append(running)
                address = running.address
            resolved[name] = address
        embedded = frozenset(name for name in builders if getattr(addresses, name) is None)
        yield ServiceTargets(**resolved, embedded=embedded)
    finally:
        for running in servers:
            await running.stop(grace=1.0)
        await stop_processes(children)


@asynccontextmanager
async def service_stack(
    addresses: ServiceAddresses, data_dir: Path, telemetry: ServiceTelemetry | None = None
) -> AsyncIterator[ServiceClients]:
    """Clients for the four services, starting each one that has no address on 127.0.0.1.

    ``telemetry``: whose client spans the calls are (default: the process's primary service).
    """
    async with serving_targets(addresses, data_dir) as targets:
        clients = targets.connect(telemetry)
        try:
            yield clients
        finally:
            await clients.close()
