"""The viewer's runs, kept current while it serves: new, changed and removed results files show without a restart.

Each listing rescans the folders by ``stat`` alone and parses a file again only when its signature (inode, modification
time and size, with those of its errors and faults files) changed; a run whose file vanished is dropped. A file that
does not read (half-written by a writer that does not replace atomically, or not a results file at all) becomes an
:class:`UnreadableFile` with the reason, never an exception: the other runs are still served.

Why a rescan on request rather than a file watcher (``watchfiles``, which is not installed here, or inotify): the
results of a deployment live on shared volumes (NFS, EFS, a ReadWriteMany claim that the orchestrator Job and the API
pods write from other nodes) where inotify sees nothing; a watcher needs a thread of its own and a full scan at start
anyway; and a few hundred ``stat`` calls per listing take about a millisecond, nothing beside the request itself.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from pydantic import BaseModel

from taumesh.orchestrator.results.names import errors_path, faults_path
from taumesh.viewer.labels import task_labels
from taumesh.viewer.metrics import RunSummary, TaskRow, summarize, task_rows
from taumesh.viewer.runs import Run, is_results_file, list_beside, load_run, run_id

Signature = tuple[int, int, int] | None
"""A file's ``(st_ino, st_mtime_ns, st_size)`` (an atomic replace is a new inode), or None when it does not exist."""
Stamp = tuple[Signature, Signature, Signature]
"""The signatures of a results file, its errors file and its faults file: any change means read it again."""


class UnreadableFile(BaseModel):
    """A results file the viewer could not read, and why (it is read again once it changes)."""

    run_id: str
    name: str
    path: str
    reason: str


class LoadedRun:
    """A run as last read, with what the viewer computes from it (computed once, on first use)."""

    def __init__(self, run: Run) -> None:
        self.run = run

    @cached_property
    def summary(self) -> RunSummary:
        return summarize(self.run)

    @cached_property
    def rows(self) -> list[TaskRow]:
        return task_rows(self.run, task_labels(self.run.domain) if self.run.domain else None)


@dataclass(frozen=True)
class _Entry:
    run_id: str
    stamp: Stamp
    mtime_ns: int
    loaded: LoadedRun | None
    unreadable: UnreadableFile | None


def _signature(stats: dict[Path, os.stat_result], path: Path) -> Signature:
    stat = stats.get(path)
    return None if stat is None else (stat.st_ino, stat.st_mtime_ns, stat.st_size)


def _stat(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except OSError:  # gone between listing and stat, or unreadable: the same as absent
        return None


def _scan(roots: Iterable[Path]) -> dict[Path, os.stat_result]:
    """Every JSON file under ``roots`` (a file root with its errors and faults files) and its ``stat``."""
    stats: dict[Path, os.stat_result] = {}
    for root in roots:
        candidates = root.rglob("*.json") if root.is_dir() else (root, errors_path(root), faults_path(root))
        for path in candidates:
            if (stat := _stat(path)) is not None:
                stats[path] = stat
    return stats


def _read(path: Path) -> tuple[LoadedRun | None, UnreadableFile | None]:
    try:
        return LoadedRun(load_run(path)), None
    except Exception as exc:  # noqa: BLE001 - any file may hold anything: it is reported, the others still served
        reason = f"{type(exc).__name__}: {exc}"
        return None, UnreadableFile(run_id=run_id(path), name=path.name, path=str(path), reason=reason)


class RunLibrary:
    """The runs in some results files or folders of them, read again as the files change.

    Thread-safe: the app's handlers run in a thread pool, so one lock orders the rescans, and each rescan replaces
    the mappings whole (a listing in another thread never sees one change under it).
    """

    def __init__(self, roots: Sequence[Path]) -> None:
        self.roots = list(roots)
        self._entries: dict[Path, _Entry] = {}
        self._by_id: dict[str, Path] = {}
        self._lock = threading.Lock()

    def refresh(self) -> None:
        """Rescan the roots: read new and changed files, forget vanished ones."""
        with self._lock:
            stats = _scan(self.roots)
            current = [
                path
                for path in stats
                if is_results_file(path) and not (path.name.endswith(".tau2.json") and list_beside(path) in stats)
            ]
            entries = {path: self._entry(path, stats) for path in current}
            self._entries = dict(sorted(entries.items(), key=lambda item: item[1].mtime_ns, reverse=True))
            self._by_id = {entry.run_id: path for path, entry in self._entries.items()}

    def _entry(self, path: Path, stats: dict[Path, os.stat_result]) -> _Entry:
        stamp: Stamp = (
            _signature(stats, path),
            _signature(stats, errors_path(path)),
            _signature(stats, faults_path(path)),
        )
        known = self._entries.get(path)
        if known is not None and known.stamp == stamp:
            return known
        loaded, unreadable = _read(path)
        identity = known.run_id if known is not None else run_id(path)
        return _Entry(identity, stamp, mtime_ns=stats[path].st_mtime_ns, loaded=loaded, unreadable=unreadable)

    def _refresh_one(self, path: Path) -> None:
        """Check one file (a run page's): read it again if it changed, forget it if it vanished."""
        with self._lock:
            stats = {p: stat for p in (path, errors_path(path), faults_path(path)) if (stat := _stat(p)) is not None}
            entries = dict(self._entries)
            if path in stats:
                entries[path] = self._entry(path, stats)
            else:
                entries.pop(path, None)
            self._entries = entries
            self._by_id = {entry.run_id: path for path, entry in entries.items()}

    def runs(self) -> list[LoadedRun]:
        """The readable runs, newest file first (as of the last refresh)."""
        return [entry.loaded for entry in self._entries.values() if entry.loaded is not None]

    def unreadable(self) -> list[UnreadableFile]:
        """The results files that did not read at the last refresh, and why."""
        return [entry.unreadable for entry in self._entries.values() if entry.unreadable is not None]

    def get(self, run_id: str) -> LoadedRun | None:
        """The run ``run_id`` as its file is now; an id not seen yet rescans the roots (a link to a new run)."""
        path = self._by_id.get(run_id)
        if path is None:
            self.refresh()
            path = self._by_id.get(run_id)
        else:
            self._refresh_one(path)
        entry = self._entries.get(path) if path is not None else None
        return entry.loaded if entry is not None else None
