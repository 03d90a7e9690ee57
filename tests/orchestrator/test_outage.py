"""A short outage of a service costs replays, not results: episode attempts wait (with backoff) before replaying."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from tests.helpers.cli import (
    ORACLE,
    check_oracle_results,
    child_env,
    explain,
    load_json,
    results_path,
    taumesh_executable,
)
from tests.helpers.paths import PROJECT_ROOT, V1_DATA
from tests.helpers.processes import Server, free_port, start_server

pytestmark = pytest.mark.kill

SERVING = r"serving \S+ on (?P<address>\S+:\d+)"
OUTAGE_TASKS = list(range(12))
"""The user-sim outage's episodes: 3 rounds of 4, so at least 8 wait for the user sim when it dies."""


def test_a_user_sim_down_for_three_seconds_leaves_no_errors(
    v1_data_dir: Path, tmp_path: Path, servers: list[Server]
) -> None:
    port = free_port()
    # each reply waits 600 ms, so the episodes in flight are mid-conversation when the user sim dies, and the 8 or more
    # not yet started when the first result is in keep the run going through the outage however fast the machine is
    # (none can finish without a user sim): more episodes would only make the run longer
    serve = [taumesh_executable(), "serve", "user-sim", "--host", "127.0.0.1", "--port", str(port),
             "--user-reply-latency-ms", "600"]  # fmt: skip
    servers.append(start_server(serve, SERVING, tmp_path / "user-1.err"))
    log_dir = tmp_path / "results"
    run = subprocess.Popen(
        [taumesh_executable(), "run", "--env", "retail", "--task-split", "test", *ORACLE, "--data-dir", str(V1_DATA),
         "--log-dir", str(log_dir), "--user-addr", f"127.0.0.1:{port}", "--max-concurrency", "4",
         "--end-index", str(len(OUTAGE_TASKS))],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(), cwd=PROJECT_ROOT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120  # start-up, then episodes under way (the first results are in the file)
        while not _some_results(log_dir) and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        servers[0].kill()
        time.sleep(3)
        assert run.poll() is None, "the run ended before the outage was over: nothing was tested"
        servers.append(start_server(serve, SERVING, tmp_path / "user-2.err"))
        stdout, stderr = run.communicate(timeout=300)
    finally:
        if run.poll() is None:
            run.kill()
    proc = subprocess.CompletedProcess(run.args, run.returncode, stdout, stderr)
    assert run.returncode == 0, explain(proc)
    assert "not scored" not in stdout, explain(proc)
    assert not list(log_dir.glob("*.errors.json")), explain(proc)
    check_oracle_results(load_json(results_path(log_dir)), "retail", "test", OUTAGE_TASKS)


def test_an_env_restart_loses_sessions_not_results(v1_data_dir: Path, tmp_path: Path, servers: list[Server]) -> None:
    """Sessions die with the env process; the episodes that held them rebuild them on the new one by replay."""
    port = free_port()
    serve = [
        taumesh_executable(),
        "serve",
        "env",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--data-dir",
        str(V1_DATA),
    ]
    servers.append(start_server(serve, SERVING, tmp_path / "env-1.err"))
    # a user sim whose replies wait 100 ms keeps the 115 episodes in flight across the restart: one trial of waiting
    # costs wall time, where three trials of work cost CPU
    user_port = free_port()
    user = [taumesh_executable(), "serve", "user-sim", "--host", "127.0.0.1", "--port", str(user_port),
            "--user-reply-latency-ms", "100"]  # fmt: skip
    servers.append(start_server(user, SERVING, tmp_path / "user.err"))
    log_dir = tmp_path / "results"
    run = subprocess.Popen(
        [taumesh_executable(), "run", "--env", "retail", "--task-split", "test", *ORACLE, "--data-dir", str(V1_DATA),
         "--log-dir", str(log_dir), "--env-addr", f"127.0.0.1:{port}", "--user-addr", f"127.0.0.1:{user_port}",
         "--max-concurrency", "8"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(), cwd=PROJECT_ROOT,
    )  # fmt: skip
    try:
        # kill once episodes are under way (the first results are in the file), the 8 in flight each holding a session
        deadline = time.monotonic() + 120
        while not _some_results(log_dir) and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        # the new env listens beside the old one first (gRPC servers bind with SO_REUSEPORT), as a replacement pod
        # behind the same address would: killed then, the old env's sessions are lost while the episodes' retried
        # calls reach a live env at once. Killing first raced the restart against the channel's retries: those ran
        # out first now and then, every episode in flight was replayed whole, and no session was ever rebuilt.
        servers.append(start_server(serve, SERVING, tmp_path / "env-2.err"))
        servers[0].kill()
        assert run.poll() is None, "the run ended before the restart: nothing was tested"
        stdout, stderr = run.communicate(timeout=300)
    finally:
        if run.poll() is None:
            run.kill()
    proc = subprocess.CompletedProcess(run.args, run.returncode, stdout, stderr)
    assert run.returncode == 0, explain(proc)
    assert "rebuilt on a new session by replaying" in stderr, explain(proc)  # some episode lost its session...
    assert not list(log_dir.glob("*.errors.json")), explain(proc)  # ...and went on, not filed as an error
    results = load_json(results_path(log_dir))
    assert len(results) == 115 and all(r["reward"] == 1.0 for r in results), explain(proc)


def _some_results(log_dir: Path) -> bool:
    """Whether the run has written at least one finished episode (the file itself is created when it starts)."""
    for path in log_dir.glob("*.json"):
        try:
            if json.loads(path.read_text(encoding="utf-8")):
                return True
        except ValueError:
            continue
    return False
