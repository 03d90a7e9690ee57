"""One run played by several worker processes, as a user sees one run: ``taumesh run --workers N`` over a SQLite
work store, and a coordinator (``taumesh run --work-store URL --workers 0``) with ``taumesh worker`` processes
joining it over PostgreSQL, as the pods of a Kubernetes Indexed Job do.

Real processes and real gRPC: the agent in the kill tests is a ``taumesh serve agent`` process whose answers take a
while, so episodes are in flight when a worker is SIGKILLed. The results must equal a single process's: same
episodes, rewards and order, each recorded once.
"""

from __future__ import annotations

import re
import signal
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any

import psutil
import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import DBAPIError

from taumesh.orchestrator.scale.coordinator import WORK_STORE_SUFFIX, worker_slots
from taumesh.orchestrator.scale.work_store import WorkStore, sqlite_url, work_episodes
from tests.helpers.api import Postgres, create_database
from tests.helpers.cli import (
    ORACLE,
    explain,
    explain_result,
    finish,
    invoke,
    load_json,
    oracle_invoke,
    oracle_run,
    results_path,
    start_taumesh,
    taumesh_executable,
)
from tests.helpers.paths import V1_DATA
from tests.helpers.processes import SERVING, Server, start_server

SMALL = ("--end-index", "12", "--num-trials", "2", "--shuffle", "1", "--max-concurrency", "6")
"""24 episodes, each trial in its own shuffled order: the results file's order is not the tasks' order."""
KILL_RUN = ("--end-index", "16", "--num-trials", "2", "--shuffle", "1")
"""The kill tests' 32 episodes."""


def _summary(results: list[dict[str, Any]]) -> list[tuple[int, int, float]]:
    return [(r["task_id"], r["trial"], r["reward"]) for r in results]


@pytest.mark.slow
def test_two_workers_give_the_results_of_one(tmp_path: Path) -> None:
    _, alone = oracle_invoke(tmp_path / "one", "retail", "test", *SMALL)  # one process: this one
    proc, shared = oracle_run(tmp_path / "two", "retail", "test", *SMALL, "--workers", "2")
    assert _summary(shared) == _summary(alone)  # same episodes, rewards and order
    assert len(alone) == 24 and all(r["reward"] == 1.0 for r in alone)
    assert [r["traj"] for r in shared] == [r["traj"] for r in alone]
    assert {r["info"]["run"]["env"] for r in shared} == {"retail"}  # the run's fingerprint, as one process writes
    assert not list((tmp_path / "two").glob(f"*{WORK_STORE_SUFFIX}*")), "the work store is removed at the end"
    assert "died" not in proc.stderr, explain(proc)


def _workers(run: subprocess.Popen[str], count: int) -> list[psutil.Process]:
    """The run's worker processes, once ``count`` of them are running."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and run.poll() is None:
        children = psutil.Process(run.pid).children()
        workers = [c for c in children if "taumesh.orchestrator.scale.worker" in " ".join(c.cmdline())]
        if len(workers) >= count:
            return workers
        time.sleep(0.05)
    raise AssertionError("the workers did not start")


def _listening(process: psutil.Process) -> set[int]:
    """The TCP ports ``process`` listens on (none once it is gone)."""
    try:
        return {c.laddr.port for c in process.net_connections("tcp") if c.status == psutil.CONN_LISTEN}
    except psutil.NoSuchProcess:
        return set()


@pytest.mark.slow
def test_each_worker_of_an_embedded_run_serves_its_own_services(tmp_path: Path) -> None:
    """With no service given by address, each worker starts the four services in its own process: two workers are
    two whole stacks, each on its core, not two orchestrators waiting on the coordinator's one process."""
    run = start_taumesh(
        "run", "--env", "retail", "--task-split", "test", *ORACLE, "--data-dir", V1_DATA, "--log-dir", tmp_path,
        *KILL_RUN, "--max-concurrency", "6", "--workers", "2",
    )  # fmt: skip
    workers = _workers(run, 2)
    ports: dict[int, set[int]] = {}
    deadline = time.monotonic() + 240
    while len(ports) < 2 and time.monotonic() < deadline and run.poll() is None:
        ports |= {w.pid: found for w in workers if w.pid not in ports and len(found := _listening(w)) >= 4}
        time.sleep(0.02)
    coordinator = _listening(psutil.Process(run.pid))
    proc = finish(run)
    assert proc.returncode == 0, explain(proc)
    assert len(ports) == 2, f"workers serving their own services: {ports}"  # four servers each
    first, second = ports.values()
    assert not first & second and not (first | second) & coordinator
    results = load_json(results_path(tmp_path))
    assert len(results) == 32 and all(r["reward"] == 1.0 for r in results)


