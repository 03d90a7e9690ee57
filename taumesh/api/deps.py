"""FastAPI dependencies: the worker's store, settings and executor, and the caller the gate authenticated."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials

from taumesh.api.caller import Caller
from taumesh.api.errors import ApiError
from taumesh.api.executor import RunExecutor
from taumesh.api.security import api_key_header, bearer
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


async def require_key(
    request: Request,
    _credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    _header_key: Annotated[str | None, Depends(api_key_header)],
) -> Caller:
    """The caller the :class:`~taumesh.api.gate.AuthGate` authenticated (the schemes declare the security)."""
    caller: Caller | None = getattr(request.state, "caller", None)
    if caller is None:  # the gate lets no such request through; never answer without a key
        raise ApiError(401, "authentication_error", "an API key is required (Authorization: Bearer or X-API-Key)")
    return caller


StoreDep = Annotated[Store, Depends(get_store)]
SettingsDep = Annotated[ApiSettings, Depends(get_settings)]
ExecutorDep = Annotated[RunExecutor, Depends(get_executor)]
ClientsDep = Annotated[ServiceClients, Depends(get_clients)]
KeyDep = Annotated[Caller, Depends(require_key)]
