"""``taumesh serve mcp``: the env's tools over MCP (Streamable HTTP), one endpoint per episode.

``POST /episodes`` with ``{"domain", "split", "task_id"}`` opens an env session and answers its MCP path
(``/episodes/{token}/mcp``), the task's user instruction and the policy; ``POST /episodes/{token}/finish`` closes
it and answers the final data hash and the calls it ran, in order (410 with the calls when the env reaped it).
Bodies, and the episodes each client and all clients hold open, are bounded (:class:`GatewayLimits`); only
loopback names and pages are answered unless ``--allowed-host``/``--allowed-origin`` say more.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Annotated

import grpc
import typer
import uvicorn

from taumesh.commands import HELP_OPTIONS
from taumesh.commands._common import DataDir, EnvAddr
from taumesh.commands._host_policy import AllowedHosts, AllowedOrigins, host_policy
from taumesh.domains import Catalog, DataError
from taumesh.env.v1 import env_pb2_grpc
from taumesh.orchestrator.clients import remote_channel
from taumesh.orchestrator.episode.mcp_gateway import GatewayLimits, McpGateway, gateway_app
from taumesh.rpc.http_guard import HostPolicy
from taumesh.rpc.server import CHANNEL_OPTIONS, start_server
from taumesh.services.env import env_service

_LIMITS = GatewayLimits.model_fields


def _limit_help(name: str) -> str:
    """A flag's help: the limit's own description, declared once on :class:`GatewayLimits`."""
    return str(_LIMITS[name].description)


async def _serve(
    host: str,
    port: int,
    env_addr: str | None,
    data_dir: Path,
    rpc_timeout: float,
    limits: GatewayLimits,
    policy: HostPolicy,
) -> None:
    embedded = None
    if env_addr is None:  # an env of our own on loopback, spoken to over gRPC like a remote one
        embedded = await start_server([env_service(Catalog(data_dir))])
        channel = grpc.aio.insecure_channel(embedded.address, options=CHANNEL_OPTIONS)
    else:
        channel = remote_channel(env_addr)
    app = gateway_app(McpGateway(env_pb2_grpc.EnvServiceStub(channel), rpc_timeout, limits=limits, policy=policy))
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    try:
        serving = asyncio.create_task(server.serve())
        for stop in (signal.SIGTERM, signal.SIGINT):  # stop serving, close the env, exit 0
            asyncio.get_running_loop().add_signal_handler(stop, lambda: setattr(server, "should_exit", True))
        while not server.started and not serving.done():
            await asyncio.sleep(0.05)
        if server.started:
            bound = server.servers[0].sockets[0].getsockname()
            typer.echo(f"MCP gateway listening on http://{bound[0]}:{bound[1]} (POST /episodes to open one)")
        await serving
    finally:
        await channel.close(grace=None)
        if embedded is not None:
            await embedded.stop(grace=1.0)


def serve_mcp(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="HTTP port (0: any free port).")] = 8765,
    env_addr: EnvAddr = None,
    *,
    data_dir: DataDir,
    rpc_timeout: Annotated[float, typer.Option("--rpc-timeout", help="Seconds per env call attempt.")] = 60.0,
    max_body_bytes: Annotated[
        int, typer.Option("--max-body-bytes", min=1024, help=_limit_help("max_body_bytes"))
    ] = _LIMITS["max_body_bytes"].default,
    max_episodes_per_client: Annotated[
        int, typer.Option("--max-episodes-per-client", min=1, help=_limit_help("max_episodes_per_client"))
    ] = _LIMITS["max_episodes_per_client"].default,
    max_episodes: Annotated[int, typer.Option("--max-episodes", min=1, help=_limit_help("max_episodes"))] = _LIMITS[
        "max_episodes"
    ].default,
    idle_timeout: Annotated[
        float, typer.Option("--idle-timeout", min=0.001, help=_limit_help("idle_timeout"))
    ] = _LIMITS["idle_timeout"].default,
    allowed_hosts: AllowedHosts = None,
    allowed_origins: AllowedOrigins = None,
) -> None:
    """Serve each episode's tools over MCP (Streamable HTTP); tools/call runs in the episode's env session.

    Only loopback names (localhost, 127.0.0.1, [::1]) and their pages are answered unless --allowed-host and
    --allowed-origin name more; bodies over --max-body-bytes get 413; a client over its open episodes gets 429.
    """
    policy = host_policy(allowed_hosts, allowed_origins)
    limits = GatewayLimits(
        max_body_bytes=max_body_bytes,
        max_episodes_per_client=max_episodes_per_client,
        max_episodes=max_episodes,
        idle_timeout=idle_timeout,
    )
    try:
        asyncio.run(_serve(host, port, env_addr, data_dir, rpc_timeout, limits, policy))
    except DataError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        pass


def main(args: list[str]) -> None:
    """``taumesh serve mcp ARGS``."""
    app = typer.Typer(context_settings=HELP_OPTIONS, pretty_exceptions_show_locals=False)
    app.command(name="mcp")(serve_mcp)
    app(args=args, prog_name="taumesh serve mcp")
