"""Ctrl-C (SIGINT) or SIGTERM on ``taumesh run``: the run's open env sessions are closed before it exits, the
results file keeps what finished, and ``--resume`` completes it.

The env is a separate process, so sessions the run leaves open would outlive it (for the env's idle timeout, 900 s
here). Open sessions are counted through the env itself: it serves at most ``MAX_SESSIONS``, so a probe that can
open that many finds none left behind.
"""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from taumesh.convert import task_ref_to_proto
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.models import TaskRef
from tests.helpers.cli import explain, explain_result, invoke, load_json, results_path, taumesh_executable
from tests.helpers.fake_model import FakeOpenAI
from tests.helpers.paths import V1_DATA
from tests.helpers.processes import Server
from tests.helpers.slow_runs import slow_run_args, start_slow_run

pytestmark = pytest.mark.kill

TASKS = 12
CONCURRENCY = 4
MAX_SESSIONS = 6
"""The env's ``--max-sessions``: more than the run holds at once, so a leak of any size is seen by the probe."""
USER_DELAY = 0.6
"""Seconds the simulated user's model takes per reply: each episode holds its env session at least this long."""


def open_sessions_possible(address: str) -> int:
    """How many sessions the env still lets this probe open (each closed again): MAX_SESSIONS when none is held."""
    channel = grpc.insecure_channel(address)
    stub = env_pb2_grpc.EnvServiceStub(channel)
    ref = task_ref_to_proto(TaskRef(domain="retail", split="test", task_id="0"))
    opened: list[str] = []
    try:
        for _ in range(MAX_SESSIONS):
            try:
                response = stub.OpenSession(env_pb2.OpenSessionRequest(task=ref), timeout=30)
            except grpc.RpcError as exc:
                assert exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, exc
                break
            opened.append(response.session_id)
        return len(opened)
    finally:
        for session_id in opened:
            stub.CloseSession(env_pb2.CloseSessionRequest(session_id=session_id), timeout=30)
        channel.close()


@pytest.fixture(scope="module")
def env(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One standalone env process for both signals: each case starts and ends with none of its sessions held."""
    argv = [
        taumesh_executable(), "serve", "env", "--port", "0", "--data-dir", str(V1_DATA),
        "--session-idle-timeout", "900", "--max-sessions", str(MAX_SESSIONS),
    ]  # fmt: skip
    server = Server.spawn(argv, tmp_path_factory.mktemp("env") / "env.log")
    try:
        yield server.wait_ready(r"serving \S+ on (?P<address>127\.0\.0\.1:\d+)")
    finally:
        server.kill()


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_closes_the_runs_env_sessions_and_resume_completes(
    env: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fake: FakeOpenAI,
    signum: signal.Signals,
    code: int,
) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    assert open_sessions_possible(env.address) == MAX_SESSIONS
    log_dir = tmp_path / "run"
    run = start_slow_run(env.address, log_dir, fake, TASKS, CONCURRENCY, USER_DELAY)
    try:
        assert run.poll() is None, "the run ended before it could be interrupted"
        time.sleep(USER_DELAY / 2)  # episodes in flight, some mid-call
        run.send_signal(signum)
        stdout, stderr = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate(timeout=30)
    interrupted = subprocess.CompletedProcess(run.args, run.returncode, stdout, stderr)
    assert run.returncode == code, explain(interrupted)
    assert "Traceback" not in stderr, explain(interrupted)
    assert "closed" in stderr and "env session" in stderr, explain(interrupted)
    assert "--resume" in stderr, explain(interrupted)

    # nothing left open in the env: the probe opens as many sessions as the env allows
    assert open_sessions_possible(env.address) == MAX_SESSIONS, explain(interrupted)

    resumed = results_path(log_dir)
    done_before = load_json(resumed)
    assert 0 < len(done_before) < TASKS
    assert all(r["reward"] == 1.0 for r in done_before), "an interrupted episode is not recorded as a result"
    # the resume is an ordinary run: in this process (invoke fails the test on a traceback)
    proc = invoke(*slow_run_args(env.address, log_dir, fake.url, TASKS, CONCURRENCY), "--resume", resumed)
    assert proc.exit_code == 0, explain_result(proc)
    keys = sorted((r["task_id"], r["trial"]) for r in load_json(resumed))
    assert keys == [(i, 0) for i in range(TASKS)], explain_result(proc)
    assert open_sessions_possible(env.address) == MAX_SESSIONS
