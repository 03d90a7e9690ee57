"""A run's results file on disk: claimed, rewritten in the background while episodes finish, read back.

The file is claimed under a name no other run holds; a throttled writer thread rewrites it (and the errors beside
it) atomically; :func:`load_results` reads taumesh's files and τ-bench's run.py's.
"""

from __future__ import annotations

import itertools
import json
import os
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from taumesh.orchestrator.results.atomic_files import file_mode, write_chunks_atomically
from taumesh.orchestrator.results.names import errors_path
from taumesh.orchestrator.results.records import EpisodeKey, RunResult


def claim_results_path(log_dir: Path, name: str) -> Path:
    """Create an empty results file named ``name`` in ``log_dir`` that no other run holds, and return it.

    The file is created exclusively (``O_EXCL``): when another run took that name first, a suffix ``_2``,
    ``_3``, … is added, so two runs started in the same second never share a file.
    """
    log_dir.mkdir(parents=True, exist_ok=True)
    stem = name.removesuffix(".json")
    for n in itertools.count(1):
        candidate = log_dir / (f"{stem}.json" if n == 1 else f"{stem}_{n}.json")
        if errors_path(candidate).exists():
            continue  # the errors of a file someone deleted: not ours to overwrite
        try:
            handle = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write("[]\n")
        return candidate
    raise AssertionError("unreachable")


_REWRITE_BUDGET = 20
"""Seconds between rewrites per second a rewrite takes: rewriting costs at most 1/20 of the run's time."""


class ResultsFile:
    """The run's results, kept on disk while episodes finish, as τ-bench's JSON list and an errors file.

    The results file holds the scored episodes; the errors beside it (:func:`errors_path`) exist only while there
    are errors. Entries are written in ``order`` (τ-bench's: trial after trial, each in the order its tasks were
    played), entries outside it after them. Each result is serialized once. While a run goes, :meth:`add` rewrites
    the files (atomically) in a thread of their own, so the episodes in flight do not wait for the disk: at most
    every ``min_interval`` seconds, or 20 times as long as the last rewrite took if that is longer (however large the
    file grows, rewriting it costs at most 5 % of the run's time). :meth:`flush` writes everything at once. A run
    killed in between loses at most that interval: ``--resume`` reruns it.
    """

    def __init__(
        self,
        path: Path,
        existing: list[RunResult] | None = None,
        order: list[EpisodeKey] | None = None,
        min_interval: float = 2.0,
    ) -> None:
        self.path = path
        self.errors_path = errors_path(path)
        self.min_interval = min_interval
        self._rank = {key: i for i, key in enumerate(order or [])}
        self._entries: dict[EpisodeKey, tuple[RunResult, bytes]] = {}
        self._next_write = float("-inf")
        self._recorded = self._written = 0  # how many results were recorded; how many of them are on disk
        self._mode = file_mode()  # read here: changing the umask from the writer thread would race other threads
        self._writer: ThreadPoolExecutor | None = None
        self._writing: Future[tuple[int, float]] | None = None
        for result in existing or []:
            self._put(result)

    def _sorted(self) -> list[tuple[RunResult, bytes]]:
        unranked = len(self._rank)
        ranks = {key: self._rank.get(key, unranked + i) for i, key in enumerate(self._entries)}
        return [self._entries[key] for key in sorted(self._entries, key=ranks.__getitem__)]

    @property
    def results(self) -> list[RunResult]:
        """Every result, scored and errors, in the file's order."""
        return [result for result, _ in self._sorted()]

    def _put(self, result: RunResult) -> None:
        key = (result.task_id, result.trial)
        self._entries.pop(key, None)  # a rerun goes to the end of the unordered ones, as it finished last
        text = json.dumps(result.model_dump(), indent=2)  # ASCII: json.dumps escapes the rest
        self._entries[key] = (result, text.encode("ascii"))
        self._recorded += 1

    def add(self, result: RunResult) -> None:
        """Record ``result``, replacing an earlier entry of the same task and trial; rewrite the files when due.

        A rewrite that failed in the writer thread raises here (or from :meth:`flush`).
        """
        self._put(result)
        if self._writing is not None:
            if not self._writing.done():
                return
            self._finish_write()
        if time.monotonic() >= self._next_write:
            self._writer = self._writer or ThreadPoolExecutor(1, thread_name_prefix="taumesh-results")
            self._writing = self._writer.submit(self._write, self._snapshot())

    def wait(self) -> None:
        """Wait for a rewrite in progress (raising its error, if it failed: what it was writing is kept)."""
        if self._writing is not None:
            self._finish_write()

    def flush(self) -> None:
        """Write every result recorded so far: the scored ones to the results file, the errors beside it."""
        self.wait()
        if self._written < self._recorded or not self.path.exists():
            self._finish_write(self._write(self._snapshot()))
        if self._writer is not None:
            self._writer.shutdown()
            self._writer = None

    def _finish_write(self, written: tuple[int, float] | None = None) -> None:
        """Note a rewrite that ended (the writer thread's when ``written`` is None) and when the next is due."""
        if written is None:
            assert self._writing is not None
            writing, self._writing = self._writing, None
            written = writing.result()
        recorded, took = written
        self._written = max(self._written, recorded)
        self._next_write = time.monotonic() + max(self.min_interval, _REWRITE_BUDGET * took)

    def _snapshot(self) -> _Snapshot:
        """What is recorded now: the scored entries' texts and the errors', in the file's order."""
        scored: list[bytes] = []
        errors: list[bytes] = []
        for result, text in self._sorted():
            (errors if result.is_error else scored).append(text)
        return _Snapshot(self._recorded, scored, errors)

    def _write(self, snapshot: _Snapshot) -> tuple[int, float]:
        """Write a snapshot's files (in the writer thread or the caller's): its result count, and the time taken."""
        started = time.monotonic()
        write_chunks_atomically(self.path, _json_list(snapshot.scored), self._mode)
        if snapshot.errors:
            write_chunks_atomically(self.errors_path, _json_list(snapshot.errors), self._mode)
        else:
            self.errors_path.unlink(missing_ok=True)  # every error was rerun and scored
        return snapshot.recorded, time.monotonic() - started


@dataclass(frozen=True)
class _Snapshot:
    """The results file's entries at one moment, serialized: what one rewrite writes."""

    recorded: int
    """How many results had been recorded then."""
    scored: list[bytes]
    errors: list[bytes]


def _json_list(serialized: list[bytes]) -> list[bytes]:
    """The chunks of a JSON list of the already serialized items, one item per line block."""
    if not serialized:
        return [b"[]\n"]
    chunks = [b"[\n"]
    for index, item in enumerate(serialized):
        chunks += (b",\n", item) if index else (item,)
    chunks.append(b"\n]\n")
    return chunks


def load_results(path: Path) -> list[RunResult]:
    """Read a results file written by taumesh (with the errors beside it) or by τ-bench's run.py."""
    results = _load_list(path)
    errors = errors_path(path)
    if errors.exists():
        results += _load_list(errors)
    return results


def _load_list(path: Path) -> list[RunResult]:
    with path.open(encoding="utf-8") as handle:
        raw = json.load(handle)
    if not isinstance(raw, list):
        raise ValueError(f"{path}: a results file is a JSON list, found {type(raw).__name__}")
    return [RunResult.model_validate(item) for item in raw]
