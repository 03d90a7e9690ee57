"""``GET /health``: up, version, domains, which providers have credentials (never the credentials)."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version

from fastapi import APIRouter, Request

from taumesh.api.local_mode import LOCAL_KEY_ID
from taumesh.api.model_names import supported_models
from taumesh.api.schemas import HealthResponse, ProviderStatus, ServiceInfo

router = APIRouter(tags=["health"])

PROVIDER_KEYS = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "mistral": "MISTRAL_API_KEY",
    "deepinfra": "DEEPINFRA_API_KEY",
    "together_ai": "TOGETHERAI_API_KEY",
}
"""The environment variable litellm reads each provider's key from."""


def taumesh_version() -> str:
    """The installed taumesh version."""
    try:
        return version("taumesh")
    except PackageNotFoundError:
        return "unknown"


@router.get("/health", response_model=HealthResponse, summary="Liveness, version and capabilities")
def health(request: Request) -> HealthResponse:
    """Answers without authentication (probes); says whether local mode turned authentication off.

    It says whether a provider key is set, never the key.
    """
    local: bool = request.app.state.settings.local
    return HealthResponse(
        version=taumesh_version(),
        timestamp=datetime.now(UTC),
        supported_environments=request.app.state.environments,
        supported_models=supported_models(),
        providers=[
            ProviderStatus(provider=name, configured=bool(os.environ.get(variable)))
            for name, variable in PROVIDER_KEYS.items()
        ],
        auth_required=not local,
        local_key_id=LOCAL_KEY_ID if local else None,
    )


@router.get("/", response_model=ServiceInfo, summary="What this service is and where its routes are")
def service_info() -> ServiceInfo:
    """The REST fork's root document (``TauBenchAPIClient.get_service_info``); no authentication."""
    return ServiceInfo(
        service="taumesh API (τ-bench task validation)",
        version=taumesh_version(),
        endpoints={
            "health": "/health",
            "validate_tasks": "/api/v1/validate-tasks",
            "list_tasks": "/api/v1/list-tasks",
            "runs": "/api/v1/runs",
            "scores": "/scores",
            "docs": "/docs",
        },
        timestamp=datetime.now(UTC),
    )
