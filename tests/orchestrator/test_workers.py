"""``taumesh run --workers N``: one run played by several orchestrator processes, as a user sees one run.

Real processes and real gRPC: the coordinator and its workers are ``taumesh run``'s, the agent in the kill test a
``taumesh serve agent`` process whose answers take a while, so episodes are in flight when a worker dies.
"""

from __future__ import annotations

import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import psutil
from sqlalchemy.exc import OperationalError

from taumesh.orchestrator.scale_out import WORK_STORE_SUFFIX, worker_slots
from taumesh.orchestrator.work_store import WorkStore
from tests.helpers.cli import (
    ORACLE,
    explain,
    finish,
    load_json,
    oracle_run,
    results_path,
    start_taumesh,
    taumesh_executable,
)
from tests.helpers.paths import V1_DATA
from tests.helpers.processes import Server, start_server
from tests.orchestrator.test_outage import SERVING

SMALL = ("--end-index", "12", "--num-trials", "2", "--shuffle", "1", "--max-concurrency", "6")
"""24 episodes, each trial in its own shuffled order: the results file's order is not the tasks' order."""


def _summary(results: list[dict[str, Any]]) -> list[tuple[int, int, float]]:
    return [(r["task_id"], r["trial"], r["reward"]) for r in results]


def test_two_workers_give_the_results_of_one(tmp_path: Path) -> None:
    _, alone = oracle_run(tmp_path / "one", "retail", "test", *SMALL)
    proc, shared = oracle_run(tmp_path / "two", "retail", "test", *SMALL, "--workers", "2")
    assert _summary(shared) == _summary(alone)  # same episodes, rewards and order
    assert len(alone) == 24 and all(r["reward"] == 1.0 for r in alone)
    assert [r["traj"] for r in shared] == [r["traj"] for r in alone]
    assert {r["info"]["run"]["env"] for r in shared} == {"retail"}  # the run's fingerprint, as one process writes
    assert not list((tmp_path / "two").glob(f"*{WORK_STORE_SUFFIX}*")), "the work store is removed at the end"
    assert "died" not in proc.stderr, explain(proc)


def _workers(run: subprocess.Popen[str], count: int) -> list[psutil.Process]:
    """The run's worker processes, once ``count`` of them are running."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and run.poll() is None:
        children = psutil.Process(run.pid).children()
        workers = [c for c in children if "taumesh.orchestrator.worker" in " ".join(c.cmdline())]
        if len(workers) >= count:
            return workers
        time.sleep(0.05)
    raise AssertionError("the workers did not start")


def _when_playing(log_dir: Path, run: subprocess.Popen[str]) -> None:
    """Wait until some episodes are recorded and each worker has others in flight under a lease."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and run.poll() is None:
        stores = list(log_dir.glob(f"*{WORK_STORE_SUFFIX}"))
        if stores:
            store = WorkStore(stores[0])
            try:
                _, leased = store.counts()
                done = len(store.finished_after(0))
            except OperationalError:  # the coordinator is still creating it
                leased, done = 0, 0
            finally:
                store.close()
            if done >= 2 and leased >= 6:  # of at most 4 per worker: both are playing
                return
        time.sleep(0.05)
    raise AssertionError("the run never had episodes in flight")


def _slow_agent(tmp_path: Path, servers: list[Server]) -> Server:
    """The oracle agent as its own process, each answer 150 ms late: episodes stay in flight a while."""
    agent = start_server(
        [taumesh_executable(), "serve", "agent", "--host", "127.0.0.1", "--port", "0", "--data-dir", str(V1_DATA),
         "--agent-reply-latency-ms", "150"],
        SERVING, tmp_path / "agent.err",
    )  # fmt: skip
    servers.append(agent)
    return agent


def _run_args(log_dir: Path, agent: Server) -> list[str]:
    """32 episodes, 8 at a time over 2 workers, with the slow agent."""
    return ["run", "--env", "retail", "--task-split", "test", *ORACLE, "--data-dir",
            str(V1_DATA), "--log-dir", str(log_dir), "--end-index", "16", "--num-trials", "2", "--max-concurrency",
            "8", "--workers", "2", "--agent-addr", agent.address]  # fmt: skip


EVERY_EPISODE = sorted((task, trial) for trial in range(2) for task in range(16))


def _keys(results: list[dict[str, Any]]) -> list[tuple[int, int]]:
    return [(r["task_id"], r["trial"]) for r in results]


def test_a_killed_worker_loses_no_episode_and_duplicates_none(tmp_path: Path, servers: list[Server]) -> None:
    log_dir = tmp_path / "results"
    run = start_taumesh(*_run_args(log_dir, _slow_agent(tmp_path, servers)))
    victim = _workers(run, 2)[0]
    _when_playing(log_dir, run)
    victim.send_signal(signal.SIGKILL)
    proc = finish(run, timeout=120)
    assert proc.returncode == 0, explain(proc)
    died = re.search(rf"worker \d+ \(pid {victim.pid}\) died \(signal 9\); (?P<lost>\d+) episode", proc.stderr)
    assert died, explain(proc)
    assert int(died["lost"]) >= 1, explain(proc)  # it was playing some: they were played again elsewhere
    results = load_json(results_path(log_dir))
    assert sorted(_keys(results)) == EVERY_EPISODE, _keys(results)  # each once
    assert all(r["reward"] == 1.0 for r in results)
    assert not list(log_dir.glob("*.errors.json")), explain(proc)


def test_sigterm_stops_the_workers_and_keeps_what_finished_for_resume(tmp_path: Path, servers: list[Server]) -> None:
    log_dir = tmp_path / "results"
    argv = _run_args(log_dir, _slow_agent(tmp_path, servers))
    run = start_taumesh(*argv)
    workers = _workers(run, 2)
    _when_playing(log_dir, run)
    run.send_signal(signal.SIGTERM)
    proc = finish(run, timeout=120)
    assert proc.returncode == 128 + signal.SIGTERM, explain(proc)
    assert "stopped by SIGTERM" in proc.stderr, explain(proc)
    assert "Traceback" not in proc.stderr, explain(proc)
    psutil.wait_procs(workers, timeout=15)
    assert not [w.pid for w in workers if w.is_running() and w.status() != psutil.STATUS_ZOMBIE]
    assert not list(log_dir.glob(f"*{WORK_STORE_SUFFIX}*"))
    path = results_path(log_dir)
    kept = load_json(path)
    assert 2 <= len(kept) < len(EVERY_EPISODE), explain(proc)
    assert all(r["reward"] == 1.0 for r in kept)

    resumed = finish(start_taumesh(*argv, "--resume", str(path)), timeout=120)
    assert resumed.returncode == 0, explain(resumed)
    results = load_json(path)
    assert sorted(_keys(results)) == EVERY_EPISODE
    kept_by_key = {(r["task_id"], r["trial"]): r for r in kept}
    assert [r for r in results if (r["task_id"], r["trial"]) in kept_by_key] == kept  # not played again


def test_concurrency_is_shared_among_the_workers() -> None:
    assert worker_slots(2, 8) == [4, 4]
    assert worker_slots(3, 8) == [3, 3, 2]
    assert worker_slots(4, 2) == [1, 1]  # never a worker with nothing to play
