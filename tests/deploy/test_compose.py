"""docker-compose.yml and its external-agent overlay: valid for Docker Compose v2, wired as the code expects."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from taumesh.api.routes.health import router as health_router
from taumesh.api.settings import API_ENV_PREFIX, ApiSettings
from taumesh.commands.api import GRACEFUL_SHUTDOWN_SECONDS
from taumesh.commands.health import SERVICE_NAMES
from taumesh.data import CACHE_DIR_ENV
from taumesh.settings import ServeSettings
from tests.helpers.deploy import ROOT, RUN_AND_SERVE_ENV, view_parameters, viewer_status

BASE = ROOT / "docker-compose.yml"
OVERLAY = ROOT / "docker-compose.external-agent.yml"
SERVERS = ("env", "user-sim", "agent", "scorer")
PORT = ServeSettings.model_fields["port"].default
EXTRA_TAUMESH_ENV = {"TAUMESH_JAEGER_URL", CACHE_DIR_ENV}
"""TAUMESH_* variables read outside the settings models (telemetry links, the data cache)."""
JSON_CONFIG = ("config", "--format", "json")
API_ENV = {API_ENV_PREFIX + field.upper() for field in ApiSettings.model_fields}
"""Every TAUMESH_API_* variable the REST API reads."""
HEALTH_PATH: str = next(path for route in health_router.routes if (path := getattr(route, "path", "")) == "/health")
VIEWER_PORT = 8765


def render(compose: list[str], *files: Path, profiles: tuple[str, ...] = (), **env: str) -> dict[str, Any]:
    """``docker compose config`` of ``files`` as JSON, with ``env`` as the only settings (no .env, no shell)."""
    arguments = [arg for file in files for arg in ("-f", str(file))]
    arguments += [arg for profile in profiles for arg in ("--profile", profile)]
    prefixes = ("TAUMESH_", "OTEL_", "EXTERNAL_", "JAEGER_", "API_", "VIEWER_", "POSTGRES_")
    clean = {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}
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
    assert set(services) == {"data", *SERVERS, "jaeger", "orchestrator", "api"}  # postgres, viewer: profiles
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
        known = RUN_AND_SERVE_ENV | EXTRA_TAUMESH_ENV | (API_ENV if name == "api" else set())
        assert names <= known, (name, names - known)
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


def _api_settings(environment: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> ApiSettings:
    """ApiSettings as the API container loads them from ``environment``."""
    for name in [n for n in os.environ if n.startswith(API_ENV_PREFIX)]:
        monkeypatch.delenv(name)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    return ApiSettings()


def _http_probe(service: dict[str, Any]) -> str:
    """The URL an HTTP health check (``python -m taumesh.commands.health --http URL``) asks."""
    test = service["healthcheck"]["test"]
    assert test[:5] == ["CMD", "python", "-m", "taumesh.commands.health", "--http"], test
    return str(test[5])


def test_api_reaches_the_services_and_is_probed_on_health(compose: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    services = render(compose, BASE)["services"]
    api = services["api"]
    assert api["command"] == ["serve", "api"]
    assert api["read_only"] is True and api["cap_drop"] == ["ALL"]
    env = api["environment"]
    for setting, target in (("ENV", "env"), ("USER", "user-sim"), ("AGENT", "agent"), ("SCORER", "scorer")):
        match = re.fullmatch(r"dns:///([\w-]+):(\d+)", env[f"TAUMESH_API_{setting}_ADDR"])
        assert match and match.groups() == (target, str(PORT)), env[f"TAUMESH_API_{setting}_ADDR"]
        assert api["depends_on"][target]["condition"] == "service_healthy"
    assert api["depends_on"]["postgres"]["required"] is False
    settings = _api_settings(env, monkeypatch)  # the defaults load (empty database URL: SQLite)
    assert settings.host == "0.0.0.0"
    assert _http_probe(api) == f"http://127.0.0.1:{settings.port}{HEALTH_PATH}"
    assert [(p["target"], p["published"]) for p in api["ports"]] == [(settings.port, "8000")]
    assert settings.database_url == "" and settings.resolved_database_url.startswith("sqlite:///")
    assert settings.viewer_url == "" and settings.allowed_agent_addresses == []
    mounts = {Path(v["target"]): v["source"] for v in api["volumes"]}
    for written in (settings.data_root, settings.audit_path, settings.results_dir):
        assert written is not None and any(written.is_relative_to(target) for target in mounts), written
    assert settings.results_dir is not None and settings.results_dir.is_relative_to(Path("/results"))
    assert mounts[Path("/results")] == "results"
    assert int(api["stop_grace_period"].removesuffix("s")) > GRACEFUL_SHUTDOWN_SECONDS


def test_api_options_come_from_the_environment(compose: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    url = "postgresql+psycopg://taumesh:secret@postgres:5432/taumesh_api"
    rendered = render(
        compose,
        BASE,
        TAUMESH_API_DATABASE_URL=url,
        TAUMESH_API_VIEWER_URL="http://localhost:8765",
        TAUMESH_API_ALLOWED_AGENT_ADDRESSES="agent.example:50051,other:1",
        API_PORT="9000",
    )
    api = rendered["services"]["api"]
    settings = _api_settings(api["environment"], monkeypatch)
    assert settings.resolved_database_url == url
    assert settings.viewer_url == "http://localhost:8765"
    assert settings.allowed_agent_addresses == ["agent.example:50051", "other:1"]
    assert api["ports"][0]["published"] == "9000"


def test_postgres_and_viewer_are_behind_profiles(compose: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    services = render(compose, BASE, profiles=("postgres", "viewer"))["services"]
    postgres = services["postgres"]
    assert postgres["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    assert postgres["environment"]["POSTGRES_DB"] == "taumesh_api"
    viewer = services["viewer"]
    assert viewer["image"] == services["api"]["image"] and viewer.get("entrypoint") is None  # the image's `taumesh`
    assert viewer["read_only"] is True and viewer["cap_drop"] == ["ALL"]
    view = view_parameters(viewer["command"])
    assert (view["paths"], view["host"], view["port"]) == ([Path("/results")], "0.0.0.0", VIEWER_PORT)
    probe = urlsplit(_http_probe(viewer))
    assert (probe.hostname, probe.port) == ("127.0.0.1", VIEWER_PORT)
    assert viewer_status(probe.path) == 200  # a route the viewer serves, and one that reads no file
    assert [(p["target"], p["published"]) for p in viewer["ports"]] == [(VIEWER_PORT, "8765")]
    assert all(v["read_only"] for v in viewer["volumes"])
    # the viewer sees the API's results files at the path the API wrote them (a run's page id hashes that path)
    viewer_mounts = {v["target"]: v["source"] for v in viewer["volumes"]}
    api_mounts = {v["target"]: v["source"] for v in services["api"]["volumes"]}
    assert viewer_mounts["/results"] == api_mounts["/results"] == "results"
    settings = _api_settings(services["api"]["environment"], monkeypatch)
    assert settings.results_dir is not None and settings.results_dir.is_relative_to(Path("/results"))


def test_overlay_points_the_api_at_the_external_agent(compose: list[str]) -> None:
    rendered = render(compose, BASE, OVERLAY, EXTERNAL_AGENT_IMAGE="example/agent:1", EXTERNAL_AGENT_PORT="50060")
    api = rendered["services"]["api"]
    assert api["environment"]["TAUMESH_API_AGENT_ADDR"] == "dns:///external-agent:50060"
    assert "agent" not in api["depends_on"]
    assert api["depends_on"]["external-agent"]["condition"] == "service_started"


def test_user_sim_reads_the_fetched_tau2_data(compose: list[str]) -> None:
    """A τ² run with a model-played user needs τ²'s user guidelines in the user-sim: the `data` volume, once fetched."""
    services = render(compose, BASE)["services"]
    user_sim = services["user-sim"]
    assert user_sim["depends_on"]["data"]["condition"] == "service_completed_successfully"
    (mount,) = [v for v in user_sim["volumes"] if v["source"] == "data"]
    (fetched,) = [v for v in services["data"]["volumes"] if v["source"] == "data"]
    assert mount["target"] == fetched["target"] == "/data" and mount["read_only"] is True
    assert re.search(rf"^\s*{CACHE_DIR_ENV}=/data\b", (ROOT / "Dockerfile").read_text(encoding="utf-8"), re.M)