def _leased_to(store: WorkStore, pid: int) -> int:
    """Unfinished episodes leased to the worker process ``pid`` (its owner id holds its pid)."""
    c = work_episodes.c
    with store.engine.connect() as connection:
        count = connection.scalar(select(func.count()).where(c.result.is_(None), c.owner.like(f"%:{pid}:%")))
    return int(count or 0)


def _when_playing(url: str, run: subprocess.Popen[str], leased_at_least: int) -> None:
    """Wait until some episodes are recorded and ``leased_at_least`` others are in flight under a lease.

    One store (its engine's pooled connection) for the whole wait: a new one per poll cost a database connection,
    a PostgreSQL backend process, 20 times a second.
    """
    deadline = time.monotonic() + 240  # a loaded machine: processes take long to start
    store = WorkStore(url)
    try:
        while time.monotonic() < deadline and run.poll() is None:
            try:
                with store.engine.connect() as connection:
                    c = work_episodes.c
                    done = connection.scalar(select(func.count()).where(c.result.is_not(None)))
                    leased = connection.scalar(select(func.count()).where(c.result.is_(None), c.owner.is_not(None)))
            except DBAPIError:  # the coordinator is still creating the tables
                done, leased = 0, 0
            if (done or 0) >= 2 and (leased or 0) >= leased_at_least:
                return
            time.sleep(0.05)
    finally:
        store.close()
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


def _run_args(log_dir: Path, agent: Server, *extra: str) -> list[str]:
    """The kill tests' run with the slow agent."""
    return ["run", "--env", "retail", "--task-split", "test", *ORACLE, "--data-dir", str(V1_DATA), "--log-dir",
            str(log_dir), *KILL_RUN, "--agent-addr", agent.address, *extra]  # fmt: skip


