"""docker-compose.yml and its external-agent overlay: valid for Docker Compose v2, wired as the code expects."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from taumesh.commands.health import SERVICE_NAMES
from taumesh.data import CACHE_DIR_ENV
from taumesh.settings import ServeSettings

from .conftest import ROOT, RUN_AND_SERVE_ENV

BASE = ROOT / "docker-compose.yml"
OVERLAY = ROOT / "docker-compose.external-agent.yml"
SERVERS = ("env", "user-sim", "agent", "scorer")
PORT = ServeSettings.model_fields["port"].default
EXTRA_TAUMESH_ENV = {"TAUMESH_JAEGER_URL", CACHE_DIR_ENV}
"""TAUMESH_* variables read outside the settings models (telemetry links, the data cache)."""
JSON_CONFIG = ("config", "--format", "json")


def render(compose: list[str], *files: Path, **env: str) -> dict[str, Any]:
    """``docker compose config`` of ``files`` as JSON, with ``env`` as the only settings (no .env, no shell)."""
    arguments = [arg for file in files for arg in ("-f", str(file))]
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("TAUMESH_", "OTEL_", "EXTERNAL_", "JAEGER_"))}
    done = subprocess.run(
        [*compose, "--project-directory", str(ROOT), "--env-file", os.devnull, *arguments, *JSON_CONFIG],
        capture_output=True,
        text=True,
        env={**clean, **env},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rendered: dict[str, Any] = json.loads(done.stdout)
    return rendered


def test_base_and_overlay_pass_config_quiet(compose: list[str]) -> None:
    for files in ([BASE], [BASE, OVERLAY]):
        arguments = [arg for file in files for arg in ("-f", str(file))]
        done = subprocess.run(
            [*compose, "--env-file", os.devnull, *arguments, "config", "-q"],
            capture_output=True,
            text=True,
            env={**os.environ, "EXTERNAL_AGENT_IMAGE": "example/agent:1"},
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr


def test_overlay_requires_the_external_image(compose: list[str]) -> None:
    arguments = ["-f", str(BASE), "-f", str(OVERLAY)]
    env = {k: v for k, v in os.environ.items() if k != "EXTERNAL_AGENT_IMAGE"}
    done = subprocess.run(
        [*compose, "--env-file", os.devnull, *arguments, "config", "-q"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert "EXTERNAL_AGENT_IMAGE" in done.stderr


def test_run_waits_for_healthy_services_and_fetched_data(compose: list[str]) -> None:
    services = render(compose, BASE)["services"]
    assert set(services) == {"data", *SERVERS, "jaeger", "orchestrator"}
    needs = services["orchestrator"]["depends_on"]
    assert {name: needs[name]["condition"] for name in SERVERS} == dict.fromkeys(SERVERS, "service_healthy")
    for name in ("env", "agent", "scorer"):
        assert services[name]["depends_on"]["data"]["condition"] == "service_completed_successfully"
    assert services["data"]["command"] == ["data", "fetch", "tau2"]
    assert services["orchestrator"]["command"] == ["run"]
    assert any(v["target"] == "/results" and v["source"] == "results" for v in services["orchestrator"]["volumes"])


def test_services_are_configured_by_environment_as_the_code_reads_it(compose: list[str]) -> None:
    services = render(compose, BASE)["services"]
    for name in SERVERS:
        service = services[name]
        assert service["command"] == ["serve"]
        assert service["environment"]["TAUMESH_SERVICE"] == name
        check = service["healthcheck"]["test"]
        assert check[:4] == ["CMD", "python", "-m", "taumesh.commands.health"]
        assert check[check.index("--service") + 1] in SERVICE_NAMES
        assert service["read_only"] is True and service["cap_drop"] == ["ALL"]
    for name, service in services.items():
        names = {key for key in service.get("environment", {}) if key.startswith("TAUMESH_")}
        assert names <= RUN_AND_SERVE_ENV | EXTRA_TAUMESH_ENV, (name, names - RUN_AND_SERVE_ENV - EXTRA_TAUMESH_ENV)
    run_env = services["orchestrator"]["environment"]
    for setting, target in (("ENV", "env"), ("USER", "user-sim"), ("AGENT", "agent"), ("SCORER", "scorer")):
        match = re.fullmatch(r"dns:///([\w-]+):(\d+)", run_env[f"TAUMESH_{setting}_ADDR"])
        assert match, run_env[f"TAUMESH_{setting}_ADDR"]
        assert match.groups() == (target, str(PORT))
    assert run_env["OTEL_EXPORTER_OTLP_ENDPOINT"] == "http://jaeger:4317"
    published = {port["target"] for port in services["jaeger"]["ports"]}
    assert published == {4317, 16686}


def test_user_sim_replicas_come_from_the_environment(compose: list[str]) -> None:
    assert render(compose, BASE)["services"]["user-sim"]["deploy"]["replicas"] == 2
    rendered = render(compose, BASE, TAUMESH_USER_SIM_REPLICAS="5")
    assert rendered["services"]["user-sim"]["deploy"]["replicas"] == 5


def test_overlay_replaces_the_builtin_agent(compose: list[str]) -> None:
    rendered = render(compose, BASE, OVERLAY, EXTERNAL_AGENT_IMAGE="example/agent:1", EXTERNAL_AGENT_PORT="50060")
    services = rendered["services"]
    assert "agent" not in services  # behind a profile: not started
    assert services["external-agent"]["image"] == "example/agent:1"
    orchestrator = services["orchestrator"]
    assert orchestrator["environment"]["TAUMESH_AGENT_ADDR"] == "dns:///external-agent:50060"
    assert "agent" not in orchestrator["depends_on"]
    assert orchestrator["depends_on"]["external-agent"]["condition"] == "service_started"


def test_env_example_names_every_variable_the_compose_files_read() -> None:
    example = {
        line.lstrip("# ").split("=", 1)[0]
        for line in (ROOT / ".env.example").read_text().splitlines()
        if re.match(r"#? ?[A-Z][A-Z0-9_]*=", line)
    }
    used = set()
    for file in (BASE, OVERLAY):
        used |= set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", file.read_text()))
    assert used <= example, used - example


def test_env_file_is_never_committed() -> None:
    assert ".env" in (ROOT / ".gitignore").read_text().splitlines()
    tracked = subprocess.run(["git", "ls-files", ".env"], cwd=ROOT, capture_output=True, text=True, check=False)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    assert tracked.stdout.strip() == ""
