"""The environment a test sees: its own HOME and taumesh cache (never the user's), and no OpenTelemetry settings.

A test process (and every process a test starts, which inherits its environment) gets a temporary HOME, XDG folders
and ``TAUMESH_CACHE_DIR``, so nothing the user imported (a fork, τ-bench's prompts, another data release) changes a
test's outcome. What the test command itself provides in the user's cache (:data:`PROVIDED`) is linked into each
temporary cache, so the tests that need τ² data still find it where taumesh looks.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from taumesh.data import CACHE_DIR_ENV, V1_DATA_DIR_ENV, cache_dir

OTEL_VARIABLES = (
    "OTEL_SDK_DISABLED",
    "OTEL_SERVICE_NAME",
    "OTEL_RESOURCE_ATTRIBUTES",
    "OTEL_TRACES_EXPORTER",
    "OTEL_METRICS_EXPORTER",
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
    "OTEL_EXPORTER_OTLP_HEADERS",
    "OTEL_EXPORTER_OTLP_PROTOCOL",
    "OTEL_TRACES_SAMPLER",
    "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT",
    "OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SERVER_REQUEST",
)

USER_CACHE_ENV = "TAUMESH_TESTS_USER_CACHE"
"""The user's taumesh cache as the test run found it, before any isolation. Set by the first pytest process and
inherited by its xdist workers (and any pytest a test starts), which isolate again from the same user cache."""
PROVIDED = ("tau2", "bench/tau2-venv")
"""What the tests may use from the user's cache, linked into each test process's cache when present: τ²'s data
(``taumesh data fetch tau2``, which scripts/test.sh runs before pytest) and the bench's τ² venv (bench/tau2_replay.py
installs it). Nothing else there (forks, τ-bench v1 imports, audits, shell folders) is seen by a test."""
ISOLATED = (
    "HOME",
    "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_STATE_HOME",
    CACHE_DIR_ENV,
    V1_DATA_DIR_ENV,
    USER_CACHE_ENV,
)
"""Every variable :func:`isolate` sets or clears (``TAUMESH_DATA_DIR`` names the user's own τ-bench v1 folder)."""


@dataclass(frozen=True)
class Isolation:
    """A test process's own HOME and cache, and the environment it replaced."""

    root: Path
    user_cache: Path
    """The user's cache, which the tests never see but through the links of :data:`PROVIDED`."""
    replaced: dict[str, str | None]

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def cache(self) -> Path:
        return self.root / "cache"


def isolate() -> Isolation:
    """Point HOME, the XDG folders and ``TAUMESH_CACHE_DIR`` of this process at a new temporary folder.

    The user's cache is the one :data:`USER_CACHE_ENV` names when a parent pytest set it, else where taumesh would
    look now (``$TAUMESH_CACHE_DIR``, else ``~/.cache/taumesh``). Undo with :func:`restore`.
    """
    user_cache = Path(os.environ.get(USER_CACHE_ENV) or cache_dir())
    isolation = Isolation(
        Path(tempfile.mkdtemp(prefix="taumesh-tests-")), user_cache, {name: os.environ.get(name) for name in ISOLATED}
    )
    home = isolation.home
    for folder in (home / ".cache", home / ".config", home / ".local" / "share", home / ".local" / "state"):
        folder.mkdir(parents=True)
    isolation.cache.mkdir()
    for relative in PROVIDED:
        source, link = user_cache / relative, isolation.cache / relative
        if source.exists():
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(source, target_is_directory=True)
    os.environ.pop(V1_DATA_DIR_ENV, None)
    os.environ.update(
        {
            "HOME": str(home),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_STATE_HOME": str(home / ".local" / "state"),
            CACHE_DIR_ENV: str(isolation.cache),
            USER_CACHE_ENV: str(user_cache),
        }
    )
    return isolation


def restore(isolation: Isolation) -> None:
    """Put back the environment :func:`isolate` replaced and remove its folder (links removed, never followed)."""
    for name, value in isolation.replaced.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    shutil.rmtree(isolation.root, ignore_errors=True)
