"""The state hash: every table but the text of files, and beside it a digest of the files a session changed.

A fix is right by what it does (the branch's tests pass), not by its exact text, so the hash the factory's DB check
compares leaves file text out (the part before the dot); a session that changed files adds a digest of those
changes after a dot, which the tests component (:mod:`.grading`) reads back. The changes behind a digest are kept
here for the process's grader, a few hundred at most; a grader in another process replays the episode instead.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping
from typing import Any

from taumesh.domains import DataHasher

FILES = "files"
SEPARATOR = "."
FileChanges = dict[str, dict[str, Any] | None]
"""File id -> its record now (None: removed), for the files a session changed."""
_KEPT = 512
_changes: dict[str, FileChanges] = {}
_lock = threading.Lock()


def file_changes(base: Mapping[str, Any], files: Mapping[str, Any]) -> FileChanges:
    """The records of ``files`` that differ from ``base``, and those it no longer holds (None)."""
    changed: FileChanges = {key: dict(record) for key, record in files.items() if base.get(key) != record}
    changed |= {key: None for key in base if key not in files}
    return changed


def changes_digest(changes: FileChanges) -> str:
    """A short digest of a session's file changes."""
    return hashlib.sha256(json.dumps(changes, sort_keys=True).encode("utf-8")).hexdigest()[:32]


def split_hash(state_hash: str) -> tuple[str, str | None]:
    """The hash without file text, and the digest of the changed files (None: no file changed)."""
    state, _, digest = state_hash.partition(SEPARATOR)
    return state, digest or None


def remembered(digest: str) -> FileChanges | None:
    """The changes a hash of this process gave ``digest``, if still kept."""
    with _lock:
        return _changes.get(digest)


class HostHasher:
    """τ-bench v1's data hash over every table but ``files``; changed files add ``.<digest>``."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._files = base[FILES]
        self._inner = DataHasher({name: table for name, table in base.items() if name != FILES})

    def hash(self, data: Mapping[str, Any]) -> str:
        state = self._inner.hash({name: table for name, table in data.items() if name != FILES})
        changes = file_changes(self._files, data[FILES])
        if not changes:
            return state
        digest = changes_digest(changes)
        with _lock:
            if digest not in _changes and len(_changes) >= _KEPT:
                _changes.pop(next(iter(_changes)))
            _changes[digest] = changes
        return f"{state}{SEPARATOR}{digest}"
