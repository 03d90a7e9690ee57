"""An orchestrator SIGKILLed mid-run: the env reaps its abandoned sessions within the idle timeout, and
``--resume`` completes the run with exactly one result per task."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path

import pytest

from taumesh.orchestrator.results.names import errors_path
from tests.helpers.cli import explain_result, invoke, load_json, results_path, taumesh_executable
from tests.helpers.fake_model import FakeOpenAI
from tests.helpers.paths import V1_DATA
from tests.helpers.processes import Server
from tests.helpers.slow_runs import results_so_far, slow_run_args, start_slow_run

pytestmark = pytest.mark.kill

IDLE_TIMEOUT = 3.0
"""The env's ``--session-idle-timeout`` in this test."""
TASKS = 8
"""Two rounds of 4: the second is in flight, holding its sessions, when the first result is in and the run is killed."""
CONCURRENCY = 4
USER_DELAY = 0.8
"""Seconds the simulated user's model takes per reply: each episode holds its env session at least this long."""
REAPED = re.compile(r"reaped (?P<count>\d+) idle session\(s\) after \S+ unused; (?P<open>\d+) open")


def test_sessions_of_a_killed_orchestrator_are_reaped_and_resume_completes(
    tmp_path: Path, servers: list[Server], monkeypatch: pytest.MonkeyPatch, fake: FakeOpenAI
) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    env_log = tmp_path / "env.log"
    argv = [
        taumesh_executable(), "serve", "env", "--port", "0", "--data-dir", str(V1_DATA),
        "--session-idle-timeout", str(IDLE_TIMEOUT),
    ]  # fmt: skip
    env = Server.spawn(argv, env_log)
    servers.append(env)
    env.wait_ready(r"serving \S+ on (?P<address>127\.0\.0\.1:\d+)")
    log_dir = tmp_path / "run"
    run = start_slow_run(env.address, log_dir, fake, TASKS, CONCURRENCY, USER_DELAY)
    try:
        assert run.poll() is None, "the run ended before it could be killed mid-run"
        assert 0 < results_so_far(log_dir) < TASKS
        run.send_signal(signal.SIGKILL)
        killed_at = time.monotonic()
    finally:
        if run.poll() is None:
            run.kill()
        run.communicate(timeout=30)

    # sessions abandoned by the kill expire after the idle timeout; the reaper drops them within one interval
    reap_interval = IDLE_TIMEOUT / 4
    deadline = killed_at + IDLE_TIMEOUT + reap_interval + 1.0
    reaped: list[re.Match[str]] = []
    while time.monotonic() < deadline:
        reaped = list(REAPED.finditer(env_log.read_text(encoding="utf-8")))
        if reaped and reaped[-1]["open"] == "0":
            break
        time.sleep(0.1)
    assert reaped, f"the env reaped nothing within {deadline - killed_at:.1f}s of the kill\n{env.stderr()}"
    assert reaped[-1]["open"] == "0", env.stderr()
    assert sum(int(m["count"]) for m in reaped) > 0
    assert time.monotonic() - killed_at <= IDLE_TIMEOUT + reap_interval + 1.0

    resumed = results_path(log_dir)
    done_before = len(load_json(resumed))
    assert 0 < done_before < TASKS
    # the resume is an ordinary run: in this process (invoke fails the test on a traceback)
    proc = invoke(*slow_run_args(env.address, log_dir, fake.url, TASKS, CONCURRENCY), "--resume", resumed)
    assert proc.exit_code == 0, explain_result(proc)
    results = load_json(resumed)
    keys = sorted((r["task_id"], r["trial"]) for r in results)
    assert keys == [(i, 0) for i in range(TASKS)], explain_result(proc)
    assert not errors_path(resumed).exists()
    assert env.proc.poll() is None and "Traceback" not in env.stderr()
