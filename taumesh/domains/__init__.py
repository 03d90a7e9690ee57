"""Benchmark domains: tools with τ-bench semantics, over data loaded from a directory."""

from __future__ import annotations

from pathlib import Path

from taumesh.domains._domain import Action, DataError, Domain, DomainSpec, Task
from taumesh.domains._session import Session, StepResult, ToolCrash
from taumesh.domains._tool import Data, Refusal, Tool
from taumesh.domains.airline import SPEC as AIRLINE
from taumesh.domains.retail import SPEC as RETAIL

SPECS: dict[str, DomainSpec] = {spec.name: spec for spec in (RETAIL, AIRLINE)}
"""Every domain taumesh implements, by name."""


def load_domain(name: str, data_dir: Path | str) -> Domain:
    """The domain ``name`` over ``data_dir`` (a directory holding one sub-directory per domain)."""
    try:
        spec = SPECS[name]
    except KeyError:
        raise KeyError(f"unknown domain {name!r}; known: {sorted(SPECS)}") from None
    root = Path(data_dir) / name
    if not root.is_dir():
        raise DataError(f"{root} is not a directory; --data-dir must hold a {name}/ folder")
    return Domain(spec, root)


__all__ = [
    "SPECS",
    "Action",
    "Catalog",
    "Data",
    "DataError",
    "Domain",
    "DomainSpec",
    "Refusal",
    "Session",
    "StepResult",
    "Task",
    "Tool",
    "ToolCrash",
    "load_domain",
]


class Catalog:
    """The domains found in one data directory, loaded on first use and shared by all sessions."""

    def __init__(self, data_dir: Path | str) -> None:
        self.data_dir = Path(data_dir)
        self._domains: dict[str, Domain] = {}

    def names(self) -> list[str]:
        """Domains that taumesh implements and that have a folder in the data directory."""
        return [name for name in SPECS if (self.data_dir / name).is_dir()]

    def get(self, name: str) -> Domain:
        """The domain ``name``; KeyError when unknown, DataError when its data is missing."""
        if name not in self._domains:
            self._domains[name] = load_domain(name, self.data_dir)
        return self._domains[name]

    def task(self, domain: str, split: str, index: int) -> tuple[Domain, Task]:
        """Look a task up; KeyError/IndexError name what is missing."""
        found = self.get(domain)
        return found, found.task(split, index)
