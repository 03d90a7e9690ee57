"""``taumesh serve gateway``: the model gateway, an OpenAI-compatible proxy recording token-faithful traces.

Every call goes to the one ``--backend`` given here, with the API key of the environment variable named by
``--backend-key-env``; calls are attributed by the signed ``X-Taumesh-Rollout`` header (key: ``--key-file`` or
``TAUMESH_GATEWAY_KEY``) and recorded under ``--traces``. See docs/gateway.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from pathlib import Path
from typing import Annotated

import typer

from taumesh.commands import HELP_OPTIONS
from taumesh.gateway.signing import GATEWAY_KEY_ENV, GatewayKeyError, gateway_key


async def _serve(settings: object, host: str, port: int) -> None:
    import uvicorn

    from taumesh.gateway.app import GatewaySettings, gateway_app

    assert isinstance(settings, GatewaySettings)
    server = uvicorn.Server(uvicorn.Config(gateway_app(settings), host=host, port=port, log_level="warning"))
    serving = asyncio.create_task(server.serve())
    for stop in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(stop, lambda: setattr(server, "should_exit", True))
    while not server.started and not serving.done():
        await asyncio.sleep(0.05)
    if server.started:
        bound = server.servers[0].sockets[0].getsockname()
        typer.echo(
            f"model gateway listening on http://{bound[0]}:{bound[1]}/v1 -> {settings.backend} "
            f"(traces in {settings.traces})"
        )
    await serving


def serve_gateway(
    backend: Annotated[
        str,
        typer.Option(
            "--backend",
            help="The backend's OpenAI-compatible base URL (vLLM, SGLang, llama.cpp…), "
            "e.g. http://127.0.0.1:8000/v1. Every call goes there.",
        ),
    ],
    traces: Annotated[
        Path, typer.Option("--traces", help="Directory of the trace store (one JSONL file per rollout).")
    ],
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="HTTP port (0: any free port).")] = 8790,
    key_file: Annotated[
        Path | None,
        typer.Option(
            "--key-file",
            help=f"File holding the signing key shared with the orchestrator (default: ${GATEWAY_KEY_ENV}).",
        ),
    ] = None,
    allow_unattributed: Annotated[
        bool,
        typer.Option(
            "--allow-unattributed",
            help="Record calls without a valid signed rollout id under "
            "'unattributed' instead of refusing them with 401.",
        ),
    ] = False,
    backend_key_env: Annotated[
        str,
        typer.Option(
            "--backend-key-env", help="Environment variable holding the backend's API key (unset: none sent)."
        ),
    ] = "TAUMESH_GATEWAY_BACKEND_API_KEY",
    tokens_as_ids: Annotated[
        bool,
        typer.Option("--tokens-as-ids", help="Also ask for return_tokens_as_token_ids (vLLM before 0.10.2, SGLang)."),
    ] = False,
    timeout: Annotated[float, typer.Option("--timeout", min=0.001, help="Seconds a backend call may take.")] = 600.0,
) -> None:
    """Serve the model gateway: an OpenAI-compatible proxy to --backend that records token-faithful traces.

    POST /v1/chat/completions (and /v1/completions) go to --backend; each call's token ids, log-probabilities and
    loss mask are recorded under its signed rollout id; GET /v1/rollouts/ID/traces reads them. Streaming requests
    are refused (400).
    """
    from pydantic import SecretStr, ValidationError

    from taumesh.gateway.app import GatewaySettings

    try:
        key = gateway_key(key_file)
        assert key is not None
        settings = GatewaySettings(
            backend=backend,
            traces=traces,
            key=SecretStr(key.decode()),
            allow_unattributed=allow_unattributed,
            backend_api_key_env=backend_key_env,
            tokens_as_ids=tokens_as_ids,
            timeout=timeout,
        )
    except GatewayKeyError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    except ValidationError as exc:
        typer.echo(f"error: {'; '.join(str(e['msg']).removeprefix('Value error, ') for e in exc.errors())}", err=True)
        raise typer.Exit(2) from None
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(settings, host, port))


def main(args: list[str]) -> None:
    """``taumesh serve gateway ARGS``."""
    app = typer.Typer(context_settings=HELP_OPTIONS, pretty_exceptions_show_locals=False)
    app.command(name="gateway")(serve_gateway)
    app(args=args, prog_name="taumesh serve gateway")
