"""Env sessions at scale (issue 48, item 4): the idle reaper says what it did, the per-run cap, and the scale bench.

Real env servers on loopback (``env_service`` on a background loop, as the other service tests run them), a real
``taumesh run`` against a capped env, and the session-scale bench at its smallest size.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest

from taumesh.domains import Catalog
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.orchestrator.episode.open_sessions import OpenSessions
from taumesh.rpc.errors import error_details
from taumesh.rpc.server import CHANNEL_OPTIONS, RunningServer, start_server
from taumesh.services.env import env_service
from taumesh.services.env.sessions import SessionStore
from tests.helpers.bench import load_bench
from tests.helpers.cli import ORACLE, check_oracle_results, explain_result, invoke, load_json, results_path
from tests.helpers.grpc_services import LoopThread, task_ref, tool_call
from tests.helpers.paths import V1_DATA

IDLE = 0.8
"""The reaper's idle timeout in the reaper's test: it reaps every 0.25 s."""
CAP = 2
"""Sessions one run may hold on the capped env."""


@dataclass
class Env:
    running: RunningServer
    store: SessionStore
    stub: env_pb2_grpc.EnvServiceStub

    def open(self, run_id: str = "") -> str:
        request = env_pb2.OpenSessionRequest(task=task_ref("retail"), run_id=run_id)
        opened: env_pb2.OpenSessionResponse = self.stub.OpenSession(request, timeout=60)
        return opened.session_id

    def call(self, session_id: str) -> env_pb2.CallToolResponse:
        request = env_pb2.CallToolRequest(
            session_id=session_id, tool_call=tool_call("get_user_details", '{"user_id": "yusuf_rossi_9620"}')
        )
        answer: env_pb2.CallToolResponse = self.stub.CallTool(request, timeout=30)
        return answer

    def close(self, session_id: str) -> None:
        self.stub.CloseSession(env_pb2.CloseSessionRequest(session_id=session_id), timeout=30)


@pytest.fixture(scope="module")
def loop() -> Iterator[LoopThread]:
    thread = LoopThread()
    yield thread
    thread.close()


def _env(loop: LoopThread, catalog: Catalog, **limits: float | int | None) -> Iterator[Env]:
    service = env_service(catalog, **limits)  # type: ignore[arg-type]
    running = loop.run(start_server([service]))
    try:
        with grpc.insecure_channel(running.address, options=CHANNEL_OPTIONS) as channel:
            env = Env(running, service.servicer.sessions, env_pb2_grpc.EnvServiceStub(channel))
            env.close(env.open())  # the first session loads and hashes the domain's data
            yield env
    finally:
        loop.run(running.stop(grace=0.5))


@pytest.fixture(scope="module")
def reaping_env(loop: LoopThread, catalog: Catalog) -> Iterator[Env]:
    yield from _env(loop, catalog, idle_timeout=IDLE)


@pytest.fixture(scope="module")
def capped_env(loop: LoopThread, catalog: Catalog) -> Iterator[Env]:
    yield from _env(loop, catalog, max_sessions_per_run=CAP)


def test_a_session_left_idle_is_reaped_and_says_so_while_a_used_one_lives(reaping_env: Env) -> None:
    env = reaping_env
    idle, used = env.open(), env.open()
    reaped_before = env.store.counts.reaped
    deadline = time.monotonic() + IDLE + env.store.reap_interval + 1.0
    while env.store.was_reaped(idle) is False and time.monotonic() < deadline:
        assert env.call(used).status == env_pb2.TOOL_CALL_STATUS_OK  # touched every 0.1 s: never idle long
        time.sleep(0.1)
    assert env.store.was_reaped(idle), "the reaper (no call on the session) dropped it"
    assert env.store.counts.reaped == reaped_before + 1
    with pytest.raises(grpc.RpcError) as gone:
        env.call(idle)
    assert gone.value.code() == grpc.StatusCode.NOT_FOUND
    assert error_details(gone.value)["reason"] == "SESSION_NOT_FOUND"  # clients rebuild it as any lost session
    assert "reaped" in (gone.value.details() or "") and f"{IDLE:g} s" in (gone.value.details() or "")
    assert idle not in (gone.value.details() or "")
    assert env.call(used).status == env_pb2.TOOL_CALL_STATUS_OK
    with pytest.raises(grpc.RpcError) as never:  # an id the env never issued is not called reaped
        env.call("0" * 32)
    assert "reaped" not in (never.value.details() or "")
    env.close(used)


def test_the_per_run_cap_refuses_a_runs_next_session_but_not_another_runs(capped_env: Env) -> None:
    env = capped_env
    held = [env.open("run-a") for _ in range(CAP)]
    with pytest.raises(grpc.RpcError) as refused:
        env.open("run-a")
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    details = error_details(refused.value)
    assert details["reason"] == "RUN_SESSION_LIMIT" and details["retry_after"] > 0
    assert "--max-sessions-per-run" in (refused.value.details() or "")
    assert env.store.counts.refused_per_run >= 1
    others = [env.open("run-b"), env.open("")]  # another run, and a client that names none: not this run's cap
    env.close(held.pop())
    held.append(env.open("run-a"))  # a place freed by the run's own close
    assert env.store.open_for("run-a") == CAP
    with pytest.raises(grpc.RpcError) as too_long:
        env.open("r" * 257)
    assert too_long.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    for session_id in held + others:
        env.close(session_id)
    assert env.store.open_for("run-a") == 0


def test_a_run_wider_than_the_cap_waits_for_its_own_sessions_and_scores_every_episode(
    capped_env: Env, tmp_path: Path
) -> None:
    """6 episodes at once against a cap of 2: 4 are refused at first, wait for a close, and all score 1.0."""
    refused_before = capped_env.store.counts.refused_per_run
    result = invoke(
        "run", "--env", "retail", "--task-split", "test", *ORACLE, "--data-dir", V1_DATA, "--log-dir", tmp_path,
        "--max-concurrency", "6", "--end-index", "6", "--env-addr", capped_env.running.address,
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    assert not list(tmp_path.glob("*.errors.json")), explain_result(result)
    check_oracle_results(load_json(results_path(tmp_path)), "retail", "test", list(range(6)))
    assert capped_env.store.counts.refused_per_run > refused_before, "the cap was never reached: nothing was tested"
    assert len(capped_env.store) == 0


def test_a_refused_episode_waits_only_while_its_run_holds_sessions_of_its_own() -> None:
    """Each close wakes the waiters; with nothing of its own open the refusal stands (an infrastructure fault)."""

    async def scenario() -> None:
        sessions = OpenSessions()
        assert await sessions.wait_for_a_close(5.0) is False  # at once: nothing here will free a place
        sessions.sessions["held"] = ()
        waiting = asyncio.ensure_future(sessions.wait_for_a_close(5.0))
        await asyncio.sleep(0.05)
        assert not waiting.done()
        sessions.closed("held")
        assert await asyncio.wait_for(waiting, 1.0) is True

    asyncio.run(scenario())


def test_the_session_scale_bench_runs_at_a_tiny_size(v1_data_dir: Path) -> None:
    """The bench's path end to end at 50 sessions on one env process (no τ² side): it cannot rot."""
    argv = ["--sessions", "50", "--replicas", "1", "--domain", "retail", "--split", "test", "--tasks", "5"]
    report = load_bench("session_scale").main([*argv, "--data-dir", str(v1_data_dir), "--tau2-sessions", "0"])
    (level,) = report.levels
    assert level.system == "taumesh" and level.sessions == level.closed == 50
    assert level.calls > 50 and level.rss_mb > level.warm_rss_mb > 0 and level.p99_ms >= level.p50_ms > 0
