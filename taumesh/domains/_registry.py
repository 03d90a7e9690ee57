"""Finding domains: entry points of the ``taumesh.domains`` group, plus local domain folders.

Every domain, built-in or not, is a :class:`DomainPlugin` object found the same way:

* an installed distribution declares it under the entry-point group ``taumesh.domains``
  (``retail = "taumesh.domains.retail:plugin"``);
* or an installed distribution declares a *source* of many domains under ``taumesh.domain_sources``: a callable
  taking nothing and returning a mapping of domain name to a callable that loads that domain's plugin
  (``forks = "taumesh.forks.registered:domains"``: every environment ``taumesh domain import-fork`` imported);
* or it is a package folder in one of the directories of ``TAUMESH_DOMAIN_PATH`` (``os.pathsep``
  separated; ``./domains`` when unset) whose ``__init__.py`` defines ``plugin``: what
  ``taumesh domain new`` writes, usable before it is packaged.

A plugin that fails to load (import error, not a DomainPlugin, a name that is not its entry
point's, two sources for one name) is recorded with an error naming its source; the other domains
stay available.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

from taumesh.domains._errors import PluginError
from taumesh.domains._plugin import DomainPlugin

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "taumesh.domains"
SOURCE_GROUP = "taumesh.domain_sources"
DOMAIN_PATH_ENV = "TAUMESH_DOMAIN_PATH"
DEFAULT_DOMAIN_PATH = "domains"
VARIANT_SEPARATOR = ":"
"""``<domain>:<variant>`` names a variant a plugin offers (:meth:`DomainPlugin.variants`)."""


def domain_path() -> list[Path]:
    """The directories searched for local domain folders: ``$TAUMESH_DOMAIN_PATH``, else ``./domains``."""
    value = os.environ.get(DOMAIN_PATH_ENV)
    if value is None:
        return [Path(DEFAULT_DOMAIN_PATH)]
    return [Path(part) for part in value.split(os.pathsep) if part]


class _Source:
    """Where a plugin came from, worded only when a message shows it.

    An entry point's distribution name is read by parsing the distribution's metadata (~15 ms each, 30 per run),
    and only an error's message needs it.
    """

    def __init__(self, words: Callable[[], str]) -> None:
        self._words = words

    def __str__(self) -> str:
        return self._words()


def _entry_origin(kind: str, entry: EntryPoint, group: str) -> _Source:
    """``entry point NAME = 'VALUE' of DIST (group 'GROUP')`` (``kind`` first), worded when shown."""

    def words() -> str:
        dist = f" of {entry.dist.name}" if entry.dist is not None else ""
        return f"{kind} {entry.name} = {entry.value!r}{dist} (group {group!r})"

    return _Source(words)


@dataclass(frozen=True)
class _Found:
    plugin: DomainPlugin
    source: str | _Source


def _check(candidate: object, name: str, source: str | _Source) -> DomainPlugin:
    if not isinstance(candidate, DomainPlugin):
        raise PluginError(
            f"domain plugin {source} is a {type(candidate).__module__}.{type(candidate).__qualname__}, "
            "not a taumesh.domains.DomainPlugin"
        )
    if candidate.name != name:
        raise PluginError(f"domain plugin {source} is named {candidate.name!r}, not {name!r} as registered")
    return candidate


def _from_entry_points() -> Iterable[tuple[str, _Found | PluginError]]:
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        source = _entry_origin("entry point", entry, ENTRY_POINT_GROUP)
        try:
            yield entry.name, _Found(_check(entry.load(), entry.name, source), source)
        except PluginError as exc:
            yield entry.name, exc
        except Exception as exc:  # noqa: BLE001 - any failure of third-party code is that plugin's error
            yield entry.name, PluginError(f"domain plugin {source} failed to load: {type(exc).__name__}: {exc}")


def _from_sources() -> Iterable[tuple[str, _Found | PluginError]]:
    for entry in entry_points(group=SOURCE_GROUP):
        origin = _entry_origin("domain source", entry, SOURCE_GROUP)
        try:
            listed = dict(entry.load()())
        except Exception as exc:  # noqa: BLE001 - a broken source must not hide the other domains
            yield f"{entry.name} (domain source)", PluginError(f"{origin} failed: {type(exc).__name__}: {exc}")
            continue
        for name, load in sorted(listed.items()):
            source = _Source(partial("domain {!r} of {}".format, name, origin))
            try:
                yield name, _Found(_check(load(), name, source), source)
            except PluginError as exc:
                yield name, exc
            except Exception as exc:  # noqa: BLE001 - any failure of third-party code is that plugin's error
                yield name, PluginError(f"{source} failed to load: {type(exc).__name__}: {exc}")


def _import_folder(folder: Path) -> object:
    """Import the package ``folder`` by its name, with its parent directory on ``sys.path``."""
    parent = str(folder.parent.resolve())
    loaded = sys.modules.get(folder.name)
    if loaded is not None:
        origin = Path(getattr(loaded, "__file__", "") or "").resolve().parent
        if origin != folder.resolve():
            raise ImportError(f"a module named {folder.name!r} is already imported from {origin}")
    if parent not in sys.path:
        sys.path.append(parent)
    module = importlib.import_module(folder.name)
    try:
        return module.plugin
    except AttributeError:
        raise AttributeError(f"{folder / '__init__.py'} defines no `plugin`") from None


def _from_folders(directories: Sequence[Path]) -> Iterable[tuple[str, _Found | PluginError]]:
    seen: dict[str, Path] = {}
    for directory in directories:
        if not directory.is_dir():
            continue
        for folder in sorted(directory.iterdir()):
            if not (folder.name.isidentifier() and (folder / "__init__.py").is_file()):
                continue
            source = f"folder {folder} (from {DOMAIN_PATH_ENV})"
            first = seen.setdefault(folder.name, folder)
            if first != folder:
                twice = f"domain {folder.name!r} is defined twice: by folder {first} and {source}"
                yield folder.name, PluginError(twice)
                continue
            try:
                yield folder.name, _Found(_check(_import_folder(folder), folder.name, source), source)
            except PluginError as exc:
                yield folder.name, exc
            except Exception as exc:  # noqa: BLE001 - a broken local domain must not hide the others
                yield folder.name, PluginError(f"domain plugin {source} failed to load: {type(exc).__name__}: {exc}")


@dataclass(frozen=True)
class Registry:
    """The domains found, by name, and the plugins that failed to load, by name."""

    plugins: dict[str, DomainPlugin] = field(default_factory=dict)
    broken: dict[str, PluginError] = field(default_factory=dict)
    variants: dict[str, DomainPlugin] = field(default_factory=dict)
    """The variants asked for so far (``<domain>:<variant>``), each built once; not among :meth:`names`."""

    @classmethod
    def discover(cls, directories: Sequence[Path] | None = None) -> Registry:
        """Every domain of the entry points and of ``directories`` (default: :func:`domain_path`)."""
        found: dict[str, _Found] = {}
        broken: dict[str, PluginError] = {}
        sources = [
            *_from_entry_points(),
            *_from_sources(),
            *_from_folders(domain_path() if directories is None else directories),
        ]
        for name, outcome in sources:
            if isinstance(outcome, PluginError):
                broken.setdefault(name, outcome)
                continue
            other = found.get(name)
            if other is not None and other.plugin is not outcome.plugin:
                twice = f"domain {name!r} is defined twice: by {other.source} and by {outcome.source}"
                broken[name] = PluginError(twice)
            found.setdefault(name, outcome)
        for name, error in broken.items():
            found.pop(name, None)
            log.warning("%s", error)
        return cls({name: found[name].plugin for name in sorted(found)}, broken)

    def names(self) -> list[str]:
        """The names of the domains that loaded, sorted."""
        return list(self.plugins)

    def get(self, name: str) -> DomainPlugin:
        """The plugin ``name``; KeyError when no plugin has that name, PluginError when it failed to load."""
        plugin = self.plugins.get(name)
        if plugin is not None:
            return plugin
        if name in self.broken:
            raise self.broken[name]
        if name in self.variants:
            return self.variants[name]
        base, _, variant = name.partition(VARIANT_SEPARATOR)
        if variant and base in self.plugins:
            return self._variant(self.plugins[base], name, variant)
        raise KeyError(f"unknown domain {name!r}; known: {self.names()}")

    def named_by(self, benchmark: str, name: str) -> str | None:
        """The domain another benchmark's flags and files call ``name`` (:attr:`DomainPlugin.foreign_names`).

        ``named_by("tau2", "airline")`` is ``tau2-airline``; a taumesh name is taken as itself when that domain is
        ``benchmark``'s (``tau2-airline`` stays); None when no domain has the name. τ³ spells with underscores what
        taumesh spells with dashes: ``banking_knowledge`` is found as ``banking-knowledge`` too.
        """
        spellings = (name, name.replace("_", "-"))
        for plugin in self.plugins.values():
            foreign = plugin.foreign_names.get(benchmark)
            if foreign is not None and (foreign in spellings or plugin.name == name):
                return plugin.name
        return None

    def foreign_name(self, benchmark: str, name: str) -> str:
        """What ``benchmark``'s flags and files call the domain ``name`` (``tau2-airline`` is τ²'s ``airline``).

        A variant (``<domain>:<variant>``) is named as its domain; a domain ``benchmark`` has no name for keeps its own.
        """
        base = name.partition(VARIANT_SEPARATOR)[0]
        plugin = self.plugins.get(base)
        return plugin.foreign_names.get(benchmark, base) if plugin is not None else base

    def canonical(self, name: str) -> str:
        """``name``, or the domain that declares it an alias (:attr:`DomainPlugin.aliases`): ``telecom`` is τ²'s."""
        if name in self.plugins:
            return name
        owners = [plugin.name for plugin in self.plugins.values() if name in plugin.aliases]
        return owners[0] if len(owners) == 1 else name

    def _variant(self, base: DomainPlugin, name: str, variant: str) -> DomainPlugin:
        """``base``'s variant (DomainPlugin.variants), kept under ``name``; KeyError listing the known ones."""
        offered = base.variants()
        if variant not in offered:
            known = ", ".join(f"{base.name}{VARIANT_SEPARATOR}{key}" for key in offered) or "none"
            raise KeyError(f"unknown domain {name!r}: {base.name} offers the variants {known}")
        plugin = _check(offered[variant](), name, f"variant {variant!r} of domain {base.name!r}")
        self.variants[name] = plugin
        return plugin
