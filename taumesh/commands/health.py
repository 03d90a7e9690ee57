"""``taumesh health``: ask a server's gRPC health service whether it is serving (a container's health check).

Every ``taumesh serve`` process runs ``grpc.health.v1.Health``; this probe is what the image's ``HEALTHCHECK``
and docker-compose run, so no separate ``grpc_health_probe`` binary is needed. Kubernetes uses its native
``grpc:`` probe instead. TLS and the token come from the client's environment (``TAUMESH_TLS_CA``, …), as for
``taumesh run``; health checks themselves need no token.

``--http URL`` asks an HTTP server instead (the REST API's ``/health``, the viewer's ``/healthz``): 2xx is healthy.
A health check is then one argument list, the same for Docker, Podman and Kubernetes' ``exec`` probes, where a
``python -c "..."`` string would depend on how each engine splits it.
"""

from __future__ import annotations

import os
import urllib.error
import urllib.request
from typing import Annotated

import grpc
import typer
from grpc_health.v1 import health_pb2, health_pb2_grpc

from taumesh.agent.v1 import agent_pb2
from taumesh.env.v1 import env_pb2
from taumesh.rpc.loop import run as run_loop
from taumesh.rpc.security import ClientSecurity, SecurityError
from taumesh.scorer.v1 import scorer_pb2
from taumesh.user_sim.v1 import user_sim_pb2

SERVICE_NAMES = {
    "env": env_pb2.DESCRIPTOR.services_by_name["EnvService"].full_name,
    "user-sim": user_sim_pb2.DESCRIPTOR.services_by_name["UserSimService"].full_name,
    "agent": agent_pb2.DESCRIPTOR.services_by_name["AgentService"].full_name,
    "scorer": scorer_pb2.DESCRIPTOR.services_by_name["ScorerService"].full_name,
}
"""``taumesh serve``'s short names → the full gRPC service names their health status is kept under."""

DEFAULT_PORT = 50051


def default_address() -> str:
    """The local server: loopback at ``$TAUMESH_PORT`` (``taumesh serve``'s port setting), else 50051."""
    return f"127.0.0.1:{os.environ.get('TAUMESH_PORT') or DEFAULT_PORT}"


def full_service_name(service: str) -> str:
    """``service`` as the health service knows it: a short name expanded, a full name or "" (the server) as is."""
    return SERVICE_NAMES.get(service, service)


async def serving_status(address: str, service: str = "", timeout: float = 3.0) -> str:
    """The health status ``address`` reports for ``service`` ("": the whole server), by name (``SERVING``, …).

    Raises :class:`grpc.aio.AioRpcError` when the server cannot be reached in ``timeout`` seconds or does not know
    ``service`` (NOT_FOUND).
    """
    async with ClientSecurity().channel(address, options=[], interceptors=[]) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        request = health_pb2.HealthCheckRequest(service=full_service_name(service))
        response: health_pb2.HealthCheckResponse = await stub.Check(request, timeout=timeout)
    return str(health_pb2.HealthCheckResponse.ServingStatus.Name(response.status))


def http_status(url: str, timeout: float) -> int:
    """The HTTP status ``url`` answers a GET with (redirects not followed); OSError when it cannot be reached."""
    if not url.startswith(("http://", "https://")):
        raise ValueError(f"--http takes an http:// or https:// URL, not {url!r}")

    class _NoRedirects(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(_NoRedirects)
    try:
        with opener.open(url, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code


def health(
    address: Annotated[
        str | None,
        typer.Argument(
            help="host:port or any gRPC target (default: 127.0.0.1:$TAUMESH_PORT, else 50051).", show_default=False
        ),
    ] = None,
    service: Annotated[
        str,
        typer.Option(
            "--service", help="env, user-sim, agent, scorer or a full gRPC service name (default: the whole server)."
        ),
    ] = "",
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds to wait for the answer.", min=0.1)] = 3.0,
    http: Annotated[
        str,
        typer.Option("--http", help="Ask this HTTP URL instead (healthy: a 2xx answer), e.g. the REST API's /health."),
    ] = "",
) -> None:
    """Exit 0 when the server's gRPC health service says SERVING, 1 otherwise (a container health check)."""
    if http:
        try:
            code = http_status(http, timeout)
        except ValueError as exc:
            typer.echo(str(exc), err=True)
            raise typer.Exit(2) from exc
        except OSError as exc:
            typer.echo(f"{http}: {exc}", err=True)
            raise typer.Exit(1) from exc
        typer.echo(f"{http}: HTTP {code}")
        if not 200 <= code < 300:
            raise typer.Exit(1)
        return
    target = address or default_address()
    label = f"{full_service_name(service) or 'server'} at {target}"
    try:
        status = run_loop(serving_status(target, service, timeout))
    except grpc.aio.AioRpcError as exc:
        typer.echo(f"{label}: {exc.code().name}: {exc.details() or 'not served here'}", err=True)
        raise typer.Exit(1) from exc
    except (SecurityError, ValueError) as exc:  # the client's TLS settings are incomplete or unreadable
        typer.echo(f"{label}: {exc}", err=True)
        raise typer.Exit(2) from exc
    typer.echo(f"{label}: {status}")
    if status != "SERVING":
        raise typer.Exit(1)


def main() -> None:
    """``python -m taumesh.commands.health``: the probe without loading the rest of the CLI (quicker to start)."""
    typer.run(health)


if __name__ == "__main__":
    main()
