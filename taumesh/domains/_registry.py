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

A plugin is imported when first asked for: a process that runs one domain imports one. A plugin that fails to
load (import error, not a DomainPlugin, a name that is not its entry point's, two sources for one name) is recorded
with an error naming its source, when it is first asked for (two sources for one name: at discovery); the other
domains stay available.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
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


@dataclass
class _Declared:
    """A plugin some source declares, imported when first asked for (:meth:`load`), then kept."""

    importer: Callable[[], object]
    source: str | _Source
    failure: str
    """The message's start when importing fails: ``{source}`` is replaced by the source."""
    _outcome: DomainPlugin | PluginError | None = None

    def load(self, name: str) -> DomainPlugin | PluginError:
        """The plugin, or the PluginError naming its source (a failure of third-party code is that plugin's error)."""
        if self._outcome is None:
            try:
                self._outcome = _check(self.importer(), name, self.source)
            except PluginError as exc:
                self._outcome = exc
            except Exception as exc:  # noqa: BLE001 - any failure of third-party code is that plugin's error
                message = self.failure.format(source=self.source)
                self._outcome = PluginError(f"{message}: {type(exc).__name__}: {exc}")
        return self._outcome


def _check(candidate: object, name: str, source: str | _Source) -> DomainPlugin:
    if not isinstance(candidate, DomainPlugin):
        raise PluginError(
            f"domain plugin {source} is a {type(candidate).__module__}.{type(candidate).__qualname__}, "
            "not a taumesh.domains.DomainPlugin"
        )
    if candidate.name != name:
        raise PluginError(f"domain plugin {source} is named {candidate.name!r}, not {name!r} as registered")
    return candidate


def _from_entry_points() -> Iterable[tuple[str, _Declared]]:
    """Each plugin an entry point declares, not yet imported (importing all ~30 costs a process about a second)."""
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        source = _entry_origin("entry point", entry, ENTRY_POINT_GROUP)
        yield entry.name, _Declared(entry.load, source, "domain plugin {source} failed to load")


def _from_sources() -> Iterable[tuple[str, _Declared | PluginError]]:
    for entry in entry_points(group=SOURCE_GROUP):
        origin = _entry_origin("domain source", entry, SOURCE_GROUP)
        try:
            listed = dict(entry.load()())
        except Exception as exc:  # noqa: BLE001 - a broken source must not hide the other domains
            yield f"{entry.name} (domain source)", PluginError(f"{origin} failed: {type(exc).__name__}: {exc}")
            continue
        for name, load in sorted(listed.items()):
            source = _Source(partial("domain {!r} of {}".format, name, origin))
            yield name, _Declared(load, source, "{source} failed to load")


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


def _from_folders(directories: Sequence[Path]) -> Iterable[tuple[str, _Declared | PluginError]]:
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
            yield (
                folder.name,
                _Declared(partial(_import_folder, folder), source, "domain plugin {source} failed to load"),
            )


class Registry:
    """The domains declared, by name, each plugin imported when first asked for; and those that failed to load.

    Discovering reads the declarations only (entry points, domain sources' listings, folder names): importing every
    plugin costs a process about a second, and a run needs one. :meth:`get` imports the plugin asked for;
    :attr:`plugins`, :meth:`names` and the lookups by another benchmark's name or an alias import every one.
    A plugin that fails to import is in :attr:`broken` from then on, and no longer among the names.
    """

    def __init__(
        self,
        plugins: Mapping[str, DomainPlugin] | None = None,
        broken: Mapping[str, PluginError] | None = None,
        declared: Mapping[str, _Declared] | None = None,
    ) -> None:
        self._loaded: dict[str, DomainPlugin] = dict(plugins or {})
        self.broken: dict[str, PluginError] = dict(broken or {})
        """The plugins that failed to load (those imported so far), by name, with the error naming their source."""
        self._declared: dict[str, _Declared] = dict(declared or {})
        self.variants: dict[str, DomainPlugin] = {}
        """The variants asked for so far (``<domain>:<variant>``), each built once; not among :meth:`names`."""

    @classmethod
    def discover(cls, directories: Sequence[Path] | None = None) -> Registry:
        """Every domain of the entry points and of ``directories`` (default: :func:`domain_path`), not yet imported.

        A name declared by two sources is imported at once: the same plugin object twice is one domain, two are
        an error naming both.
        """
        declared: dict[str, _Declared] = {}
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
            other = declared.get(name)
            if other is None:
                declared[name] = outcome
                continue
            first, second = other.load(name), outcome.load(name)
            if isinstance(first, DomainPlugin) and isinstance(second, DomainPlugin) and first is not second:
                twice = f"domain {name!r} is defined twice: by {other.source} and by {outcome.source}"
                broken[name] = PluginError(twice)
        for name, error in broken.items():
            declared.pop(name, None)
            log.warning("%s", error)
        return cls(broken=broken, declared={name: declared[name] for name in sorted(declared)})

    def _load(self, name: str) -> DomainPlugin | None:
        """The plugin ``name``, imported if need be; None when none is declared or it failed (then :attr:`broken`)."""
        plugin = self._loaded.get(name)
        if plugin is not None:
            return plugin
        declared = self._declared.pop(name, None)
        if declared is None:
            return None
        outcome = declared.load(name)
        if isinstance(outcome, PluginError):
            log.warning("%s", outcome)
            self.broken[name] = outcome
            return None
        self._loaded[name] = outcome
        return outcome

    @property
    def plugins(self) -> dict[str, DomainPlugin]:
        """Every plugin that loads, by name, sorted: imports those not imported yet."""
        for name in list(self._declared):
            self._load(name)
        return {name: self._loaded[name] for name in sorted(self._loaded)}

    def names(self) -> list[str]:
        """The names of the domains that load, sorted (imports every plugin)."""
        return list(self.plugins)

    def declared(self) -> list[str]:
        """The names of the plugins not imported yet, sorted (without importing them)."""
        return list(self._declared)

    def loaded(self) -> dict[str, DomainPlugin]:
        """The plugins imported so far, by name (without importing any other)."""
        return dict(self._loaded)

    def declares(self, name: str) -> bool:
        """Whether a plugin is named ``name`` and has not failed to load, without importing it."""
        return name in self._loaded or name in self._declared

    def get(self, name: str) -> DomainPlugin:
        """The plugin ``name``; KeyError when no plugin has that name, PluginError when it failed to load."""
        plugin = self._load(name)
        if plugin is not None:
            return plugin
        if name in self.broken:
            raise self.broken[name]
        if name in self.variants:
            return self.variants[name]
        base, _, variant = name.partition(VARIANT_SEPARATOR)
        found = self._load(base) if variant else None
        if found is not None:
            return self._variant(found, name, variant)
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
        plugin = self._load(base)
        return plugin.foreign_names.get(benchmark, base) if plugin is not None else base

    def canonical(self, name: str) -> str:
        """``name``, or the domain that declares it an alias (:attr:`DomainPlugin.aliases`): ``telecom`` is τ²'s."""
        if self.declares(name):
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
