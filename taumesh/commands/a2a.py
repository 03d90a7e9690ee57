"""``taumesh serve a2a``: taumesh as an A2A green agent (JSON-RPC over HTTP, optionally gRPC too)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Annotated

import typer

from taumesh.commands import HELP_OPTIONS
from taumesh.commands._common import DataDir
from taumesh.orchestrator.config import CACHE_DATA_DIR

PROGRESS_INTERVAL_ENV = "TAUMESH_PROGRESS_INTERVAL"


def serve_a2a(
    port: Annotated[int, typer.Option("--port", help="HTTP port of the JSON-RPC binding and the agent card.")] = 9009,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    grpc_port: Annotated[int, typer.Option("--grpc-port", help="Also serve A2A's gRPC binding here (0: no).")] = 0,
    public_url: Annotated[
        str, typer.Option("--public-url", help="The URL the card advertises (default: http://HOST:PORT/).")
    ] = "",
    allow_agent: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-agent", help="A purple agent URL requests may name (repeatable; also TAUMESH_ALLOWED_API_BASES)."
        ),
    ] = None,
    data_dir: DataDir = CACHE_DATA_DIR,
    log_dir: Annotated[Path, typer.Option("--log-dir", help="Where results files go.")] = Path("results"),
    progress_interval: Annotated[
        float, typer.Option("--progress-interval", help="Seconds between progress updates of a running evaluation.")
    ] = 10.0,
) -> None:
    """Serve taumesh as an A2A green agent: assessment requests name a purple agent and a run config."""
    os.environ.setdefault(PROGRESS_INTERVAL_ENV, str(progress_interval))
    from taumesh.llm.access import OperatorGrants, granted

    grants = OperatorGrants.of(api_bases=allow_agent or [])
    with granted(grants):
        asyncio.run(_serve(host, port, grpc_port, public_url, data_dir, log_dir))


async def _serve(host: str, port: int, grpc_port: int, public_url: str, data_dir: Path, log_dir: Path) -> None:
    import grpc
    import uvicorn
    from a2a.server.request_handlers import DefaultRequestHandler, GrpcHandler
    from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
    from a2a.server.tasks import InMemoryTaskStore
    from a2a.types import a2a_pb2_grpc
    from starlette.applications import Starlette

    from taumesh.commands.a2a_green import EvaluationExecutor, agent_card
    from taumesh.services.agent.servicer import taumesh_version

    card = agent_card(
        public_url or f"http://{host}:{port}/", f"{host}:{grpc_port}" if grpc_port else None, taumesh_version()
    )
    handler = DefaultRequestHandler(
        agent_executor=EvaluationExecutor(data_dir, log_dir), task_store=InMemoryTaskStore(), agent_card=card
    )
    app = Starlette(routes=[*create_agent_card_routes(card), *create_jsonrpc_routes(handler, "/")])
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    grpc_server = None
    if grpc_port:
        grpc_server = grpc.aio.server()
        a2a_pb2_grpc.add_A2AServiceServicer_to_server(GrpcHandler(handler), grpc_server)  # type: ignore[no-untyped-call]
        grpc_server.add_insecure_port(f"{host}:{grpc_port}")
        await grpc_server.start()
    typer.echo(f"taumesh A2A green agent on http://{host}:{port}/ (card: /.well-known/agent-card.json)", err=True)
    try:
        await server.serve()
    finally:
        if grpc_server is not None:
            await grpc_server.stop(2)


def main(args: list[str]) -> None:
    """``taumesh serve a2a ARGS``."""
    app = typer.Typer(context_settings=HELP_OPTIONS, pretty_exceptions_show_locals=False)
    app.command(name="a2a")(serve_a2a)
    app(args=args, prog_name="taumesh serve a2a")
