"""The domains available over one data directory: the single place that decides which domains exist."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from taumesh.domains._domain import Domain
from taumesh.domains._errors import DataError, DomainNotRunnable
from taumesh.domains._plugin import DomainPlugin
from taumesh.domains._registry import VARIANT_SEPARATOR, Registry
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
        """Domains whose plugin loaded and whose folder exists (in the data directory, or their own): imports all."""
        return [name for name, plugin in self.registry.plugins.items() if plugin.data_dir(self.data_dir).is_dir()]

    def has(self, name: str) -> bool:
        """Whether domain ``name`` (not a variant) loads and has its folder: imports that plugin alone."""
        if not self.registry.declares(name):  # unknown: asking would import every plugin to word the KeyError
            return False
        try:
            plugin = self.registry.get(name)
        except (KeyError, DataError):
            return False
        return name == plugin.name and plugin.data_dir(self.data_dir).is_dir()

    def any(self) -> bool:
        """Whether any domain has data: imports plugins one by one until one has (those with a folder first).

        Those imported already count too: a registry whose plugins are all imported declares none left.
        """
        known = [*self.registry.loaded(), *self.registry.declared()]
        with_folder = [name for name in known if (self.data_dir / name).is_dir()]
        return any(self.has(name) for name in [*with_folder, *known])

    def listed(self, wanted: Collection[str]) -> list[str]:
        """The domains to name for a listing that describes ``wanted`` (domains or variants) only.

        When every domain of ``wanted`` has data: those, and every other this catalog can name without importing
        its plugin (imported already, or a folder of that name in the data directory), sorted. A process that runs
        one domain imports one. Otherwise (or with nothing wanted): :meth:`names`, so a refusal can name them all.
        """
        bases = {name.partition(VARIANT_SEPARATOR)[0] for name in wanted}
        if not bases or not all(self.has(base) for base in bases):
            return self.names()
        cheap = {name for name in self.registry.declared() if (self.data_dir / name).is_dir()}
        loaded = {name for name, plugin in self.registry.loaded().items() if plugin.data_dir(self.data_dir).is_dir()}
        return sorted(bases | cheap | loaded)

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
