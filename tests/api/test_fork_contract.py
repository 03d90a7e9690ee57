"""The τ-bench API fork's README calls, verbatim, against a real ``tau-bench-server`` with the compatibility client.

The README's base URL ``http://localhost:8000`` is replaced by the test server's loopback address, and where a
call would need a model this machine cannot reach, the oracle agent and the scripted user are added as keyword
arguments; nothing else differs. Every field the fork documents is checked with the fork's type. Then the
validation defects: each request below used to start a run (or answer 200), and now is refused before anything
runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from taumesh.api.caller import Caller
from taumesh.api.database import make_engine, migrate
from taumesh.api.store import Store
from tests.helpers.processes import free_port, wait_for_http

OFFLINE: dict[str, Any] = {"agent_strategy": "oracle", "user_strategy": "scripted"}
"""Added to the README's calls that would need a model."""
README_URL = "http://localhost:8000"


class ForkServer:
    """``tau-bench-server`` as the fork's README starts it, with its flags, on loopback."""

    def __init__(self, root: Path, data_dir: Path) -> None:
        self.root, self.port = root, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        store = Store(make_engine(f"sqlite:///{root / 'taumesh-api.db'}"))
        migrate(store.engine)
        self.store, self.token = store, store.create_key("fork")[1]
        env = {
            **os.environ,
            "TAUMESH_API_DATA_ROOT": str(root),
            "TAUMESH_API_DATA_DIR": str(data_dir),
            "TAUMESH_API_RATE_LIMIT": "200/minute",  # above what this module sends with its key, at any speed
            "WORKERS": "1",  # the fork's variable, beside its flags
        }
        env.pop("TAUMESH_API_LOG_DIR", None)
        env.pop("TAUMESH_API_AUDIT_LOG_NAME", None)
        script = Path(sys.executable).parent / "tau-bench-server"
        command = [str(script), "--host", "127.0.0.1", "--port", str(self.port), "--log-dir", str(root / "logs")]
        self.log = root / "server.log"
        self.process = subprocess.Popen(
            [*command, "--log-level", "warning"], env=env, stdout=self.log.open("wb"), stderr=subprocess.STDOUT
        )
        # a loaded machine (CI's workers and more) may take a minute
        wait_for_http(self.process, f"{self.url}/health", self.log, seconds=120, poll=0.2)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return httpx.post(f"{self.url}{path}", json=body, headers={"X-API-Key": self.token}, timeout=120)

    def run_count(self) -> int:
        return self.store.list_runs(Caller(key_id="", admin=True), 1, 0)[1]  # every run


@pytest.fixture(scope="module")
def server(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ForkServer]:
    """The module's server; the tests using it are marked slow (a process start and its runs take seconds)."""
    started = ForkServer(tmp_path_factory.mktemp("fork"), v1_data_dir)
    before = os.environ.get("TAUMESH_API_KEY")
    os.environ["TAUMESH_API_KEY"] = started.token  # the fork's client has no key argument
    try:
        yield started
    finally:
        started.stop()
        if before is None:
            os.environ.pop("TAUMESH_API_KEY", None)
        else:
            os.environ["TAUMESH_API_KEY"] = before


def readme(server: ForkServer, value: str) -> str:
    return value.replace(README_URL, server.url)


@pytest.mark.slow
def test_health_check(server: ForkServer) -> None:
    from tau_bench.api.client import TauBenchAPIClient

    # Initialize client
    client = TauBenchAPIClient(base_url=readme(server, "http://localhost:8000"))

    # Check health
    health = client.health_check()
    print(f"Service status: {health.status}")

    assert health.status == "healthy"
    raw = httpx.get(f"{server.url}/health").json()
    assert isinstance(raw["status"], str) and isinstance(raw["version"], str) and isinstance(raw["timestamp"], str)
    assert {"retail", "airline"} <= set(raw["supported_environments"])
    models = raw["supported_models"]
    assert isinstance(models, dict) and all(isinstance(v, list) for v in models.values())
    assert "gpt-4o" in models["openai"] and "gpt-4o-mini" in models["openai"]
    assert client.get_service_info()["endpoints"]["validate_tasks"] == "/api/v1/validate-tasks"


