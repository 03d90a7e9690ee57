"""Checks ``taumesh run`` and ``rescore`` make before anything plays: the services, the domain, the user's prompts.

Remote services answer, the domain exists, and the embedded user simulator has τ-bench's imported prompts when it
plays τ-bench's users. Each returns one line saying what is wrong, or None; nothing here calls a service or a model.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.orchestrator.config import ServiceAddresses
from taumesh.rpc.loop import run as run_loop

TAUBENCH_USERS = frozenset({"llm", "react", "verify", "reflection"})
"""User strategies playing τ-bench's own users (its prompts, imported) where the domain brings no prompt of its own."""

ADDRESS_FLAGS = {"env": "--env-addr", "user": "--user-addr", "agent": "--agent-addr", "scorer": "--scorer-addr"}


def services_problem(addresses: ServiceAddresses) -> str | None:
    """Which given service addresses accept no connection within the connect timeout, or None."""
    from taumesh.orchestrator.clients import CONNECT_TIMEOUT_ENV, connect_timeout, unreachable_services
    from taumesh.rpc.security import SecurityError

    targets = addresses.remote()
    if not targets:
        return None
    timeout = connect_timeout()
    refused = [name for name, address in targets.items() if connection_refused(address, timeout)]
    if refused:  # nothing listens there: say so now, not after the whole wait
        named = ", ".join(f"{ADDRESS_FLAGS[name]} {targets[name]}" for name in refused)
        return f"no connection to {named} within {timeout:g}s (refused at once): is the service running there?"
    try:
        down = run_loop(unreachable_services(targets, timeout))
    except SecurityError as exc:
        return str(exc)
    if not down:
        return None
    named = ", ".join(f"{ADDRESS_FLAGS[name]} {targets[name]}" for name in down)
    return (
        f"no connection to {named} within {timeout:g}s: is the service running there, and do its TLS settings "
        f"match TAUMESH_TLS_*? ({CONNECT_TIMEOUT_ENV} sets the wait)"
    )


def connection_refused(address: str, timeout: float) -> bool:
    """Whether a plain ``host:port`` address refuses a TCP connection (nothing listens); False when unsure.

    gRPC's own dial retries a refused connection with backoff until the connect timeout (10 s by default). Names in
    gRPC's other forms (``dns:///``, ``ipv4:`` lists, ``unix:``) are left to it, and so is any answer but a refusal.
    """
    import socket

    host, _, port = address.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not host or not port.isdigit() or "/" in host or host.startswith(("dns:", "ipv4:", "ipv6:", "unix:")):
        return False
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except ConnectionRefusedError:
        return True
    except OSError:
        return False
    return False


def domain_problem(env: str, data_dir: Path) -> str | None:
    """Why the embedded env cannot serve domain ``env`` from ``data_dir``, naming the command that provides it."""
    from taumesh.domains import DataError, Registry

    registry = Registry.discover()
    try:
        plugin = registry.get(env)  # a variant (<domain>:<variant>) too
    except DataError as exc:  # a plugin that failed to load
        return str(exc)
    except KeyError:
        return f"unknown domain {env!r}; domains: {', '.join(sorted(registry.plugins)) or 'none loaded'}"
    if plugin.data_dir(data_dir).is_dir():
        return plugin.run_problem()  # what this machine lacks to run it (a model, a sandbox), as loading it says
    return plugin.missing_data(data_dir)


def user_prompts_problem(strategy: str, env: str, data_dir: Path) -> str | None:
    """Why the embedded user simulator cannot play ``strategy`` on ``env``: τ-bench's prompts were never imported.

    τ-bench's ``llm``, ``react``, ``verify`` and ``reflection`` users send τ-bench's own prompts, which taumesh
    does not ship; without them every episode would fail, one by one, after the run started. A domain that prompts
    its user itself (τ²'s) or gives the user tools (healthcare's dual control) is left to its own checks.
    """
    if strategy not in TAUBENCH_USERS:
        return None
    from taumesh.domains import DataError, Registry
    from taumesh.rpc.errors import FailedPrecondition
    from taumesh.services.user_sim.strategies.taubench_prompts import taubench_user_prompts

    try:
        plugin = Registry.discover().get(env)
    except (KeyError, DataError):
        return None  # domain_problem says so
    if plugin.own_user_prompt or any(tool.side == "user" for tool in plugin.tools):
        return None
    try:
        taubench_user_prompts(data_dir)
    except FailedPrecondition as exc:
        return f"--user-strategy {strategy} plays τ-bench's user, whose prompts are not imported: {exc}"
    return None
