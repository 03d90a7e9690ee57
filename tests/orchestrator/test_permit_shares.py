"""``--provider-limit`` shared by a run's workers through the work store: call slots leased like episodes.

The store's part on a real SQLite file (fair shares, extras given back, a dead worker's slots taken over once its
lease ran out); then runs as a user makes them: ``taumesh worker`` processes joining one run, more of them than the
cap allows calls, against the scripted OpenAI-compatible server, which counts the calls it holds at once; one of
them SIGKILLed while it holds slots; and ``taumesh run --workers 2``, whose display shows the workers' figures.
"""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, select, text
from sqlalchemy.exc import DBAPIError

from taumesh.domains import Catalog
from taumesh.llm.limiter import ProviderStats
from taumesh.models import AgentSettings, ModelSettings, UserSettings
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.provider_limits import AGENT_METHODS, provider_limits, shared_limiters
from taumesh.orchestrator.scale import permit_shares
from taumesh.orchestrator.scale.permit_shares import PermitShares, SlotLimiters, run_stats
from taumesh.orchestrator.scale.work_store import Held, WorkerStats, WorkStore, sqlite_url, work_permits
from tests.helpers.api import Postgres, create_database
from tests.helpers.cli import explain, explain_result, finish, invoke, load_json, results_path, start_taumesh
from tests.helpers.clock import FakeClock
from tests.helpers.fake_model import FakeOpenAI
from tests.helpers.paths import V1_DATA
from tests.llm.scripts import AGENT_MODEL, USER_MODEL, CountingScript, GoldAgent, Router, ScriptedLlmUser, TaskIndex

# the store


@pytest.fixture
def clock() -> FakeClock:
    """The store's time: slots' leases run out when the test advances it."""
    return FakeClock()


@pytest.fixture
def store(tmp_path: Path, clock: FakeClock) -> Iterator[WorkStore]:
    work = WorkStore(sqlite_url(tmp_path / "work.sqlite"), clock=clock)
    work.create_tables()
    work.add_run("r", [(str(i), 0) for i in range(8)], "{}", {"openai": 4})
    yield work
    work.close()


def _beat(store: WorkStore, owner: str, ttl: float = 30.0) -> Held:
    """``owner``'s heartbeat, as a worker playing an episode (an idle one counts for no share)."""
    store.claim("r", owner, 1, ttl)
    return store.share_permits("r", owner, ttl, "[]", ["openai"])["openai"]


def test_a_cap_is_split_over_the_live_workers_and_extras_go_back(store: WorkStore) -> None:
    assert _beat(store, "a") == Held(held=4, share=4)  # alone: the whole cap
    assert _beat(store, "b") == Held(held=0, share=2)  # a holds every slot until it gives its extras back
    assert store.give_back_permits("r", "a", "openai", 2) == 2
    assert _beat(store, "b") == Held(held=2, share=2)
    assert _beat(store, "c") == Held(held=0, share=1)  # three workers: 2, 1, 1 (the first by id get the remainder)
    assert _beat(store, "a") == Held(held=2, share=2)
    assert _beat(store, "b") == Held(held=2, share=1)
    store.release("b")  # b stopped: it counts no more, its slots are free
    assert _beat(store, "c") == Held(held=2, share=2)
    idle = store.share_permits("r", "b", 30.0, "[]", ["openai"])["openai"]  # b beats again, with no episode
    assert idle == Held(held=0, share=0)  # an idle worker keeps no slot from those with work


def test_workers_past_the_cap_hold_nothing_and_a_dead_ones_slots_come_back(store: WorkStore, clock: FakeClock) -> None:
    owners = [f"w{i}" for i in range(6)]
    held = {owner: _beat(store, owner, ttl=0.5) for owner in owners}
    assert sum(h.held for h in held.values()) == 4  # never more than the cap, however many workers
    assert [held[o].share for o in owners[-2:]] == [0, 0]  # the six live: the last two get no share
    clock.advance(0.49)
    assert _beat(store, "w5").share == 0  # the six are still live: no lease has run out
    clock.advance(0.02)  # every lease ran out (all of them died)
    assert _beat(store, "w5") == Held(held=4, share=4)  # alone now: it takes the dead ones' slots