@pytest.mark.slow
def test_validate_tasks_as_documented(server: ForkServer) -> None:
    from tau_bench.api.client import TauBenchAPIClient

    client = TauBenchAPIClient(base_url=readme(server, "http://localhost:8000"))
    # Validate tasks
    response = client.validate_tasks(
        model_provider="openai", model="gpt-4o", env="retail", num_trials=2, start_index=0, end_index=5, **OFFLINE
    )

    print(f"Success rate: {response.metrics.success_rate:.2%}")
    assert response.metrics is not None and response.metrics.success_rate == 1.0
    raw = server.store.get_run(response.run_id)
    assert raw is not None and raw.status == "completed"
    body = httpx.post(
        f"{server.url}/api/v1/validate-tasks",
        json={
            "model_provider": "openai",
            "model": "gpt-4o",
            "env": "retail",
            "num_trials": 3,
            "agent_strategy": "oracle",
            "user_strategy": "scripted",
            "temperature": 0.0,
            "task_split": "test",
            "start_index": 0,
            "end_index": 4,
            "max_concurrency": 2,
        },
        headers={"X-API-Key": server.token},
        timeout=300,
    ).json()
    assert isinstance(body["request_id"], str) and body["status"] == "completed"
    assert isinstance(body["execution_time_seconds"], float) and isinstance(body["timestamp"], str)
    assert isinstance(body["config_used"], dict)
    for result in body["results"]:
        assert type(result["task_id"]) is int and type(result["trial"]) is int
        assert isinstance(result["reward"], float) and isinstance(result["success"], bool)
        assert isinstance(result["info"], dict)
    # task order, trial after trial (not the order the episodes ended in)
    assert [(r["trial"], r["task_id"]) for r in body["results"]] == [(k, t) for k in range(3) for t in range(4)]
    metrics = body["metrics"]
    assert (metrics["total_tasks"], metrics["successful_tasks"], metrics["failed_tasks"]) == (4, 4, 0)
    assert isinstance(metrics["success_rate"], float) and isinstance(metrics["average_reward"], float)
    assert metrics["total_episodes"] == 12


@pytest.mark.slow
def test_list_tasks_as_documented(server: ForkServer) -> None:
    from tau_bench.api.client import TauBenchAPIClient

    client = TauBenchAPIClient(base_url=readme(server, "http://localhost:8000"))
    listed = client.list_tasks(env="retail", task_split="test")
    assert listed.env == "retail" and listed.task_split == "test" and listed.total_tasks == 115
    raw = server.post("/api/v1/list-tasks", {"env": "retail", "task_split": "test"}).json()
    assert type(raw["total_tasks"]) is int and isinstance(raw["tasks"], list)
    first = raw["tasks"][0]
    assert type(first["task_id"]) is int and first["task_id"] == 0 and isinstance(first["user_id"], str)
    assert isinstance(first["instruction_preview"], str) and type(first["num_actions"]) is int


@pytest.mark.slow
def test_convenience_functions(server: ForkServer) -> None:
    from tau_bench.api.client import quick_validate, validate_with_comparison

    base_url = readme(server, "http://localhost:8000")
    # Quick validation
    result = quick_validate(
        model_provider="openai", model="gpt-4o", env="airline", num_trials=1, base_url=base_url, end_index=4, **OFFLINE
    )
    assert result.status == "completed" and [r.task_id for r in result.results] == [0, 1, 2, 3]

    # Compare multiple models
    models = [
        {"provider": "openai", "model": "gpt-4o"},
        {"provider": "anthropic", "model": "claude-3-5-sonnet-20241022"},
    ]

    results = validate_with_comparison(
        models=models, env="retail", num_trials=2, base_url=base_url, end_index=3, **OFFLINE
    )
    assert [r.config_used["model_provider"] for r in results] == ["openai", "anthropic"]
    assert all(r.metrics is not None and r.metrics.total_tasks == 3 for r in results)

    # an env taumesh does not have: 404, before anything runs (the README's "healthcare" is a domain now)
    from taumesh.client import NotFoundError

    with pytest.raises(NotFoundError):
        validate_with_comparison(models=models, env="no-such-env", num_trials=2, base_url=base_url, **OFFLINE)


