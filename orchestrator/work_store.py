"""The episodes of a run shared by several worker processes: a SQLite file leased out episode by episode.

The coordinator writes the plan (:meth:`WorkStore.create`); each worker takes a batch of episodes under a lease
(:meth:`WorkStore.claim`: an owner id and an expiry, renewed while it plays them), and records each result with
a conditional UPDATE that holds only while that episode is still leased to it (:meth:`WorkStore.complete`). So
an episode is recorded once, and one whose worker died is leased again (at once when the coordinator saw it die,
else when the lease runs out) and played by another worker. The same idea as the REST API's per-run leases, one
level down and without importing the API (a layer above the orchestrator).

Each method is one short transaction whose first statement writes, so SQLite takes its write lock before reading
and concurrent writers wait on the busy timeout instead of failing.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Engine,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    event,
    func,
    or_,
    select,
    update,
)

BUSY_TIMEOUT_S = 30.0
"""How long a transaction waits for another process's write lock before failing."""

_metadata = MetaData()
episodes = Table(
    "episodes",
    _metadata,
    Column("seq", Integer, primary_key=True, autoincrement=False, doc="the episode's place in the run's plan"),
    Column("task_id", String, nullable=False, doc="the env's task id"),
    Column("trial", Integer, nullable=False),
    Column("owner", String, nullable=True, doc="the worker holding the lease; NULL: free"),
    Column("lease_expires", Float, nullable=True, doc="when the lease runs out (seconds since the epoch)"),
    Column("claims", Integer, nullable=False, default=0, doc="how many times the episode was leased"),
    Column("result", Text, nullable=True, doc="the RunResult as JSON, once recorded"),
    Column("finished", Integer, nullable=True, doc="1, 2, 3, … in the order results were recorded"),
)
Index("episodes_finished", episodes.c.finished)
Index("episodes_owner", episodes.c.owner)


@dataclass(frozen=True, order=True)
class Claimed:
    """An episode leased to a worker."""

    seq: int
    task_id: str
    trial: int


@dataclass(frozen=True)
class Finished:
    """A recorded result, with its place in the order results came in."""

    finished: int
    seq: int
    result: str


def _engine(path: Path) -> Engine:
    engine = create_engine(f"sqlite:///{path}", connect_args={"timeout": BUSY_TIMEOUT_S})

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")  # readers (the coordinator) never block the writers
        cursor.execute("PRAGMA synchronous=NORMAL")  # durable enough for a file deleted at the run's end
        cursor.close()

    return engine


def _rows(result: Any) -> int:
    return int(result.rowcount)


class WorkStore:
    """One run's episodes, their leases and their results, in the SQLite file ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.engine = _engine(path)

    @classmethod
    def create(cls, path: Path, plan: Sequence[tuple[str, int]]) -> WorkStore:
        """A new store at ``path`` (replacing one a killed run left) holding ``plan``'s (task id, trial) pairs."""
        remove_files(path)
        store = cls(path)
        _metadata.create_all(store.engine)
        with store.engine.begin() as connection:
            if plan:
                connection.execute(
                    episodes.insert(),
                    [{"seq": seq, "task_id": task_id, "trial": trial} for seq, (task_id, trial) in enumerate(plan)],
                )
        return store

    def close(self) -> None:
        self.engine.dispose()

    @staticmethod
    def _claimable(owner: str, now: float) -> Any:
        """Unfinished and free, or leased by ``owner``'s predecessor whose lease ran out."""
        c = episodes.c
        expired = and_(c.owner.is_not(None), c.owner != owner, c.lease_expires < now)
        return and_(c.result.is_(None), or_(c.owner.is_(None), expired))

    def claim(self, owner: str, limit: int, ttl: float) -> list[Claimed]:
        """Lease up to ``limit`` episodes to ``owner`` for ``ttl`` seconds, the earliest of the plan first.

        One conditional UPDATE: of several owners racing for an episode, exactly one gets it.
        """
        if limit < 1:
            return []
        now = time.time()
        c = episodes.c
        chosen = select(c.seq).where(self._claimable(owner, now)).order_by(c.seq).limit(limit)
        statement = (
            update(episodes)
            .where(c.seq.in_(chosen.scalar_subquery()), self._claimable(owner, now))
            .values(owner=owner, lease_expires=now + ttl, claims=c.claims + 1)
            .returning(c.seq, c.task_id, c.trial)
        )
        with self.engine.begin() as connection:
            rows = connection.execute(statement).all()
        return sorted(Claimed(seq=row.seq, task_id=row.task_id, trial=row.trial) for row in rows)

    def renew(self, owner: str, ttl: float) -> int:
        """Extend every lease ``owner`` still holds; returns how many."""
        c = episodes.c
        with self.engine.begin() as connection:
            renewed = connection.execute(
                update(episodes).where(c.owner == owner, c.result.is_(None)).values(lease_expires=time.time() + ttl)
            )
        return _rows(renewed)

    def complete(self, owner: str, seq: int, result: str) -> bool:
        """Record episode ``seq``'s ``result`` if ``owner`` still holds its lease; False when it does not.

        A lease that ran out is still ``owner``'s until another worker takes the episode over: only then is the
        late result refused, so that each episode is recorded once.
        """
        c = episodes.c
        next_finished = select(func.coalesce(func.max(c.finished), 0) + 1).scalar_subquery()
        with self.engine.begin() as connection:
            done = connection.execute(
                update(episodes)
                .where(c.seq == seq, c.owner == owner, c.result.is_(None))
                .values(result=result, finished=next_finished)
            )
        return _rows(done) == 1

    def release(self, owner: str) -> int:
        """Free every unfinished episode ``owner`` holds (it stopped or died); returns how many."""
        c = episodes.c
        with self.engine.begin() as connection:
            released = connection.execute(
                update(episodes).where(c.owner == owner, c.result.is_(None)).values(owner=None, lease_expires=None)
            )
        return _rows(released)

    def finished_after(self, finished: int) -> list[Finished]:
        """Results recorded after the ``finished``-th one, in the order they came in."""
        c = episodes.c
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(c.finished, c.seq, c.result).where(c.finished > finished).order_by(c.finished)
            ).all()
        return [Finished(finished=row.finished, seq=row.seq, result=row.result) for row in rows]

    def counts(self) -> tuple[int, int]:
        """(episodes without a result, those of them under a lease that has not run out)."""
        c = episodes.c
        leased = and_(c.owner.is_not(None), c.lease_expires >= time.time())
        with self.engine.connect() as connection:
            row = connection.execute(
                select(func.count(), func.count().filter(leased)).select_from(episodes).where(c.result.is_(None))
            ).one()
        return int(row[0]), int(row[1])


def remove_files(path: Path) -> None:
    """Delete the store at ``path`` with SQLite's WAL files beside it."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