@pytest.fixture(scope="module")
def alone(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The kill tests' run played by one process (this one, in-process): what the workers must reproduce, played
    once for both kill tests (they only read it)."""
    log_dir = tmp_path_factory.mktemp("alone")
    _, results = oracle_invoke(log_dir, "retail", "test", *KILL_RUN, "--max-concurrency", "8")
    assert len(results) == 32 and all(r["reward"] == 1.0 for r in results)
    return results


def _assert_same_run(results: list[dict[str, Any]], alone: list[dict[str, Any]]) -> None:
    keys = [(r["task_id"], r["trial"]) for r in results]
    assert len(keys) == len(set(keys)) == 32, keys  # every episode recorded once
    assert _summary(results) == _summary(alone)  # same episodes, rewards and order
    assert [r["traj"] for r in results] == [r["traj"] for r in alone]


@pytest.mark.kill
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_killed_worker_of_three_loses_no_episode_and_duplicates_none(
    tmp_path: Path, servers: list[Server], alone: list[dict[str, Any]]
) -> None:
    log_dir = tmp_path / "results"
    run = start_taumesh(*_run_args(log_dir, _slow_agent(tmp_path, servers), "--max-concurrency", "9", "--workers", "3"))
    victim = _workers(run, 3)[0]
    deadline = time.monotonic() + 240
    while not (stores := list(log_dir.glob(f"*{WORK_STORE_SUFFIX}"))) and time.monotonic() < deadline:
        time.sleep(0.05)
    _when_playing(sqlite_url(stores[0]), run, leased_at_least=7)  # of at most 3 per worker: all three play
    victim.send_signal(signal.SIGKILL)
    proc = finish(run, timeout=300)
    assert proc.returncode == 0, explain(proc)
    died = re.search(rf"worker \d+ \(pid {victim.pid}\) died \(signal 9\); (?P<lost>\d+) episode", proc.stderr)
    assert died, explain(proc)
    assert int(died["lost"]) >= 1, explain(proc)  # it was playing some: they were played again elsewhere
    _assert_same_run(load_json(results_path(log_dir)), alone)
    assert not list(log_dir.glob("*.errors.json")), explain(proc)
    assert not list(log_dir.glob(f"*{WORK_STORE_SUFFIX}*")), "the work store is removed at the end"


def _join(url: str) -> subprocess.Popen[str]:
    """A ``taumesh worker`` joining the store's run, as a pod of the Indexed Job does."""
    return start_taumesh(
        "worker", "--work-store", url, "--max-concurrency", "3", "--lease-seconds", "3", "--wait-seconds", "300"
    )


@pytest.mark.kill
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_coordinator_and_four_workers_on_postgresql_survive_a_killed_worker(
    tmp_path: Path, servers: list[Server], postgres: Postgres, alone: list[dict[str, Any]]
) -> None:
    url = create_database(postgres, f"work_{uuid.uuid4().hex[:12]}")
    log_dir = tmp_path / "results"
    coordinator = start_taumesh(
        *_run_args(log_dir, _slow_agent(tmp_path, servers), "--max-concurrency", "12", "--workers", "0",
                   "--work-store", url)
    )  # fmt: skip
    workers = [_join(url) for _ in range(4)]
    try:
        _when_playing(url, coordinator, leased_at_least=10)  # of at most 3 per worker: all four play
        store = WorkStore(url)
        victim = max(workers, key=lambda w: _leased_to(store, w.pid))
        lost = _leased_to(store, victim.pid)
        store.close()
        victim.send_signal(signal.SIGKILL)
        proc = finish(coordinator, timeout=300)
        assert proc.returncode == 0, explain(proc)
        assert lost >= 1  # it was playing some: their leases ran out and other workers played them
        _assert_same_run(load_json(results_path(log_dir)), alone)
        assert not list(log_dir.glob("*.errors.json")), explain(proc)
        for worker in workers:
            if worker is not victim:
                ended = finish(worker, timeout=60)
                assert ended.returncode == 0, explain(ended)
        store = WorkStore(url)
        assert store.counts(results_path(log_dir).stem) == (0, 0)
        with store.engine.connect() as connection:  # the coordinator deleted its run from the store
            assert connection.scalar(select(func.count()).select_from(work_episodes)) == 0
        store.close()
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()


def test_a_worker_without_a_usable_store_says_so(tmp_path: Path) -> None:
    bad = invoke("worker", "--work-store", "not a url", "--wait-seconds", "0")
    assert bad.exit_code == 2 and "is not a database URL" in bad.stderr, explain_result(bad)
    assert "Traceback" not in bad.stderr
    idle = invoke("worker", "--work-store", sqlite_url(tmp_path / "w.sqlite"), "--wait-seconds", "0")
    assert idle.exit_code == 0 and "0 episode(s) recorded" in idle.stderr, explain_result(idle)


def test_workers_zero_needs_a_work_store(tmp_path: Path) -> None:
    result = invoke("run", "--env", "retail", *ORACLE, "--workers", "0", "--log-dir", tmp_path)
    assert result.exit_code == 2, explain_result(result)
    assert "--workers 0 (coordinate only) needs --work-store" in result.stderr, explain_result(result)


def test_concurrency_is_shared_among_the_workers() -> None:
    assert worker_slots(2, 8) == [4, 4]
    assert worker_slots(3, 8) == [3, 3, 2]
    assert worker_slots(4, 2) == [1, 1]  # never a worker with nothing to play
    assert worker_slots(0, 8) == []  # coordinate only
