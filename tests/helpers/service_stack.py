"""The four real services on loopback gRPC, started once and dialled by address by many audits and runs.

Each ``taumesh run`` or :func:`~taumesh.orchestrator.audit.audit_domain` without addresses starts its own stack and
loads the domain into its services again; a module that audits or runs many times shares one stack instead (the
same servicers over the same wire, on a loop of their own).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from taumesh.orchestrator.config import ServiceAddresses
from taumesh.orchestrator.run.stack import ServiceTargets, serving_targets
from tests.helpers.grpc_services import LoopThread


@contextmanager
def shared_services(data_dir: Path = Path("unused")) -> Iterator[ServiceTargets]:
    """The four services started here on 127.0.0.1 until the exit; where each answers."""
    loop = LoopThread()
    stack = serving_targets(ServiceAddresses(), data_dir)
    try:
        yield loop.run(stack.__aenter__())
    finally:
        loop.run(stack.__aexit__(None, None, None))
        loop.close()


def addresses(services: ServiceTargets) -> ServiceAddresses:
    """``services`` as a run's or an audit's addresses (every service remote: none started again)."""
    return ServiceAddresses(env=services.env, user=services.user, agent=services.agent, scorer=services.scorer)


def address_flags(services: ServiceTargets) -> tuple[str, ...]:
    """``services`` as ``taumesh run``'s flags."""
    return (
        "--env-addr", services.env, "--user-addr", services.user,
        "--agent-addr", services.agent, "--scorer-addr", services.scorer,
    )  # fmt: skip
