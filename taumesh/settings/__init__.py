"""The settings of ``taumesh run`` and ``taumesh serve``: one pydantic-settings model per command.

Each setting comes from, highest precedence first: a flag given on the command line, a ``TAUMESH_<NAME>``
environment variable, the ``--config FILE.yaml`` file, then the model's default. Field names are the flags' names
(τ-bench's spellings with underscores), so ``--max-concurrency 8``, ``TAUMESH_MAX_CONCURRENCY=8`` and
``max_concurrency: 8`` in the file all set the same field.

This package belongs to the application layer beside the CLI: it builds the orchestrator's :class:`RunConfig`.
``run``'s settings (:class:`RunSettings`, :func:`load_run_settings`, :func:`ungrouped`) live in :mod:`._run` and are
imported on first use, so ``taumesh serve`` (started hundreds of times by the tests) loads no orchestrator options.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, TypeVar, cast

from pydantic import Field, SecretStr, ValidationError
from pydantic_core import ErrorDetails
from pydantic_settings import (
    BaseSettings,
    InitSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from taumesh.config_files import RunFileError, read_settings_file
from taumesh.data import taubench_v1_dir
from taumesh.flags import Flag
from taumesh.llm.knowledge_models import KnowledgeModels
from taumesh.rpc.security import SecurityError, ServerSecurity, read_token
from taumesh.services.env.sessions import DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_SESSIONS

if TYPE_CHECKING:
    from taumesh.settings._run import RunSettings, load_run_settings, ungrouped

__all__ = [
    "ENV_PREFIX",
    "KnowledgeModels",
    "RunSettings",
    "ServeSettings",
    "ServiceName",
    "Settings",
    "SettingsError",
    "TaumeshSettings",
    "load_run_settings",
    "load_settings",
    "ungrouped",
]

ENV_PREFIX = "TAUMESH_"
_RUN_NAMES = frozenset({"RunSettings", "load_run_settings", "ungrouped"})


class SettingsError(ValueError):
    """Settings that cannot be used; each line of the message names a setting and where it came from."""


class TaumeshSettings(BaseSettings):
    """Flags (init kwargs) > ``TAUMESH_*`` environment > the ``--config`` file's values > defaults."""

    file_values: ClassVar[dict[str, Any]] = {}
    """The ``--config`` file's settings (:func:`load_settings` sets them on a subclass per load)."""

    help_panels: ClassVar[dict[str, tuple[str, ...]]] = {}
    """``--help``'s panels, in order, each with its fields in order; empty: one list in the fields' order.

    Declared once per model; a model that declares panels must place every field in exactly one (the command's
    options are generated from them: :func:`taumesh.commands._options.settings_options`).
    """

    # "__" reaches into a nested setting (TAUMESH_A__B); today's settings are flat, like τ-bench's flags
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_nested_delimiter="__", extra="forbid", use_attribute_docstrings=True
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        file_values = cast(type[TaumeshSettings], settings_cls).file_values
        return init_settings, env_settings, InitSettingsSource(settings_cls, dict(file_values))

    @classmethod
    def env_name(cls, field: str) -> str:
        """The environment variable that sets ``field``."""
        return f"{ENV_PREFIX}{field.upper()}"


class ServiceName(StrEnum):
    """The services ``taumesh serve`` can run."""

    env = "env"
    user_sim = "user-sim"
    agent = "agent"
    scorer = "scorer"