def test_a_beat_counts_every_providers_slots_in_one_query(tmp_path: Path) -> None:
    """A steady beat's statements do not grow with the providers capped: one grouped count gives them all."""
    work = WorkStore(sqlite_url(tmp_path / "work.sqlite"))
    try:
        work.create_tables()
        work.add_run("one", [("0", 0)], "{}", {"openai": 2})
        work.add_run("three", [("0", 0)], "{}", {"openai": 2, "anthropic": 2, "mistral": 2})
        statements: list[str] = []

        def count(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
            statements.append(statement)

        def steady_beat(run_id: str, providers: list[str]) -> int:
            work.claim(run_id, "a", 1, 30.0)
            first = work.share_permits(run_id, "a", 30.0, "[]", providers)  # takes its slots
            assert all(held == Held(held=2, share=2) for held in first.values()) and len(first) == len(providers)
            statements.clear()
            again = work.share_permits(run_id, "a", 30.0, "[]", providers)  # holds them all: takes none
            assert again == first
            return len(statements)

        event.listen(work.engine, "before_cursor_execute", count)
        assert steady_beat("three", ["openai", "anthropic", "mistral"]) == steady_beat("one", ["openai"])
    finally:
        work.close()


def test_the_coordinator_sums_the_workers_figures() -> None:
    def stats(in_flight: int, window: int, refused: int, calls: int) -> str:
        figures = ProviderStats(
            provider="openai", in_flight=in_flight, window=window, cap=4, rate_limited=refused, calls=calls
        )
        return f"[{figures.model_dump_json()}]"

    workers = [WorkerStats(stats(2, 2, 3, 10), live=True), WorkerStats(stats(1, 2, 4, 7), live=False)]
    [live] = run_stats(workers, {"openai": 4})
    assert (live.in_flight, live.window, live.rate_limited, live.calls) == (2, 2, 7, 17)  # gone ones: 429s only
    [ended] = run_stats(workers, {"openai": 4}, ended=True)
    assert (ended.in_flight, ended.window, ended.rate_limited) == (0, 4, 7)  # none live: windows add up, capped


# runs


@pytest.fixture(scope="module")
def task_index(v1_data_dir: Path) -> TaskIndex:
    return TaskIndex(Catalog(v1_data_dir).get("retail").tasks("test"))


def _short_tasks(index: TaskIndex, count: int) -> list[int]:
    """The ``count`` tasks with the fewest gold actions (two to four model calls an episode), in split order."""
    usable = [i for i, task in enumerate(index.tasks) if task.instruction == task.instruction.strip()]
    return sorted(sorted(usable, key=lambda i: (len(index.tasks[i].actions), i))[:count])


def _run_args(fake: FakeOpenAI, index: TaskIndex, log_dir: Path, trials: int, *extra: str) -> list[str]:
    ids = [arg for task_id in _short_tasks(index, 4) for arg in ("--task-ids", str(task_id))]
    return [
        "run", "--env", "retail", "--task-split", "test", *ids, "--num-trials", str(trials), "--data-dir", str(V1_DATA),
        "--agent-strategy", "tool-calling", "--model", AGENT_MODEL, "--model-provider", "openai",
        "--api-base", fake.url, "--user-strategy", "llm-taumesh", "--user-model", USER_MODEL,
        "--user-model-provider", "openai", "--user-api-base", fake.url, "--log-dir", str(log_dir), *extra,
    ]  # fmt: skip


def _join(url: str) -> subprocess.Popen[str]:
    """A ``taumesh worker`` joining the store's run, as a pod of the Indexed Job does (a 3 s lease)."""
    return start_taumesh(
        "worker", "--work-store", url, "--max-concurrency", "3", "--lease-seconds", "3", "--wait-seconds", "300"
    )


def _recorded_once(log_dir: Path, episodes: int) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = load_json(results_path(log_dir))
    keys = [(r["task_id"], r["trial"]) for r in results]
    assert len(keys) == len(set(keys)) == episodes, keys
    assert all(r["reward"] == 1.0 for r in results)
    assert not list(log_dir.glob("*.errors.json")), "no episode is an infrastructure error"
    return results


def _stop(workers: list[subprocess.Popen[str]]) -> None:
    for worker in workers:
        if worker.poll() is None:
            worker.kill()
            worker.wait()


@pytest.mark.slow  # three worker processes and a coordinator: about 10 s
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_workers_joining_a_run_never_pass_its_cap(
    fake: FakeOpenAI, task_index: TaskIndex, tmp_path: Path, request: pytest.FixtureRequest, backend: str
) -> None:
    if backend == "sqlite":
        url = sqlite_url(tmp_path / "work.sqlite")
    else:
        postgres: Postgres = request.getfixturevalue("postgres")
        url = create_database(postgres, f"permits_{uuid.uuid4().hex[:12]}")
    script = CountingScript(Router(GoldAgent(task_index), ScriptedLlmUser(task_index)), refusals=0.0, latency=0.05)
    fake.reset(script)
    workers = [_join(url) for _ in range(3)]  # 3 workers × 3 episodes at once, and 2 calls allowed in all
    try:
        args = _run_args(fake, task_index, tmp_path / "results", 3, "--max-concurrency", "9")
        coordinator = invoke(*args, "--workers", "0", "--work-store", url, "--provider-limit", "openai=2")
        assert coordinator.exit_code == 0, explain_result(coordinator)
        _recorded_once(tmp_path / "results", 12)
        assert script.peak <= 2, f"{script.peak} calls were in flight at once"
        for worker in workers:
            ended = finish(worker, timeout=60)
            assert ended.returncode == 0, explain(ended)
    finally:
        _stop(workers)


def _slots(store: WorkStore, pid: int) -> int:
    """Call slots the worker process ``pid`` holds (its owner id holds its pid)."""
    c = work_permits.c
    try:
        with store.engine.connect() as connection:
            return int(connection.scalar(select(func.count()).where(c.owner.like(f"%:{pid}:%"))) or 0)
    except DBAPIError:  # the tables are not there yet
        return 0


def _wait_for(condition: Any, what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.mark.kill
@pytest.mark.slow  # two workers, one SIGKILLed: the other waits out its 3 s lease
def test_a_killed_workers_slots_go_to_the_others_after_its_lease(
    fake: FakeOpenAI, task_index: TaskIndex, tmp_path: Path
) -> None:
    url = sqlite_url(tmp_path / "work.sqlite")
    script = CountingScript(Router(GoldAgent(task_index), ScriptedLlmUser(task_index)), refusals=0.0, latency=0.2)
    fake.reset(script)
    workers = [_join(url) for _ in range(2)]
    log_dir = tmp_path / "results"
    args = _run_args(fake, task_index, log_dir, 4, "--max-concurrency", "6", "--workers", "0", "--work-store", url)
    coordinator = start_taumesh(*args, "--provider-limit", "openai=2")
    store = WorkStore(url)
    try:
        _wait_for(lambda: all(_slots(store, w.pid) == 1 for w in workers), "each worker holds one of the 2 slots")
        victim, survivor = workers
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        assert _slots(store, victim.pid) == 1  # a dead worker keeps its slot until its lease runs out
        _wait_for(lambda: _slots(store, survivor.pid) == 2, "the survivor takes the dead worker's slot")
        proc = finish(coordinator, timeout=300)
        assert proc.returncode == 0, explain(proc)
        _recorded_once(log_dir, 16)
        assert script.peak <= 2, f"{script.peak} calls were in flight at once"
        ended = finish(survivor, timeout=60)
        assert ended.returncode == 0, explain(ended)
    finally:
        store.close()
        _stop([*workers, coordinator])


@pytest.mark.slow  # a run with two worker processes: about 6 s
def test_the_display_of_a_run_with_workers_shows_the_providers(
    fake: FakeOpenAI, task_index: TaskIndex, tmp_path: Path
) -> None:
    script = CountingScript(
        Router(GoldAgent(task_index), ScriptedLlmUser(task_index)), refusals=0.3, latency=0.02, retry_after="0.01"
    )
    fake.reset(script)
    args = _run_args(fake, task_index, tmp_path, 2, "--max-concurrency", "8", "--workers", "2")
    result = invoke(*args, "--provider-limit", "openai=8")
    assert result.exit_code == 0, explain_result(result)
    _recorded_once(tmp_path, 8)
    assert script.refused > 0 and script.peak <= 8
    shown = re.findall(r"openai calls in flight 0/(\d+), 429s (\d+)", result.output)  # the display's last line
    assert shown, result.output[-2000:]
    window, refused = map(int, shown[-1])
    assert refused == script.refused, result.output[-2000:]  # every worker's 429s, summed
    assert 1 <= window <= 8


def test_a_worker_holds_calls_back_at_its_slots_and_while_the_store_fails(
    store: WorkStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limiter of a worker alone holds the whole cap; a share shrunk to one lets one call in flight; a beat that
    cannot reach the store lets none start (its slots may be taken over meanwhile)."""
    monkeypatch.setattr(permit_shares, "BEAT_S", 0.05)
    config = RunConfig(
        agent=AgentSettings(strategy="tool-calling", model=ModelSettings(model="gpt-4o", provider="openai")),
        user=UserSettings(strategy="scripted"),
        provider_limits={"openai": 4},
    )

    async def run() -> None:
        with shared_limiters(SlotLimiters(config.provider_limits, 8)), provider_limits(config, 8) as limits:
            shares = PermitShares(store, "r", "a", limits, lease_seconds=30.0)
            limiter = limits.by_method[AGENT_METHODS[0]]
            assert not shares.ready and limiter.allowed == 0  # no call before the first beat
            store.claim("r", "a", 1, 30.0)
            await shares.beat()
            assert shares.ready and limiter.allowed == 4  # alone, with an episode: the whole cap
            permits = [await limiter.acquire() for _ in range(3)]
            _beat(store, "b")  # a second worker with an episode: a's share is 2, its 3 calls keep their slots
            await shares.beat()
            assert store.share_permits("r", "b", 30.0, "[]", ["openai"])["openai"] == Held(held=1, share=2)
            limiter.release(permits.pop())
            await shares.beat()  # one call ended: its slot goes to b
            assert store.share_permits("r", "b", 30.0, "[]", ["openai"])["openai"] == Held(held=2, share=2)
            with store.engine.begin() as connection:  # the store fails
                connection.execute(text("DROP TABLE work_permits"))
            beating = asyncio.create_task(shares.keep_beating())
            await asyncio.sleep(0.3)
            assert limiter.allowed == 0 and not beating.done()
            beating.cancel()

    asyncio.run(run())
