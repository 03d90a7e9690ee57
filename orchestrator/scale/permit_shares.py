"""``--provider-limit`` across a run's workers: each holds call slots leased from the work store, its fair share.

The coordinator writes each cap as that many call slots of the provider into the work store
(:meth:`~taumesh.orchestrator.scale.work_store.WorkStore.add_run`). Every worker process, on any machine, beats
(:meth:`PermitShares.beat`): it counts itself live, writes its model calls' figures, renews the slots it holds and
takes free ones (or a dead worker's, once their lease ran out) up to its fair share: the cap split over the live
workers that hold unfinished episodes. An idle worker holds no slot, so none is kept from the workers that have work;
a worker without a slot takes one episode at a time, which makes it count. Its limiter (:class:`SlotLimiter`, within
:func:`~taumesh.orchestrator.provider_limits.shared_limiters`) lets no more calls be in flight than the slots it
holds, so the run's total never passes the cap; a worker past the cap's number of workers holds none and its episode
waits. When more workers join, a worker's share shrinks: its limiter starts no new call over the share at once, and
it gives back the extra slots as its calls in flight end.

The coordinator sums what the workers wrote (:func:`run_stats`) for its live display and its last line.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence

from pydantic import TypeAdapter

from taumesh.llm.limiter import ProviderLimiter, ProviderLimiters, ProviderStats
from taumesh.orchestrator.provider_limits import RunLimits
from taumesh.orchestrator.scale.work_store import Held, WorkerStats, WorkStore

BEAT_S = 2.0
"""How often a worker beats at most (more often with a lease shorter than 6 s: three beats per lease)."""

_STATS = TypeAdapter(list[ProviderStats])
log = logging.getLogger(__name__)


class SlotLimiter(ProviderLimiter):
    """A provider's limiter whose cap is the call slots this process holds of a cap shared with others."""

    def __init__(self, provider: str, cap: int | None, ceiling: int) -> None:
        self.slots: int | None = None
        """Call slots held (0: no call starts); None: none assigned yet, the cap holds."""
        super().__init__(provider, cap, ceiling)

    @property
    def allowed(self) -> int:
        return 0 if self.slots == 0 else super().allowed

    def set_slots(self, slots: int) -> None:
        """Hold at most ``slots`` calls in flight; the window becomes at most that, as far below it as it was."""
        ceiling = float(max(1, slots))
        self.window = max(1.0, min(ceiling, self.window + ceiling - self.ceiling))
        self.ceiling, self.slots = ceiling, max(0, slots)
        self._grant()


class SlotLimiters(ProviderLimiters):
    """A worker's limiters: :class:`SlotLimiter` for the capped providers, plain ones for the others."""

    def make(self, provider: str, cap: int | None) -> ProviderLimiter:
        return super().make(provider, cap) if cap is None else SlotLimiter(provider, cap, self.ceiling)


class PermitShares:
    """One worker's call slots of run ``run_id``'s capped providers, kept at its fair share while it plays."""

    def __init__(self, store: WorkStore, run_id: str, owner: str, limits: RunLimits, lease_seconds: float) -> None:
        self.store, self.run_id, self.owner, self.limits = store, run_id, owner, limits
        self.lease_seconds = lease_seconds
        capped = [limiter for limiter in limits.by_method.values() if isinstance(limiter, SlotLimiter)]
        self.limiters: dict[str, SlotLimiter] = {limiter.provider: limiter for limiter in capped}
        for limiter in self.limiters.values():
            limiter.set_slots(0)  # no call before the first beat took slots

    @property
    def ready(self) -> bool:
        """Whether this worker holds a slot of every capped provider it calls (else it takes no new episode)."""
        return all(limiter.slots for limiter in self.limiters.values())

    def stats(self) -> str:
        """The worker's model calls per provider so far, as JSON."""
        return _STATS.dump_json(self.limits.stats()).decode()

    async def beat(self) -> None:
        """Renew the slots held, take free ones up to the fair share, give back extras no call in flight uses."""
        shares = await asyncio.to_thread(
            self.store.share_permits, self.run_id, self.owner, self.lease_seconds, self.stats(), list(self.limiters)
        )
        for provider, limiter in self.limiters.items():
            held = shares.get(provider, Held(held=0, share=0))
            limiter.set_slots(min(held.held, held.share))
            extra = held.held - max(held.share, limiter.in_flight)  # calls in flight keep their slots until they end
            if extra > 0:
                await asyncio.to_thread(self.store.give_back_permits, self.run_id, self.owner, provider, extra)

    async def keep_beating(self) -> None:
        """Beat until cancelled; while the store cannot be reached no new call starts (its slots may be taken over)."""
        interval = min(BEAT_S, self.lease_seconds / 3)
        while True:
            await asyncio.sleep(interval)
            try:
                await self.beat()
            except Exception:  # noqa: BLE001  # a database hiccup: try again at the next beat
                log.warning("worker %s: its call slots could not be renewed; no new model call meanwhile", self.owner)
                for limiter in self.limiters.values():
                    limiter.set_slots(0)


def run_stats(workers: Sequence[WorkerStats], caps: Mapping[str, int], ended: bool = False) -> list[ProviderStats]:
    """The run's figures per provider, summed over its workers' last writes.

    Calls and 429s add up over every worker, gone ones included; calls in flight over the live ones (none once the
    run ``ended``); the window over the live ones (over all when none is live), at most the provider's cap.
    """
    rows = [(worker.live and not ended, _STATS.validate_json(worker.stats)) for worker in workers]
    any_live = any(live for live, _ in rows)
    totals: dict[str, dict[str, int]] = {}
    for live, stats in rows:
        for figures in stats:
            total = totals.setdefault(figures.provider, dict.fromkeys(("in_flight", "window", "429", "calls"), 0))
            total["in_flight"] += figures.in_flight if live else 0
            total["window"] += figures.window if live or not any_live else 0
            total["429"] += figures.rate_limited
            total["calls"] += figures.calls
    return [
        ProviderStats(
            provider=provider,
            in_flight=total["in_flight"],
            window=min(total["window"], caps.get(provider, total["window"])),
            cap=caps.get(provider),
            rate_limited=total["429"],
            calls=total["calls"],
        )
        for provider, total in sorted(totals.items())
    ]
