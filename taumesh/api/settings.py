"""The REST API's settings: flags of ``taumesh serve api`` > ``TAUMESH_API_*`` environment > defaults."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from taumesh.api.local_mode import is_loopback_host
from taumesh.data import taubench_v1_dir
from taumesh.llm.limiter import ProviderLimits
from taumesh.orchestrator.config import ServiceAddresses

API_ENV_PREFIX = "TAUMESH_API_"
DEFAULT_API_DIR = Path.home() / ".local" / "share" / "taumesh" / "api"
"""Where the SQLite database and the audit log go when nothing else is configured."""


def _split_list(value: object) -> object:
    """A comma- or space-separated string as a list (environment variables); anything else unchanged."""
    if isinstance(value, str):
        return [part for part in re.split(r"[,\s]+", value) if part]
    return value


class ApiSettings(BaseSettings):
    """How the API server runs; every field is a flag and a ``TAUMESH_API_<FIELD>`` variable."""

    model_config = SettingsConfigDict(env_prefix=API_ENV_PREFIX, extra="forbid")

    host: str = "127.0.0.1"
    """Address to listen on (0.0.0.0 in a container)."""
    port: int = Field(default=8000, ge=0, le=65535)
    local: bool = False
    """Local mode: a request without a key acts as the key ``tmk_local`` (the REST fork's keyless calls);
    only with a loopback ``host``, and only for loopback clients (:mod:`taumesh.api.local_mode`)."""
    workers: int = Field(default=1, ge=1)
    """uvicorn worker processes; they share the database and claim runs through leases."""
    log_level: str = "info"
    data_root: Path = DEFAULT_API_DIR
    """The API's own folder: the SQLite database by default."""
    log_dir: Path | None = None
    """Where the audit log goes; None: ``data_root``."""
    audit_log_name: str = Field(default="audit.jsonl", min_length=1, max_length=255, pattern=r"^[^/\\]+$")
    """The audit log's file name in ``log_dir`` (``tau-bench-server`` makes it the REST fork's ``api_audit.log``)."""
    database_url: str | None = None
    """SQLAlchemy URL (``postgresql+psycopg://…``); None: SQLite at ``data_root/taumesh-api.db``."""
    rate_limit: str = "120/minute"
    """Requests each API key may make (the ``limits`` notation: ``10/second``, ``1000 per hour``)."""
    auth_failure_limit: str = "30/minute"
    """Requests with a key that is not valid each client address may make; then 429 until the window frees."""
    rate_limit_storage: str = "memory://"
    """Where the limiters count (``limits`` storage URI; per worker with ``memory://``)."""
    allowed_agent_addresses: Annotated[list[str], NoDecode] = Field(default_factory=list)
    """host:port of external agents a request may name (``agent_address``); empty: none."""
    allowed_api_bases: Annotated[list[str], NoDecode] = Field(default_factory=list)
    """Model endpoints a request may name as ``api_base``/``user_api_base``; empty string always allowed."""
    data_dir: Path = Field(default_factory=taubench_v1_dir)
    """τ-bench data for the embedded services (the operator's choice, never a request's)."""
    env_addr: str | None = None
    user_addr: str | None = None
    agent_addr: str | None = None
    scorer_addr: str | None = None
    otlp_endpoint: str | None = None
    """OTLP/gRPC endpoint for traces and metrics (``OTEL_EXPORTER_OTLP_*`` also work); None and no variable: off."""
    lease_seconds: float = Field(default=30.0, gt=0)
    """How long a worker's claim on a run lasts without renewal; renewed every third of it."""
    poll_seconds: float = Field(default=2.0, gt=0)
    """How often a worker looks for queued or abandoned runs."""
    max_run_concurrency: int = Field(default=16, ge=1)
    """Upper bound of a request's ``max_concurrency``."""
    provider_limit: Annotated[ProviderLimits, NoDecode] = Field(default_factory=dict)
    """PROVIDER=N, comma-separated (``openai=40,anthropic=20``): model calls in flight to that provider over every
    run this worker process plays at once; its 429s narrow the window for a while. Empty: no cap."""
    results_dir: Path | None = None
    """Where each completed run's results file goes (``<run id>.json``, τ-bench's list); None: not written."""
    viewer_url: str | None = None
    """Base URL where ``taumesh view`` serves ``results_dir`` (given as the same path): runs then link to their page."""

    _split = field_validator("allowed_agent_addresses", "allowed_api_bases", mode="before")(_split_list)

    @model_validator(mode="after")
    def _viewer_needs_results(self) -> ApiSettings:
        if self.viewer_url and self.results_dir is None:
            raise ValueError(f"{API_ENV_PREFIX}VIEWER_URL needs {API_ENV_PREFIX}RESULTS_DIR (the folder it serves)")
        return self

    @model_validator(mode="after")
    def _local_only_on_loopback(self) -> ApiSettings:
        if self.local and not is_loopback_host(self.host):
            raise ValueError(
                f"local mode ({API_ENV_PREFIX}LOCAL, --local) answers without an API key, so it listens on loopback "
                f"only, and host {self.host!r} is not loopback: listen on 127.0.0.1 (--host 127.0.0.1), or leave "
                "local mode off and send a key from `taumesh api-keys create`"
            )
        return self

    @property
    def resolved_database_url(self) -> str:
        """The configured URL, or the SQLite file under ``data_root``."""
        return self.database_url or f"sqlite:///{self.data_root / 'taumesh-api.db'}"

    @property
    def audit_path(self) -> Path:
        return (self.log_dir or self.data_root) / self.audit_log_name

    @property
    def addresses(self) -> ServiceAddresses:
        """Configured service addresses; None: in-process."""
        return ServiceAddresses(env=self.env_addr, user=self.user_addr, agent=self.agent_addr, scorer=self.scorer_addr)
