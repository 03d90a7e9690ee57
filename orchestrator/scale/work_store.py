"""The one work store: runs' episodes leased to workers, on SQLAlchemy (a SQLite file, or PostgreSQL across machines).

A run's coordinator writes its plan (:meth:`WorkStore.add_run`) and holds the run's own lease
(:meth:`WorkStore.claim_run`, renewed while it coordinates). Each worker, in any process on any machine that reaches
the database, takes a batch of the run's episodes under a lease (:meth:`WorkStore.claim`: an owner id and an
expiry, renewed by its heartbeat :meth:`WorkStore.renew`), and records each result with a conditional UPDATE that
holds only while that episode is still leased to it (:meth:`WorkStore.complete`). So an episode is recorded once,
and one whose worker died is leased again (at once when someone saw it die and freed its episodes,
:meth:`WorkStore.release`, else when the lease runs out) and played by another worker. The coordinator reads the
results back in the order they were recorded (:meth:`WorkStore.finished_after`).

``taumesh run --workers N`` keeps its store in a SQLite file beside the results, or in the database
``--work-store`` names; the REST API keeps it in its own database (its migrations create these tables), where
the run lease is the API run's lease.

Each method is one short transaction whose first statement writes, so SQLite takes its write lock before reading
and concurrent writers wait on the busy timeout instead of failing; on PostgreSQL, claims skip the rows another
claim has locked, and recording takes the run's row lock, so that results are numbered without gaps in the order
their transactions commit. Lease times are the machines' clocks (seconds since the epoch): keep them in sync.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    case,
    create_engine,
    delete,
    event,
    func,
    insert,
    make_url,
    or_,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError

BUSY_TIMEOUT_S = 30.0
"""How long a SQLite transaction waits for another process's write lock before failing."""

metadata = MetaData()
"""The work store's tables (the API's migration 0003 creates the same ones in its database)."""
work_runs = Table(
    "work_runs",
    metadata,
    Column("run_id", String(80), primary_key=True),
    Column("spec", Text, nullable=True, doc="what a worker joining by the store's URL needs (JSON); NULL: none may"),
    Column("owner", String(200), nullable=True, doc="the coordinator holding the run's lease; NULL: free"),
    Column("lease_expires", Float, nullable=True, doc="when that lease runs out (seconds since the epoch)"),
    Column("recorded", Integer, nullable=False, default=0, doc="how many results were recorded"),
)
work_episodes = Table(
    "work_episodes",
    metadata,
    Column("run_id", String(80), ForeignKey("work_runs.run_id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False, doc="the episode's place in the run's plan"),
    Column("task_id", String(100), nullable=False, doc="the env's task id"),
    Column("trial", Integer, nullable=False),
    Column("owner", String(200), nullable=True, doc="the worker holding the lease; NULL: free"),
    Column("lease_expires", Float, nullable=True, doc="when the lease runs out (seconds since the epoch)"),
    Column("claims", Integer, nullable=False, default=0, doc="how many times the episode was leased"),
    Column("result", Text, nullable=True, doc="the RunResult as JSON, once recorded"),
    Column("finished", Integer, nullable=True, doc="1, 2, 3, … in the order results were recorded"),
)
Index("ix_work_episodes_finished", work_episodes.c.run_id, work_episodes.c.finished)
Index("ix_work_episodes_owner", work_episodes.c.owner)
work_workers = Table(
    "work_workers",
    metadata,
    Column("run_id", String(80), ForeignKey("work_runs.run_id", ondelete="CASCADE"), primary_key=True),
    Column("owner", String(200), primary_key=True, doc="the worker's lease owner id"),
    Column("lease_expires", Float, nullable=True, doc="when it counts as gone unless it beats again; NULL: it left"),
    Column("stats", Text, nullable=True, doc="its model calls per provider (JSON list of ProviderStats)"),
)
work_permits = Table(
    "work_permits",
    metadata,
    Column("run_id", String(80), ForeignKey("work_runs.run_id", ondelete="CASCADE"), primary_key=True),
    Column("provider", String(100), primary_key=True),
    Column("slot", Integer, primary_key=True, autoincrement=False, doc="0 … the provider's cap − 1"),
    Column("owner", String(200), nullable=True, doc="the worker holding this call slot; NULL: free"),
    Column("lease_expires", Float, nullable=True, doc="when the lease runs out (seconds since the epoch)"),
)
Index("ix_work_permits_owner", work_permits.c.owner)


@dataclass(frozen=True, order=True)
class Claimed:
    """An episode leased to a worker."""

    seq: int
    task_id: str
    trial: int


@dataclass(frozen=True)
class Held:
    """A worker's part of one provider's cap: the call slots it holds and the fair share it may hold."""

    held: int
    share: int


@dataclass(frozen=True)
class WorkerStats:
    """What a worker last wrote of its model calls (JSON), and whether its lease still runs."""

    stats: str
    live: bool


@dataclass(frozen=True)
class Finished:
    """A recorded result, with its place in the order results came in."""

    finished: int
    seq: int
    result: str


def sqlite_url(path: Path) -> str:
    """The store URL of a SQLite file."""
    return f"sqlite:///{path}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``: SQLite in WAL mode with a busy timeout, anything else with a pre-ping pool."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_S})

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")  # readers (the coordinator) never block the writers
        cursor.execute("PRAGMA synchronous=NORMAL")  # durable enough for a file deleted at the run's end
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


