"""bench/live_episodes.py runs at a tiny scale, and the simulated-latency settings it relies on work.

No timing is asserted as a target (the machine is shared): only lower bounds that the simulated sleeps guarantee.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from taumesh.domains import Catalog
from taumesh.domains.tau2 import DatasetMissing, require
from taumesh.models import AgentSettings, TaskRef, UserSettings
from taumesh.orchestrator.config import CACHE_DATA_DIR, RunConfig, ServiceAddresses
from taumesh.orchestrator.episode import run_episode
from taumesh.orchestrator.stack import service_stack
from taumesh.rpc.server import RunningServer, start_server
from taumesh.services.agent import agent_service
from taumesh.services.user_sim import user_sim_service

PROJECT_ROOT = Path(__file__).resolve().parent.parent
BENCH = PROJECT_ROOT / "bench" / "live_episodes.py"
PROCESSES = {"orchestrator", "env", "user-sim", "agent", "scorer"}


@pytest.fixture(scope="module")
def tau2_data() -> None:
    try:
        require()
    except DatasetMissing as exc:
        pytest.skip(f"τ² data not fetched: {exc}")


def test_the_bench_runs_twenty_episodes_and_reports_every_process(tau2_data: None, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    argv = [sys.executable, str(BENCH), "--num-tasks", "10", "--num-trials", "2", "--concurrency", "20"]
    argv += ["--agent-latency-ms", "50", "--user-latency-ms", "50", "--out", str(out)]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=PROJECT_ROOT, env=os.environ, timeout=600)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-4000:])
    assert "achieved/ideal" in done.stdout
    assert "orchestrator RSS per live episode" in done.stdout

    report = json.loads(out.read_text(encoding="utf-8"))
    shape = (report["env"], report["split"], report["episodes"], report["concurrency"])
    assert shape == ("tau2-retail", "train", 20, 20)
    for key in ("cpu_s", "cpu_ms_per_episode", "cpu_utilisation", "peak_rss_mb"):
        assert set(report[key]) == PROCESSES, key
    assert all(report["peak_rss_mb"][name] > 10 for name in PROCESSES)
    assert report["cpu_s"]["env"] > 0 and report["cpu_s"]["orchestrator"] > 0
    assert report["agent_calls_per_episode"] >= 1 and report["user_calls_per_episode"] >= 1
    simulated = (50 * report["agent_calls_per_episode"] + 50 * report["user_calls_per_episode"]) / 1000
    assert report["mean_simulated_latency_s"] == pytest.approx(simulated)
    # every agent and user call slept in its service: no episode can be quicker than its sleeps
    assert report["mean_episode_duration_s"] >= report["mean_simulated_latency_s"]
    assert report["wall_s"] >= report["ideal_wall_s"] > 0
    assert 0 < report["achieved_over_ideal"] <= 1
    assert 0 < report["steady_state_over_ideal"] <= 1
    assert report["orchestrator_rss_kib_per_finished_episode"] is None  # every episode was in flight at once


async def test_agent_and_user_latency_settings_delay_every_answer(tau2_data: None) -> None:
    """With 150 ms on the agent and 100 ms on the user, an episode's wall time covers all of its sleeps."""
    catalog = Catalog(CACHE_DATA_DIR)
    servers: list[RunningServer] = [
        await start_server([agent_service(catalog, reply_latency_ms=150)]),
        await start_server([user_sim_service(reply_latency_ms=100)]),
    ]
    try:
        addresses = ServiceAddresses(agent=servers[0].address, user=servers[1].address)
        config = RunConfig(
            env="tau2-retail",
            task_split="train",
            agent=AgentSettings(strategy="oracle"),
            user=UserSettings(strategy="scripted"),
            addresses=addresses,
            show_progress=False,
        )
        async with service_stack(addresses, CACHE_DATA_DIR) as clients:
            task = TaskRef(domain="tau2-retail", split="train", task_id=catalog.get("tau2-retail").tasks("train")[0].id)
            started = time.perf_counter()
            outcome = await run_episode(clients, config, task, 0)
            elapsed = time.perf_counter() - started
    finally:
        for server in servers:
            await server.stop(grace=0)
    assert outcome.reward == 1.0
    agent_calls = sum(1 for m in outcome.traj if m.role == "assistant")
    user_calls = sum(1 for m in outcome.traj if m.role == "user")
    assert agent_calls >= 2 and user_calls >= 1
    assert elapsed >= 0.150 * agent_calls + 0.100 * user_calls
