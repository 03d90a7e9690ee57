"""Where a run's four services answer, so that other processes (the workers of ``--workers N``) dial them too.

:func:`serving_targets` starts each service that has no address in this process on loopback, as
:func:`taumesh.orchestrator.stack.service_stack` does, but yields the addresses instead of clients.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from pydantic import BaseModel

from taumesh.domains import Catalog
from taumesh.orchestrator.clients import ServiceClients
from taumesh.orchestrator.config import ServiceAddresses
from taumesh.orchestrator.stack import TELEMETRY_KEYS
from taumesh.rpc.server import RunningServer, Service, start_server
from taumesh.services.agent import agent_service
from taumesh.services.env import env_service
from taumesh.services.scorer import scorer_service
from taumesh.services.user_sim import user_sim_service
from taumesh.telemetry import current as current_telemetry


class ServiceTargets(BaseModel):
    """The gRPC target of each service, and which of them run embedded (plaintext on loopback)."""

    env: str
    user: str
    agent: str
    scorer: str
    embedded: frozenset[str] = frozenset()

    def connect(self) -> ServiceClients:
        """Clients of the four services (close them with :meth:`ServiceClients.close`)."""
        return ServiceClients.connect(
            env=self.env, user=self.user, agent=self.agent, scorer=self.scorer, embedded=self.embedded
        )


@asynccontextmanager
async def serving_targets(addresses: ServiceAddresses, data_dir: Path) -> AsyncIterator[ServiceTargets]:
    """The four services' targets, each one ``addresses`` leaves out started here on 127.0.0.1 until the exit."""
    catalog = Catalog(data_dir)  # one shared copy of the base data for all in-process services
    builders: dict[str, Callable[[], Service]] = {
        "env": lambda: env_service(catalog),
        "user": user_sim_service,
        "agent": lambda: agent_service(catalog),
        "scorer": lambda: scorer_service(catalog),
    }
    servers: list[RunningServer] = []
    resolved: dict[str, str] = {}
    try:
        for name, build in builders.items():
            address = getattr(addresses, name)
            if address is None:
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
