"""``taumesh serve api`` (the REST API on uvicorn) and ``taumesh api-keys create|list|revoke``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.table import Table

from taumesh.api.settings import API_ENV_PREFIX, ApiSettings
from taumesh.commands import OtlpEndpoint
from taumesh.commands._common import AgentAddr, EnvAddr, ScorerAddr, UserAddr

if TYPE_CHECKING:
    from taumesh.api.store import Store

APP_FACTORY = "taumesh.api.app:create_app"
GRACEFUL_SHUTDOWN_SECONDS = 10
"""How long SIGTERM waits for open requests (a synchronous run may last hours; it resumes on the next start)."""
out = Console()
err = Console(stderr=True)

api_keys_app = typer.Typer(help="Create, list and revoke the REST API's keys.", no_args_is_help=True)


def export_settings(given: dict[str, Any]) -> ApiSettings:
    """Settings from flags over ``TAUMESH_API_*``; the flags are exported too, so every uvicorn worker sees them.

    Settings that are not valid (local mode on a host that is not loopback, a port out of range) end the command
    with status 2 and each problem on one line, before anything starts; ``tau-bench-server`` calls this too, outside
    typer, hence ``SystemExit``.
    """
    for field, value in given.items():
        if value is None:
            continue
        text = ",".join(value) if isinstance(value, list) else str(value)
        os.environ[f"{API_ENV_PREFIX}{field.upper()}"] = text
    try:
        return ApiSettings()
    except ValidationError as exc:
        for problem in exc.errors():
            where = ".".join(map(str, problem["loc"]))
            message = problem["msg"].removeprefix("Value error, ")
            err.print(f"[red]error:[/red] {f'{where}: ' if where else ''}{message}", soft_wrap=True, markup=True)
        raise SystemExit(2) from None


def serve_api(
    host: Annotated[
        str | None, typer.Option(help="Address to listen on (default: env TAUMESH_API_HOST; 127.0.0.1).")
    ] = None,
    port: Annotated[int | None, typer.Option(help="Port (default: env TAUMESH_API_PORT; 8000).")] = None,
    local: Annotated[
        bool | None,
        typer.Option(
            "--local/--no-local",
            help="Local mode: requests without a key from this machine act as the key tmk_local, as the REST fork's "
            "keyless calls; only with a loopback --host (default: env TAUMESH_API_LOCAL; off).",
        ),
    ] = None,
    workers: Annotated[int | None, typer.Option(help="uvicorn workers sharing the database (default: 1).")] = None,
    log_level: Annotated[str | None, typer.Option(help="uvicorn log level (default: info).")] = None,
    log_dir: Annotated[Path | None, typer.Option(help="Folder of audit.jsonl (default: the data root).")] = None,
    data_root: Annotated[Path | None, typer.Option(help="The API's folder (SQLite database).")] = None,
    database_url: Annotated[
        str | None, typer.Option(help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db (default: SQLite).")
    ] = None,
    rate_limit: Annotated[str | None, typer.Option(help="Per-key limit, e.g. '120/minute'.")] = None,
    allowed_agent_addresses: Annotated[
        list[str] | None, typer.Option("--allowed-agent-address", help="host:port of an allowed external agent.")
    ] = None,
    allowed_api_bases: Annotated[
        list[str] | None, typer.Option("--allowed-api-base", help="A model endpoint requests may name.")
    ] = None,
    data_dir: Annotated[Path | None, typer.Option(help="τ-bench data for the embedded services.")] = None,
    env_addr: EnvAddr = None,
    user_addr: UserAddr = None,
    agent_addr: AgentAddr = None,
    scorer_addr: ScorerAddr = None,
    provider_limit: Annotated[
        list[str] | None,
        typer.Option(
            "--provider-limit",
            help="PROVIDER=N (repeatable): model calls in flight to that provider over every run a worker plays.",
        ),
    ] = None,
    otlp_endpoint: OtlpEndpoint = None,
) -> None:
    """Serve the REST API (FastAPI on uvicorn); every flag is also ``TAUMESH_API_<FLAG>``.

    With ``--otlp-endpoint`` (or the ``OTEL_*`` variables) each worker traces its requests as ``taumesh-api`` and
    the runs it plays as ``taumesh run`` does; a graceful stop (SIGTERM) flushes the last spans.
    """
    settings = export_settings(dict(locals()))  # first: locals() is the flags alone
    import uvicorn

    from taumesh.api.database import make_engine, migrate
    from taumesh.api.local_mode import local_mode_notice

    engine = make_engine(settings.resolved_database_url)
    migrate(engine)  # once, before the workers start (each checks again, finding nothing to do)
    engine.dispose()
    if settings.local:
        err.print(f"[bold yellow]{local_mode_notice(settings.host, settings.port)}[/bold yellow]", soft_wrap=True)
    uvicorn.run(
        APP_FACTORY,
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        log_level=settings.log_level,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
    )


DatabaseUrl = Annotated[
    str | None,
    typer.Option(help="The API's database (default: env TAUMESH_API_DATABASE_URL; SQLite in the data root)."),
]
DataRoot = Annotated[
    Path | None,
    typer.Option(help="The API's folder, as serve api takes it (default: env TAUMESH_API_DATA_ROOT)."),
]


def _store(database_url: str | None, data_root: Path | None = None) -> Store:
    from taumesh.api.database import make_engine, migrate
    from taumesh.api.store import Store

    given: dict[str, Any] = {"database_url": database_url, "data_root": data_root}
    settings = ApiSettings(**{field: value for field, value in given.items() if value is not None})
    engine = make_engine(settings.resolved_database_url)
    migrate(engine)
    return Store(engine)


@api_keys_app.command("create")
def create_key(
    name: Annotated[str | None, typer.Argument(help="Who or what the key is for (default: default).")] = None,
    name_option: Annotated[str | None, typer.Option("--name", help="The same, as an option.")] = None,
    admin: Annotated[
        bool, typer.Option("--admin", help="The key sees every run (others see only the runs they created).")
    ] = False,
    database_url: DatabaseUrl = None,
    data_root: DataRoot = None,
) -> None:
    """Create a key and print its token once (only its SHA-256 is stored): taumesh api-keys create me."""
    if name is not None and name_option is not None and name != name_option:
        err.print(f"[red]error:[/red] two names: {name!r} and --name {name_option!r}; give one")
        raise typer.Exit(2)
    row, token = _store(database_url, data_root).create_key(name or name_option or "default", admin=admin)
    kind = "admin key" if admin else "key"
    err.print(f"{kind} {row.id} ({row.name}) created; the token below is shown only now:")
    print(token)


@api_keys_app.command("list")
def list_keys(database_url: DatabaseUrl = None, data_root: DataRoot = None) -> None:
    """Key ids, names, creation and revocation times (never tokens)."""
    table = Table("key id", "name", "created", "revoked")
    for row in _store(database_url, data_root).list_keys():
        table.add_row(row.id, row.name, str(row.created_at), str(row.revoked_at or ""))
    out.print(table)


@api_keys_app.command("revoke")
def revoke_key(
    key_id: Annotated[str, typer.Argument(help="The key's id (tmk_…).")],
    database_url: DatabaseUrl = None,
    data_root: DataRoot = None,
) -> None:
    """Revoke a key: requests with it are refused from now on."""
    if not _store(database_url, data_root).revoke_key(key_id):
        err.print(f"[red]error:[/red] no active key {key_id}")
        raise typer.Exit(1)
    err.print(f"key {key_id} revoked")
