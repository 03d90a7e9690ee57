"""FastAPI dependencies: the worker's store, settings and executor, and the authenticated, rate-limited caller."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials

from taumesh.api.executor import RunExecutor
from taumesh.api.security import RateLimiter, api_key_header, authenticate, bearer, bearer_value
from taumesh.api.settings import ApiSettings
from taumesh.api.store import Store
from taumesh.orchestrator.clients import ServiceClients


def get_store(request: Request) -> Store:
    """The worker's database."""
    store: Store = request.app.state.store
    return store


def get_settings(request: Request) -> ApiSettings:
    """The worker's settings."""
    settings: ApiSettings = request.app.state.settings
    return settings


def get_executor(request: Request) -> RunExecutor:
    """The worker's run executor."""
    executor: RunExecutor = request.app.state.executor
    return executor


def get_clients(request: Request) -> ServiceClients:
    """The worker's service clients."""
    clients: ServiceClients = request.app.state.clients
    return clients


def require_key(
    request: Request,
    store: Annotated[Store, Depends(get_store)],
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    header_key: Annotated[str | None, Depends(api_key_header)],
) -> str:
    """The caller's key id, after authentication and the per-key rate limit."""
    key_id = authenticate(request, store, bearer_value(credentials), header_key)
    limiter: RateLimiter = request.app.state.limiter
    limiter.check(key_id)
    return key_id


StoreDep = Annotated[Store, Depends(get_store)]
SettingsDep = Annotated[ApiSettings, Depends(get_settings)]
ExecutorDep = Annotated[RunExecutor, Depends(get_executor)]
ClientsDep = Annotated[ServiceClients, Depends(get_clients)]
KeyDep = Annotated[str, Depends(require_key)]
