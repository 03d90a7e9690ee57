"""``taumesh serve a2a``: taumesh as an A2A green agent (JSON-RPC over HTTP, optionally gRPC too).

Callers are authenticated (:mod:`taumesh.commands.a2a_callers`), each sees its own tasks only, evaluations are
bounded per caller and in all, and requests by size (HTTP body and gRPC message alike).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from taumesh.commands import HELP_OPTIONS
from taumesh.commands._common import DataDir

if TYPE_CHECKING:
    from taumesh.commands.a2a_callers import CallerKeys
    from taumesh.commands.a2a_green import EvaluationLimits

PROGRESS_INTERVAL_ENV = "TAUMESH_PROGRESS_INTERVAL"
MAX_REQUEST_BYTES = 1 << 20
"""Default cap on a request (an assessment request is a few hundred bytes)."""


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
            "--allow-agent",
            help="A purple agent URL requests may name (repeatable; also TAUMESH_ALLOWED_AGENT_URLS). "
            "Never a model endpoint: those are TAUMESH_ALLOWED_API_BASES.",
        ),
    ] = None,
    caller_key: Annotated[
        list[str] | None,
        typer.Option(
            "--caller-key",
            help="NAME=TOKEN: a caller and its bearer token (repeatable; also TAUMESH_A2A_CALLER_KEYS). "
            "None: loopback callers only.",
        ),
    ] = None,
    max_evaluations: Annotated[
        int, typer.Option("--max-evaluations", min=1, help="Evaluations running at once, all callers together.")
    ] = 4,
    max_evaluations_per_caller: Annotated[
        int, typer.Option("--max-evaluations-per-caller", min=1, help="Evaluations running at once per caller.")
    ] = 2,
    max_request_bytes: Annotated[
        int, typer.Option("--max-request-bytes", min=1024, help="Largest request (HTTP body or gRPC message).")
    ] = MAX_REQUEST_BYTES,
    *,
    data_dir: DataDir,
    log_dir: Annotated[Path, typer.Option("--log-dir", help="Where results files go.")] = Path("results"),
    progress_interval: Annotated[
        float, typer.Option("--progress-interval", help="Seconds between progress updates of a running evaluation.")
    ] = 10.0,
) -> None:
    """Serve taumesh as an A2A green agent: assessment requests name a purple agent and a run config."""
    from taumesh.commands.a2a_callers import CALLER_KEYS_ENV, CallerKeys, is_loopback
    from taumesh.commands.a2a_green import EvaluationLimits
    from taumesh.llm.access import OperatorGrants, granted

    try:
        keys = CallerKeys.from_sources(caller_key or [], os.environ.get(CALLER_KEYS_ENV, ""))
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--caller-key / " + CALLER_KEYS_ENV) from exc
    if not keys.names_by_token and not is_loopback(host):
        raise typer.BadParameter(
            f"{host!r} is not loopback: a green agent reachable from other hosts needs caller keys "
            f"(--caller-key NAME=TOKEN or {CALLER_KEYS_ENV})",
            param_hint="--host",
        )
    limits = EvaluationLimits(per_caller=max_evaluations_per_caller, in_all=max_evaluations)
    os.environ.setdefault(PROGRESS_INTERVAL_ENV, str(progress_interval))
    with granted(OperatorGrants.of(agent_urls=allow_agent or [])):
        asyncio.run(_serve(host, port, grpc_port, public_url, data_dir, log_dir, keys, limits, max_request_bytes))


async def _serve(
    host: str,
    port: int,
    grpc_port: int,
    public_url: str,
    data_dir: Path,
    log_dir: Path,
    keys: CallerKeys,
    limits: EvaluationLimits,
    max_request_bytes: int,
) -> None:
    import grpc
    import uvicorn
    from a2a.server.request_handlers import DefaultRequestHandler, GrpcHandler
    from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
    from a2a.server.tasks import InMemoryTaskStore
    from a2a.types import a2a_pb2_grpc
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.authentication import AuthenticationMiddleware

    from taumesh.commands.a2a_callers import BearerCallers, GrpcCallers, RequireCaller, unauthorized
    from taumesh.commands.a2a_green import EvaluationExecutor, agent_card
    from taumesh.services.agent.servicer import taumesh_version

    grpc_target = f"{host}:{grpc_port}" if grpc_port else None
    card = agent_card(public_url or f"http://{host}:{port}/", grpc_target, taumesh_version(), bool(keys.names_by_token))
    handler = DefaultRequestHandler(
        agent_executor=EvaluationExecutor(data_dir, log_dir, limits),
        task_store=InMemoryTaskStore(),  # keyed by the caller (ServerCallContext.user): each sees its own tasks
        agent_card=card,
    )
    app = Starlette(
        routes=[*create_agent_card_routes(card), *create_jsonrpc_routes(handler, "/")],
        middleware=[Middleware(AuthenticationMiddleware, backend=BearerCallers(keys), on_error=unauthorized)],
        max_body_size=max_request_bytes,
    )
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    grpc_server = None
    if grpc_port:
        size = [("grpc.max_receive_message_length", max_request_bytes)]
        grpc_server = grpc.aio.server(interceptors=[RequireCaller(keys)], options=size)
        servicer = GrpcHandler(handler, context_builder=GrpcCallers(keys))
        a2a_pb2_grpc.add_A2AServiceServicer_to_server(servicer, grpc_server)  # type: ignore[no-untyped-call]
        grpc_server.add_insecure_port(f"{host}:{grpc_port}")
        await grpc_server.start()
    who = f"{len(keys.names_by_token)} caller keys" if keys.names_by_token else "loopback callers only"
    typer.echo(
        f"taumesh A2A green agent on http://{host}:{port}/ (card: /.well-known/agent-card.json; {who})", err=True
    )
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
