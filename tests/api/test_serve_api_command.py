"""``serve_api`` (the command behind ``taumesh serve api``) with two uvicorn workers sharing one SQLite database."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from taumesh.api.database import make_engine, migrate
from taumesh.api.store import Store
from tests.helpers.processes import free_port, wait_for_http

SERVE = "import typer; from taumesh.commands.api import serve_api; typer.run(serve_api)"
ORACLE = {"env": "retail", "agent_strategy": "oracle", "user_strategy": "scripted", "wait": False}
TASKS = 2
"""Each of the four runs' tasks: what is shown (every episode once, whichever worker plays it) does not need more."""


@pytest.mark.slow
def test_two_workers_share_runs_without_duplicates(v1_data_dir: Path, tmp_path: Path) -> None:
    store = Store(make_engine(f"sqlite:///{tmp_path / 'taumesh-api.db'}"))  # the default URL under --data-root
    migrate(store.engine)
    token = store.create_key("workers")[1]
    port = free_port()
    command = [sys.executable, "-c", SERVE, "--port", str(port), "--workers", "2", "--data-root", str(tmp_path)]
    command += ["--data-dir", str(v1_data_dir), "--rate-limit", "1000/minute", "--log-level", "warning"]
    log = (tmp_path / "serve.log").open("wb")
    # the workers look for queued runs every 0.3 s instead of 2 s: both claim sooner, the test waits less
    env = {**os.environ, "TAUMESH_API_POLL_SECONDS": "0.3"}
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    base, headers = f"http://127.0.0.1:{port}", {"X-API-Key": token}
    try:
        wait_for_http(server, f"{base}/health", tmp_path / "serve.log", seconds=90)
        with httpx.Client(base_url=base, headers=headers, timeout=60) as http:
            slices = [{**ORACLE, "start_index": i * TASKS, "end_index": (i + 1) * TASKS} for i in range(4)]
            runs = [http.post("/api/v1/validate-tasks", json=body).json()["run_id"] for body in slices]
            deadline = time.monotonic() + 120
            while any(http.get(f"/api/v1/runs/{r}").json()["status"] != "completed" for r in runs):
                assert time.monotonic() < deadline, "runs did not complete"
                time.sleep(0.5)
        for run_id in runs:
            results = store.results(run_id)
            assert len(results) == TASKS == len({(r.task_id, r.trial) for r in results})
            assert all(r.reward == 1.0 for r in results)
        assert (tmp_path / "audit.jsonl").read_text().count('"route":"/api/v1/validate-tasks"') == 4
    finally:
        server.terminate()
        server.wait(timeout=30)
