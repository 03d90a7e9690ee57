"""The one work store's leases, on a SQLite file and on PostgreSQL: of racing workers one wins each episode, a lease
that ran out is taken over, a worker that lost an episode cannot record it, and results are numbered in the order
they were recorded, each once."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from taumesh.orchestrator.scale.work_store import WorkStore, remove_files, sqlite_url
from tests.helpers.api import Postgres, create_database
from tests.helpers.clock import FakeClock

PLAN = [(str(task), trial) for trial in range(2) for task in range(20)]
RUN = "run-1"


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh store's URL: a SQLite file, or a database of the tests' PostgreSQL server."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path / "run.work.sqlite")
    postgres: Postgres = request.getfixturevalue("postgres")
    return create_database(postgres, f"work_{uuid.uuid4().hex[:12]}")


@pytest.fixture
def clock() -> FakeClock:
    """The store's time: a lease runs out when the test advances it, never by waiting."""
    return FakeClock()


@pytest.fixture
def store(url: str, clock: FakeClock) -> Iterator[WorkStore]:
    opened = WorkStore(url, clock=clock)
    opened.create_tables()
    yield opened
    opened.close()


def test_the_plan_is_leased_in_its_order_and_in_batches(store: WorkStore) -> None:
    store.add_run(RUN, PLAN)
    store.add_run("other", PLAN[:3])  # runs share the store, not their episodes
    first = store.claim(RUN, "a", 5, ttl=60)
    assert [(c.task_id, c.trial) for c in first] == PLAN[:5]
    assert [c.seq for c in store.claim(RUN, "b", 3, ttl=60)] == [5, 6, 7]
    assert store.counts(RUN) == (len(PLAN), 8)
    assert store.counts("other") == (3, 0)


def test_racing_owners_never_get_the_same_episode(url: str, store: WorkStore) -> None:
    store.add_run(RUN, PLAN)
    won: dict[str, list[int]] = {}
    start = threading.Barrier(4)

    def worker(owner: str) -> None:
        mine = WorkStore(url)  # its own engine, as a worker process has
        start.wait()
        seqs: list[int] = []
        while claimed := mine.claim(RUN, owner, 3, ttl=60):
            seqs += [c.seq for c in claimed]
            for episode in claimed:
                assert mine.complete(RUN, owner, episode.seq, f'"{owner}"')
        won[owner] = seqs
        mine.close()

    threads = [threading.Thread(target=worker, args=(f"w{i}",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    every = [seq for seqs in won.values() for seq in seqs]
    assert sorted(every) == list(range(len(PLAN))), won  # each episode leased once, none left out
    assert sum(1 for seqs in won.values() if seqs) >= 2, won  # they did race
    finished = store.finished_after(RUN, 0)
    assert [f.finished for f in finished] == list(range(1, len(PLAN) + 1))  # numbered once each, no gap
    assert sorted(f.seq for f in finished) == list(range(len(PLAN)))


def test_an_expired_lease_is_taken_over_and_the_stale_owner_is_refused(store: WorkStore, clock: FakeClock) -> None:
    store.add_run(RUN, PLAN[:3])
    assert [c.seq for c in store.claim(RUN, "stale", 3, ttl=0.2)] == [0, 1, 2]
    assert store.claim(RUN, "other", 3, ttl=60) == []  # leased, not yet expired
    clock.advance(0.19)
    assert store.claim(RUN, "other", 3, ttl=60) == []  # a lease holds to its last moment
    clock.advance(0.02)
    assert store.complete(RUN, "stale", 2, '"late but still its own"')  # ran out, nobody took it: still its own
    taken = store.claim(RUN, "other", 3, ttl=60)
    assert [c.seq for c in taken] == [0, 1]  # the expired ones; the recorded one stays recorded
    assert store.renew("stale", ttl=60) == 0  # nothing is its own any more
    assert not store.complete(RUN, "stale", 0, '"stale"')
    assert store.complete(RUN, "other", 0, '"fresh"')
    assert not store.complete(RUN, "other", 0, '"twice"')  # recorded once
    finished = store.finished_after(RUN, 0)
    assert [(f.seq, f.result) for f in finished] == [(2, '"late but still its own"'), (0, '"fresh"')]
    assert [f.finished for f in finished] == [1, 2]
    assert store.finished_after(RUN, 1)[0].seq == 0
    assert store.counts(RUN) == (1, 1)


def test_released_episodes_go_to_the_next_claim(store: WorkStore) -> None:
    store.add_run(RUN, PLAN[:4])
    store.claim(RUN, "dead", 2, ttl=60)
    assert store.release("dead") == 2
    assert [c.seq for c in store.claim(RUN, "alive", 4, ttl=60)] == [0, 1, 2, 3]
    assert store.release("dead") == 0


def test_workers_join_runs_with_a_spec_until_they_are_done(store: WorkStore) -> None:
    store.add_run(RUN, PLAN[:1], spec='{"joinable": true}')
    store.add_run("private", PLAN[:1])  # no spec: only its coordinator plays it (the REST API's runs)
    assert store.open_runs() == [(RUN, '{"joinable": true}')]
    [episode] = store.claim(RUN, "w", 1, ttl=60)
    assert store.open_runs() == [(RUN, '{"joinable": true}')]  # leased is not finished
    assert store.complete(RUN, "w", episode.seq, "{}")
    assert store.open_runs() == []
    store.delete_run(RUN)
    assert store.spec(RUN) is None and store.counts(RUN) == (0, 0)


def test_one_coordinator_holds_a_run_and_a_lapsed_one_loses_it(store: WorkStore, clock: FakeClock) -> None:
    assert store.claim_run(RUN, "api-a", ttl=0.2)  # creates the run
    assert not store.claim_run(RUN, "api-b", ttl=60)
    assert store.claim_run(RUN, "api-a", ttl=0.2)  # its own already
    clock.advance(0.19)
    assert not store.claim_run(RUN, "api-b", ttl=60)
    clock.advance(0.02)
    assert store.claim_run(RUN, "api-b", ttl=60)
    assert not store.renew_run(RUN, "api-a", ttl=60)
    assert store.renew_run(RUN, "api-b", ttl=60)
    assert not store.has_plan(RUN)
    store.add_run(RUN, PLAN[:2])
    assert store.has_plan(RUN)
    store.release_run(RUN, "api-b")
    assert store.claim_run(RUN, "api-c", ttl=60)


def test_a_sqlite_store_is_removed_with_its_wal_files(tmp_path: Path) -> None:
    path = tmp_path / "run.work.sqlite"
    store = WorkStore(sqlite_url(path))
    store.create_tables()
    store.add_run(RUN, PLAN)
    store.close()
    remove_files(path)
    assert not list(tmp_path.iterdir())
