"""The viewer's test runs (what they hold) and the viewer served as a process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tests.helpers.paths import PROJECT_ROOT
from tests.helpers.processes import free_port
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


def break_call(entry: dict[str, Any], step: int) -> None:
    """Change the arguments of the agent's ``step``-th tool call (0-based) in ``entry``'s trajectory."""
    calls = [m for m in entry["traj"] if m.get("role") == "assistant" and m.get("tool_calls")]
    function = calls[step]["tool_calls"][0]["function"]
    arguments = json.loads(function["arguments"])
    first = next(iter(arguments))
    arguments[first] = "WRONG"
    function["arguments"] = json.dumps(arguments)


def fail_entry(entry: dict[str, Any]) -> None:
    entry["reward"] = 0.0
    entry["info"]["reward_info"]["reward"] = 0.0
    for check in entry["info"]["reward_checks"]:
        check["passed"] = False
        check["actual"] = "0" * 64


class ViewerClient:
    """What a test asks of a served viewer at ``url``: its JSON API, and a run's id by its file's name."""

    url: str

    def get(self, path: str) -> Any:
        response = httpx.get(self.url + path, timeout=30)
        response.raise_for_status()
        return response.json()

    def run_id(self, path: Path) -> str:
        return str(next(run["run_id"] for run in self.get("/api/runs") if run["name"] == path.name))


class ServedViewer(ViewerClient):
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

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
