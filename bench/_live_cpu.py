"""CPU and memory of a runner's processes for bench/live_llm.py: sampled with psutil, kept as time series.

Each watched process keeps its cumulative CPU (user + system) at every sample, so that the CPU it spent in any window
(e.g. from the model server's first request to its last reply) can be read afterwards: linear between the samples
around each end of the window. A process seen for the first time counts from zero at the sample before, when its
family was sampled without it (it did not exist yet), or from its start when the bench started it.
"""

from __future__ import annotations

import bisect
import threading
import time
from dataclasses import dataclass, field

import psutil


@dataclass
class Watched:
    """One process seen by the monitor: its label, CPU since its start (or since watched), peak RSS, CPU samples."""

    label: str
    baseline: float = 0.0
    cpu: float = 0.0
    peak_rss: int = 0
    samples: list[tuple[float, float]] = field(default_factory=list)  # (time.time(), cumulative CPU seconds)

    def record(self, when: float, total_cpu: float) -> None:
        """Its cumulative CPU ``total_cpu`` at ``when`` (the headline ``cpu`` counts from ``baseline``)."""
        bisect.insort(self.samples, (when, total_cpu))
        self.cpu = max(self.cpu, total_cpu - self.baseline)

    def cpu_at(self, when: float) -> float:
        """Its cumulative CPU at ``when``: linear between the samples around it; before the first, the first's
        value; after the last (it ended, or the sampling did), the last's."""
        if not self.samples:
            return 0.0
        index = bisect.bisect_left(self.samples, (when, float("-inf")))
        if index == 0:
            return self.samples[0][1]
        if index == len(self.samples):
            return self.samples[-1][1]
        (t0, c0), (t1, c1) = self.samples[index - 1], self.samples[index]
        return c0 + (c1 - c0) * (when - t0) / (t1 - t0) if t1 > t0 else c1

    def cpu_between(self, start: float, end: float) -> float:
        """The CPU seconds it spent from ``start`` to ``end`` (interpolated at both ends)."""
        return max(0.0, self.cpu_at(end) - self.cpu_at(start))


class Monitor:
    """Samples labelled root processes and their descendants every ``interval`` s: CPU per process, peak RSS."""

    def __init__(self, interval: float = 0.25) -> None:
        self.roots: dict[str, psutil.Process] = {}
        self.seen: dict[int, Watched] = {}
        self.peak_label_rss: dict[str, int] = {}
        self.last_sampled: dict[str, float] = {}  # per root: when its family was last listed
        self.interval = interval
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def watch(self, label: str, pid: int, since_now: bool = False, started: float | None = None) -> None:
        """Watch ``pid`` and its descendants. ``since_now``: its headline CPU counts from now on; ``started``: the
        time (``time.time()``) just before the bench started it, when its CPU was zero."""
        process = psutil.Process(pid)
        times = process.cpu_times()
        now = time.time()
        watched = Watched(label, baseline=times.user + times.system if since_now else 0.0)
        if started is not None:
            watched.record(started, 0.0)
        watched.record(now, times.user + times.system)
        with self._lock:
            self.seen[pid] = watched
            self.roots[label] = process

    def sample(self) -> None:
        with self._lock:  # the monitor's thread and the bench's both sample
            totals: dict[str, int] = {}
            for label, root in self.roots.items():
                enumerated = time.time()
                try:
                    family = [root, *root.children(recursive=True)]
                except psutil.NoSuchProcess:
                    continue
                before = self.last_sampled.get(label)
                for process in family:
                    try:
                        with process.oneshot():
                            times, rss = process.cpu_times(), process.memory_info().rss
                    except psutil.NoSuchProcess:
                        continue
                    now = time.time()
                    watched = self.seen.get(process.pid)
                    if watched is None:  # not in the family when it was last listed: it started since
                        watched = self.seen[process.pid] = Watched(f"{label}/child-{process.pid}")
                        if before is not None:
                            watched.record(before, 0.0)
                    watched.record(now, times.user + times.system)
                    watched.peak_rss = max(watched.peak_rss, rss)
                    totals[label] = totals.get(label, 0) + rss
                self.last_sampled[label] = enumerated
            for label, rss in totals.items():
                self.peak_label_rss[label] = max(self.peak_label_rss.get(label, 0), rss)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.sample()

    def __enter__(self) -> Monitor:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
