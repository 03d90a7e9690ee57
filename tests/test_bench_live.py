"""bench/concurrency.py runs at a tiny scale, and the simulated-latency settings it relies on work.

No timing is asserted as a target (the machine is shared): only lower bounds that the simulated sleeps guarantee.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from taumesh.data import taubench_v1_dir
from taumesh.domains import Catalog
from taumesh.models import AgentSettings, TaskRef, UserSettings
from taumesh.orchestrator.config import RunConfig, ServiceAddresses
from taumesh.orchestrator.episode.turn_loop import run_episode
from taumesh.orchestrator.run.stack import service_stack
from taumesh.rpc.server import RunningServer, start_server
from taumesh.services.agent import agent_service
from taumesh.services.user_sim import user_sim_service
from tests.helpers.bench import load_bench

pytestmark = pytest.mark.slow

PROCESSES = {"orchestrator", "env", "user-sim", "agent", "scorer"}


def test_the_bench_runs_two_levels_and_reports_every_process_at_each(
    tau2_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "report.json"
    argv = ["concurrency.py", "--levels", "2", "4", "--episodes-per-slot", "2", "--min-episodes", "6"]
    argv += ["--agent-latency-ms", "50", "--user-latency-ms", "50", "--out", str(out)]
    # the bench's main in this process (no interpreter to start and import); its services and its orchestrator
    # (multiprocessing's spawn) are still processes, fresh at each level
    monkeypatch.setattr(sys, "argv", argv)
    capsys.readouterr()
    load_bench("concurrency").main()
    printed = capsys.readouterr().out
    assert printed.count("achieved/ideal =") == 2
    assert printed.count("orchestrator RSS per live episode") == 2
    assert "== summary" in printed

    report = json.loads(out.read_text(encoding="utf-8"))
    assert (report["env"], report["split"]) == ("tau2-retail", "train")
    # episodes per level: 2 x the level, at least 6, from the split's first tasks
    assert [(level["concurrency"], level["episodes"]) for level in report["levels"]] == [(2, 6), (4, 8)]
    for level in report["levels"]:
        for key in ("cpu_s", "cpu_ms_per_episode", "cpu_utilisation", "peak_rss_mb"):
            assert set(level[key]) == PROCESSES, key
        assert all(level["peak_rss_mb"][name] > 10 for name in PROCESSES)
        assert level["cpu_s"]["env"] > 0 and level["cpu_s"]["orchestrator"] > 0
        assert level["agent_calls_per_episode"] >= 1 and level["user_calls_per_episode"] >= 1
        simulated = (50 * level["agent_calls_per_episode"] + 50 * level["user_calls_per_episode"]) / 1000
        assert level["mean_simulated_latency_s"] == pytest.approx(simulated)
        # every agent and user call slept in its service: no episode can be quicker than its sleeps
        assert level["mean_episode_duration_s"] >= level["mean_simulated_latency_s"]
        assert level["wall_s"] >= level["ideal_wall_s"] > 0
        assert 0 < level["achieved_over_ideal"] <= 1
        assert 0 < level["steady_state_over_ideal"] <= 1
        assert level["orchestrator_rss_kib_per_finished_episode"] is not None  # more episodes than slots
        collected = level["orchestrator_gc"]  # counted in the orchestrator process by gc.callbacks
        assert collected["collections"] > 0 and collected["seconds"] >= 0 and collected["full"] >= 0


async def test_agent_and_user_latency_settings_delay_every_answer(tau2_data: Path) -> None:
    """With 150 ms on the agent and 100 ms on the user, an episode's wall time covers all of its sleeps."""
    catalog = Catalog(taubench_v1_dir())
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
        async with service_stack(addresses, taubench_v1_dir()) as clients:
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
