"""The work store's leases: of racing workers one wins each episode, a lease that ran out is taken over, and a
worker that lost an episode cannot record it."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from taumesh.orchestrator.work_store import WorkStore, remove_files

PLAN = [(str(task), trial) for trial in range(2) for task in range(20)]


def test_the_plan_is_leased_in_its_order_and_in_batches(tmp_path: Path) -> None:
    store = WorkStore.create(tmp_path / "run.work.sqlite", PLAN)
    first = store.claim("a", 5, ttl=60)
    assert [(c.task_id, c.trial) for c in first] == PLAN[:5]
    assert [c.seq for c in store.claim("b", 3, ttl=60)] == [5, 6, 7]
    assert store.counts() == (len(PLAN), 8)


def test_racing_owners_never_get_the_same_episode(tmp_path: Path) -> None:
    path = tmp_path / "run.work.sqlite"
    WorkStore.create(path, PLAN).close()
    won: dict[str, list[int]] = {}
    start = threading.Barrier(4)

    def worker(owner: str) -> None:
        store = WorkStore(path)  # its own engine, as a worker process has
        start.wait()
        seqs: list[int] = []
        while claimed := store.claim(owner, 3, ttl=60):
            seqs += [c.seq for c in claimed]
        won[owner] = seqs
        store.close()

    threads = [threading.Thread(target=worker, args=(f"w{i}",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    every = [seq for seqs in won.values() for seq in seqs]
    assert sorted(every) == list(range(len(PLAN))), won  # each episode leased once, none left out
    assert sum(1 for seqs in won.values() if seqs) >= 2, won  # they did race


def test_an_expired_lease_is_taken_over_and_the_stale_owner_is_refused(tmp_path: Path) -> None:
    store = WorkStore.create(tmp_path / "run.work.sqlite", PLAN[:3])
    assert [c.seq for c in store.claim("stale", 3, ttl=0.2)] == [0, 1, 2]
    assert store.claim("other", 3, ttl=60) == []  # leased, not yet expired
    assert store.complete("stale", 2, '"late but still its own"')  # ran out, nobody took it: still its own
    time.sleep(0.3)
    taken = store.claim("other", 3, ttl=60)
    assert [c.seq for c in taken] == [0, 1]  # the expired ones; the recorded one stays recorded
    assert store.renew("stale", ttl=60) == 0  # nothing is its own any more
    assert not store.complete("stale", 0, '"stale"')
    assert store.complete("other", 0, '"fresh"')
    assert not store.complete("other", 0, '"twice"')  # recorded once
    finished = store.finished_after(0)
    assert [(f.seq, f.result) for f in finished] == [(2, '"late but still its own"'), (0, '"fresh"')]
    assert [f.finished for f in finished] == [1, 2]
    assert store.finished_after(1)[0].seq == 0
    assert store.counts() == (1, 1)


def test_released_episodes_go_to_the_next_claim(tmp_path: Path) -> None:
    path = tmp_path / "run.work.sqlite"
    store = WorkStore.create(path, PLAN[:4])
    store.claim("dead", 2, ttl=60)
    assert store.release("dead") == 2
    assert [c.seq for c in store.claim("alive", 4, ttl=60)] == [0, 1, 2, 3]
    assert store.release("dead") == 0
    store.close()
    remove_files(path)
    assert not list(tmp_path.iterdir())


def test_a_new_store_replaces_one_a_killed_run_left(tmp_path: Path) -> None:
    path = tmp_path / "run.work.sqlite"
    old = WorkStore.create(path, PLAN)
    old.claim("a", 40, ttl=60)
    old.close()
    new = WorkStore.create(path, PLAN[:2])
    assert new.counts() == (2, 0)