@pytest.mark.slow
def test_the_three_documented_error_shapes(server: ForkServer) -> None:
    unauthenticated = httpx.post(f"{server.url}/api/v1/validate-tasks", json={"env": "retail"})
    assert unauthenticated.status_code == 401
    error = unauthenticated.json()
    assert error["error_type"] == "authentication_error"
    assert isinstance(error["message"], str) and isinstance(error["timestamp"], str)

    invalid = server.post(
        "/api/v1/validate-tasks", {"model_provider": "invalid_provider", "model": "gpt-4o", "env": "retail"}
    )
    assert invalid.status_code == 422
    error = invalid.json()
    assert error["error_type"] == "validation_error" and error["details"]["provider"] == "invalid_provider"
    assert "Invalid model provider" in error["message"] and isinstance(error["timestamp"], str)

    # a key of its own goes over the limit (the other tests' key keeps its window), however fast the machine is
    own = {"X-API-Key": server.store.create_key("limited")[1]}
    with httpx.Client(headers=own) as limited_key, ThreadPoolExecutor(8) as pool:  # one client: no TLS setup per call
        answers = list(pool.map(lambda _: limited_key.get(f"{server.url}/api/v1/runs"), range(220)))
    limited = [answer for answer in answers if answer.status_code == 429]
    assert len(limited) == 20, "200 of 220 requests within a minute answered, the others 429"
    error = limited[0].json()
    assert error["error_type"] == "rate_limit_error" and isinstance(error["message"], str)
    assert isinstance(error["retry_after"], (int, float)) and isinstance(error["timestamp"], str)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"model_provider": "openai", "model": "gpt-4o"}, "env"),
        ({"env": "retail", "model_provider": "invalid_provider", "model": "gpt-4o"}, "model_provider"),
        ({"env": "retail", "model_provider": "openai", "model": "no-such-model-xyz"}, "model"),
        ({"env": "retail", **OFFLINE, "user_strategy": "llm", "user_model": "no-such-model-xyz"}, "user_model"),
        ({"env": "retail", **OFFLINE, "task_ids": [-1]}, "task_ids"),
        ({"env": "retail", **OFFLINE, "task_ids": [115]}, "task_ids"),
        ({"env": "retail", **OFFLINE, "start_index": 5, "end_index": 3}, "end_index"),
        ({"env": "retail", **OFFLINE, "start_index": 500}, "start_index"),
        ({"env": "retail", **OFFLINE, "seed": 2**70}, "seed"),
        ({"env": "retail", **OFFLINE, "num_trials": 0}, "num_trials"),
    ],
)
@pytest.mark.slow
def test_invalid_bodies_are_refused_before_anything_runs(server: ForkServer, body: dict[str, Any], field: str) -> None:
    runs = server.run_count()
    for wait in (True, False):
        answer = server.post("/api/v1/validate-tasks", {**body, "wait": wait})
        assert answer.status_code == 422, answer.text
        error = answer.json()
        assert error["error_type"] == "validation_error"
        named = [e["loc"][-1] for e in error["details"]["errors"]] + list(error["details"])
        assert field in named or any(field in str(e["loc"]) for e in error["details"]["errors"]), error
    assert server.run_count() == runs


@pytest.mark.slow
def test_unknown_provider_and_model_are_named_in_details(server: ForkServer) -> None:
    error = server.post("/api/v1/validate-tasks", {"env": "retail", "model": "gpt-5-nonexistent"}).json()
    assert error["details"]["model"] == "gpt-5-nonexistent" and error["details"]["provider"] == "openai"
    error = server.post("/api/v1/validate-tasks", {"env": "retail", **OFFLINE, "user_model_provider": "nobody"}).json()
    assert error["details"]["provider"] == "nobody"


@pytest.mark.slow
def test_a_model_behind_its_own_endpoint_or_a_self_hosted_provider_is_not_checked_against_a_list() -> None:
    from taumesh.api.runs import check_models
    from taumesh.api.schemas import ValidateTasksRequest

    check_models(ValidateTasksRequest(env="retail", model="my-finetune", api_base="http://127.0.0.1:9/v1"))
    check_models(ValidateTasksRequest(env="retail", model="Qwen/Qwen2.5-7B", model_provider="hosted_vllm"))
    check_models(ValidateTasksRequest(env="retail", model="openai/gpt-4o"))


@pytest.mark.slow
def test_an_unknown_env_is_not_found_on_both_routes(server: ForkServer) -> None:
    runs = server.run_count()
    for path in ("/api/v1/validate-tasks", "/api/v1/list-tasks"):
        answer = server.post(path, {"env": "atlantis", **({} if "list" in path else OFFLINE)})
        assert answer.status_code == 404 and answer.json()["error_type"] == "not_found", answer.text
    split = server.post("/api/v1/validate-tasks", {"env": "retail", "task_split": "nope", **OFFLINE})
    assert split.status_code == 404 and split.json()["details"]["resource"] == "split"
    missing = server.post("/api/v1/list-tasks", {"task_split": "test"})
    assert missing.status_code == 422
    assert server.run_count() == runs


@pytest.mark.slow
def test_the_audit_log_has_the_forks_name(server: ForkServer) -> None:
    audit = server.root / "logs" / "api_audit.log"
    assert audit.is_file() and '"route":"/health"' in audit.read_text()
    assert not (server.root / "logs" / "audit.jsonl").exists()


def test_bad_flags_are_a_clear_error(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "tau-bench-server"
    done = subprocess.run([str(script), "--port", "eighty"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--port" in done.stderr and "Traceback" not in done.stderr
    env = {**os.environ, "WORKERS": "0"}
    done = subprocess.run([str(script)], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2 and "--workers" in done.stderr