def _rows(result: Any) -> int:
    return int(result.rowcount)


Clock = Callable[[], float]
"""Now, in seconds since the epoch: what leases are written and compared in (:func:`time.time` by default)."""


class WorkStore:
    """Runs' episodes, their leases and their results, in the database of ``url`` (or on ``engine``).

    ``clock`` tells the time leases are taken, renewed and found expired by; tests pass one they advance, so no test
    waits for a lease to run out.
    """

    def __init__(self, url: str | None = None, engine: Engine | None = None, clock: Clock = time.time) -> None:
        self.clock = clock
        if engine is None:
            if url is None:
                raise ValueError("a work store needs a URL or an engine")
            engine = make_engine(url)
            self._owns_engine = True
        else:
            self._owns_engine = False
        self.engine = engine

    def create_tables(self) -> None:
        """Create the store's tables where they are missing (several processes may race to: one wins)."""
        try:
            metadata.create_all(self.engine)
        except (IntegrityError, DBAPIError):  # another process created them between the check and the CREATE
            metadata.create_all(self.engine)

    def close(self) -> None:
        if self._owns_engine:
            self.engine.dispose()

    # runs

    def add_run(
        self,
        run_id: str,
        plan: Sequence[tuple[str, int]],
        spec: str | None = None,
        caps: Mapping[str, int] | None = None,
    ) -> None:
        """Write ``plan``'s (task id, trial) pairs as run ``run_id``'s episodes, creating the run if needed.

        ``spec`` lets workers join the run by the store's URL (:meth:`open_runs`). ``caps`` (``--provider-limit``)
        become call slots per provider, which the workers share (:meth:`share_permits`).
        """
        with self.engine.begin() as connection:
            exists = connection.execute(
                update(work_runs).where(work_runs.c.run_id == run_id).values(spec=spec)
            ).rowcount
            if not exists:
                connection.execute(insert(work_runs).values(run_id=run_id, spec=spec, recorded=0))
            if plan:
                connection.execute(
                    insert(work_episodes),
                    [
                        {"run_id": run_id, "seq": seq, "task_id": task_id, "trial": trial, "claims": 0}
                        for seq, (task_id, trial) in enumerate(plan)
                    ],
                )
            if caps:
                connection.execute(delete(work_permits).where(work_permits.c.run_id == run_id))
                connection.execute(
                    insert(work_permits),
                    [
                        {"run_id": run_id, "provider": provider, "slot": slot}
                        for provider, cap in caps.items()
                        for slot in range(cap)
                    ],
                )

    def has_plan(self, run_id: str) -> bool:
        """Whether run ``run_id`` has its episodes written."""
        with self.engine.connect() as connection:
            return connection.scalar(select(func.count()).where(work_episodes.c.run_id == run_id)) != 0

    def claim_run(self, run_id: str, owner: str, ttl: float) -> bool:
        """Take run ``run_id``'s own lease (its coordinator's) when it is free, ran out or is ``owner``'s already.

        Creates the run when the store does not have it. Of several owners racing, exactly one wins.
        """
        now = self.clock()
        c = work_runs.c
        free = or_(c.owner.is_(None), c.owner == owner, c.lease_expires < now)
        try:
            with self.engine.begin() as connection:
                taken = connection.execute(
                    update(work_runs).where(c.run_id == run_id, free).values(owner=owner, lease_expires=now + ttl)
                ).rowcount
                if taken:
                    return True
                if connection.scalar(select(func.count()).where(c.run_id == run_id)):
                    return False
                connection.execute(
                    insert(work_runs).values(run_id=run_id, owner=owner, lease_expires=now + ttl, recorded=0)
                )
                return True
        except IntegrityError:  # another owner created it first
            return False

    def renew_run(self, run_id: str, owner: str, ttl: float) -> bool:
        """Extend ``owner``'s lease of run ``run_id``; False when it is not ``owner``'s any more."""
        c = work_runs.c
        with self.engine.begin() as connection:
            renewed = connection.execute(
                update(work_runs).where(c.run_id == run_id, c.owner == owner).values(lease_expires=self.clock() + ttl)
            )
        return _rows(renewed) == 1

    def holds_run(self, run_id: str, owner: str) -> bool:
        """Whether ``owner`` holds run ``run_id``'s lease (one that ran out, until another owner takes it)."""
        c = work_runs.c
        with self.engine.connect() as connection:
            return connection.scalar(select(func.count()).where(c.run_id == run_id, c.owner == owner)) == 1

    def release_run(self, run_id: str, owner: str) -> None:
        """Give run ``run_id``'s lease up, if ``owner`` holds it."""
        c = work_runs.c
        with self.engine.begin() as connection:
            connection.execute(
                update(work_runs).where(c.run_id == run_id, c.owner == owner).values(owner=None, lease_expires=None)
            )

    def delete_run(self, run_id: str) -> None:
        """Forget run ``run_id``: its lease, episodes and results (the coordinator has moved them elsewhere)."""
        with self.engine.begin() as connection:
            connection.execute(delete(work_permits).where(work_permits.c.run_id == run_id))
            connection.execute(delete(work_workers).where(work_workers.c.run_id == run_id))
            connection.execute(delete(work_episodes).where(work_episodes.c.run_id == run_id))
            connection.execute(delete(work_runs).where(work_runs.c.run_id == run_id))

    def open_runs(self) -> list[tuple[str, str]]:
        """(run id, spec) of the runs workers may join that still have episodes without a result, oldest plan first."""
        r, e = work_runs.c, work_episodes.c
        unfinished = select(e.run_id).where(e.result.is_(None)).distinct().scalar_subquery()
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(r.run_id, r.spec).where(r.spec.is_not(None), r.run_id.in_(unfinished)).order_by(r.run_id)
            ).all()
        return [(row.run_id, row.spec) for row in rows]

    def spec(self, run_id: str) -> str | None:
        """Run ``run_id``'s spec; None when it has none or the store does not have the run."""
        with self.engine.connect() as connection:
            spec: str | None = connection.scalar(select(work_runs.c.spec).where(work_runs.c.run_id == run_id))
        return spec

    # episodes

    @staticmethod
    def _claimable(run_id: str, owner: str, now: float) -> Any:
        """The run's episodes unfinished and free, or leased by a predecessor of ``owner``'s whose lease ran out."""
        c = work_episodes.c
        expired = and_(c.owner.is_not(None), c.owner != owner, c.lease_expires < now)
        return and_(c.run_id == run_id, c.result.is_(None), or_(c.owner.is_(None), expired))

    def claim(self, run_id: str, owner: str, limit: int, ttl: float) -> list[Claimed]:
        """Lease up to ``limit`` of run ``run_id``'s episodes to ``owner`` for ``ttl`` seconds, the plan's first first.

        One conditional UPDATE: of several owners racing for an episode, exactly one gets it.
        """
        if limit < 1:
            return []
        now = self.clock()
        c = work_episodes.c
        chosen = (
            select(c.seq)
            .where(self._claimable(run_id, owner, now))
            .order_by(c.seq)
            .limit(limit)
            .with_for_update(skip_locked=True)  # PostgreSQL: racing claims take different rows (SQLite ignores it)
            .cte("chosen")  # evaluated once: a subquery that skips locked rows would be re-run per row updated
        )
        statement = (
            update(work_episodes)
            .where(c.run_id == run_id, c.seq.in_(select(chosen.c.seq)), self._claimable(run_id, owner, now))
            .values(owner=owner, lease_expires=now + ttl, claims=c.claims + 1)
            .returning(c.seq, c.task_id, c.trial)
        )
        with self.engine.begin() as connection:
            rows = connection.execute(statement).all()
        return sorted(Claimed(seq=row.seq, task_id=row.task_id, trial=row.trial) for row in rows)

    def renew(self, owner: str, ttl: float) -> int:
        """``owner``'s heartbeat: extend every lease it still holds; returns how many."""
        c = work_episodes.c
        with self.engine.begin() as connection:
            renewed = connection.execute(
                update(work_episodes)
                .where(c.owner == owner, c.result.is_(None))
                .values(lease_expires=self.clock() + ttl)
            )
        return _rows(renewed)

    def complete(self, run_id: str, owner: str, seq: int, result: str, stats: str | None = None) -> bool:
        """Record episode ``seq``'s ``result`` if ``owner`` still holds its lease; False when it does not.

        A lease that ran out is still ``owner``'s until another worker takes the episode over: only then is the
        late result refused, so that each episode is recorded once. ``stats``: the worker's model calls so far,
        written with the result (so the last result's transaction carries every 429 that led to it).
        """
        e, r = work_episodes.c, work_runs.c
        with self.engine.begin() as connection:
            done = connection.execute(
                update(work_episodes)
                .where(e.run_id == run_id, e.seq == seq, e.owner == owner, e.result.is_(None))
                .values(result=result)
            )
            if _rows(done) != 1:
                return False
            number = connection.execute(  # the run's row lock: numbers follow the commits' order
                update(work_runs).where(r.run_id == run_id).values(recorded=r.recorded + 1).returning(r.recorded)
            ).scalar_one()
            connection.execute(update(work_episodes).where(e.run_id == run_id, e.seq == seq).values(finished=number))
            if stats is not None:
                w = work_workers.c
                connection.execute(update(work_workers).where(w.run_id == run_id, w.owner == owner).values(stats=stats))
        return True

    def release(self, owner: str, stats: str | None = None) -> int:
        """Free every unfinished episode and call slot ``owner`` holds (it stopped or died); returns how many episodes.

        ``owner`` no longer counts among the live workers; ``stats`` (its last figures) are kept for the run's totals.
        """
        c, p, w = work_episodes.c, work_permits.c, work_workers.c
        with self.engine.begin() as connection:
            released = connection.execute(
                update(work_episodes).where(c.owner == owner, c.result.is_(None)).values(owner=None, lease_expires=None)
            )
            connection.execute(update(work_permits).where(p.owner == owner).values(owner=None, lease_expires=None))
            left = {"lease_expires": None} if stats is None else {"lease_expires": None, "stats": stats}
            connection.execute(update(work_workers).where(w.owner == owner).values(**left))
        return _rows(released)

    # call slots of --provider-limit, shared by the live workers

    def share_permits(
        self, run_id: str, owner: str, ttl: float, stats: str, providers: Sequence[str]
    ) -> dict[str, Held]:
        """``owner``'s heartbeat for its model calls: it counts as live, and holds its fair share of call slots.

        It writes ``stats``, renews the call slots it holds and takes free ones (or ones whose lease ran out) up to
        its fair share of each provider's cap: the cap split evenly over the live workers that hold unfinished
        episodes (an idle one holds none: it would keep slots from the workers that have work; the first ones by
        owner id get the remainder; past the cap's number of workers, the others get none). A worker holding more
        than its share gives the extras back with :meth:`give_back_permits` once its calls in flight allow. Empty
        when the store has no such run.
        """
        now = self.clock()
        p, w = work_permits.c, work_workers.c
        try:
            with self.engine.begin() as connection:
                beat = {"lease_expires": now + ttl, "stats": stats}
                found = connection.execute(
                    update(work_workers).where(w.run_id == run_id, w.owner == owner).values(**beat)
                ).rowcount
                if not found:
                    connection.execute(insert(work_workers).values(run_id=run_id, owner=owner, **beat))
                connection.execute(
                    update(work_permits).where(p.run_id == run_id, p.owner == owner).values(lease_expires=now + ttl)
                )
                e = work_episodes.c
                playing = select(e.seq).where(e.run_id == run_id, e.owner == w.owner, e.result.is_(None)).exists()
                live = list(
                    connection.scalars(
                        select(w.owner).where(w.run_id == run_id, w.lease_expires >= now, playing).order_by(w.owner)
                    )
                )
                mine = func.count(case((p.owner == owner, 1)))  # counts the rows the case makes non-null
                counted = connection.execute(  # each provider's cap and owner's slots, in one query for all
                    select(p.provider, func.count(), mine).where(p.run_id == run_id).group_by(p.provider)
                ).all()
                slots = {str(provider): (int(cap), int(held)) for provider, cap, held in counted}
                shares: dict[str, Held] = {}
                for provider in providers:
                    if provider not in slots:
                        continue
                    cap, held = slots[provider]
                    share = fair_share(cap, live, owner)
                    if held < share:
                        held += self._take_permits(connection, run_id, owner, provider, share - held, now + ttl, now)
                    shares[provider] = Held(held=held, share=share)
                return shares
        except IntegrityError:  # the run is gone (its coordinator deleted it)
            return {}

    @staticmethod
    def _take_permits(
        connection: Any, run_id: str, owner: str, provider: str, limit: int, expires: float, now: float
    ) -> int:
        p = work_permits.c
        free = and_(
            p.run_id == run_id,
            p.provider == provider,
            or_(p.owner.is_(None), and_(p.owner != owner, p.lease_expires < now)),
        )
        chosen = (
            select(p.slot).where(free).order_by(p.slot).limit(limit).with_for_update(skip_locked=True).cte("chosen")
        )
        taken = connection.execute(
            update(work_permits)
            .where(p.run_id == run_id, p.provider == provider, p.slot.in_(select(chosen.c.slot)), free)
            .values(owner=owner, lease_expires=expires)
            .returning(p.slot)  # a CTE's UPDATE tells no rowcount on SQLite
        ).all()
        return len(taken)

    def give_back_permits(self, run_id: str, owner: str, provider: str, count: int) -> int:
        """Free ``count`` of the call slots ``owner`` holds of ``provider`` (its extras over its share)."""
        if count < 1:
            return 0
        p = work_permits.c
        mine = and_(p.run_id == run_id, p.provider == provider, p.owner == owner)
        chosen = select(p.slot).where(mine).order_by(p.slot.desc()).limit(count).scalar_subquery()
        with self.engine.begin() as connection:
            freed = connection.execute(
                update(work_permits).where(mine, p.slot.in_(chosen)).values(owner=None, lease_expires=None)
            )
        return _rows(freed)

    def worker_stats(self, run_id: str) -> list[WorkerStats]:
        """What each worker of run ``run_id`` last wrote of its model calls, live ones and gone ones."""
        w = work_workers.c
        now = self.clock()
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(w.stats, w.lease_expires).where(w.run_id == run_id, w.stats.is_not(None)).order_by(w.owner)
            ).all()
        return [
            WorkerStats(stats=row.stats, live=row.lease_expires is not None and row.lease_expires >= now)
            for row in rows
        ]

    def finished_after(self, run_id: str, finished: int) -> list[Finished]:
        """Run ``run_id``'s results recorded after its ``finished``-th one, in the order they came in."""
        c = work_episodes.c
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(c.finished, c.seq, c.result)
                .where(c.run_id == run_id, c.finished > finished)
                .order_by(c.finished)
            ).all()
        return [Finished(finished=row.finished, seq=row.seq, result=row.result) for row in rows]

    def counts(self, run_id: str) -> tuple[int, int]:
        """(run ``run_id``'s episodes without a result, those of them under a lease that has not run out)."""
        c = work_episodes.c
        leased = and_(c.owner.is_not(None), c.lease_expires >= self.clock())
        with self.engine.connect() as connection:
            row = connection.execute(
                select(func.count(), func.count().filter(leased))
                .select_from(work_episodes)
                .where(c.run_id == run_id, c.result.is_(None))
            ).one()
        return int(row[0]), int(row[1])


def fair_share(cap: int, live: Sequence[str], owner: str) -> int:
    """``owner``'s part of ``cap`` split evenly over the ``live`` workers (sorted ids; the first get the remainder)."""
    if owner not in live:
        return 0
    share, extra = divmod(cap, len(live))
    return share + (live.index(owner) < extra)


def remove_files(path: Path) -> None:
    """Delete the SQLite store at ``path`` with the WAL files beside it."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