class ServeSettings(KnowledgeModels, TaumeshSettings):
    """Every option of ``taumesh serve``: a container can set them all through the environment."""

    service: Annotated[ServiceName, Flag(positional=True)]
    """Which service to run."""
    host: str = "127.0.0.1"
    """Address to listen on: loopback by default, 0.0.0.0 in a container."""
    port: int = Field(default=50051, ge=0, le=65535)
    """Port to listen on (0: any free port)."""
    data_dir: Path = Field(default_factory=taubench_v1_dir)
    """τ-bench data: a folder per domain."""
    otlp_endpoint: str | None = None
    """OTLP/gRPC endpoint for traces and metrics (or OTEL_EXPORTER_OTLP_*)."""
    session_idle_timeout: float = Field(default=DEFAULT_IDLE_TIMEOUT, gt=0)
    """env: seconds an unused session lives before it is reaped (a killed orchestrator's sessions too)."""
    max_sessions: int = Field(default=DEFAULT_MAX_SESSIONS, ge=1)
    """env: open sessions at most (more: RESOURCE_EXHAUSTED, reason SESSION_LIMIT)."""
    max_sessions_per_run: int | None = Field(default=None, ge=1)
    """env: open sessions of one run at most (OpenSessionRequest.run_id; more: RESOURCE_EXHAUSTED, reason
    RUN_SESSION_LIMIT); unset: no per-run cap."""
    max_connection_age: float = Field(default=30.0, ge=0, le=86_400)
    """Seconds after which a client's connection is closed (calls in flight finish), so clients re-resolve the
    service's name and spread calls over replicas added since (a scale-up); 0: never."""
    user_reply_cpu_ms: float = Field(default=0.0, ge=0, le=60_000)
    """user-sim: CPU ms each reply burns (load simulation for capacity planning)."""
    user_reply_latency_ms: float = Field(default=0.0, ge=0, le=600_000)
    """user-sim: ms each reply waits (simulated model latency)."""
    agent_reply_latency_ms: float = Field(default=0.0, ge=0, le=600_000)
    """agent: ms each NextMessage waits (simulated model latency)."""
    tls_cert: Path | None = None
    """PEM certificate chain; with --tls-key the service speaks TLS only."""
    tls_key: Path | None = None
    """PEM private key of --tls-cert."""
    tls_client_ca: Path | None = None
    """PEM CA that clients' certificates must chain to (mutual TLS)."""
    token_file: Path | None = None
    """File holding a shared token that every call but health checks must send as 'authorization: Bearer <token>'."""
    token: Annotated[SecretStr | None, Flag(parse_as=str | None)] = None
    """The shared token; prefer --token-file or the environment (a flag shows in the process list)."""

    def security(self) -> ServerSecurity:
        """The TLS and token checks these settings ask for; :class:`SecurityError` names what does not fit."""
        try:
            return ServerSecurity(
                tls_cert=self.tls_cert,
                tls_key=self.tls_key,
                tls_client_ca=self.tls_client_ca,
                token=read_token(self.token_file, self.token),
            )
        except ValidationError as exc:
            raise SecurityError("; ".join(e["msg"].removeprefix("Value error, ") for e in exc.errors())) from exc


Settings = TypeVar("Settings", bound=TaumeshSettings)


def load_settings(
    settings_cls: type[Settings],
    flags: Mapping[str, Any],
    config_file: Path | None,
    file_values: Mapping[str, Any] | None = None,
) -> Settings:
    """``settings_cls`` from ``flags`` (only those given on the command line), the environment and ``config_file``.

    ``file_values``: the file's settings already read (one run of an MT-form file); None reads ``config_file``.
    Raises :class:`SettingsError` naming each bad setting and where it came from (flag, variable or file).
    """
    if file_values is None:
        try:
            file_values = read_settings_file(config_file) if config_file is not None else {}
        except RunFileError as exc:
            raise SettingsError(str(exc)) from exc
    # The file is chosen at run time: a subclass per call carries its values.
    with_file = type(settings_cls.__name__, (settings_cls,), {"file_values": dict(file_values)})
    try:
        return cast(Settings, with_file(**flags))
    except ValidationError as exc:
        problems = [_describe(error, settings_cls, flags, config_file) for error in exc.errors()]
        raise SettingsError("\n".join(problems)) from exc


def _describe(
    error: ErrorDetails, settings_cls: type[TaumeshSettings], flags: Mapping[str, Any], config_file: Path | None
) -> str:
    """One line: where the bad setting came from, its name, and what is wrong with it."""
    if not error["loc"]:  # a rule between settings (resolve_defaults)
        return str(error["msg"]).removeprefix("Value error, ")
    field = str(error["loc"][0])
    path = ".".join(str(part) for part in error["loc"])
    if error["type"] == "extra_forbidden":  # only the file can hold keys that are not fields
        close = difflib.get_close_matches(field, settings_cls.model_fields, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"{config_file}: unknown setting {field!r}{hint}"
    if error["type"] == "missing":
        return (
            f"{field} is not set: give it on the command line, as {settings_cls.env_name(field)} "
            "or in the --config file"
        )
    problem = f"{error['msg']} (got {error['input']!r})"
    if field in flags:
        return f"--{field.replace('_', '-')}: {problem}"
    env_name = settings_cls.env_name(field)
    if any(name.upper() == env_name for name in os.environ):
        return f"{env_name}: {problem}"
    return f"{config_file}: {path}: {problem}"


def __getattr__(name: str) -> object:
    """``run``'s settings, imported when first asked for (PEP 562): they pull in the orchestrator's options."""
    if name in _RUN_NAMES:
        from taumesh.settings import _run

        value = getattr(_run, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
