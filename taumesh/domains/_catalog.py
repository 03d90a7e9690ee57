"""The domains available over one data directory: the single place that decides which domains exist."""

from __future__ import annotations

from pathlib import Path

from taumesh.domains._domain import Domain
from taumesh.domains._errors import DataError, DomainNotRunnable
from taumesh.domains._plugin import DomainPlugin
from taumesh.domains._registry import Registry
from taumesh.domains._task import Task


def load_domain(name: str, data_dir: Path | str, registry: Registry | None = None) -> Domain:
    """The domain ``name`` over ``data_dir`` (a directory holding one sub-directory per domain), to be run.

    KeyError when no plugin is named ``name``; DataError (PluginError) when it failed to load or its folder is
    missing; DomainNotRunnable (a DataError) when this environment cannot run it (:meth:`DomainPlugin.run_problem`).
    """
    domain = _describe(name, data_dir, registry)
    _check_runnable(domain.spec)
    return domain


def _describe(name: str, data_dir: Path | str, registry: Registry | None = None) -> Domain:
    """The domain ``name`` for listings (its files, splits, tasks), whether or not this environment can run it."""
    plugin = (registry or Registry.discover()).get(name)
    root = plugin.data_dir(Path(data_dir))
    if not root.is_dir():
        raise DataError(f"{root} is not a directory; --data-dir must hold a {name}/ folder")
    return Domain(plugin, root)


def _check_runnable(plugin: DomainPlugin) -> None:
    """DomainNotRunnable with what this environment lacks to run ``plugin``'s domain; nothing when it runs."""
    problem = plugin.run_problem()
    if problem is not None:
        raise DomainNotRunnable(problem)


class Catalog:
    """The domains found by the registry whose files exist, loaded on first use and shared by all sessions."""

    def __init__(self, data_dir: Path | str, registry: Registry | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.registry = registry or Registry.discover()
        self._domains: dict[str, Domain] = {}

    def names(self) -> list[str]:
        """Domains whose plugin loaded and whose folder exists (in the data directory, or their own)."""
        return [name for name, plugin in self.registry.plugins.items() if plugin.data_dir(self.data_dir).is_dir()]

    def get(self, name: str) -> Domain:
        """The domain ``name`` to run; KeyError when unknown, DataError when its plugin or data is missing.

        DomainNotRunnable when this environment lacks what it needs (asked at every call, cheaply).
        """
        domain = self.describe(name)
        _check_runnable(domain.spec)
        return domain

    def describe(self, name: str) -> Domain:
        """The domain ``name`` for listings, whether or not it can run here; errors as :meth:`get`'s but the last."""
        if name not in self._domains:
            self._domains[name] = _describe(name, self.data_dir, self.registry)
        return self._domains[name]

    def task(self, domain: str, split: str, index: int) -> tuple[Domain, Task]:
        """Look a task up by position; KeyError/IndexError name what is missing."""
        found = self.get(domain)
        return found, found.task(split, index)

    def find_task(self, domain: str, split: str, task_id: str) -> tuple[Domain, Task]:
        """Look a task up by id; KeyError names the unknown domain, split or task, DataError missing data."""
        found = self.get(domain)
        return found, found.find_task(split, task_id)
