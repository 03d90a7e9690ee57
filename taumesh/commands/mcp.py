"""``taumesh serve mcp``: the env's tools over MCP (Streamable HTTP), one endpoint per episode.

``POST /episodes`` with ``{"domain", "split", "task_id"}`` opens an env session and answers its MCP path
(``/episodes/{token}/mcp``), the task's user instruction and the policy; ``POST /episodes/{token}/finish`` closes
it and answers the final data hash and the calls it ran, in order.
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
from taumesh.domains import Catalog, DataError
from taumesh.env.v1 import env_pb2_grpc
from taumesh.orchestrator.clients import remote_channel
from taumesh.orchestrator.config import CACHE_DATA_DIR
from taumesh.orchestrator.mcp_gateway import McpGateway, gateway_app
from taumesh.rpc.server import CHANNEL_OPTIONS, start_server
from taumesh.services.env import env_service


async def _serve(host: str, port: int, env_addr: str | None, data_dir: Path, rpc_timeout: float) -> None:
    embedded = None
    if env_addr is None:  # an env of our own on loopback, spoken to over gRPC like a remote one
        embedded = await start_server([env_service(Catalog(data_dir))])
        channel = grpc.aio.insecure_channel(embedded.address, options=CHANNEL_OPTIONS)
    else:
        channel = remote_channel(env_addr)
    app = gateway_app(McpGateway(env_pb2_grpc.EnvServiceStub(channel), rpc_timeout))
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
    data_dir: DataDir = CACHE_DATA_DIR,
    rpc_timeout: Annotated[float, typer.Option("--rpc-timeout", help="Seconds per env call attempt.")] = 60.0,
) -> None:
    """Serve each episode's tools over MCP (Streamable HTTP); tools/call runs in the episode's env session."""
    try:
        asyncio.run(_serve(host, port, env_addr, data_dir, rpc_timeout))
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
