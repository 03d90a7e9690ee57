"""Atomic file writes: a reader sees the old file or the new one, never half of one."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def file_mode() -> int:
    """Mode of a file this process creates (0666 less the umask), read without changing the umask for long."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


_IOV_MAX = os.sysconf("SC_IOV_MAX") if hasattr(os, "sysconf") else 1024


def _write_all(handle: int, chunks: Sequence[bytes]) -> None:
    """Write ``chunks`` in order: a few ``writev`` calls, each without the GIL, instead of joining them first."""
    for first in range(0, len(chunks), _IOV_MAX):
        batch = chunks[first : first + _IOV_MAX]
        written = os.writev(handle, batch)
        for chunk in batch:  # a short write (a full disk, a signal): finish it piece by piece
            if written >= len(chunk):
                written -= len(chunk)
                continue
            rest = memoryview(chunk)[written:]
            written = 0
            while rest:
                rest = rest[os.write(handle, rest) :]


def write_chunks_atomically(path: Path, chunks: Sequence[bytes], mode: int | None = None) -> None:
    """Write ``chunks`` one after the other to ``path`` so that a reader never sees a half-written file.

    ``mode``: the file's permissions (default: an ordinary file's under this process's umask).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        try:
            _write_all(handle, chunks)
        finally:
            os.close(handle)
        os.chmod(tmp, file_mode() if mode is None else mode)  # mkstemp makes 0600; results are ordinary files
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader never sees a half-written file."""
    write_chunks_atomically(path, [text.encode("utf-8")])


def write_json_atomically(path: Path, payload: Any) -> None:
    """Write ``payload`` as indented JSON to ``path``, atomically."""
    write_text_atomically(path, json.dumps(payload, indent=2))
