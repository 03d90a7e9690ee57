"""``taumesh data import tau2 PATH``: an upstream τ²/τ³ checkout's (or unpacked archive's) data, recognised by release.

The ``data/tau2/`` tree's ``domains/`` and ``user_simulator/`` folders are copied as they are into
``<cache>/tau2_upstream/data/``, beside ``RELEASE.json`` (what :func:`._tau2_releases.recognise` found) and the
manifest, whose ``version`` is the release. A checkout's ``banking_knowledge`` tool texts are extracted from its
sources into ``texts/`` (:mod:`._tau2_bk_texts`). An unknown tree is imported all the same, with the differences named.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from taumesh.data._cache import (
    DatasetError,
    Manifest,
    Progress,
    SilentProgress,
    cache_dir,
    hash_tree,
    replace_folder,
    staging_beside,
    verify,
)
from taumesh.data._tau2_bk_texts import write_bk_texts
from taumesh.data._tau2_releases import Recognition, recognise

UPSTREAM_DATASET = "tau2_upstream"
RELEASE_FILE = "RELEASE.json"
COPIED = ("domains", "user_simulator")
"""The folders of ``data/tau2/`` taken (``results/`` and the rest are not data a run reads)."""


def tau2_upstream_dir() -> Path:
    """The imported upstream data: ``<cache>/tau2_upstream`` (MANIFEST.json, RELEASE.json, data/)."""
    return cache_dir() / UPSTREAM_DATASET


@dataclass(frozen=True)
class ImportResult:
    """Where the data is, its manifest, the release recognised, and whether this import changed anything."""

    path: Path
    manifest: Manifest
    recognition: Recognition
    changed: bool
    replaced: str | None
    """The release that was there before and was replaced, if another."""


def find_data_root(path: Path) -> Path:
    """The ``data/tau2`` folder of a checkout, an unpacked archive, its ``data/`` or that folder itself."""
    for candidate in (path / "data" / "tau2", path / "tau2", path):
        if (candidate / "domains").is_dir():
            return candidate
    nested = sorted(path.glob("*/data/tau2/domains")) if path.is_dir() else []
    if len(nested) == 1:  # an archive unpacked into one top folder (tau2-bench-1.0.1/)
        return nested[0].parent
    raise DatasetError(
        f"{path} holds no τ² data: expected data/tau2/domains/ (a checkout or unpacked archive), tau2/domains/ "
        "(its data/ folder) or domains/ (its data/tau2/ folder)"
    )


def _copy(root: Path, into: Path, progress: Progress) -> None:
    folders = [root / name for name in COPIED if (root / name).is_dir()]
    progress.phase(f"copying {', '.join(folder.name for folder in folders)} from {root}")
    for folder in folders:
        shutil.copytree(folder, into / folder.name, symlinks=False)


def read_recognition(folder: Path) -> Recognition | None:
    """The release recorded in an imported folder; None when it has none or it does not parse."""
    try:
        return Recognition.model_validate_json((folder / RELEASE_FILE).read_bytes())
    except (OSError, ValueError):
        return None


def import_tau2(source: Path, *, target: Path | None = None, progress: Progress | None = None) -> ImportResult:
    """Copy the τ² data of ``source`` into ``target`` (default: :func:`tau2_upstream_dir`), recognising its release.

    DatasetError when ``source`` holds no ``domains/`` folder. A folder already holding these very files is left
    as it is; one holding another tree is replaced, as ``data fetch`` replaces another version.
    """
    report = progress or SilentProgress()
    root = find_data_root(Path(source).expanduser())
    destination = target or tau2_upstream_dir()
    with staging_beside(destination) as staging:
        _copy(root, staging / "data", report)
        if write_bk_texts(root, staging):
            report.phase("extracting banking_knowledge's tool texts from the checkout's sources")
        report.phase("hashing the files and recognising the release")
        data_files = hash_tree(staging / "data")
        recognition = recognise(data_files)
        (staging / RELEASE_FILE).write_text(recognition.model_dump_json(indent=2) + "\n", encoding="utf-8")
        fresh = Manifest(
            dataset=UPSTREAM_DATASET,
            version=recognition.release,
            source=str(root.resolve()),
            files=hash_tree(staging),
        )
        existing = Manifest.read(destination)
        if existing is not None and existing.files == fresh.files and not verify(destination, existing):
            return ImportResult(destination, existing, recognition, changed=False, replaced=None)
        previous = existing.version if existing is not None else None
        fresh.write(staging)
        replace_folder(staging, destination)
    replaced = previous if previous is not None and previous != recognition.release else None
    return ImportResult(destination, fresh, recognition, changed=True, replaced=replaced)


def imported_release(folder: Path | None = None) -> str | None:
    """The release label of the imported upstream data (``v1.0.1``, ``unknown``); None when nothing is imported."""
    manifest = Manifest.read(folder or tau2_upstream_dir())
    return manifest.version if manifest is not None else None
