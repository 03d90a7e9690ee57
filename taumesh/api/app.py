"""The FastAPI application: telemetry, lifespan (migrations, services, executor), middleware, errors, routers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from taumesh.api.audit import AuditLog, AuditMiddleware
from taumesh.api.database import make_engine, migrate
from taumesh.api.errors import install_error_handlers
from taumesh.api.executor import RunExecutor
from taumesh.api.gate import AuthGate
from taumesh.api.local_mode import LOCAL_KEY_ID, LOCAL_KEY_NAME, local_mode_notice
from taumesh.api.routes import health, rollouts, runs, scores, tasks
from taumesh.api.routes.health import taumesh_version
from taumesh.api.security import RateLimiter
from taumesh.api.settings import ApiSettings
from taumesh.api.store import Store
from taumesh.api.telemetry import ORCHESTRATOR_SERVICE, setup_api_telemetry, shutdown_api_telemetry
from taumesh.domains import Registry
from taumesh.llm.access import OperatorGrants, granted
from taumesh.orchestrator.run.stack import service_stack
from taumesh.telemetry import Telemetry

DESCRIPTION = """Run τ-bench benchmarks over HTTP through taumesh's orchestrator and gRPC services.

Authenticate with `Authorization: Bearer <key>` or `X-API-Key: <key>` (keys from `taumesh api-keys create`).
A run belongs to the key that created it: other keys get 404 for it, and admin keys (`--admin`) see every run.
In local mode (`--local`, loopback only; `/health` says `auth_required: false`) a request without a key from
this machine acts as the key `tmk_local`.
Every error is `{error_type, message, details, timestamp}`.
"""
log = logging.getLogger("uvicorn.error")
"""uvicorn's own logger: its configuration prints our startup warning beside its "Application startup complete"."""


@asynccontextmanager
async def _worker(app: FastAPI, settings: ApiSettings, telemetry: Telemetry) -> AsyncIterator[None]:
    """The worker's database, services and run executor, in ``app.state`` until the exit."""
    engine = make_engine(settings.resolved_database_url)
    migrate(engine)
    store = Store(engine)
    if settings.local:
        store.ensure_tokenless_key(LOCAL_KEY_ID, LOCAL_KEY_NAME)
        log.warning(local_mode_notice(settings.host, settings.port))
    app.state.settings = settings
    app.state.store = store
    app.state.key_limiter = RateLimiter(settings.rate_limit, settings.rate_limit_storage)
    app.state.failure_limiter = RateLimiter(
        settings.auth_failure_limit, settings.rate_limit_storage, "failed authentications from this address"
    )
    app.state.environments = Registry.discover().names()
    # the operator's endpoints, granted to this worker's embedded services for its lifetime
    with granted(OperatorGrants.of(api_bases=settings.allowed_api_bases)):
        orchestrator = telemetry.service(ORCHESTRATOR_SERVICE)
        async with service_stack(settings.addresses, settings.data_dir, orchestrator) as clients:
            executor = RunExecutor(store, settings, clients, orchestrator)
            app.state.clients = clients
            app.state.executor = executor
            poller = asyncio.create_task(executor.poll_forever())
            try:
                yield
            finally:
                poller.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await poller
                await executor.stop()
    engine.dispose()


def create_app(settings: ApiSettings | None = None) -> FastAPI:
    """The API for ``settings`` (default: from ``TAUMESH_API_*``); uvicorn's factory for several workers.

    Each call configures the process's telemetry (uvicorn calls the factory once in each worker process); the
    lifespan's end flushes it, after the executor has stopped.
    """
    settings = settings or ApiSettings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            async with _worker(app, settings, telemetry):
                yield
        finally:  # the last requests' spans and those of the runs the stop interrupted
            await asyncio.to_thread(shutdown_api_telemetry, telemetry)

    app = FastAPI(
        title="taumesh API",
        version=taumesh_version(),
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url="/docs",
        redoc_url="/redoc",
    )
    # before the app starts: the instrumentation wraps its middleware stack, the embedded services read the providers
    telemetry = setup_api_telemetry(app, settings.otlp_endpoint)
    app.add_middleware(AuthGate)  # innermost of ours: its 401s and 429s are audited, and no body is read before it
    install_error_handlers(app)
    # outermost (but for the HTTP span): sees every answer
    app.add_middleware(AuditMiddleware, log=AuditLog(settings.audit_path))
    for router in (health.router, tasks.router, runs.router, scores.router, rollouts.router):
        app.include_router(router)
    return app
