"""Runs to view: an oracle run made through the CLI, a copy edited to fail in known ways, and the served viewer."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import PROJECT_ROOT
from tests.orchestrator import test_tau2_user_tool_calls

TASKS = ["0", "1", "2", "3", "4", "5"]
TRIALS = 3
AGENT_COST, USER_COST = 0.01, 0.002
"""What every episode of the failing run costs (the oracle's costs nothing)."""
INCONSISTENT_TASK = "1"
"""Failed in trials 0 and 1, passed in trial 2."""
DIVERGING_TASK = "2"
"""Failed in every trial: its second tool call's arguments were changed."""
DIVERGING_STEP = 1
ERROR_TASK = "3"
"""Trial 0 is an infrastructure error (in the errors file)."""
TELECOM_TASKS = test_tau2_user_tool_calls.TASKS
"""τ² telecom tasks whose user calls its own tools (the orchestrator's tests of them play the same)."""

VIEW_COMMAND = [sys.executable, "-c", "import typer; from taumesh.commands.view import view; typer.run(view)"]
"""``taumesh view`` (the command function itself, until the CLI registers it)."""


def output_dir() -> Path:
    """Where test artefacts (screenshots, reports) go: ``$TAUMESH_TEST_OUTPUT/viewer`` or tests/output/viewer."""
    root = Path(os.environ.get("TAUMESH_TEST_OUTPUT") or PROJECT_ROOT / "tests" / "output")
    path = root / "viewer"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def oracle_run(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real run: the oracle agent and scripted user on 6 retail tasks, 3 trials, through ``taumesh run``."""
    log_dir = tmp_path_factory.mktemp("oracle")
    command = ["taumesh", "run", "--env", "retail", "--agent-strategy", "oracle", "--user-strategy", "scripted"]
    command += ["--data-dir", str(v1_data_dir), "--task-ids", *TASKS, "--num-trials", str(TRIALS)]
    command += ["--max-concurrency", "4", "--log-dir", str(log_dir), "--quiet", "--output-format", "both"]
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    subprocess.run(command, check=True, env=env, capture_output=True, timeout=300)
    (results,) = [p for p in log_dir.glob("*.json") if not p.name.endswith(".tau2.json")]
    return results


@pytest.fixture(scope="session")
def telecom_run(tau2_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The log folder of a real τ² telecom run in both layouts, whose user calls its own tools (its phone's): the
    oracle agent and the scripted user on :data:`TELECOM_TASKS`, through ``taumesh run``."""
    from tests.domains.tau2.conftest import tau2_domain

    ids = [str(i) for i, task in enumerate(tau2_domain("telecom").tasks("small")) if task.id in TELECOM_TASKS]
    log_dir = tmp_path_factory.mktemp("telecom")
    command = ["taumesh", "run", "--env", "tau2-telecom", "--task-split", "small", "--task-ids", *ids]
    command += ["--agent-strategy", "oracle", "--user-strategy", "scripted", "--quiet", "--output-format", "both"]
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    subprocess.run([*command, "--log-dir", str(log_dir)], check=True, env=env, capture_output=True, timeout=300)
    return log_dir


def _break_call(entry: dict[str, Any], step: int) -> None:
    """Change the arguments of the agent's ``step``-th tool call (0-based) in ``entry``'s trajectory."""
    calls = [m for m in entry["traj"] if m.get("role") == "assistant" and m.get("tool_calls")]
    function = calls[step]["tool_calls"][0]["function"]
    arguments = json.loads(function["arguments"])
    first = next(iter(arguments))
    arguments[first] = "WRONG"
    function["arguments"] = json.dumps(arguments)


def _fail(entry: dict[str, Any]) -> None:
    entry["reward"] = 0.0
    entry["info"]["reward_info"]["reward"] = 0.0
    for check in entry["info"]["reward_checks"]:
        check["passed"] = False
        check["actual"] = "0" * 64


@pytest.fixture(scope="session")
def failing_run(oracle_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The oracle run edited: one inconsistent task, one failed everywhere with a known divergence, one error, costs."""
    entries = json.loads(oracle_run.read_text(encoding="utf-8"))
    kept, errors = [], []
    for entry in entries:
        task, trial = str(entry["task_id"]), entry["trial"]
        entry["info"]["agent_usage"]["cost_usd"] = AGENT_COST
        entry["info"]["user_usage"]["cost_usd"] = USER_COST
        entry["info"]["agent_usage"]["prompt_tokens"] = 100
        if task == INCONSISTENT_TASK and trial < 2:
            _fail(entry)
        if task == DIVERGING_TASK:
            _break_call(entry, DIVERGING_STEP)
            _fail(entry)
        if task == ERROR_TASK and trial == 0:
            error = {"kind": "infrastructure", "cause": "UNAVAILABLE: env went away", "attempts": 4}
            errors.append(
                {"task_id": entry["task_id"], "reward": None, "info": {"error": error}, "traj": [], "trial": 0}
            )
            continue
        kept.append(entry)
    folder = tmp_path_factory.mktemp("failing")
    path = folder / "tool-calling-edited-0.0_range_0--1_user-gpt-4o-scripted_20260101000000.json"
    path.write_text(json.dumps(kept, indent=1), encoding="utf-8")
    path.with_name(path.name.removesuffix(".json") + ".errors.json").write_text(json.dumps(errors), encoding="utf-8")
    return path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServedViewer:
    """A ``taumesh view`` process and its base URL."""

    def __init__(
        self, paths: list[Path], jaeger_url: str = "http://jaeger.test:16686", command: list[str] = VIEW_COMMAND
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [*command, *map(str, paths), "--port", str(self.port), "--jaeger-url", jaeger_url]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                output = self.process.stdout.read().decode() if self.process.stdout else ""
                raise RuntimeError(f"taumesh view exited: {output}")
            try:
                httpx.get(f"{self.url}/api/runs", timeout=2).raise_for_status()
                return
            except httpx.HTTPError:
                time.sleep(0.2)
        self.close()
        raise RuntimeError("taumesh view did not answer in 60 s")

    def get(self, path: str) -> Any:
        response = httpx.get(self.url + path, timeout=30)
        response.raise_for_status()
        return response.json()

    def run_id(self, path: Path) -> str:
        return str(next(run["run_id"] for run in self.get("/api/runs") if run["name"] == path.name))

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="session")
def viewer(oracle_run: Path, failing_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedViewer]:
    """``taumesh view`` serving both runs from one folder (as ``taumesh view DIR`` does)."""
    folder = tmp_path_factory.mktemp("runs")
    for source in (oracle_run, failing_run):
        for path in source.parent.glob("*.json"):
            shutil.copy(path, folder / path.name)
    served = ServedViewer([folder])
    yield served
    served.close()
